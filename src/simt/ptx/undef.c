/* Reads of registers before anything was written to them.
 *
 * `float acc; for (...) acc += x[i];` compiles to PTX that adds to a
 * register no instruction has written: on a GPU it holds whatever the
 * hardware register held before (often a value of another warp or
 * kernel), in simt it would hold zero or the previous block's value, and
 * the kernel would pass by luck.  These checks find such reads exactly,
 * at little cost:
 *
 * 1. When a function has been read, a must-be-written analysis over its
 *    control-flow graph (a row is written at a point when every path from
 *    the function's start writes it) finds the reads of rows that may not
 *    have been written.  In correct code there are none, and nothing
 *    else happens.
 * 2. Those rows (the candidates) are followed while the kernel runs
 *    (check/uninit_reg.c):
 *    each warp keeps, per candidate row of each frame, the lanes that
 *    have written it.  Only the instructions that read a candidate where
 *    it may be unwritten, or write a candidate, carry a check
 *    (simt_insn.uchk, struct simt_uck); a lane that reads an unwritten
 *    candidate is reported with the instruction's source line.
 *
 * The registers an instruction reads and writes come from its PTX text:
 * the first operand (and one after '|') is written, except by stores,
 * barriers, branches and calls; every other register operand is read.
 * A move passes its source's state on instead of being reported (phi
 * copies, and packs of vector parts some of which are unused); an
 * instruction simt does not know, or one that decodes to nothing, makes
 * its registers exempt from checking, so a gap here can hide a read but
 * never invent one. */
#include "ptx/ptx_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- what an instruction reads and writes ---- */

/* Mnemonics whose first operand (and one after '|') is written and
 * whose other register operands are read; a first operand that is an
 * address ([...]) makes it a store, which writes no register. */
static const char *const plain_ops[] = {
	"abs", "activemask", "add", "addc", "alloca", "and", "atom", "bfe",
	"bfi", "bfind", "bmsk", "brev", "clz", "cnot", "copysign", "cos",
	"cp", "createpolicy", "cvt", "cvta", "discard", "div", "dp2a", "dp4a",
	"elect", "ex2", "fma", "fns", "getctarank", "isspacep", "istypep",
	"ld", "ldmatrix", "ldu", "lg2", "lop3", "mad", "mad24", "madc", "mapa",
	"match", "max", "mbarrier", "min", "mma", "movmatrix", "mul", "mul24",
	"neg", "not", "or", "popc", "prefetch", "prefetchu", "prmt", "rcp",
	"red", "redux", "rem", "rsqrt", "sad", "selp", "set", "setp", "shf",
	"shfl", "shl", "shr", "sin", "slct", "sqrt", "st", "stacksave",
	"stmatrix", "sub", "subc", "suld", "sust", "szext", "tanh", "testp",
	"tex", "txq", "vote", "wmma", "xor",
};

/* Mnemonics that write no register at all: every register operand is
 * read (a call's indirect target; bar.red, which writes, is handled
 * apart). */
static const char *const read_ops[] = {
	"bar", "barrier", "bra", "brkpt", "call", "exit", "fence",
	"griddepcontrol", "membar", "nanosleep", "pmevent", "ret",
	"setmaxnreg", "stackrestore", "trap",
};

static bool in_list(const char *const *list, size_t n, const char *s,
		    uint32_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
			return true;
	return false;
}

static void add_row(struct ptx_parser *ps, const struct ptx_rop *r)
{
	struct ptx_durow *d;

	if (ps->ndu_row == ps->capdu_row) {
		ps->capdu_row = ps->capdu_row ? ps->capdu_row * 2 : 64;
		ps->du_row = simt_xrealloc(ps->du_row,
					   ps->capdu_row * sizeof *ps->du_row);
	}
	d = &ps->du_row[ps->ndu_row++];
	d->row = r->row;
	d->name = r->sym;
	d->len = r->symlen;
}

/* The registers of operand r and of everything inside it. */
static uint32_t add_regs(struct ptx_parser *ps, const struct ptx_rop *r)
{
	uint32_t n = 0;
	int i;

	if (r->kind == RO_REG) {
		add_row(ps, r);
		return 1;
	}
	if (r->kind == RO_VEC || r->kind == RO_LIST || r->kind == RO_ADDR)
		for (i = 0; i < r->nelem; i++)
			n += add_regs(ps, &r->elem[i]);
	return n;
}

