/* CUDA arrays and texture objects.
 *
 * An array is a header the program holds as its cudaArray_t and a packed
 * block of simt device memory (rows of width * element size bytes, one
 * slice after the other, layers of a layered array as slices), so it is
 * bounds-checked and freed like any other allocation.  A texture object
 * is a 64-bit handle that indexes a table of descriptors; handles are
 * never reused, so a fetch through a destroyed one is recognised.
 *
 * The interpreter's tex samples as the CUDA programming guide's texture
 * fetching appendix describes the hardware: nearest-point or linear
 * filtering whose weights are fixed point with 8 fractional bits, the
 * address modes applied to texel indices, and normalized-float reads of
 * 8- and 16-bit integer channels. */
#include "exec/texture.h"

#include "exec/exec.h"
#include "ptx/ptx_int.h"
#include "runtime/runtime.h"

#include <math.h>
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

struct format {
	int nch;       /* 1, 2 or 4 */
	int csize;     /* bytes per channel */
	int esize;     /* bytes per element */
	enum cudaChannelFormatKind kind;
};

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
	for (z = 0; z < p->extent.depth; z++) {
		e = copy2d(d.p + z * d.slice, d.pitch, s.p + z * s.slice,
			   s.pitch, width, p->extent.height, p->kind, async,
			   stream);
		if (e != cudaSuccess)
			return e;
	}
	return cudaSuccess;
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

struct texobj {
	int dims;
	bool layered;
	bool fetch_only;   /* linear resource: integer indices, zero outside */
	bool as_float;     /* texels read as floats (float or normalized) */
	bool surface;      /* made by cudaCreateSurfaceObject */
	struct format fmt;
	uint8_t *base;
	uint64_t span;     /* bytes from base the texels occupy */
	size_t w, h, d, layers;
	size_t pitch, slice;
	struct cudaResourceDesc rd;
	struct cudaTextureDesc td;
	bool cube;         /* a cubemap: layers are faces, six per cube */
};

static struct texobj **objs;   /* handle h is objs[h - 1] */
static size_t nobjs, capobjs;

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

/* Enters a descriptor in the table and returns its handle. */
static uint64_t add_object(struct texobj *t)
{
	uint64_t h;

	pthread_mutex_lock(&tex_mu);
	if (nobjs == capobjs) {
		capobjs = capobjs ? 2 * capobjs : 16;
		objs = simt_xrealloc(objs, capobjs * sizeof *objs);
	}
	objs[nobjs++] = t;
	h = nobjs;
	pthread_mutex_unlock(&tex_mu);
	return h;
}

/* Takes handle h out of the table; false if it names no live object of
 * the kind asked for. */
static bool remove_object(uint64_t h, bool surface)
{
	struct texobj *t = NULL;

	pthread_mutex_lock(&tex_mu);
	if (h >= 1 && h <= nobjs && objs[h - 1] &&
	    objs[h - 1]->surface == surface) {
		t = objs[h - 1];
		objs[h - 1] = NULL;
	}
	pthread_mutex_unlock(&tex_mu);
	free(t);
	return t != NULL;
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
	*pTexObject = add_object(t);
	return cudaSuccess;
}

/* Copies the descriptor of handle h into *out; false if there is none. */
static bool lookup(uint64_t h, struct texobj *out)
{
	bool ok = false;

	pthread_mutex_lock(&tex_mu);
	if (h >= 1 && h <= nobjs && objs[h - 1]) {
		*out = *objs[h - 1];
		ok = true;
	}
	pthread_mutex_unlock(&tex_mu);
	return ok;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
	ENTER();
	if (!texObject)
		return cudaSuccess;
	return remove_object(texObject, false) ? cudaSuccess
					       : fail(cudaErrorInvalidValue);
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaTextureObject_t texObject)
{
	struct texobj t;

	ENTER();
	if (!pResDesc || !lookup(texObject, &t))
		return fail(cudaErrorInvalidValue);
	*pResDesc = t.rd;
	return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
					    cudaTextureObject_t texObject)
{
	struct texobj t;

	ENTER();
	if (!pTexDesc || !lookup(texObject, &t))
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
	*pSurfObject = add_object(t);
	return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
	ENTER();
	if (!surfObject)
		return cudaSuccess;
	return remove_object(surfObject, true) ? cudaSuccess
					       : fail(cudaErrorInvalidValue);
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaSurfaceObject_t surfObject)
{
	struct texobj t;

	ENTER();
	if (!pResDesc || !lookup(surfObject, &t) || !t.surface)
		return fail(cudaErrorInvalidValue);
	*pResDesc = t.rd;
	return cudaSuccess;
}

