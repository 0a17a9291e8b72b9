/* Texture and surface objects in kernels: the table of descriptors that a
 * handle indexes, and tex, txq, suld and sust.
 *
 * The interpreter's tex samples as the CUDA programming guide's texture
 * fetching appendix describes the hardware: nearest-point or linear
 * filtering whose weights are fixed point with 8 fractional bits, the
 * address modes applied to texel indices, and normalized-float reads of
 * 8- and 16-bit integer channels. */
#include "exec/texture.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the table of objects ---- */

static pthread_mutex_t objs_mu = PTHREAD_MUTEX_INITIALIZER;
static struct texobj **objs;   /* handle h is objs[h - 1] */
static size_t nobjs, capobjs;

uint64_t simt_tex_add(struct texobj *t)
{
	uint64_t h;

	pthread_mutex_lock(&objs_mu);
	if (nobjs == capobjs) {
		capobjs = capobjs ? 2 * capobjs : 16;
		objs = simt_xrealloc(objs, capobjs * sizeof *objs);
	}
	objs[nobjs++] = t;
	h = nobjs;
	pthread_mutex_unlock(&objs_mu);
	return h;
}

bool simt_tex_remove(uint64_t h, bool surface)
{
	struct texobj *t = NULL;

	pthread_mutex_lock(&objs_mu);
	if (h >= 1 && h <= nobjs && objs[h - 1] &&
	    objs[h - 1]->surface == surface) {
		t = objs[h - 1];
		objs[h - 1] = NULL;
	}
	pthread_mutex_unlock(&objs_mu);
	free(t);
	return t != NULL;
}

bool simt_tex_lookup(uint64_t h, struct texobj *out)
{
	bool ok = false;

	pthread_mutex_lock(&objs_mu);
	if (h >= 1 && h <= nobjs && objs[h - 1]) {
		*out = *objs[h - 1];
		ok = true;
	}
	pthread_mutex_unlock(&objs_mu);
	return ok;
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
	p = t->host + (size_t)(k + layer) * t->slice + (size_t)j * t->pitch +
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
	*p = t->host + (size_t)(at[2] + at[3]) * t->slice +
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

	if (simt_tex_lookup(h, t)) {
		if (simt_mem_find((uint64_t)(uintptr_t)t->base, t->span))
			return true;
		simt_fault(bc, w, lane, in, cudaErrorIllegalAddress,
			   "%s through texture or surface object 0x%llx, whose "
			   "memory was freed", what(in), (unsigned long long)h);
		return false;
	}
	pthread_mutex_lock(&objs_mu);
	made = nobjs;
	pthread_mutex_unlock(&objs_mu);
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
