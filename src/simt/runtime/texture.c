/* CUDA arrays and texture objects: the runtime calls.
 *
 * An array is a header the program holds as its cudaArray_t and a packed
 * block of simt device memory (rows of width * element size bytes, one
 * slice after the other, layers of a layered array as slices), so it is
 * bounds-checked and freed like any other allocation.  A texture object
 * is a 64-bit handle that indexes the table of descriptors kernels read
 * (exec/texture.c). */
#include "runtime/runtime.h"
#include "exec/texture.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ---- channel formats ---- */

/* Fills *f from a channel descriptor; false if no CUDA array or texture
 * can have it (three channels, mixed sizes, 8-bit floats, ...). */
static bool format_of(const struct cudaChannelFormatDesc *d, struct format *f)
{
	int bits = d->x;

	if (bits != 8 && bits != 16 && bits != 32)
		return false;
	if ((d->y && d->y != bits) || (d->z && d->z != bits) ||
	    (d->w && d->w != bits))
		return false;
	if (!d->y)
		f->nch = d->z || d->w ? 0 : 1;
	else if (!d->z)
		f->nch = d->w ? 0 : 2;
	else
		f->nch = d->w ? 4 : 0;
	if (!f->nch)
		return false;
	if (d->f != cudaChannelFormatKindSigned &&
	    d->f != cudaChannelFormatKindUnsigned &&
	    d->f != cudaChannelFormatKindFloat)
		return false;
	if (d->f == cudaChannelFormatKindFloat && bits == 8)
		return false;
	f->kind = d->f;
	f->csize = bits / 8;
	f->esize = f->csize * f->nch;
	return true;
}

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
						   enum cudaChannelFormatKind f)
{
	struct cudaChannelFormatDesc d;

	d.x = x;
	d.y = y;
	d.z = z;
	d.w = w;
	d.f = f;
	return d;
}

/* ---- arrays ---- */

struct cudaArray {
	struct cudaChannelFormatDesc desc;
	struct format fmt;
	struct cudaExtent ext;     /* as allocated (0 for absent dimensions) */
	unsigned flags;
	int dims;                  /* 1, 2 or 3 */
	size_t w, h, d;            /* texels; h, d at least 1 */
	size_t layers;             /* 1 unless layered */
	size_t pitch, slice;       /* bytes per row, per slice or layer */
	uint8_t *data;
};

static pthread_mutex_t tex_mu = PTHREAD_MUTEX_INITIALIZER;
static struct cudaArray **arrays;
static size_t narrays, caparrays;

static bool array_live_locked(const struct cudaArray *a)
{
	size_t i;

	for (i = 0; i < narrays; i++)
		if (arrays[i] == a)
			return true;
	return false;
}

static bool array_live(const struct cudaArray *a)
{
	bool live;

	pthread_mutex_lock(&tex_mu);
	live = a && array_live_locked(a);
	pthread_mutex_unlock(&tex_mu);
	return live;
}

/* Works out the shape of an array from its extent and flags; false if the
 * combination is not one CUDA allows. */
static bool array_shape(struct cudaArray *a, struct cudaExtent e,
			unsigned flags)
{
	const size_t lim = (size_t)1 << 20;

	if (!e.width || e.width > lim || e.height > lim || e.depth > lim)
		return false;
	if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore |
				cudaArrayTextureGather | cudaArrayCubemap))
		return false;
	a->w = e.width;
	a->h = e.height ? e.height : 1;
	a->d = 1;
	a->layers = 1;
	if (flags & cudaArrayCubemap) {
		/* square faces, six of them per cube: kept as the layers of
		 * a 2D array, face f of cube k at layer 6k + f */
		if (e.width != e.height || !e.depth || e.depth % 6 ||
		    (!(flags & cudaArrayLayered) && e.depth != 6))
			return false;
		a->dims = 2;
		a->layers = e.depth;
	} else if (flags & cudaArrayLayered) {
		if (!e.depth)
			return false;
		a->dims = e.height ? 2 : 1;
		a->layers = e.depth;
	} else {
		if (e.depth && !e.height)
			return false;
		a->dims = e.depth ? 3 : e.height ? 2 : 1;
		a->d = e.depth ? e.depth : 1;
	}
	return true;
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array,
			      const struct cudaChannelFormatDesc *desc,
			      struct cudaExtent extent, unsigned int flags)
{
	struct cudaArray *a;
	size_t bytes;

