// Shared-memory bank conflicts of 8- and 16-byte accesses, read through
// cudalab_simt_counter("shared_bank_conflicts") around one-warp launches.
// A warp's shared access is served in phases: 32 lanes at a time for
// 4-byte accesses, 16 for 8-byte ones and 8 for 16-byte ones, each phase
// taking one wavefront per distinct 4-byte word in its busiest bank (simt
// keeps up to 8 words per bank).  The conflicts are the wavefronts beyond
// the first of each phase.  Each kernel stores and then loads one element
// per lane at element index lane * stride, so it makes one store and one
// load request with the same conflicts.  Worked out by hand (word w lies
// in bank w % 32):
//   double, stride 1: lane l touches words 2l and 2l+1; lanes 0-15 cover
//     words 0-31 and lanes 16-31 words 32-63, one word per bank in each
//     phase: 0 per request (one 32-lane phase would see two words in
//     every bank: 1).
//   double, stride 2: words 4l and 4l+1; in lanes 0-15, banks 0,1,4,5,...
//     each hold two words (lane l and lane l+8): 1 per phase, 2 per
//     request.
//   double, stride 16: words 32l and 32l+1, banks 0 and 1 only; 16 words
//     each in a phase, counted up to 8: 7 per phase, 14 per request.
//   float4, stride 1: words 4l..4l+3; each 8-lane phase covers 32 words,
//     one per bank: 0 per request (16-lane phases would see 2 per bank:
//     1 per phase, 2 per request).
//   float4, stride 2: words 8l..8l+3; in lanes 0-7, banks 0-3, 8-11,
//     16-19 and 24-27 hold two words each (lane l and lane l+4): 1 per
//     phase, 4 per request.
// The symbol is weak: on a GPU it is null and the program only checks the
// values the kernels move.
#include <cstdio>
#include <cuda_runtime.h>

#include "check.h"

extern "C" int cudalab_simt_counter(const char *name, unsigned long long *value)
    __attribute__((weak));

__global__ void doubles(double *out, int stride)
{
    __shared__ double s[32 * 16];
    int l = threadIdx.x;
    s[l * stride] = 1.5 * l;
    __syncwarp();
    out[l] = s[l * stride];
}

__global__ void float4s(float4 *out, int stride)
{
    __shared__ float4 s[32 * 2];
    int l = threadIdx.x;
    s[l * stride] = make_float4(l, l + 1, l + 2, l + 3);
    __syncwarp();
    out[l] = s[l * stride];
}

static unsigned long long conflicts()
{
    unsigned long long v = 0;
    if (cudalab_simt_counter && cudalab_simt_counter("shared_bank_conflicts", &v) != 0) {
        fprintf(stderr, "FAIL counter shared_bank_conflicts unknown\n");
        failures++;
    }
    return v;
}

int main()
{
    double *dd, hd[32];
    float4 *df, hf[32];
    CHECK(cudaMalloc(&dd, sizeof hd));
    CHECK(cudaMalloc(&df, sizeof hf));
    conflicts(); // the first call turns counting on
    struct { int stride; unsigned long long per_request; } dcase[] = {
        {1, 0}, {2, 2}, {16, 14},
    };
    for (auto &c : dcase) {
        unsigned long long before = conflicts();
        doubles<<<1, 32>>>(dd, c.stride);
        CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
        unsigned long long got = conflicts() - before;
        for (int l = 0; l < 32; l++)
            expect_eq("double value", c.stride * 100 + l, 1.5 * l, hd[l]);
        if (cudalab_simt_counter)
            expect_eq("double conflicts, stride", c.stride, 2 * c.per_request, got);
    }
    struct { int stride; unsigned long long per_request; } fcase[] = {{1, 0}, {2, 4}};
    for (auto &c : fcase) {
        unsigned long long before = conflicts();
        float4s<<<1, 32>>>(df, c.stride);
        CHECK(cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost));
        unsigned long long got = conflicts() - before;
        for (int l = 0; l < 32; l++)
            expect_eq("float4 value", c.stride * 100 + l, (float)l + 3, hf[l].w);
        if (cudalab_simt_counter)
            expect_eq("float4 conflicts, stride", c.stride, 2 * c.per_request, got);
    }
    if (failures)
        return 1;
    printf("ok rt_bank_conflicts_wide\n");
    return 0;
}
