// Error reporting that a program can recover from: bad launch
// configurations (2048 threads per block, block z of 65, grid y of 70000,
// empty block) reported by cudaGetLastError / cudaPeekAtLastError and by
// cudaLaunchKernel's return value; the error is cleared on read and is not
// sticky, so a good launch afterwards still works. Also cudaMemcpy with an
// invalid direction or a null device pointer, an impossible cudaMalloc,
// cudaFree(nullptr), an invalid device number, and cudaGetErrorName /
// cudaGetErrorString for known codes.
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

// Checks that `got` is the expected error code, printing both names.
static void expect_error(const char *what, cudaError_t want, cudaError_t got)
{
    if (want != got && failures++ < 8)
        fprintf(stderr, "FAIL %s 0 expected %s got %s\n", what, cudaGetErrorName(want),
                cudaGetErrorName(got));
}

static void expect_string(const char *what, const char *want, const char *got)
{
    if ((got == nullptr || strcmp(want, got) != 0) && failures++ < 8)
        fprintf(stderr, "FAIL %s 0 expected \"%s\" got \"%s\"\n", what, want, got ? got : "(null)");
}

__global__ void iota(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 3 * i;
}

static int good_launch_works(int *d, const char *after)
{
    const int n = 500;
    int h[n];
    CHECK(cudaMemset(d, 0, n * sizeof(int)));
    iota<<<(n + 255) / 256, 256>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq(after, i, 3 * i, h[i]);
    return 0;
}

static int check_launch_errors(int *d)
{
    iota<<<1, 2048>>>(d, 10);
    expect_error("2048 threads per block", cudaErrorInvalidConfiguration, cudaGetLastError());
    expect_error("error cleared after cudaGetLastError", cudaSuccess, cudaGetLastError());
    if (good_launch_works(d, "good launch after 2048-thread launch"))
        return 1;

    iota<<<1, dim3(1, 1, 65)>>>(d, 10);
    expect_error("peek: block z = 65", cudaErrorInvalidConfiguration, cudaPeekAtLastError());
    expect_error("peek does not clear", cudaErrorInvalidConfiguration, cudaPeekAtLastError());
    expect_error("get after peek", cudaErrorInvalidConfiguration, cudaGetLastError());
    expect_error("cleared after get", cudaSuccess, cudaGetLastError());

    iota<<<dim3(1, 70000), 32>>>(d, 10);
    expect_error("grid y = 70000", cudaErrorInvalidConfiguration, cudaGetLastError());
    iota<<<1, dim3(32, 32, 2)>>>(d, 10);
    expect_error("32x32x2 block", cudaErrorInvalidConfiguration, cudaGetLastError());
    iota<<<1, 0>>>(d, 10);
    expect_error("empty block", cudaErrorInvalidConfiguration, cudaGetLastError());
    iota<<<0, 32>>>(d, 10);
    expect_error("empty grid", cudaErrorInvalidConfiguration, cudaGetLastError());

    int n = 10;
    void *args[] = {&d, &n};
    expect_error("cudaLaunchKernel with 2048 threads", cudaErrorInvalidConfiguration,
                 cudaLaunchKernel((const void *)iota, dim3(1), dim3(2048), args, 0, 0));
    (void)cudaGetLastError(); // an API error is also recorded as the last error
    expect_error("cudaLaunchKernel with a good configuration", cudaSuccess,
                 cudaLaunchKernel((const void *)iota, dim3(1), dim3(32), args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    return good_launch_works(d, "good launch after bad configurations");
}

static int check_api_errors(int *d)
{
    int h[16] = {0};
    expect_error("cudaMemcpy invalid direction", cudaErrorInvalidMemcpyDirection,
                 cudaMemcpy(d, h, sizeof h, (cudaMemcpyKind)42));
    (void)cudaGetLastError();
    expect_error("cudaMemcpy to a null device pointer", cudaErrorInvalidValue,
                 cudaMemcpy(nullptr, h, sizeof h, cudaMemcpyHostToDevice));
    (void)cudaGetLastError();
    void *huge = nullptr;
    expect_error("cudaMalloc of 2^50 bytes", cudaErrorMemoryAllocation, cudaMalloc(&huge, 1ull << 50));
    (void)cudaGetLastError();
    expect_error("cudaFree(nullptr)", cudaSuccess, cudaFree(nullptr));
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    expect_error("cudaSetDevice(count + 7)", cudaErrorInvalidDevice, cudaSetDevice(count + 7));
    (void)cudaGetLastError();
    int local = 0;
    if (cudaFree(&local) == cudaSuccess && failures++ < 8)
        fprintf(stderr, "FAIL cudaFree of a host stack address 0 expected an error got cudaSuccess\n");
    (void)cudaGetLastError();
    CHECK(cudaSetDevice(0));
    void *small = nullptr;
    CHECK(cudaMalloc(&small, 256));
    CHECK(cudaFree(small));
    return good_launch_works(d, "good launch after API errors");
}

static void check_names(void)
{
    const struct {
        cudaError_t code;
        const char *name;
    } names[] = {
        {cudaSuccess, "cudaSuccess"},
        {cudaErrorInvalidValue, "cudaErrorInvalidValue"},
        {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation"},
        {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration"},
        {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection"},
        {cudaErrorInvalidDevice, "cudaErrorInvalidDevice"},
        {cudaErrorIllegalAddress, "cudaErrorIllegalAddress"},
        {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress"},
        {cudaErrorAssert, "cudaErrorAssert"},
        {cudaErrorLaunchFailure, "cudaErrorLaunchFailure"},
        {cudaErrorNotReady, "cudaErrorNotReady"},
    };
    for (const auto &n : names)
        expect_string("cudaGetErrorName", n.name, cudaGetErrorName(n.code));
    expect_string("cudaGetErrorString(cudaSuccess)", "no error", cudaGetErrorString(cudaSuccess));
    expect_string("cudaGetErrorString(cudaErrorInvalidValue)", "invalid argument",
                  cudaGetErrorString(cudaErrorInvalidValue));
    expect_string("cudaGetErrorString(cudaErrorMemoryAllocation)", "out of memory",
                  cudaGetErrorString(cudaErrorMemoryAllocation));
    expect_string("cudaGetErrorString(cudaErrorInvalidConfiguration)",
                  "invalid configuration argument",
                  cudaGetErrorString(cudaErrorInvalidConfiguration));
    expect_string("cudaGetErrorString(cudaErrorIllegalAddress)",
                  "an illegal memory access was encountered",
                  cudaGetErrorString(cudaErrorIllegalAddress));
}

int main(void)
{
    int *d;
    CHECK(cudaMalloc(&d, 512 * sizeof(int)));
    if (check_launch_errors(d) || check_api_errors(d))
        return 1;
    check_names();
    CHECK(cudaFree(d));
    if (failures)
        return 1;
    printf("ok error_paths\n");
    return 0;
}
