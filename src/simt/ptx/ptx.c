/* Reading PTX text: module directives, declarations and function bodies,
 * from the tokens of ptx_lex.c.  Each instruction is handed to the
 * decoder (decode.c) as soon as its operands are parsed; at the end
 * ptx_summary.c computes the module's shared-memory layout and per-kernel
 * summaries, so a launch never looks at text.
 *
 * Syntax errors unwind to simt_ptx_load through ptx_fail (longjmp), which
 * keeps the many small parsing functions free of error plumbing. */
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

#define TOK (&ps->lx.cur)

static void next(struct ptx_parser *ps)
{
	ptx_lex_next(&ps->lx);
}

static bool is_punct(struct ptx_parser *ps, char c)
{
	return TOK->kind == TK_PUNCT && TOK->punct == c;
}

static bool is_word(struct ptx_parser *ps, const char *w)
{
	return TOK->kind == TK_IDENT && TOK->len == strlen(w) &&
	       memcmp(TOK->s, w, TOK->len) == 0;
}

static void expect_punct(struct ptx_parser *ps, char c)
{
	if (!is_punct(ps, c))
		ptx_fail(ps, TOK->line, "expected '%c' but found '%.*s'", c,
			 (int)TOK->len, TOK->s);
	next(ps);
}

static uint64_t expect_int(struct ptx_parser *ps)
{
	bool neg = false;
	uint64_t v;

	if (is_punct(ps, '-')) {
		neg = true;
		next(ps);
	}
	if (TOK->kind != TK_INT)
		ptx_fail(ps, TOK->line, "expected a number but found '%.*s'",
			 (int)TOK->len, TOK->s);
	v = TOK->ival;
	next(ps);
	return neg ? 0 - v : v;
}

static void skip_to_semicolon(struct ptx_parser *ps)
{
	while (TOK->kind != TK_EOF && !is_punct(ps, ';'))
		next(ps);
	if (is_punct(ps, ';'))
		next(ps);
}

static void skip_block(struct ptx_parser *ps)
{
	int depth = 0;

	while (TOK->kind != TK_EOF) {
		if (is_punct(ps, '{'))
			depth++;
		if (is_punct(ps, '}') && --depth <= 0) {
			next(ps);
			return;
		}
		next(ps);
	}
}

/* ---- types ---- */

