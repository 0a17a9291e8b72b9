// Clean: __ballot_sync and __match_any_sync with the full mask in a full
// warp.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void vote(const int *x, unsigned *out)
{
    int lane = threadIdx.x, v = x[lane];
    unsigned b = __ballot_sync(0xffffffffu, v > 10);
    unsigned m = __match_any_sync(0xffffffffu, v % 4);
    out[lane] = lane == 0 ? b : m;
}
int main()
{
    int h[32];
    unsigned got[32], *out;
    int *x;
    for (int i = 0; i < 32; i++) h[i] = (i * 5) % 23;
    CHECK(cudaMalloc(&x, sizeof h));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    vote<<<1, 32>>>(x, out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    unsigned b = 0;
    for (int i = 0; i < 32; i++) b |= (unsigned)(h[i] > 10) << i;
    expect_eq("ballot", 0, b, got[0]);
    for (int l = 1; l < 32; l++) {
        unsigned m = 0;
        for (int i = 0; i < 32; i++) m |= (unsigned)(h[i] % 4 == h[l] % 4) << i;
        expect_eq("match", l, m, got[l]);
    }
    DONE("hz_c_ballot_match");
}
