/* The warp interpreter.
 *
 * A warp executes one decoded instruction at a time for a group of lanes:
 * the runnable lanes of the deepest call frame that sit at the lowest pc
 * (min-pc reconvergence, which is correct for any control flow and
 * reconverges structured code where a GPU would).  Straight-line code only
 * bumps the group's pc; lanes outside the group keep theirs in lane_pc, and
 * the group is picked anew after a branch, call, return, exit, barrier, or
 * when its pc reaches another lane's.
 *
 * Registers live in rows of 32 lanes x 64 bits; an operand is a row of the
 * frame, of the module's constants or of the warp's special registers, so
 * every operation is a short loop over the lanes of the group.  A predicate
 * is a 32-bit lane mask kept in lane 0 of its row. */
#include "exec.h"

#include "alu.h"
#include "tensor.h"
#include "texture.h"
#include "mbarrier.h"
#include "hazard.h"
#include "lanes.h"
#include "typed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Bit count without a library call on CPUs built for without POPCNT. */
static inline uint32_t popc(uint32_t m)
{
	m = m - ((m >> 1) & 0x55555555u);
	m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
	m = (m + (m >> 4)) & 0x0f0f0f0fu;
	return (m * 0x01010101u) >> 24;
}

/* Lane mask of a predicate operand, honouring '!'. */
static inline uint32_t pred_of(uint64_t *const *bases, struct simt_opnd o)
{
	uint32_t p = (uint32_t)R(o)[0];

	return o.neg ? ~p : p;
}

static inline void pred_set(uint64_t *const *bases, struct simt_opnd o,
			    uint32_t bits, uint32_t lanes)
{
	uint64_t *row = R(o);

	row[0] = ((uint32_t)row[0] & ~lanes) | (bits & lanes);
}

/* ---- scheduling ---- */

static void park(struct warp *w, uint32_t lanes, uint32_t pc)
{
	FOR_LANES(lanes, w->lane_pc[l] = pc);
}

static uint32_t sync_mask_of(const struct simt_module *mod,
			     const struct warp *w, uint32_t pc, unsigned lane)
{
	const struct simt_insn *in = &mod->code[pc];
	struct simt_opnd o;
	const uint64_t *row;

	switch (in->op) {
	case OP_BAR_WARP:
		o = in->o[0];
		break;
	case OP_ELECT:
		o = in->o[2];
		break;
	default:
		o = in->o[5];
		break;
	}
	if (o.kind == OK_NONE)
		return 0;
	if (o.kind == OK_IMM)
		row = mod->consts + (size_t)o.idx * 32;
	else if (o.kind == OK_SREG)
		row = w->sregs + (size_t)o.idx * 32;
	else
		row = w->regs + ((size_t)w->frames[w->lane_fi[lane]].row_base +
				 o.idx) * 32;
	return (uint32_t)row[lane];
}

/* The lanes of `lanes` that can run the .sync instruction at `pc` now:
 * the largest subset in which every lane's running members are all in the
 * subset.  Each lane waits only for the lanes its own mask names, and
 * lanes with different masks may run the instruction together. */
static uint32_t sync_ready_lanes(const struct simt_module *mod,
				 const struct warp *w, uint32_t pc,
				 uint32_t lanes)
{
	uint32_t live = w->exist & ~w->exited, need[32], prev;

	FOR_LANES(lanes, need[l] = sync_mask_of(mod, w, pc, l) & live);
	do {
		prev = lanes;
		FOR_LANES(prev, if (need[l] & ~lanes) lanes &= ~(1u << l));
	} while (lanes != prev);
	return lanes;
}

/* Lanes waiting at any bar.warp.sync: unlike the other .sync
 * instructions, lanes may meet at different bar.warp.sync instructions. */
static uint32_t waiting_warp_bar(const struct simt_module *mod,
				 const struct warp *w)
{
	uint32_t lanes = 0;

	FOR_LANES(w->sync_wait, if (mod->code[w->lane_pc[l]].op == OP_BAR_WARP)
					lanes |= 1u << l);
	return lanes;
}

/* Completes bar.warp.sync for waiting lanes: they go past it. */
static void release_warp_bar(struct warp *w, uint32_t lanes)
{
	w->synced++;
	FOR_LANES(lanes, w->lane_pc[l]++);
	w->sync_wait &= ~lanes;
}

/* Lets lanes waiting at a warp-synchronous instruction go on once every
 * lane their member mask names has arrived or exited. */
static void wake_sync(struct block_ctx *bc, const struct simt_module *mod,
		      struct warp *w)
{
	uint32_t left = w->sync_wait;

	while (left) {
		unsigned first = (unsigned)__builtin_ctz(left);
		uint32_t pc = w->lane_pc[first], fi = w->lane_fi[first], group = 0;
		uint32_t need;

		FOR_LANES(left, if (w->lane_pc[l] == pc && w->lane_fi[l] == fi)
					group |= 1u << l);
		left &= ~group;
		if (mod->code[pc].op == OP_BAR_WARP) {
			uint32_t bar = waiting_warp_bar(mod, w);

			need = sync_mask_of(mod, w, pc, first) & w->exist &
			       ~w->exited;
			if ((need & ~bar) == 0) {
				if (bc->hz)
					simt_hz_warp_sync(bc, w, bar);
				release_warp_bar(w, bar);
			}
			continue;
		}
		w->sync_wait &= ~sync_ready_lanes(mod, w, pc, group);
	}
}

/* Chooses the next group; returns false if no lane can run. */
static bool pick(struct block_ctx *bc, const struct simt_module *mod,
		 struct warp *w)
{
	uint32_t run = w->exist & ~w->exited & ~w->bar_wait & ~w->sync_wait;
	uint32_t bpc = UINT32_MAX, bfi = 0, bdepth = 0, group = 0;
	uint32_t next = UINT32_MAX;
	bool first = true;

	if (!run && w->sync_wait) {
		wake_sync(bc, mod, w);
		run = w->exist & ~w->exited & ~w->bar_wait & ~w->sync_wait;
	}
	w->mask = 0;
	if (!run)
		return false;
	if (w->rotate_from && (run & ~w->rotate_from))
		run &= ~w->rotate_from;
	w->rotate_from = 0;
	FOR_LANES(run, {
		uint32_t d = w->frames[w->lane_fi[l]].depth;
		uint32_t pc = w->lane_pc[l];

		if (first || d > bdepth || (d == bdepth && pc < bpc)) {
			bdepth = d;
			bpc = pc;
			bfi = w->lane_fi[l];
			first = false;
		}
	});
	FOR_LANES(run, {
		if (w->lane_fi[l] != bfi)
			continue;
		if (w->lane_pc[l] == bpc)
			group |= 1u << l;
		else if (w->lane_pc[l] < next)
			next = w->lane_pc[l];
	});
	w->pc = bpc;
	w->fi = bfi;
	w->mask = group;
	w->next_pc = next;
	return true;
}

/* Prepares a warp for a new block: every existing lane at the kernel's
 * first instruction in the entry frame. */
void simt_warp_start(struct block_ctx *bc, struct warp *w)
{
	struct launch_state *L = bc->L;
	uint32_t i;

	w->exited = 0;
	w->bar_wait = 0;
	w->sync_wait = 0;
	w->carry = 0;
	memset(w->barmask, 0, sizeof w->barmask);
	w->nframes = 1;
	w->frames[0] = (struct frame){
		.func = (uint32_t)(L->fn - L->mod->funcs),
		.row_base = 0,
		.local_base = 0,
		.ret_pc = UINT32_MAX,
		.parent = NO_FRAME,
		.depth = 0,
		.active = w->exist,
	};
	w->rows_top = L->entry_rows;
	w->local_top = (L->fn->local_size + 15) / 16 * 16;
	for (i = 0; i < 32; i++) {
		w->lane_pc[i] = L->fn->pc_begin;
		w->lane_fi[i] = 0;
	}
	w->pc = L->fn->pc_begin;
	w->fi = 0;
	w->mask = w->exist;
	w->next_pc = UINT32_MAX;
	w->rotate_from = 0;
}

/* ---- frames ---- */

static void pop_dead_frames(struct warp *w)
{
	while (w->nframes > 1 && w->frames[w->nframes - 1].active == 0) {
		struct frame *f = &w->frames[w->nframes - 1];

		w->rows_top = f->rows_top;
		w->local_top = f->local_top;
		w->nframes--;
	}
}

static void lanes_leave_frames(struct warp *w, uint32_t lanes)
{
	uint32_t i;

	for (i = 0; i < w->nframes; i++)
		w->frames[i].active &= ~lanes;
	pop_dead_frames(w);
}

/* ---- memory ---- */

enum { ACC_READ, ACC_WRITE, ACC_ATOMIC };

static const char *acc_name(int acc)
{
	return acc == ACC_READ ? "read" : acc == ACC_WRITE ? "write" : "atomic";
}

/* Puts an allocation at the front of the cache (the fast paths check only
 * entry 0), moving entries 0..i-1 down over entry i. */
static void cache_front(struct alloc_cache *c, int i, uint64_t lo,
			uint64_t size, struct hz_word *shadow, uint8_t *init)
{
	memmove(&c->lo[1], &c->lo[0], (size_t)i * sizeof c->lo[0]);
	memmove(&c->size[1], &c->size[0], (size_t)i * sizeof c->size[0]);
	memmove(&c->shadow[1], &c->shadow[0], (size_t)i * sizeof c->shadow[0]);
	memmove(&c->init[1], &c->init[0], (size_t)i * sizeof c->init[0]);
	c->lo[0] = lo;
	c->size[0] = size;
	c->shadow[0] = shadow;
	c->init[0] = init;
}

