// Clean: cuda::memcpy_async of a whole tile completing on a block-scope
// cuda::barrier; arrive_and_wait orders the copy before every read.
#include <cuda/barrier>
#include <cooperative_groups.h>
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
namespace cg = cooperative_groups;
__global__ void reverse(const int *in, int *out)
{
    __shared__ int tile[128];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    cg::thread_block block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, tile, in + blockIdx.x * 128, sizeof tile, bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}
int main()
{
    int h[256], got[256], *in, *out;
    for (int i = 0; i < 256; i++) h[i] = i * 3;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    reverse<<<2, 128>>>(in, out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; i++)
        expect_eq("out", i, h[(i / 128) * 128 + 127 - i % 128], got[i]);
    DONE("hz_c_memcpy_async_barrier");
}
