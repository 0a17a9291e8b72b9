// Registers that are written on some paths only, and read only where
// they were written: no report.  The analysis before the run cannot
// tell (the branches are correlated), the run can.
//   - a value loaded and used under the same condition, tested twice
//     on either side of a barrier;
//   - a padded vector stored whole, some of its parts never set (a store
//     copies a value, it does not use it);
//   - a value computed by lane 0 alone and broadcast with a shuffle;
//   - a select whose unchosen side was never written.
#include <cstdio>

__global__ void paths(const float *x, float *out, float4 *vec, int n, int k)
{
    int t = threadIdx.x;
    float v, w, b;
    bool in = t < n;
    if (in)
        v = x[t];
    float u = sinf((float)t);
    __syncthreads(); // keeps the two branches apart
    if (in)
        out[t] = v * 2.0f + u;
    float4 o;
    o.x = x[t];
    if (k > 1)
        o.y = x[t] + 1.0f;
    if (k > 2)
        o.z = x[t] + 2.0f;
    vec[t] = o;
    if ((t & 31) == 0)
        w = x[t] * 3.0f;
    w = __shfl_sync(0xffffffffu, w, 0);
    out[32 + t] = w + 1.0f;
    if (t < k)
        b = x[t];
    out[64 + t] = t < k ? b : 0.0f;
}

int main()
{
    float *x, *out, h[96];
    float4 *vec;
    cudaMalloc(&x, 32 * sizeof(float));
    cudaMalloc(&out, 96 * sizeof(float));
    cudaMalloc(&vec, 32 * sizeof(float4));
    float hx[32];
    for (int i = 0; i < 32; i++)
        hx[i] = (float)i;
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    cudaMemset(out, 0, 96 * sizeof(float));
    paths<<<1, 32>>>(x, out, vec, 20, 2);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; t++) {
        float want = t < 20 ? 2.0f * t + sinf((float)t) : 0.0f;
        if (fabsf(h[t] - want) > 1e-5f || h[32 + t] != 1.0f || h[64 + t] != (t < 2 ? (float)t : 0.0f)) {
            printf("FAIL at %d: %g %g %g\n", t, h[t], h[32 + t], h[64 + t]);
            return 1;
        }
    }
    printf("PASS\n");
    return 0;
}
