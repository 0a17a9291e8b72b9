/* Reading PTX declarations: registers (.reg), module and function
 * variables (.global, .const, .shared with their initializers), the
 * local depot (.local) and parameters (.param). */
#include "ptx/ptx_int.h"
#include "mem/mem.h"

#include <stdlib.h>
#include <string.h>

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

void ptx_parse_reg_decl(struct ptx_parser *ps)
{
	int type;

	ptx_next(ps);
	if (ptx_is_word(ps, ".v2") || ptx_is_word(ps, ".v4"))
		ptx_fail(ps, TOK->line, "vector registers are not supported");
	type = ptx_expect_type(ps);
	for (;;) {
		const char *name = TOK->s;
		uint32_t len = TOK->len;

		if (TOK->kind != TK_IDENT)
			ptx_fail(ps, TOK->line, "expected a register name");
		ptx_next(ps);
		if (ptx_is_punct(ps, '<')) {
			uint64_t count;

			ptx_next(ps);
			count = ptx_expect_int(ps);
			ptx_expect_punct(ps, '>');
			if (count > 1u << 20)
				ptx_fail(ps, TOK->line, "too many registers");
			add_reg(ps, name, len, true, (uint32_t)count, type);
		} else {
			add_reg(ps, name, len, false, 1, type);
		}
		if (!ptx_is_punct(ps, ','))
			break;
		ptx_next(ps);
	}
	ptx_expect_punct(ps, ';');
}

/* The largest declaration simt takes, and the most .global and .const
 * data one module may declare: static device data beyond that is better
 * allocated with cudaMalloc, and a PTX text cannot make simt reserve (and
 * clear) more host memory than this. */
#define PTX_MAX_DECL_BYTES (UINT64_C(256) << 20)
#define PTX_MAX_ALIGN 4096u

static uint32_t expect_align(struct ptx_parser *ps)
{
	uint32_t line = TOK->line;
	uint64_t a = ptx_expect_int(ps);

	if (a == 0 || a > PTX_MAX_ALIGN || (a & (a - 1)) != 0)
		ptx_fail(ps, line, ".align %llu is not a power of two up to %u",
			 (unsigned long long)a, PTX_MAX_ALIGN);
	return (uint32_t)a;
}