/* ---- decoding tex, txq, suld and sust ---- */

/* in->sub: the geometry of a tex, or TG_QUERY (txq, the query in sub2),
 * TG_SULD or TG_SUST (surface access: geometry in sub2, bytes per value
 * in type, values in vec, boundary mode in type2). */
enum { TG_1D, TG_2D, TG_3D, TG_A1D, TG_A2D, TG_CUBE, TG_ACUBE, TG_QUERY,
       TG_SULD, TG_SUST };

enum { SB_TRAP, SB_CLAMP, SB_ZERO };

/* txq: the sizes only; the sampler queries' encodings are not
 * documented in terms of the runtime's enums. */
enum { TQ_WIDTH, TQ_HEIGHT, TQ_DEPTH, TQ_ARRAY_SIZE };

static const char *const geom_words[] = {"1d", "2d", "3d", "a1d", "a2d",
					 "cube", "acube", NULL};
static const int geom_ncoord[] = {1, 2, 4, 2, 4, 4, 4};

static const char *const query_words[] = {
	"width", "height", "depth", "array_size", NULL};

/* The dot-separated words of an instruction, the opcode first. */
struct words {
	const char *s[8];
	uint32_t len[8];
	int n;
};

static void split_words(const char *op, uint32_t oplen, struct words *w)
{
	uint32_t i = 0;

	w->n = 0;
	while (i < oplen && w->n < 8) {
		uint32_t j = i;

		while (j < oplen && op[j] != '.')
			j++;
		w->s[w->n] = op + i;
		w->len[w->n++] = j - i;
		i = j + 1;
	}
}

static int word_in(const struct words *w, int i, const char *const *list)
{
	int j;

	if (i >= w->n)
		return -1;
	for (j = 0; list[j]; j++)
		if (strlen(list[j]) == w->len[i] &&
		    memcmp(list[j], w->s[i], w->len[i]) == 0)
			return j;
	return -1;
}

/* Stores the destinations in a fresh constant row and returns it. */
static uint32_t store_dst(struct ptx_parser *ps, const struct simt_tex_operands *t)
{
	uint32_t row = ptx_fresh_row(ps, 0);
	int i;

	for (i = 0; i < 4; i++) {
		struct simt_opnd o = {0, OK_NONE, 0, {0, 0}};
		uint64_t v = 0;

		if (i < t->ndst)
			o = t->dst[i];
		memcpy(&v, &o, sizeof o);
		ps->mod->consts[(size_t)row * 32 + (size_t)i] = v;
	}
	return row;
}

static const char *dec_txq(struct ptx_parser *ps, struct simt_insn *in,
			   const struct words *w, const struct simt_tex_operands *t)
{
	int q = word_in(w, 1, query_words);

	if (q < 0 || w->n != 3 || t->ndst != 1 || t->ncoord != 0)
		return "this txq query is not emulated";
	in->sub = TG_QUERY;
	in->sub2 = (uint8_t)q;
	in->o[4] = t->handle;
	in->target = store_dst(ps, t);
	return NULL;
}

/* The modifiers of suld.b / sust.b; false on one simt does not know. */
static bool surface_words(const struct words *w, struct simt_insn *in, int *g)
{
	static const char *const sizes[] = {"b8", "b16", "b32", "b64", NULL};
	static const char *const modes[] = {"trap", "clamp", "zero", NULL};
	static const char *const cache[] = {"ca", "cg", "cs", "cv", "wb", "wt",
					    NULL};
	int i, k;

	*g = -1;
	in->vec = 1;
	in->type = 0;
	in->type2 = SB_TRAP;
	if (w->n < 2 || w->len[1] != 1 || w->s[1][0] != 'b')
		return false;
	for (i = 2; i < w->n; i++) {
		if ((k = word_in(w, i, geom_words)) >= 0)
			*g = k;
		else if ((k = word_in(w, i, sizes)) >= 0)
			in->type = (uint8_t)(1 << k);
		else if ((k = word_in(w, i, modes)) >= 0)
			in->type2 = (uint8_t)k;
		else if (w->len[i] == 2 && w->s[i][0] == 'v' &&
			 (w->s[i][1] == '2' || w->s[i][1] == '4'))
			in->vec = (uint8_t)(w->s[i][1] - '0');
		else if (word_in(w, i, cache) < 0)
			return false;
	}
	/* surfaces reach a cubemap's faces as the layers of a2d */
	return *g >= 0 && *g <= TG_A2D && in->type != 0;
}