	ENTER();
	if (!array || !desc)
		return fail(cudaErrorInvalidValue);
	a = simt_xcalloc(1, sizeof *a);
	if (!format_of(desc, &a->fmt)) {
		free(a);
		return fail(cudaErrorInvalidChannelDescriptor);
	}
	if (!array_shape(a, extent, flags)) {
		free(a);
		return fail(cudaErrorInvalidValue);
	}
	a->desc = *desc;
	a->ext = extent;
	a->flags = flags;
	a->pitch = a->w * (size_t)a->fmt.esize;
	a->slice = a->pitch * a->h;
	bytes = a->slice * a->d * a->layers;
	simt_lock();
	a->data = simt_mem_alloc(bytes, MEM_DEVICE, 0);
	simt_unlock();
	if (!a->data) {
		free(a);
		return fail(cudaErrorMemoryAllocation);
	}
	pthread_mutex_lock(&tex_mu);
	if (narrays == caparrays) {
		caparrays = caparrays ? 2 * caparrays : 16;
		arrays = simt_xrealloc(arrays, caparrays * sizeof *arrays);
	}
	arrays[narrays++] = a;
	pthread_mutex_unlock(&tex_mu);
	*array = a;
	return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t *array,
			    const struct cudaChannelFormatDesc *desc,
			    size_t width, size_t height, unsigned int flags)
{
	struct cudaExtent e = {width, height, 0};

	if (flags & cudaArrayLayered)
		return fail(cudaErrorInvalidValue);
	return cudaMalloc3DArray(array, desc, e, flags);
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
	size_t i;
	bool found = false;

	ENTER();
	if (!array)
		return cudaSuccess;
	pthread_mutex_lock(&tex_mu);
	for (i = 0; i < narrays; i++) {
		if (arrays[i] == array) {
			arrays[i] = arrays[--narrays];
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&tex_mu);
	if (!found)
		return fail(cudaErrorInvalidValue);
	simt_lock();
	simt_mem_free(array->data, MEM_DEVICE);
	simt_unlock();
	free(array);
	return cudaSuccess;
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
			     struct cudaExtent *extent, unsigned int *flags,
			     cudaArray_t array)
{
	ENTER();
	if (!array_live(array))
		return fail(cudaErrorInvalidResourceHandle);
	if (desc)
		*desc = array->desc;
	if (extent)
		*extent = array->ext;
	if (flags)
		*flags = array->flags;
	return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc,
			       cudaArray_const_t array)
{
	ENTER();
	if (!desc)
		return fail(cudaErrorInvalidValue);
	if (!array_live(array))
		return fail(cudaErrorInvalidResourceHandle);
	*desc = array->desc;
	return cudaSuccess;
}

/* ---- copies ---- */

/* One 2D copy of a runtime call.  An asynchronous call on a stream being
 * captured becomes a copy node of the graph; anything else completes now.
 * A synchronous call that a capture in progress forbids is refused. */
static cudaError_t copy2d(void *dst, size_t dpitch, const void *src,
			  size_t spitch, size_t width, size_t height,
			  enum cudaMemcpyKind kind, bool async,
			  cudaStream_t stream)
{
	cudaError_t e = cudaSuccess;

	if (simt_capture_live) {
		if (async && simt_capture_copy(dst, dpitch, src, spitch, width,
					       height, kind, stream, &e))
			return e;
		if (!async && (e = simt_capture_unsafe(true)) != cudaSuccess)
			return e;
	}
	struct simt_issue how = {stream, async, async ? "an asynchronous array copy"
							  : "an array copy"};

	return simt_copy2d(dst, dpitch, src, spitch, width, height, kind, &how);
}

/* One side of a 3D copy: where it starts, its row pitch and its slice
 * size in bytes, and for an array how far the copy may reach. */
struct side {
	uint8_t *p;
	size_t pitch, slice;
	const struct cudaArray *arr;
};

/* Resolves one side of a cudaMemcpy3D; `width` is the copy's row size in
 * bytes.  Returns cudaSuccess or the error to report. */
static cudaError_t side_of(struct side *s, const struct cudaArray *arr,
			   struct cudaPos pos, const struct cudaPitchedPtr *pp,
			   const struct cudaExtent *ext, size_t width)
{
	memset(s, 0, sizeof *s);
	if (arr) {
		size_t x = pos.x * (size_t)arr->fmt.esize;
		size_t slices = arr->d * arr->layers;

		if (!array_live(arr))
			return cudaErrorInvalidResourceHandle;
		if (x + width > arr->pitch || pos.y + ext->height > arr->h ||
		    pos.z + ext->depth > slices)
			return cudaErrorInvalidValue;
		s->arr = arr;
		s->pitch = arr->pitch;
		s->slice = arr->slice;
		s->p = arr->data + pos.z * s->slice + pos.y * s->pitch + x;
		return cudaSuccess;
	}
	if (!pp->ptr || width > pp->pitch)
		return cudaErrorInvalidValue;
	s->pitch = pp->pitch;
	s->slice = pp->pitch * (pp->ysize ? pp->ysize : ext->height);
	s->p = (uint8_t *)pp->ptr + pos.z * s->slice + pos.y * s->pitch + pos.x;
	return cudaSuccess;
}

/* A copy between an array and anything (or two linear regions): extent
 * in elements when an array is involved, bytes otherwise. */
static cudaError_t copy3d(const struct cudaMemcpy3DParms *p, bool async,
			  cudaStream_t stream)
{
	const struct cudaArray *arr;
	struct side s, d;
	size_t width, z;
	cudaError_t e;

	if (!p || (p->srcArray && p->srcPtr.ptr) ||
	    (p->dstArray && p->dstPtr.ptr))
		return fail(cudaErrorInvalidValue);
	if (!p->extent.width || !p->extent.height || !p->extent.depth)
		return cudaSuccess;
	arr = p->srcArray ? p->srcArray : p->dstArray;
	if (arr && !array_live(arr))
		return fail(cudaErrorInvalidResourceHandle);
	if (p->srcArray && p->dstArray &&
	    p->srcArray->fmt.esize != p->dstArray->fmt.esize)
		return fail(cudaErrorInvalidValue);
	width = arr ? p->extent.width * (size_t)arr->fmt.esize : p->extent.width;
	e = side_of(&s, p->srcArray, p->srcPos, &p->srcPtr, &p->extent, width);
	if (e == cudaSuccess)
		e = side_of(&d, p->dstArray, p->dstPos, &p->dstPtr, &p->extent,
			    width);
	if (e != cudaSuccess)
		return fail(e);
	simt_copy_parts(true);
	for (z = 0; e == cudaSuccess && z < p->extent.depth; z++)
		e = copy2d(d.p + z * d.slice, d.pitch, s.p + z * s.slice,
			   s.pitch, width, p->extent.height, p->kind, async,
			   stream);
	simt_copy_parts(false);
	return e;
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
	ENTER();
	return copy3d(p, false, NULL);
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
			      cudaStream_t stream)
{
	ENTER();
	return copy3d(p, true, stream);
}

/* A 2D copy to or from an array at byte column wOffset, row hOffset. */
struct array_copy {
	struct cudaArray *arr;
	bool to_array;
	bool async;
	cudaStream_t stream;
};

static cudaError_t copy_array2d(const struct array_copy *c, size_t wOffset,
				size_t hOffset, void *mem, size_t mpitch,
				size_t width, size_t height,
				enum cudaMemcpyKind kind)
{
	struct cudaArray *arr = c->arr;
	uint8_t *at;

	ENTER();
	if (!array_live(arr))
		return fail(cudaErrorInvalidResourceHandle);
	if (!width || !height)
		return cudaSuccess;
	if (wOffset + width > arr->pitch || hOffset + height > arr->h ||
	    !mem)
		return fail(cudaErrorInvalidValue);
	at = arr->data + hOffset * arr->pitch + wOffset;
	if (c->to_array)
		return copy2d(at, arr->pitch, mem, mpitch, width, height, kind,
			      c->async, c->stream);
	return copy2d(mem, mpitch, at, arr->pitch, width, height, kind,
		      c->async, c->stream);
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset,
				size_t hOffset, const void *src, size_t spitch,
				size_t width, size_t height,
				enum cudaMemcpyKind kind)
{
	struct array_copy c = {dst, true, false, NULL};

	return copy_array2d(&c, wOffset, hOffset, (void *)(uintptr_t)src,
			    spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset,
				     size_t hOffset, const void *src,
				     size_t spitch, size_t width, size_t height,
				     enum cudaMemcpyKind kind,
				     cudaStream_t stream)
{
	struct array_copy c = {dst, true, true, stream};

	return copy_array2d(&c, wOffset, hOffset, (void *)(uintptr_t)src,
			    spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch,
				  cudaArray_const_t src, size_t wOffset,
				  size_t hOffset, size_t width, size_t height,
				  enum cudaMemcpyKind kind)
{
	struct array_copy c = {(struct cudaArray *)(uintptr_t)src, false,
			       false, NULL};

	return copy_array2d(&c, wOffset, hOffset, dst, dpitch, width, height,
			    kind);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch,
				       cudaArray_const_t src, size_t wOffset,
				       size_t hOffset, size_t width,
				       size_t height, enum cudaMemcpyKind kind,
				       cudaStream_t stream)
{
	struct array_copy c = {(struct cudaArray *)(uintptr_t)src, false,
			       true, stream};

	return copy_array2d(&c, wOffset, hOffset, dst, dpitch, width, height,
			    kind);
}

/* The deprecated 1D forms copy `count` bytes from (wOffset bytes, row
 * hOffset) on, running on into the following rows. */
static cudaError_t copy_array1d(struct cudaArray *arr, bool to_array,
				size_t wOffset, size_t hOffset, void *mem,
				size_t count, enum cudaMemcpyKind kind)
{
	size_t off;

	ENTER();
	if (!array_live(arr))
		return fail(cudaErrorInvalidResourceHandle);
	off = hOffset * arr->pitch + wOffset;
	if (wOffset > arr->pitch || hOffset > arr->h * arr->d * arr->layers ||
	    off + count > arr->slice * arr->d * arr->layers)
		return fail(cudaErrorInvalidValue);
	if (!count)
		return cudaSuccess;
	if (to_array)
		return copy2d(arr->data + off, count, mem, count, count, 1,
			      kind, false, NULL);
	return copy2d(mem, count, arr->data + off, count, count, 1, kind,
		      false, NULL);
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
			      const void *src, size_t count,
			      enum cudaMemcpyKind kind)
{
	return copy_array1d(dst, true, wOffset, hOffset, (void *)(uintptr_t)src,
			    count, kind);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src,
				size_t wOffset, size_t hOffset, size_t count,
				enum cudaMemcpyKind kind)
{
	return copy_array1d((struct cudaArray *)(uintptr_t)src, false, wOffset,
			    hOffset, dst, count, kind);
}

/* ---- texture objects ---- */

/* Fills the resource part of *t; cudaSuccess or the error to report. */
static cudaError_t resource_of(struct texobj *t,
			       const struct cudaResourceDesc *r)
{
	const struct cudaArray *a;

	switch (r->resType) {
	case cudaResourceTypeArray:
		a = r->res.array.array;
		if (!array_live(a))
			return cudaErrorInvalidResourceHandle;
		t->fmt = a->fmt;
		t->dims = a->dims;
		t->layered = (a->flags & cudaArrayLayered) != 0;
		t->cube = (a->flags & cudaArrayCubemap) != 0;
		t->base = a->data;
		t->w = a->w;
		t->h = a->h;
		t->d = a->d;
		t->layers = a->layers;
		t->pitch = a->pitch;
		t->slice = a->slice;
		t->span = a->slice * a->d * a->layers;
		t->host = simt_mem_host(t->base);
		return cudaSuccess;
	case cudaResourceTypeLinear:
		if (!format_of(&r->res.linear.desc, &t->fmt))
			return cudaErrorInvalidChannelDescriptor;
		t->dims = 1;
		t->fetch_only = true;
		t->base = r->res.linear.devPtr;
		t->w = r->res.linear.sizeInBytes / (size_t)t->fmt.esize;
		t->h = t->d = t->layers = 1;
		t->pitch = t->slice = t->span = r->res.linear.sizeInBytes;
		break;
	case cudaResourceTypePitch2D:
		if (!format_of(&r->res.pitch2D.desc, &t->fmt))
			return cudaErrorInvalidChannelDescriptor;
		t->dims = 2;
		t->base = r->res.pitch2D.devPtr;
		t->w = r->res.pitch2D.width;
		t->h = r->res.pitch2D.height;
		t->d = t->layers = 1;
		t->pitch = r->res.pitch2D.pitchInBytes;
		t->slice = t->pitch * t->h;
		if (!t->w || !t->h ||
		    t->w * (size_t)t->fmt.esize > t->pitch)
			return cudaErrorInvalidValue;
		t->span = t->pitch * (t->h - 1) + t->w * (size_t)t->fmt.esize;
		break;
	default:
		return cudaErrorNotSupported;
	}
	if (!t->w || !t->base ||
	    !simt_mem_find((uint64_t)(uintptr_t)t->base, t->span))
		return cudaErrorInvalidValue;
	t->host = simt_mem_host(t->base);
	return cudaSuccess;
}

/* Checks the sampling state against the format: normalized reads only of
 * 8- and 16-bit integers, linear filtering only of texels read as floats. */
static cudaError_t sampling_of(struct texobj *t, const struct cudaTextureDesc *td)
{
	bool intfmt = t->fmt.kind != cudaChannelFormatKindFloat;
	int i;

	for (i = 0; i < 3; i++)
		if ((unsigned)td->addressMode[i] > cudaAddressModeBorder)
			return cudaErrorInvalidValue;
	if ((unsigned)td->filterMode > cudaFilterModeLinear ||
	    (unsigned)td->readMode > cudaReadModeNormalizedFloat)
		return cudaErrorInvalidValue;
	if (intfmt && td->readMode == cudaReadModeNormalizedFloat &&
	    t->fmt.csize == 4)
		return cudaErrorInvalidValue;
	t->as_float = !intfmt || td->readMode == cudaReadModeNormalizedFloat;
	if (td->filterMode == cudaFilterModeLinear && !t->as_float)
		return cudaErrorInvalidValue;
	t->td = *td;
	return cudaSuccess;
}

static bool view_is_none(const struct cudaResourceViewDesc *v)
{
	return !v || v->format == 0;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
				    const struct cudaResourceDesc *pResDesc,
				    const struct cudaTextureDesc *pTexDesc,
				    const struct cudaResourceViewDesc *pResViewDesc)
{
	struct texobj *t;
	cudaError_t e;

	ENTER();
	if (!pTexObject || !pResDesc || !pTexDesc)
		return fail(cudaErrorInvalidValue);
	if (!view_is_none(pResViewDesc))
		return fail(cudaErrorNotSupported);
	t = simt_xcalloc(1, sizeof *t);
	t->rd = *pResDesc;
	simt_lock();
	e = resource_of(t, pResDesc);
	simt_unlock();
	if (e == cudaSuccess)
		e = sampling_of(t, pTexDesc);
	if (e != cudaSuccess) {
		free(t);
		return fail(e);
	}
	*pTexObject = simt_tex_add(t);
	return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
	ENTER();
	if (!texObject)
		return cudaSuccess;
	return simt_tex_remove(texObject, false) ? cudaSuccess
					       : fail(cudaErrorInvalidValue);
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaTextureObject_t texObject)
{
	struct texobj t;

	ENTER();
	if (!pResDesc || !simt_tex_lookup(texObject, &t))
		return fail(cudaErrorInvalidValue);
	*pResDesc = t.rd;
	return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
					    cudaTextureObject_t texObject)
{
	struct texobj t;

	ENTER();
	if (!pTexDesc || !simt_tex_lookup(texObject, &t))
		return fail(cudaErrorInvalidValue);
	*pTexDesc = t.td;
	return cudaSuccess;
}

/* ---- surface objects ---- */

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
				    const struct cudaResourceDesc *pResDesc)
{
	struct texobj *t;
	cudaError_t e;

	ENTER();
	if (!pSurfObject || !pResDesc)
		return fail(cudaErrorInvalidValue);
	if (pResDesc->resType != cudaResourceTypeArray)
		return fail(cudaErrorInvalidValue);
	if (array_live(pResDesc->res.array.array) &&
	    !(pResDesc->res.array.array->flags & cudaArraySurfaceLoadStore))
		return fail(cudaErrorInvalidValue);
	t = simt_xcalloc(1, sizeof *t);
	t->rd = *pResDesc;
	t->surface = true;
	simt_lock();
	e = resource_of(t, pResDesc);
	simt_unlock();
	if (e != cudaSuccess) {
		free(t);
		return fail(e);
	}
	*pSurfObject = simt_tex_add(t);
	return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
	ENTER();
	if (!surfObject)
		return cudaSuccess;
	return simt_tex_remove(surfObject, true) ? cudaSuccess
					       : fail(cudaErrorInvalidValue);
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaSurfaceObject_t surfObject)
{
	struct texobj t;

	ENTER();
	if (!pResDesc || !simt_tex_lookup(surfObject, &t) || !t.surface)
		return fail(cudaErrorInvalidValue);
	*pResDesc = t.rd;
	return cudaSuccess;
}

