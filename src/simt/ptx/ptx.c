/* Reading PTX text: module directives, declarations and function bodies,
 * from the tokens of ptx_lex.c.  Each instruction is handed to the
 * decoder (decode.c) as soon as its operands are parsed; at the end
 * ptx_summary.c computes the module's shared-memory layout and per-kernel
 * summaries, so a launch never looks at text.
 *
 * Syntax errors unwind to simt_ptx_load through ptx_fail (longjmp), which
 * keeps the many small parsing functions free of error plumbing.
 *
 * This file holds the tokens, special registers, symbol tables, constant
 * rows, operands and instructions; declarations are read in ptx_decl.c,
 * .file and .loc in ptx_loc.c, functions and the module in ptx_func.c. */
#include "ptx/ptx_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ---- */

void ptx_fail(struct ptx_parser *ps, uint32_t line, const char *fmt, ...)
{
	struct simt_buf b = {0};
	va_list ap;

	simt_buf_printf(&b, "PTX line %u: ", line);
	va_start(ap, fmt);
	simt_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	ps->error = b.s;
	longjmp(ps->fail, 1);
}

/* ---- token helpers ---- */

void ptx_next(struct ptx_parser *ps)
{
	ptx_lex_next(&ps->lx);
}

bool ptx_is_punct(struct ptx_parser *ps, char c)
{
	return TOK->kind == TK_PUNCT && TOK->punct == c;
}

bool ptx_is_word(struct ptx_parser *ps, const char *w)
{
	return TOK->kind == TK_IDENT && TOK->len == strlen(w) &&
	       memcmp(TOK->s, w, TOK->len) == 0;
}

void ptx_expect_punct(struct ptx_parser *ps, char c)
{
	if (!ptx_is_punct(ps, c))
		ptx_fail(ps, TOK->line, "expected '%c' but found '%.*s'", c,
			 (int)TOK->len, TOK->s);
	ptx_next(ps);
}

uint64_t ptx_expect_int(struct ptx_parser *ps)
{
	bool neg = false;
	uint64_t v;

	if (ptx_is_punct(ps, '-')) {
		neg = true;
		ptx_next(ps);
	}
	if (TOK->kind != TK_INT)
		ptx_fail(ps, TOK->line, "expected a number but found '%.*s'",
			 (int)TOK->len, TOK->s);
	v = TOK->ival;
	ptx_next(ps);
	return neg ? 0 - v : v;
}

void ptx_skip_to_semicolon(struct ptx_parser *ps)
{
	while (TOK->kind != TK_EOF && !ptx_is_punct(ps, ';'))
		ptx_next(ps);
	if (ptx_is_punct(ps, ';'))
		ptx_next(ps);
}

void ptx_skip_block(struct ptx_parser *ps)
{
	int depth = 0;

	while (TOK->kind != TK_EOF) {
		if (ptx_is_punct(ps, '{'))
			depth++;
		if (ptx_is_punct(ps, '}') && --depth <= 0) {
			ptx_next(ps);
			return;
		}
		ptx_next(ps);
	}
}

/* ---- types ---- */

/* Reads ".type" at the current token, failing if it is not a type. */
int ptx_expect_type(struct ptx_parser *ps)
{
	int t = ST_NONE;

	if (TOK->kind == TK_IDENT && TOK->s[0] == '.')
		t = ptx_parse_type(TOK->s + 1, TOK->len - 1);
	if (t == ST_NONE)
		ptx_fail(ps, TOK->line, "expected a type but found '%.*s'",
			 (int)TOK->len, TOK->s);
	ptx_next(ps);
	return t;
}

/* ---- special registers ---- */

