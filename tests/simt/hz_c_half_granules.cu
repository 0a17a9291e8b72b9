// Clean: 2-byte elements two to a 4-byte granule, read and written by
// different threads in phases separated by barriers, never the same
// element at once.
//   A. Thread t reads the odd element of "its" granule; after a barrier
//      thread t^32 reads the even one while thread t writes the odd one.
//   B. Thread t reads the odd element; after a barrier it reads the even
//      one while thread t^32 writes the odd one.
// (The last read of the odd element is ordered before each write; the
// reads beside the writes touch the other half of the granule.)
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

__global__ void phases(unsigned short *out)
{
    __shared__ unsigned short s[128];
    int t = threadIdx.x, u = t ^ 32;
    s[2 * t] = (unsigned short)(2 * t);
    s[2 * t + 1] = (unsigned short)(2 * t + 1);
    __syncthreads();
    unsigned short a = s[2 * t + 1];            // A: odd, own granule
    __syncthreads();
    unsigned short b = s[2 * u];                // even half of u's granule
    s[2 * t + 1] = (unsigned short)(a + 1000);  // odd half of t's granule
    __syncthreads();
    unsigned short c = s[2 * t + 1];            // B: odd, own granule
    __syncthreads();
    unsigned short d = s[2 * t];                // even half
    s[2 * u + 1] = (unsigned short)(b + 2000);  // u's odd half
    __syncthreads();
    out[4 * t] = a;
    out[4 * t + 1] = b;
    out[4 * t + 2] = c;
    out[4 * t + 3] = (unsigned short)(d + s[2 * t + 1]);
}

int main()
{
    unsigned short *out, got[256];
    CHECK(cudaMalloc(&out, sizeof got));
    phases<<<1, 64>>>(out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
        int u = t ^ 32;
        expect_eq("a", t, 2 * t + 1, (int)got[4 * t]);
        expect_eq("b", t, 2 * u, (int)got[4 * t + 1]);
        expect_eq("c", t, 2 * t + 1 + 1000, (int)got[4 * t + 2]);
        // thread u wrote s[2t+1] = (its b) + 2000 = 2t + 2000
        expect_eq("d", t, 2 * t + 2 * t + 2000, (int)got[4 * t + 3]);
    }
    DONE("hz_c_half_granules");
}
