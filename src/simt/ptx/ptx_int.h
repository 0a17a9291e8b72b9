/* Parser state shared by the PTX reader (ptx.c, ptx_decl.c, ptx_loc.c,
 * ptx_func.c) and the instruction decoder (decode.c and its families). */
#ifndef SIMT_PTX_INT_H
#define SIMT_PTX_INT_H

#include "ptx/ptx.h"

#include <setjmp.h>

enum { TK_EOF, TK_IDENT, TK_INT, TK_FLOAT, TK_STRING, TK_PUNCT };

struct ptx_tok {
	int kind;
	const char *s;
	uint32_t len;
	uint32_t line;
	char punct;
	uint64_t ival;
	double fval;
	int fbits;         /* 32: 0f literal, 64: 0d literal, 0: decimal */
	uint64_t raw;      /* bits of a 0f/0d literal */
};

struct ptx_lexer {
	const char *p, *end;
	uint32_t line;
	struct ptx_tok cur;
};

/* One declared register name or range %name<count>. */
struct ptx_reg {
	const char *name;
	uint32_t len;
	bool range;
	uint32_t count;
	uint32_t row;
	int type;
};

/* A parameter visible in the current function: its formal parameters,
 * return values and the .param declarations of call sequences. */
struct ptx_pdecl {
	const char *name;
	uint32_t len;
	bool kernel;       /* kernel parameter: offset into the launch buffer */
	uint32_t offset;   /* kernel: byte offset; otherwise frame row */
	uint32_t size;
};

struct ptx_local {
	const char *name;
	uint32_t len;
	uint32_t offset;
	uint32_t size;
};

struct ptx_label {
	const char *name;
	uint32_t len;
	uint32_t pc;
};

struct ptx_fixup {
	uint32_t pc;
	const char *name;
	uint32_t len;
	uint32_t line;
	int kind;          /* 0: branch target, 1: call target, 2: brx table */
};

/* Raw operand as parsed, before the decoder gives it a type. */
enum { RO_NONE, RO_REG, RO_SREG, RO_INT, RO_FLOAT, RO_SYM, RO_VEC, RO_ADDR,
       RO_SINK, RO_LIST };

struct ptx_rop {
	int kind;
	bool neg;          /* '!' before a predicate */
	bool minus;        /* '-' before a register (not valid PTX, rejected) */
	uint32_t row;
	int rtype;         /* declared type of a register */
	int sreg;
	uint64_t ival;
	double fval;
	int fbits;
	uint64_t raw;
	const char *sym;
	uint32_t symlen;
	int64_t off;
	/* RO_VEC / RO_LIST elements; RO_ADDR base in elem[0] */
	struct ptx_rop *elem;
	int nelem;
};

/* Shared-variable references to patch once the module's shared layout is
 * known: an immediate row or an instruction offset. */
struct ptx_shfix {
	bool is_row;
	uint32_t where;    /* const row or pc */
	uint32_t var;
	int func;          /* function making the reference */
};

struct ptx_loc {
	uint32_t file, line, col;
};

/* What one PTX instruction of the function being read does to its
 * registers, for the analysis of reads before writes (undef.c): rows
 * du_row[first...] are nuse rows it reads, then ndef rows it writes; the
 * first nval of the reads are values it copies into what it writes
 * (DU_COPY: all of them; DU_ANY: a lane's copy is written where any of
 * them was, as a pack or a select; DU_XLANE: a shuffle, whose lanes may
 * take another lane's value).  DU_OPAQUE: writes that are not followed,
 * whose registers are then not checked. */
enum { DU_PLAIN, DU_COPY, DU_ANY, DU_XLANE, DU_OPAQUE };
struct ptx_du {
	uint32_t pc;       /* its first decoded instruction; UINT32_MAX: none */
	uint32_t first;
	uint16_t nuse, ndef, nval;
	uint8_t kind;
	int32_t guard;
	const char *gname; /* the guard's name in the text */
	uint32_t glen;
};
struct ptx_durow {
	uint32_t row;
	const char *name;  /* in the PTX text */
	uint32_t len;
};

struct ptx_parser {
	struct simt_module *mod;
	struct ptx_lexer lx;
	jmp_buf fail;
	char *error;
	int fn;            /* index of the function being parsed, or -1 */
	struct ptx_reg *regs;
	int nregs, capregs;
	struct ptx_pdecl *pdecls;
	int npdecls, cappdecls;
	struct ptx_local *locals;
	int nlocals, caplocals;
	struct ptx_label *labels;
	int nlabels, caplabels;
	struct ptx_fixup *fixups;
	int nfixups, capfixups;
	struct ptx_shfix *shfix;
	int nshfix, capshfix;
	uint32_t nrows;    /* rows used by the current function */
	struct ptx_loc locs[16];
	int nlocs;
	uint32_t cur_file, cur_line;
	/* Inline chains of .loc directives: instruction src_line holds a
	 * chain number + 1 until the .file table is known. */
	struct ptx_loc *chain;
	uint32_t nchain, capchain;
	uint32_t *chain_start;
	uint32_t nchains, capchains;
	/* Where each inlined location was last seen inlined (child ->
	 * parent, open addressing), to rebuild a chain whose outer frames
	 * a plain .loc in between made the parser forget. */
	struct ptx_loc (*inl)[2];
	uint32_t inl_cap, inl_n;
	/* const-row dedup table */
	uint64_t *ctab_key;
	uint32_t *ctab_row;
	uint32_t ctab_cap, ctab_n;
	/* scratch for raw operands */
	struct ptx_rop *pool;
	int npool, cappool;
	/* A function's return and parameter lists while they are read: the
	 * parser owns them until the function takes them, so that a syntax
	 * error leaves nothing behind. */
	struct simt_param *plist[2];
	int nplist[2];
	/* .global and .const bytes the module has declared so far */
	uint64_t static_bytes;
	/* the current function's instructions' register uses (undef.c) */
	struct ptx_du *du;
	uint32_t ndu, capdu;
	struct ptx_durow *du_row;
	uint32_t ndu_row, capdu_row;
	const char *guard_name;    /* of the instruction being read */
	uint32_t guard_len;
	int depth;         /* nesting of operands and initializers */
};

