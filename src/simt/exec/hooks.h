/* The hooks: the one interface through which the interpreter tells a
 * checker what happened, declared here and implemented in check/.  exec
 * includes nothing of check/: every memory access, barrier, fence,
 * asynchronous copy, warp-synchronous instruction and exit that the
 * hazard checks need is a call below.  The interpreter makes the calls
 * of instructions only while checks are on (bc->hz non-NULL), so a launch
 * without checks pays a test of that pointer; the scheduler's calls at
 * contexts and blocks are made always, and return at once when checks
 * are off.  The usual shared-memory read in a quiet interval is logged
 * inline (simt_hz_log_line), through the small part of the checker's
 * per-block state that this header lays out. */
#ifndef SIMT_HOOKS_H
#define SIMT_HOOKS_H

#include "exec/exec.h"

/* Kinds of accesses the interpreter reports.  HZ_WRITE_COLL: a write
 * that several lanes of one store instruction made with the same value
 * (recorded once, for the lowest of them). */
enum { HZ_READ, HZ_WRITE, HZ_ATOMIC, HZ_WRITE_COLL };

/* sched.c: a worker's context is prepared for a launch, a block begins
 * and ends in it. */
void simt_hz_ctx_prepare(struct block_ctx *bc);
void simt_hz_block_begin(struct block_ctx *bc);
void simt_hz_block_end(struct block_ctx *bc);

/* exec.c: one lane's access of n bytes at host pointer p (in shared or
 * global memory; anything else is ignored).  For writes, `val` holds the
 * n bytes about to be stored (a write of the value already there never
 * races).  Loads are reported after they read, stores and atomics before
 * they write; an atomic reports again after (simt_hz_atomic_done) for its
 * acquire side. */
void simt_hz_access(struct block_ctx *bc, const struct warp *w, unsigned lane,
		    const struct simt_insn *in, uint8_t *p, uint32_t n,
		    int kind, const uint8_t *val);
/* The same for the lanes `lanes` of one instruction, each at ptr[lane];
 * val[lane] holds a write's bytes; lanes in `coll` wrote for several lanes
 * with one value (as HZ_WRITE_COLL).  step >= 0 says that the lanes (a
 * whole warp) lie in a line, ptr[l] == ptr[0] + l * step; -1: unknown. */
void simt_hz_warp_access(struct block_ctx *bc, const struct warp *w,
			 const struct simt_insn *in, uint32_t lanes,
			 uint8_t *const *ptr, uint32_t n, int kind,
			 const uint8_t (*val)[32], uint32_t coll, int step);
/* A logged warp read of shared memory in a quiet interval: lane l of
 * `lanes` read n bytes at off + l * step when `lined` (a whole warp),
 * else at the checker's pool of offsets, row `off`.  Small, so that a long
 * stretch of reads stays in the cache. */
struct hz_slog {
	uint32_t pc, lanes;
	uint16_t warp;
	uint8_t n;
	bool lined;
	uint32_t step;
	uint32_t off;
};

#define SLOG_MAX 4096

/* The start of a block's hazard state (bc->hz points at it): whether the
 * block is in a quiet interval (no thread's knowledge changes but by a
 * full barrier, see check/access.c), whether all of shared memory had been
 * written when it began, and the reads logged in it.  The interpreter
 * loop logs the usual shared read inline (simt_hz_log_line). */
struct hz_quiet {
	bool on;
	bool all_init;
	uint32_t n;
	struct hz_slog *log;
};

/* Appends the record of a whole warp's read in a line (room checked). */
static inline void simt_hz_log_put_line(struct hz_quiet *q, uint32_t pc,
					uint32_t warp, uint32_t n,
					uint32_t step, uint32_t off)
{
	q->log[q->n++] = (struct hz_slog){
		.pc = pc, .lanes = UINT32_MAX, .warp = (uint16_t)warp,
		.n = (uint8_t)n, .lined = true, .step = step, .off = off,
	};
}

/* Logs a plain 4-, 8- or 16-byte read by a whole warp whose lanes lie in
 * a line inside shared memory, aligned, at offset off from lane 0 by step
 * (0 or n), when the block is in a quiet interval and every byte is known
 * written: the cheap case of simt_hz_quiet_line.  False when that must
 * be asked. */
static inline bool simt_hz_log_line(struct block_ctx *bc,
				    const struct warp *w,
				    const struct simt_insn *in, uint32_t off,
				    uint32_t n, uint32_t step)
{
	struct hz_quiet *q = (struct hz_quiet *)(void *)bc->hz;

	if (!q->on || !q->all_init || q->n == SLOG_MAX ||
	    (in->sem & (MSEM_STRONG | MSEM_CTA)))
		return false;
	simt_hz_log_put_line(q, (uint32_t)(in - bc->L->mod->code), w->id, n,
			     step, off);
	return true;
}

