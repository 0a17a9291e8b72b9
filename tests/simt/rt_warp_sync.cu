// Warp-level behaviour under divergence: __activemask in each side of a
// branch, shuffles among the lanes of one side, reconvergence after loops
// with lane-dependent trip counts, __syncwarp in both sides of a branch,
// and votes after some lanes have returned.
#include <cstdio>

__global__ void warp_sync(unsigned *masks, int *shuf, int *loops, int *xchg,
			  unsigned *votes)
{
	__shared__ int s[32];
	int t = threadIdx.x;
	if (t & 1)
		masks[t] = __activemask();
	else
		masks[t] = __activemask() | 0x80000000u;

	int v = t * 10;
	if (t < 16) {
		unsigned m = __activemask();
		v = __shfl_xor_sync(m, v, 1);
	}
	shuf[t] = v;

	int acc = 0;
	for (int i = 0; i < t % 7; i++)
		acc += i;
	loops[t] = __shfl_sync(0xffffffffu, acc, (t + 3) % 32);

	if (t % 2) {
		s[t] = t;
		__syncwarp();
		xchg[t] = s[t ^ 1];
	} else {
		s[t] = -t;
		__syncwarp();
		xchg[t] = s[t ^ 1];
	}

	if (t >= 20)
		return;
	votes[t] = __ballot_sync(0x000fffffu, t % 3 == 0);
	votes[32 + t] = __any_sync(0x000fffffu, t == 19) + 2 * __all_sync(0x000fffffu, t < 20);
}

int main()
{
	unsigned *dm, hm[32], *dv, hv[64];
	int *ds, hs[32], *dl, hl[32], *dx, hx[32];
	if (cudaMalloc(&dm, sizeof hm) || cudaMalloc(&ds, sizeof hs) ||
	    cudaMalloc(&dl, sizeof hl) || cudaMalloc(&dx, sizeof hx) ||
	    cudaMalloc(&dv, sizeof hv))
		return 1;
	warp_sync<<<1, 32>>>(dm, ds, dl, dx, dv);
	cudaMemcpy(hm, dm, sizeof hm, cudaMemcpyDeviceToHost);
	cudaMemcpy(hs, ds, sizeof hs, cudaMemcpyDeviceToHost);
	cudaMemcpy(hl, dl, sizeof hl, cudaMemcpyDeviceToHost);
	cudaMemcpy(hx, dx, sizeof hx, cudaMemcpyDeviceToHost);
	if (cudaMemcpy(hv, dv, sizeof hv, cudaMemcpyDeviceToHost)) {
		fprintf(stderr, "FAIL %s\n", cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	int bad = 0;
	unsigned ballot = 0;
	for (int t = 0; t < 20; t++)
		if (t % 3 == 0)
			ballot |= 1u << t;
	for (int t = 0; t < 32; t++) {
		unsigned want_mask = (t & 1) ? 0xaaaaaaaau : (0x55555555u | 0x80000000u);
		int want_shuf = t < 16 ? (t ^ 1) * 10 : t * 10;
		int src = (t + 3) % 32, k = src % 7, want_loop = k * (k - 1) / 2;
		int want_x = (t % 2) ? -(t ^ 1) : (t ^ 1);
		if (hm[t] != want_mask) {
			fprintf(stderr, "FAIL activemask %d expected %08x got %08x\n", t,
				want_mask, hm[t]);
			bad++;
		}
		if (hs[t] != want_shuf) {
			fprintf(stderr, "FAIL shuffle %d expected %d got %d\n", t,
				want_shuf, hs[t]);
			bad++;
		}
		if (hl[t] != want_loop) {
			fprintf(stderr, "FAIL loop %d expected %d got %d\n", t, want_loop,
				hl[t]);
			bad++;
		}
		if (hx[t] != want_x) {
			fprintf(stderr, "FAIL syncwarp %d expected %d got %d\n", t, want_x,
				hx[t]);
			bad++;
		}
		if (t < 20 && (hv[t] != ballot || hv[32 + t] != 3)) {
			fprintf(stderr, "FAIL vote %d got %08x %u\n", t, hv[t], hv[32 + t]);
			bad++;
		}
	}
	if (bad)
		return 1;
	printf("ok rt_warp_sync\n");
	return 0;
}