/* ---- shared by the reader's files (ptx.c, ptx_decl.c, ptx_loc.c,
 * ptx_func.c) ---- */

/* The current token. */
#define TOK (&ps->lx.cur)

/* Grows arr (n entries used, cap allocated) to take one more. */
#define GROW(arr, n, cap) \
	do { \
		if ((n) >= (cap)) { \
			(cap) = (cap) ? (cap) * 2 : 16; \
			(arr) = simt_xrealloc((arr), (size_t)(cap) * sizeof *(arr)); \
		} \
	} while (0)

/* A variable or parameter declaration as read (ptx_parse_vdecl). */
struct vdecl {
	int space;
	uint32_t align;
	int type;
	int vec;
	const char *name;
	uint32_t len;
	uint64_t count;    /* elements; 0 for [] */
	bool unsized;
	bool is_extern;
	bool managed;
	uint32_t line;
};

/* ptx.c: tokens (ptx_next moves on; ptx_is_punct, _is_word test the
 * current token; the expect_ functions read one or fail; the skip_
 * functions pass a statement or a block), names, registers, the nesting
 * of operands, and one instruction. */
void ptx_next(struct ptx_parser *ps);
bool ptx_is_punct(struct ptx_parser *ps, char c);
bool ptx_is_word(struct ptx_parser *ps, const char *w);
void ptx_expect_punct(struct ptx_parser *ps, char c);
uint64_t ptx_expect_int(struct ptx_parser *ps);
void ptx_skip_to_semicolon(struct ptx_parser *ps);
void ptx_skip_block(struct ptx_parser *ps);
int ptx_expect_type(struct ptx_parser *ps);
bool ptx_name_eq(const char *a, uint32_t alen, const char *b, uint32_t blen);
bool ptx_find_reg(struct ptx_parser *ps, const char *s, uint32_t len,
		  uint32_t *row, int *type);
void ptx_nest_in(struct ptx_parser *ps);
void ptx_parse_instruction(struct ptx_parser *ps, int guard, bool gneg);

/* ptx_decl.c: register, variable, local and parameter declarations. */
void ptx_parse_reg_decl(struct ptx_parser *ps);
void ptx_parse_vdecl(struct ptx_parser *ps, struct vdecl *d);
uint64_t ptx_vdecl_size(const struct vdecl *d);
void ptx_parse_module_var(struct ptx_parser *ps, int space, bool is_extern);
void ptx_parse_local_decl(struct ptx_parser *ps);
void ptx_add_pdecl(struct ptx_parser *ps, const char *name, uint32_t len,
		   bool kernel, uint32_t offset, uint32_t size);
void ptx_parse_param_decl(struct ptx_parser *ps);

/* ptx_loc.c: .file and .loc. */
void ptx_parse_file(struct ptx_parser *ps);
void ptx_parse_loc(struct ptx_parser *ps);

_Noreturn void ptx_fail(struct ptx_parser *ps, uint32_t line, const char *fmt,
			...) __attribute__((format(printf, 3, 4)));
void ptx_lex_next(struct ptx_lexer *lx);
/* ptx_summary.c: the module's summaries, computed after parsing. */
void ptx_finish(struct ptx_parser *ps);

/* undef.c: reads of registers before any write, found in function fi
 * once it is read (its rows, labels and du records complete), become
 * checks the interpreter makes (ptx/ptx.h, struct simt_uck). */
void ptx_du_note(struct ptx_parser *ps, const char *op, uint32_t oplen,
		 const struct ptx_rop *ops, int nops, int guard, uint32_t first);
void ptx_undef_analyze(struct ptx_parser *ps, int fi);

/* decode_tensor.c: tensor-core instructions.  decode.c hands over the
 * flattened operands. */
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

/* decode_tex.c: texture and surface instructions.  decode.c hands over
 * the flattened operands. */
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

/* pick.c: gives a decoded OP_CVT or OP_IALU instruction the op of its
 * typed form (SIMT_TYPED_OPS), when there is one; others are left as
 * they are. */
void simt_typed_pick(struct simt_insn *in);

/* decode.c */
void ptx_decode(struct ptx_parser *ps, const char *op, uint32_t oplen,
		struct ptx_rop *ops, int nops, int guard, bool guard_neg,
		uint32_t line);
uint32_t ptx_const_row(struct ptx_parser *ps, uint64_t v);
uint32_t ptx_fresh_row(struct ptx_parser *ps, uint64_t v);
struct simt_insn *ptx_emit(struct ptx_parser *ps, uint32_t line);
int ptx_find_pdecl(struct ptx_parser *ps, const char *name, uint32_t len);
int ptx_find_local(struct ptx_parser *ps, const char *name, uint32_t len);
int ptx_find_var(struct ptx_parser *ps, const char *name, uint32_t len);
int ptx_find_func(struct ptx_parser *ps, const char *name, uint32_t len);
int ptx_parse_type(const char *s, uint32_t len);

#endif
