/* The interpreter's memory instructions: addresses resolved to host
 * pointers in each state space with bounds and alignment checks (a fast
 * path for a whole warp, a checked path lane by lane), the memory
 * counters (sectors, bank conflicts), loads, stores, cp.async and
 * atomics.  The hazard checks of each access are called from here. */
#include "exec/exec.h"

#include "exec/hooks.h"
#include "exec/lanes.h"
#include "exec/host.h"

#include <stdio.h>
#include <string.h>

/* ---- memory ---- */

enum { ACC_READ, ACC_WRITE, ACC_ATOMIC };

static const char *acc_name(int acc)
{
	return acc == ACC_READ ? "read" : acc == ACC_WRITE ? "write" : "atomic";
}

/* Puts entry i of the cache at the front (the fast paths check only
 * entry 0), moving entries 0..i-1 down over it. */
static void cache_front(struct alloc_cache *c, int i)
{
	uint64_t lo = c->lo[i], size = c->size[i];
	uint8_t *host = c->host[i], *init = c->init[i];
	struct hz_word *shadow = c->shadow[i];

	memmove(&c->lo[1], &c->lo[0], (size_t)i * sizeof c->lo[0]);
	memmove(&c->size[1], &c->size[0], (size_t)i * sizeof c->size[0]);
	memmove(&c->host[1], &c->host[0], (size_t)i * sizeof c->host[0]);
	memmove(&c->shadow[1], &c->shadow[0], (size_t)i * sizeof c->shadow[0]);
	memmove(&c->init[1], &c->init[0], (size_t)i * sizeof c->init[0]);
	c->lo[0] = lo;
	c->size[0] = size;
	c->host[0] = host;
	c->shadow[0] = shadow;
	c->init[0] = init;
}

/* Puts [lo, lo + size), which simt reaches at host, in the cache in
 * place of its last entry, at the front; returns host. */
static uint8_t *cache_enter(struct alloc_cache *c, uint64_t lo, uint64_t size,
			    uint8_t *host, struct hz_word *shadow, uint8_t *init)
{
	c->lo[3] = lo;
	c->size[3] = size;
	c->host[3] = host;
	c->shadow[3] = shadow;
	c->init[3] = init;
	cache_front(c, 3);
	return host;
}

/* Under CUDALAB_SIMT_HMM, an access of the program's own host memory,
 * which kernels reach on a system with HMM or ATS: true with *p set to
 * the host pointer (NULL after reporting a write to read-only memory), or
 * false when a is not host memory.  Memory that may be written enters the
 * cache, without hazard records, up to the next allocation. */
static bool host_memory(struct block_ctx *bc, const struct warp *w,
			unsigned lane, const struct simt_insn *in, uint64_t a,
			uint32_t n, int acc, const char *what, uint8_t **p)
{
	uint64_t lo, hi;
	bool rw;

	if (!simt_mem_host_range(a, n, &lo, &hi, &rw))
		return false;
	*p = (uint8_t *)(uintptr_t)a;
	if (rw)
		cache_enter(&bc->cache, lo, hi - lo, (uint8_t *)(uintptr_t)lo,
			    NULL, NULL);
	else if (acc != ACC_READ) {
		simt_fault(bc, w, (int)lane, in, cudaErrorIllegalAddress,
			   "invalid %s of %u bytes at address 0x%llx, which is "
			   "read-only host memory", what, n, (unsigned long long)a);
		*p = NULL;
	}
	return true;
}

/* Host pointer for n bytes at global address a, or NULL after a fault. */
static uint8_t *global_ptr(struct block_ctx *bc, const struct warp *w,
			   unsigned lane, const struct simt_insn *in,
			   uint64_t a, uint32_t n, int acc)
{
	struct alloc_cache *c = &bc->cache;
	const struct simt_alloc *al;
	struct simt_buf msg = {0};
	uint8_t *p;
	int i;

	for (i = 0; i < 4; i++) {
		if (a - c->lo[i] < c->size[i] && c->size[i] - (a - c->lo[i]) >= n) {
			if (i)
				cache_front(c, i);
			return c->host[0] + (a - c->lo[0]);
		}
	}
	/* Whether this device may reach the allocation is checked here, as
	 * it enters the cache, so hits cost nothing more; so is where simt
	 * reaches it. */
	al = simt_mem_find(a, n);
	if (al && simt_mem_reachable(al, bc->L->device)) {
		if (bc->L->hz)
			simt_mem_touch(al, bc->L->hz_base);
		return cache_enter(c, al->base, al->size,
				   simt_mem_host((const void *)(uintptr_t)al->base),
				   al->shadow, al->init) + (a - al->base);
	}
	char what[32];

	snprintf(what, sizeof what, "global %s", acc_name(acc));
	if (!al && bc->L->hmm && host_memory(bc, w, lane, in, a, n, acc, what, &p))
		return p;
	if (al)
		simt_mem_describe_peer(&msg, al, n, what, bc->L->device);
	else
		simt_mem_describe(&msg, a, n, what);
	simt_fault(bc, w, (int)lane, in, cudaErrorIllegalAddress, "%s", msg.s);
	simt_buf_free(&msg);
	return NULL;
}

static uint8_t *shared_ptr(struct block_ctx *bc, const struct warp *w,
			   unsigned lane, const struct simt_insn *in,
			   uint64_t off, uint32_t n, int acc)
{
	uint32_t size = bc->L->shared_size;

	if (off < size && size - off >= n)
		return bc->shared + off;
	simt_fault(bc, w, (int)lane, in, cudaErrorIllegalAddress,
		   "out-of-bounds shared %s of %u bytes at offset %llu; the "
		   "block has %u bytes of shared memory", acc_name(acc), n,
		   (unsigned long long)off, size);
	return NULL;
}

