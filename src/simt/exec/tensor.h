/* Warp-level matrix instructions (tensor cores): wmma.load/mma/store,
 * mma.sync, ldmatrix, movmatrix, and cvt to tf32, decoded by
 * ptx/decode_tensor.c; exec.c runs the decoded instruction once every
 * lane of the warp has arrived. */
#ifndef SIMT_TENSOR_H
#define SIMT_TENSOR_H

#include "exec/exec.h"

/* Runs an OP_TENSOR instruction for the whole warp, writing the
 * destinations of the lanes in `ex`.  Returns false after a fault. */
bool simt_tensor_exec(struct block_ctx *bc, struct warp *w,
		      const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex);

/* Runs an OP_TENSOR_LANE instruction (cvt to tf32) for the lanes in ex. */
void simt_tensor_lane(const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex);

#endif
