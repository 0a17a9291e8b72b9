// expect: exit=0 env=CUDALAB_SIMT_PREDICT=timeline env=CUDALAB_SIMT_DEVICES=tests/simt/devices env=CUDALAB_SIMT_PREDICT_QUIET=1
// gpus: 2
// The modelled timeline: with the time model on, events time the program
// as it would run on the named GPU.  The device file
// (tests/simt/devices/timeline.gpu) gives round host figures: 2 us of host
// time per enqueued operation, pinned copies at 10 GB/s after 5 us,
// pageable ones at 4 GB/s, NVLink at 20 GB/s, DRAM at 1000 GB/s; the times of copies and
// memsets below are worked out from them by hand.  Kernels' own times come
// from the model, so for them the test checks the relations CUDA's rules
// imply (one stream runs them one after another; small grids on two
// streams overlap, full ones do not).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
	exit(1); } } while (0)

static int failures;

static void near(const char *what, double got_ms, double want_ms)
{
	double tol = 1e-4 + 1e-4 * want_ms;

	if (fabs(got_ms - want_ms) > tol) {
		printf("FAIL %s: %.6f ms, expected %.6f ms\n", what, got_ms, want_ms);
		failures++;
	} else {
		printf("ok   %s: %.6f ms\n", what, got_ms);
	}
}

static float between(cudaEvent_t a, cudaEvent_t b)
{
	float ms = -1;

	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	return ms;
}

// A dependent chain: one warp, latency-bound, a few microseconds.
__global__ void chain(float *out, int n)
{
	float x = out[threadIdx.x];

	for (int i = 0; i < n; i++)
		x = x * 0.999f + 0.5f;
	out[threadIdx.x] = x;
}

// Enough 1024-thread blocks to fill every SM.
__global__ void wide(float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float x = out[i];

	for (int k = 0; k < n; k++)
		x = x * 0.999f + 0.5f;
	out[i] = x;
}

