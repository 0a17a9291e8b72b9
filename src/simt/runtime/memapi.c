/* Memory management and copies of the runtime API.  Device memory is host
 * memory tracked by memory.c, which the program knows at addresses the
 * host cannot touch: copies and sets reach it through simt_mem_host.
 * Copies check that the device side of a copy lies inside one
 * allocation, as the CUDA runtime does, and complete before returning (so
 * every *Async variant is synchronous). */
#include "runtime/runtime.h"
#include "check/hazard.h"
#include "check/order.h"

#include <string.h>

#define ENTER() \
	do { \
		simt_init(); \
		if (simt_sticky() != cudaSuccess) \
			return simt_set_error(simt_sticky()); \
	} while (0)

static cudaError_t fail(cudaError_t e)
{
	return simt_set_error(e);
}

/* Returns from a potentially unsafe call refused by a capture in progress;
 * `legacy`: the call also uses the legacy stream. */
#define UNSAFE(legacy) \
	do { \
		cudaError_t u_; \
		if (simt_capture_live && \
		    (u_ = simt_capture_unsafe(legacy)) != cudaSuccess) \
			return u_; \
	} while (0)

static bool device_range(const void *p, size_t n)
{
	return simt_mem_find((uint64_t)(uintptr_t)p, n ? n : 1) != NULL;
}

/* ---- allocation ---- */

/* `sync`: a call a capture may forbid (not a stream-ordered one);
 * `device`: where it goes (stream-ordered allocations go to the
 * stream's device). */
static cudaError_t alloc_on(void **ptr, size_t size, int kind, unsigned flags,
			    bool sync, int device)
{
	ENTER();
	if (sync)
		UNSAFE(false);
	if (!ptr)
		return fail(cudaErrorInvalidValue);
	if (size == 0) {
		*ptr = NULL;
		return cudaSuccess;
	}
	simt_lock();
	*ptr = simt_mem_alloc_on(size, kind, flags, device);
	simt_unlock();
	return *ptr ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}

static cudaError_t alloc(void **ptr, size_t size, int kind, unsigned flags,
			 bool sync)
{
	return alloc_on(ptr, size, kind, flags, sync, simt_current_device());
}

cudaError_t simt_mem_made(cudaError_t e, void *const *ptr, const char *api,
			  const void *site)
{
	if (e == cudaSuccess && ptr && *ptr) {
		simt_lock();
		simt_mem_origin(*ptr, api, site);
		simt_graph_mem_origin(*ptr, api, site);
		simt_unlock();
	}
	return e;
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	return simt_mem_made(alloc(devPtr, size, MEM_DEVICE, 0, true), devPtr,
			     "cudaMalloc", SIMT_CALLER);
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned flags)
{
	return alloc(devPtr, size, MEM_MANAGED, flags, true);
}

/* Attaching managed memory to a stream, to the host or to every stream
 * decides which accesses CUDA allows on a device without concurrent
 * managed access.  simt allows them all, and its check of the host's
 * accesses follows the work that touched the memory, so the call only
 * checks its arguments: one of the three flags, and (length 0) the whole
 * of a managed allocation or a part of one. */
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr,
				     size_t length, unsigned flags)
{
	const struct simt_alloc *al;
	bool ok;

	ENTER();
	if (!simt_stream_valid(stream))
		return fail(cudaErrorInvalidResourceHandle);
	if (!flags || (flags & ~(unsigned)SIMT_MEM_ATTACH_MASK) || (flags & (flags - 1)))
		return fail(cudaErrorInvalidValue);
	simt_lock();
	al = simt_mem_find((uint64_t)(uintptr_t)devPtr, length ? length : 1);
	ok = al && al->kind == MEM_MANAGED &&
	     (length || al->base == (uint64_t)(uintptr_t)devPtr);
	simt_unlock();
	return ok ? cudaSuccess : fail(cudaErrorInvalidValue);
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	return alloc(ptr, size, MEM_HOST, 0, true);
}

cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned flags)
{
	return alloc(ptr, size, MEM_HOST, flags, true);
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
	cudaError_t e;

	if (simt_capture_live && devPtr && size && simt_stream_valid(stream) &&
	    simt_capture_malloc(devPtr, size, simt_stream_device(stream), stream, &e))
		return simt_mem_made(e, devPtr, "cudaMallocAsync", SIMT_CALLER);
	return simt_mem_made(simt_pool_malloc_async(devPtr, size, stream), devPtr,
			     "cudaMallocAsync", SIMT_CALLER);
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
			    size_t height)
{
	size_t p = (width + 511) / 512 * 512;
	cudaError_t e;

	if (!pitch)
		return fail(cudaErrorInvalidValue);
	e = alloc(devPtr, p * height, MEM_DEVICE, 0, true);
	if (e == cudaSuccess)
		*pitch = p;
	return simt_mem_made(e, devPtr, "cudaMallocPitch", SIMT_CALLER);
}

static cudaError_t release(void *p, int kind, bool sync)
{
	int rc;

	ENTER();
	if (sync)
		UNSAFE(false);
	if (!p)
		return cudaSuccess;
	simt_lock();
	rc = simt_mem_free(p, kind);
	/* cudaFree and cudaFreeHost wait for the device to be idle */
	if (sync && rc == 0)
		simt_order_host_device(-1);
	simt_unlock();
	return rc == 0 ? cudaSuccess : fail(cudaErrorInvalidValue);
}

cudaError_t cudaFree(void *devPtr)
{
	return release(devPtr, MEM_DEVICE, true);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
	cudaError_t e;

	const struct simt_alloc *al;
	int kind = MEM_DEVICE;

	if (simt_capture_live && devPtr && simt_capture_free(devPtr, stream, &e))
		return e;
	/* memory of a host pool is pinned host memory */
	simt_lock();
	al = simt_mem_find((uint64_t)(uintptr_t)devPtr, 1);
	if (al && al->pool && al->base == (uint64_t)(uintptr_t)devPtr)
		kind = al->kind;
	simt_unlock();
	return release(devPtr, kind, false);
}

cudaError_t cudaFreeHost(void *ptr)
{
	return release(ptr, MEM_HOST, true);
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags)
{
	ENTER();
	if (!ptr || !size)
		return fail(cudaErrorInvalidValue);
	simt_lock();
	if (simt_mem_find((uint64_t)(uintptr_t)ptr, 1)) {
		simt_unlock();
		return fail(cudaErrorHostMemoryAlreadyRegistered);
	}
	simt_mem_track(ptr, size, MEM_REGISTERED, NULL, false);
	simt_unlock();
	(void)flags;
	return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *ptr)
{
	const struct simt_alloc *al;

	ENTER();
	simt_lock();
	al = simt_mem_find((uint64_t)(uintptr_t)ptr, 1);
	if (!al || al->kind != MEM_REGISTERED || al->base != (uintptr_t)ptr) {
		simt_unlock();
		return fail(cudaErrorHostMemoryNotRegistered);
	}
	simt_mem_untrack(ptr);
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void **devPtr, void *host, unsigned flags)
{
	const struct simt_alloc *al;

	(void)flags;
	ENTER();
	if (!devPtr)
		return fail(cudaErrorInvalidValue);
	al = simt_mem_find((uint64_t)(uintptr_t)host, 1);
	if (!al || (al->kind != MEM_HOST && al->kind != MEM_REGISTERED &&
		    al->kind != MEM_MANAGED))
		return fail(cudaErrorInvalidValue);
	*devPtr = host;
	return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned *flags, void *host)
{
	const struct simt_alloc *al = simt_mem_find((uint64_t)(uintptr_t)host, 1);

	if (!flags || !al || al->kind != MEM_HOST)
		return fail(cudaErrorInvalidValue);
	*flags = al->flags;
	return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr,
				     const void *ptr)
{
	const struct simt_alloc *al;

	if (!attr)
		return fail(cudaErrorInvalidValue);
	memset(attr, 0, sizeof *attr);
	al = simt_mem_find((uint64_t)(uintptr_t)ptr, 1);
	if (!al) {
		attr->type = cudaMemoryTypeUnregistered;
		attr->device = -2;
		return cudaSuccess;
	}
	/* device memory names its owner; other memory the device current
	 * when it was allocated */
	attr->device = al->device >= 0 ? al->device
		       : al->ctx >= 0 ? al->ctx : simt_current_device();
	switch (al->kind) {
	case MEM_HOST:
	case MEM_REGISTERED:
		attr->type = cudaMemoryTypeHost;
		attr->devicePointer = (void *)ptr;
		attr->hostPointer = (void *)ptr;
		break;
	case MEM_MANAGED:
		attr->type = cudaMemoryTypeManaged;
		attr->devicePointer = (void *)ptr;
		attr->hostPointer = (void *)ptr;
		break;
	default:
		attr->type = cudaMemoryTypeDevice;
		attr->devicePointer = (void *)ptr;
		break;
	}
	return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
	const struct cudaDeviceProp *p = &simt_device()->prop;
	uint64_t used;

	ENTER();
	/* what the pools still hold after frees is taken too */
	simt_lock();
	used = simt_mem_used(simt_current_device()) +
	       simt_pool_cached(simt_current_device());
	simt_unlock();
	if (free_bytes)
		*free_bytes = used < p->totalGlobalMem ? p->totalGlobalMem - used : 0;
	if (total)
		*total = p->totalGlobalMem;
	return cudaSuccess;
}

