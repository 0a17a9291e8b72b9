/* Entry points of programs built with --default-stream per-thread: nvcc
 * then calls the _ptds/_ptsz variants of the runtime functions.  simt runs
 * everything in order on one device, so each is the plain function. */
#include "simt_int.h"

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
	return cudaMemcpy(dst, src, count, kind);
}

cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
	return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
	return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
	return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
	return cudaMemset(devPtr, value, count);
}

cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
	return cudaMemset2D(devPtr, pitch, value, width, height);
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
	return cudaEventRecord(event, stream);
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned flags)
{
	return cudaEventRecordWithFlags(event, stream, flags);
}

cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t stream)
{
	return cudaFreeAsync(devPtr, stream);
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream)
{
	return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
	return cudaLaunchHostFunc(stream, fn, userData);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
	return cudaLaunchKernelExC(config, func, args);
}

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t stream)
{
	return cudaMallocAsync(devPtr, size, stream);
}

cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned flags, cudaStream_t stream)
{
	return cudaMemPrefetchAsync(devPtr, count, location, flags, stream);
}

cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream);
}

cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return cudaMemcpyAsync(dst, src, count, kind, stream);
}

cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, stream);
}

cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, stream);
}

cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream)
{
	return cudaMemset2DAsync(devPtr, pitch, value, width, height, stream);
}

cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{
	return cudaMemsetAsync(devPtr, value, count, stream);
}

cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned flags)
{
	return cudaStreamAddCallback(stream, callback, userData, flags);
}

cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t stream, unsigned *flags)
{
	return cudaStreamGetFlags(stream, flags);
}

cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t stream, int *priority)
{
	return cudaStreamGetPriority(stream, priority);
}

cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
	return cudaStreamQuery(stream);
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
	return cudaStreamSynchronize(stream);
}

cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned flags)
{
	return cudaStreamWaitEvent(stream, event, flags);
}