/* Whether operand r is a register or a vector of registers only. */
static bool all_regs(const struct ptx_rop *r)
{
	int i;

	if (r->kind == RO_REG)
		return true;
	if (r->kind != RO_VEC)
		return false;
	for (i = 0; i < r->nelem; i++)
		if (r->elem[i].kind != RO_REG)
			return false;
	return true;
}

static bool has_mod(const char *op, uint32_t len, const char *w)
{
	size_t n = strlen(w);
	uint32_t i;

	for (i = 0; i + n < len; i++)
		if (op[i] == '.' && memcmp(op + i + 1, w, n) == 0 &&
		    (i + 1 + n == len || op[i + 1 + n] == '.'))
			return true;
	return false;
}

/* Stores: their first operand is the address; the values they store
 * are copied, not used, so a value never written is not reported there
 * (a padded vector written out whole keeps unused lanes). */
static const char *const store_ops[] = { "st", "stmatrix", "sust", "wmma" };

void ptx_du_note(struct ptx_parser *ps, const char *op, uint32_t oplen,
		 const struct ptx_rop *ops, int nops, int guard, uint32_t first)
{
	struct ptx_du *u;
	uint32_t base = 0, i, k, nuse = 0, ndef = 0, nval = 0, start;
	bool writes = false, store = false;
	int kind = DU_PLAIN, val_op = -1, val_end = -1;

	while (base < oplen && op[base] != '.')
		base++;
	if (base == 3 && memcmp(op, "mov", 3) == 0) {
		writes = true;
		kind = nops > 1 && ops[1].kind == RO_VEC ? DU_ANY : DU_COPY;
		val_op = 1;
		val_end = nops;
	} else if (in_list(plain_ops, sizeof plain_ops / sizeof *plain_ops, op, base)) {
		writes = nops > 0 && ops[0].kind != RO_ADDR;
		store = !writes && in_list(store_ops, sizeof store_ops / sizeof *store_ops,
					   op, base);
		if (writes && ((base == 4 && memcmp(op, "selp", 4) == 0) ||
			       (base == 4 && memcmp(op, "slct", 4) == 0))) {
			kind = DU_ANY;  /* d, a, b, c: a or b, chosen by c */
			val_op = 1;
			val_end = 3;
		} else if (writes && base == 4 && memcmp(op, "shfl", 4) == 0) {
			kind = DU_XLANE;  /* d[|p], a, b, c, mask: a moves */
			val_op = nops > 1 && ops[1].minus ? 2 : 1;
			val_end = val_op + 1;
		}
	} else if (in_list(read_ops, sizeof read_ops / sizeof *read_ops, op, base)) {
		/* bar.red and barrier.red write their first operand */
		writes = memcmp(op, "bar", 3) == 0 && has_mod(op, oplen, "red");
	} else {
		kind = DU_OPAQUE;
	}
	if (ps->mod->ncode == first)
		kind = DU_OPAQUE;       /* decoded to nothing */
	if (kind == DU_ANY) {
		/* a constant among the values: every lane may take it, so
		 * what it writes is written, and the values go unchecked */
		for (i = (uint32_t)val_op; i < (uint32_t)val_end && i < (uint32_t)nops; i++)
			if (!all_regs(&ops[i]))
				kind = DU_PLAIN;
	}
	start = ps->ndu_row;
	/* values first, then the other reads, then writes */
	if (kind != DU_OPAQUE && kind != DU_PLAIN && val_op >= 0)
		for (i = (uint32_t)val_op; i < (uint32_t)val_end && i < (uint32_t)nops; i++)
			nval += add_regs(ps, &ops[i]);
	nuse = nval;
	for (i = 0; i < (uint32_t)nops && kind != DU_OPAQUE; i++) {
		bool w = writes && (i == 0 || (i == 1 && ops[1].minus));

		if (!w && !((int)i >= val_op && (int)i < val_end) && !(store && i > 0))
			nuse += add_regs(ps, &ops[i]);
	}
	for (i = 0; i < (uint32_t)nops; i++) {
		bool w = writes && (i == 0 || (i == 1 && ops[1].minus));

		if (kind == DU_OPAQUE || w)
			ndef += add_regs(ps, &ops[i]);
	}
	if (nuse + ndef == 0 && guard < 0)
		return;
	if (nuse > UINT16_MAX || ndef > UINT16_MAX) {
		/* far more than any instruction names: forget it */
		ps->ndu_row = start;
		return;
	}
	if (ps->ndu == ps->capdu) {
		ps->capdu = ps->capdu ? ps->capdu * 2 : 64;
		ps->du = simt_xrealloc(ps->du, ps->capdu * sizeof *ps->du);
	}
	u = &ps->du[ps->ndu++];
	u->pc = ps->mod->ncode == first ? UINT32_MAX : first;
	u->first = start;
	u->nuse = (uint16_t)nuse;
	u->ndef = (uint16_t)ndef;
	u->nval = (uint16_t)nval;
	u->kind = (uint8_t)kind;
	u->guard = guard;
	u->gname = guard >= 0 ? ps->guard_name : NULL;
	u->glen = guard >= 0 ? ps->guard_len : 0;
	for (k = 0; k < nuse + ndef; k++)
		if (ps->du_row[start + k].row >= ps->nrows)
			u->kind = DU_OPAQUE;    /* not a row of this function */
}