static uint8_t *local_ptr(struct block_ctx *bc, const struct warp *w,
			  unsigned lane, const struct simt_insn *in,
			  uint64_t off, uint32_t n, int acc)
{
	uint32_t size = bc->L->local_per_thread;

	if (off < size && size - off >= n)
		return bc->local + ((size_t)w->id * 32 + lane) * size + off;
	simt_fault(bc, w, (int)lane, in, cudaErrorIllegalAddress,
		   "out-of-bounds local %s of %u bytes at offset %llu; the "
		   "thread has %u bytes of local memory", acc_name(acc), n,
		   (unsigned long long)off, size);
	return NULL;
}

/* Host pointer for an access of n bytes by `lane` at address `a` in
 * state space `space`, checked; NULL after reporting a fault. */
static uint8_t *resolve(struct block_ctx *bc, const struct warp *w,
			unsigned lane, const struct simt_insn *in, int space,
			uint64_t a, uint32_t n, uint32_t align, int acc)
{
	if (align > 1 && (a & (align - 1))) {
		simt_fault(bc, w, (int)lane, in, cudaErrorMisalignedAddress,
			   "misaligned %s %s of %u bytes at address 0x%llx",
			   simt_space_name(space), acc_name(acc), n,
			   (unsigned long long)a);
		return NULL;
	}
	switch (space) {
	case SS_GENERIC:
		if (SIMT_WIN_OF(a) == SIMT_LOCAL_WIN)
			return local_ptr(bc, w, lane, in, a - SIMT_LOCAL_WIN, n, acc);
		if (SIMT_WIN_OF(a) == SIMT_SHARED_WIN)
			return shared_ptr(bc, w, lane, in, a - SIMT_SHARED_WIN, n,
					  acc);
		return global_ptr(bc, w, lane, in, a, n, acc);
	case SS_SHARED:
		return shared_ptr(bc, w, lane, in, a, n, acc);
	case SS_LOCAL:
		return local_ptr(bc, w, lane, in, a, n, acc);
	case SS_KPARAM:
		if (a + n <= bc->L->fn->kparam_size)
			return bc->L->kparams + a;
		simt_fault(bc, w, (int)lane, in, cudaErrorIllegalAddress,
			   "kernel parameter access past the parameters");
		return NULL;
	default:
		return global_ptr(bc, w, lane, in, a, n, acc);
	}
}

/* Address of lane l's operand before the space is applied. */
static inline uint64_t lane_address(const struct simt_insn *in,
				    uint64_t *const *bases,
				    const struct warp *w, unsigned l)
{
	switch (in->am) {
	case AM_REG:
		return R(in->addr)[l] + (uint64_t)in->imm;
	case AM_LOCVAR:
		return w->frames[w->fi].local_base + (uint64_t)in->imm;
	default:
		return (uint64_t)in->imm;
	}
}

static void count_sectors(struct block_ctx *bc, const uint64_t *addr,
			  uint32_t lanes, uint32_t n, bool store)
{
	uint64_t sec[64], bytes = (uint64_t)popc(lanes) * n;
	int ns = 0, j;

	FOR_LANES(lanes, {
		uint64_t s = addr[l] >> 5, e = (addr[l] + n - 1) >> 5;

		for (; s <= e && ns < 64; s++) {
			for (j = 0; j < ns && sec[j] != s; j++)
				;
			if (j == ns)
				sec[ns++] = s;
		}
	});
	if (store) {
		bc->counts.gst_req++;
		bc->counts.gst_sectors += (uint64_t)ns;
		bc->counts.gst_bytes += bytes;
	} else {
		bc->counts.gld_req++;
		bc->counts.gld_sectors += (uint64_t)ns;
		bc->counts.gld_bytes += bytes;
	}
}

/* Shared-memory wavefronts beyond the first: lanes hitting different
 * 4-byte words of the same bank serialise. */
static uint32_t count_banks(struct block_ctx *bc, const uint64_t *addr,
			    uint32_t lanes, uint32_t n, bool store)
{
	uint32_t waves = 0;
	uint32_t words[32][8];
	int nw[32] = {0}, worst = 0, b, j;
	uint32_t phase_lanes = n <= 4 ? 32 : n == 8 ? 16 : 8;
	uint32_t phase;

	if (store)
		bc->counts.sst_req++;
	else
		bc->counts.sld_req++;
	for (phase = 0; phase < 32; phase += phase_lanes) {
		uint32_t pl = lanes & (uint32_t)(((1ull << phase_lanes) - 1) << phase);
		int pw = 0;

		memset(nw, 0, sizeof nw);
		FOR_LANES(pl, {
			uint32_t word = (uint32_t)(addr[l] >> 2);
			uint32_t k;

			for (k = 0; k < (n + 3) / 4; k++) {
				uint32_t wd = word + k;

				b = (int)(wd & 31);
				for (j = 0; j < nw[b] && words[b][j] != wd; j++)
					;
				if (j == nw[b] && nw[b] < 8)
					words[b][nw[b]++] = wd;
				if (nw[b] > pw)
					pw = nw[b];
			}
		});
		if (pw > 1)
			worst += pw - 1;
		if (pl)
			waves++;
	}
	bc->counts.bank_conflicts += (uint64_t)worst;
	return waves + (uint32_t)worst;
}