static const char *dec_surface(struct ptx_parser *ps, struct simt_insn *in,
			       const struct words *w,
			       const struct simt_tex_operands *t, bool store)
{
	int g, i;

	if (!surface_words(w, in, &g))
		return "surface accesses other than the .b forms of 1d, 2d, "
		       "3d, a1d and a2d are not emulated";
	if (t->ndst != in->vec || t->ncoord != geom_ncoord[g])
		return "operands not understood";
	in->sub = store ? TG_SUST : TG_SULD;
	in->sub2 = (uint8_t)g;
	for (i = 0; i < 4; i++)
		in->o[i] = i < t->ncoord ? t->coord[i] : t->coord[0];
	in->o[4] = t->handle;
	in->target = store_dst(ps, t);
	return NULL;
}

const char *simt_tex_decode(struct ptx_parser *ps, struct simt_insn *in,
			    const char *op, uint32_t oplen,
			    const struct simt_tex_operands *t)
{
	static const char *const dtypes[] = {"f32", "s32", "u32", NULL};
	static const char *const ctypes[] = {"f32", "s32", NULL};
	struct words w;
	int g, dt, ct, i;

	split_words(op, oplen, &w);
	in->op = OP_TEX;
	if (w.n >= 1 && w.len[0] == 3 && memcmp(w.s[0], "txq", 3) == 0)
		return dec_txq(ps, in, &w, t);
	if (w.n >= 1 && w.len[0] == 4 && memcmp(w.s[0], "su", 2) == 0)
		return dec_surface(ps, in, &w, t, w.s[0][2] == 's');
	g = word_in(&w, 1, geom_words);
	if (g < 0)
		return "texture geometries other than 1d, 2d, 3d, a1d, a2d, cube "
		       "and acube (and the level, grad and base forms) are not "
		       "emulated";
	if (w.n != 5 || w.len[2] != 2 || memcmp(w.s[2], "v4", 2) != 0)
		return "only four-element texture fetches are emulated";
	dt = word_in(&w, 3, dtypes);
	ct = word_in(&w, 4, ctypes);
	if (dt < 0 || ct < 0)
		return "texture fetches of this element or coordinate type are "
		       "not emulated";
	if (t->ndst != 4 || t->ncoord != geom_ncoord[g])
		return "operands not understood";
	in->sub = (uint8_t)g;
	in->type = (uint8_t)(dt == 0 ? ST_F32 : dt == 1 ? ST_S32 : ST_U32);
	in->type2 = (uint8_t)(ct == 0 ? ST_F32 : ST_S32);
	for (i = 0; i < 4; i++)
		in->o[i] = i < t->ncoord ? t->coord[i] : t->coord[0];
	in->o[4] = t->handle;
	in->target = store_dst(ps, t);
	return NULL;
}

/* ---- sampling ---- */

#define ROW(o) (bases[(o).kind] + (size_t)(o).idx * 32)

/* A texel or a filtered sample: floats when the texture reads floats,
 * the channels' integer values otherwise. */
struct texel {
	float f[4];
	uint32_t u[4];
};