int main()
{
	const size_t big = 10000000;    // 10 MB: 1000 us at 10 GB/s
	cudaStream_t s1, s2, nb;
	cudaEvent_t e0, e1;
	char *h, *h2, *d, *d2, *pageable;
	float *f, *g;

	CK(cudaStreamCreate(&s1));
	CK(cudaStreamCreate(&s2));
	CK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	CK(cudaMallocHost(&h, big));
	CK(cudaMalloc(&d, big));
	CK(cudaMalloc(&d2, big));
	CK(cudaMalloc(&f, 132 * 8 * 1024 * sizeof(float)));
	CK(cudaMemset(f, 0, 132 * 8 * 1024 * sizeof(float)));
	CK(cudaMallocHost(&h2, big));
	CK(cudaMalloc(&g, 132 * 8 * 1024 * sizeof(float)));
	CK(cudaMemset(g, 0, 132 * 8 * 1024 * sizeof(float)));
	pageable = (char *)calloc(big, 1);
	// the memsets above are still running on the GPU: blocking streams
	// would wait for them
	CK(cudaDeviceSynchronize());

	// a pinned copy: 2 us to enqueue, then 5 + 1000 us
	CK(cudaEventRecord(e0, s1));
	CK(cudaMemcpyAsync(d, h, big, cudaMemcpyHostToDevice, s1));
	CK(cudaEventRecord(e1, s1));
	near("pinned host-to-device copy", between(e0, e1), 1.007);

	// a memset: 2 + 1e8 B / 1000 GB/s = 2 + 100 us... of 10 MB: 2 + 10 us
	CK(cudaEventRecord(e0, s1));
	CK(cudaMemsetAsync(d, 1, big, s1));
	CK(cudaEventRecord(e1, s1));
	near("memset", between(e0, e1), 0.012);

	// device to device: each byte read and written, 2 + 20 us
	CK(cudaEventRecord(e0, s1));
	CK(cudaMemcpyAsync(d2, d, big, cudaMemcpyDeviceToDevice, s1));
	CK(cudaEventRecord(e1, s1));
	near("device-to-device copy", between(e0, e1), 0.022);

	// a pageable copy: 2 + 5 + 2500 us, and the host waits for it
	CK(cudaEventRecord(e0, s1));
	CK(cudaMemcpyAsync(d, pageable, big, cudaMemcpyHostToDevice, s1));
	CK(cudaEventRecord(e1, s2));   // s2 is idle: recorded at the host's time
	near("pageable copy holds the host", between(e0, e1), 2.507);

	// two copies the same way share the engine: the second waits
	CK(cudaEventRecord(e0, s1));
	CK(cudaStreamWaitEvent(s2, e0, 0));
	CK(cudaMemcpyAsync(d, h, big, cudaMemcpyHostToDevice, s1));
	CK(cudaMemcpyAsync(d2, h, big, cudaMemcpyHostToDevice, s2));
	CK(cudaEventRecord(e1, s2));
	near("two host-to-device copies queue", between(e0, e1), 2.012);

	// opposite ways overlap: the second starts 2 us after the first
	CK(cudaEventRecord(e0, s1));
	CK(cudaStreamWaitEvent(s2, e0, 0));
	CK(cudaMemcpyAsync(d, h, big, cudaMemcpyHostToDevice, s1));
	CK(cudaMemcpyAsync(h2, d2, big, cudaMemcpyDeviceToHost, s2));
	CK(cudaEventRecord(e1, s2));
	near("copies both ways overlap", between(e0, e1), 1.009);

	// the legacy default stream waits for a blocking stream's copy...
	CK(cudaEventRecord(e0, 0));
	CK(cudaMemcpyAsync(d, h, big, cudaMemcpyHostToDevice, s1));
	CK(cudaMemsetAsync(d2, 0, big, 0));
	CK(cudaEventRecord(e1, 0));
	near("legacy stream waits for a blocking one", between(e0, e1), 1.017);

	// ...not for a non-blocking stream's
	CK(cudaEventRecord(e0, 0));
	CK(cudaMemcpyAsync(d, h, big, cudaMemcpyHostToDevice, nb));
	CK(cudaMemsetAsync(d2, 0, big, 0));
	CK(cudaEventRecord(e1, 0));
	near("legacy stream passes a non-blocking one", between(e0, e1), 0.014);
	CK(cudaDeviceSynchronize());

	// a synchronous copy to pinned memory holds the host until it ends
	CK(cudaEventRecord(e0, s2));
	CK(cudaMemcpy(h, d, big, cudaMemcpyDeviceToHost));
	CK(cudaEventRecord(e1, s2));
	near("cudaMemcpy holds the host", between(e0, e1), 1.007);

	// kernels on one stream: the second starts when the first ends
	float one, two, both;
	CK(cudaEventRecord(e0, s1));
	chain<<<1, 32, 0, s1>>>(f, 20000);
	CK(cudaEventRecord(e1, s1));
	one = between(e0, e1);
	CK(cudaEventRecord(e0, s1));
	chain<<<1, 32, 0, s1>>>(f, 20000);
	chain<<<1, 32, 0, s1>>>(f, 20000);
	CK(cudaEventRecord(e1, s1));
	two = between(e0, e1);
	// one = 2 + k, two = 2 + 2k (k > 2 us): the launch cost is 2 us
	if (one - 0.002 < 0.002) {
		printf("FAIL the chain kernel is predicted at %.6f ms, too short for the test\n",
		       one - 0.002);
		failures++;
	}
	near("one stream runs kernels in turn", 2 * one - two, 0.002);

	// one small grid on each of two streams: they overlap, ending 2 us
	// after one alone
	CK(cudaEventRecord(e0, s1));
	CK(cudaStreamWaitEvent(s2, e0, 0));
	chain<<<1, 32, 0, s1>>>(f, 20000);
	chain<<<1, 32, 0, s2>>>(f + 32, 20000);
	CK(cudaEventRecord(e1, s2));
	both = between(e0, e1);
	near("small grids on two streams overlap", both, one + 0.002);

	// grids that fill the GPU do not
	CK(cudaEventRecord(e0, s1));
	wide<<<132 * 8, 1024, 0, s1>>>(f, 20);
	CK(cudaEventRecord(e1, s1));
	one = between(e0, e1);
	CK(cudaEventRecord(e0, s1));
	CK(cudaStreamWaitEvent(s2, e0, 0));
	wide<<<132 * 8, 1024, 0, s1>>>(f, 20);
	wide<<<132 * 8, 1024, 0, s2>>>(g, 20);
	CK(cudaEventRecord(e1, s2));
	both = between(e0, e1);
	near("full grids on two streams take turns", both, 2 * one - 0.002);

	// a copy to another device without peer access is staged through the
	// host: 2 + 2 x (5 + 1000) us; with it, over NVLink: 2 + 5 + 500 us
	char *p1;
	CK(cudaSetDevice(1));
	CK(cudaMalloc(&p1, big));
	CK(cudaSetDevice(0));
	CK(cudaEventRecord(e0, s1));
	CK(cudaMemcpyPeerAsync(p1, 1, d, 0, big, s1));
	CK(cudaEventRecord(e1, s1));
	near("peer copy without peer access is staged", between(e0, e1), 2.012);
	CK(cudaDeviceEnablePeerAccess(1, 0));
	CK(cudaEventRecord(e0, s1));
	CK(cudaMemcpyPeerAsync(p1, 1, d, 0, big, s1));
	CK(cudaEventRecord(e1, s1));
	near("peer copy over NVLink", between(e0, e1), 0.507);

	CK(cudaDeviceSynchronize());
	if (failures) {
		printf("%d timeline check(s) failed\n", failures);
		return 1;
	}
	printf("timeline: all checks passed\n");
	return 0;
}
