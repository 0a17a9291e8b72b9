// expect: exit=1 stderr=tensor-core instructions are not emulated [simt-only]
// Must fail on simt: a kernel using integer tensor-core operations (wmma
// with signed char inputs, which simt does not emulate) cannot run; the
// launch fails with a message naming the instruction, while another kernel
// of the same program still runs.  Exit status 1 when the wmma launch
// fails and the plain kernel worked.
#include <cstdio>
#include <mma.h>
using namespace nvcuda;

__global__ void tensor(const signed char *a, const signed char *b, int *c)
{
	wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
	wmma::fill_fragment(fc, 0);
	wmma::load_matrix_sync(fa, a, 16);
	wmma::load_matrix_sync(fb, b, 16);
	wmma::mma_sync(fc, fa, fb, fc);
	wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

__global__ void plain(int *x)
{
	x[threadIdx.x] = threadIdx.x * 3;
}

int main()
{
	signed char *a, *b;
	int *c;
	int *x, h[32];
	if (cudaMalloc(&a, 256) != cudaSuccess ||
	    cudaMalloc(&b, 256) != cudaSuccess ||
	    cudaMalloc(&c, 256 * sizeof(int)) != cudaSuccess ||
	    cudaMalloc(&x, sizeof h) != cudaSuccess)
		return 2;
	tensor<<<1, 32>>>(a, b, c);
	cudaError_t e = cudaGetLastError();
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	plain<<<1, 32>>>(x);
	if (cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
		return 2;
	for (int i = 0; i < 32; i++)
		if (h[i] != i * 3) {
			fprintf(stderr, "FAIL plain kernel x[%d] = %d\n", i, h[i]);
			return 2;
		}
	if (e == cudaSuccess) {
		fprintf(stderr, "FAIL the wmma kernel ran\n");
		return 0;
	}
	fprintf(stderr, "wmma launch failed with %s\n", cudaGetErrorName(e));
	return 1;
}