static const struct {
	const char *name;
	int sreg;
} sreg_names[] = {
	{"%tid.x", SR_TID_X}, {"%tid.y", SR_TID_Y}, {"%tid.z", SR_TID_Z},
	{"%ntid.x", SR_NTID_X}, {"%ntid.y", SR_NTID_Y}, {"%ntid.z", SR_NTID_Z},
	{"%ctaid.x", SR_CTAID_X}, {"%ctaid.y", SR_CTAID_Y},
	{"%ctaid.z", SR_CTAID_Z}, {"%nctaid.x", SR_NCTAID_X},
	{"%nctaid.y", SR_NCTAID_Y}, {"%nctaid.z", SR_NCTAID_Z},
	{"%laneid", SR_LANEID}, {"%warpid", SR_WARPID},
	{"%nwarpid", SR_NWARPID}, {"%smid", SR_SMID}, {"%nsmid", SR_NSMID},
	{"%gridid", SR_GRIDID}, {"%lanemask_eq", SR_LANEMASK_EQ},
	{"%lanemask_lt", SR_LANEMASK_LT}, {"%lanemask_le", SR_LANEMASK_LE},
	{"%lanemask_gt", SR_LANEMASK_GT}, {"%lanemask_ge", SR_LANEMASK_GE},
	{"%dynamic_smem_size", SR_DYN_SMEM},
	{"%total_smem_size", SR_TOTAL_SMEM},
	{"%reserved_smem_offset_begin", SR_RSMEM_BEGIN},
	{"%reserved_smem_offset_end", SR_RSMEM_END},
	{"%reserved_smem_offset_cap", SR_RSMEM_CAP},
	{"%reserved_smem_offset_0", SR_RSMEM_0},
	{"%reserved_smem_offset_1", SR_RSMEM_1},
	/* A cluster is one block under simt. */
	{"%cluster_ctarank", SR_ZERO}, {"%is_explicit_cluster", SR_ZERO},
	{"%cluster_ctaid.x", SR_ZERO}, {"%cluster_ctaid.y", SR_ZERO},
	{"%cluster_ctaid.z", SR_ZERO}, {"%clusterid.x", SR_CTAID_X},
	{"%clusterid.y", SR_CTAID_Y}, {"%clusterid.z", SR_CTAID_Z},
	{"%nclusterid.x", SR_NCTAID_X}, {"%nclusterid.y", SR_NCTAID_Y},
	{"%nclusterid.z", SR_NCTAID_Z},
};

/* %envreg0..31, driver-defined: 0..2 carry the grid workspace of a
 * cooperative launch, the rest read zero.  -1 for another name. */
static int envreg(const char *digits, uint32_t len)
{
	uint32_t n = 0, i;

	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)digits[i]) || i >= 2)
			return -1;
		n = n * 10 + (uint32_t)(digits[i] - '0');
	}
	if (n > 31 || (len == 2 && digits[0] == '0'))
		return -1;
	return n <= 2 ? SR_ENVREG0 + (int)n : SR_ZERO;
}

/* Returns the special-register row, -2..-4 for the clocks, or -1. */
static int find_sreg(const char *s, uint32_t len)
{
	size_t i;

	if ((len == 6 && memcmp(s, "%clock", 6) == 0) ||
	    (len == 9 && memcmp(s, "%clock_hi", 9) == 0))
		return -2;
	if (len == 8 && memcmp(s, "%clock64", 8) == 0)
		return -3;
	if (len >= 12 && memcmp(s, "%globaltimer", 12) == 0)
		return -4;
	for (i = 0; i < sizeof sreg_names / sizeof sreg_names[0]; i++)
		if (strlen(sreg_names[i].name) == len &&
		    memcmp(sreg_names[i].name, s, len) == 0)
			return sreg_names[i].sreg;
	if ((len == 17 && memcmp(s, "%cluster_nctarank", 17) == 0) ||
	    (len == 17 && memcmp(s, "%cluster_nctaid.", 16) == 0))
		return SR_ONE;
	if (len > 7 && memcmp(s, "%envreg", 7) == 0)
		return envreg(s + 7, len - 7);
	if (len == 4 && memcmp(s, "%pm", 3) == 0)
		return SR_ZERO;
	return -1;
}

/* ---- symbol tables ---- */

bool ptx_name_eq(const char *a, uint32_t alen, const char *b, uint32_t blen)
{
	return alen == blen && memcmp(a, b, alen) == 0;
}

