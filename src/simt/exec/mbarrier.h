/* Shared-memory mbarrier objects (mbarrier.*, cp.async.mbarrier.arrive):
 * the kinds of OP_MBAR the decoder produces and the interpreter and block
 * scheduler entry points, implemented in mbarrier.c. */
#ifndef SIMT_MBARRIER_H
#define SIMT_MBARRIER_H

#include "exec/exec.h"

/* in->sub of OP_MBAR.  Operands: the object's address is the memory
 * operand; o[0] the destination (state, predicate or count), o[1] the
 * source (count, state or phase parity). */
enum {
	MB_INIT,         /* mbarrier.init [a], count */
	MB_INVAL,        /* mbarrier.inval [a] */
	MB_ARRIVE,       /* mbarrier.arrive state, [a] {, count} */
	MB_ARRIVE_DROP,  /* mbarrier.arrive_drop state, [a] {, count} */
	MB_TEST_WAIT,    /* mbarrier.test_wait / try_wait p, [a], state */
	MB_TEST_PARITY,  /* the same with .parity: p, [a], parity */
	MB_PENDING,      /* mbarrier.pending_count count, state */
	/* the cp.async kinds come last: they have no other operand */
	MB_CP_ARRIVE,    /* cp.async.mbarrier.arrive [a] */
	MB_CP_NOINC,     /* cp.async.mbarrier.arrive.noinc [a] */
};

/* in->sub2 bits of OP_MBAR. */
enum {
	MBF_NOCOMPLETE = 1,   /* .noComplete: the arrive must not end the phase */
	MBF_COUNT = 2,        /* an explicit count operand in o[1] */
};

/* What step_misc returns for a wait that found its phase incomplete: the
 * group has gone past the instruction and the warp's turn ends. */
#define SIMT_MBAR_YIELD 2

/* Runs one OP_MBAR for the lanes `ex` of the group.  Returns 1 to go on,
 * SIMT_MBAR_YIELD after a wait that failed in some lane, -1 after a
 * fault. */
int simt_mbar_exec(struct block_ctx *bc, struct warp *w,
		   const struct simt_insn *in, uint64_t *const *bases,
		   uint32_t ex);

/* Called by the block scheduler after each round over the warps.  `idle`
 * says that in this round no warp did anything but fail mbarrier waits
 * (or stay blocked).  Returns true once that has lasted long enough that
 * no phase can complete any more: the block is deadlocked. */
bool simt_mbar_stalled(struct block_ctx *bc, bool idle);

/* Appends to a deadlock report the threads polling mbarrier objects. */
void simt_mbar_describe(struct block_ctx *bc, struct simt_buf *b);

#endif
