/* CUDA arrays and texture objects: the runtime calls live in texture.c
 * beside the interpreter's tex and txq, which decode.c hands over with
 * their operands flattened and exec.c runs lane by lane. */
#ifndef SIMT_TEXTURE_H
#define SIMT_TEXTURE_H

#include "exec/exec.h"

struct ptx_parser;
struct block_ctx;
struct warp;

/* The operands of a tex or txq instruction: destinations (a sink is
 * OK_NONE), the 64-bit texture object, and the coordinates in PTX order
 * (layer first for the array geometries). */
struct simt_tex_operands {
	struct simt_opnd dst[4];
	int ndst;
	struct simt_opnd handle;
	struct simt_opnd coord[4];
	int ncoord;
};

/* Completes the emitted instruction `in` from the instruction text and
 * its operands.  Returns NULL, or why simt cannot run it (static text). */
const char *simt_tex_decode(struct ptx_parser *ps, struct simt_insn *in,
			    const char *op, uint32_t oplen,
			    const struct simt_tex_operands *t);

/* Runs an OP_TEX instruction for the lanes in ex.  Returns false after
 * reporting a fault (an unknown or destroyed texture object, or one whose
 * memory was freed). */
bool simt_tex_exec(struct block_ctx *bc, struct warp *w,
		   const struct simt_insn *in, uint64_t *const *bases,
		   uint32_t ex);

#endif