/* Looks up a register by name; returns false if none is declared. */
bool ptx_find_reg(struct ptx_parser *ps, const char *s, uint32_t len,
		  uint32_t *row, int *type)
{
	uint32_t plen = len, idx = 0, mul = 1;
	int i;

	for (i = ps->nregs - 1; i >= 0; i--) {
		struct ptx_reg *r = &ps->regs[i];

		if (!r->range && ptx_name_eq(r->name, r->len, s, len)) {
			*row = r->row;
			*type = r->type;
			return true;
		}
	}
	while (plen > 0 && isdigit((unsigned char)s[plen - 1])) {
		idx += (uint32_t)(s[plen - 1] - '0') * mul;
		mul *= 10;
		plen--;
	}
	if (plen == len || plen == 0)
		return false;
	for (i = ps->nregs - 1; i >= 0; i--) {
		struct ptx_reg *r = &ps->regs[i];

		if (r->range && ptx_name_eq(r->name, r->len, s, plen) &&
		    idx < r->count) {
			*row = r->row + idx;
			*type = r->type;
			return true;
		}
	}
	return false;
}

int ptx_find_pdecl(struct ptx_parser *ps, const char *name, uint32_t len)
{
	int i;

	for (i = ps->npdecls - 1; i >= 0; i--)
		if (ptx_name_eq(ps->pdecls[i].name, ps->pdecls[i].len, name, len))
			return i;
	return -1;
}

int ptx_find_local(struct ptx_parser *ps, const char *name, uint32_t len)
{
	int i;

	for (i = ps->nlocals - 1; i >= 0; i--)
		if (ptx_name_eq(ps->locals[i].name, ps->locals[i].len, name, len))
			return i;
	return -1;
}

int ptx_find_var(struct ptx_parser *ps, const char *name, uint32_t len)
{
	int i;

	for (i = 0; i < ps->mod->nvars; i++) {
		const char *n = ps->mod->vars[i].name;

		if (strlen(n) == len && memcmp(n, name, len) == 0)
			return i;
	}
	return -1;
}

int ptx_find_func(struct ptx_parser *ps, const char *name, uint32_t len)
{
	int i;

	for (i = 0; i < ps->mod->nfuncs; i++) {
		const char *n = ps->mod->funcs[i].name;

		if (strlen(n) == len && memcmp(n, name, len) == 0)
			return i;
	}
	return -1;
}

int simt_module_find_func(const struct simt_module *mod, const char *name)
{
	int i;

	for (i = 0; i < mod->nfuncs; i++)
		if (strcmp(mod->funcs[i].name, name) == 0)
			return i;
	return -1;
}

int simt_module_find_var(const struct simt_module *mod, const char *name)
{
	int i;

	for (i = 0; i < mod->nvars; i++)
		if (strcmp(mod->vars[i].name, name) == 0)
			return i;
	return -1;
}

/* ---- constant rows ---- */

static uint32_t new_const_row(struct ptx_parser *ps, uint64_t v)
{
	struct simt_module *mod = ps->mod;
	uint64_t *row;
	int l;

	if (mod->nconsts >= mod->capconsts) {
		mod->capconsts = mod->capconsts ? mod->capconsts * 2 : 64;
		mod->consts = simt_xrealloc(mod->consts, (size_t)mod->capconsts *
					    32 * sizeof(uint64_t));
	}
	row = mod->consts + (size_t)mod->nconsts * 32;
	for (l = 0; l < 32; l++)
		row[l] = v;
	return mod->nconsts++;
}

static void ctab_grow(struct ptx_parser *ps)
{
	uint32_t oldcap = ps->ctab_cap, i;
	uint64_t *okey = ps->ctab_key;
	uint32_t *orow = ps->ctab_row;

	ps->ctab_cap = oldcap ? oldcap * 2 : 256;
	ps->ctab_key = simt_xcalloc(ps->ctab_cap, sizeof *ps->ctab_key);
	ps->ctab_row = simt_xmalloc(ps->ctab_cap * sizeof *ps->ctab_row);
	for (i = 0; i < ps->ctab_cap; i++)
		ps->ctab_row[i] = UINT32_MAX;
	for (i = 0; i < oldcap; i++) {
		uint32_t h;

		if (orow[i] == UINT32_MAX)
			continue;
		h = (uint32_t)((okey[i] * 0x9E3779B97F4A7C15ull) >> 40) &
		    (ps->ctab_cap - 1);
		while (ps->ctab_row[h] != UINT32_MAX)
			h = (h + 1) & (ps->ctab_cap - 1);
		ps->ctab_key[h] = okey[i];
		ps->ctab_row[h] = orow[i];
	}
	free(okey);
	free(orow);
}

