// expect: exit=1 stderr=misaligned shared mbarrier access [simt-only]
// Must fail on simt: mbarrier.init on a shared address that is 4 bytes off
// the 8-byte alignment an mbarrier object needs.  simt reports the
// misaligned access like any other, and the launch fails with
// cudaErrorMisalignedAddress.  Exit status 1 when that error is reported.
#include <cstdio>
#include <cstdint>

__global__ void misaligned(int *out)
{
    __shared__ unsigned long long words[2];
    uint32_t addr = (uint32_t)__cvta_generic_to_shared(&words[0]) + 4;
#if __CUDA_ARCH__ >= 800
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(addr), "r"(1));
#else
    (void)addr;  // no mbarrier before sm_80
    __trap();
#endif
    out[0] = 1;
}

int main()
{
    int *d;
    if (cudaMalloc(&d, sizeof(int)) != cudaSuccess)
        return 2;
    misaligned<<<1, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaErrorMisalignedAddress) {
        fprintf(stderr, "reported as %s\n", cudaGetErrorName(e));
        return 1;
    }
    fprintf(stderr, "expected cudaErrorMisalignedAddress, got %s\n",
            cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 2;
}
