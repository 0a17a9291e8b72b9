/* Shared-memory mbarrier objects (mbarrier.*, cp.async.mbarrier.arrive):
 * the interpreter and block scheduler entry points, implemented in
 * mbarrier.c (the kinds of OP_MBAR the decoder produces are in
 * ptx/ptx.h). */
#ifndef SIMT_MBARRIER_H
#define SIMT_MBARRIER_H

#include "exec/exec.h"

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