static void count_access(struct block_ctx *bc, const struct simt_insn *in,
			 const uint64_t *addr, uint32_t lanes, uint32_t n,
			 bool store)
{
	int space = in->space;
	unsigned l0 = (unsigned)__builtin_ctz(lanes);

	if (space == SS_GENERIC) {
		uint64_t win = SIMT_WIN_OF(addr[l0]);

		space = win == SIMT_SHARED_WIN ? SS_SHARED
		      : win == SIMT_LOCAL_WIN ? SS_LOCAL : SS_GLOBAL;
	}
	if (space == SS_GLOBAL || space == SS_CONST) {
		count_sectors(bc, addr, lanes, n, store);
		if (bc->tr)
			pm_trace_global(bc->tr, bc->cur_warp, (uint32_t)(in - bc->L->mod->code),
					addr, lanes, n, store);
	} else if (space == SS_SHARED) {
		count_banks(bc, addr, lanes, n, store);
		if (bc->tr)
			pm_trace_shared(bc->tr, bc->cur_warp, (uint32_t)(in - bc->L->mod->code),
					addr, lanes, n);
	} else if (space == SS_LOCAL) {
		if (store)
			bc->counts.local_st++;
		else
			bc->counts.local_ld++;
		if (bc->tr)
			pm_trace_local(bc->tr, bc->cur_warp, (uint32_t)(in - bc->L->mod->code), n);
	}
}

static uint64_t load_bytes(const uint8_t *p, int size, bool sgn)
{
	uint64_t v = 0;

	switch (size) {
	case 1: v = *p; break;
	case 2: { uint16_t t; memcpy(&t, p, 2); v = t; break; }
	case 4: { uint32_t t; memcpy(&t, p, 4); v = t; break; }
	default: memcpy(&v, p, 8); break;
	}
	return sgn ? sext_to(v, size * 8) : v;
}

