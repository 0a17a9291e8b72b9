/* Typed forms of cvt, integer arithmetic and comparisons (typed.c). */
#ifndef SIMT_TYPED_H
#define SIMT_TYPED_H

#include "exec/exec.h"

/* Runs a typed form (an op of SIMT_TYPED_OPS) for the lanes in ex. */
void simt_typed_exec(const struct simt_insn *in, uint64_t *const *bases,
		     uint32_t ex);
/* The lanes of ex for which in's comparison (in->sub, of type in->type,
 * .ftz in in->flags) holds between rows A and Bv, as simt_compare says. */
uint32_t simt_compare_lanes(const struct simt_insn *in, const uint64_t *A,
			    const uint64_t *Bv, uint32_t ex);

#endif