/* A constant row holding v in every lane, shared with equal constants. */
uint32_t ptx_const_row(struct ptx_parser *ps, uint64_t v)
{
	uint32_t h;

	if (ps->ctab_n * 2 >= ps->ctab_cap)
		ctab_grow(ps);
	h = (uint32_t)((v * 0x9E3779B97F4A7C15ull) >> 40) & (ps->ctab_cap - 1);
	while (ps->ctab_row[h] != UINT32_MAX) {
		if (ps->ctab_key[h] == v)
			return ps->ctab_row[h];
		h = (h + 1) & (ps->ctab_cap - 1);
	}
	ps->ctab_key[h] = v;
	ps->ctab_row[h] = new_const_row(ps, v);
	ps->ctab_n++;
	return ps->ctab_row[h];
}

/* A constant row of its own, for values patched after parsing. */
uint32_t ptx_fresh_row(struct ptx_parser *ps, uint64_t v)
{
	return new_const_row(ps, v);
}

/* ---- instructions ---- */

struct simt_insn *ptx_emit(struct ptx_parser *ps, uint32_t line)
{
	struct simt_module *mod = ps->mod;
	struct simt_insn *in;
	int i;

	if (mod->ncode >= mod->capcode) {
		mod->capcode = mod->capcode ? mod->capcode * 2 : 256;
		mod->code = simt_xrealloc(mod->code,
					  mod->capcode * sizeof *mod->code);
	}
	in = &mod->code[mod->ncode++];
	memset(in, 0, sizeof *in);
	in->guard = -1;
	in->ptx_line = line;
	in->src_file = (uint16_t)ps->cur_file;
	in->src_line = ps->cur_line;
	for (i = 0; i < 6; i++)
		in->o[i].kind = OK_NONE;
	in->addr.kind = OK_NONE;
	return in;
}

/* ---- operands ---- */

static struct ptx_rop *rop_alloc(struct ptx_parser *ps, int n)
{
	struct ptx_rop *r;

	if (ps->npool + n > ps->cappool) {
		/* The pool is reset per instruction; a bigger one is only
		 * needed for unusually long operand lists. */
		if (ps->npool > 0)
			ptx_fail(ps, TOK->line, "operand list too long");
		ps->cappool = n > 256 ? n : 256;
		ps->pool = simt_xrealloc(ps->pool, (size_t)ps->cappool *
					 sizeof *ps->pool);
	}
	r = &ps->pool[ps->npool];
	ps->npool += n;
	memset(r, 0, (size_t)n * sizeof *r);
	return r;
}

static void parse_operand(struct ptx_parser *ps, struct ptx_rop *r);

/* A special register simt does not know fails only the function naming
 * it (and the kernels that reach that function), not the whole module. */
static void unknown_sreg(struct ptx_parser *ps)
{
	struct simt_func *f = &ps->mod->funcs[ps->fn];

	if (!f->bad)
		f->bad = simt_xasprintf("unknown special register '%.*s' at "
					"PTX line %u", (int)TOK->len, TOK->s,
					TOK->line);
}

