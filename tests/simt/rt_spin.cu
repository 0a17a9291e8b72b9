// Threads that wait for other threads' stores without a barrier, as
// independent thread scheduling allows: a warp spinning on a flag another
// warp of the block sets, and a lane spinning on a flag a later lane of
// its own warp sets.  simt must switch between them instead of spinning
// until the instruction budget runs out.
#include <cstdio>

__global__ void spin(int *out)
{
	__shared__ volatile int flag_block, flag_lane;
	int t = threadIdx.x;
	if (t == 0) {
		flag_block = 0;
		flag_lane = 0;
	}
	__syncthreads();
	if (t == 0) {
		while (flag_block == 0)
			;
		out[0] = flag_block;
	} else if (t == 63) {
		flag_block = 42;
	}
	if (t == 64) {
		while (flag_lane == 0)
			;
		out[1] = flag_lane;
	} else if (t == 95) {
		flag_lane = 7;
	}
}

int main()
{
	int *d, h[2] = {0, 0};
	if (cudaMalloc(&d, sizeof h) || cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice))
		return 1;
	spin<<<1, 96>>>(d);
	cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
	if (e != cudaSuccess || h[0] != 42 || h[1] != 7) {
		fprintf(stderr, "FAIL %s: got %d %d\n", cudaGetErrorName(e), h[0], h[1]);
		return 1;
	}
	printf("ok rt_spin\n");
	return 0;
}