/* ---- the analysis ---- */

static inline bool bit(const uint64_t *s, uint32_t r)
{
	return s[r >> 6] >> (r & 63) & 1;
}

static inline void bit_set(uint64_t *s, uint32_t r)
{
	s[r >> 6] |= 1ull << (r & 63);
}

static inline void bit_clear(uint64_t *s, uint32_t r)
{
	s[r >> 6] &= ~(1ull << (r & 63));
}

/* The rows instruction u names (NULL when it names none and the
 * function none before it). */
static const struct ptx_durow *du_rows(const struct ptx_parser *ps,
				       const struct ptx_du *u)
{
	return ps->du_row ? ps->du_row + u->first : NULL;
}

/* The rows written after instruction u, from those written before (S):
 * its writes when it is not guarded; a copy's only as far as its values
 * were written (a copy of what may be unwritten may be unwritten). */
static void apply(const struct ptx_parser *ps, const struct ptx_du *u,
		  uint64_t *S)
{
	const struct ptx_durow *use = du_rows(ps, u);
	const struct ptx_durow *def = use ? use + u->nuse : NULL;
	bool all = true, any = !u->nval;
	uint32_t i;

	if (u->kind == DU_OPAQUE || u->kind == DU_PLAIN) {
		if (u->guard < 0 || u->kind == DU_OPAQUE)
			for (i = 0; i < u->ndef; i++)
				bit_set(S, def[i].row);
		return;
	}
	for (i = 0; i < u->nval; i++) {
		all &= bit(S, use[i].row);
		any |= bit(S, use[i].row);
	}
	/* statically, a lane of a shuffle may take an unwritten lane's
	 * value: only all written sources write it */
	if (u->kind == DU_ANY)
		all = any;
	for (i = 0; i < u->ndef; i++) {
		if (!all)
			bit_clear(S, def[i].row);
		else if (u->guard < 0)
			bit_set(S, def[i].row);
	}
}

static bool is_stop(const struct simt_insn *in)
{
	return in->op == OP_RET || in->op == OP_EXIT || in->op == OP_TRAP ||
	       in->op == OP_BRKPT;
}

struct cfg {
	uint32_t nb;
	uint32_t *start;        /* nb + 1: the blocks' first pcs (relative) */
	uint32_t (*succ)[2];    /* UINT32_MAX: none */
	uint32_t *pred, *pred_at;  /* CSR: preds of b at pred[pred_at[b]..] */
};

static void cfg_build(const struct simt_module *mod, uint32_t b, uint32_t n,
		      struct cfg *g)
{
	bool *lead = simt_xcalloc(n + 1, 1);
	uint32_t *blk = simt_xmalloc((n + 1) * sizeof *blk);
	uint32_t pc, i, k, *cnt;