/* Host pointer for n bytes at global address a, or NULL after a fault. */
static uint8_t *global_ptr(struct block_ctx *bc, const struct warp *w,
			   unsigned lane, const struct simt_insn *in,
			   uint64_t a, uint32_t n, int acc)
{
	struct alloc_cache *c = &bc->cache;
	const struct simt_alloc *al;
	struct simt_buf msg = {0};
	int i;

	for (i = 0; i < 4; i++) {
		if (a - c->lo[i] < c->size[i] && c->size[i] - (a - c->lo[i]) >= n) {
			if (i)
				cache_front(c, i, c->lo[i], c->size[i], c->shadow[i],
					    c->init[i]);
			return (uint8_t *)(uintptr_t)a;
		}
	}
	/* Whether this device may reach the allocation is checked here, as
	 * it enters the cache, so hits cost nothing more. */
	al = simt_mem_find(a, n);
	if (al && simt_mem_reachable(al, bc->L->device)) {
		cache_front(c, 3, al->base, al->size, al->shadow, al->init);
		return (uint8_t *)(uintptr_t)a;
	}
	char what[32];

	snprintf(what, sizeof what, "global %s", acc_name(acc));
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
	uint64_t sec[64];
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
	} else {
		bc->counts.gld_req++;
		bc->counts.gld_sectors += (uint64_t)ns;
	}
}

/* Shared-memory wavefronts beyond the first: lanes hitting different
 * 4-byte words of the same bank serialise. */
