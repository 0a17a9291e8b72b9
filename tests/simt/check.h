// check.h — what the conformance programs share: CHECK() for CUDA calls
// (prints the failing call and its error name, returns 1 from main) and
// expect_eq(), which counts a mismatch and prints the first eight.
#ifndef SIMT_TEST_CHECK_H
#define SIMT_TEST_CHECK_H

#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "FAIL %s:%d %s returned %s\n", __FILE__,       \
                    __LINE__, #call, cudaGetErrorName(err_));               \
            return 1;                                                       \
        }                                                                   \
    } while (0)

static int failures;

template <typename T>
static void show(T v)
{
    if constexpr (std::is_floating_point<T>::value)
        fprintf(stderr, "%.17g", (double)v);
    else if constexpr (std::is_signed<T>::value)
        fprintf(stderr, "%lld", (long long)v);
    else
        fprintf(stderr, "%llu", (unsigned long long)v);
}

// Counts a mismatch and prints the first few; true when the values agree.
template <typename T>
static bool expect_eq(const char *what, long index, T expected, T got)
{
    if (expected == got)
        return true;
    if (failures++ < 8) {
        fprintf(stderr, "FAIL %s %ld expected ", what, index);
        show(expected);
        fprintf(stderr, " got ");
        show(got);
        fprintf(stderr, "\n");
    }
    return false;
}

// The end of a program that must fail: the error of the kernel just
// launched (from the launch, or from the synchronization after it)
// against the one expected.  Returns the exit status the runners read:
// 1 when it is that error, 0 when the fault went unnoticed, 2 for any
// other error.
static int expect_kernel_error(cudaError_t want)
{
    cudaError_t err = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    if (err == cudaSuccess)
        err = sync;
    if (err == want) {
        fprintf(stderr, "the kernel failed with %s, as expected\n", cudaGetErrorName(err));
        return 1;
    }
    fprintf(stderr, "FAIL expected %s got %s\n", cudaGetErrorName(want), cudaGetErrorName(err));
    return err == cudaSuccess ? 0 : 2;
}

#endif