static void store_bytes(uint8_t *p, int size, uint64_t v)
{
	switch (size) {
	case 1: *p = (uint8_t)v; break;
	case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
	case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

/* Pointer into the per-lane parameter area of the current frame. */
static inline uint8_t *param_ptr(uint64_t *fb, uint64_t off, unsigned l)
{
	return (uint8_t *)&fb[(off >> 3) * 32 + l] + (off & 7);
}

/* The window of memory a fast path may touch without a full check: the
 * most recently used global allocation, or the block's shared memory. */
static inline void fast_window(struct block_ctx *bc, int space, uint64_t a,
			       uint64_t *lo, uint64_t *size, uint8_t **base)
{
	if (space == SS_SHARED) {
		*lo = 0;
		*size = bc->L->shared_size;
		*base = bc->shared;
	} else {
		struct alloc_cache *c = &bc->cache;

		/* a kernel reading two arrays in turn: the one address a
		 * (the first lane's) falls in comes to the front */
		if (a - c->lo[0] >= c->size[0]) {
			for (int i = 1; i < 4; i++) {
				if (a - c->lo[i] < c->size[i]) {
					cache_front(c, i);
					break;
				}
			}
		}
		*lo = bc->cache.lo[0];
		*size = bc->cache.size[0];
		*base = bc->cache.host[0];
	}
}

static inline bool fast_space(int space)
{
	return space == SS_GLOBAL || space == SS_GENERIC || space == SS_CONST ||
	       space == SS_SHARED;
}

/* One lane of a register-addressed access: the host pointer for lane l,
 * checked against the fast window, with the full resolution (and a
 * refreshed window) only when the lane falls outside it. */
#define FAST_LANE(acc, ptr_type) \
	uint64_t a = A[l] + imm, off = a - lo; \
	ptr_type p = base + off; \
	if (off >= sz || sz - off < n || (a & (n - 1))) { \
		p = resolve(bc, w, l, in, in->space, a, n, n, acc); \
		if (!p) \
			return false; \
		fast_window(bc, in->space, a, &lo, &sz, &base); \
	} \
	if (rec) \
		addr[l] = a; \
	if (pt) \
		pt[l] = (uint8_t *)p

/* How the lanes of a warp access lie, as window_ptrs finds them. */
enum { WIN_MISS, WIN_SCATTER, WIN_RUN, WIN_UNIFORM };

/* The host pointers of a register-addressed access of n bytes per lane
 * when every active lane's bytes lie inside the fast window and are
 * aligned: WIN_MISS when some lane needs the full resolution, else how
 * the lanes lie.  A whole warp in a line (all at one address, or a rising
 * run of n bytes each) is seen first, by one comparison per lane and the
 * two ends checked; then only pt[0] is set (line_fill makes the rest).
 * Otherwise one pass over all 32 lanes without a branch, so that it
 * vectorises; inactive lanes get the window's base, safe to read. */
static inline __attribute__((always_inline)) int
window_ptrs(const uint64_t *restrict A, uint64_t imm, uint32_t ex,
	    uint64_t lo, uint64_t sz, uint8_t *base, uint32_t n,
	    uint8_t **restrict pt)
{
	uint64_t bad = 0, lim;

	if (sz < n)
		return WIN_MISS;
	lim = sz - n;
	if (ex == SIMT_FULL) {
		uint64_t a0 = A[0] + imm, d;

		if (lanes_in_line(A, n, &d)) {
			uint64_t off = a0 - lo, span = 31 * d;

			if (off > lim || lim - off < span || (a0 & (n - 1)))
				return WIN_MISS;
			pt[0] = base + off;
			return d ? WIN_RUN : WIN_UNIFORM;
		}
		for (unsigned l = 0; l < 32; l++) {
			uint64_t a = A[l] + imm, off = a - lo;

			bad |= (uint64_t)(off > lim) | (a & (n - 1));
			pt[l] = base + off;
		}
		return bad ? WIN_MISS : WIN_SCATTER;
	}
	for (unsigned l = 0; l < 32; l++) {
		uint64_t on = 0 - (uint64_t)((ex >> l) & 1);
		uint64_t a = A[l] + imm, off = (a - lo) & on;

		bad |= ((uint64_t)(off > lim) | (a & (n - 1))) & on;
		pt[l] = base + off;
	}
	return bad ? WIN_MISS : WIN_SCATTER;
}

/* The pointers of lanes 1..31 of a warp in a line from lane 0's. */
static inline void line_fill(uint8_t **pt, int shape, uint32_t n)
{
	if (shape == WIN_RUN || shape == WIN_UNIFORM)
		line_ptrs(pt, shape == WIN_RUN ? n : 0);
}

/* Row D from the 4 or 8 bytes at offset k * size of each lane's pointer
 * (lanes lying as `shape` says); inactive lanes keep their value (a
 * blend, so that the loop has no branch). */
static inline __attribute__((always_inline)) void
gather_row(uint64_t *restrict D, uint8_t *const *restrict pt, uint32_t ex,
	   int size, int k, int shape)
{
	if (shape == WIN_UNIFORM && size == 4) {
		load_line32(D, pt[0] + 4 * k, 0);
	} else if (shape == WIN_UNIFORM) {
		uint64_t v;

		memcpy(&v, pt[0] + 8 * k, 8);
		for (unsigned l = 0; l < 32; l++)
			D[l] = v;
	} else if (shape == WIN_RUN && size == 4) {
		load_line32(D, pt[0], 4);
	} else if (shape == WIN_RUN) {
		memcpy(D, pt[0], 32 * 8);
	} else if (size == 4 && ex == SIMT_FULL) {
		for (unsigned l = 0; l < 32; l++) {
			uint32_t v;

			memcpy(&v, pt[l] + 4 * k, 4);
			D[l] = v;
		}
	} else if (size == 4) {
		for (unsigned l = 0; l < 32; l++) {
			uint32_t v;

			memcpy(&v, pt[l] + 4 * k, 4);
			D[l] = (ex >> l) & 1 ? v : D[l];
		}
	} else if (ex == SIMT_FULL) {
		for (unsigned l = 0; l < 32; l++)
			memcpy(&D[l], pt[l] + 8 * k, 8);
	} else {
		for (unsigned l = 0; l < 32; l++) {
			uint64_t v;

			memcpy(&v, pt[l] + 8 * k, 8);
			D[l] = (ex >> l) & 1 ? v : D[l];
		}
	}
}

/* Scalar register-addressed loads and stores in the spaces the fast
 * window covers: the whole warp checked at once when it can be, else
 * lane by lane, with loops specialised by access size. */
static inline __attribute__((always_inline)) bool
ld_fast(struct block_ctx *bc, struct warp *w, const struct simt_insn *in,
	uint64_t *const *bases, uint32_t ex, uint64_t *addr, uint8_t **pt,
	int *line)
{
	const uint64_t *A = R(in->addr);
	uint64_t *D = R(in->o[0]);
	int size = simt_type_size(in->type);
	bool sgn = simt_type_signed(in->type), rec = simt_counters_on;
	uint64_t imm = (uint64_t)in->imm, lo, sz;
	uint32_t n = (uint32_t)size;
	uint8_t *base;

	fast_window(bc, in->space, A[__builtin_ctz(ex)] + imm, &lo, &sz, &base);
	if ((size == 8 || (size == 4 && !sgn)) && in->vec <= 4) {
		uint8_t *own[32], **p = pt ? pt : own;
		int shape = window_ptrs(A, imm, ex, lo, sz, base, n * in->vec, p);

		if (shape != WIN_MISS) {
			/* the callers that want the line need only pt[0] */
			if (line && shape != WIN_SCATTER)
				*line = shape == WIN_RUN ? (int)(n * in->vec) : 0;
			if ((pt && !line) || in->vec > 1)
				line_fill(p, shape, n * in->vec);
			if (shape == WIN_RUN && in->vec > 1)
				shape = WIN_SCATTER;
			for (int k = 0; k < in->vec; k++)
				gather_row(R(in->o[k]), p, ex, size, k, shape);
			if (rec)
				FOR_LANES(ex, addr[l] = A[l] + imm);
			return true;
		}
	}
	if (in->vec == 4 && size == 4 && !sgn) {
		/* float4/int4: the four rows looked up once, not per lane */
		uint64_t *D0 = R(in->o[0]), *D1 = R(in->o[1]), *D2 = R(in->o[2]);
		uint64_t *D3 = R(in->o[3]);

		n = 16;
		FOR_LANES(ex, {
			FAST_LANE(ACC_READ, const uint8_t *);
			uint32_t v[4];

			memcpy(v, p, 16);
			D0[l] = v[0];
			D1[l] = v[1];
			D2[l] = v[2];
			D3[l] = v[3];
		});
	} else if (in->vec > 1) {
		int k, vec = in->vec;
		uint64_t *Dk[4];

		for (k = 0; k < vec; k++)
			Dk[k] = R(in->o[k]);
		n = (uint32_t)(size * vec);
		FOR_LANES(ex, {
			FAST_LANE(ACC_READ, const uint8_t *);
			for (k = 0; k < vec; k++)
				Dk[k][l] = load_bytes(p + k * size, size, sgn);
		});
	} else if (size == 4 && !sgn) {
		FOR_LANES(ex, {
			FAST_LANE(ACC_READ, const uint8_t *);
			uint32_t v;

			memcpy(&v, p, 4);
			D[l] = v;
		});
	} else if (size == 8) {
		FOR_LANES(ex, {
			FAST_LANE(ACC_READ, const uint8_t *);
			memcpy(&D[l], p, 8);
		});
	} else {
		FOR_LANES(ex, {
			FAST_LANE(ACC_READ, const uint8_t *);
			D[l] = load_bytes(p, size, sgn);
		});
	}
	return true;
}

static inline __attribute__((always_inline)) bool
st_fast(struct block_ctx *bc, struct warp *w, const struct simt_insn *in,
	uint64_t *const *bases, uint32_t ex, uint64_t *addr)
{
	uint8_t **pt = NULL; /* the hazard path has its own stores */
	const uint64_t *A = R(in->addr), *S = R(in->o[0]);
	int size = simt_type_size(in->type);
	bool rec = simt_counters_on;
	uint64_t imm = (uint64_t)in->imm, lo, sz;
	uint32_t n = (uint32_t)size;
	uint8_t *base;

	fast_window(bc, in->space, A[__builtin_ctz(ex)] + imm, &lo, &sz, &base);
	if ((size == 4 || size == 8) && in->vec <= 4) {
		uint8_t *p[32];
		int shape = window_ptrs(A, imm, ex, lo, sz, base, n * in->vec, p);

		if (shape != WIN_MISS) {
			line_fill(p, shape, n * in->vec);
			for (int k = 0; k < in->vec; k++) {
				const uint64_t *Sk = R(in->o[k]);

				if (size == 4)
					FOR_LANES(ex, {
						uint32_t v = (uint32_t)Sk[l];

						memcpy(p[l] + 4 * k, &v, 4);
					});
				else
					FOR_LANES(ex, memcpy(p[l] + 8 * k, &Sk[l], 8));
			}
			if (rec)
				FOR_LANES(ex, addr[l] = A[l] + imm);
			return true;
		}
	}
	if (in->vec > 1) {
		int k, vec = in->vec;
		const uint64_t *Sk[4];

		for (k = 0; k < vec; k++)
			Sk[k] = R(in->o[k]);
		n = (uint32_t)(size * vec);
		FOR_LANES(ex, {
			FAST_LANE(ACC_WRITE, uint8_t *);
			for (k = 0; k < vec; k++)
				store_bytes(p + k * size, size, Sk[k][l]);
		});
	} else if (size == 4) {
		FOR_LANES(ex, {
			FAST_LANE(ACC_WRITE, uint8_t *);
			uint32_t v = (uint32_t)S[l];

			memcpy(p, &v, 4);
		});
	} else if (size == 8) {
		FOR_LANES(ex, {
			FAST_LANE(ACC_WRITE, uint8_t *);
			memcpy(p, &S[l], 8);
		});
	} else {
		FOR_LANES(ex, {
			FAST_LANE(ACC_WRITE, uint8_t *);
			store_bytes(p, size, S[l]);
		});
	}
	return true;
}

/* A load with hazard checks: every lane reads, then the lanes' accesses
 * are checked together. */
static inline __attribute__((always_inline)) bool
ld_checked(struct block_ctx *bc, struct warp *w,
		       const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex)
{
	int size = simt_type_size(in->type), vec = in->vec, k;
	bool sgn = simt_type_signed(in->type);
	uint32_t n = (uint32_t)(size * vec);
	uint64_t addr[32];
	uint8_t *ptr[32];

	if (in->am == AM_REG && fast_space(in->space)) {
		int line = -1;

		if (!ld_fast(bc, w, in, bases, ex, addr, ptr, &line))
			return false;
		if (line < 0 ||
		    (uint64_t)(ptr[0] - bc->shared) >= bc->L->shared_size ||
		    !simt_hz_quiet_line(bc, w, in, ptr[0], n, (uint32_t)line))
			simt_hz_warp_access(bc, w, in, ex, ptr, n, HZ_READ, NULL, 0, line);
		if (simt_counters_on)
			count_access(bc, in, addr, ex, n, false);
		return true;
	}
	FOR_LANES(ex, {
		uint64_t a = lane_address(in, bases, w, l);
		const uint8_t *p = resolve(bc, w, l, in, in->space, a, n, n, ACC_READ);

		if (!p)
			return false;
		addr[l] = a;
		ptr[l] = (uint8_t *)p;
		for (k = 0; k < vec; k++)
			R(in->o[k])[l] = load_bytes(p + k * size, size, sgn);
	});
	simt_hz_warp_access(bc, w, in, ex, ptr, n, HZ_READ, NULL, 0, -1);
	if (simt_counters_on)
		count_access(bc, in, addr, ex, n, false);
	return true;
}

SIMT_LANE_CLONES bool simt_exec_ld(struct block_ctx *bc, struct warp *w,
		    const struct simt_insn *in, uint64_t *const *bases,
		    uint32_t ex)
{
	int size = simt_type_size(in->type), vec = in->vec, k;
	bool sgn = simt_type_signed(in->type);
	uint32_t n = (uint32_t)(size * vec);
	uint64_t addr[32];

	if (bc->hz && in->am != AM_PARAM && in->am != AM_KPARAM)
		return ld_checked(bc, w, in, bases, ex);
	if (in->am == AM_REG && fast_space(in->space)) {
		if (!ld_fast(bc, w, in, bases, ex, addr, NULL, NULL))
			return false;
		if (simt_counters_on)
			count_access(bc, in, addr, ex, n, false);
		return true;
	}
	if (in->am == AM_SHVAR || in->am == AM_ABS) {
		/* every lane reads the same address: read once */
		unsigned l0 = (unsigned)__builtin_ctz(ex);
		const uint8_t *p = resolve(bc, w, l0, in, in->space,
					   (uint64_t)in->imm, n, n, ACC_READ);

		if (!p)
			return false;
		for (k = 0; k < vec; k++) {
			uint64_t v = load_bytes(p + k * size, size, sgn), *D = R(in->o[k]);

			FOR_LANES(ex, D[l] = v);
		}
		if (simt_counters_on) {
			FOR_LANES(ex, addr[l] = (uint64_t)in->imm);
			count_access(bc, in, addr, ex, n, false);
		}
		return true;
	}
	if (in->am == AM_PARAM) {
		for (k = 0; k < vec; k++) {
			uint64_t *D = R(in->o[k]);
			uint64_t off = (uint64_t)in->imm + (uint64_t)(k * size);

			FOR_LANES(ex, D[l] = load_bytes(param_ptr(bases[OK_REG], off, l),
							size, sgn));
		}
		return true;
	}
	if (in->am == AM_KPARAM) {
		const uint8_t *p = resolve(bc, w, (unsigned)__builtin_ctz(ex), in,
					   SS_KPARAM, (uint64_t)in->imm, n, 1,
					   ACC_READ);

		if (!p)
			return false;
		for (k = 0; k < vec; k++) {
			uint64_t v = load_bytes(p + k * size, size, sgn), *D = R(in->o[k]);

			FOR_LANES(ex, D[l] = v);
		}
		return true;
	}
	FOR_LANES(ex, {
		uint64_t a = lane_address(in, bases, w, l);
		const uint8_t *p = resolve(bc, w, l, in, in->space, a, n, n, ACC_READ);

		if (!p)
			return false;
		addr[l] = a;
		for (k = 0; k < vec; k++)
			R(in->o[k])[l] = load_bytes(p + k * size, size, sgn);
	});
	if (simt_counters_on)
		count_access(bc, in, addr, ex, n, false);
	return true;
}

/* Whether the lanes' pointers are all different (the common case of
 * addresses rising with the lane is seen at once). */
static bool lanes_distinct(uint8_t *const *ptr, uint32_t ex)
{
	uint8_t *prev = NULL;
	bool rising = true;

	FOR_LANES(ex, {
		if (prev && ptr[l] <= prev)
			rising = false;
		prev = ptr[l];
	});
	if (rising)
		return true;
	FOR_LANES(ex, {
		uint32_t below = ex & ((1u << l) - 1);

		while (below) {
			unsigned m = (unsigned)__builtin_ctz(below);

			below &= below - 1;
			if (ptr[m] == ptr[l])
				return false;
		}
	});
	return true;
}

/* Each lane's n bytes from val to ptr, in lane order, with the common
 * sizes copied inline. */
static void store_lanes(uint8_t *const *ptr, const uint8_t (*val)[32],
			uint32_t ex, uint32_t n)
{
	switch (n) {
	case 4: FOR_LANES(ex, memcpy(ptr[l], val[l], 4)); break;
	case 8: FOR_LANES(ex, memcpy(ptr[l], val[l], 8)); break;
	case 16: FOR_LANES(ex, memcpy(ptr[l], val[l], 16)); break;
	default: FOR_LANES(ex, memcpy(ptr[l], val[l], n)); break;
	}
}

/* Every active lane's ptr[] is set on each path before lanes_distinct
 * reads it (only active lanes are read); GCC under the sanitizers cannot
 * see that through FOR_LANES and warns.  Zeroing the array instead would
 * cost the hot store path 256 bytes of writes per warp instruction. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
/* A store with hazard checks: every lane's address is resolved first,
 * lanes of the instruction that store to one address are looked at
 * together (one value: recorded once; different values: a race among
 * them), then the accesses are checked and the bytes stored in lane
 * order. */
static inline __attribute__((always_inline)) bool
st_checked(struct block_ctx *bc, struct warp *w,
		       const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex)
{
	int size = simt_type_size(in->type), vec = in->vec, k;
	uint32_t n = (uint32_t)(size * vec), check = ex, coll = 0;
	uint64_t addr[32];
	uint8_t *ptr[32];
	uint8_t val[32][32];

	if (in->am == AM_REG && fast_space(in->space)) {
		const uint64_t *A = R(in->addr);
		uint64_t imm = (uint64_t)in->imm, lo, sz;
		uint8_t *base, **pt = ptr;
		bool rec = true;

		const uint64_t *Sk[4];
		int shape;

		for (k = 0; k < vec; k++)
			Sk[k] = R(in->o[k]);
		fast_window(bc, in->space, A[__builtin_ctz(ex)] + imm, &lo, &sz, &base);
		shape = window_ptrs(A, imm, ex, lo, sz, base, n, pt);
		if (shape != WIN_MISS) {
			line_fill(pt, shape, n);
			FOR_LANES(ex, addr[l] = A[l] + imm);
		} else
			FOR_LANES(ex, {
				FAST_LANE(ACC_WRITE, uint8_t *);
			});
		/* usual case: distinct places the cheap check settles, stored
		 * straight from the registers */
		if ((shape == WIN_RUN || lanes_distinct(ptr, ex)) &&
		    !simt_hz_write_fast(bc, w, in, ex, ptr, n, shape == WIN_RUN)) {
			FOR_LANES(ex, {
				for (k = 0; k < vec; k++)
					store_bytes(ptr[l] + k * size, size, Sk[k][l]);
			});
			if (simt_counters_on)
				count_access(bc, in, addr, ex, n, true);
			return true;
		}
		FOR_LANES(ex, {
			for (k = 0; k < vec; k++)
				store_bytes(val[l] + k * size, size, Sk[k][l]);
		});
	} else {
		FOR_LANES(ex, {
			uint64_t a = lane_address(in, bases, w, l);
			uint8_t *p = resolve(bc, w, l, in, in->space, a, n, n, ACC_WRITE);

			if (!p)
				return false;
			addr[l] = a;
			ptr[l] = p;
			for (k = 0; k < vec; k++)
				store_bytes(val[l] + k * size, size, R(in->o[k])[l]);
		});
	}
	if (!lanes_distinct(ptr, ex)) {
		uint32_t left = ex;

		while (left) {
			unsigned f = (unsigned)__builtin_ctz(left), last = f;
			uint32_t group = 0;
			bool same = true;

			FOR_LANES(left, if (ptr[l] == ptr[f]) {
				group |= 1u << l;
				if (memcmp(val[l], val[f], n) != 0 && same) {
					same = false;
					simt_hz_same_address(bc, w, in, f, l, ptr[f]);
				}
				last = l;
			});
			left &= ~group;
			if (group == 1u << f)
				continue;
			check &= ~group;
			if (same) {
				check |= 1u << f;
				coll |= 1u << f;
			} else {
				check |= 1u << last;
			}
		}
	}
	simt_hz_warp_access(bc, w, in, check, ptr, n, HZ_WRITE,
			    (const uint8_t (*)[32])val, coll, -1);
	store_lanes(ptr, val, ex, n);
	if (simt_counters_on)
		count_access(bc, in, addr, ex, n, true);
	return true;
}
#pragma GCC diagnostic pop

SIMT_LANE_CLONES bool simt_exec_st(struct block_ctx *bc, struct warp *w,
		    const struct simt_insn *in, uint64_t *const *bases,
		    uint32_t ex)
{
	int size = simt_type_size(in->type), vec = in->vec, k;
	uint32_t n = (uint32_t)(size * vec);
	uint64_t addr[32];

	if (bc->hz && in->am != AM_PARAM && in->am != AM_KPARAM)
		return st_checked(bc, w, in, bases, ex);
	if (in->am == AM_REG && fast_space(in->space)) {
		if (!st_fast(bc, w, in, bases, ex, addr))
			return false;
		if (simt_counters_on)
			count_access(bc, in, addr, ex, n, true);
		return true;
	}
	if (in->am == AM_PARAM) {
		for (k = 0; k < vec; k++) {
			const uint64_t *S = R(in->o[k]);
			uint64_t off = (uint64_t)in->imm + (uint64_t)(k * size);

			FOR_LANES(ex, store_bytes(param_ptr(bases[OK_REG], off, l),
						  size, S[l]));
		}
		return true;
	}
	if (in->am == AM_KPARAM) {
		simt_fault(bc, w, __builtin_ctz(ex), in, cudaErrorIllegalAddress,
			   "store to a kernel parameter");
		return false;
	}
	FOR_LANES(ex, {
		uint64_t a = lane_address(in, bases, w, l);
		uint8_t *p = resolve(bc, w, l, in, in->space, a, n, n, ACC_WRITE);

		if (!p)
			return false;
		addr[l] = a;
		for (k = 0; k < vec; k++)
			store_bytes(p + k * size, size, R(in->o[k])[l]);
	});
	if (simt_counters_on)
		count_access(bc, in, addr, ex, n, true);
	return true;
}

/* cp.async as a plain copy from global to shared memory, zero-filling
 * past the source size. */
bool simt_exec_cp_async(struct block_ctx *bc, struct warp *w,
			  const struct simt_insn *in, uint64_t *const *bases,
			  uint32_t ex)
{
	const uint64_t *S = R(in->o[0]), *Off = R(in->o[1]);
	const uint64_t *Cp = R(in->o[2]), *Sz = R(in->o[3]);
	uint64_t src[32];
	uint32_t copied = 0, width = 0;

	FOR_LANES(ex, {
		uint32_t n = (uint32_t)Cp[l], sn = (uint32_t)Sz[l];
		uint64_t da = lane_address(in, bases, w, l), sa = S[l] + Off[l];
		uint8_t *dp;
		const uint8_t *sp = NULL;

		if (sn > n)
			sn = n;
		dp = resolve(bc, w, l, in, SS_SHARED, da, n, n, ACC_WRITE);
		if (!dp)
			return false;
		if (sn) {
			sp = resolve(bc, w, l, in, SS_GLOBAL, sa, sn, n, ACC_READ);
			if (!sp)
				return false;
			src[l] = sa;
			copied |= 1u << l;
			if (sn > width)
				width = sn;
			if (bc->hz)
				simt_hz_access(bc, w, l, in, (uint8_t *)sp, sn, HZ_READ,
					       NULL);
			memcpy(dp, sp, sn);
		}
		memset(dp + sn, 0, n - sn);
		if (bc->hz)
			simt_hz_async_copy(bc, w, l, in, (uint32_t)(dp - bc->shared), n);
	});
	if (bc->tr)
		pm_trace_global(bc->tr, w->id, (uint32_t)(in - bc->L->mod->code), src, copied,
				width, false);
	return true;
}

/* ---- atomics ---- */

/* The new value of an atomic read-modify-write, from the old one. */
static uint64_t atom_new(const struct simt_insn *in, uint64_t old, uint64_t b,
			 uint64_t c)
{
	int t = in->type, bits = simt_type_size(t) * 8;
	struct simt_insn fake;

	switch (in->sub) {
	case SUB_EXCH:
		return b;
	case SUB_CAS:
		return (sext_to(old, bits) == sext_to(b, bits)) ? c : old;
	case SUB_INC: {
		uint64_t o = (uint32_t)old;

		return o >= (uint32_t)b ? 0 : o + 1;
	}
	case SUB_DEC: {
		uint64_t o = (uint32_t)old;

		return (o == 0 || o > (uint32_t)b) ? (uint32_t)b : o - 1;
	}
	case SUB_AND: return old & b;
	case SUB_OR: return old | b;
	case SUB_XOR: return old ^ b;
	default:
		break;
	}
	memset(&fake, 0, sizeof fake);
	fake.type = (uint8_t)t;
	if (simt_type_float(t)) {
		fake.sub = in->sub == SUB_ADD ? SUB_ADD
			 : in->sub == SUB_MIN ? SUB_FMIN : SUB_FMAX;
		return simt_falu(&fake, old, b, 0);
	}
	fake.sub = (uint8_t)in->sub;
	if (t == ST_B32)
		fake.type = ST_U32;
	if (t == ST_B64)
		fake.type = ST_U64;
	return simt_ialu(&fake, old, b, 0, 0, &(uint32_t){0});
}

static uint64_t atom_global(const struct simt_insn *in, uint8_t *p,
			    uint64_t b, uint64_t c)
{
	int size = simt_type_size(in->type);

	if (size == 4) {
		uint32_t *q = (uint32_t *)(void *)p, old, nv;

		if (in->sub == SUB_ADD && !simt_type_float(in->type))
			return __atomic_fetch_add(q, (uint32_t)b, __ATOMIC_SEQ_CST);
		if (in->sub == SUB_EXCH)
			return __atomic_exchange_n(q, (uint32_t)b, __ATOMIC_SEQ_CST);
		old = __atomic_load_n(q, __ATOMIC_RELAXED);
		do {
			nv = (uint32_t)atom_new(in, old, b, c);
		} while (!__atomic_compare_exchange_n(q, &old, nv, true,
						      __ATOMIC_SEQ_CST,
						      __ATOMIC_RELAXED));
		return old;
	}
	if (size == 8) {
		uint64_t *q = (uint64_t *)(void *)p, old, nv;

		if (in->sub == SUB_ADD && !simt_type_float(in->type))
			return __atomic_fetch_add(q, b, __ATOMIC_SEQ_CST);
		if (in->sub == SUB_EXCH)
			return __atomic_exchange_n(q, b, __ATOMIC_SEQ_CST);
		old = __atomic_load_n(q, __ATOMIC_RELAXED);
		do {
			nv = atom_new(in, old, b, c);
		} while (!__atomic_compare_exchange_n(q, &old, nv, true,
						      __ATOMIC_SEQ_CST,
						      __ATOMIC_RELAXED));
		return old;
	}
	{
		uint16_t *q = (uint16_t *)(void *)p, old, nv;

		old = __atomic_load_n(q, __ATOMIC_RELAXED);
		do {
			nv = (uint16_t)atom_new(in, old, b, c);
		} while (!__atomic_compare_exchange_n(q, &old, nv, true,
						      __ATOMIC_SEQ_CST,
						      __ATOMIC_RELAXED));
		return old;
	}
}

/* Lanes of `lanes` beyond the first at each of their addresses: their
 * number less the number of distinct addresses. */
static uint32_t same_address_lanes(uint8_t *const *ptr, uint32_t lanes)
{
	uint32_t extra = 0, seen = 0;

	FOR_LANES(lanes, {
		uint32_t m = seen;
		bool dup = false;

		while (m && !dup) {
			unsigned k = (unsigned)__builtin_ctz(m);

			m &= m - 1;
			dup = ptr[k] == ptr[l];
		}
		extra += dup;
		seen |= 1u << l;
	});
	return extra;
}

/* Counts a warp atomic whose lanes `ex` reached ptr[], those of `shared`
 * in shared (or local) memory: lane operations and conflicts (lanes on
 * an address another lane of the instruction updates) per space. */
static void count_atomic(struct block_ctx *bc, uint8_t *const *ptr,
			 uint32_t ex, uint32_t shared)
{
	bc->counts.satom += popc(ex & shared);
	bc->counts.gatom += popc(ex & ~shared);
	bc->counts.satom_conflicts += same_address_lanes(ptr, ex & shared);
	bc->counts.gatom_conflicts += same_address_lanes(ptr, ex & ~shared);
}

bool simt_exec_atom(struct block_ctx *bc, struct warp *w,
		      const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex)
{
	int size = simt_type_size(in->type);
	bool sgn = simt_type_signed(in->type);
	uint64_t *D = R(in->o[0]);
	const uint64_t *B = R(in->o[1]), *C = R(in->o[2]);
	uint8_t *ptr[32];
	uint32_t in_shared = 0;
	uint64_t addr[32];
	bool any_shared = false;

	if (size < 2) {
		simt_fault(bc, w, __builtin_ctz(ex), in, cudaErrorIllegalInstruction,
			   "atomic on a type simt does not support");
		return false;
	}
	FOR_LANES(ex, {
		uint64_t a = lane_address(in, bases, w, l);
		uint8_t *p = resolve(bc, w, l, in, in->space, a, (uint32_t)size,
				     (uint32_t)size, ACC_ATOMIC);
		bool shared = in->space == SS_SHARED || in->space == SS_LOCAL ||
			      (in->space == SS_GENERIC &&
			       (SIMT_WIN_OF(a) == SIMT_SHARED_WIN ||
				SIMT_WIN_OF(a) == SIMT_LOCAL_WIN));
		uint64_t old;

		if (!p)
			return false;
		ptr[l] = p;
		in_shared |= (uint32_t)shared << l;
		addr[l] = a;
		any_shared |= shared;
		if (bc->hz)
			simt_hz_access(bc, w, l, in, p, (uint32_t)size, HZ_ATOMIC, NULL);
		if (shared) {
			old = load_bytes(p, size, false);
			store_bytes(p, size, atom_new(in, old, B[l], C[l]));
		} else {
			old = atom_global(in, p, B[l], C[l]);
		}
		if (bc->hz)
			simt_hz_atomic_done(bc, w, l, in, p);
		if (in->o[0].kind != OK_NONE)
			D[l] = sgn ? sext_to(old, size * 8) : old;
	});
	bc->counts.atomics += popc(ex);
	if (simt_counters_on)
		count_atomic(bc, ptr, ex, in_shared);
	if (bc->tr)
		pm_trace_atomic(bc->tr, w->id, (uint32_t)(in - bc->L->mod->code), addr, ex,
				(uint32_t)size, any_shared);
	return true;
}

uint8_t *simt_lane_mem(struct block_ctx *bc, const struct warp *w,
		       unsigned lane, const struct simt_insn *in, uint64_t a,
		       uint32_t n, uint32_t align, bool write)
{
	uint8_t *p = resolve(bc, w, lane, in, in->space, a, n, align,
			     write ? ACC_WRITE : ACC_READ);

	if (p && bc->hz)
		simt_hz_access(bc, w, lane, in, p, n, write ? HZ_WRITE : HZ_READ,
			       NULL);
	return p;
}

void simt_count_mem(struct block_ctx *bc, const struct simt_insn *in,
		    const uint64_t *addr, uint32_t lanes, uint32_t n, bool store)
{
	if (simt_counters_on && lanes)
		count_access(bc, in, addr, lanes, n, store);
}

