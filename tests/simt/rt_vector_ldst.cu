// Vector and narrow memory accesses: float4/int2/double2 loads and stores
// (ld/st .v2/.v4), __ldg, byte and short stores, 64-bit atomics, and
// loads through generic pointers into shared and local memory.
#include <cstdio>

__global__ void vec(const float4 *in, float4 *out, const int2 *pi, int2 *po,
		    const double2 *pd, double2 *qd)
{
	int t = threadIdx.x;
	float4 v = in[t];
	out[t] = make_float4(v.w, v.z, v.y, v.x + 1.0f);
	int2 a = __ldg(&pi[t]);
	po[t] = make_int2(a.y * 2, a.x - 1);
	double2 d = pd[t];
	qd[t] = make_double2(d.y, d.x * 0.5);
}

__global__ void narrow(unsigned char *b, short *s, unsigned long long *u)
{
	int t = threadIdx.x;
	b[t] = (unsigned char)(t * 7 + 3);
	s[t] = (short)(-t * 300);
	atomicAdd(&u[t % 4], 1ull << 40);
	atomicMax(&u[4], (unsigned long long)t << 35);
}

__device__ __noinline__ int sum_through(const int *p, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += p[i];
	return s;
}

__global__ void generic(int *out)
{
	__shared__ int sh[32];
	int loc[8];
	int t = threadIdx.x;
	sh[t] = t;
	for (int i = 0; i < 8; i++)
		loc[i] = t * i;
	__syncthreads();
	out[t] = sum_through(sh, 32) * 1000 + sum_through(loc, 8 - (t & 3));
}

int main()
{
	const int n = 32;
	float4 hf[n], rf[n];
	int2 hi[n], ri[n];
	double2 hd[n], rd[n];
	for (int i = 0; i < n; i++) {
		hf[i] = make_float4(i, i + 0.25f, i + 0.5f, i + 0.75f);
		hi[i] = make_int2(i * 3, -i);
		hd[i] = make_double2(i * 1.5, -i * 2.5);
	}
	float4 *df, *dfo;
	int2 *di, *dio;
	double2 *dd, *ddo;
	if (cudaMalloc(&df, sizeof hf) || cudaMalloc(&dfo, sizeof hf) ||
	    cudaMalloc(&di, sizeof hi) || cudaMalloc(&dio, sizeof hi) ||
	    cudaMalloc(&dd, sizeof hd) || cudaMalloc(&ddo, sizeof hd))
		return 1;
	cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
	cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice);
	cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice);
	vec<<<1, n>>>(df, dfo, di, dio, dd, ddo);
	cudaMemcpy(rf, dfo, sizeof rf, cudaMemcpyDeviceToHost);
	cudaMemcpy(ri, dio, sizeof ri, cudaMemcpyDeviceToHost);
	if (cudaMemcpy(rd, ddo, sizeof rd, cudaMemcpyDeviceToHost)) {
		fprintf(stderr, "FAIL vec: %s\n", cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	int bad = 0;
	for (int i = 0; i < n; i++) {
		if (rf[i].x != hf[i].w || rf[i].y != hf[i].z || rf[i].z != hf[i].y ||
		    rf[i].w != hf[i].x + 1.0f)
			bad++;
		if (ri[i].x != hi[i].y * 2 || ri[i].y != hi[i].x - 1)
			bad++;
		if (rd[i].x != hd[i].y || rd[i].y != hd[i].x * 0.5)
			bad++;
	}
	unsigned char *b, hb[n];
	short *s, hs[n];
	unsigned long long *u, hu[5] = {0, 0, 0, 0, 0};
	if (cudaMalloc(&b, sizeof hb) || cudaMalloc(&s, sizeof hs) ||
	    cudaMalloc(&u, sizeof hu))
		return 1;
	cudaMemcpy(u, hu, sizeof hu, cudaMemcpyHostToDevice);
	narrow<<<1, n>>>(b, s, u);
	cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
	cudaMemcpy(hs, s, sizeof hs, cudaMemcpyDeviceToHost);
	cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost);
	for (int i = 0; i < n; i++) {
		if (hb[i] != (unsigned char)(i * 7 + 3) || hs[i] != (short)(-i * 300))
			bad++;
	}
	for (int k = 0; k < 4; k++)
		if (hu[k] != 8ull << 40)
			bad++;
	if (hu[4] != 31ull << 35)
		bad++;
	int *g, hg[n];
	if (cudaMalloc(&g, sizeof hg))
		return 1;
	generic<<<1, n>>>(g);
	if (cudaMemcpy(hg, g, sizeof hg, cudaMemcpyDeviceToHost)) {
		fprintf(stderr, "FAIL generic: %s\n", cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	for (int t = 0; t < n; t++) {
		int m = 8 - (t & 3), want = 496 * 1000;
		for (int i = 0; i < m; i++)
			want += t * i;
		if (hg[t] != want) {
			fprintf(stderr, "FAIL generic %d expected %d got %d\n", t, want, hg[t]);
			bad++;
		}
	}
	if (bad) {
		fprintf(stderr, "FAIL %d wrong values\n", bad);
		return 1;
	}
	printf("ok rt_vector_ldst\n");
	return 0;
}