	lead[0] = true;
	lead[n] = true;
	for (pc = 0; pc < n; pc++) {
		const struct simt_insn *in = &mod->code[b + pc];

		if (in->op == OP_BRA) {
			if (in->target >= b && in->target < b + n)
				lead[in->target - b] = true;
			lead[pc + 1] = true;
		} else if (is_stop(in)) {
			lead[pc + 1] = true;
		}
	}
	g->nb = 0;
	for (pc = 0; pc < n; pc++)
		g->nb += lead[pc];
	g->start = simt_xmalloc((g->nb + 1) * sizeof *g->start);
	for (pc = 0, i = 0; pc < n; pc++) {
		if (lead[pc])
			g->start[i++] = pc;
		blk[pc] = i - 1;
	}
	g->start[g->nb] = n;
	blk[n] = UINT32_MAX;
	g->succ = simt_xmalloc(g->nb * sizeof *g->succ);
	for (i = 0; i < g->nb; i++) {
		uint32_t last = g->start[i + 1] - 1;
		const struct simt_insn *in = &mod->code[b + last];
		uint32_t next = blk[last + 1];

		g->succ[i][0] = g->succ[i][1] = UINT32_MAX;
		if (in->op == OP_BRA) {
			g->succ[i][0] = in->target >= b && in->target < b + n
				? blk[in->target - b] : UINT32_MAX;
			if (in->guard >= 0)
				g->succ[i][1] = next;
		} else if (!is_stop(in) || in->guard >= 0) {
			g->succ[i][0] = next;
		}
	}
	cnt = simt_xcalloc(g->nb + 1, sizeof *cnt);
	for (i = 0; i < g->nb; i++)
		for (k = 0; k < 2; k++)
			if (g->succ[i][k] != UINT32_MAX)
				cnt[g->succ[i][k] + 1]++;
	for (i = 0; i < g->nb; i++)
		cnt[i + 1] += cnt[i];
	g->pred_at = cnt;
	g->pred = simt_xmalloc((cnt[g->nb] + 1) * sizeof *g->pred);
	{
		uint32_t *fill = simt_xmalloc((g->nb + 1) * sizeof *fill);

		memcpy(fill, cnt, (g->nb + 1) * sizeof *fill);
		for (i = 0; i < g->nb; i++)
			for (k = 0; k < 2; k++)
				if (g->succ[i][k] != UINT32_MAX)
					g->pred[fill[g->succ[i][k]]++] = i;
		free(fill);
	}
	free(lead);
	free(blk);
}

static void cfg_free(struct cfg *g)
{
	free(g->start);
	free(g->succ);
	free(g->pred);
	free(g->pred_at);
}

static uint32_t uck_row_add(struct simt_module *mod, uint32_t row,
			    const char *name, uint32_t len)
{
	if (mod->nuck_row == mod->capuck_row) {
		mod->capuck_row = mod->capuck_row ? mod->capuck_row * 2 : 64;
		mod->uck_row = simt_xrealloc(mod->uck_row,
					     mod->capuck_row * sizeof *mod->uck_row);
		mod->uck_name = simt_xrealloc(mod->uck_name,
					      mod->capuck_row * sizeof *mod->uck_name);
	}
	mod->uck_row[mod->nuck_row] = row;
	mod->uck_name[mod->nuck_row] = name ? simt_xstrndup(name, len) : NULL;
	return mod->nuck_row++;
}

/* What the passes over a function share: the candidates C, the rows
 * exempt from checking, and per du row whether its read is checked. */
struct analysis {
	uint64_t *C;
	const uint64_t *excl;
	bool *chk;
};

/* Whether row r may be unwritten where S holds, and is checked at all. */
static bool unwritten(const struct analysis *an, const uint64_t *S, uint32_t r)
{
	return !bit(S, r) && !bit(an->excl, r);
}

/* The checks of one instruction: what it reads where it may be
 * unwritten (an->chk, its guard), what it writes of the candidates. */