/* Reads ".type" at the current token, failing if it is not a type. */
static int expect_type(struct ptx_parser *ps)
{
	int t = ST_NONE;

	if (TOK->kind == TK_IDENT && TOK->s[0] == '.')
		t = ptx_parse_type(TOK->s + 1, TOK->len - 1);
	if (t == ST_NONE)
		ptx_fail(ps, TOK->line, "expected a type but found '%.*s'",
			 (int)TOK->len, TOK->s);
	next(ps);
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

#define GROW(arr, n, cap) \
	do { \
		if ((n) >= (cap)) { \
			(cap) = (cap) ? (cap) * 2 : 16; \
			(arr) = simt_xrealloc((arr), (size_t)(cap) * sizeof *(arr)); \
		} \
	} while (0)

static bool name_eq(const char *a, uint32_t alen, const char *b, uint32_t blen)
{
	return alen == blen && memcmp(a, b, alen) == 0;
}

/* Looks up a register by name; returns false if none is declared. */
static bool find_reg(struct ptx_parser *ps, const char *s, uint32_t len,
		     uint32_t *row, int *type)
{
	uint32_t plen = len, idx = 0, mul = 1;
	int i;

	for (i = ps->nregs - 1; i >= 0; i--) {
		struct ptx_reg *r = &ps->regs[i];

		if (!r->range && name_eq(r->name, r->len, s, len)) {
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

		if (r->range && name_eq(r->name, r->len, s, plen) &&
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
		if (name_eq(ps->pdecls[i].name, ps->pdecls[i].len, name, len))
			return i;
	return -1;
}

int ptx_find_local(struct ptx_parser *ps, const char *name, uint32_t len)
{
	int i;

	for (i = ps->nlocals - 1; i >= 0; i--)
		if (name_eq(ps->locals[i].name, ps->locals[i].len, name, len))
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
		next(ps);
		return;
	}
	if (find_reg(ps, TOK->s, TOK->len, &row, &type)) {
		r->kind = RO_REG;
		r->row = row;
		r->rtype = type;
		r->sym = TOK->s;        /* its name, for messages */
		r->symlen = TOK->len;
		next(ps);
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
		next(ps);
		return;
	}
	r->kind = RO_SYM;
	r->sym = TOK->s;
	r->symlen = TOK->len;
	next(ps);
	if (is_punct(ps, '+')) {
		next(ps);
		r->off = (int64_t)expect_int(ps);
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
	next(ps);
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
		next(ps);
	} else if (TOK->kind == TK_IDENT) {
		parse_name_operand(ps, base);
		if (base->kind == RO_SYM) {
			r->off = base->off;
			base->off = 0;
		}
	} else {
		ptx_fail(ps, TOK->line, "bad address operand");
	}
	while (is_punct(ps, '+') || is_punct(ps, '-')) {
		bool minus = is_punct(ps, '-');
		int64_t v;

		next(ps);
		if (is_punct(ps, '-')) {
			minus = !minus;
			next(ps);
		}
		v = (int64_t)expect_int(ps);
		/* addresses wrap around, as on the device */
		r->off = (int64_t)((uint64_t)r->off +
				   (minus ? 0 - (uint64_t)v : (uint64_t)v));
	}
	if (is_punct(ps, ',')) {
		/* [texture, {coordinates}]: the coordinates become elem[1] */
		struct ptx_rop *two = rop_alloc(ps, 2);

		next(ps);
		two[0] = *base;
		memset(&two[1], 0, sizeof two[1]);
		parse_operand(ps, &two[1]);
		r->elem = two;
		r->nelem = 2;
	}
	expect_punct(ps, ']');
}

static void parse_list(struct ptx_parser *ps, struct ptx_rop *r, char close,
		       int kind)
{
	struct ptx_rop tmp[64];
	int n = 0;

	while (!is_punct(ps, close)) {
		if (n == 64)
			ptx_fail(ps, TOK->line, "operand list too long");
		memset(&tmp[n], 0, sizeof tmp[n]);
		parse_operand(ps, &tmp[n]);
		n++;
		if (is_punct(ps, ','))
			next(ps);
		else if (!is_punct(ps, close))
			ptx_fail(ps, TOK->line, "expected ',' or '%c'", close);
	}
	next(ps);
	r->kind = kind;
	r->nelem = n;
	r->elem = rop_alloc(ps, n > 0 ? n : 1);
	memcpy(r->elem, tmp, (size_t)n * sizeof *tmp);
}

/* Real PTX nests operands two or three deep ([tex, {coords}]) and
 * initializers as deep as an array has dimensions; far deeper text is
 * hostile and would otherwise overflow the host stack. */
enum { PTX_MAX_NEST = 32 };

static void nest_in(struct ptx_parser *ps)
{
	if (++ps->depth > PTX_MAX_NEST)
		ptx_fail(ps, TOK->line, "operands or initializers nested more "
			 "than %d deep", PTX_MAX_NEST);
}

static void parse_operand_at(struct ptx_parser *ps, struct ptx_rop *r);

static void parse_operand(struct ptx_parser *ps, struct ptx_rop *r)
{
	nest_in(ps);
	parse_operand_at(ps, r);
	ps->depth--;
}

static void parse_operand_at(struct ptx_parser *ps, struct ptx_rop *r)
{
	if (is_punct(ps, '!')) {
		next(ps);
		parse_operand(ps, r);
		r->neg = !r->neg;
		return;
	}
	if (is_punct(ps, '-')) {
		next(ps);
		if (TOK->kind == TK_INT || TOK->kind == TK_FLOAT) {
			parse_number_operand(ps, r, true);
			return;
		}
		ptx_fail(ps, TOK->line, "negated operand '-%.*s' is not PTX",
			 (int)TOK->len, TOK->s);
	}
	if (is_punct(ps, '{')) {
		next(ps);
		parse_list(ps, r, '}', RO_VEC);
		return;
	}
	if (is_punct(ps, '(')) {
		next(ps);
		parse_list(ps, r, ')', RO_LIST);
		return;
	}
	if (is_punct(ps, '[')) {
		next(ps);
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
static void parse_instruction(struct ptx_parser *ps, int guard, bool gneg)
{
	struct ptx_rop ops[24];
	const char *op = TOK->s;
	uint32_t oplen = TOK->len, line = TOK->line;
	int n = 0;

	ps->npool = 0;
	next(ps);
	while (!is_punct(ps, ';')) {
		if (TOK->kind == TK_EOF)
			ptx_fail(ps, line, "missing ';'");
		if (n == 24)
			ptx_fail(ps, line, "too many operands");
		memset(&ops[n], 0, sizeof ops[n]);
		parse_operand(ps, &ops[n]);
		n++;
		if (is_punct(ps, ',')) {
			next(ps);
		} else if (is_punct(ps, '|')) {
			next(ps);
			if (n < 24) {
				memset(&ops[n], 0, sizeof ops[n]);
				parse_operand(ps, &ops[n]);
				ops[n].minus = true; /* marks "after '|'" */
				n++;
			}
			if (is_punct(ps, ','))
				next(ps);
		} else if (!is_punct(ps, ';')) {
			ptx_fail(ps, TOK->line, "unexpected '%.*s' after operand",
				 (int)TOK->len, TOK->s);
		}
	}
	next(ps);
	ptx_decode(ps, op, oplen, ops, n, guard, gneg, line);
}

/* ---- declarations ---- */

static void add_reg(struct ptx_parser *ps, const char *name, uint32_t len,
		    bool range, uint32_t count, int type)
{
	struct ptx_reg *r;

	GROW(ps->regs, ps->nregs, ps->capregs);
	r = &ps->regs[ps->nregs++];
	r->name = name;
	r->len = len;
	r->range = range;
	r->count = range ? count : 1;
	r->row = ps->nrows;
	r->type = type;
	ps->nrows += r->count;
}

static void parse_reg_decl(struct ptx_parser *ps)
{
	int type;

	next(ps);
	if (is_word(ps, ".v2") || is_word(ps, ".v4"))
		ptx_fail(ps, TOK->line, "vector registers are not supported");
	type = expect_type(ps);
	for (;;) {
		const char *name = TOK->s;
		uint32_t len = TOK->len;

		if (TOK->kind != TK_IDENT)
			ptx_fail(ps, TOK->line, "expected a register name");
		next(ps);
		if (is_punct(ps, '<')) {
			uint64_t count;

			next(ps);
			count = expect_int(ps);
			expect_punct(ps, '>');
			if (count > 1u << 20)
				ptx_fail(ps, TOK->line, "too many registers");
			add_reg(ps, name, len, true, (uint32_t)count, type);
		} else {
			add_reg(ps, name, len, false, 1, type);
		}
		if (!is_punct(ps, ','))
			break;
		next(ps);
	}
	expect_punct(ps, ';');
}

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

/* The largest declaration simt takes, and the most .global and .const
 * data one module may declare: static device data beyond that is better
 * allocated with cudaMalloc, and a PTX text cannot make simt reserve (and
 * clear) more host memory than this. */
#define PTX_MAX_DECL_BYTES (UINT64_C(256) << 20)
#define PTX_MAX_ALIGN 4096u

static uint32_t expect_align(struct ptx_parser *ps)
{
	uint32_t line = TOK->line;
	uint64_t a = expect_int(ps);

	if (a == 0 || a > PTX_MAX_ALIGN || (a & (a - 1)) != 0)
		ptx_fail(ps, line, ".align %llu is not a power of two up to %u",
			 (unsigned long long)a, PTX_MAX_ALIGN);
	return (uint32_t)a;
}

/* Parses "[.align N] [.vN] .type name[dims]" after the state space. */
static void parse_vdecl(struct ptx_parser *ps, struct vdecl *d)
{
	uint64_t elem;

	d->vec = 1;
	d->align = 0;
	for (;;) {
		if (is_word(ps, ".align")) {
			next(ps);
			d->align = expect_align(ps);
		} else if (is_word(ps, ".v2") || is_word(ps, ".v4") ||
			   is_word(ps, ".v8")) {
			d->vec = TOK->s[2] - '0';
			next(ps);
		} else if (is_word(ps, ".ptr") || is_word(ps, ".global") ||
			   is_word(ps, ".const") || is_word(ps, ".shared") ||
			   is_word(ps, ".local")) {
			next(ps);
		} else if (is_word(ps, ".attribute")) {
			next(ps);
			expect_punct(ps, '(');
			if (is_word(ps, ".managed"))
				d->managed = true;
			while (!is_punct(ps, ')') && TOK->kind != TK_EOF)
				next(ps);
			expect_punct(ps, ')');
		} else {
			break;
		}
	}
	d->type = expect_type(ps);
	for (;;) {
		if (is_word(ps, ".align")) {
			next(ps);
			d->align = expect_align(ps);
		} else if (is_word(ps, ".ptr") || is_word(ps, ".global") ||
			   is_word(ps, ".const") || is_word(ps, ".shared") ||
			   is_word(ps, ".local")) {
			next(ps);
		} else {
			break;
		}
	}
	if (TOK->kind != TK_IDENT)
		ptx_fail(ps, TOK->line, "expected a name in declaration");
	d->name = TOK->s;
	d->len = TOK->len;
	d->line = TOK->line;
	next(ps);
	d->count = 1;
	while (is_punct(ps, '[')) {
		uint64_t dim;

		next(ps);
		if (is_punct(ps, ']')) {
			d->unsized = true;
			next(ps);
			continue;
		}
		dim = expect_int(ps);
		if (dim && d->count > PTX_MAX_DECL_BYTES / dim)
			d->count = PTX_MAX_DECL_BYTES + 1;
		else
			d->count *= dim;
		expect_punct(ps, ']');
	}
	elem = (uint64_t)simt_type_size(d->type) * (uint64_t)d->vec;
	if (elem && d->count > PTX_MAX_DECL_BYTES / elem)
		ptx_fail(ps, d->line, "'%.*s' is larger than the %llu MiB simt "
			 "takes for one declaration", (int)d->len, d->name,
			 (unsigned long long)(PTX_MAX_DECL_BYTES >> 20));
	if (!d->align)
		d->align = (uint32_t)elem;
	if (!d->align)
		d->align = 1;
}

static uint64_t vdecl_size(const struct vdecl *d)
{
	return d->unsized ? 0 : d->count * (uint64_t)simt_type_size(d->type) *
				    (uint64_t)d->vec;
}

static void store_init_value(struct ptx_parser *ps, struct simt_var *v,
			     int type, uint64_t at, struct ptx_tok *t,
			     bool minus)
{
	int size = simt_type_size(type);
	uint64_t bits;

	if (at + (uint64_t)size > v->size)
		ptx_fail(ps, t->line, "too many initializers for %s", v->name);
	if (t->kind == TK_FLOAT || type == ST_F32 || type == ST_F64) {
		double x = t->kind == TK_FLOAT ? t->fval : (double)t->ival;

		if (t->kind == TK_INT && minus)
			x = -(double)t->ival;
		else if (minus)
			x = -x;
		if (type == ST_F32) {
			float f = (float)x;
			uint32_t u;

			if (t->kind == TK_FLOAT && t->fbits == 32 && !minus)
				u = (uint32_t)t->raw;
			else
				memcpy(&u, &f, 4);
			bits = u;
		} else if (type == ST_F64) {
			if (t->kind == TK_FLOAT && t->fbits == 64 && !minus)
				bits = t->raw;
			else
				memcpy(&bits, &x, 8);
		} else if (type == ST_F16) {
			bits = simt_f2h(x, RND_RN);
		} else {
			bits = simt_float_literal_bits(x);
		}
	} else {
		bits = minus ? 0 - t->ival : t->ival;
	}
	memcpy(v->init + at, &bits, (size_t)size);
}

/* Stores an address-valued initializer (name, generic(name), name+off). */
static void store_init_symbol(struct ptx_parser *ps, struct simt_var *v,
			      int type, uint64_t at)
{
	uint32_t line = TOK->line;
	bool generic = is_word(ps, "generic");
	const char *name;
	uint32_t len;
	int64_t off = 0;
	uint64_t addr;
	int vi;

	if (generic) {
		next(ps);
		expect_punct(ps, '(');
	}
	name = TOK->s;
	len = TOK->len;
	next(ps);
	if (generic)
		expect_punct(ps, ')');
	if (is_punct(ps, '+')) {
		next(ps);
		off = (int64_t)expect_int(ps);
	}
	vi = ptx_find_var(ps, name, len);
	if (vi < 0) {
		int fi = ptx_find_func(ps, name, len);

		if (fi < 0)
			ptx_fail(ps, line, "initializer refers to unknown '%.*s'",
				 (int)len, name);
		ps->mod->funcs[fi].address_taken = true;
		addr = SIMT_FUNC_TAG | (uint64_t)fi;
	} else if (!ps->mod->vars[vi].data) {
		ptx_fail(ps, line, "initializer refers to '%.*s', which is not a "
			 "global or constant variable", (int)len, name);
	} else {
		addr = (uint64_t)(uintptr_t)ps->mod->vars[vi].data + (uint64_t)off;
	}
	if (simt_type_size(type) != 8 || at + 8 > v->size)
		ptx_fail(ps, line, "address initializer needs a 64-bit slot");
	memcpy(v->init + at, &addr, 8);
}

static void parse_init_list(struct ptx_parser *ps, struct simt_var *v,
			    int type, uint64_t *at)
{
	int size = simt_type_size(type);

	if (is_punct(ps, '{')) {
		next(ps);
		nest_in(ps);
		while (!is_punct(ps, '}')) {
			parse_init_list(ps, v, type, at);
			if (is_punct(ps, ','))
				next(ps);
			else if (!is_punct(ps, '}'))
				ptx_fail(ps, TOK->line, "bad initializer");
		}
		ps->depth--;
		next(ps);
		return;
	}
	if (TOK->kind == TK_IDENT) {
		store_init_symbol(ps, v, type, *at);
	} else {
		bool minus = false;

		if (is_punct(ps, '-')) {
			minus = true;
			next(ps);
		}
		if (TOK->kind != TK_INT && TOK->kind != TK_FLOAT)
			ptx_fail(ps, TOK->line, "bad initializer value");
		store_init_value(ps, v, type, *at, TOK, minus);
		next(ps);
	}
	*at += (uint64_t)size;
}

static int add_var(struct ptx_parser *ps, const struct vdecl *d)
{
	struct simt_module *mod = ps->mod;
	struct simt_var *v;
	int existing = ptx_find_var(ps, d->name, d->len);

	if (existing >= 0)
		return existing;
	GROW(mod->vars, mod->nvars, mod->capvars);
	v = &mod->vars[mod->nvars];
	memset(v, 0, sizeof *v);
	v->name = simt_xstrndup(d->name, d->len);
	v->space = d->space;
	v->size = vdecl_size(d);
	v->align = d->align;
	v->is_extern = d->is_extern || d->unsized;
	v->managed = d->managed;
	if (d->space == SS_GLOBAL || d->space == SS_CONST) {
		size_t al = d->align < 16 ? 16 : d->align;
		size_t sz = (size_t)(v->size ? v->size : 1);

		if (v->size > PTX_MAX_DECL_BYTES - ps->static_bytes) {
			free(v->name);
			ptx_fail(ps, d->line, "'%.*s' takes the module's .global and "
				 ".const data past the %llu MiB simt takes; "
				 "allocate it with cudaMalloc", (int)d->len, d->name,
				 (unsigned long long)(PTX_MAX_DECL_BYTES >> 20));
		}
		ps->static_bytes += v->size;
		/* zeroed by calloc, which leaves a large area untouched until
		 * it is used; aligned by hand within it (al is a power of two) */
		v->alloc = calloc(1, sz + al);
		if (!v->alloc) {
			free(v->name);
			ptx_fail(ps, d->line, "out of memory for %.*s",
				 (int)d->len, d->name);
		}
		v->data = (uint8_t *)(((uintptr_t)v->alloc + al - 1) &
				      ~(uintptr_t)(al - 1));
	}
	return mod->nvars++;
}

/* Module- or function-level .global/.const/.shared variable. */
static void parse_module_var(struct ptx_parser *ps, int space, bool is_extern)
{
	struct vdecl d = {0};
	struct simt_var *v;
	int vi;

	next(ps);
	d.space = space;
	d.is_extern = is_extern;
	parse_vdecl(ps, &d);
	vi = add_var(ps, &d);
	v = &ps->mod->vars[vi];
	if (is_punct(ps, '=')) {
		uint64_t at = 0;

		next(ps);
		if (!v->data)
			ptx_fail(ps, TOK->line, "initializer on a .shared variable");
		if (v->init)
			ptx_fail(ps, TOK->line, "%s is initialized twice", v->name);
		v->init = simt_xcalloc(1, (size_t)(v->size ? v->size : 1));
		parse_init_list(ps, v, d.type, &at);
		/* the rest of both is zero */
		memcpy(v->data, v->init, (size_t)(at < v->size ? at : v->size));
	}
	expect_punct(ps, ';');
}

static void parse_local_decl(struct ptx_parser *ps)
{
	struct simt_func *f = &ps->mod->funcs[ps->fn];
	struct vdecl d = {0};
	struct ptx_local *l;
	uint32_t off;

	next(ps);
	d.space = SS_LOCAL;
	parse_vdecl(ps, &d);
	off = (f->local_size + d.align - 1) / d.align * d.align;
	GROW(ps->locals, ps->nlocals, ps->caplocals);
	l = &ps->locals[ps->nlocals++];
	l->name = d.name;
	l->len = d.len;
	l->offset = off;
	l->size = (uint32_t)vdecl_size(&d);
	f->local_size = off + l->size;
	if (d.align > f->local_align)
		f->local_align = d.align;
	expect_punct(ps, ';');
}

static void add_pdecl(struct ptx_parser *ps, const char *name, uint32_t len,
		      bool kernel, uint32_t offset, uint32_t size)
{
	struct ptx_pdecl *p;

	GROW(ps->pdecls, ps->npdecls, ps->cappdecls);
	p = &ps->pdecls[ps->npdecls++];
	p->name = name;
	p->len = len;
	p->kernel = kernel;
	p->offset = offset;
	p->size = size;
}

/* A .param declared inside a body: the argument or return slot of a call
 * sequence, given rows of the frame's per-lane parameter area. */
static void parse_param_decl(struct ptx_parser *ps)
{
	struct vdecl d = {0};
	uint32_t size;

	next(ps);
	d.space = SS_PARAM;
	parse_vdecl(ps, &d);
	size = (uint32_t)vdecl_size(&d);
	add_pdecl(ps, d.name, d.len, false, ps->nrows, size);
	ps->nrows += (size + 7) / 8 ? (size + 7) / 8 : 1;
	expect_punct(ps, ';');
}

/* ---- .loc ---- */

static bool toolkit_path(const char *p)
{
	return strstr(p, "/cuda/") || strstr(p, "/cuda-") ||
	       strstr(p, "/targets/") || strstr(p, "/crt/") ||
	       strstr(p, "cuda_fp16") || strstr(p, "cuda_bf16");
}

static void parse_file(struct ptx_parser *ps)
{
	struct simt_module *mod = ps->mod;
	uint64_t num;
	struct simt_file *f;

	next(ps);
	num = expect_int(ps);
	if (TOK->kind != TK_STRING)
		ptx_fail(ps, TOK->line, "expected a file name");
	if (num > 100000)
		ptx_fail(ps, TOK->line, "file number too large");
	mod->files = simt_xrealloc(mod->files, (size_t)(mod->nfiles + 1) *
				   sizeof *mod->files);
	f = &mod->files[mod->nfiles];
	f->path = simt_xstrndup(TOK->s, TOK->len);
	f->toolkit = toolkit_path(f->path);
	if ((int)num >= mod->nfile_map) {
		int n = (int)num + 1, i;

		mod->file_map = simt_xrealloc(mod->file_map,
					      (size_t)n * sizeof *mod->file_map);
		for (i = mod->nfile_map; i < n; i++)
			mod->file_map[i] = UINT32_MAX;
		mod->nfile_map = n;
	}
	mod->file_map[num] = (uint32_t)mod->nfiles;
	mod->nfiles++;
	next(ps);
	while (is_punct(ps, ',')) {
		next(ps);
		next(ps);
	}
}

/* Records the current inline chain of .loc directives; instructions
 * refer to it until map_files picks the location to report. */
static void push_chain(struct ptx_parser *ps)
{
	int i;

	if (ps->nchains >= ps->capchains) {
		ps->capchains = ps->capchains ? ps->capchains * 2 : 256;
		ps->chain_start = simt_xrealloc(ps->chain_start,
			(size_t)(ps->capchains + 1) * sizeof *ps->chain_start);
	}
	if (ps->nchain + (uint32_t)ps->nlocs > ps->capchain) {
		ps->capchain = (ps->capchain + (uint32_t)ps->nlocs) * 2;
		ps->chain = simt_xrealloc(ps->chain,
					  ps->capchain * sizeof *ps->chain);
	}
	ps->chain_start[ps->nchains] = ps->nchain;
	for (i = 0; i < ps->nlocs; i++)
		ps->chain[ps->nchain++] = ps->locs[i];
	ps->nchains++;
	ps->chain_start[ps->nchains] = ps->nchain;
	ps->cur_line = ps->nchains;
	ps->cur_file = 0;
}

static bool loc_eq(const struct ptx_loc *a, const struct ptx_loc *b)
{
	return a->file == b->file && a->line == b->line && a->col == b->col;
}

static uint32_t loc_hash(const struct ptx_loc *l, uint32_t cap)
{
	return (l->file * 2654435761u ^ l->line * 40503u ^ l->col) & (cap - 1);
}

/* The slot of child in the inline table (empty: line 0). */
static struct ptx_loc *inl_slot(struct ptx_parser *ps, const struct ptx_loc *child)
{
	uint32_t i = loc_hash(child, ps->inl_cap);

	while (ps->inl[i][0].line && !loc_eq(&ps->inl[i][0], child))
		i = (i + 1) & (ps->inl_cap - 1);
	return ps->inl[i];
}

static void inl_note(struct ptx_parser *ps, const struct ptx_loc *child,
		     const struct ptx_loc *parent)
{
	struct ptx_loc *e;

	if (!child->line)
		return;
	if (2 * (ps->inl_n + 1) > ps->inl_cap) {
		struct ptx_loc (*old)[2] = ps->inl;
		uint32_t cap = ps->inl_cap, i;

		ps->inl_cap = cap ? 2 * cap : 256;
		ps->inl = simt_xcalloc(ps->inl_cap, sizeof *ps->inl);
		for (i = 0; i < cap; i++)
			if (old[i][0].line) {
				e = inl_slot(ps, &old[i][0]);
				e[0] = old[i][0];
				e[1] = old[i][1];
			}
		free(old);
	}
	e = inl_slot(ps, child);
	if (!e[0].line)
		ps->inl_n++;
	e[0] = *child;
	e[1] = *parent;
}

/* Rebuilds the frames around `at` from where it was last seen inlined,
 * outermost first, into ps->locs (empty on entry). */
static void inl_rebuild(struct ptx_parser *ps, const struct ptx_loc *at)
{
	struct ptx_loc up[16];
	int n = 0, i;

	up[n++] = *at;
	while (n < 15 && ps->inl_cap) {
		const struct ptx_loc *e = inl_slot(ps, &up[n - 1]);

		if (!e[0].line)
			break;
		for (i = 0; i < n && !loc_eq(&up[i], &e[1]); i++)
			;
		if (i < n)
			break;          /* a cycle: stop */
		up[n++] = e[1];
	}
	for (i = n; i-- > 0;)
		ps->locs[ps->nlocs++] = up[i];
}

static void parse_loc(struct ptx_parser *ps)
{
	struct ptx_loc l;

	next(ps);
	l.file = (uint32_t)expect_int(ps);
	l.line = (uint32_t)expect_int(ps);
	l.col = (uint32_t)expect_int(ps);
	if (is_punct(ps, ',')) {
		struct ptx_loc at = {0, 0, 0};
		bool inlined = false;

		while (is_punct(ps, ',')) {
			next(ps);
			if (is_word(ps, "function_name")) {
				next(ps);
				next(ps);
				if (is_punct(ps, '+')) {
					next(ps);
					next(ps);
				}
			} else if (is_word(ps, "inlined_at")) {
				next(ps);
				at.file = (uint32_t)expect_int(ps);
				at.line = (uint32_t)expect_int(ps);
				at.col = (uint32_t)expect_int(ps);
				inlined = true;
			} else {
				next(ps);
			}
		}
		if (inlined) {
			inl_note(ps, &l, &at);
			while (ps->nlocs > 0) {
				struct ptx_loc *t = &ps->locs[ps->nlocs - 1];

				if (t->file == at.file && t->line == at.line &&
				    t->col == at.col)
					break;
				ps->nlocs--;
			}
			if (ps->nlocs == 0)
				inl_rebuild(ps, &at);
			if (ps->nlocs < 16)
				ps->locs[ps->nlocs++] = l;
			push_chain(ps);
			return;
		}
	}
	ps->nlocs = 0;
	ps->locs[ps->nlocs++] = l;
	push_chain(ps);
}

/* ---- functions ---- */

static int get_func(struct ptx_parser *ps, const char *name, uint32_t len)
{
	struct simt_module *mod = ps->mod;
	struct simt_func *f;
	int i = ptx_find_func(ps, name, len);

	if (i >= 0)
		return i;
	GROW(mod->funcs, mod->nfuncs, mod->capfuncs);
	f = &mod->funcs[mod->nfuncs];
	memset(f, 0, sizeof *f);
	f->name = simt_xstrndup(name, len);
	f->local_align = 1;
	if (strcmp(f->name, "vprintf") == 0)
		f->builtin = BI_VPRINTF;
	else if (strcmp(f->name, "__assertfail") == 0)
		f->builtin = BI_ASSERTFAIL;
	else if (strcmp(f->name, "malloc") == 0)
		f->builtin = BI_MALLOC;
	else if (strcmp(f->name, "free") == 0)
		f->builtin = BI_FREE;
	else if (strcmp(f->name, "cudaGraphSetConditional") == 0)
		f->builtin = BI_SETCOND;
	return mod->nfuncs++;
}

/* Parses "( .param ... , ... )".  Kernel parameters get offsets in the
 * launch buffer; function parameters get frame rows. */
static void parse_param_list(struct ptx_parser *ps, bool kernel, int slot,
			     uint32_t *kbytes)
{
	struct simt_param *list = NULL;
	int n = 0, cap = 0;

	expect_punct(ps, '(');
	while (!is_punct(ps, ')')) {
		struct vdecl d = {0};
		struct simt_param *p;
		uint32_t size;

		if (!is_word(ps, ".param") && !is_word(ps, ".reg"))
			ptx_fail(ps, TOK->line, "expected .param");
		next(ps);
		d.space = SS_PARAM;
		parse_vdecl(ps, &d);
		size = (uint32_t)vdecl_size(&d);
		GROW(list, n, cap);
		ps->plist[slot] = list;
		p = &list[n];
		p->name = simt_xstrndup(d.name, d.len);
		ps->nplist[slot] = ++n;
		p->size = size;
		p->align = d.align;
		if (kernel) {
			uint32_t off = (*kbytes + d.align - 1) / d.align * d.align;

			p->offset = off;
			*kbytes = off + size;
		} else {
			p->offset = ps->nrows;
			ps->nrows += size ? (size + 7) / 8 : 1;
		}
		if (is_punct(ps, ','))
			next(ps);
	}
	next(ps);
}

static void free_params(struct simt_param *p, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(p[i].name);
	free(p);
}

static void parse_perf_directives(struct ptx_parser *ps, struct simt_func *f)
{
	for (;;) {
		uint32_t *dst = NULL;
		int i;

		if (is_word(ps, ".maxntid"))
			dst = f->maxntid;
		else if (is_word(ps, ".reqntid"))
			dst = f->reqntid;
		else if (is_word(ps, ".minnctapersm") ||
			 is_word(ps, ".maxnctapersm") ||
			 is_word(ps, ".maxnreg") || is_word(ps, ".noreturn") ||
			 is_word(ps, ".maxclusterrank") ||
			 is_word(ps, ".reqnctapercluster") ||
			 is_word(ps, ".explicitcluster") ||
			 is_word(ps, ".pragma") || is_word(ps, ".abi_preserve") ||
			 is_word(ps, ".abi_preserve_control")) {
			bool pragma = is_word(ps, ".pragma");

			next(ps);
			if (pragma) {
				skip_to_semicolon(ps);
				continue;
			}
			while (TOK->kind == TK_INT || is_punct(ps, ',')) {
				next(ps);
			}
			continue;
		} else {
			return;
		}
		next(ps);
		for (i = 0; i < 3; i++) {
			dst[i] = 1;
		}
		for (i = 0; i < 3 && TOK->kind == TK_INT; i++) {
			dst[i] = (uint32_t)TOK->ival;
			next(ps);
			if (is_punct(ps, ','))
				next(ps);
		}
	}
}

static void resolve_labels(struct ptx_parser *ps)
{
	struct simt_module *mod = ps->mod;
	int i, j;

	for (i = 0; i < ps->nfixups; i++) {
		struct ptx_fixup *fx = &ps->fixups[i];
		bool found = false;

		for (j = 0; j < ps->nlabels; j++) {
			if (name_eq(ps->labels[j].name, ps->labels[j].len,
				    fx->name, fx->len)) {
				if (fx->kind == 2) {
					/* brx.idx table entry stored as a
					 * constant row value */
					mod->consts[(size_t)fx->pc * 32] =
						ps->labels[j].pc;
				} else {
					mod->code[fx->pc].target =
						ps->labels[j].pc;
				}
				found = true;
				break;
			}
		}
		if (!found)
			ptx_fail(ps, fx->line, "unknown label '%.*s'",
				 (int)fx->len, fx->name);
	}
	/* Broadcast brx table rows (only lane 0 was patched). */
	for (i = 0; i < ps->nfixups; i++) {
		if (ps->fixups[i].kind == 2) {
			uint64_t *row = mod->consts + (size_t)ps->fixups[i].pc * 32;

			for (j = 1; j < 32; j++)
				row[j] = row[0];
		}
	}
}

static void parse_label(struct ptx_parser *ps)
{
	struct ptx_label *l;

	GROW(ps->labels, ps->nlabels, ps->caplabels);
	l = &ps->labels[ps->nlabels++];
	l->name = TOK->s;
	l->len = TOK->len;
	l->pc = ps->mod->ncode;
	next(ps);
	expect_punct(ps, ':');
	/* A call prototype or branch table follows some labels. */
	if (is_word(ps, ".callprototype")) {
		skip_to_semicolon(ps);
	} else if (is_word(ps, ".branchtargets")) {
		skip_to_semicolon(ps);
	}
}

static bool next_is_colon(struct ptx_parser *ps)
{
	struct ptx_lexer save = ps->lx;
	bool colon;

	ptx_lex_next(&ps->lx);
	colon = ps->lx.cur.kind == TK_PUNCT && ps->lx.cur.punct == ':';
	ps->lx = save;
	return colon;
}

static void parse_statement(struct ptx_parser *ps, int *depth, int *scopes,
			    int scope_regs[][3])
{
	if (is_punct(ps, '{')) {
		if (*scopes >= 64)
			ptx_fail(ps, TOK->line, "blocks nested too deeply");
		scope_regs[*scopes][0] = ps->nregs;
		scope_regs[*scopes][1] = ps->npdecls;
		scope_regs[*scopes][2] = ps->nlocals;
		(*scopes)++;
		(*depth)++;
		next(ps);
	} else if (is_punct(ps, '}')) {
		(*depth)--;
		if (*depth > 0) {
			(*scopes)--;
			ps->nregs = scope_regs[*scopes][0];
			ps->npdecls = scope_regs[*scopes][1];
		}
		next(ps);
	} else if (is_word(ps, ".reg")) {
		parse_reg_decl(ps);
	} else if (is_word(ps, ".local")) {
		parse_local_decl(ps);
	} else if (is_word(ps, ".param")) {
		parse_param_decl(ps);
	} else if (is_word(ps, ".shared")) {
		parse_module_var(ps, SS_SHARED, false);
	} else if (is_word(ps, ".global")) {
		parse_module_var(ps, SS_GLOBAL, false);
	} else if (is_word(ps, ".const")) {
		parse_module_var(ps, SS_CONST, false);
	} else if (is_word(ps, ".loc")) {
		parse_loc(ps);
	} else if (is_word(ps, ".pragma")) {
		skip_to_semicolon(ps);
	} else if (is_punct(ps, '@')) {
		bool neg = false;
		uint32_t row;
		int type;

		next(ps);
		if (is_punct(ps, '!')) {
			neg = true;
			next(ps);
		}
		if (TOK->kind != TK_IDENT ||
		    !find_reg(ps, TOK->s, TOK->len, &row, &type) ||
		    type != ST_PRED)
			ptx_fail(ps, TOK->line, "bad guard predicate '%.*s'",
				 (int)TOK->len, TOK->s);
		ps->guard_name = TOK->s;
		ps->guard_len = TOK->len;
		next(ps);
		parse_instruction(ps, (int)row, neg);
	} else if (TOK->kind == TK_IDENT && TOK->s[0] != '.' &&
		   next_is_colon(ps)) {
		parse_label(ps);
	} else if (TOK->kind == TK_IDENT && TOK->s[0] != '.') {
		parse_instruction(ps, -1, false);
	} else if (TOK->kind == TK_IDENT) {
		ptx_fail(ps, TOK->line, "unsupported directive '%.*s'",
			 (int)TOK->len, TOK->s);
	} else {
		ptx_fail(ps, TOK->line, "unexpected '%.*s'", (int)TOK->len,
			 TOK->s);
	}
}

static void parse_body(struct ptx_parser *ps, int fi)
{
	struct simt_func *f;
	int depth = 1, scopes = 0;
	int scope_regs[64][3];

	ps->fn = fi;
	ps->nlabels = 0;
	ps->nfixups = 0;
	ps->nlocals = 0;
	ps->nlocs = 0;
	ps->cur_file = 0;
	ps->cur_line = 0;
	ps->ndu = 0;
	ps->ndu_row = 0;
	f = &ps->mod->funcs[fi];
	f->pc_begin = ps->mod->ncode;
	f->local_size = 0;
	f->local_align = 1;
	expect_punct(ps, '{');
	while (depth > 0) {
		if (TOK->kind == TK_EOF)
			ptx_fail(ps, TOK->line, "unterminated function body");
		parse_statement(ps, &depth, &scopes, scope_regs);
	}
	f = &ps->mod->funcs[fi];
	/* A body that falls off its end returns (or exits, for a kernel). */
	{
		struct simt_insn *in = ptx_emit(ps, TOK->line);

		in->op = f->is_entry ? OP_EXIT : OP_RET;
	}
	f = &ps->mod->funcs[fi];
	f->pc_end = ps->mod->ncode;
	resolve_labels(ps);
	f->nrows = ps->nrows ? ps->nrows : 1;
	f->defined = true;
	ptx_undef_analyze(ps, fi);
	ps->fn = -1;
}

static void parse_function(struct ptx_parser *ps, bool entry)
{
	struct simt_param *rets = NULL, *params = NULL;
	int nrets = 0, nparams = 0, fi;
	uint32_t kbytes = 0, line;
	const char *name;
	uint32_t len;
	struct simt_func *f;
	int i;

	next(ps);
	ps->nrows = 0;
	ps->nregs = 0;
	ps->npdecls = 0;
	if (!entry && is_punct(ps, '('))
		parse_param_list(ps, false, 0, NULL);
	if (TOK->kind != TK_IDENT)
		ptx_fail(ps, TOK->line, "expected a function name");
	name = TOK->s;
	len = TOK->len;
	line = TOK->line;
	next(ps);
	if (is_punct(ps, '('))
		parse_param_list(ps, entry, 1, &kbytes);
	rets = ps->plist[0];
	nrets = ps->nplist[0];
	params = ps->plist[1];
	nparams = ps->nplist[1];
	memset(ps->plist, 0, sizeof ps->plist);
	memset(ps->nplist, 0, sizeof ps->nplist);
	fi = get_func(ps, name, len);
	f = &ps->mod->funcs[fi];
	f->is_entry = entry;
	f->decl_line = line;
	free_params(f->rets, f->nrets);
	free_params(f->params, f->nparams);
	f->rets = rets;
	f->nrets = nrets;
	f->params = params;
	f->nparams = nparams;
	f->kparam_size = kbytes;
	for (i = 0; i < nrets; i++)
		add_pdecl(ps, rets[i].name, (uint32_t)strlen(rets[i].name), false,
			  rets[i].offset, rets[i].size);
	for (i = 0; i < nparams; i++)
		add_pdecl(ps, params[i].name, (uint32_t)strlen(params[i].name),
			  entry, params[i].offset, params[i].size);
	parse_perf_directives(ps, f);
	if (is_punct(ps, ';')) {
		next(ps);
		return;
	}
	parse_body(ps, fi);
}

/* The decimal digits at the start of s[0..n), at most 1000000; the text of
 * a token ends at n, with no NUL after it at the end of the input. */
static int leading_number(const char *s, uint32_t n)
{
	int v = 0;

	for (uint32_t i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		v = v >= 100000 ? 1000000 : v * 10 + (s[i] - '0');
	return v;
}

static void parse_version(struct ptx_parser *ps)
{
	next(ps);
	if (TOK->kind == TK_FLOAT) {
		const char *dot = memchr(TOK->s, '.', TOK->len);

		ps->mod->ptx_major = leading_number(TOK->s, TOK->len);
		ps->mod->ptx_minor = dot ? leading_number(dot + 1, TOK->len -
						 (uint32_t)(dot + 1 - TOK->s)) : 0;
		next(ps);
	} else {
		ps->mod->ptx_major = (int)expect_int(ps);
	}
}

static void parse_target(struct ptx_parser *ps)
{
	next(ps);
	while (TOK->kind == TK_IDENT) {
		if (TOK->len > 3 && memcmp(TOK->s, "sm_", 3) == 0)
			ps->mod->sm = leading_number(TOK->s + 3, TOK->len - 3);
		next(ps);
		if (!is_punct(ps, ','))
			break;
		next(ps);
	}
}

static void parse_toplevel(struct ptx_parser *ps)
{
	bool is_extern = false;

	while (TOK->kind != TK_EOF) {
		if (is_word(ps, ".version")) {
			parse_version(ps);
		} else if (is_word(ps, ".target")) {
			parse_target(ps);
		} else if (is_word(ps, ".address_size")) {
			next(ps);
			if (expect_int(ps) != 64)
				ptx_fail(ps, TOK->line,
					 "only 64-bit PTX is supported");
		} else if (is_word(ps, ".file")) {
			parse_file(ps);
		} else if (is_word(ps, ".section")) {
			next(ps);
			next(ps);
			skip_block(ps);
		} else if (is_word(ps, ".visible") || is_word(ps, ".weak") ||
			   is_word(ps, ".common")) {
			next(ps);
			continue;
		} else if (is_word(ps, ".extern")) {
			is_extern = true;
			next(ps);
			continue;
		} else if (is_word(ps, ".entry")) {
			parse_function(ps, true);
		} else if (is_word(ps, ".func")) {
			parse_function(ps, false);
		} else if (is_word(ps, ".global")) {
			parse_module_var(ps, SS_GLOBAL, is_extern);
		} else if (is_word(ps, ".const")) {
			parse_module_var(ps, SS_CONST, is_extern);
		} else if (is_word(ps, ".shared")) {
			parse_module_var(ps, SS_SHARED, is_extern);
		} else if (is_word(ps, ".alias") || is_word(ps, ".pragma")) {
			skip_to_semicolon(ps);
		} else if (is_punct(ps, ';')) {
			next(ps);
		} else {
			ptx_fail(ps, TOK->line, "unexpected '%.*s' at module level",
				 (int)TOK->len, TOK->s);
		}
		is_extern = false;
	}
}

static void parser_free(struct ptx_parser *ps)
{
	free_params(ps->plist[0], ps->nplist[0]);
	free_params(ps->plist[1], ps->nplist[1]);
	free(ps->regs);
	free(ps->pdecls);
	free(ps->locals);
	free(ps->labels);
	free(ps->fixups);
	free(ps->shfix);
	free(ps->ctab_key);
	free(ps->ctab_row);
	free(ps->pool);
	free(ps->chain);
	free(ps->chain_start);
	free(ps->inl);
	free(ps->du);
	free(ps->du_row);
}

int simt_ptx_load(struct simt_module *mod, const char *text, size_t len)
{
	struct ptx_parser *ps = simt_xcalloc(1, sizeof *ps);
	int rc = 0;

	ps->mod = mod;
	ps->fn = -1;
	ps->lx.p = text;
	ps->lx.end = text + len;
	ps->lx.line = 1;
	mod->ptx = text;
	mod->ptx_len = len;
	if (setjmp(ps->fail)) {
		mod->error = ps->error;
		rc = -1;
		goto out;
	}
	ptx_lex_next(&ps->lx);
	parse_toplevel(ps);
	ptx_finish(ps);
out:
	parser_free(ps);
	free(ps);
	return rc;
}

void simt_module_free(struct simt_module *mod)
{
	int i;

	for (i = 0; i < mod->nfuncs; i++) {
		struct simt_func *f = &mod->funcs[i];

		free(f->name);
		free_params(f->params, f->nparams);
		free_params(f->rets, f->nrets);
		free(f->bad);
		free(f->callees);
		free(f->shvars);
		free(f->sum_bad);
		free(f->uck_rows);
	}
	for (i = 0; i < mod->nvars; i++) {
		struct simt_var *v = &mod->vars[i];

		free(v->alloc);
		free(v->init);
		free(v->name);
	}
	for (i = 0; i < (int)mod->ncalls; i++)
		free(mod->calls[i].copies);
	for (i = 0; i < mod->nfiles; i++)
		free(mod->files[i].path);
	free(mod->files);
	free(mod->file_map);
	free(mod->funcs);
	free(mod->vars);
	free(mod->code);
	free(mod->runs);
	for (i = 0; i < (int)mod->nuck_row; i++)
		free(mod->uck_name[i]);
	free(mod->uck_name);
	free(mod->uck_row);
	free(mod->ucks);
	free(mod->uck_of);
	free(mod->ld_quiet);
	free(mod->consts);
	free(mod->calls);
	free(mod->owned);
	free(mod->error);
	free(mod->name);
}

const char *simt_space_name(int space)
{
	switch (space) {
	case SS_GLOBAL: return "global";
	case SS_SHARED: return "shared";
	case SS_LOCAL: return "local";
	case SS_CONST: return "constant";
	case SS_PARAM: case SS_KPARAM: return "parameter";
	default: return "generic";
	}
}