static void count_banks(struct block_ctx *bc, const uint64_t *addr,
			uint32_t lanes, uint32_t n, bool store)
{
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
	}
	bc->counts.bank_conflicts += (uint64_t)worst;
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
	if (space == SS_GLOBAL || space == SS_CONST)
		count_sectors(bc, addr, lanes, n, store);
	else if (space == SS_SHARED)
		count_banks(bc, addr, lanes, n, store);
	else if (space == SS_LOCAL && store)
		bc->counts.local_st++;
	else if (space == SS_LOCAL)
		bc->counts.local_ld++;
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
static inline void fast_window(const struct block_ctx *bc, int space,
			       uint64_t *lo, uint64_t *size, uint8_t **base)
{
	if (space == SS_SHARED) {
		*lo = 0;
		*size = bc->L->shared_size;
		*base = bc->shared;
	} else {
		*lo = bc->cache.lo[0];
		*size = bc->cache.size[0];
		*base = (uint8_t *)(uintptr_t)*lo;
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
		fast_window(bc, in->space, &lo, &sz, &base); \
	} \
	if (rec) \
		addr[l] = a; \
	if (pt) \
		pt[l] = (uint8_t *)p

/* Scalar register-addressed loads and stores in the spaces the fast
 * window covers, with loops specialised by access size. */
static bool ld_fast(struct block_ctx *bc, struct warp *w,
		    const struct simt_insn *in, uint64_t *const *bases,
		    uint32_t ex, uint64_t *addr, uint8_t **pt)
{
	const uint64_t *A = R(in->addr);
	uint64_t *D = R(in->o[0]);
	int size = simt_type_size(in->type);
	bool sgn = simt_type_signed(in->type), rec = simt_counters_on;
	uint64_t imm = (uint64_t)in->imm, lo, sz;
	uint32_t n = (uint32_t)size;
	uint8_t *base;

	fast_window(bc, in->space, &lo, &sz, &base);
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

static bool st_fast(struct block_ctx *bc, struct warp *w,
		    const struct simt_insn *in, uint64_t *const *bases,
		    uint32_t ex, uint64_t *addr)
{
	uint8_t **pt = NULL; /* the hazard path has its own stores */
	const uint64_t *A = R(in->addr), *S = R(in->o[0]);
	int size = simt_type_size(in->type);
	bool rec = simt_counters_on;
	uint64_t imm = (uint64_t)in->imm, lo, sz;
	uint32_t n = (uint32_t)size;
	uint8_t *base;

	fast_window(bc, in->space, &lo, &sz, &base);
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
static bool ld_checked(struct block_ctx *bc, struct warp *w,
		       const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex)
{
	int size = simt_type_size(in->type), vec = in->vec, k;
	bool sgn = simt_type_signed(in->type);
	uint32_t n = (uint32_t)(size * vec);
	uint64_t addr[32];
	uint8_t *ptr[32];

	if (in->am == AM_REG && fast_space(in->space)) {
		if (!ld_fast(bc, w, in, bases, ex, addr, ptr))
			return false;
		simt_hz_warp_access(bc, w, in, ex, ptr, n, HZ_READ, NULL, 0);
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
	simt_hz_warp_access(bc, w, in, ex, ptr, n, HZ_READ, NULL, 0);
	if (simt_counters_on)
		count_access(bc, in, addr, ex, n, false);
	return true;
}

static bool exec_ld(struct block_ctx *bc, struct warp *w,
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
		if (!ld_fast(bc, w, in, bases, ex, addr, NULL))
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

/* A store with hazard checks: every lane's address is resolved first,
 * lanes of the instruction that store to one address are looked at
 * together (one value: recorded once; different values: a race among
 * them), then the accesses are checked and the bytes stored in lane
 * order. */
static bool st_checked(struct block_ctx *bc, struct warp *w,
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

		for (k = 0; k < vec; k++)
			Sk[k] = R(in->o[k]);
		fast_window(bc, in->space, &lo, &sz, &base);
		FOR_LANES(ex, {
			FAST_LANE(ACC_WRITE, uint8_t *);
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
			    (const uint8_t (*)[32])val, coll);
	store_lanes(ptr, val, ex, n);
	if (simt_counters_on)
		count_access(bc, in, addr, ex, n, true);
	return true;
}

static bool exec_st(struct block_ctx *bc, struct warp *w,
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
static bool exec_cp_async(struct block_ctx *bc, struct warp *w,
			  const struct simt_insn *in, uint64_t *const *bases,
			  uint32_t ex)
{
	const uint64_t *S = R(in->o[0]), *Off = R(in->o[1]);
	const uint64_t *Cp = R(in->o[2]), *Sz = R(in->o[3]);

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
			if (bc->hz)
				simt_hz_access(bc, w, l, in, (uint8_t *)sp, sn, HZ_READ,
					       NULL);
			memcpy(dp, sp, sn);
		}
		memset(dp + sn, 0, n - sn);
		if (bc->hz)
			simt_hz_async_copy(bc, w, l, in, (uint32_t)(dp - bc->shared), n);
	});
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

static bool exec_atom(struct block_ctx *bc, struct warp *w,
		      const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex)
{
	int size = simt_type_size(in->type);
	bool sgn = simt_type_signed(in->type);
	uint64_t *D = R(in->o[0]);
	const uint64_t *B = R(in->o[1]), *C = R(in->o[2]);

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

/* ---- warp-synchronous operations ---- */

/* Gathers the lanes a .sync instruction needs.  Returns true if the
 * instruction can run now with w->mask (possibly grown by lanes that were
 * waiting here); false if the group must wait (it has been parked). */
static bool warp_sync_ready(const struct simt_module *mod, struct warp *w,
			    uint32_t membermask)
{
	uint32_t need = membermask & w->exist & ~w->exited;
	uint32_t waiting = 0, ready;

	if (mod->code[w->pc].op == OP_BAR_WARP) {
		uint32_t bar = waiting_warp_bar(mod, w);

		if ((need & ~w->mask) == 0)
			return true;
		if ((need & ~(w->mask | bar)) == 0) {
			w->sync_extra |= bar;
			release_warp_bar(w, bar);
			return true;
		}
	} else if (sync_ready_lanes(mod, w, w->pc, w->mask) == w->mask) {
		return true;
	}
	FOR_LANES(w->sync_wait, if (w->lane_pc[l] == w->pc &&
				    w->lane_fi[l] == w->fi)
					waiting |= 1u << l);
	if (mod->code[w->pc].op == OP_BAR_WARP) {
		if ((need & ~(w->mask | waiting)) == 0) {
			w->sync_wait &= ~waiting;
			w->mask |= waiting;
			return true;
		}
	} else if ((ready = sync_ready_lanes(mod, w, w->pc,
					     w->mask | waiting)) != 0) {
		uint32_t stay = w->mask & ~ready;

		w->sync_wait = (w->sync_wait & ~ready) | stay;
		park(w, stay, w->pc);
		w->mask = ready;
		return true;
	}
	park(w, w->mask, w->pc);
	w->sync_wait |= w->mask;
	w->mask = 0;
	if (!w->sync_waited) {
		w->sync_waited = true;
		w->sync_exited_at = w->exited;
	}
	return false;
}

static void exec_shfl(struct block_ctx *bc, const struct warp *w,
		      const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex)
{
	uint64_t src[32];
	const uint64_t *A = R(in->o[2]), *Bv = R(in->o[3]), *Cv = R(in->o[4]);
	uint64_t *D = R(in->o[0]);
	uint32_t pbits = 0;
	unsigned i;

	for (i = 0; i < 32; i++)
		src[i] = A[i];
	FOR_LANES(ex, {
		uint32_t b = (uint32_t)Bv[l] & 31, c = (uint32_t)Cv[l];
		uint32_t clamp = c & 31, seg = (c >> 8) & 31;
		int32_t maxl = (int32_t)((l & seg) | (clamp & ~seg));
		int32_t minl = (int32_t)(l & seg), j;
		bool ok;

		switch (in->sub) {
		case SUB_UP:
			j = (int32_t)l - (int32_t)b;
			ok = j >= maxl;
			break;
		case SUB_DOWN:
			j = (int32_t)l + (int32_t)b;
			ok = j <= maxl;
			break;
		case SUB_BFLY:
			j = (int32_t)(l ^ b);
			ok = j <= maxl;
			break;
		default:
			j = minl | (int32_t)(b & ~seg);
			ok = j <= maxl;
			break;
		}
		if (!ok)
			j = (int32_t)l;
		else if (bc->hz && !((w->exist & ~w->exited) >> (j & 31) & 1))
			simt_hz_shfl_exited(bc, w, in, l, (unsigned)(j & 31), false);
		else if (bc->hz && !(ex >> (j & 31) & 1))
			simt_hz_shfl_exited(bc, w, in, l, (unsigned)(j & 31), true);
		D[l] = (uint32_t)src[j & 31];
		if (ok)
			pbits |= 1u << l;
	});
	if (in->o[1].kind != OK_NONE)
		pred_set(bases, in->o[1], pbits, ex);
}

/* The executing lanes lane l's member mask names (all of them when the
 * instruction has no mask). */
static inline uint32_t lane_members(const uint64_t *M, unsigned l, uint32_t ex)
{
	return M ? ex & (uint32_t)M[l] : ex;
}

/* Each lane votes over the lanes its own member mask names. */
static void exec_vote(const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex, const uint64_t *M)
{
	uint32_t p = pred_of(bases, in->o[1]) & ex, r = 0;

	if (in->sub != SUB_ALL && in->sub != SUB_ANY && in->sub != SUB_UNI) {
		uint64_t *D = R(in->o[0]);

		FOR_LANES(ex, D[l] = p & lane_members(M, l, ex));
		return;
	}
	FOR_LANES(ex, {
		uint32_t m = lane_members(M, l, ex), q = p & m;
		bool v = in->sub == SUB_ALL ? q == m
		       : in->sub == SUB_ANY ? q != 0
		       : q == m || q == 0;

		r |= (uint32_t)v << l;
	});
	pred_set(bases, in->o[0], r, ex);
}

/* match.any gives each lane the lanes of its own member mask that hold an
 * equal value; match.all gives each lane its member mask (and a true
 * predicate) when every lane of that mask holds one value, else 0. */
static void exec_match(const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex, const uint64_t *M)
{
	const uint64_t *A = R(in->o[2]);
	uint64_t *D = R(in->o[0]);
	bool b64 = simt_type_size(in->type) == 8;
	uint64_t vals[32];
	uint32_t pbits = 0;
	unsigned i;

	for (i = 0; i < 32; i++)
		vals[i] = b64 ? A[i] : (uint32_t)A[i];
	FOR_LANES(ex, {
		uint32_t m = lane_members(M, l, ex), same = 0, others = m;

		while (others) {
			unsigned k = (unsigned)__builtin_ctz(others);

			others &= others - 1;
			if (vals[k] == vals[l])
				same |= 1u << k;
		}
		if (in->sub == SUB_ANY) {
			D[l] = same;
		} else {
			bool all = same == m;

			D[l] = all ? m : 0;
			pbits |= (uint32_t)all << l;
		}
	});
	if (in->sub != SUB_ANY && in->o[1].kind != OK_NONE)
		pred_set(bases, in->o[1], pbits, ex);
}

/* Each lane's leader is the lowest lane of its own member mask; the
 * predicate is true in the lanes that lead their mask. */
static void exec_elect(const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex, const uint64_t *M)
{
	uint64_t *D = R(in->o[0]);
	uint32_t leaders = 0;

	FOR_LANES(ex, {
		uint32_t m = lane_members(M, l, ex);
		unsigned leader = m ? (unsigned)__builtin_ctz(m) : 0;

		if (in->o[0].kind != OK_NONE)
			D[l] = leader;
		if (m && leader == l)
			leaders |= 1u << l;
	});
	pred_set(bases, in->o[1], leaders, ex);
}

/* The reduction of A over `lanes` (0 when there are none). */
static uint32_t redux_over(const struct simt_insn *in, const uint64_t *A,
			   uint32_t lanes)
{
	uint32_t acc = 0;
	bool sgn = in->type == ST_S32, first = true;

	FOR_LANES(lanes, {
		uint32_t v = (uint32_t)A[l];

		if (first) {
			acc = v;
			first = false;
			continue;
		}
		switch (in->sub) {
		case SUB_ADD: acc += v; break;
		case SUB_AND: acc &= v; break;
		case SUB_OR: acc |= v; break;
		case SUB_XOR: acc ^= v; break;
		case SUB_MIN:
			acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc)
				  : (v < acc ? v : acc);
			break;
		default:
			acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc)
				  : (v > acc ? v : acc);
			break;
		}
	});
	return acc;
}

/* Each lane reduces over the lanes its own member mask names; lanes with
 * the same mask share one reduction. */
static void exec_redux(const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex, const uint64_t *M)
{
	const uint64_t *A = R(in->o[1]);
	uint64_t *D = R(in->o[0]);
	uint32_t todo = ex;

	while (todo) {
		unsigned first = (unsigned)__builtin_ctz(todo);
		uint32_t m = lane_members(M, first, ex), same = 0;
		uint32_t acc = redux_over(in, A, m);

		FOR_LANES(todo, if (lane_members(M, l, ex) == m) {
			D[l] = acc;
			same |= 1u << l;
		});
		todo &= ~same;
	}
}

/* ---- barriers ---- */

/* At a release: the lanes of one warp must have waited at one aligned
 * barrier instruction, not at two different ones. */
static void check_bar_pcs(struct block_ctx *bc, uint32_t id)
{
	const struct simt_module *mod = bc->L->mod;
	uint32_t wi;

	for (wi = 0; wi < bc->L->nwarps; wi++) {
		const struct warp *w = &bc->warps[wi];
		uint32_t lanes = w->barmask[id], first, same = 0;

		if (!lanes)
			continue;
		first = w->lane_pc[__builtin_ctz(lanes)];
		FOR_LANES(lanes, if (w->lane_pc[l] == first) same |= 1u << l);
		if (same != lanes && (mod->code[first].sem & MSEM_ALIGNED))
			simt_hz_divergent_bar(bc, w, &mod->code[first], same,
					      lanes & ~same,
					      w->lane_pc[__builtin_ctz(lanes & ~same)]);
	}
}

static void barrier_release(struct block_ctx *bc, uint32_t id)
{
	const struct simt_module *mod = bc->L->mod;
	struct barrier *b = &bc->bars[id];
	uint32_t wi;

	if (bc->hz) {
		simt_hz_bar_release(bc, id);
		check_bar_pcs(bc, id);
	}
	for (wi = 0; wi < bc->L->nwarps; wi++) {
		struct warp *w = &bc->warps[wi];
		uint32_t lanes = w->barmask[id];

		if (!lanes)
			continue;
		FOR_LANES(lanes, {
			const struct simt_insn *in = &mod->code[w->lane_pc[l]];

			if (in->op == OP_BAR_RED) {
				uint64_t *fb = w->regs +
					(size_t)w->frames[w->lane_fi[l]].row_base * 32;
				uint64_t v = in->sub == 0 ? b->red_count
					   : in->sub == 1 ? b->red_and : b->red_or;

				if (in->type == ST_PRED) {
					uint64_t *row = fb + (size_t)in->o[0].idx * 32;

					row[0] = ((uint32_t)row[0] & ~(1u << l)) |
						 ((uint32_t)(v != 0) << l);
				} else if (in->o[0].kind == OK_REG) {
					fb[(size_t)in->o[0].idx * 32 + l] = (uint32_t)v;
				}
			}
			w->lane_pc[l]++;
		});
		w->bar_wait &= ~lanes;
		w->barmask[id] = 0;
	}
	b->arrived = 0;
	b->expected = 0;
	b->red_count = 0;
	b->red_and = true;
	b->red_or = false;
}

bool simt_barrier_check(struct block_ctx *bc, uint32_t id)
{
	struct barrier *b = &bc->bars[id];
	uint32_t need = b->expected ? b->expected
				    : bc->L->nthreads - bc->exited_threads;

	if (b->arrived == 0 || b->arrived < need)
		return false;
	barrier_release(bc, id);
	return true;
}

static void check_all_barriers(struct block_ctx *bc)
{
	uint32_t id;

	for (id = 0; id < NBARRIERS; id++)
		if (bc->bars[id].arrived)
			simt_barrier_check(bc, id);
}

/* Lanes `ex` arrive at barrier `id`; `wait` parks them until release. */
static bool bar_arrive(struct block_ctx *bc, struct warp *w,
		       const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex, bool wait)
{
	unsigned l0 = (unsigned)__builtin_ctz(ex);
	int first = in->op == OP_BAR_RED ? 1 : 0;
	uint32_t id = (uint32_t)R(in->o[first])[l0];
	uint32_t count = in->o[first + 1].kind == OK_NONE
		? 0 : (uint32_t)R(in->o[first + 1])[l0];
	struct barrier *b;

	if (id >= NBARRIERS) {
		simt_fault(bc, w, (int)l0, in, cudaErrorIllegalInstruction,
			   "barrier %u out of range (0..15)", id);
		return false;
	}
	b = &bc->bars[id];
	if (count)
		b->expected = count;
	if (in->op == OP_BAR_RED) {
		uint32_t p = pred_of(bases, in->o[3]) & ex;

		if (b->arrived == 0) {
			b->red_and = true;
			b->red_or = false;
			b->red_count = 0;
		}
		b->red_count += popc(p);
		if (p != ex)
			b->red_and = false;
		if (p)
			b->red_or = true;
	}
	b->arrived += popc(ex);
	bc->counts.barriers++;
	if (bc->hz)
		simt_hz_bar_arrive(bc, w, ex, id);
	if (wait) {
		park(w, ex, w->pc);
		w->barmask[id] |= ex;
		w->bar_wait |= ex;
	}
	simt_barrier_check(bc, id);
	return true;
}

/* ---- calls ---- */

static bool grow_rows(struct warp *w, uint32_t need)
{
	uint32_t cap = w->rows_cap;

	if (need <= cap)
		return true;
	if (need > (1u << 22))
		return false;
	while (cap < need)
		cap *= 2;
	w->regs = simt_xrealloc(w->regs, (size_t)cap * 32 * sizeof(uint64_t));
	w->rows_cap = cap;
	return true;
}

/* Row of the callee's parameter area that copy c of call site cs uses:
 * fixed for direct calls, the callee's parameter for indirect ones. */
static uint32_t callee_row(const struct simt_callsite *cs,
			   const struct simt_func *f, uint32_t v, bool arg)
{
	if (!cs->indirect)
		return v;
	return arg ? f->params[v].offset : f->rets[v].offset;
}

static bool exec_call(struct block_ctx *bc, struct warp *w,
		      const struct simt_insn *in, uint32_t ex, uint32_t func)
{
	const struct simt_module *mod = bc->L->mod;
	const struct simt_callsite *cs = &mod->calls[in->target];
	const struct simt_func *f = &mod->funcs[func];
	uint32_t parent = w->fi, nf, i, row_base, local_base, cost;
	uint64_t *caller, *callee;

	row_base = w->rows_top;
	cost = (f->local_size + 15) / 16 * 16 + (bc->L->fn->sum_recursive ? 16 : 0);
	local_base = w->local_top;
	if (w->frames[parent].depth >= 100000 || !grow_rows(w, row_base + f->nrows) ||
	    local_base + cost > bc->L->local_per_thread) {
		char name[512];

		simt_fault(bc, w, __builtin_ctz(ex), in, cudaErrorLaunchFailure,
			   "call stack overflow calling %s at depth %u (raise it "
			   "with cudaDeviceSetLimit(cudaLimitStackSize, ...))",
			   simt_demangle(f->name, name, sizeof name),
			   w->frames[parent].depth + 1);
		return false;
	}
	if (w->nframes == w->capframes) {
		w->capframes *= 2;
		w->frames = simt_xrealloc(w->frames, w->capframes * sizeof *w->frames);
	}
	nf = w->nframes++;
	w->frames[nf] = (struct frame){
		.func = func,
		.row_base = row_base,
		.local_base = local_base,
		.ret_pc = w->pc + 1,
		.parent = parent,
		.callsite = in->target,
		.depth = w->frames[parent].depth + 1,
		.active = ex,
		.rows_top = w->rows_top,
		.local_top = w->local_top,
	};
	w->rows_top = row_base + f->nrows;
	w->local_top = local_base + cost;
	caller = w->regs + (size_t)w->frames[parent].row_base * 32;
	callee = w->regs + (size_t)row_base * 32;
	for (i = 0; i < cs->ncopies_args; i++) {
		const uint32_t *c = &cs->copies[i * 3];
		uint32_t k;

		uint32_t to = callee_row(cs, f, c[1], true);

		for (k = 0; k < c[2]; k++) {
			const uint64_t *S = caller + (size_t)(c[0] + k) * 32;
			uint64_t *D = callee + (size_t)(to + k) * 32;

			FOR_LANES(ex, D[l] = S[l]);
		}
	}
	FOR_LANES(ex, w->lane_fi[l] = nf);
	w->fi = nf;
	w->pc = f->pc_begin;
	w->mask = ex;
	w->next_pc = UINT32_MAX;
	return true;
}

static void exec_ret(struct warp *w, const struct simt_module *mod,
		     uint32_t ex)
{
	struct frame *f = &w->frames[w->fi];
	const struct simt_callsite *cs = &mod->calls[f->callsite];
	const struct simt_func *fn = &mod->funcs[f->func];
	uint64_t *callee = w->regs + (size_t)f->row_base * 32;
	uint64_t *caller = w->regs + (size_t)w->frames[f->parent].row_base * 32;
	uint32_t i, parent = f->parent, ret_pc = f->ret_pc;

	for (i = 0; i < cs->ncopies_rets; i++) {
		const uint32_t *c = &cs->copies[(cs->ncopies_args + i) * 3];
		uint32_t k, from = callee_row(cs, fn, c[0], false);

		for (k = 0; k < c[2]; k++) {
			const uint64_t *S = callee + (size_t)(from + k) * 32;
			uint64_t *D = caller + (size_t)(c[1] + k) * 32;

			FOR_LANES(ex, D[l] = S[l]);
		}
	}
	FOR_LANES(ex, {
		w->lane_fi[l] = parent;
		w->lane_pc[l] = ret_pc;
	});
	f->active &= ~ex;
	pop_dead_frames(w);
}

static void exec_exit(struct block_ctx *bc, struct warp *w, uint32_t ex)
{
	if (bc->hz) {
		uint32_t waiting = w->bar_wait & ~w->exited & ~ex;

		simt_hz_exit(bc, w, ex);
		if (waiting) {
			const struct simt_insn *bar =
				&bc->L->mod->code[w->lane_pc[__builtin_ctz(waiting)]];

			/* lanes leave while others of the warp wait at an
			 * aligned barrier: it is reached by part of the warp */
			if ((bar->op == OP_BAR || bar->op == OP_BAR_RED) &&
			    (bar->sem & MSEM_ALIGNED))
				simt_hz_divergent_bar(bc, w, bar, waiting, ex,
						      UINT32_MAX - 1);
		}
	}
	w->exited |= ex;
	bc->exited_threads += popc(ex);
	lanes_leave_frames(w, ex);
	check_all_barriers(bc);
}

/* ---- device printf and assert ---- */

struct fetch_ctx {
	struct block_ctx *bc;
	struct warp *w;
	unsigned lane;
};

/* Host-readable bytes at generic address a and how many follow, or NULL. */
static const uint8_t *peek(struct block_ctx *bc, struct warp *w, unsigned lane,
			   uint64_t a, size_t *avail)
{
	if (SIMT_WIN_OF(a) == SIMT_LOCAL_WIN) {
		uint64_t off = a - SIMT_LOCAL_WIN;
		uint32_t size = bc->L->local_per_thread;

		if (off >= size)
			return NULL;
		*avail = size - off;
		return bc->local + ((size_t)w->id * 32 + lane) * size + off;
	}
	if (SIMT_WIN_OF(a) == SIMT_SHARED_WIN) {
		uint64_t off = a - SIMT_SHARED_WIN;

		if (off >= bc->L->shared_size)
			return NULL;
		*avail = bc->L->shared_size - off;
		return bc->shared + off;
	}
	{
		const struct simt_alloc *al = simt_mem_find(a, 1);

		if (!al)
			return NULL;
		*avail = al->base + al->size - a;
		return (const uint8_t *)(uintptr_t)a;
	}
}

static const char *fetch_string(void *vctx, uint64_t a)
{
	struct fetch_ctx *c = vctx;
	size_t avail;
	const uint8_t *p = peek(c->bc, c->w, c->lane, a, &avail);

	if (!p || !memchr(p, 0, avail))
		return NULL;
	return (const char *)p;
}

static void exec_vprintf(struct block_ctx *bc, struct warp *w,
			 const struct simt_insn *in, uint64_t *const *bases,
			 uint32_t ex)
{
	const uint64_t *F = R(in->o[0]), *A = R(in->o[1]);
	struct launch_state *L = bc->L;

	FOR_LANES(ex, {
		struct fetch_ctx fc = {bc, w, l};
		const char *fmt = fetch_string(&fc, F[l]);
		size_t avail = 0;
		int n;
		const uint8_t *args = A[l] ? peek(bc, w, l, A[l], &avail) : NULL;

		if (!fmt) {
			simt_buf_printf(&bc->out, "<printf: bad format address>\n");
			continue;
		}
		if (bc->out.len + L->out_bytes > simt_printf_fifo + 1024) {
			L->out_dropped = true;
			continue;
		}
		n = simt_format_printf(&bc->out, fmt, args, args ? avail : 0,
				       fetch_string, &fc);
		if (in->o[5].kind == OK_REG)
			R(in->o[5])[l] = (uint32_t)n;
	});
}

static void exec_assert(struct block_ctx *bc, struct warp *w,
			const struct simt_insn *in, uint64_t *const *bases,
			uint32_t ex)
{
	const uint64_t *M = R(in->o[0]), *Fi = R(in->o[1]), *Li = R(in->o[2]);
	const uint64_t *Fn = R(in->o[3]);
	struct simt_buf b = {0};
	int shown = 0;

	FOR_LANES(ex, {
		struct fetch_ctx fc = {bc, w, l};
		const char *msg = fetch_string(&fc, M[l]);
		const char *file = fetch_string(&fc, Fi[l]);
		const char *fn = fetch_string(&fc, Fn[l]);
		uint32_t tid[3];

		if (shown++ >= 32)
			break;
		simt_thread_coords(bc, w, (int)l, tid);
		simt_buf_printf(&b, "%s:%u: %s: block: [%u,%u,%u], thread: "
				"[%u,%u,%u] Assertion `%s` failed.\n",
				file ? file : "?", (uint32_t)Li[l], fn ? fn : "?",
				bc->ctaid[0], bc->ctaid[1], bc->ctaid[2], tid[0],
				tid[1], tid[2], msg ? msg : "?");
	});
	simt_fault(bc, w, __builtin_ctz(ex), in, cudaErrorAssert, "%s",
		   b.s ? b.s : "");
	simt_buf_free(&b);
}

/* Device malloc: first fit in the launch's heap, under the launch lock. */
static uint64_t heap_alloc(struct launch_state *L, uint64_t size)
{
	uint64_t off = 0, need = (size + 15) / 16 * 16 + 16;

	if (!L->heap || size == 0)
		return 0;
	pthread_mutex_lock(&L->lock);
	while (off + need <= L->heap_size) {
		uint64_t hdr;

		memcpy(&hdr, L->heap + off, 8);
		if (hdr == 0) {
			uint64_t rest = L->heap_size - off;

			if (rest >= need) {
				uint64_t used = need | 1;

				memcpy(L->heap + off, &used, 8);
				pthread_mutex_unlock(&L->lock);
				return (uint64_t)(uintptr_t)(L->heap + off + 16);
			}
			break;
		}
		if (!(hdr & 1) && (hdr & ~1ull) >= need) {
			uint64_t used = hdr | 1;

			memcpy(L->heap + off, &used, 8);
			pthread_mutex_unlock(&L->lock);
			return (uint64_t)(uintptr_t)(L->heap + off + 16);
		}
		off += hdr & ~1ull;
	}
	pthread_mutex_unlock(&L->lock);
	return 0;
}

static void heap_free(struct launch_state *L, uint64_t p)
{
	uint8_t *q = (uint8_t *)(uintptr_t)p;
	uint64_t hdr;

	if (!L->heap || q < L->heap + 16 || q >= L->heap + L->heap_size)
		return;
	pthread_mutex_lock(&L->lock);
	memcpy(&hdr, q - 16, 8);
	hdr &= ~1ull;
	memcpy(q - 16, &hdr, 8);
	pthread_mutex_unlock(&L->lock);
}

/* ---- floating point ---- */

/* With FMA hardware, fused multiply-adds compile to one instruction;
 * without it, libm's fmaf/fma give the same (exact) results. */
__attribute__((target("fma"))) static void fma32_hw(uint64_t *D,
						   const uint64_t *A,
						   const uint64_t *B,
						   const uint64_t *C, uint32_t ex)
{
	FOR_LANES(ex, D[l] = f2u(__builtin_fmaf(u2f(A[l]), u2f(B[l]), u2f(C[l]))));
}

__attribute__((target("fma"))) static void fma64_hw(uint64_t *D,
						   const uint64_t *A,
						   const uint64_t *B,
						   const uint64_t *C, uint32_t ex)
{
	FOR_LANES(ex, D[l] = d2u(__builtin_fma(u2d(A[l]), u2d(B[l]), u2d(C[l]))));
}

static int have_fma = -1;

static bool hw_fma(void)
{
	if (have_fma < 0) {
		__builtin_cpu_init();
		have_fma = __builtin_cpu_supports("fma") ? 1 : 0;
	}
	return have_fma;
}

/* PTX min/max.f32: a NaN operand yields the other one (both NaN: the
 * canonical NaN), and -0 orders below +0. */
static inline float min32(float a, float b)
{
	if (a != a || b != b)
		return a != a ? (b != b ? u2f(0x7fffffffu) : b) : a;
	if (a == b)
		return (f2u(a) & 0x80000000u) ? a : b;
	return a < b ? a : b;
}

static inline float max32(float a, float b)
{
	if (a != a || b != b)
		return a != a ? (b != b ? u2f(0x7fffffffu) : b) : a;
	if (a == b)
		return (f2u(a) & 0x80000000u) ? b : a;
	return a > b ? a : b;
}

#define FUNC32(expr) \
	do { \
		if (ftz) \
			FOR_LANES(ex, { float x = simt_ftz32(u2f(A[l])); \
				D[l] = f2u(simt_ftz32(expr)); }); \
		else \
			FOR_LANES(ex, { float x = u2f(A[l]); D[l] = f2u(expr); }); \
	} while (0)

/* f32 operations of FALU in round-to-nearest without saturation, as
 * tight loops; returns false for the forms it does not cover. */
static bool falu32_fast(const struct simt_insn *in, uint64_t *const *bases,
			uint32_t ex)
{
	uint64_t *D = R(in->o[0]);
	const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]);
	bool ftz = in->flags & F_FTZ;

	if (in->type != ST_F32 || (in->flags & F_SAT) ||
	    simt_rnd_directed(in->rnd))
		return false;
	switch (in->sub) {
	case SUB_EX2: FUNC32(exp2f(x)); return true;
	case SUB_LG2: FUNC32(log2f(x)); return true;
	case SUB_RCP: FUNC32(1.0f / x); return true;
	case SUB_SQRT: FUNC32(sqrtf(x)); return true;
	case SUB_RSQRT: FUNC32(1.0f / sqrtf(x)); return true;
	case SUB_SIN: FUNC32(sinf(x)); return true;
	case SUB_COS: FUNC32(cosf(x)); return true;
	case SUB_TANH: FUNC32(tanhf(x)); return true;
	case SUB_DIV:
		FUNC32(x / (ftz ? simt_ftz32(u2f(Bv[l])) : u2f(Bv[l])));
		return true;
	default:
		return false;
	}
}

/* ---- the interpreter loop ---- */

/* Warp instructions a warp runs before the block's other warps get a turn
 * (less the context's slice_cut). */
#define SLICE SIMT_SLICE

static uint64_t clock_value(const struct block_ctx *bc)
{
	return bc->counts.warp_insts * 4 + 1000;
}

static uint64_t globaltimer(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool budget_tick(struct block_ctx *bc, struct warp *w,
			const struct simt_insn *in)
{
	struct launch_state *L = bc->L;
	uint64_t used;

	if (atomic_load_explicit(&L->abort, memory_order_relaxed)) {
		bc->stop = true;
		return false;
	}
	used = atomic_fetch_add_explicit(&L->used, bc->budget_tick,
					 memory_order_relaxed) + bc->budget_tick;
	bc->budget_tick = 0;
	if (used > L->budget) {
		simt_fault(bc, w, __builtin_ctz(w->mask ? w->mask : 1), in,
			   cudaErrorLaunchTimeout,
			   "the kernel ran past its budget of %llu warp instructions "
			   "and was stopped (endless loop?); set "
			   "CUDALAB_SIMT_MAX_INSTRUCTIONS to allow more",
			   (unsigned long long)L->budget);
		return false;
	}
	return true;
}

#define BIN(type_a, expr) \
	do { \
		uint64_t *D = R(in->o[0]); \
		const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]); \
		FOR_LANES(ex, { \
			type_a a = (type_a)A[l], b = (type_a)Bv[l]; \
			D[l] = (expr); \
		}); \
	} while (0)

#define TER(type_a, expr) \
	do { \
		uint64_t *D = R(in->o[0]); \
		const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]), *Cv = R(in->o[3]); \
		FOR_LANES(ex, { \
			type_a a = (type_a)A[l], b = (type_a)Bv[l], c = (type_a)Cv[l]; \
			D[l] = (expr); \
		}); \
	} while (0)

