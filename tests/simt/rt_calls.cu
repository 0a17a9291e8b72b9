// Device function calls as simt runs them: recursion with a local array in
// every frame, lanes of one warp at different recursion depths, function
// pointers that differ per lane, and structs passed and returned by value.
#include <cstdio>

struct triple {
	int a;
	long long b;
	float c;
};

__device__ __noinline__ int depth_sum(int n, int salt)
{
	int local[8];
	for (int i = 0; i < 8; i++)
		local[i] = n * 8 + i + salt;
	if (n == 0)
		return local[salt & 7];
	int below = depth_sum(n - 1, salt);
	return below + local[(n + salt) & 7];
}

static int host_depth_sum(int n, int salt)
{
	int s = (0 * 8 + (salt & 7) + salt);
	for (int k = 1; k <= n; k++)
		s += k * 8 + ((k + salt) & 7) + salt;
	return s;
}

__device__ __noinline__ int f_add(int x, int y) { return x + y; }
__device__ __noinline__ int f_mul(int x, int y) { return x * y; }
__device__ __noinline__ int f_sub(int x, int y) { return x - y; }
__device__ __noinline__ int f_max(int x, int y) { return x > y ? x : y; }

typedef int (*binop)(int, int);
__device__ binop table[4] = {f_add, f_mul, f_sub, f_max};

__device__ __noinline__ triple make(int i)
{
	triple t;
	t.a = i * 3;
	t.b = (long long)i << 33;
	t.c = i * 0.5f;
	return t;
}

__device__ __noinline__ long long fold(triple t, triple u)
{
	return t.a + u.a + ((t.b + u.b) >> 33) + (long long)(t.c * u.c);
}

__global__ void calls(int *rec, int *ops, long long *st)
{
	int t = threadIdx.x + blockIdx.x * blockDim.x;
	rec[t] = depth_sum(t % 37, t % 5);
	ops[t] = table[t % 4](t, 7);
	st[t] = fold(make(t), make(t + 1));
}

int main()
{
	const int n = 96;
	int *rec, *ops, hr[n], ho[n];
	long long *st, hs[n];
	if (cudaMalloc(&rec, sizeof hr) || cudaMalloc(&ops, sizeof ho) ||
	    cudaMalloc(&st, sizeof hs))
		return 1;
	calls<<<2, n / 2>>>(rec, ops, st);
	if (cudaMemcpy(hr, rec, sizeof hr, cudaMemcpyDeviceToHost) ||
	    cudaMemcpy(ho, ops, sizeof ho, cudaMemcpyDeviceToHost) ||
	    cudaMemcpy(hs, st, sizeof hs, cudaMemcpyDeviceToHost)) {
		fprintf(stderr, "FAIL %s\n", cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	int bad = 0;
	for (int t = 0; t < n && bad < 8; t++) {
		int want_rec = host_depth_sum(t % 37, t % 5);
		int ops_want[4] = {t + 7, t * 7, t - 7, t > 7 ? t : 7};
		long long want_st = 3 * t + 3 * (t + 1) + (2 * (long long)t + 1) +
				    (long long)((t * 0.5f) * ((t + 1) * 0.5f));
		if (hr[t] != want_rec) {
			fprintf(stderr, "FAIL recursion %d expected %d got %d\n", t,
				want_rec, hr[t]);
			bad++;
		}
		if (ho[t] != ops_want[t % 4]) {
			fprintf(stderr, "FAIL pointer call %d expected %d got %d\n", t,
				ops_want[t % 4], ho[t]);
			bad++;
		}
		if (hs[t] != want_st) {
			fprintf(stderr, "FAIL struct %d expected %lld got %lld\n", t,
				want_st, hs[t]);
			bad++;
		}
	}
	if (bad)
		return 1;
	printf("ok rt_calls\n");
	return 0;
}