static float f32_of(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t bits_of(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* Channel c of the element at p, as the texture reads it. */
static void read_channel(const struct texobj *t, const uint8_t *p, int c,
			 struct texel *v)
{
	const uint8_t *q = p + c * t->fmt.csize;
	bool sgn = t->fmt.kind == cudaChannelFormatKindSigned;
	bool norm = t->td.readMode == cudaReadModeNormalizedFloat;
	int32_t iv = 0;
	uint32_t u32;
	uint16_t u16;

	switch (t->fmt.csize) {
	case 1:
		iv = sgn ? (int8_t)q[0] : (int32_t)q[0];
		break;
	case 2:
		memcpy(&u16, q, 2);
		if (t->fmt.kind == cudaChannelFormatKindFloat) {
			v->f[c] = simt_h2f(u16);
			return;
		}
		iv = sgn ? (int16_t)u16 : (int32_t)u16;
		break;
	default:
		memcpy(&u32, q, 4);
		if (t->fmt.kind == cudaChannelFormatKindFloat) {
			v->f[c] = f32_of(u32);
			return;
		}
		v->u[c] = u32;
		return;
	}
	v->u[c] = (uint32_t)iv;
	if (norm) {
		float scale = sgn ? (t->fmt.csize == 1 ? 127.0f : 32767.0f)
				  : (t->fmt.csize == 1 ? 255.0f : 65535.0f);
		float f = (float)iv / scale;

		v->f[c] = f < -1.0f ? -1.0f : f;
	}
}

/* The border colour of an integer texture: the value truncated, 0 for
 * one no 32-bit integer holds. */
static uint32_t int_of(float f)
{
	if (!(f > -2147483648.0f && f < 2147483648.0f))
		return 0;
	return (uint32_t)(int32_t)f;
}

/* The texel at resolved indices (any of them -1: the border colour). */
static void fetch(const struct texobj *t, long i, long j, long k, long layer,
		  struct texel *v)
{
	const uint8_t *p;
	int c;

	memset(v, 0, sizeof *v);
	if (i < 0 || j < 0 || k < 0) {
		for (c = 0; c < 4; c++) {
			v->f[c] = t->td.borderColor[c];
			v->u[c] = int_of(t->td.borderColor[c]);
		}
		return;
	}
	p = t->base + (size_t)(k + layer) * t->slice + (size_t)j * t->pitch +
	    (size_t)i * (size_t)t->fmt.esize;
	for (c = 0; c < t->fmt.nch; c++)
		read_channel(t, p, c, v);
}

/* Index i of a dimension of n texels under the address mode; -1 for a
 * texel of the border. */
static long resolve(long i, long n, int mode)
{
	long p;

	switch (mode) {
	case cudaAddressModeWrap:
		p = i % n;
		return p < 0 ? p + n : p;
	case cudaAddressModeMirror:
		p = i % (2 * n);
		if (p < 0)
			p += 2 * n;
		return p < n ? p : 2 * n - 1 - p;
	case cudaAddressModeBorder:
		return i < 0 || i >= n ? -1 : i;
	default:
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
}

/* Largest |coordinate| kept; beyond it every mode gives the same texel. */
#define COORD_LIMIT 1.0e9f

static long floor_index(float x)
{
	if (!(x == x))
		return 0;
	if (x > COORD_LIMIT)
		x = COORD_LIMIT;
	if (x < -COORD_LIMIT)
		x = -COORD_LIMIT;
	return (long)floorf(x);
}

/* One axis of a sample: the two texel indices and the weight of the
 * second, fixed point with 8 fractional bits as the hardware keeps it. */
struct axis {
	long i[2];
	float a;
};

static void axis_at(float x, long n, int mode, bool linear, struct axis *out)
{
	float xb;
	long i0;

	if (!linear) {
		out->i[0] = out->i[1] = resolve(floor_index(x), n, mode);
		out->a = 0.0f;
		return;
	}
	xb = x - 0.5f;
	i0 = floor_index(xb);
	out->a = xb == xb ? rintf((xb - floorf(xb)) * 256.0f) / 256.0f : 0.0f;
	if (!(out->a >= 0.0f && out->a <= 1.0f))
		out->a = 0.0f;
	out->i[0] = resolve(i0, n, mode);
	out->i[1] = resolve(i0 + 1, n, mode);
}

static void axis_of(const struct texobj *t, int ax, float x, long n,
		    bool linear, struct axis *out)
{
	int mode = t->td.addressMode[ax];

	if (!t->td.normalizedCoords && mode != cudaAddressModeBorder)
		mode = cudaAddressModeClamp;
	if (t->td.normalizedCoords)
		x *= (float)n;
	axis_at(x, n, mode, linear, out);
}

/* Filters over the 2, 4 or 8 texels around the sample point. */
static void filter(const struct texobj *t, const struct axis *ax, int dims,
		   long layer, struct texel *v)
{
	int corner, c, ncorner = 1 << dims;

	memset(v, 0, sizeof *v);
	for (corner = 0; corner < ncorner; corner++) {
		float wt = 1.0f;
		long idx[3] = {0, 0, 0};
		struct texel s;
		int d;

		for (d = 0; d < dims; d++) {
			int hi = (corner >> d) & 1;

			wt *= hi ? ax[d].a : 1.0f - ax[d].a;
			idx[d] = ax[d].i[hi];
		}
		if (wt == 0.0f)
			continue;
		fetch(t, idx[0], idx[1], idx[2], layer, &s);
		for (c = 0; c < 4; c++)
			v->f[c] += wt * s.f[c];
	}
}

static long clamp_layer(const struct texobj *t, int32_t layer)
{
	long n = (long)t->layers;

	return layer < 0 ? 0 : layer >= n ? n - 1 : layer;
}

/* The face of a cubemap that direction (x, y, z) points at, and the
 * face's own coordinates (s, t) from 0 to 1: the axis of largest
 * magnitude picks the face (+x, -x, +y, -y, +z, -z: faces 0 to 5; x
 * before y before z on a tie), and the other two components, divided by
 * it, span the face:
 *     +x (-z, -y)   -x (z, -y)   +y (x, z)   -y (x, -z)   +z (x, -y)
 *     -z (-x, -y) */
static int cube_face(float x, float y, float z, float *s, float *t)
{
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, u, v;
	int face;

	if (ax >= ay && ax >= az) {
		face = x >= 0.0f ? 0 : 1;
		m = ax;
		u = x >= 0.0f ? -z : z;
		v = -y;
	} else if (ay >= az) {
		face = y >= 0.0f ? 2 : 3;
		m = ay;
		u = x;
		v = y >= 0.0f ? z : -z;
	} else {
		face = z >= 0.0f ? 4 : 5;
		m = az;
		u = z >= 0.0f ? x : -x;
		v = -y;
	}
	if (!(m > 0.0f)) {
		*s = *t = 0.5f;         /* no direction: the face's centre */
		return face;
	}
	*s = (u / m + 1.0f) * 0.5f;
	*t = (v / m + 1.0f) * 0.5f;
	return face;
}

/* A cubemap sample: the face's texels around (s, t), clamped at the
 * face's edges (no filtering across faces). */
static void sample_cube(const struct texobj *t, const struct simt_insn *in,
			const uint32_t c[4], struct texel *v)
{
	bool layered = in->sub == TG_ACUBE;
	bool linear = t->td.filterMode == cudaFilterModeLinear;
	float s, u;
	int first = layered ? 1 : 0;
	int face = cube_face(f32_of(c[first]), f32_of(c[first + 1]),
			     f32_of(c[first + 2]), &s, &u);
	long cubes = (long)t->layers / 6, cube = 0, layer;
	struct axis ax[2];

	if (layered) {
		cube = (int32_t)c[0];
		cube = cube < 0 ? 0 : cube >= cubes ? cubes - 1 : cube;
	}
	layer = clamp_layer(t, (int32_t)(cube * 6 + face));
	axis_at(s * (float)t->w, (long)t->w, cudaAddressModeClamp, linear, &ax[0]);
	axis_at(u * (float)t->h, (long)t->h, cudaAddressModeClamp, linear, &ax[1]);
	if (linear)
		filter(t, ax, 2, layer, v);
	else
		fetch(t, ax[0].i[0], ax[1].i[0], 0, layer, v);
}

/* The sample of one lane; c holds the raw coordinate registers. */
static void sample(const struct texobj *t, const struct simt_insn *in,
		   const uint32_t c[4], struct texel *v)
{
	const size_t ext[3] = {t->w, t->h, t->d};
	int g = in->sub, dims, first = 0, d;
	bool icoord = in->type2 == ST_S32;
	bool linear = t->td.filterMode == cudaFilterModeLinear && !icoord &&
		      !t->fetch_only;
	struct axis ax[3];
	long layer = 0;

	if (g == TG_CUBE || g == TG_ACUBE) {
		if (t->cube && !icoord) {
			sample_cube(t, in, c, v);
			return;
		}
		/* not a cubemap: nothing the hardware defines */
		memset(v, 0, sizeof *v);
		return;
	}
	dims = g == TG_3D ? 3 : g == TG_2D || g == TG_A2D ? 2 : 1;
	if (g == TG_A1D || g == TG_A2D) {
		layer = clamp_layer(t, (int32_t)c[0]);
		first = 1;
	}
	for (d = 0; d < dims; d++) {
		long n = (long)ext[d];

		if (icoord) {
			long i = (int32_t)c[first + d];

			if (t->fetch_only && (i < 0 || i >= n)) {
				memset(v, 0, sizeof *v);
				return;
			}
			ax[d].i[0] = ax[d].i[1] =
				resolve(i, n, t->td.addressMode[d] ==
						      cudaAddressModeBorder
						      ? cudaAddressModeBorder
						      : cudaAddressModeClamp);
			ax[d].a = 0.0f;
		} else {
			axis_of(t, d, f32_of(c[first + d]), n, linear, &ax[d]);
		}
	}
	if (t->dims == 3 && g != TG_3D)
		layer = 0;
	if (linear) {
		filter(t, ax, dims, layer, v);
		return;
	}
	fetch(t, ax[0].i[0], dims > 1 ? ax[1].i[0] : 0,
	      dims > 2 ? ax[2].i[0] : 0, layer, v);
}

/* The four destination words of a sample for the instruction's type. */
static void result_words(const struct texobj *t, const struct simt_insn *in,
			 const struct texel *v, uint32_t out[4])
{
	int c;

	for (c = 0; c < 4; c++) {
		if (in->type == ST_F32)
			out[c] = t->as_float ? bits_of(v->f[c])
			       : bits_of(t->fmt.kind == cudaChannelFormatKindSigned
					 ? (float)(int32_t)v->u[c]
					 : (float)v->u[c]);
		else
			out[c] = t->as_float ? bits_of(v->f[c]) : v->u[c];
	}
}

static uint32_t query(const struct texobj *t, int q)
{
	switch (q) {
	case TQ_WIDTH: return (uint32_t)t->w;
	case TQ_HEIGHT: return (uint32_t)t->h;
	case TQ_DEPTH: return (uint32_t)t->d;
	default: return (uint32_t)(t->cube ? t->layers / 6 : t->layers);
	}
}

/* ---- surface accesses ---- */

/* Resolves a surface coordinate of one lane to its bytes: false after a
 * fault (.trap), or with *p NULL when the access reads zeros and stores
 * nothing (.zero). */
static bool surface_at(struct block_ctx *bc, const struct warp *w, int lane,
		       const struct simt_insn *in, const struct texobj *t,
		       const uint32_t c[4], uint8_t **p)
{
	int g = in->sub2, first = g == TG_A1D || g == TG_A2D ? 1 : 0;
	int dims = g == TG_3D ? 3 : g == TG_2D || g == TG_A2D ? 2 : 1;
	long size = (long)in->type * in->vec;
	long lim[4] = {(long)t->pitch - size + 1, (long)t->h, (long)t->d,
		       (long)t->layers};
	long at[4] = {0, 0, 0, 0};
	bool out = false;
	int d;

	for (d = 0; d < dims; d++)
		at[d] = (int32_t)c[first + d];
	if (first)
		at[3] = (int32_t)c[0];
	for (d = 0; d < 4; d++) {
		if (at[d] >= 0 && at[d] < lim[d])
			continue;
		out = true;
		if (in->type2 == SB_CLAMP)
			at[d] = at[d] < 0 ? 0 : lim[d] - 1;
	}
	*p = NULL;
	if (out && in->type2 == SB_TRAP) {
		simt_fault(bc, w, lane, in, cudaErrorIllegalAddress,
			   "out-of-bounds surface %s of %ld bytes at byte %ld, "
			   "row %ld, slice %ld, layer %ld of a %zu x %zu x %zu "
			   "surface (%zu layers) of %d-byte elements",
			   in->sub == TG_SUST ? "write" : "read", size, at[0],
			   at[1], at[2], at[3], t->w, t->h, t->d, t->layers,
			   t->fmt.esize);
		return false;
	}
	if (out && (in->type2 == SB_ZERO || lim[0] < 1))
		return true;
	*p = t->base + (size_t)(at[2] + at[3]) * t->slice +
	     (size_t)at[1] * t->pitch + (size_t)at[0];
	return true;
}

/* One lane of a suld or sust; false after a fault. */
static bool surface_lane(struct block_ctx *bc, const struct warp *w,
			 unsigned l, const struct simt_insn *in,
			 const struct texobj *t, uint64_t *const *bases,
			 const struct simt_opnd *val)
{
	uint32_t co[4];
	uint8_t *p;
	int c;

	for (c = 0; c < 4; c++)
		co[c] = (uint32_t)ROW(in->o[c])[l];
	if (!surface_at(bc, w, (int)l, in, t, co, &p))
		return false;
	for (c = 0; c < in->vec; c++) {
		uint64_t v = 0;

		if (in->sub == TG_SUST) {
			v = ROW(val[c])[l];
			if (p)
				memcpy(p + c * in->type, &v, in->type);
		} else if (val[c].kind != OK_NONE) {
			if (p)
				memcpy(&v, p + c * in->type, in->type);
			ROW(val[c])[l] = v;
		}
	}
	return true;
}

static const char *what(const struct simt_insn *in)
{
	return in->sub == TG_SULD ? "surface read"
	     : in->sub == TG_SUST ? "surface write"
	     : in->sub == TG_QUERY ? "texture query" : "texture fetch";
}

/* Finds the descriptor of handle h for a lane, or reports the fault. */
static bool lane_texture(struct block_ctx *bc, const struct warp *w, int lane,
			 const struct simt_insn *in, uint64_t h,
			 struct texobj *t)
{
	size_t made;

	if (lookup(h, t)) {
		if (simt_mem_find((uint64_t)(uintptr_t)t->base, t->span))
			return true;
		simt_fault(bc, w, lane, in, cudaErrorIllegalAddress,
			   "%s through texture or surface object 0x%llx, whose "
			   "memory was freed", what(in), (unsigned long long)h);
		return false;
	}
	pthread_mutex_lock(&tex_mu);
	made = nobjs;
	pthread_mutex_unlock(&tex_mu);
	simt_fault(bc, w, lane, in, cudaErrorIllegalAddress,
		   "%s through texture or surface object 0x%llx, which %s",
		   what(in), (unsigned long long)h,
		   h >= 1 && h <= made ? "was destroyed"
				       : "was never created");
	return false;
}

bool simt_tex_exec(struct block_ctx *bc, struct warp *w,
		   const struct simt_insn *in, uint64_t *const *bases,
		   uint32_t ex)
{
	const uint64_t *H = ROW(in->o[4]);
	struct simt_opnd dst[4];
	struct texobj t;
	uint64_t have = 0;
	bool any = false;
	unsigned l;
	int c;

	for (c = 0; c < 4; c++)
		memcpy(&dst[c], &bases[OK_IMM][(size_t)in->target * 32 + c],
		       sizeof dst[c]);
	for (l = 0; l < 32; l++) {
		uint32_t co[4], out[4];
		struct texel v;

		if (!(ex >> l & 1))
			continue;
		if (!any || H[l] != have) {
			if (!lane_texture(bc, w, (int)l, in, H[l], &t))
				return false;
			have = H[l];
			any = true;
		}
		if (in->sub == TG_SULD || in->sub == TG_SUST) {
			if (!surface_lane(bc, w, l, in, &t, bases, dst))
				return false;
			continue;
		}
		if (in->sub == TG_QUERY) {
			if (dst[0].kind != OK_NONE)
				ROW(dst[0])[l] = query(&t, in->sub2);
			continue;
		}
		for (c = 0; c < 4; c++)
			co[c] = (uint32_t)ROW(in->o[c])[l];
		sample(&t, in, co, &v);
		result_words(&t, in, &v, out);
		for (c = 0; c < 4; c++)
			if (dst[c].kind != OK_NONE)
				ROW(dst[c])[l] = out[c];
	}
	return true;
}
