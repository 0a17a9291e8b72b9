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
 * is a 32-bit lane mask kept in lane 0 of its row.
 *
 * This file holds the loop that picks a group and dispatches each
 * instruction; the instructions with more to them live beside it:
 * exec_mem.c (loads, stores, cp.async, atomics), exec_sync.c (shuffles,
 * votes, warp and block barriers), exec_call.c (call frames, call, ret,
 * exit) and exec_devlib.c (printf, assert, the device heap). */
#include "exec/exec.h"

#include "exec/alu.h"
#include "exec/tensor.h"
#include "exec/texture.h"
#include "exec/mbarrier.h"
#include "exec/hooks.h"
#include "exec/lanes.h"
#include "exec/typed.h"
#include "exec/host.h"
#include "perf/ops.h"

#include <math.h>
#include <string.h>
#ifdef __x86_64__
#include <immintrin.h>
#endif
#include <time.h>

/* ---- scheduling ---- */

/* Chooses the next group; returns false if no lane can run. */
static bool pick(struct block_ctx *bc, const struct simt_module *mod,
		 struct warp *w)
{
	uint32_t run = w->exist & ~w->exited & ~w->bar_wait & ~w->sync_wait;
	uint32_t bpc = UINT32_MAX, bfi = 0, bdepth = 0, group = 0;
	uint32_t next = UINT32_MAX;
	bool first = true;

