// simt-nvcc-flags: --no-compress -G -cudart none -arch=sm_80
// A debug build (-G) keeps every variable in local memory and reaches it
// through the stack pointer, and its reads of words nothing wrote whole
// are no report:
//   - cooperative_groups objects set their bitfields by loading the word,
//     clearing the field's bits with an `and` and or-ing the value in;
//   - a struct of which three fields were set is copied field by field,
//     the unset one included, into another local variable;
//   - bins zeroed with `= {0}` and counted by data.
#include "check.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

struct Rec {
    int a, b, c, d;
};

__global__ void debug_locals(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int t = block.thread_rank();
    Rec r;
    r.a = t;
    r.b = 2 * t;
    r.c = 3 * t;
    Rec c = r;
    int counts[4] = {0};
    for (int i = 0; i < 8; i++)
        counts[in[t * 8 + i] & 3]++;
    int s = c.a + c.b + c.c + counts[0] + 2 * counts[3];
    out[t] = s + (int)warp.thread_rank();
}

int main()
{
    const int threads = 64;
    static int h[threads * 8];
    int got[threads], *in, *out, bad = 0;
    for (int i = 0; i < threads * 8; i++)
        h[i] = i * 3;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, threads * sizeof(int)));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    debug_locals<<<1, threads>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        int counts[4] = {0};
        for (int i = 0; i < 8; i++)
            counts[h[t * 8 + i] & 3]++;
        int s = 6 * t + counts[0] + 2 * counts[3] + t % 32;
        bad += !expect_eq("out", t, s, got[t]);
    }
    if (bad)
        return 1;
    printf("ok hz_c_local_debug\n");
    return 0;
}