/* Parses "[.align N] [.vN] .type name[dims]" after the state space. */
void ptx_parse_vdecl(struct ptx_parser *ps, struct vdecl *d)
{
	uint64_t elem;

	d->vec = 1;
	d->align = 0;
	for (;;) {
		if (ptx_is_word(ps, ".align")) {
			ptx_next(ps);
			d->align = expect_align(ps);
		} else if (ptx_is_word(ps, ".v2") || ptx_is_word(ps, ".v4") ||
			   ptx_is_word(ps, ".v8")) {
			d->vec = TOK->s[2] - '0';
			ptx_next(ps);
		} else if (ptx_is_word(ps, ".ptr") || ptx_is_word(ps, ".global") ||
			   ptx_is_word(ps, ".const") || ptx_is_word(ps, ".shared") ||
			   ptx_is_word(ps, ".local")) {
			ptx_next(ps);
		} else if (ptx_is_word(ps, ".attribute")) {
			ptx_next(ps);
			ptx_expect_punct(ps, '(');
			if (ptx_is_word(ps, ".managed"))
				d->managed = true;
			while (!ptx_is_punct(ps, ')') && TOK->kind != TK_EOF)
				ptx_next(ps);
			ptx_expect_punct(ps, ')');
		} else {
			break;
		}
	}
	d->type = ptx_expect_type(ps);
	for (;;) {
		if (ptx_is_word(ps, ".align")) {
			ptx_next(ps);
			d->align = expect_align(ps);
		} else if (ptx_is_word(ps, ".ptr") || ptx_is_word(ps, ".global") ||
			   ptx_is_word(ps, ".const") || ptx_is_word(ps, ".shared") ||
			   ptx_is_word(ps, ".local")) {
			ptx_next(ps);
		} else {
			break;
		}
	}
	if (TOK->kind != TK_IDENT)
		ptx_fail(ps, TOK->line, "expected a name in declaration");
	d->name = TOK->s;
	d->len = TOK->len;
	d->line = TOK->line;
	ptx_next(ps);
	d->count = 1;
	while (ptx_is_punct(ps, '[')) {
		uint64_t dim;

		ptx_next(ps);
		if (ptx_is_punct(ps, ']')) {
			d->unsized = true;
			ptx_next(ps);
			continue;
		}
		dim = ptx_expect_int(ps);
		if (dim && d->count > PTX_MAX_DECL_BYTES / dim)
			d->count = PTX_MAX_DECL_BYTES + 1;
		else
			d->count *= dim;
		ptx_expect_punct(ps, ']');
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

uint64_t ptx_vdecl_size(const struct vdecl *d)
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
	bool generic = ptx_is_word(ps, "generic");
	const char *name;
	uint32_t len;
	int64_t off = 0;
	uint64_t addr;
	int vi;

	if (generic) {
		ptx_next(ps);
		ptx_expect_punct(ps, '(');
	}
	name = TOK->s;
	len = TOK->len;
	ptx_next(ps);
	if (generic)
		ptx_expect_punct(ps, ')');
	if (ptx_is_punct(ps, '+')) {
		ptx_next(ps);
		off = (int64_t)ptx_expect_int(ps);
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

	if (ptx_is_punct(ps, '{')) {
		ptx_next(ps);
		ptx_nest_in(ps);
		while (!ptx_is_punct(ps, '}')) {
			parse_init_list(ps, v, type, at);
			if (ptx_is_punct(ps, ','))
				ptx_next(ps);
			else if (!ptx_is_punct(ps, '}'))
				ptx_fail(ps, TOK->line, "bad initializer");
		}
		ps->depth--;
		ptx_next(ps);
		return;
	}
	if (TOK->kind == TK_IDENT) {
		store_init_symbol(ps, v, type, *at);
	} else {
		bool minus = false;

		if (ptx_is_punct(ps, '-')) {
			minus = true;
			ptx_next(ps);
		}
		if (TOK->kind != TK_INT && TOK->kind != TK_FLOAT)
			ptx_fail(ps, TOK->line, "bad initializer value");
		store_init_value(ps, v, type, *at, TOK, minus);
		ptx_next(ps);
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
	v->size = ptx_vdecl_size(d);
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
		/* pages of its own in the arena, beside device memory and
		 * away from the program's host memory (a kernel reaching past
		 * the variable is then told from one reaching into host
		 * memory), else zeroed by calloc, which leaves a large area
		 * untouched until it is used; aligned by hand within it (al
		 * is a power of two) */
		v->alloc_size = simt_page_round(sz + al);
		v->alloc = simt_arena_take(v->alloc_size, false);
		if (!v->alloc) {
			v->alloc_size = 0;
			v->alloc = calloc(1, sz + al);
		}
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
void ptx_parse_module_var(struct ptx_parser *ps, int space, bool is_extern)
{
	struct vdecl d = {0};
	struct simt_var *v;
	int vi;

	ptx_next(ps);
	d.space = space;
	d.is_extern = is_extern;
	ptx_parse_vdecl(ps, &d);
	vi = add_var(ps, &d);
	v = &ps->mod->vars[vi];
	if (ptx_is_punct(ps, '=')) {
		uint64_t at = 0;

		ptx_next(ps);
		if (!v->data)
			ptx_fail(ps, TOK->line, "initializer on a .shared variable");
		if (v->init)
			ptx_fail(ps, TOK->line, "%s is initialized twice", v->name);
		v->init = simt_xcalloc(1, (size_t)(v->size ? v->size : 1));
		parse_init_list(ps, v, d.type, &at);
		/* the rest of both is zero */
		memcpy(v->data, v->init, (size_t)(at < v->size ? at : v->size));
	}
	ptx_expect_punct(ps, ';');
}

void ptx_parse_local_decl(struct ptx_parser *ps)
{
	struct simt_func *f = &ps->mod->funcs[ps->fn];
	struct vdecl d = {0};
	struct ptx_local *l;
	uint32_t off;

	ptx_next(ps);
	d.space = SS_LOCAL;
	ptx_parse_vdecl(ps, &d);
	off = (f->local_size + d.align - 1) / d.align * d.align;
	GROW(ps->locals, ps->nlocals, ps->caplocals);
	l = &ps->locals[ps->nlocals++];
	l->name = d.name;
	l->len = d.len;
	l->offset = off;
	l->size = (uint32_t)ptx_vdecl_size(&d);
	f->local_size = off + l->size;
	if (d.align > f->local_align)
		f->local_align = d.align;
	ptx_expect_punct(ps, ';');
}

void ptx_add_pdecl(struct ptx_parser *ps, const char *name, uint32_t len,
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
void ptx_parse_param_decl(struct ptx_parser *ps)
{
	struct vdecl d = {0};
	uint32_t size;

	ptx_next(ps);
	d.space = SS_PARAM;
	ptx_parse_vdecl(ps, &d);
	size = (uint32_t)ptx_vdecl_size(&d);
	ptx_add_pdecl(ps, d.name, d.len, false, ps->nrows, size);
	ps->nrows += (size + 7) / 8 ? (size + 7) / 8 : 1;
	ptx_expect_punct(ps, ';');
}
