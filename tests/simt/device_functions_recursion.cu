// __noinline__ device functions: arguments of mixed types, a struct passed
// and returned by value, a pointer out-parameter; recursion (Fibonacci, a
// mutually recursive even/odd pair, Ackermann, and a factorial that the
// compiler may turn into a loop) with a different depth in every lane; and
// calls through a table of __device__ function pointers chosen per lane.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 64, NREC = 10 };

struct Pair {
    long long sum;
    double mean;
    int count;
};

__device__ __noinline__ Pair summarize(const int *v, int n, double offset)
{
    Pair p = {0, 0.0, n};
    for (int k = 0; k < n; k++)
        p.sum += v[k];
    p.mean = (double)p.sum / n + offset;
    return p;
}

__device__ __noinline__ int mix(char c, short s, int i, long long l, float f, double d, int *side)
{
    *side = c + s;
    return (int)(i + l % 1000 + (long long)f + (long long)d);
}

__device__ __noinline__ unsigned long long factorial(unsigned n)
{
    return n <= 1 ? 1ull : n * factorial(n - 1);
}

__device__ __noinline__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ bool is_odd(unsigned n);

__device__ __noinline__ bool is_even(unsigned n)
{
    return n == 0 ? true : is_odd(n - 1);
}

__device__ __noinline__ bool is_odd(unsigned n)
{
    return n == 0 ? false : is_even(n - 1);
}

__device__ __noinline__ int ackermann(int m, int n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_max(int a, int b) { return a > b ? a : b; }

typedef int (*binop)(int, int);
__device__ binop ops[4] = {op_add, op_sub, op_mul, op_max};

__global__ void calls(const int *data, long long *out)
{
    int t = threadIdx.x;
    long long *rec = out + t * NREC;
    Pair p = summarize(data + t, 8, 0.25 * t);
    rec[0] = p.sum;
    rec[1] = (long long)(p.mean * 8.0);
    rec[2] = p.count;
    int side = 0;
    rec[3] = mix((char)(t - 100), (short)(t * 300), t, 1000000007ll * t, 2.5f * t, -1.5 * t, &side);
    rec[4] = side;
    rec[5] = (long long)factorial((unsigned)(t % 21));
    rec[6] = fib(t % 16);
    rec[7] = is_even((unsigned)(t % 24)) ? 1 : 0;
    rec[8] = ackermann(t % 3, t % 4);
    binop f = ops[t % 4];
    rec[9] = f(t, 7 - t % 11);
}

static long long host_fib(int n)
{
    long long a = 0, b = 1;
    for (int k = 0; k < n; k++) {
        long long c = a + b;
        a = b;
        b = c;
    }
    return a;
}

// Ackermann for m <= 2 in closed form: A(0,n)=n+1, A(1,n)=n+2, A(2,n)=2n+3.
static long long host_ackermann(int m, int n)
{
    return m == 0 ? n + 1 : m == 1 ? n + 2 : 2 * n + 3;
}

int main(void)
{
    int h_data[THREADS + 8];
    static long long h_out[THREADS * NREC];
    for (int k = 0; k < THREADS + 8; k++)
        h_data[k] = (k * 31) % 17 - 8;
    int *d_data;
    long long *d_out;
    CHECK(cudaMalloc(&d_data, sizeof h_data));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMemcpy(d_data, h_data, sizeof h_data, cudaMemcpyHostToDevice));
    // Recursion depth is not known to the compiler; make room for it.
    size_t stack = 0;
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    if (stack < 4096)
        expect_eq("cudaLimitStackSize after set", 0L, (size_t)4096, stack);
    calls<<<1, THREADS>>>(d_data, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));

    for (int t = 0; t < THREADS; t++) {
        long long sum = 0;
        for (int k = 0; k < 8; k++)
            sum += h_data[t + k];
        unsigned long long fact = 1;
        for (unsigned k = 2; k <= (unsigned)(t % 21); k++)
            fact *= k;
        int a = t, b = 7 - t % 11;
        long long opv = t % 4 == 0 ? a + b : t % 4 == 1 ? a - b : t % 4 == 2 ? a * b
                                                                             : (a > b ? a : b);
        long long want[NREC] = {
            sum,
            sum + 2 * t,
            8,
            t + (1000000007ll * t) % 1000 + (long long)(2.5f * t) + (long long)(-1.5 * t),
            (long long)(t - 100) + (long long)(short)(t * 300),
            (long long)fact,
            host_fib(t % 16),
            (t % 24) % 2 == 0 ? 1 : 0,
            host_ackermann(t % 3, t % 4),
            opv,
        };
        for (int k = 0; k < NREC; k++)
            expect_eq("device call result", t * NREC + k, want[k], h_out[t * NREC + k]);
    }
    expect_eq("hand: 20!", 20L, 2432902008176640000ll, h_out[20 * NREC + 5]);
    expect_eq("hand: fib(15)", 15L, 610ll, h_out[15 * NREC + 6]);

    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_out));
    if (failures)
        return 1;
    printf("ok device_functions_recursion\n");
    return 0;
}