static void emit_uck(struct ptx_parser *ps, const struct ptx_du *u,
		     const uint64_t *S, struct analysis *an)
{
	struct simt_module *mod = ps->mod;
	const bool *chk = an->chk + u->first;
	const uint64_t *C = an->C;
	bool gchk = u->guard >= 0 && unwritten(an, S, (uint32_t)u->guard);
	const struct ptx_durow *use = du_rows(ps, u);
	const struct ptx_durow *def = use ? use + u->nuse : NULL;
	struct simt_uck e = {0};
	uint32_t i, nchk = 0, nset = 0, ndst = 0, nsrc = 0;
	bool copy = u->kind != DU_PLAIN;

	for (i = 0; i < u->nuse; i++) {
		nchk += i >= u->nval && chk[i];
		nsrc += i < u->nval && bit(C, use[i].row);
	}
	for (i = 0; i < u->ndef; i++)
		if (bit(C, def[i].row)) {
			nset += !copy;
			ndst += copy;
		}
	if (copy && ndst && (!nsrc || (u->kind == DU_ANY && nsrc < u->nval))) {
		/* every source (for DU_ANY: one of them) fully written */
		nset = ndst;
		ndst = 0;
	}
	if (!ndst)
		nsrc = 0;
	if (!gchk && !nchk && !nset && !ndst)
		return;
	if (nchk > 255 || nset > 255 || ndst > 255 || nsrc > 255)
		return;                 /* no instruction names that many */
	e.guard = gchk;
	e.nchk = (uint8_t)nchk;
	e.nset = (uint8_t)nset;
	e.ndst = (uint8_t)ndst;
	e.nsrc = (uint8_t)nsrc;
	e.merge = u->kind == DU_ANY ? UCK_ANY : u->kind == DU_XLANE ? UCK_XLANE : UCK_ALL;
	e.first = mod->nuck_row;
	if (gchk)
		uck_row_add(mod, (uint32_t)u->guard, u->gname, u->glen);
	for (i = u->nval; i < u->nuse; i++)
		if (chk[i])
			uck_row_add(mod, use[i].row, use[i].name, use[i].len);
	for (i = 0; i < u->ndef; i++)
		if ((nset || ndst) && bit(C, def[i].row))
			uck_row_add(mod, def[i].row, NULL, 0);
	for (i = 0; i < u->nval && nsrc; i++)
		if (bit(C, use[i].row))
			uck_row_add(mod, use[i].row, NULL, 0);
	if (mod->nucks == mod->capucks) {
		mod->capucks = mod->capucks ? mod->capucks * 2 : 16;
		mod->ucks = simt_xrealloc(mod->ucks, mod->capucks * sizeof *mod->ucks);
	}
	mod->uck_of[u->pc] = mod->nucks;
	mod->code[u->pc].uchk = 1;
	mod->ucks[mod->nucks++] = e;
}

/* Calls visit for each recorded instruction of the function, with S
 * the rows written before it, block by block from their entry sets. */
static void walk(struct ptx_parser *ps, const struct cfg *g, const uint64_t *in,
		 uint32_t W, const int32_t *dui, uint64_t *S,
		 void (*visit)(struct ptx_parser *, const struct ptx_du *,
			       const uint64_t *, struct analysis *),
		 struct analysis *an)
{
	uint32_t i, pc;

	for (i = 0; i < g->nb; i++) {
		memcpy(S, in + (size_t)i * W, W * sizeof *S);
		for (pc = g->start[i]; pc < g->start[i + 1]; pc++) {
			const struct ptx_du *u;

			if (dui[pc] < 0)
				continue;
			u = &ps->du[dui[pc]];
			if (u->kind != DU_OPAQUE)
				visit(ps, u, S, an);
			apply(ps, u, S);
		}
	}
}

/* The reads of u that may see an unwritten row: their rows become
 * candidates, checked where u reads them (a copy's values are followed
 * only, so that a later read of the copy is checked). */
static void find_reads(struct ptx_parser *ps, const struct ptx_du *u,
		       const uint64_t *S, struct analysis *an)
{
	uint32_t k;

	if (u->guard >= 0 && unwritten(an, S, (uint32_t)u->guard))
		bit_set(an->C, (uint32_t)u->guard);
	for (k = 0; k < u->nuse; k++) {
		uint32_t r = ps->du_row[u->first + k].row;

		if (unwritten(an, S, r)) {
			an->chk[u->first + k] = k >= u->nval;
			bit_set(an->C, r);
		}
	}
}

static void exempt_params(uint64_t *excl, uint32_t nr,
			  const struct simt_param *p, int n)
{
	int i;
	uint64_t r;

	for (i = 0; i < n; i++)
		for (r = p[i].offset; r < (uint64_t)p[i].offset + (p[i].size + 7) / 8 &&
				      r < nr; r++)
			bit_set(excl, (uint32_t)r);
}

/* An `and` with a constant operand. */
static bool masks_bits(const struct simt_insn *in)
{
	bool and = in->op == OP_AND_32 || in->op == OP_AND_64 ||
		   (in->op == OP_IALU && in->sub == SUB_AND);

	return and && (in->o[1].kind == OK_IMM || in->o[2].kind == OK_IMM);
}

