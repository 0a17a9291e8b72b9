// Several host threads using the runtime at once: each allocates, launches
// and copies on its own, all add into one buffer with atomics, and each
// thread's cudaGetLastError sees only its own launch errors.
#include <cstdio>
#include <pthread.h>

enum { THREADS = 4, N = 2048 };

__global__ void add_into(int *total, const int *mine, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&total[i % 64], mine[i]);
}

__global__ void scale(int *p, int k, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] *= k;
}

static int *total;
static int failed[THREADS];

static void *worker(void *arg)
{
	int id = (int)(long)arg, *d, h[N];
	for (int i = 0; i < N; i++)
		h[i] = id + 1;
	if (cudaMalloc(&d, sizeof h) ||
	    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice)) {
		failed[id] = 1;
		return NULL;
	}
	for (int r = 0; r < 5; r++) {
		scale<<<(N + 127) / 128, 128>>>(d, 2, N);
		add_into<<<(N + 255) / 256, 256>>>(total, d, N);
	}
	if (id == 1) {
		scale<<<1, 2048>>>(d, 1, N);
		if (cudaGetLastError() != cudaErrorInvalidConfiguration)
			failed[id] = 1;
	} else if (cudaGetLastError() != cudaSuccess) {
		failed[id] = 1;
	}
	if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost))
		failed[id] = 1;
	for (int i = 0; i < N; i++)
		if (h[i] != (id + 1) * 32)
			failed[id] = 1;
	cudaFree(d);
	return NULL;
}

int main()
{
	pthread_t th[THREADS];
	int h[64];
	if (cudaMalloc(&total, sizeof h) || cudaMemset(total, 0, sizeof h))
		return 1;
	for (long i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	if (cudaMemcpy(h, total, sizeof h, cudaMemcpyDeviceToHost))
		return 1;
	/* thread id adds (id+1)*2^r for r = 1..5 to every element: N/64
	 * elements per slot */
	long want = 0;
	for (int id = 0; id < THREADS; id++)
		want += (long)(id + 1) * (2 + 4 + 8 + 16 + 32) * (N / 64);
	int bad = 0;
	for (int i = 0; i < 64; i++)
		if (h[i] != want) {
			fprintf(stderr, "FAIL total[%d] expected %ld got %d\n", i, want, h[i]);
			bad++;
			break;
		}
	for (int i = 0; i < THREADS; i++)
		if (failed[i]) {
			fprintf(stderr, "FAIL thread %d\n", i);
			bad++;
		}
	if (bad)
		return 1;
	printf("ok rt_host_threads\n");
	return 0;
}