#define BINF(expr) \
	do { \
		uint64_t *D = R(in->o[0]); \
		const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]); \
		if (in->flags & F_FTZ) { \
			FOR_LANES(ex, { \
				float a = simt_ftz32(u2f(A[l])), b = simt_ftz32(u2f(Bv[l])); \
				D[l] = f2u(simt_ftz32(expr)); \
			}); \
		} else { \
			FOR_LANES(ex, { \
				float a = u2f(A[l]), b = u2f(Bv[l]); \
				D[l] = f2u(expr); \
			}); \
		} \
	} while (0)

#define BIND(expr) \
	do { \
		uint64_t *D = R(in->o[0]); \
		const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]); \
		FOR_LANES(ex, { \
			double a = u2d(A[l]), b = u2d(Bv[l]); \
			D[l] = d2u(expr); \
		}); \
	} while (0)

/* Executes the group's instruction; returns false when the group's pc was
 * already set (control flow) or the group was dissolved. */
static int step_misc(struct block_ctx *bc, struct warp *w,
		     const struct simt_insn *in, uint64_t **bases, uint32_t ex);

/* The interpreter loop is also compiled for AVX2, where the lane loops
 * over 64-bit rows become vector code (per-lane shifts, 32-bit
 * multiplies, wider blends); the loader picks the version the CPU runs. */
