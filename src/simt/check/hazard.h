/* Hazard checking (on unless CUDALAB_SIMT_CHECKS=0): data races in shared
 * and global memory by happens-before, barrier misuse, and reads of memory
 * never written.  hazard.c implements it; the interpreter calls in at
 * every memory access and synchronisation, the scheduler at launch and
 * block boundaries.
 *
 * Happens-before is tracked with vector clocks.  Every thread of a launch
 * has a clock that it advances at each release (a barrier, __syncwarp, a
 * fence, a release store); what a thread knows of the others' clocks is
 * an immutable vector over its own block (shared between the threads that
 * synchronised together), a 32 x 32 matrix per warp for what __syncwarp
 * taught lanes of one warp, and a sorted map from other blocks to vectors
 * for what fences and atomics carried across blocks.  Every 4-byte word of
 * shared and global memory remembers its last write and two reads (thread,
 * clock, instruction, bytes), as in FastTrack; an access conflicts with a
 * remembered one its thread does not know about.  The second read is of
 * another thread, made while the first was not ordered before it, so that
 * a write by either reader is still checked against the other.  In global memory a
 * 128-byte line that one warp instruction read or wrote whole remembers
 * it once for its 32 words (see "the line layer" in hazard.c). */
#ifndef SIMT_HAZARD_H
#define SIMT_HAZARD_H

#include "exec/exec.h"

/* One remembered access of a 4-byte granule. */
struct hz_rec {
	uint32_t block;     /* linear block index (low 32 bits) */
	uint32_t clk;       /* the thread's clock at the access */
	uint16_t tid;       /* thread index in the block */
	uint8_t flags;      /* HZR_* */
	uint8_t mask;       /* bytes of the granule accessed */
	uint32_t pc;
};

/* The last write, a read, and a read concurrent with that one (r2, see
 * note_second in hazard.c). */
struct hz_word {
	struct hz_rec w, r, r2;
};

/* Kinds of accesses the interpreter reports.  HZ_WRITE_COLL: a write
 * that several lanes of one store instruction made with the same value
 * (recorded once, for the lowest of them). */
enum { HZ_READ, HZ_WRITE, HZ_ATOMIC, HZ_WRITE_COLL };

/* undef.c: lane `lane` of instruction `in` read register `reg` (its PTX
 * name) before anything was written to it. */
void simt_hz_uninit_reg(struct block_ctx *bc, const struct warp *w,
			unsigned lane, const struct simt_insn *in,
			const char *reg);

/* launch.c */
void simt_hz_launch_begin(struct launch_state *L);
void simt_hz_launch_end(struct launch_state *L);
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
 * else at hazard.c's pool of offsets, row `off`.  Small, so that a long
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
 * full barrier, see hazard.c), whether all of shared memory had been
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
 * (see hazard.c); false when it must go to simt_hz_warp_access. */
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
void simt_hz_never_reached(struct block_ctx *bc, const struct warp *w,
			   const struct simt_insn *in, unsigned lane,
			   uint32_t mask, uint32_t missing);
void simt_hz_shfl_exited(struct block_ctx *bc, const struct warp *w,
			 const struct simt_insn *in, unsigned lane, unsigned src,
			 bool inactive);

/* memory.c: global shadow and initialisation bits of allocations. */
struct hz_word *simt_hz_shadow_new(uint64_t size);
void simt_hz_shadow_free(struct hz_word *sh, uint64_t size);
uint8_t *simt_hz_init_new(uint64_t size);
void simt_hz_init_free(uint8_t *bits, uint64_t size);
void simt_hz_init_set(uint8_t *bits, uint64_t off, uint64_t n);
void simt_hz_init_copy(uint8_t *dst, uint64_t doff, const uint8_t *src,
		       uint64_t soff, uint64_t n);

/* memapi.c, graph.c: a copy or memset issued to a stream's lane, in
 * three steps: begin (host_waits: the call returns only once it is
 * done), each range of memory it reads or writes, end.  It is checked
 * against the work of other streams that is not ordered before it (see
 * order.h), and recorded for later operations unless the host waits for
 * it.  Call with simt_lock held. */
void simt_hz_op_begin(uint32_t lane, bool host_waits, const char *api);
void simt_hz_op_range(const void *p, uint64_t n, bool write);
void simt_hz_op_end(uint32_t lane);

/* hostsync.c: managed and pinned memory the host may not touch until it
 * synchronizes with the work that last wrote (or read) it.  memory.c
 * tracks such allocations (page-aligned, pages of their own) while
 * checks are on; an operation's end says what it touched; order.c says
 * when the host's knowledge grows.  simt_busy is non-zero while simt's
 * API lock is held (simt's own accesses are not the host's). */
extern atomic_int simt_busy;
void simt_hs_track(uint64_t base, uint64_t size);
void simt_hs_forget(uint64_t base);
void simt_hs_op_done(uint32_t lo, uint32_t hi, bool host_waits);
void simt_hs_settle(void);
/* hazard.c, for hostsync.c: whether operations with clocks in (lo, hi]
 * read (1) or wrote (2) the allocation at base; the write or read record
 * of the granule at offset off; a race between the host and operation
 * op (r: its record, r_write: a write). */
int simt_hz_touched(uint64_t base, uint32_t lo, uint32_t hi);
bool simt_hz_granule_rec(uint64_t base, uint64_t off, bool w, struct hz_rec *out);
/* Whether the access recorded in r was strong beyond its block (atomic,
 * volatile, relaxed, acquire or release at GPU or system scope): a flag
 * the host and a kernel hand to each other, which is no race. */
bool simt_hz_rec_strong(const struct hz_rec *r);
struct simt_order_op;
void simt_hz_report_host(const struct simt_order_op *op, const struct hz_rec *r,
			 bool r_write, bool host_write, uint64_t base, uint64_t off);

/* Whether checks are on (CUDALAB_SIMT_CHECKS, read by simt_hz_init at
 * start-up), the schedule seed (CUDALAB_SIMT_SCHEDULE), and the report
 * file and summary written at exit. */
void simt_hz_init(void);
bool simt_hz_enabled(void);
uint32_t simt_hz_schedule(void);
void simt_hazard_report_write(void);

#endif
