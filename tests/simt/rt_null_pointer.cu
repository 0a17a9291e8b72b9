// expect: exit=1 stderr=invalid global read of 4 bytes at address 0x10 (a null pointer plus an offset)
// Must fail, on a GPU as well as on simt: reading through a null pointer
// (plus an offset) is an illegal address.  Exit status 1 when the launch
// reports cudaErrorIllegalAddress.
#include <cstdio>

struct node {
	int key[4];
	int value;
};

__global__ void follow(const node *n, int *out)
{
	out[threadIdx.x] = n->value;
}

int main()
{
	int *out;
	if (cudaMalloc(&out, 128))
		return 2;
	follow<<<1, 32>>>(NULL, out);
	cudaError_t e = cudaDeviceSynchronize();
	if (e == cudaErrorIllegalAddress)
		return 1;
	fprintf(stderr, "FAIL expected cudaErrorIllegalAddress, got %s\n",
		cudaGetErrorName(e));
	return e == cudaSuccess ? 0 : 2;
}