SIMT_LANE_CLONES void simt_run_warp(struct block_ctx *bc, struct warp *w)
{
	struct launch_state *L = bc->L;
	const struct simt_module *mod = L->mod;
	const struct simt_insn *code = mod->code;
	uint64_t *bases[4];
	const struct simt_insn *in = NULL;
	uint32_t slice = bc->slice_cut;

	bases[OK_IMM] = mod->consts;
	bases[OK_SREG] = w->sregs;
	bases[OK_NONE] = w->scratch;
	for (;;) {
		uint32_t ex;
		int r;

		if (!w->mask && !pick(bc, mod, w))
			return;
		/* A time slice: other warps (and other lanes of this one) get to
		 * run, so spinning on another thread's store makes progress. */
		if (++slice >= SLICE) {
			park(w, w->mask, w->pc);
			w->rotate_from = w->mask;
			w->mask = 0;
			return;
		}
		bases[OK_REG] = w->regs + (size_t)w->frames[w->fi].row_base * 32;
		in = &code[w->pc];
		ex = w->mask;
		if (in->guard >= 0) {
			uint32_t p = (uint32_t)bases[OK_REG][(size_t)in->guard * 32];

			ex &= in->guard_neg ? ~p : p;
		}
		bc->counts.warp_insts++;
		bc->counts.thread_insts += popc(w->mask);
		if (++bc->budget_tick >= 4096 && !budget_tick(bc, w, in))
			return;
		if (in->flop) {
			uint64_t f = (uint64_t)in->flop * popc(ex);

			if (in->flop_type == 0)
				bc->counts.flops_f32 += f;
			else if (in->flop_type == 1)
				bc->counts.flops_f64 += f;
			else
				bc->counts.flops_f16 += f;
		}
		if (!ex && in->op != OP_BRA)
			goto next;
		switch (in->op) {
		case OP_NOP: case OP_NANOSLEEP: case OP_PREFETCH:
			break;
		case OP_MEMBAR:
			if (bc->hz)
				simt_hz_fence(bc, w, ex, in);
			break;
		case OP_MOV: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]);

			FOR_LANES(ex, D[l] = A[l]);
			break;
		}
		case OP_ADD_I32: BIN(uint32_t, (uint32_t)(a + b)); break;
		case OP_SUB_I32: BIN(uint32_t, (uint32_t)(a - b)); break;
		case OP_ADD_I64: BIN(uint64_t, a + b); break;
		case OP_SUB_I64: BIN(uint64_t, a - b); break;
		case OP_MUL_LO_I32: BIN(uint32_t, (uint32_t)(a * b)); break;
		case OP_MUL_LO_I64: BIN(uint64_t, a * b); break;
		case OP_MUL_WIDE_S32:
			BIN(uint64_t, (uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b));
			break;
		case OP_MUL_WIDE_U32:
			BIN(uint64_t, (uint64_t)(uint32_t)a * (uint32_t)b);
			break;
		case OP_MAD_LO_I32: TER(uint32_t, (uint32_t)(a * b + c)); break;
		case OP_MAD_LO_I64: TER(uint64_t, a * b + c); break;
		case OP_MAD_WIDE_S32:
			TER(uint64_t, (uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b) + c);
			break;
		case OP_MAD_WIDE_U32:
			TER(uint64_t, (uint64_t)(uint32_t)a * (uint32_t)b + c);
			break;
		case OP_ADD_F32: BINF(a + b); break;
		case OP_SUB_F32: BINF(a - b); break;
		case OP_MUL_F32: BINF(a * b); break;
		case OP_FMA_F32: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]), *Cv = R(in->o[3]);

			if (in->flags & F_FTZ)
				FOR_LANES(ex, D[l] = f2u(simt_ftz32(fmaf(simt_ftz32(u2f(A[l])),
						simt_ftz32(u2f(Bv[l])), simt_ftz32(u2f(Cv[l]))))));
			else if (hw_fma())
				fma32_hw(D, A, Bv, Cv, ex);
			else
				FOR_LANES(ex, D[l] = f2u(fmaf(u2f(A[l]), u2f(Bv[l]), u2f(Cv[l]))));
			break;
		}
		case OP_ADD_F64: BIND(a + b); break;
		case OP_SUB_F64: BIND(a - b); break;
		case OP_MUL_F64: BIND(a * b); break;
		case OP_FMA_F64: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]), *Cv = R(in->o[3]);

			if (hw_fma())
				fma64_hw(D, A, Bv, Cv, ex);
			else
				FOR_LANES(ex, D[l] = d2u(fma(u2d(A[l]), u2d(Bv[l]), u2d(Cv[l]))));
			break;
		}
		case OP_NEG_F32: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]);

			if (in->flags & F_FTZ)
				FOR_LANES(ex, D[l] = f2u(simt_ftz32(u2f(A[l]))) ^ 0x80000000u);
			else
				FOR_LANES(ex, D[l] = (uint32_t)A[l] ^ 0x80000000u);
			break;
		}
		case OP_ABS_F32: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]);

			if (in->flags & F_FTZ)
				FOR_LANES(ex, D[l] = f2u(simt_ftz32(u2f(A[l]))) & 0x7fffffffu);
			else
				FOR_LANES(ex, D[l] = (uint32_t)A[l] & 0x7fffffffu);
			break;
		}
		case OP_MIN_F32: case OP_MAX_F32: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]);

			if (in->flags & (F_FTZ | F_NAN))
				FOR_LANES(ex, D[l] = simt_falu(in, A[l], Bv[l], 0));
			else if (in->op == OP_MIN_F32)
				FOR_LANES(ex, D[l] = f2u(min32(u2f(A[l]), u2f(Bv[l]))));
			else
				FOR_LANES(ex, D[l] = f2u(max32(u2f(A[l]), u2f(Bv[l]))));
			break;
		}
		case OP_SHL_32: BIN(uint32_t, b > 31 ? 0 : (uint32_t)(a << b)); break;
		case OP_SHR_U32: BIN(uint32_t, b > 31 ? 0 : a >> b); break;
		case OP_SHR_S32:
			BIN(uint32_t, (uint32_t)((int32_t)a >> (b > 31 ? 31 : b)));
			break;
		case OP_SHL_64: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]);

			FOR_LANES(ex, { uint32_t b = (uint32_t)Bv[l];
				D[l] = b > 63 ? 0 : A[l] << b; });
			break;
		}
		case OP_SHR_U64: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]);

			FOR_LANES(ex, { uint32_t b = (uint32_t)Bv[l];
				D[l] = b > 63 ? 0 : A[l] >> b; });
			break;
		}
		case OP_SHR_S64: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]);

			FOR_LANES(ex, { uint32_t b = (uint32_t)Bv[l];
				D[l] = (uint64_t)((int64_t)A[l] >> (b > 63 ? 63 : b)); });
			break;
		}
		case OP_AND_32: BIN(uint32_t, a & b); break;
		case OP_OR_32: BIN(uint32_t, a | b); break;
		case OP_XOR_32: BIN(uint32_t, a ^ b); break;
		case OP_AND_64: BIN(uint64_t, a & b); break;
		case OP_OR_64: BIN(uint64_t, a | b); break;
		case OP_XOR_64: BIN(uint64_t, a ^ b); break;
		case OP_NOT_32: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]);

			FOR_LANES(ex, D[l] = (uint32_t)~A[l]);
			break;
		}
		case OP_NOT_64: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]);

			FOR_LANES(ex, D[l] = ~A[l]);
			break;
		}
		case OP_MIN_S32:
			BIN(uint32_t, (int32_t)a < (int32_t)b ? a : b);
			break;
		case OP_MAX_S32:
			BIN(uint32_t, (int32_t)a > (int32_t)b ? a : b);
			break;
		case OP_MIN_U32: BIN(uint32_t, a < b ? a : b); break;
		case OP_MAX_U32: BIN(uint32_t, a > b ? a : b); break;
		case OP_SETP_S32: case OP_SETP_U32: case OP_SETP_S64:
		case OP_SETP_U64: case OP_SETP_F32: case OP_SETP_F64: {
			const uint64_t *A = R(in->o[2]), *Bv = R(in->o[3]);
			uint32_t bits = 0;

			switch (in->op) {
			case OP_SETP_S32: CMP_INT(int32_t); break;
			case OP_SETP_U32: CMP_INT(uint32_t); break;
			case OP_SETP_S64: CMP_INT(int64_t); break;
			case OP_SETP_U64: CMP_INT(uint64_t); break;
			case OP_SETP_F32: CMP_FLT(u2f, false); break;
			default: CMP_FLT(u2d, false); break;
			}
			pred_set(bases, in->o[0], bits, ex);
			break;
		}
		case OP_SELP: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]);
			uint32_t p = pred_of(bases, in->o[3]);

			FOR_LANES(ex, D[l] = ((p >> l) & 1) ? A[l] : Bv[l]);
			break;
		}
		case OP_CVT_U64_U32: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]);

			FOR_LANES(ex, D[l] = (uint32_t)A[l]);
			break;
		}
		case OP_CVT_S64_S32: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]);

			FOR_LANES(ex, D[l] = (uint64_t)(int64_t)(int32_t)A[l]);
			break;
		}
		case OP_CVT_TRUNC32: {
			uint64_t *D = R(in->o[0]);
			const uint64_t *A = R(in->o[1]);

			FOR_LANES(ex, D[l] = (uint32_t)A[l]);
			break;
		}