static void parse_name_operand(struct ptx_parser *ps, struct ptx_rop *r)
{
	uint32_t row;
	int type, sr;

	if (TOK->len == 1 && TOK->s[0] == '_') {
		r->kind = RO_SINK;
		ptx_next(ps);
		return;
	}
	if (ptx_find_reg(ps, TOK->s, TOK->len, &row, &type)) {
		r->kind = RO_REG;
		r->row = row;
		r->rtype = type;
		r->sym = TOK->s;        /* its name, for messages */
		r->symlen = TOK->len;
		ptx_next(ps);
		return;
	}
	if (TOK->s[0] == '%') {
		sr = find_sreg(TOK->s, TOK->len);
		if (sr == -1 && ps->fn < 0)
			ptx_fail(ps, TOK->line, "unknown register '%.*s'",
				 (int)TOK->len, TOK->s);
		if (sr == -1) {
			unknown_sreg(ps);
			sr = SR_ZERO;
		}
		if (sr >= SR_RSMEM_BEGIN && sr <= SR_RSMEM_1)
			ps->mod->reserved_smem = true;
		r->kind = RO_SREG;
		r->sreg = sr;
		r->sym = TOK->s;
		r->symlen = TOK->len;
		ptx_next(ps);
		return;
	}
	r->kind = RO_SYM;
	r->sym = TOK->s;
	r->symlen = TOK->len;
	ptx_next(ps);
	if (ptx_is_punct(ps, '+')) {
		ptx_next(ps);
		r->off = (int64_t)ptx_expect_int(ps);
	}
}

static void parse_number_operand(struct ptx_parser *ps, struct ptx_rop *r,
				 bool minus)
{
	if (TOK->kind == TK_INT) {
		r->kind = RO_INT;
		r->ival = minus ? 0 - TOK->ival : TOK->ival;
	} else {
		r->kind = RO_FLOAT;
		r->fbits = TOK->fbits;
		r->fval = minus ? -TOK->fval : TOK->fval;
		r->raw = TOK->raw;
		if (minus)
			r->raw ^= TOK->fbits == 32 ? 0x80000000ull
						   : 0x8000000000000000ull;
	}
	ptx_next(ps);
}

static void parse_address(struct ptx_parser *ps, struct ptx_rop *r)
{
	struct ptx_rop *base = rop_alloc(ps, 1);

	r->kind = RO_ADDR;
	r->elem = base;
	r->nelem = 1;
	if (TOK->kind == TK_INT) {
		base->kind = RO_INT;
		base->ival = TOK->ival;
		ptx_next(ps);
	} else if (TOK->kind == TK_IDENT) {
		parse_name_operand(ps, base);
		if (base->kind == RO_SYM) {
			r->off = base->off;
			base->off = 0;
		}
	} else {
		ptx_fail(ps, TOK->line, "bad address operand");
	}
	while (ptx_is_punct(ps, '+') || ptx_is_punct(ps, '-')) {
		bool minus = ptx_is_punct(ps, '-');
		int64_t v;

		ptx_next(ps);
		if (ptx_is_punct(ps, '-')) {
			minus = !minus;
			ptx_next(ps);
		}
		v = (int64_t)ptx_expect_int(ps);
		/* addresses wrap around, as on the device */
		r->off = (int64_t)((uint64_t)r->off +
				   (minus ? 0 - (uint64_t)v : (uint64_t)v));
	}
	if (ptx_is_punct(ps, ',')) {
		/* [texture, {coordinates}]: the coordinates become elem[1] */
		struct ptx_rop *two = rop_alloc(ps, 2);

		ptx_next(ps);
		two[0] = *base;
		memset(&two[1], 0, sizeof two[1]);
		parse_operand(ps, &two[1]);
		r->elem = two;
		r->nelem = 2;
	}
	ptx_expect_punct(ps, ']');
}

static void parse_list(struct ptx_parser *ps, struct ptx_rop *r, char close,
		       int kind)
{
	struct ptx_rop tmp[64];
	int n = 0;

	while (!ptx_is_punct(ps, close)) {
		if (n == 64)
			ptx_fail(ps, TOK->line, "operand list too long");
		memset(&tmp[n], 0, sizeof tmp[n]);
		parse_operand(ps, &tmp[n]);
		n++;
		if (ptx_is_punct(ps, ','))
			ptx_next(ps);
		else if (!ptx_is_punct(ps, close))
			ptx_fail(ps, TOK->line, "expected ',' or '%c'", close);
	}
	ptx_next(ps);
	r->kind = kind;
	r->nelem = n;
	r->elem = rop_alloc(ps, n > 0 ? n : 1);
	memcpy(r->elem, tmp, (size_t)n * sizeof *tmp);
}