/* Locations of cudaMemPrefetchAsync and cudaMemAdvise: a device
 * (cudaMemLocationTypeDevice, 1) must exist, or be cudaCpuDeviceId (-1);
 * host locations (2 to 4) need nothing. */
static cudaError_t check_location(struct cudaMemLocation loc)
{
	if (loc.type == 1)
		return loc.id == -1 ||
		       (loc.id >= 0 && loc.id < simt_device_count())
		       ? cudaSuccess : cudaErrorInvalidDevice;
	return loc.type >= 2 && loc.type <= 4 ? cudaSuccess
					      : cudaErrorInvalidValue;
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
				 struct cudaMemLocation location,
				 unsigned flags, cudaStream_t stream)
{
	cudaError_t e;

	(void)flags;
	(void)stream;
	ENTER();
	if (!device_range(devPtr, count))
		return fail(cudaErrorInvalidValue);
	e = check_location(location);
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice,
			  struct cudaMemLocation location)
{
	(void)advice;
	ENTER();
	if (!device_range(devPtr, count))
		return fail(cudaErrorInvalidValue);
	/* the advice that takes no location may be given an invalid one */
	if (location.type == 0)
		return cudaSuccess;
	{
		cudaError_t e = check_location(location);

		return e == cudaSuccess ? e : fail(e);
	}
}

/* ---- copies ---- */

