// Clean: an inclusive warp scan with __shfl_up_sync, then a block scan
// through shared memory with barriers.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void scan(const int *in, int *out)
{
    __shared__ int warp_tot[4];
    int t = threadIdx.x, lane = t % 32, v = in[t];
    for (int o = 1; o < 32; o *= 2) {
        int u = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o)
            v += u;
    }
    if (lane == 31)
        warp_tot[t / 32] = v;
    __syncthreads();
    for (int w = 0; w < t / 32; w++)
        v += warp_tot[w];
    out[t] = v;
}
int main()
{
    int h[128], got[128], *in, *out;
    for (int i = 0; i < 128; i++) h[i] = (i * 11) % 9;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    scan<<<1, 128>>>(in, out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    int run = 0;
    for (int i = 0; i < 128; i++) { run += h[i]; expect_eq("scan", i, run, got[i]); }
    DONE("hz_c_warp_scan");
}