/* Real PTX nests operands two or three deep ([tex, {coords}]) and
 * initializers as deep as an array has dimensions; far deeper text is
 * hostile and would otherwise overflow the host stack. */
enum { PTX_MAX_NEST = 32 };

void ptx_nest_in(struct ptx_parser *ps)
{
	if (++ps->depth > PTX_MAX_NEST)
		ptx_fail(ps, TOK->line, "operands or initializers nested more "
			 "than %d deep", PTX_MAX_NEST);
}

static void parse_operand_at(struct ptx_parser *ps, struct ptx_rop *r);

static void parse_operand(struct ptx_parser *ps, struct ptx_rop *r)
{
	ptx_nest_in(ps);
	parse_operand_at(ps, r);
	ps->depth--;
}

static void parse_operand_at(struct ptx_parser *ps, struct ptx_rop *r)
{
	if (ptx_is_punct(ps, '!')) {
		ptx_next(ps);
		parse_operand(ps, r);
		r->neg = !r->neg;
		return;
	}
	if (ptx_is_punct(ps, '-')) {
		ptx_next(ps);
		if (TOK->kind == TK_INT || TOK->kind == TK_FLOAT) {
			parse_number_operand(ps, r, true);
			return;
		}
		ptx_fail(ps, TOK->line, "negated operand '-%.*s' is not PTX",
			 (int)TOK->len, TOK->s);
	}
	if (ptx_is_punct(ps, '{')) {
		ptx_next(ps);
		parse_list(ps, r, '}', RO_VEC);
		return;
	}
	if (ptx_is_punct(ps, '(')) {
		ptx_next(ps);
		parse_list(ps, r, ')', RO_LIST);
		return;
	}
	if (ptx_is_punct(ps, '[')) {
		ptx_next(ps);
		parse_address(ps, r);
		return;
	}
	if (TOK->kind == TK_INT || TOK->kind == TK_FLOAT) {
		parse_number_operand(ps, r, false);
		return;
	}
	if (TOK->kind == TK_IDENT) {
		parse_name_operand(ps, r);
		return;
	}
	ptx_fail(ps, TOK->line, "unexpected '%.*s' in operands", (int)TOK->len,
		 TOK->s);
}

/* Parses "op operands ;" and hands it to the decoder.  A '|' between two
 * destinations (setp p|q) is kept as a separate operand marked by a
 * leading RO_NONE with neg set, which the decoder understands. */
void ptx_parse_instruction(struct ptx_parser *ps, int guard, bool gneg)
{
	struct ptx_rop ops[24];
	const char *op = TOK->s;
	uint32_t oplen = TOK->len, line = TOK->line;
	int n = 0;

	ps->npool = 0;
	ptx_next(ps);
	while (!ptx_is_punct(ps, ';')) {
		if (TOK->kind == TK_EOF)
			ptx_fail(ps, line, "missing ';'");
		if (n == 24)
			ptx_fail(ps, line, "too many operands");
		memset(&ops[n], 0, sizeof ops[n]);
		parse_operand(ps, &ops[n]);
		n++;
		if (ptx_is_punct(ps, ',')) {
			ptx_next(ps);
		} else if (ptx_is_punct(ps, '|')) {
			ptx_next(ps);
			if (n < 24) {
				memset(&ops[n], 0, sizeof ops[n]);
				parse_operand(ps, &ops[n]);
				ops[n].minus = true; /* marks "after '|'" */
				n++;
			}
			if (ptx_is_punct(ps, ','))
				ptx_next(ps);
		} else if (!ptx_is_punct(ps, ';')) {
			ptx_fail(ps, TOK->line, "unexpected '%.*s' after operand",
				 (int)TOK->len, TOK->s);
		}
	}
	ptx_next(ps);
	ptx_decode(ps, op, oplen, ops, n, guard, gneg, line);
}
