/* Warp-level matrix instructions (tensor cores): wmma.load/mma/store,
 * mma.sync, ldmatrix, movmatrix, and cvt to tf32.  decode.c hands over
 * the flattened operands, exec.c runs the decoded instruction once every
 * lane of the warp has arrived. */
#ifndef SIMT_TENSOR_H
#define SIMT_TENSOR_H

#include "exec/exec.h"

struct ptx_parser;
struct block_ctx;
struct warp;

#define SIMT_TENSOR_MAXOPS 64
#define SIMT_TENSOR_MAXGROUPS 8

/* The register and immediate operands of one instruction in PTX order,
 * the elements of a {...} vector one by one.  len[g] is the number of
 * elements of PTX operand g: 1 for a scalar, 0 for the memory operand
 * (already resolved into the instruction). */
struct simt_tensor_operands {
	struct simt_opnd o[SIMT_TENSOR_MAXOPS];
	uint8_t len[SIMT_TENSOR_MAXGROUPS];
	int ngroups;
	int n;
};

/* Completes `in` (emitted, memory operand and space filled in) from the
 * instruction text `op` and its operands.  Returns NULL, or why simt
 * cannot run the instruction (static text). */
const char *simt_tensor_decode(struct ptx_parser *ps, struct simt_insn *in,
			       const char *op, uint32_t oplen,
			       const struct simt_tensor_operands *t);

/* Runs an OP_TENSOR instruction for the whole warp, writing the
 * destinations of the lanes in `ex`.  Returns false after a fault. */
bool simt_tensor_exec(struct block_ctx *bc, struct warp *w,
		      const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex);

/* Runs an OP_TENSOR_LANE instruction (cvt to tf32) for the lanes in ex. */
void simt_tensor_lane(const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex);

#endif
