// Per-thread local arrays indexed with run-time values, which forces them
// into local memory: an insertion sort of 32 ints per thread, a float array
// read through a permutation loaded from global memory, a local array of
// structs, and a local array handed by pointer to a __noinline__ function
// (so it is reached through a generic address).
#include <algorithm>
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 64, LEN = 32, PERM = 16 };

struct Item {
    int key;
    short tag;
    double weight;
};

__device__ __noinline__ void fill_squares(long long *p, int n, int seed)
{
    for (int k = 0; k < n; k++)
        p[k] = (long long)(k + seed) * (k + seed);
}

__device__ __noinline__ long long sum_every_other(const long long *p, int n, int start)
{
    long long s = 0;
    for (int k = start; k < n; k += 2)
        s += p[k];
    return s;
}

__global__ void local_kernel(const int *perm, int *sorted, float *permuted, double *items_out,
                             long long *ptr_out)
{
    int t = threadIdx.x;

    int a[LEN];
    unsigned x = 2654435761u * (t + 1);
    for (int k = 0; k < LEN; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        a[k] = (int)(x % 1000) - 500;
    }
    for (int k = 1; k < LEN; k++) {
        int v = a[k], j = k - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
    for (int k = 0; k < LEN; k++)
        sorted[t * LEN + k] = a[k];

    float f[PERM];
    for (int k = 0; k < PERM; k++)
        f[k] = (float)(k * k) + 0.5f * (float)t;
    float acc = 0.0f;
    for (int k = 0; k < PERM; k++)
        acc += f[perm[(t + k) % PERM]] * (float)(k + 1);
    permuted[t] = acc;

    Item items[8];
    for (int k = 0; k < 8; k++) {
        items[k].key = (k * 5 + t) % 8;
        items[k].tag = (short)(k - t);
        items[k].weight = 0.125 * (k + 1);
    }
    double w = 0.0;
    int idx = t % 8;
    for (int k = 0; k < 8; k++) {
        w += items[idx].weight * items[idx].tag;
        idx = items[idx].key;
    }
    items_out[t] = w;

    long long sq[20];
    fill_squares(sq, 10 + t % 10, t);
    ptr_out[t] = sum_every_other(sq, 10 + t % 10, t % 2);
}

int main(void)
{
    int h_perm[PERM];
    for (int k = 0; k < PERM; k++)
        h_perm[k] = (k * 7 + 3) % PERM;
    static int h_sorted[THREADS * LEN];
    float h_permuted[THREADS];
    double h_items[THREADS];
    long long h_ptr[THREADS];
    int *d_perm, *d_sorted;
    float *d_permuted;
    double *d_items;
    long long *d_ptr;
    CHECK(cudaMalloc(&d_perm, sizeof h_perm));
    CHECK(cudaMalloc(&d_sorted, sizeof h_sorted));
    CHECK(cudaMalloc(&d_permuted, sizeof h_permuted));
    CHECK(cudaMalloc(&d_items, sizeof h_items));
    CHECK(cudaMalloc(&d_ptr, sizeof h_ptr));
    CHECK(cudaMemcpy(d_perm, h_perm, sizeof h_perm, cudaMemcpyHostToDevice));
    local_kernel<<<1, THREADS>>>(d_perm, d_sorted, d_permuted, d_items, d_ptr);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_sorted, d_sorted, sizeof h_sorted, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_permuted, d_permuted, sizeof h_permuted, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_items, d_items, sizeof h_items, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_ptr, d_ptr, sizeof h_ptr, cudaMemcpyDeviceToHost));

    for (int t = 0; t < THREADS; t++) {
        int a[LEN];
        unsigned x = 2654435761u * (t + 1);
        for (int k = 0; k < LEN; k++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            a[k] = (int)(x % 1000) - 500;
        }
        std::sort(a, a + LEN);
        for (int k = 0; k < LEN; k++)
            expect_eq("insertion sort in local memory", t * LEN + k, a[k], h_sorted[t * LEN + k]);

        float acc = 0.0f;
        for (int k = 0; k < PERM; k++) {
            int j = h_perm[(t + k) % PERM];
            acc += ((float)(j * j) + 0.5f * (float)t) * (float)(k + 1);
        }
        expect_eq("local float array through a permutation", t, acc, h_permuted[t]);

        int key[8], tag[8];
        for (int k = 0; k < 8; k++) {
            key[k] = (k * 5 + t) % 8;
            tag[k] = k - t;
        }
        double w = 0.0;
        int idx = t % 8;
        for (int k = 0; k < 8; k++) {
            w += 0.125 * (idx + 1) * tag[idx];
            idx = key[idx];
        }
        expect_eq("local struct array walk", t, w, h_items[t]);

        long long s = 0;
        for (int k = t % 2; k < 10 + t % 10; k += 2)
            s += (long long)(k + t) * (k + t);
        expect_eq("local array through a pointer", t, s, h_ptr[t]);
    }
    CHECK(cudaFree(d_perm));
    CHECK(cudaFree(d_sorted));
    CHECK(cudaFree(d_permuted));
    CHECK(cudaFree(d_items));
    CHECK(cudaFree(d_ptr));
    if (failures)
        return 1;
    printf("ok local_arrays\n");
    return 0;
}
