/* What the decoder's files share (decode.c and the families it hands
 * instructions to): the instruction being decoded with its modifiers
 * split, the helpers that read modifiers, emit instructions and resolve
 * operands, and the decoders of each family that the mnemonic table in
 * decode.c points at. */
#ifndef SIMT_DECODE_H
#define SIMT_DECODE_H

#include "ptx/ptx_int.h"

#define MAXMODS 16

struct mods {
	const char *s[MAXMODS];
	uint32_t len[MAXMODS];
	int n;
	int types[4];
	int ntypes;
	int space;
	int rnd;
	int vec;
};

struct dctx {
	struct ptx_parser *ps;
	const char *op;
	uint32_t oplen;
	struct ptx_rop *ops;
	int nops;
	int guard;
	bool guard_neg;
	uint32_t line;
	struct mods m;
};

/* decode.c: the modifiers (dec_has: one of them is w; dec_which: the
 * index of the first among words, or -1; dec_base_is: the mnemonic is
 * w), the instruction emitted for d, or marked as one simt cannot run
 * (with why, or because of its operands). */
bool dec_has(const struct dctx *d, const char *w);
int dec_which(const struct dctx *d, const char *const *words);
bool dec_base_is(const struct dctx *d, const char *w);
struct simt_insn *dec_emit(struct dctx *d);
void dec_unsupported(struct dctx *d, const char *why);
void dec_bad_operands(struct dctx *d);

/* decode.c: operands.  dec_src resolves a source of the given type,
 * dec_dst a destination, dec_pred a predicate, dec_srcs n sources into
 * in->o[first..] from operand `from`; each false when it cannot.
 * dec_symbol_value gives the value of a symbol operand (a variable's
 * address, a function's), dec_add_shfix patches a shared variable's
 * offset in once the layout is known, dec_last_type is the last type
 * modifier, and dec_wrap_add adds as addresses do (modulo 2^64). */
int64_t dec_wrap_add(int64_t a, uint64_t b);
void dec_add_shfix(struct ptx_parser *ps, bool is_row, uint32_t where,
		   int var);
bool dec_symbol_value(struct dctx *d, const struct ptx_rop *r,
		      struct simt_opnd *o);
bool dec_src(struct dctx *d, const struct ptx_rop *r, int type,
	     struct simt_opnd *o);
bool dec_dst(const struct ptx_rop *r, struct simt_opnd *o);
bool dec_pred(const struct ptx_rop *r, struct simt_opnd *o);
bool dec_srcs(struct dctx *d, struct simt_insn *in, int first, int from,
	      int n, int type);
int dec_last_type(const struct dctx *d);

/* decode_alu.c: arithmetic, comparisons, moves and conversions. */
void dec_addsub(struct dctx *d, bool sub);
void dec_mul(struct dctx *d);
void dec_mad(struct dctx *d);
void dec_fma(struct dctx *d);
void dec_generic(struct dctx *d, int isub, int fsub, int nsrc);
void dec_minmax(struct dctx *d, bool max);
void dec_absneg(struct dctx *d, bool neg);
void dec_logic(struct dctx *d, int sub);
void dec_shift(struct dctx *d, bool left);
void dec_ialu_misc(struct dctx *d);
void dec_falu1(struct dctx *d, int sub);
void dec_div(struct dctx *d);
void dec_testp(struct dctx *d);
void dec_setp(struct dctx *d);
void dec_set(struct dctx *d);
void dec_selp(struct dctx *d);
void dec_slct(struct dctx *d);
void dec_mov(struct dctx *d);
void dec_cvt(struct dctx *d);
void dec_cvta(struct dctx *d);
void dec_isspacep(struct dctx *d);

/* decode_mem.c: loads, stores, atomics, mbarrier objects and cp.async;
 * dec_mem_addr resolves the memory operand r into in (addressing mode,
 * base and offset), false when it cannot. */
bool dec_mem_addr(struct dctx *d, struct simt_insn *in,
		  const struct ptx_rop *r);
void dec_ldst(struct dctx *d, bool store);
void dec_atom(struct dctx *d, bool red);
void dec_mbarrier(struct dctx *d, bool cp);
void dec_cp_async(struct dctx *d);

/* decode_flow.c: branches, calls, barriers and warp-level operations. */
void dec_bra(struct dctx *d);
void dec_call(struct dctx *d);
void dec_bar(struct dctx *d);
void dec_shfl(struct dctx *d);
void dec_vote(struct dctx *d);
void dec_match(struct dctx *d);
void dec_redux(struct dctx *d);
void dec_simple(struct dctx *d, int op, int ndst, bool pred_dst);

/* decode_tensor.c, decode_tex.c: the operands flattened for the
 * tensor-core and texture decoders. */
void dec_tensor(struct dctx *d);
void dec_tex(struct dctx *d);

#endif
