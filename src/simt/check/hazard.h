/* Hazard checking (on unless CUDALAB_SIMT_CHECKS=0): data races in shared
 * and global memory by happens-before, barrier misuse, and reads of memory
 * never written.  The files of check/ implement it (hz_int.h is what they
 * share); the interpreter calls in at every memory access and
 * synchronisation, the scheduler at launch and block boundaries, through
 * exec/hooks.h.
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
 * it once for its 32 words (see "the line layer" in access.c). */
#ifndef SIMT_HAZARD_H
#define SIMT_HAZARD_H

#include "exec/exec.h"
#include "exec/hooks.h"

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
 * note_second in access.c). */
struct hz_word {
	struct hz_rec w, r, r2;
};

/* undef.c: lane `lane` of instruction `in` read register `reg` (its PTX
 * name) before anything was written to it. */
void simt_hz_uninit_reg(struct block_ctx *bc, const struct warp *w,
			unsigned lane, const struct simt_insn *in,
			const char *reg);

/* runtime/launch.c: a launch begins and ends (the clocks of its threads,
 * its place in the stream order). */
void simt_hz_launch_begin(struct launch_state *L);
void simt_hz_launch_end(struct launch_state *L);

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
/* stream.c, for hostsync.c: whether operations with clocks in (lo, hi]
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
 * start-up, which is told the number of devices), the schedule seed
 * (CUDALAB_SIMT_SCHEDULE), and the report file and summary written at
 * exit. */
void simt_hz_init(int devices);
bool simt_hz_enabled(void);
uint32_t simt_hz_schedule(void);
void simt_hazard_report_write(void);

#endif
