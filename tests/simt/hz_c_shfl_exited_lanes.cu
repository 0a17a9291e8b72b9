// Clean: a block of 1024 threads where the threads past the row's length
// return first, so the last warp keeps only its low lanes, which then
// scan, broadcast, vote and __syncwarp with the full mask 0xffffffff.
// CUDA asks only the non-exited lanes a mask names to take part, and
// every lane read here is one that is still running (__shfl_up_sync reads
// lower lanes, the broadcast reads the last one left), so nothing is
// undefined.  Rows of 1000 and 1017 threads leave 8 and 25 lanes of the
// last warp; a row of 1024 leaves the whole block.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define THREADS 1024

// out[t] = inclusive prefix sum of in[] within t's warp, out[n + t] = the
// warp's total (from its last running lane), out[2n + t] = the warp's
// ballot of odd prefix sums
__global__ void warp_scan(const int *in, int *out, int n)
{
    int t = threadIdx.x;
    if (t >= n)
        return;
    int lane = t % 32, live = min(32, n - (t - lane)), v = in[t];
    for (int o = 1; o < 32; o *= 2) {
        int u = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o)
            v += u;
    }
    int total = __shfl_sync(0xffffffffu, v, live - 1);
    unsigned odd = __ballot_sync(0xffffffffu, v & 1);
    __syncwarp();
    out[t] = v;
    out[n + t] = total;
    out[2 * n + t] = (int)odd;
}

static int run(int n)
{
    int *in, *out, h_in[THREADS], got[3 * THREADS];
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 7 + 3) % 11;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, 3 * n * sizeof(int)));
    CHECK(cudaMemcpy(in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
    warp_scan<<<1, THREADS>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, out, 3 * n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int w = 0; w * 32 < n; w++) {
        int live = n - w * 32 < 32 ? n - w * 32 : 32, sum = 0;
        unsigned odd = 0;
        int prefix[32];
        for (int l = 0; l < live; l++) {
            sum += h_in[w * 32 + l];
            prefix[l] = sum;
            if (sum & 1)
                odd |= 1u << l;
        }
        for (int l = 0; l < live; l++) {
            int t = w * 32 + l;
            expect_eq("prefix", t, prefix[l], got[t]);
            expect_eq("total", t, sum, got[n + t]);
            expect_eq("ballot", t, (int)odd, got[2 * n + t]);
        }
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}

int main()
{
    if (run(1000) || run(1017) || run(THREADS))
        return 1;
    DONE("hz_c_shfl_exited_lanes");
}
