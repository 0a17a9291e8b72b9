/* Entry points of programs built with --default-stream per-thread: nvcc
 * then calls the _ptds/_ptsz variants of the runtime functions.  Each is
 * the plain function with the calling thread's per-thread default stream
 * where the plain one would use the legacy stream, so that the stream
 * order (check/order.h) sees CUDA's rules for it: it synchronises with
 * the legacy stream only, not with other blocking streams. */
#include "runtime/runtime.h"

/* In these programs stream 0 names the per-thread default stream. */
static cudaStream_t pt(cudaStream_t s)
{
	return s ? s : (cudaStream_t)2;
}

/* A synchronous call issues its work to the per-thread default stream. */
#define PER_THREAD(call)                                                \
	do {                                                            \
		cudaError_t e_;                                         \
									\
		simt_null_stream_per_thread(true);                      \
		e_ = (call);                                            \
		simt_null_stream_per_thread(false);                     \
		return e_;                                              \
	} while (0)

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
	PER_THREAD(cudaMemcpy(dst, src, count, kind));
}

cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
	PER_THREAD(cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind));
}

cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
	PER_THREAD(cudaMemcpyFromSymbol(dst, symbol, count, offset, kind));
}

cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
	PER_THREAD(cudaMemcpyToSymbol(symbol, src, count, offset, kind));
}

cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
	PER_THREAD(cudaMemset(devPtr, value, count));
}

cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
	PER_THREAD(cudaMemset2D(devPtr, pitch, value, width, height));
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
	return cudaEventRecord(event, pt(stream));
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned flags)
{
	return cudaEventRecordWithFlags(event, pt(stream), flags);
}

cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t stream)
{
	return cudaFreeAsync(devPtr, pt(stream));
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream)
{
	return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, pt(stream));
}

cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
	return cudaLaunchHostFunc(pt(stream), fn, userData);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
	cudaLaunchConfig_t c;

	if (!config)
		return cudaLaunchKernelExC(config, func, args);
	c = *config;
	c.stream = pt(c.stream);
	return cudaLaunchKernelExC(&c, func, args);
}

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t stream)
{
	/* the program's call is this one */
	return simt_mem_made(cudaMallocAsync(devPtr, size, pt(stream)), devPtr,
			     "cudaMallocAsync", SIMT_CALLER);
}

cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
					 cudaMemPool_t pool, cudaStream_t stream)
{
	return simt_mem_made(cudaMallocFromPoolAsync(ptr, size, pool, pt(stream)),
			     ptr, "cudaMallocFromPoolAsync", SIMT_CALLER);
}

cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned flags, cudaStream_t stream)
{
	return cudaMemPrefetchAsync(devPtr, count, location, flags, pt(stream));
}

cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, pt(stream));
}

cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return cudaMemcpyAsync(dst, src, count, kind, pt(stream));
}

cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, pt(stream));
}

cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, pt(stream));
}

cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream)
{
	return cudaMemset2DAsync(devPtr, pitch, value, width, height, pt(stream));
}

cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{
	return cudaMemsetAsync(devPtr, value, count, pt(stream));
}

cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned flags)
{
	return cudaStreamAddCallback(pt(stream), callback, userData, flags);
}

cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t stream, unsigned *flags)
{
	return cudaStreamGetFlags(pt(stream), flags);
}

cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t stream, int *device)
{
	return cudaStreamGetDevice(pt(stream), device);
}

cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t stream, int *priority)
{
	return cudaStreamGetPriority(pt(stream), priority);
}

cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr,
					  size_t length, unsigned flags)
{
	return cudaStreamAttachMemAsync(pt(stream), devPtr, length, flags);
}

cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
	return cudaStreamQuery(pt(stream));
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
	return cudaStreamSynchronize(pt(stream));
}

cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned flags)
{
	return cudaStreamWaitEvent(pt(stream), event, flags);
}

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
	return cudaStreamBeginCapture(pt(stream), mode);
}

cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, enum cudaStreamCaptureMode mode)
{
	return cudaStreamBeginCaptureToGraph(pt(stream), graph, dependencies, dependencyData, numDependencies, mode);
}

cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
	return cudaStreamEndCapture(pt(stream), pGraph);
}

cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
	return cudaStreamIsCapturing(pt(stream), pCaptureStatus);
}

cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out, cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
	return cudaStreamGetCaptureInfo(pt(stream), captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out, numDependencies_out);
}

cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream, cudaGraphNode_t *dependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, unsigned int flags)
{
	return cudaStreamUpdateCaptureDependencies(pt(stream), dependencies, dependencyData, numDependencies, flags);
}

cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, cudaGraphInstantiateParams *instantiateParams)
{
	return cudaGraphInstantiateWithParams(pGraphExec, graph, instantiateParams);
}

cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	return cudaGraphUpload(graphExec, pt(stream));
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	return cudaGraphLaunch(graphExec, pt(stream));
}

cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
					const cudaStreamAttrValue *value)
{
	return cudaStreamSetAttribute(pt(stream), attr, value);
}

cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
					cudaStreamAttrValue *value)
{
	return cudaStreamGetAttribute(pt(stream), attr, value);
}

cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src)
{
	return cudaStreamCopyAttributes(pt(dst), pt(src));
}