/* A plain read by a whole warp whose lanes lie in a line (lane l at
 * p0 + l * step), logged cheaply when the block is in a quiet interval
 * (see check/access.c); false when it must go to simt_hz_warp_access. */
bool simt_hz_quiet_line(struct block_ctx *bc, const struct warp *w,
			const struct simt_insn *in, uint8_t *p0, uint32_t n,
			uint32_t step);
/* The cheap check of a plain store whose lanes write distinct places
 * (line: a whole warp's rising run, ptr[l] == ptr[0] + l * n):
 * the lanes it could not settle are returned (0: all checked and
 * recorded), for simt_hz_warp_access with their values. */
uint32_t simt_hz_write_fast(struct block_ctx *bc, const struct warp *w,
			    const struct simt_insn *in, uint32_t lanes,
			    uint8_t *const *ptr, uint32_t n, bool line);
void simt_hz_atomic_done(struct block_ctx *bc, const struct warp *w,
			 unsigned lane, const struct simt_insn *in, uint8_t *p);
/* Lanes `first` and `other` of one store instruction write different
 * values to the same address p. */
void simt_hz_same_address(struct block_ctx *bc, const struct warp *w,
			  const struct simt_insn *in, unsigned first,
			  unsigned other, uint8_t *p);

/* cp.async: one lane's copy into shared memory at offset `off` (the
 * source has been checked as a read); commit_group; wait_group N
 * (all = wait_all). */
void simt_hz_async_copy(struct block_ctx *bc, const struct warp *w,
			unsigned lane, const struct simt_insn *in,
			uint32_t off, uint32_t n);
void simt_hz_async_commit(struct block_ctx *bc, const struct warp *w,
			  uint32_t lanes);
void simt_hz_async_wait(struct block_ctx *bc, const struct warp *w,
			uint32_t lanes, uint32_t n, bool all);

/* Synchronisation. */
void simt_hz_fence(struct block_ctx *bc, const struct warp *w, uint32_t lanes,
		   const struct simt_insn *in);
void simt_hz_bar_arrive(struct block_ctx *bc, const struct warp *w,
			uint32_t lanes, uint32_t id, bool wait);
/* Called when barrier id releases, before the waiters' masks clear. */
void simt_hz_bar_release(struct block_ctx *bc, uint32_t id);
void simt_hz_warp_sync(struct block_ctx *bc, const struct warp *w,
		       uint32_t lanes);
void simt_hz_exit(struct block_ctx *bc, const struct warp *w, uint32_t lanes);
void simt_hz_mbar_init(struct block_ctx *bc, uint32_t off);
void simt_hz_mbar_arrive(struct block_ctx *bc, const struct warp *w,
			 unsigned lane, uint32_t off, bool completed,
			 unsigned parity);
void simt_hz_mbar_wait(struct block_ctx *bc, const struct warp *w,
		       unsigned lane, uint32_t off, unsigned parity);
/* cp.async.mbarrier.arrive: the thread's copies so far are done. */
void simt_hz_async_done(struct block_ctx *bc, const struct warp *w,
			unsigned lane);

/* Barrier misuse. */
/* An aligned barrier `in` reached by lanes `arriving` of warp w, not by
 * lanes `others`, which are at instruction other_pc, or skipped it
 * (UINT32_MAX), or exited (UINT32_MAX - 1). */
void simt_hz_divergent_bar(struct block_ctx *bc, const struct warp *w,
			   const struct simt_insn *in, uint32_t arriving,
			   uint32_t others, uint32_t other_pc);
void simt_hz_not_member(struct block_ctx *bc, const struct warp *w,
			const struct simt_insn *in, unsigned lane,
			uint32_t mask);
void simt_hz_shfl_exited(struct block_ctx *bc, const struct warp *w,
			 const struct simt_insn *in, unsigned lane, unsigned src,
			 bool inactive);

/* The checks of reads of registers before any write (uninit_reg.c, made
 * at load by ptx/undef.c).  prepare: at the start of a launch in a
 * context; frame: a frame of function f at row_base starts for `lanes`;
 * exec: instruction `in` (uchk set) runs for `ex` of the group `group`. */
void simt_uck_prepare(struct block_ctx *bc);
void simt_uck_frame(struct warp *w, const struct simt_func *f,
		    uint32_t row_base, uint32_t lanes);
void simt_uck_exec(struct block_ctx *bc, struct warp *w,
		   const struct simt_insn *in, uint32_t group, uint32_t ex);

#endif
