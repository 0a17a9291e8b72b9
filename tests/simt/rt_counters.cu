// The profiler counters simt writes when CUDALAB_SIMT_COUNTERS names a
// file: the program runs itself with the variable set, then checks the
// JSON against counts worked out from the kernels' access patterns.
// On a GPU (a device whose name lacks "simt") it only says it skipped.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "rerun.h"

enum { N = 4096, THREADS = 256 };

__global__ void copy(const float *in, float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = in[i];
}

__global__ void strided(const float *in, float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = in[(i * 8) % N];
}

__global__ void banks(float *out, int stride)
{
	__shared__ float s[THREADS * 2];
	int t = threadIdx.x;
	s[t * stride] = (float)t;
	__syncthreads();
	out[blockIdx.x * blockDim.x + t] = s[t * stride];
}

__global__ void counting(int *total, float *f)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	atomicAdd(total, 1);
	f[i] = __fmaf_rn(f[i], 2.0f, 1.0f);
}

static int child(void)
{
	float *a, *b;
	int *t;
	if (cudaMalloc(&a, N * sizeof(float)) || cudaMalloc(&b, N * sizeof(float)) ||
	    cudaMalloc(&t, sizeof(int)) || cudaMemset(a, 0, N * sizeof(float)) ||
	    cudaMemset(t, 0, sizeof(int)))
		return 2;
	copy<<<N / THREADS, THREADS>>>(a, b);
	copy<<<N / THREADS, THREADS>>>(b, a);
	strided<<<N / THREADS, THREADS>>>(a, b);
	banks<<<N / THREADS, THREADS>>>(b, 1);
	banks<<<N / THREADS, THREADS>>>(b, 2);
	counting<<<N / THREADS, THREADS>>>(t, a);
	return cudaDeviceSynchronize() == cudaSuccess ? 0 : 2;
}

static std::string json;
static int failures;

/* The value of `key` in the first object after `"name":"<name>`. */
static double field(const char *name, const char *key)
{
	std::string n = std::string("\"name\":\"") + name;
	size_t at = json.find(n);
	if (at == std::string::npos) {
		fprintf(stderr, "FAIL no kernel %s in the counters\n", name);
		failures++;
		return -1;
	}
	size_t end = json.find('}', at);
	size_t k = json.find(std::string("\"") + key + "\":", at);
	if (k == std::string::npos || k > end) {
		fprintf(stderr, "FAIL no %s for %s\n", key, name);
		failures++;
		return -1;
	}
	return atof(json.c_str() + k + strlen(key) + 3);
}

static void want(const char *name, const char *key, double v)
{
	double got = field(name, key);
	if (got != v) {
		fprintf(stderr, "FAIL %s %s expected %g got %g\n", name, key, v, got);
		failures++;
	}
}

int main(int argc, char **argv)
{
	cudaDeviceProp prop;

	if (argc > 1)
		return child();
	if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
	    !strstr(prop.name, "simt")) {
		printf("skip rt_counters: counters exist only on simt\n");
		return 0;
	}
	if (!rerun_child(argv[0], "CUDALAB_SIMT_COUNTERS",
			 "/tmp/cudalab-rt-counters.json", false, &json))
		return 1;
	if (json.compare(0, 22, "{\"schema\":1,\"kernels\":") != 0) {
		fprintf(stderr, "FAIL bad header: %.40s\n", json.c_str());
		return 1;
	}
	const int warps = N / 32;
	want("copy(", "launches", 2);
	want("copy(", "global_load_requests", 2 * warps);
	want("copy(", "global_load_sectors", 2 * warps * 4);
	want("copy(", "global_store_sectors", 2 * warps * 4);
	want("copy(", "divergent_branches", 0);
	want("strided(", "global_load_sectors", warps * 32);
	want("strided(", "global_store_sectors", warps * 4);
	/* stride 1 has no conflicts; stride 2 puts lanes l and l+16 in one
	 * bank: one extra wavefront for the store and one for the load */
	want("banks(", "launches", 2);
	want("banks(", "shared_bank_conflicts", warps * 2);
	want("banks(", "shared_store_requests", 2 * warps);
	want("banks(", "barriers", 2 * warps);
	want("copy(", "global_load_bytes", 2 * N * 4);
	want("copy(", "global_store_bytes", 2 * N * 4);
	want("counting(", "atomics", N);
	/* every lane of a warp adds to one word: 31 conflicts a warp */
	want("counting(", "global_atomics", N);
	want("counting(", "shared_atomics", 0);
	want("counting(", "global_atomic_conflicts", warps * 31);
	want("counting(", "shared_atomic_conflicts", 0);
	want("counting(", "global_load_bytes", N * 4);
	want("counting(", "global_store_bytes", N * 4);
	want("counting(", "flops_f32", 2 * N);
	double ti = field("copy(", "thread_instructions");
	double wi = field("copy(", "warp_instructions");
	if (!(ti == 32 * wi && wi > 0)) {
		fprintf(stderr, "FAIL copy: %g thread vs %g warp instructions\n", ti, wi);
		failures++;
	}
	/* copy's two launches run the same grid: its longest launch is half
	 * of its warp instructions */
	want("copy(", "max_launch_warp_instructions", wi / 2);
	if (json.find("\"total\":{\"launches\":6,") == std::string::npos) {
		fprintf(stderr, "FAIL total launches\n");
		failures++;
	}
	if (failures)
		return 1;
	printf("ok rt_counters\n");
	return 0;
}
