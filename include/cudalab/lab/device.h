/* Part of cudalab/lab.h, the one header exercises include: device arrays:
 * allocations with guards, per device. */
#ifndef CUDALAB_LAB_DEVICE_H
#define CUDALAB_LAB_DEVICE_H

#include "base.h"
#include "elem.h"

namespace lab {
namespace {

/* --------------------------------------------------------- device arrays */

inline void check_cuda(cudaError_t e, const char* what);

/* A counter shared by device arrays and lab.call: which came first. */
inline uint64_t next_serial()
{
    static uint64_t n = 0;
    return ++n;
}

/* Makes `dev` the current device for the life of the scope and restores
 * the previous one after it; dev < 0 leaves the current device alone. */
class DeviceScope {
public:
    explicit DeviceScope(int dev)
    {
        if (dev < 0 || cudaGetDevice(&prev_) != cudaSuccess) {
            prev_ = -1;
            return;
        }
        if (dev != prev_)
            check_cuda(cudaSetDevice(dev), "making a device current");
    }
    ~DeviceScope()
    {
        if (prev_ >= 0)
            cudaSetDevice(prev_);
    }
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;

private:
    int prev_ = -1;
};

/* A device allocation of n elements plus `guard` elements after them. */
template <class T> class DeviceArray {
public:
    DeviceArray() = default;
    /* dev >= 0: allocated on that device (the current one is restored). */
    DeviceArray(size_t n, size_t guard, const T* host, int dev = -1)
        : n_(n), guard_(guard), serial_(next_serial()), fresh_(!host), dev_(dev)
    {
        DeviceScope on(dev_);
        size_t total = (n + guard) * sizeof(T);
        check_cuda(cudaMalloc((void**)&p_, total ? total : 1), "cudaMalloc");
        if (host) {
            check_cuda(cudaMemcpy(p_, host, n * sizeof(T), cudaMemcpyHostToDevice),
                       "copying an input to the device");
            if (guard)
                check_cuda(cudaMemset(p_ + n, Elem<T>::canary_byte(), guard * sizeof(T)),
                           "filling a guard with the canary");
        } else if (total) {
            check_cuda(cudaMemset(p_, Elem<T>::canary_byte(), total),
                       "filling an output with the canary");
        }
    }
    ~DeviceArray()
    {
        if (p_) {
            DeviceScope on(dev_);
            cudaFree(p_);
        }
    }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    DeviceArray(DeviceArray&& o) noexcept
        : p_(o.p_), n_(o.n_), guard_(o.guard_), serial_(o.serial_), fresh_(o.fresh_),
          dev_(o.dev_)
    {
        o.p_ = nullptr;
    }
    DeviceArray& operator=(DeviceArray&& o) noexcept
    {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
        std::swap(guard_, o.guard_);
        std::swap(serial_, o.serial_);
        std::swap(fresh_, o.fresh_);
        std::swap(dev_, o.dev_);
        return *this;
    }

    T* get() const { return p_; }
    operator T*() const { return p_; }
    size_t size() const { return n_; }
    size_t guard() const { return guard_; }
    /* Order of creation among all arrays (and lab.call's, see Lab). */
    uint64_t serial() const { return serial_; }
    /* True for lab::output: the whole array started as canary. */
    bool fresh() const { return fresh_; }
    /* The device it lives on; -1: the one current when it was made. */
    int device() const { return dev_; }

    /* Fills the n elements (not the guard) with `byte`. */
    void refill(unsigned char byte) const
    {
        DeviceScope on(dev_);
        if (n_)
            check_cuda(cudaMemset(p_, byte, n_ * sizeof(T)),
                       "filling an output with the second canary");
    }

    /* Puts h (at most the n elements and the guard) into the array. */
    void upload(const std::vector<T>& h) const
    {
        DeviceScope on(dev_);
        size_t k = std::min(h.size(), n_ + guard_);
        if (k)
            check_cuda(cudaMemcpy(p_, h.data(), k * sizeof(T), cudaMemcpyHostToDevice),
                       "copying the program's output into the checker's array");
    }

    /* The n elements followed by the guard. */
    std::vector<T> download() const
    {
        std::vector<T> h(n_ + guard_);
        if (!h.empty())
            check_cuda(cudaMemcpy(h.data(), p_, h.size() * sizeof(T),
                                  cudaMemcpyDeviceToHost),
                       "copying an output back to the host");
        return h;
    }

private:
    T* p_ = nullptr;
    size_t n_ = 0, guard_ = 0;
    uint64_t serial_ = 0;
    bool fresh_ = false;
    int dev_ = -1;
};

template <class T> inline DeviceArray<T> to_device(const std::vector<T>& h)
{
    return DeviceArray<T>(h.size(), 0, h.data());
}
template <class T> inline DeviceArray<T> output(size_t n)
{
    return DeviceArray<T>(n, kGuard, nullptr);
}
template <class T> inline DeviceArray<T> inout(const std::vector<T>& h)
{
    return DeviceArray<T>(h.size(), kGuard, h.data());
}
/* The same on device dev (lab.devices(n) must have asked for it). */
template <class T> inline DeviceArray<T> to_device_on(int dev, const std::vector<T>& h)
{
    return DeviceArray<T>(h.size(), 0, h.data(), dev);
}
template <class T> inline DeviceArray<T> output_on(int dev, size_t n)
{
    return DeviceArray<T>(n, kGuard, nullptr, dev);
}
template <class T> inline DeviceArray<T> inout_on(int dev, const std::vector<T>& h)
{
    return DeviceArray<T>(h.size(), kGuard, h.data(), dev);
}
} /* namespace */
} /* namespace lab */

#endif
