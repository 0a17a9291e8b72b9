// gpus: 2
// Managed memory across devices and the host, without peer access (managed
// memory needs none): the host fills a managed array, a kernel on device 0
// squares the first half, a kernel on device 1 negates the second half and
// sums the whole array into a managed counter, the host checks everything;
// cudaMemPrefetchAsync to each device and to the host, cudaMemAdvise with
// a device location, and a device that does not exist refused.
#include <cstdio>
#include <cuda_runtime.h>

#include "check.h"

#define N 1024

__global__ void square(long long *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = a[i] * a[i];
}

__global__ void negate_and_sum(long long *a, int from, int n, unsigned long long *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (i >= from)
            a[i] = -a[i];
        atomicAdd(sum, (unsigned long long)a[i]);
    }
}

static cudaMemLocation device_location(int d)
{
    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = d;
    return loc;
}

int main(void)
{
    long long *a = nullptr;
    unsigned long long *sum = nullptr;
    CHECK(cudaSetDevice(1));
    CHECK(cudaMallocManaged(&a, N * sizeof(long long)));
    CHECK(cudaMallocManaged(&sum, sizeof *sum));
    for (int i = 0; i < N; i++)
        a[i] = i - 300;
    *sum = 0;

    CHECK(cudaSetDevice(0));
    CHECK(cudaMemPrefetchAsync(a, N * sizeof(long long), device_location(0), 0, 0));
    square<<<(N / 2 + 127) / 128, 128>>>(a, N / 2);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaSetDevice(1));
    CHECK(cudaMemAdvise(a, N * sizeof(long long), cudaMemAdviseSetPreferredLocation,
                        device_location(1)));
    CHECK(cudaMemPrefetchAsync(a, N * sizeof(long long), device_location(1), 0, 0));
    negate_and_sum<<<N / 128, 128>>>(a, N / 2, N, sum);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaMemLocation host = {};
    host.type = cudaMemLocationTypeHost;
    CHECK(cudaMemPrefetchAsync(a, N * sizeof(long long), host, 0, 0));
    CHECK(cudaDeviceSynchronize());
    long long want_sum = 0;
    for (int i = 0; i < N; i++) {
        long long v = i - 300;
        long long want = i < N / 2 ? v * v : -v;
        want_sum += want;
        expect_eq("managed element", i, want, a[i]);
    }
    expect_eq("managed sum", 0L, (unsigned long long)want_sum, *sum);

    expect_eq("prefetch to device 2", 0L, (int)cudaErrorInvalidDevice,
              (int)cudaMemPrefetchAsync(a, 64, device_location(2), 0, 0));
    expect_eq("advise device 2", 0L, (int)cudaErrorInvalidDevice,
              (int)cudaMemAdvise(a, 64, cudaMemAdviseSetAccessedBy, device_location(2)));
    cudaGetLastError();

    CHECK(cudaFree(a));
    CHECK(cudaFree(sum));
    if (failures)
        return 1;
    printf("ok multi_managed\n");
    return 0;
}