	if (!run && w->sync_wait) {
		simt_wake_sync(bc, mod, w);
		run = w->exist & ~w->exited & ~w->bar_wait & ~w->sync_wait;
	}
	w->mask = 0;
	if (!run)
		return false;
	if (w->rotate_from && (run & ~w->rotate_from))
		run &= ~w->rotate_from;
	w->rotate_from = 0;
	/* usual case: every lane that can run is at one place */
	{
		unsigned f = (unsigned)__builtin_ctz(run);
		uint32_t pc0 = w->lane_pc[f], fi0 = w->lane_fi[f], diff = 0;

		FOR_LANES(run, diff |= (w->lane_pc[l] ^ pc0) | (w->lane_fi[l] ^ fi0));
		if (!diff) {
			w->pc = pc0;
			w->fi = fi0;
			w->mask = run;
			w->next_pc = UINT32_MAX;
			return true;
		}
	}
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
	if (bc->uck)
		simt_uck_frame(w, L->fn, 0, UINT32_MAX);
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

#ifdef __x86_64__
/* The same for a whole warp with AVX2 as well: each row read as 64
 * floats, the high halves of the lanes computed along (the lanes' values
 * do not depend on them) and cleared, eight vector FMAs in all. */
__attribute__((target("avx2,fma"))) static void
fma32_avx2(uint64_t *D, const uint64_t *A, const uint64_t *B,
	   const uint64_t *C)
{
	const __m256i lo = _mm256_set1_epi64x(0xffffffffll);

	for (unsigned l = 0; l < 32; l += 4) {
		__m256 a = _mm256_loadu_ps((const float *)(A + l));
		__m256 b = _mm256_loadu_ps((const float *)(B + l));
		__m256 c = _mm256_loadu_ps((const float *)(C + l));
		__m256i r = _mm256_castps_si256(_mm256_fmadd_ps(a, b, c));

		_mm256_storeu_si256((__m256i *)(D + l), _mm256_and_si256(r, lo));
	}
}
#endif

__attribute__((target("fma"))) static void fma64_hw(uint64_t *D,
						   const uint64_t *A,
						   const uint64_t *B,
						   const uint64_t *C, uint32_t ex)
{
	FOR_LANES(ex, D[l] = d2u(__builtin_fma(u2d(A[l]), u2d(B[l]), u2d(C[l]))));
}

static int have_fma = -1, have_avx2_fma = -1;

static bool hw_fma(void)
{
	if (have_fma < 0) {
		__builtin_cpu_init();
		have_fma = __builtin_cpu_supports("fma") ? 1 : 0;
		have_avx2_fma = have_fma && __builtin_cpu_supports("avx2");
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

/* Address rows whose lanes the loop found in a line (ld_shared_line),
 * with their steps, while it has run straight through since: what an
 * MF_LD_SHARED4_AGAIN load reuses.  Emptied whenever the loop goes on
 * anywhere but at the next instruction. */
struct line_cache {
	const uint64_t *row[4];
	uint64_t step[4];
	unsigned next;
};

static inline void line_forget(struct line_cache *lc, const uint64_t *row)
{
	for (unsigned i = 0; i < 4; i++)
		if (lc->row[i] == row)
			lc->row[i] = NULL;
}

/* ld.shared of 4 bytes by a whole warp whose lanes lie in a line (one
 * address, or a rising run), inside shared memory and aligned: loaded
 * here, without the call to the general path, and (with the checks on)
 * logged when the block is in a quiet interval (sz: the block's shared
 * memory).  False when the general path must take it; the line cache
 * then no longer holds the address row, and nothing else has changed. */
static inline bool ld_shared_line(struct block_ctx *bc, struct warp *w,
				  const struct simt_insn *in,
				  uint64_t *const *bases, struct line_cache *lc,
				  uint64_t sz)
{
	const uint64_t *A = R(in->addr);
	uint64_t *D = R(in->o[0]);
	uint64_t a0 = A[0] + (uint64_t)in->imm, d = 0;
	uint8_t *p;
	unsigned i = 4;

	if (in->form == MF_LD_SHARED4_AGAIN)
		for (i = 0; i < 4 && lc->row[i] != A; i++)
			;
	if (i < 4) {
		d = lc->step[i];
	} else if (lanes_in_line(A, 4, &d)) {
		line_forget(lc, A);
		lc->row[lc->next] = A;
		lc->step[lc->next] = d;
		lc->next = (lc->next + 1) & 3;
	} else {
		line_forget(lc, A);
		return false;
	}
	if (a0 >= sz || sz - a0 < 31 * d + 4 || (a0 & 3))
		return false;
	p = bc->shared + a0;
	if (bc->hz && !simt_hz_log_line(bc, w, in, (uint32_t)a0, 4, (uint32_t)d) &&
	    !simt_hz_quiet_line(bc, w, in, p, 4, (uint32_t)d))
		return false;
	load_line32(D, p, d);
	return true;
}

/* Executes the group's instruction; returns false when the group's pc was
 * already set (control flow) or the group was dissolved. */
static int step_misc(struct block_ctx *bc, struct warp *w,
		     const struct simt_insn *in, uint64_t **bases, uint32_t ex);

/* Counts of the interpreter loop, kept in registers while it runs. */
struct tally {
	uint64_t warp, thread, flops[3];  /* flops: f32, f64, f16 */
};

/* Whether the loop below runs op in its own switch without branching or
 * changing the warp's lanes: such an op does not end a straight-line
 * run.  (A wrong answer costs speed only: the loop takes back what it
 * counted ahead whenever a run ends early.) */
static bool op_straight(int op)
{
	switch (op) {
	case OP_NOP: case OP_NANOSLEEP: case OP_PREFETCH: case OP_MEMBAR:
	case OP_MOV: case OP_ADD_I32: case OP_SUB_I32: case OP_ADD_I64:
	case OP_SUB_I64: case OP_MUL_LO_I32: case OP_MUL_LO_I64:
	case OP_MUL_WIDE_S32: case OP_MUL_WIDE_U32: case OP_MAD_LO_I32:
	case OP_MAD_LO_I64: case OP_MAD_WIDE_S32: case OP_MAD_WIDE_U32:
	case OP_ADD_F32: case OP_SUB_F32: case OP_MUL_F32: case OP_FMA_F32:
	case OP_ADD_F64: case OP_SUB_F64: case OP_MUL_F64: case OP_FMA_F64:
	case OP_NEG_F32: case OP_ABS_F32: case OP_MIN_F32: case OP_MAX_F32:
	case OP_SHL_32: case OP_SHR_U32: case OP_SHR_S32: case OP_SHL_64:
	case OP_SHR_U64: case OP_SHR_S64: case OP_AND_32: case OP_OR_32:
	case OP_XOR_32: case OP_AND_64: case OP_OR_64: case OP_XOR_64:
	case OP_NOT_32: case OP_NOT_64: case OP_MIN_S32: case OP_MAX_S32:
	case OP_MIN_U32: case OP_MAX_U32: case OP_SETP_S32: case OP_SETP_U32:
	case OP_SETP_S64: case OP_SETP_U64: case OP_SETP_F32: case OP_SETP_F64:
	case OP_SELP: case OP_CVT_U64_U32: case OP_CVT_S64_S32:
	case OP_CVT_TRUNC32: case OP_LD: case OP_ST:
#define TYPED_CASE(n) case OP_##n:
	SIMT_TYPED_OPS(TYPED_CASE)
#undef TYPED_CASE
		return true;
	default:
		return false;
	}
}

static pthread_mutex_t runs_lock = PTHREAD_MUTEX_INITIALIZER;

void simt_runs_prepare(struct simt_module *mod)
{
	struct simt_run *ru;
	uint32_t i;

	pthread_mutex_lock(&runs_lock);
	if (mod->runs || !mod->ncode) {
		pthread_mutex_unlock(&runs_lock);
		return;
	}
	ru = simt_xcalloc(mod->ncode, sizeof *ru);
	for (i = mod->ncode; i-- > 0;) {
		const struct simt_insn *in = &mod->code[i];

		if (op_straight(in->op) && i + 1 < mod->ncode)
			ru[i] = ru[i + 1];
		ru[i].len++;
		if (in->flop && in->guard < 0)
			ru[i].flops[in->flop_type < 2 ? in->flop_type : 2] += in->flop;
	}
	mod->runs = ru;
	simt_ops_module(mod);
	pthread_mutex_unlock(&runs_lock);
}

/* Adds (sign 1) or takes back (-1) the counts of a run's instructions
 * from one with `ru`, for cpop lanes. */
static inline void tally_run(struct tally *t, const struct simt_run *ru,
			     uint64_t cpop, int64_t sign)
{
	t->warp += (uint64_t)(sign * ru->len);
	t->thread += (uint64_t)sign * ru->len * cpop;
	t->flops[0] += (uint64_t)sign * ru->flops[0] * cpop;
	t->flops[1] += (uint64_t)sign * ru->flops[1] * cpop;
	t->flops[2] += (uint64_t)sign * ru->flops[2] * cpop;
}

/* Takes back what entering a run counted ahead for its `left`
 * instructions from nxt, which will not run now: the counts, the time
 * slice and the budget's tick. */
static inline void run_leave(struct block_ctx *bc, struct tally *t,
			     const struct simt_run *runs, uint32_t nxt,
			     uint32_t left, uint32_t pop, uint32_t *slice,
			     const struct warp *w)
{
	tally_run(t, &runs[nxt], pop, -1);
	if (bc->tr)
		pm_trace_unrun(bc->tr, w->id, left);
	*slice -= left;
	bc->budget_tick -= left < bc->budget_tick ? left : bc->budget_tick;
}

static inline void tally_flush(struct block_ctx *bc, struct tally *t)
{
	bc->counts.warp_insts += t->warp;
	bc->counts.thread_insts += t->thread;
	bc->counts.flops_f32 += t->flops[0];
	bc->counts.flops_f64 += t->flops[1];
	bc->counts.flops_f16 += t->flops[2];
	*t = (struct tally){0};
}

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
	/* the group's lane count, counted again only when the group changes */
	uint32_t cmask = 0, cpop = 0;
	/* counts kept in registers, added to bc->counts when the loop leaves
	 * or calls what may read them */
	struct tally tl = {0};
	/* the straight-line run being run: counted when entered, for
	 * run_pop lanes; `left` instructions of it, from nxt, not yet run */
	const struct simt_run *runs = mod->runs;
	uint32_t left = 0, nxt = 0, run_pop = 0;
	/* marks of the instructions run (perf/ops.h), usually NULL */
	const uint8_t *ran;
	struct line_cache lc = {0};
	/* the pc after the last one run, when the loop went on there */
	uint32_t seq = UINT32_MAX;
	uint64_t shared_size = L->shared_size;

	if (!runs) {
		simt_runs_prepare(L->mod);
		runs = L->mod->runs;
	}
	ran = mod->ran;
	bc->cur_warp = w->id;
	bases[OK_IMM] = mod->consts;
	bases[OK_SREG] = w->sregs;
	bases[OK_NONE] = w->scratch;
	for (;;) {
		uint32_t ex;
		int r;

		if (!w->mask) {
			if (left) {
				/* the run was left early (the group parked at a
				 * reconvergence point) */
				run_leave(bc, &tl, runs, nxt, left, run_pop, &slice, w);
				left = 0;
			}
			if (!pick(bc, mod, w))
				goto out;
			seq = UINT32_MAX;  /* maybe another group, frame or place */
		}
		/* Inside a run the loop goes on at the next instruction with
		 * the same lanes: whatever else moves the warp ends the run
		 * (its last instruction, or a park, above) */
		if (left) {
			left--;
			nxt++;
		} else {
			/* A time slice: other warps (and other lanes of this
			 * one) get to run, so spinning on another thread's
			 * store makes progress. */
			if (slice >= SLICE) {
				simt_park(w, w->mask, w->pc);
				w->rotate_from = w->mask;
				w->mask = 0;
				goto out;
			}
			if (bc->tr && pm_trace_over(bc->tr)) {
				/* the time model has seen enough of this block */
				simt_park(w, w->mask, w->pc);
				w->mask = 0;
				bc->stop = true;
				goto out;
			}
			if (w->mask != cmask) {
				cmask = w->mask;
				cpop = popc(cmask);
			}
			tally_run(&tl, &runs[w->pc], cpop, 1);
			if (__builtin_expect(ran != NULL, 0))
				simt_ops_ran(mod, w->pc, runs[w->pc].len);
			if (bc->tr)
				pm_trace_run(bc->tr, w->id, w->pc, runs[w->pc].len);
			run_pop = cpop;
			left = runs[w->pc].len - 1;
			nxt = w->pc + 1;
			slice += runs[w->pc].len;
			bc->budget_tick += runs[w->pc].len;
			if (bc->budget_tick >= 4096 && !budget_tick(bc, w, &code[w->pc]))
				goto out;
		}
		/* the frame and the rows change only where the loop does not go
		 * on at the next instruction (a branch, a call, a return, a new
		 * group) */
		if (w->pc != seq) {
			bases[OK_REG] = w->regs + (size_t)w->frames[w->fi].row_base * 32;
			lc = (struct line_cache){0};
		}
		in = &code[w->pc];
		ex = w->mask;
		if (in->guard >= 0) {
			uint32_t p = (uint32_t)bases[OK_REG][(size_t)in->guard * 32];

			ex &= in->guard_neg ? ~p : p;
		}
		if (__builtin_expect(in->uchk, 0) && bc->uck)
			simt_uck_exec(bc, w, in, w->mask, ex);
		if (in->flop && in->guard >= 0) {
			/* a guarded one's FLOPs are its lanes' (runs count the
			 * others) */
			uint64_t f = (uint64_t)in->flop * popc(ex);

			tl.flops[in->flop_type < 2 ? in->flop_type : 2] += f;
		}
		if (!ex && in->op != OP_BRA) {
			if (bc->tr && (in->op == OP_LD || in->op == OP_ST ||
				       in->op == OP_ATOM || in->op == OP_CP_ASYNC ||
				       in->op == OP_TENSOR))
				pm_trace_none(bc->tr, w->id, w->pc);
			goto next;
		}
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
#ifdef __x86_64__
			else if (hw_fma() && have_avx2_fma && ex == SIMT_FULL)
				fma32_avx2(D, A, Bv, Cv);
#endif
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
			if (in->form != MF_NONE) {
				if (ex == SIMT_FULL && !simt_counters_on &&
				    ld_shared_line(bc, w, in, bases, &lc, shared_size))
					break;
				line_forget(&lc, R(in->addr));
			}
			if (!simt_exec_ld(bc, w, in, bases, ex))
				goto out;
			break;
		case OP_ST:
			if (!simt_exec_st(bc, w, in, bases, ex))
				goto out;
			break;
		case OP_BRA: {
			uint32_t stay = w->mask & ~ex;

			bc->counts.branches++;
			if (!stay) {
				w->pc = in->target;
				if (w->pc >= w->next_pc) {
					simt_park(w, w->mask, w->pc);
					w->mask = 0;
				}
				continue;
			}
			if (!ex)
				break;
			bc->counts.divergent++;
			simt_park(w, stay, w->pc + 1);
			simt_park(w, ex, in->target);
			w->mask = 0;
			continue;
		}
		default:
			if (left) {
				/* not an op that runs on (op_straight) */
				run_leave(bc, &tl, runs, nxt, left, run_pop, &slice, w);
				left = 0;
			}
			tally_flush(bc, &tl);  /* %clock reads the count */
			r = step_misc(bc, w, in, bases, ex);
			if (r < 0)
				goto out;
			if (r == 0)
				continue;
			if (r == SIMT_MBAR_YIELD) {
				/* a failed mbarrier wait: the others go first */
				simt_park(w, w->mask, w->pc + 1);
				w->rotate_from = w->mask;
				w->mask = 0;
				goto out;
			}
			break;
		}
next:
		seq = ++w->pc;
		if (w->pc >= w->next_pc) {
			simt_park(w, w->mask, w->pc);
			w->mask = 0;
		}
	}
out:
	if (left)
		run_leave(bc, &tl, runs, nxt, left, run_pop, &slice, w);
	tally_flush(bc, &tl);
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
		return simt_exec_atom(bc, w, in, bases, ex) ? 1 : -1;
	case OP_CALL: {
		uint32_t stay = w->mask & ~ex;

		if (stay)
			simt_park(w, stay, w->pc + 1);
		if (!simt_exec_call(bc, w, in, ex, mod->calls[in->target].func))
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
			simt_park(w, stay, w->pc + 1);
		if (ex & ~same)
			simt_park(w, ex & ~same, w->pc);
		if (!simt_exec_call(bc, w, in, same, (uint32_t)idx))
			return -1;
		return 0;
	}
	case OP_RET: {
		uint32_t stay = w->mask & ~ex;

		if (w->frames[w->fi].parent == NO_FRAME) {
			if (stay)
				simt_park(w, stay, w->pc + 1);
			simt_exec_exit(bc, w, ex);
			w->mask = 0;
			return 0;
		}
		if (stay)
			simt_park(w, stay, w->pc + 1);
		simt_exec_ret(w, mod, ex);
		w->mask = 0;
		return 0;
	}
	case OP_EXIT: {
		uint32_t stay = w->mask & ~ex;

		if (stay)
			simt_park(w, stay, w->pc + 1);
		simt_exec_exit(bc, w, ex);
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
			simt_check_aligned_bar(bc, w, in, ex);

		if (stay)
			simt_park(w, stay, w->pc + 1);
		if (!wait) {
			simt_park(w, ex, w->pc + 1);
			if (!simt_bar_arrive(bc, w, in, bases, ex, false))
				return -1;
		} else if (!simt_bar_arrive(bc, w, in, bases, ex, true)) {
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

		if (!simt_warp_sync_ready(mod, w, members))
			return 0;
		ex = w->mask;
		if (in->guard >= 0) {
			uint32_t p = (uint32_t)bases[OK_REG][(size_t)in->guard * 32];

			ex = w->mask & (in->guard_neg ? ~p : p);
		}
		if (bc->hz && M && in->op != OP_TENSOR)
			simt_check_members(bc, w, in, ex, M);
		if (in->op == OP_BAR_WARP) {
			w->synced++;
			if (bc->hz)
				simt_warp_bar_order(bc, mod, w, ex, w->sync_extra);
		}
		w->sync_extra = 0;
		switch (in->op) {
		case OP_SHFL: simt_exec_shfl(bc, w, in, bases, ex); break;
		case OP_VOTE: simt_exec_vote(in, bases, ex, M); break;
		case OP_MATCH: simt_exec_match(in, bases, ex, M); break;
		case OP_REDUX: simt_exec_redux(in, bases, ex, M); break;
		case OP_ELECT: simt_exec_elect(in, bases, ex, M); break;
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
		return simt_exec_cp_async(bc, w, in, bases, ex) ? 1 : -1;
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
		simt_exec_vprintf(bc, w, in, bases, ex);
		return 1;
	case OP_ASSERTFAIL:
		simt_exec_assert(bc, w, in, bases, ex);
		return -1;
	case OP_MALLOC: {
		const uint64_t *S = R(in->o[0]);
		uint64_t *D = R(in->o[5]);

		FOR_LANES(ex, D[l] = simt_heap_alloc(L, S[l]));
		return 1;
	}
	case OP_FREE: {
		const uint64_t *P = R(in->o[0]);

		FOR_LANES(ex, simt_heap_free(L, P[l]));
		return 1;
	}
	case OP_SETCOND: {
		/* concurrent sets race on a GPU; here the lanes set in turn */
		const uint64_t *H = R(in->o[0]);
		const uint64_t *V = R(in->o[1]);
		uint32_t bad = 0;

		FOR_LANES(ex, if (!simt_graph_set_conditional(H[l], (uint32_t)V[l]))
			      bad |= 1u << l);
		if (bad) {
			simt_fault(bc, w, __builtin_ctz(bad), in, cudaErrorIllegalAddress,
				   "cudaGraphSetConditional with %#llx, which is "
				   "not a conditional handle",
				   (unsigned long long)H[__builtin_ctz(bad)]);
			return -1;
		}
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