#define TYPED_CASE(n) case OP_##n:
		SIMT_TYPED_OPS(TYPED_CASE)
#undef TYPED_CASE
			simt_typed_exec(in, bases, ex);
			break;
		case OP_LD:
			if (!exec_ld(bc, w, in, bases, ex))
				return;
			break;
		case OP_ST:
			if (!exec_st(bc, w, in, bases, ex))
				return;
			break;
		case OP_BRA: {
			uint32_t stay = w->mask & ~ex;

			bc->counts.branches++;
			if (!stay) {
				w->pc = in->target;
				if (w->pc >= w->next_pc) {
					park(w, w->mask, w->pc);
					w->mask = 0;
				}
				continue;
			}
			if (!ex)
				break;
			bc->counts.divergent++;
			park(w, stay, w->pc + 1);
			park(w, ex, in->target);
			w->mask = 0;
			continue;
		}
		default:
			r = step_misc(bc, w, in, bases, ex);
			if (r < 0)
				return;
			if (r == 0)
				continue;
			if (r == SIMT_MBAR_YIELD) {
				/* a failed mbarrier wait: the others go first */
				park(w, w->mask, w->pc + 1);
				w->rotate_from = w->mask;
				w->mask = 0;
				return;
			}
			break;
		}
next:
		w->pc++;
		if (w->pc >= w->next_pc) {
			park(w, w->mask, w->pc);
			w->mask = 0;
		}
	}
}