/* Checks the sides of a copy the kind says are on the device. */
static cudaError_t check_copy(void *dst, const void *src, size_t dsz,
			      size_t ssz, enum cudaMemcpyKind kind)
{
	bool dst_dev, src_dev;

	switch (kind) {
	case cudaMemcpyHostToHost:
		dst_dev = src_dev = false;
		break;
	case cudaMemcpyHostToDevice:
		dst_dev = true;
		src_dev = false;
		break;
	case cudaMemcpyDeviceToHost:
		dst_dev = false;
		src_dev = true;
		break;
	case cudaMemcpyDeviceToDevice:
		dst_dev = src_dev = true;
		break;
	case cudaMemcpyDefault:
		dst_dev = src_dev = false;
		break;
	default:
		return cudaErrorInvalidMemcpyDirection;
	}
	if ((dst_dev && !device_range(dst, dsz)) ||
	    (src_dev && !device_range(src, ssz)))
		return cudaErrorInvalidValue;
	if (!dst || !src)
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

/* Opens a copy or memset as an operation of its stream (hazard.h); the
 * host waits for a synchronous call, and for an asynchronous copy into
 * pageable host memory (CUDA returns once that is done).  Returns the
 * stream's lane; call with simt_lock held. */
static uint32_t op_open(const struct simt_issue *how, void *dst, const void *src)
{
	uint32_t lane = simt_stream_lane(how->stream);
	int cur = simt_current_device(), dd = simt_mem_device(dst);
	int sd = src ? simt_mem_device(src) : -1;

	/* a synchronous copy that reaches another device's memory is
	 * ordered after all work queued on that device and on the current
	 * one, as cudaMemcpyPeer is */
	if (!how->async && ((dd >= 0 && dd != cur) || (sd >= 0 && sd != cur))) {
		simt_order_wait_device(lane, cur);
		if (dd >= 0)
			simt_order_wait_device(lane, dd);
		if (sd >= 0)
			simt_order_wait_device(lane, sd);
	}
	simt_hz_op_begin(lane, !how->async || !simt_mem_find((uint64_t)(uintptr_t)dst, 1),
			 how->api);
	return lane;
}

static cudaError_t copy1d(void *dst, const void *src, size_t count,
			  enum cudaMemcpyKind kind, const struct simt_issue *how)
{
	cudaError_t e;
	uint32_t lane;

	if (!simt_stream_valid(how->stream))
		return fail(cudaErrorInvalidResourceHandle);
	if (count == 0)
		return (int)kind >= 0 && kind <= cudaMemcpyDefault
			? cudaSuccess : fail(cudaErrorInvalidMemcpyDirection);
	simt_lock();
	e = check_copy(dst, src, count, count, kind);
	if (e == cudaSuccess) {
		lane = op_open(how, dst, src);
		simt_hz_op_range(src, count, false);
		simt_hz_op_range(dst, count, true);
		simt_mem_copied(dst, src, count);
		memmove(simt_mem_host(dst), simt_mem_host(src), count);
		simt_peer_copy_note(dst, src, count);
		simt_hz_op_end(lane);
		simt_tl_copy(lane, dst, src, count, !how->async);
	}
	simt_unlock();
	return e == cudaSuccess ? cudaSuccess : fail(e);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
		       enum cudaMemcpyKind kind)
{
	struct simt_issue how = {0, false, "cudaMemcpy"};

	ENTER();
	UNSAFE(true);
	return copy1d(dst, src, count, kind, &how);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind, cudaStream_t stream)
{
	struct simt_issue how = {stream, true, "cudaMemcpyAsync"};
	cudaError_t e;

	ENTER();
	if (simt_capture_live && simt_capture_copy(dst, count, src, count, count,
						   1, kind, stream, &e))
		return e;
	return copy1d(dst, src, count, kind, &how);
}

/* A peer copy names the devices the two sides belong to; with unified
 * addressing the pointers already say it, so a pointer into another
 * device's memory than the one named is refused. */
static cudaError_t check_peer(void *dst, int dstDevice, const void *src,
			      int srcDevice, size_t count)
{
	int n = simt_device_count();

	if (dstDevice < 0 || dstDevice >= n || srcDevice < 0 || srcDevice >= n)
		return cudaErrorInvalidDevice;
	if (count && (simt_mem_device(dst) != dstDevice ||
		      simt_mem_device(src) != srcDevice))
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
			   int srcDevice, size_t count)
{
	cudaError_t e;

	ENTER();
	if ((e = check_peer(dst, dstDevice, src, srcDevice, count)) != cudaSuccess)
		return fail(e);
	return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
				int srcDevice, size_t count, cudaStream_t stream)
{
	cudaError_t e;

	ENTER();
	if ((e = check_peer(dst, dstDevice, src, srcDevice, count)) != cudaSuccess)
		return fail(e);
	return cudaMemcpyAsync(dst, src, count, cudaMemcpyDeviceToDevice, stream);
}

cudaError_t simt_copy2d(void *dst, size_t dpitch, const void *src,
			size_t spitch, size_t width, size_t height,
			enum cudaMemcpyKind kind, const struct simt_issue *how)
{
	cudaError_t e;
	uint32_t lane = 0;
	size_t r;

	if (!simt_stream_valid(how->stream))
		return fail(cudaErrorInvalidResourceHandle);
	if (width > dpitch || width > spitch)
		return fail(cudaErrorInvalidPitchValue);
	if (width == 0 || height == 0)
		return cudaSuccess;
	simt_lock();
	e = check_copy(dst, src, dpitch * (height - 1) + width,
		       spitch * (height - 1) + width, kind);
	if (e == cudaSuccess)
		lane = op_open(how, dst, src);
	for (r = 0; e == cudaSuccess && r < height; r++) {
		simt_hz_op_range((const char *)src + r * spitch, width, false);
		simt_hz_op_range((char *)dst + r * dpitch, width, true);
		simt_mem_copied((char *)dst + r * dpitch,
				(const char *)src + r * spitch, width);
		memmove(simt_mem_host((char *)dst + r * dpitch),
			simt_mem_host((const char *)src + r * spitch), width);
	}
	if (e == cudaSuccess) {
		simt_peer_copy_note(dst, src, (uint64_t)width * height);
		simt_hz_op_end(lane);
		simt_tl_copy(lane, dst, src, (uint64_t)width * height, !how->async);
	}
	simt_unlock();
	return e == cudaSuccess ? cudaSuccess : fail(e);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
			 size_t spitch, size_t width, size_t height,
			 enum cudaMemcpyKind kind)
{
	struct simt_issue how = {0, false, "cudaMemcpy2D"};

	ENTER();
	UNSAFE(true);
	return simt_copy2d(dst, dpitch, src, spitch, width, height, kind, &how);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind, cudaStream_t stream)
{
	struct simt_issue how = {stream, true, "cudaMemcpy2DAsync"};
	cudaError_t e;

	ENTER();
	if (simt_capture_live && simt_capture_copy(dst, dpitch, src, spitch,
						   width, height, kind, stream,
						   &e))
		return e;
	return simt_copy2d(dst, dpitch, src, spitch, width, height, kind, &how);
}

static cudaError_t set1d(void *devPtr, int value, size_t count,
			 const struct simt_issue *how)
{
	uint32_t lane;

	if (!simt_stream_valid(how->stream))
		return fail(cudaErrorInvalidResourceHandle);
	if (count == 0)
		return cudaSuccess;
	simt_lock();
	if (!device_range(devPtr, count)) {
		simt_unlock();
		return fail(cudaErrorInvalidValue);
	}
	lane = op_open(how, devPtr, NULL);
	simt_hz_op_range(devPtr, count, true);
	memset(simt_mem_host(devPtr), value, count);
	simt_mem_written(devPtr, count);
	simt_hz_op_end(lane);
	simt_tl_set(lane, devPtr, count);
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	struct simt_issue how = {0, false, "cudaMemset"};

	ENTER();
	UNSAFE(true);
	return set1d(devPtr, value, count, &how);
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
			    cudaStream_t stream)
{
	struct simt_issue how = {stream, true, "cudaMemsetAsync"};
	cudaError_t e;

	ENTER();
	if (simt_capture_live && simt_capture_set(devPtr, count, value, count, 1,
						  stream, &e))
		return e;
	return set1d(devPtr, value, count, &how);
}

cudaError_t simt_set2d(void *devPtr, size_t pitch, int value, size_t width,
		       size_t height, const struct simt_issue *how)
{
	uint32_t lane;
	size_t r;

	if (!simt_stream_valid(how->stream))
		return fail(cudaErrorInvalidResourceHandle);
	if (width > pitch)
		return fail(cudaErrorInvalidPitchValue);
	if (width == 0 || height == 0)
		return cudaSuccess;
	simt_lock();
	if (!device_range(devPtr, pitch * (height - 1) + width)) {
		simt_unlock();
		return fail(cudaErrorInvalidValue);
	}
	lane = op_open(how, devPtr, NULL);
	for (r = 0; r < height; r++) {
		simt_hz_op_range((char *)devPtr + r * pitch, width, true);
		memset(simt_mem_host((char *)devPtr + r * pitch), value, width);
		simt_mem_written((char *)devPtr + r * pitch, width);
	}
	simt_hz_op_end(lane);
	simt_tl_set(lane, devPtr, (uint64_t)width * height);
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
			 size_t height)
{
	struct simt_issue how = {0, false, "cudaMemset2D"};

	ENTER();
	UNSAFE(true);
	return simt_set2d(devPtr, pitch, value, width, height, &how);
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
			      size_t width, size_t height, cudaStream_t stream)
{
	struct simt_issue how = {stream, true, "cudaMemset2DAsync"};
	cudaError_t e;

	ENTER();
	if (simt_capture_live && simt_capture_set(devPtr, pitch, value, width,
						  height, stream, &e))
		return e;
	return simt_set2d(devPtr, pitch, value, width, height, &how);
}

/* ---- symbols ---- */

/* Storage of the __device__/__constant__ variable whose host shadow is
 * `symbol`, or NULL. */
static uint8_t *symbol_storage(const void *symbol, uint64_t *size)
{
	struct simt_symbol *s = simt_symbol_of(symbol);
	struct simt_var *v;

	if (!s || !s->mod || s->var < 0)
		return NULL;
	v = &s->mod->vars[s->var];
	*size = v->size;
	return v->data;
}

static cudaError_t to_symbol(const void *symbol, const void *src,
			     size_t count, size_t offset,
			     enum cudaMemcpyKind kind)
{
	uint64_t size;
	uint8_t *p;

	p = symbol_storage(symbol, &size);
	if (!p)
		return fail(cudaErrorInvalidSymbol);
	if (offset > size || count > size - offset)
		return fail(cudaErrorInvalidValue);
	if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
	    kind != cudaMemcpyDefault)
		return fail(cudaErrorInvalidMemcpyDirection);
	if (kind == cudaMemcpyDeviceToDevice && !device_range(src, count))
		return fail(cudaErrorInvalidValue);
	simt_lock();
	if (count)
		memmove(p + offset, simt_mem_host(src), count);
	simt_unlock();
	return cudaSuccess;
}