/* Loads whose values nothing uses.  A compiler may load a local variable
 * before it knows whether the value is wanted and choose it afterwards
 * with a select (`r = ok ? v : 0`, v written only when ok): the load then
 * reads local memory that may never have been written, harmlessly.  A
 * row is used when an instruction other than a select reads it, a
 * scalar store outside local memory stores it (a call's argument, a
 * value copied out), or a move, pack or shuffle copies it into a used
 * row.  An `and` with a constant is no use either: it clears the bits a
 * bitfield is about to get, in a word whose other bits may never have
 * been set.  A vector store is a copy of a padded vector, and a store
 * to local memory (st.local, or through the stack pointer cvta.local
 * made, as a debug build copies a struct field by field) a copy of a
 * variable: no use.  A load element whose row is not used is marked in
 * mod->ld_quiet.  The function's code is pcs [b, b + n). */
static void mark_quiet_loads(struct ptx_parser *ps, uint32_t nr, uint32_t b,
			     uint32_t n)
{
	struct simt_module *mod = ps->mod;
	uint64_t *used = simt_xcalloc((nr + 63) / 64, sizeof *used);
	uint64_t *stack = simt_xcalloc((nr + 63) / 64, sizeof *stack);
	bool changed = true;
	uint32_t i, k;

	if (mod->ncode_quiet < mod->ncode) {
		mod->ld_quiet = simt_xrealloc(mod->ld_quiet, mod->ncode);
		memset(mod->ld_quiet + mod->ncode_quiet, 0,
		       mod->ncode - mod->ncode_quiet);
		mod->ncode_quiet = mod->ncode;
	}
	for (i = 0; i < ps->ndu; i++) {
		const struct ptx_du *u = &ps->du[i];
		const struct ptx_durow *use = du_rows(ps, u);
		uint32_t from = u->nval, to = u->nuse;
		int op = u->pc >= mod->ncode ? -1 : mod->code[u->pc].op;

		if (u->guard >= 0 && (uint32_t)u->guard < nr)
			bit_set(used, (uint32_t)u->guard);
		if (u->kind == DU_OPAQUE) {
			from = 0;
			to = u->nuse + u->ndef;
		} else if (u->pc < mod->ncode && masks_bits(&mod->code[u->pc])) {
			to = from;
		} else if ((op == OP_SELP || op == OP_SLCT) && u->nuse > 0) {
			/* d, a, b, c: only the condition (the last read) is
			 * used, whether or not a constant made it plain */
			from = u->nuse - 1;
		}
		for (k = from; k < to; k++)
			if (use[k].row < nr)
				bit_set(used, use[k].row);
	}
	for (i = b; i < b + n && i < mod->ncode; i++) {
		const struct simt_insn *in = &mod->code[i];

		if (in->op == OP_CVTA_LOCAL && in->o[0].kind == OK_REG &&
		    in->o[0].idx < nr)
			bit_set(stack, in->o[0].idx);
	}
	for (i = b; i < b + n && i < mod->ncode; i++) {
		const struct simt_insn *in = &mod->code[i];

		if (in->op == OP_ST && in->vec == 1 && in->o[0].kind == OK_REG &&
		    in->o[0].idx < nr && in->space != SS_LOCAL &&
		    !(in->am == AM_REG && in->addr.kind == OK_REG &&
		      in->addr.idx < nr && bit(stack, in->addr.idx)))
			bit_set(used, in->o[0].idx);
	}
	/* backwards, so that a chain of copies is settled in one pass */
	while (changed) {
		changed = false;
		for (i = ps->ndu; i-- > 0;) {
			const struct ptx_du *u = &ps->du[i];
			const struct ptx_durow *use = du_rows(ps, u);
			int op = u->pc >= mod->ncode ? -1 : mod->code[u->pc].op;
			bool live = false;

			if (u->kind == DU_PLAIN || u->kind == DU_OPAQUE ||
			    op == OP_SELP || op == OP_SLCT)
				continue;
			for (k = 0; k < u->ndef; k++)
				live |= use[u->nuse + k].row < nr &&
					bit(used, use[u->nuse + k].row);
			for (k = 0; k < u->nval && live; k++)
				if (use[k].row < nr && !bit(used, use[k].row)) {
					bit_set(used, use[k].row);
					changed = true;
				}
		}
	}
	for (i = 0; i < ps->ndu; i++) {
		const struct ptx_du *u = &ps->du[i];
		const struct simt_insn *in;
		uint8_t q = 0;

		if (u->pc == UINT32_MAX || u->pc >= mod->ncode)
			continue;
		in = &mod->code[u->pc];
		if (in->op != OP_LD)
			continue;
		for (k = 0; k < in->vec && k < 8; k++)
			if (in->o[k].kind != OK_REG || in->o[k].idx >= nr ||
			    !bit(used, in->o[k].idx))
				q |= (uint8_t)(1u << k);
		mod->ld_quiet[u->pc] = q;
	}
	free(used);
	free(stack);
}