/* Barrier misuse at an aligned barrier (__syncthreads()): lanes of the
 * group whose guard is false skip the barrier the others wait at. */
static void check_aligned_bar(struct block_ctx *bc, const struct warp *w,
			      const struct simt_insn *in, uint32_t ex)
{
	uint32_t skip = w->mask & ~ex & w->exist & ~w->exited;

	if (skip && ex)
		simt_hz_divergent_bar(bc, w, in, ex, skip, UINT32_MAX);
}

/* Member masks of a warp-synchronous instruction: the executing lane must
 * be in its own mask, and the lanes it names must not have gone on
 * without it (exited while it waited for them). */
static void check_members(struct block_ctx *bc, struct warp *w,
			  const struct simt_insn *in, uint32_t ex,
			  const uint64_t *M)
{
	uint32_t named = 0;

	if (!ex)
		return;
	FOR_LANES(ex, {
		uint32_t m = (uint32_t)M[l];

		if (!(m >> l & 1)) {
			simt_hz_not_member(bc, w, in, l, m);
			return;
		}
		named |= m;
	});
	if (w->sync_waited) {
		uint32_t missing = named & w->exist & w->exited & ~w->sync_exited_at;

		if (missing)
			simt_hz_never_reached(bc, w, in, (unsigned)__builtin_ctz(ex),
					      (uint32_t)M[__builtin_ctz(ex)],
					      missing);
	}
}

/* Less frequent operations.  Returns 1 to go on to the next instruction,
 * 0 if the group or its pc changed, -1 to stop the warp (fault). */