static cudaError_t from_symbol(void *dst, const void *symbol, size_t count,
			       size_t offset, enum cudaMemcpyKind kind)
{
	uint64_t size;
	uint8_t *p;

	p = symbol_storage(symbol, &size);
	if (!p)
		return fail(cudaErrorInvalidSymbol);
	if (offset > size || count > size - offset)
		return fail(cudaErrorInvalidValue);
	if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
	    kind != cudaMemcpyDefault)
		return fail(cudaErrorInvalidMemcpyDirection);
	if (kind == cudaMemcpyDeviceToDevice && !device_range(dst, count))
		return fail(cudaErrorInvalidValue);
	simt_lock();
	if (count)
		memmove(simt_mem_host(dst), p + offset, count);
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
			       size_t count, size_t offset,
			       enum cudaMemcpyKind kind)
{
	ENTER();
	UNSAFE(true);
	return to_symbol(symbol, src, count, offset, kind);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
				 size_t offset, enum cudaMemcpyKind kind)
{
	ENTER();
	UNSAFE(true);
	return from_symbol(dst, symbol, count, offset, kind);
}

/* A symbol copy issued to a capturing stream is captured as a copy to or
 * from the variable's storage, checked as the copy itself would be. */
static bool capture_symbol_copy(void *dst, const void *src, size_t count,
				size_t offset, bool to, enum cudaMemcpyKind kind,
				cudaStream_t stream, cudaError_t *err)
{
	uint64_t size;
	uint8_t *p = symbol_storage(to ? dst : src, &size);

	if (!p || offset > size || count > size - offset)
		return false;
	if (to)
		dst = p + offset;
	else
		src = p + offset;
	return simt_capture_copy(dst, count, src, count, count, 1, kind, stream,
				 err);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
				    size_t count, size_t offset,
				    enum cudaMemcpyKind kind,
				    cudaStream_t stream)
{
	cudaError_t e;

	ENTER();
	if (simt_capture_live &&
	    capture_symbol_copy((void *)symbol, src, count, offset, true, kind,
				stream, &e))
		return e;
	return to_symbol(symbol, src, count, offset, kind);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
				      size_t count, size_t offset,
				      enum cudaMemcpyKind kind,
				      cudaStream_t stream)
{
	cudaError_t e;

	ENTER();
	if (simt_capture_live &&
	    capture_symbol_copy(dst, symbol, count, offset, false, kind,
				stream, &e))
		return e;
	return from_symbol(dst, symbol, count, offset, kind);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
	uint64_t size;
	uint8_t *p;

	ENTER();
	if (!devPtr)
		return fail(cudaErrorInvalidValue);
	p = symbol_storage(symbol, &size);
	if (!p)
		return fail(cudaErrorInvalidSymbol);
	*devPtr = p;
	return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
	uint64_t sz;

	ENTER();
	if (!size)
		return fail(cudaErrorInvalidValue);
	if (!symbol_storage(symbol, &sz))
		return fail(cudaErrorInvalidSymbol);
	*size = sz;
	return cudaSuccess;
}