/* The must-be-written analysis is skipped for functions so large that
 * its sets would take more than this many 64-bit words. */
#define MAX_WORDS (1u << 22)

void ptx_undef_analyze(struct ptx_parser *ps, int fi)
{
	struct simt_module *mod = ps->mod;
	struct simt_func *f = &mod->funcs[fi];
	uint32_t b = f->pc_begin, n = f->pc_end - f->pc_begin, nr = ps->nrows;
	uint32_t W = (nr + 63) / 64, i, k, pc, ncand = 0;
	uint64_t *in, *out, *S, *C, *excl;
	int32_t *dui;
	bool changed;
	struct analysis an;
	struct cfg g;

	/* a function defined again starts over */
	free(f->uck_rows);
	f->uck_rows = NULL;
	f->nuck_rows = 0;
	if (!ps->ndu || !nr || !n)
		return;
	mark_quiet_loads(ps, nr, b, n);
	cfg_build(mod, b, n, &g);
	if ((uint64_t)g.nb * W * 2 > MAX_WORDS) {
		cfg_free(&g);
		return;
	}
	dui = simt_xmalloc(n * sizeof *dui);
	for (pc = 0; pc < n; pc++)
		dui[pc] = -1;
	excl = simt_xcalloc(W, sizeof *excl);
	for (i = 0; i < ps->ndu; i++) {
		const struct ptx_du *u = &ps->du[i];

		if (u->kind == DU_OPAQUE)
			for (k = 0; k < (uint32_t)u->nuse + u->ndef; k++)
				if (ps->du_row[u->first + k].row < nr)
					bit_set(excl, ps->du_row[u->first + k].row);
		if (u->pc != UINT32_MAX && u->pc >= b && u->pc - b < n)
			dui[u->pc - b] = (int32_t)i;
	}
	/* a function's parameters and results are rows the call fills */
	if (!f->is_entry) {
		exempt_params(excl, nr, f->params, f->nparams);
		exempt_params(excl, nr, f->rets, f->nrets);
	}
	in = simt_xmalloc((size_t)g.nb * W * sizeof *in);
	out = simt_xmalloc((size_t)g.nb * W * sizeof *out);
	S = simt_xmalloc(W * sizeof *S);
	C = simt_xcalloc(W, sizeof *C);
	memset(out, 0xff, (size_t)g.nb * W * sizeof *out);
	do {
		changed = false;
		for (i = 0; i < g.nb; i++) {
			uint64_t *bi = in + (size_t)i * W, *bo = out + (size_t)i * W;

			memset(bi, i ? 0xff : 0, W * sizeof *bi);
			for (k = g.pred_at[i]; k < g.pred_at[i + 1]; k++) {
				const uint64_t *po = out + (size_t)g.pred[k] * W;
				uint32_t w;

				for (w = 0; w < W; w++)
					bi[w] &= po[w];
			}
			memcpy(S, bi, W * sizeof *S);
			for (pc = g.start[i]; pc < g.start[i + 1]; pc++)
				if (dui[pc] >= 0)
					apply(ps, &ps->du[dui[pc]], S);
			if (memcmp(S, bo, W * sizeof *S) != 0) {
				memcpy(bo, S, W * sizeof *S);
				changed = true;
			}
		}
	} while (changed);
	/* the reads of rows that may not be written: the candidates */
	an.chk = simt_xcalloc(ps->ndu_row + 1, sizeof *an.chk);
	an.C = C;
	an.excl = excl;
	walk(ps, &g, in, W, dui, S, find_reads, &an);
	for (k = 0; k < W; k++)
		ncand += (uint32_t)__builtin_popcountll(C[k]);
	if (ncand) {
		f->uck_rows = simt_xmalloc(ncand * sizeof *f->uck_rows);
		for (k = 0; k < nr; k++)
			if (bit(C, k))
				f->uck_rows[f->nuck_rows++] = k;
		/* every instruction of the module so far may get an entry */
		mod->uck_of = simt_xrealloc(mod->uck_of, mod->ncode * sizeof *mod->uck_of);
		walk(ps, &g, in, W, dui, S, emit_uck, &an);
	}
	free(an.chk);
	free(in);
	free(out);
	free(S);
	free(C);
	free(excl);
	free(dui);
	cfg_free(&g);
}