static int step_misc(struct block_ctx *bc, struct warp *w,
		     const struct simt_insn *in, uint64_t **bases, uint32_t ex)
{
	struct launch_state *L = bc->L;
	const struct simt_module *mod = L->mod;

	switch (in->op) {
	case OP_MOV_PRED: {
		uint32_t p = pred_of(bases, in->o[1]);

		pred_set(bases, in->o[0], p, ex);
		return 1;
	}
	case OP_AND_P: case OP_OR_P: case OP_XOR_P: case OP_NOT_P: {
		uint32_t a = pred_of(bases, in->o[1]), b = 0, r;

		if (in->op != OP_NOT_P)
			b = pred_of(bases, in->o[2]);
		r = in->op == OP_AND_P ? a & b : in->op == OP_OR_P ? a | b
		  : in->op == OP_XOR_P ? a ^ b : ~a;
		pred_set(bases, in->o[0], r, ex);
		return 1;
	}
	case OP_PACK: {
		uint64_t *D = R(in->o[0]);
		int n = in->vec, part = (int)in->imm, k;

		FOR_LANES(ex, {
			uint64_t v = 0;

			for (k = 0; k < n; k++) {
				uint64_t x = R(in->o[1 + k])[l];

				if (part < 8)
					x &= (1ull << (part * 8)) - 1;
				v |= x << (k * part * 8);
			}
			D[l] = v;
		});
		return 1;
	}
	case OP_UNPACK: {
		const uint64_t *A = R(in->o[5]);
		uint64_t src[32];
		int n = in->vec, part = (int)in->imm, k;
		unsigned i;

		for (i = 0; i < 32; i++)
			src[i] = A[i];
		for (k = 0; k < n; k++) {
			uint64_t *D = R(in->o[k]);

			if (in->o[k].kind == OK_NONE)
				continue;
			FOR_LANES(ex, {
				uint64_t x = src[l] >> (k * part * 8);

				D[l] = part < 8 ? x & ((1ull << (part * 8)) - 1) : x;
			});
		}
		return 1;
	}
	case OP_MOV_LOCADDR: {
		uint64_t *D = R(in->o[0]);
		uint64_t v = w->frames[w->fi].local_base + (uint64_t)in->imm;

		FOR_LANES(ex, D[l] = v);
		return 1;
	}
	case OP_MOV_KPADDR: {
		uint64_t *D = R(in->o[0]);
		uint64_t v = (uint64_t)(uintptr_t)(L->kparams + in->imm);

		FOR_LANES(ex, D[l] = v);
		return 1;
	}
	case OP_MOV_FUNC: {
		uint64_t *D = R(in->o[0]);

		FOR_LANES(ex, D[l] = 0xF0F0000000000000ull | in->target);
		return 1;
	}
	case OP_CLOCK: case OP_CLOCK64: case OP_GTIMER: {
		uint64_t *D = R(in->o[0]);
		uint64_t v = in->op == OP_GTIMER ? globaltimer() : clock_value(bc);

		if (in->op == OP_CLOCK || in->sub == 1)
			v = (uint32_t)v;
		else if (in->sub == 2)
			v >>= 32;
		FOR_LANES(ex, D[l] = v);
		return 1;
	}
	case OP_SETP_GEN: {
		const uint64_t *A = R(in->o[2]), *Bv = R(in->o[3]);
		uint32_t bits = simt_compare_lanes(in, A, Bv, ex);
		uint32_t c = in->sub2 ? pred_of(bases, in->o[4]) : 0;

		if (in->sub2 == 1) {
			pred_set(bases, in->o[0], bits & c, ex);
			if (in->o[1].kind != OK_NONE)
				pred_set(bases, in->o[1], ~bits & c, ex);
		} else if (in->sub2 == 2) {
			pred_set(bases, in->o[0], bits | c, ex);
			if (in->o[1].kind != OK_NONE)
				pred_set(bases, in->o[1], ~bits | c, ex);
		} else if (in->sub2 == 3) {
			pred_set(bases, in->o[0], bits ^ c, ex);
			if (in->o[1].kind != OK_NONE)
				pred_set(bases, in->o[1], ~bits ^ c, ex);
		} else {
			pred_set(bases, in->o[0], bits, ex);
			if (in->o[1].kind != OK_NONE)
				pred_set(bases, in->o[1], ~bits, ex);
		}
		return 1;
	}
	case OP_SET: {
		uint64_t *D = R(in->o[0]);
		const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]);
		uint32_t c = in->sub2 ? pred_of(bases, in->o[3]) : 0;
		uint32_t bits = simt_compare_lanes(in, A, Bv, ex);
		uint64_t one = in->type2 == ST_F32 ? 0x3f800000u : 0xffffffffu;

		if (in->sub2 == 1)
			bits &= c;
		else if (in->sub2 == 2)
			bits |= c;
		else if (in->sub2 == 3)
			bits ^= c;
		FOR_LANES(ex, D[l] = ((bits >> l) & 1) ? one : 0);
		return 1;
	}
	case OP_SLCT: {
		uint64_t *D = R(in->o[0]);
		const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]), *Cv = R(in->o[3]);

		FOR_LANES(ex, {
			bool ge = in->type2 == ST_F32
				? !(u2f(Cv[l]) < 0.0f) && !isnan(u2f(Cv[l]))
				: (int32_t)Cv[l] >= 0;

			if (in->type2 == ST_F32 && u2f(Cv[l]) == 0.0f)
				ge = true;
			D[l] = ge ? A[l] : Bv[l];
		});
		return 1;
	}
	case OP_CVT: {
		uint64_t *D = R(in->o[0]);
		const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]);

		FOR_LANES(ex, D[l] = simt_cvt(in, A[l], Bv[l]));
		return 1;
	}
	case OP_CVTA_TO: {
		uint64_t *D = R(in->o[0]);
		const uint64_t *A = R(in->o[1]);

		FOR_LANES(ex, D[l] = A[l]);
		return 1;
	}
	case OP_CVTA_LOCAL: case OP_CVTA_SHARED: {
		uint64_t *D = R(in->o[0]);
		const uint64_t *A = R(in->o[1]);
		uint64_t win = in->op == OP_CVTA_LOCAL ? SIMT_LOCAL_WIN : SIMT_SHARED_WIN;

		FOR_LANES(ex, D[l] = (uint32_t)A[l] + win);
		return 1;
	}
	case OP_CVTA_TO_LOCAL: case OP_CVTA_TO_SHARED: {
		uint64_t *D = R(in->o[0]);
		const uint64_t *A = R(in->o[1]);
		uint64_t win = in->op == OP_CVTA_TO_LOCAL ? SIMT_LOCAL_WIN
							  : SIMT_SHARED_WIN;

		/* A generic address outside the window stays invalid. */
		FOR_LANES(ex, D[l] = SIMT_WIN_OF(A[l]) == win ? A[l] - win
							      : 0xffffffff00000000ull | A[l]);
		return 1;
	}
	case OP_ISSPACEP: {
		const uint64_t *A = R(in->o[1]);
		uint32_t bits = 0;

		FOR_LANES(ex, {
			uint64_t win = SIMT_WIN_OF(A[l]);
			bool t;

			switch (in->space) {
			case SS_LOCAL: t = win == SIMT_LOCAL_WIN; break;
			case SS_SHARED: t = win == SIMT_SHARED_WIN; break;
			case SS_GLOBAL:
				t = win != SIMT_LOCAL_WIN && win != SIMT_SHARED_WIN;
				break;
			default: t = false; break;
			}
			bits |= (uint32_t)t << l;
		});
		pred_set(bases, in->o[0], bits, ex);
		return 1;
	}
	case OP_IALU: {
		uint64_t *D = R(in->o[0]);
		const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]), *Cv = R(in->o[3]);
		const uint64_t *Dv = R(in->o[4]);

		FOR_LANES(ex, {
			uint32_t cf = (w->carry >> l) & 1;

			D[l] = simt_ialu(in, A[l], Bv[l], Cv[l], Dv[l], &cf);
			w->carry = (w->carry & ~(1u << l)) | (cf << l);
		});
		return 1;
	}
	case OP_FALU: {
		uint64_t *D = R(in->o[0]);
		const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]), *Cv = R(in->o[3]);
		bool dir = simt_rnd_directed(in->rnd) &&
			   (in->type == ST_F32 || in->type == ST_F64);

		if (falu32_fast(in, bases, ex))
			return 1;
		if (dir)
			simt_rnd_enter(in->rnd);
		FOR_LANES(ex, D[l] = simt_falu(in, A[l], Bv[l], Cv[l]));
		if (dir)
			simt_rnd_leave();
		return 1;
	}
	case OP_TESTP: {
		const uint64_t *A = R(in->o[1]);
		uint32_t bits = 0;

		FOR_LANES(ex, bits |= (uint32_t)simt_testp(in->sub, in->type, A[l]) << l);
		pred_set(bases, in->o[0], bits, ex);
		return 1;
	}
	case OP_ATOM:
		return exec_atom(bc, w, in, bases, ex) ? 1 : -1;
	case OP_CALL: {
		uint32_t stay = w->mask & ~ex;

		if (stay)
			park(w, stay, w->pc + 1);
		if (!exec_call(bc, w, in, ex, mod->calls[in->target].func))
			return -1;
		return 0;
	}
	case OP_CALLI: {
		uint32_t stay = w->mask & ~ex, same = 0;
		const uint64_t *T = R(in->addr);
		unsigned l0 = (unsigned)__builtin_ctz(ex);
		uint64_t t = T[l0], idx = t & 0xffffffffull;
		const struct simt_callsite *cs = &mod->calls[in->target];
		const struct simt_func *f;

		FOR_LANES(ex, if (T[l] == t) same |= 1u << l);
		if ((t & ~0xffffffffull) != SIMT_FUNC_TAG || idx >= (uint64_t)mod->nfuncs ||
		    !mod->funcs[idx].defined) {
			simt_fault(bc, w, (int)l0, in, cudaErrorIllegalInstruction,
				   "call through an invalid function pointer 0x%llx",
				   (unsigned long long)t);
			return -1;
		}
		f = &mod->funcs[idx];
		if (f->nparams != cs->nargs || f->nrets != cs->nrets) {
			simt_fault(bc, w, (int)l0, in, cudaErrorIllegalInstruction,
				   "call through a function pointer to %s, whose "
				   "parameters do not match the call", f->name);
			return -1;
		}
		/* Lanes calling other functions run the call later. */
		if (stay)
			park(w, stay, w->pc + 1);
		if (ex & ~same)
			park(w, ex & ~same, w->pc);
		if (!exec_call(bc, w, in, same, (uint32_t)idx))
			return -1;
		return 0;
	}
	case OP_RET: {
		uint32_t stay = w->mask & ~ex;

		if (w->frames[w->fi].parent == NO_FRAME) {
			if (stay)
				park(w, stay, w->pc + 1);
			exec_exit(bc, w, ex);
			w->mask = 0;
			return 0;
		}
		if (stay)
			park(w, stay, w->pc + 1);
		exec_ret(w, mod, ex);
		w->mask = 0;
		return 0;
	}
	case OP_EXIT: {
		uint32_t stay = w->mask & ~ex;

		if (stay)
			park(w, stay, w->pc + 1);
		exec_exit(bc, w, ex);
		w->mask = 0;
		return 0;
	}
	case OP_TRAP: case OP_BRKPT:
		simt_fault(bc, w, __builtin_ctz(ex), in, cudaErrorLaunchFailure,
			   "%s instruction executed",
			   in->op == OP_TRAP ? "trap" : "brkpt");
		return -1;
	case OP_BAR: case OP_BAR_RED: case OP_BAR_ARRIVE: {
		uint32_t stay = w->mask & ~ex;
		bool wait = in->op != OP_BAR_ARRIVE;

		if (bc->hz && (in->sem & MSEM_ALIGNED))
			check_aligned_bar(bc, w, in, ex);

		if (stay)
			park(w, stay, w->pc + 1);
		if (!wait) {
			park(w, ex, w->pc + 1);
			if (!bar_arrive(bc, w, in, bases, ex, false))
				return -1;
		} else if (!bar_arrive(bc, w, in, bases, ex, true)) {
			return -1;
		}
		w->mask = 0;
		return 0;
	}
	case OP_SHFL: case OP_VOTE: case OP_MATCH: case OP_REDUX:
	case OP_BAR_WARP: case OP_ELECT: case OP_TENSOR: {
		int mo = in->op == OP_BAR_WARP ? 0 : in->op == OP_ELECT ? 2 : 5;
		unsigned l0 = (unsigned)__builtin_ctz(w->mask);
		const uint64_t *M = in->o[mo].kind == OK_NONE ? NULL
								: R(in->o[mo]);
		uint32_t members = M ? (uint32_t)M[l0] : w->mask;

		if (!warp_sync_ready(mod, w, members))
			return 0;
		ex = w->mask;
		if (in->guard >= 0) {
			uint32_t p = (uint32_t)bases[OK_REG][(size_t)in->guard * 32];

			ex = w->mask & (in->guard_neg ? ~p : p);
		}
		if (bc->hz && M && in->op != OP_TENSOR)
			check_members(bc, w, in, ex, M);
		w->sync_waited = false;
		if (in->op == OP_BAR_WARP) {
			w->synced++;
			if (bc->hz)
				simt_hz_warp_sync(bc, w, ex | w->sync_extra);
		}
		w->sync_extra = 0;
		switch (in->op) {
		case OP_SHFL: exec_shfl(bc, w, in, bases, ex); break;
		case OP_VOTE: exec_vote(in, bases, ex, M); break;
		case OP_MATCH: exec_match(in, bases, ex, M); break;
		case OP_REDUX: exec_redux(in, bases, ex, M); break;
		case OP_ELECT: exec_elect(in, bases, ex, M); break;
		case OP_TENSOR:
			if (ex && !simt_tensor_exec(bc, w, in, bases, ex))
				return -1;
			break;
		default:
			break;
		}
		return 1;
	}
	case OP_ACTIVEMASK: {
		uint64_t *D = R(in->o[0]);
		uint32_t m = w->mask;

		FOR_LANES(ex, D[l] = m);
		return 1;
	}
	case OP_TENSOR_LANE:
		simt_tensor_lane(in, bases, ex);
		return 1;
	case OP_TEX:
		return simt_tex_exec(bc, w, in, bases, ex) ? 1 : -1;
	case OP_CP_ASYNC:
		return exec_cp_async(bc, w, in, bases, ex) ? 1 : -1;
	case OP_CP_COMMIT:
		if (bc->hz)
			simt_hz_async_commit(bc, w, ex);
		return 1;
	case OP_CP_WAIT:
		if (bc->hz) {
			if (in->sub)
				simt_hz_async_commit(bc, w, ex);
			simt_hz_async_wait(bc, w, ex, (uint32_t)in->imm, in->sub);
		}
		return 1;
	case OP_MBAR:
		return simt_mbar_exec(bc, w, in, bases, ex);
	case OP_VPRINTF:
		exec_vprintf(bc, w, in, bases, ex);
		return 1;
	case OP_ASSERTFAIL:
		exec_assert(bc, w, in, bases, ex);
		return -1;
	case OP_MALLOC: {
		const uint64_t *S = R(in->o[0]);
		uint64_t *D = R(in->o[5]);

		FOR_LANES(ex, D[l] = heap_alloc(L, S[l]));
		return 1;
	}
	case OP_FREE: {
		const uint64_t *P = R(in->o[0]);

		FOR_LANES(ex, heap_free(L, P[l]));
		return 1;
	}
	case OP_UNSUPPORTED:
		simt_fault(bc, w, __builtin_ctz(ex), in, cudaErrorIllegalInstruction,
			   "unsupported instruction reached");
		return -1;
	default:
		simt_fault(bc, w, __builtin_ctz(ex), in, cudaErrorIllegalInstruction,
			   "internal: operation %s has no implementation",
			   simt_op_name(in->op));
		return -1;
	}
}
