/* Reading PTX functions and the module around them: .entry and .func with
 * their parameter lists and performance directives, labels and the
 * statements of a body, .version and .target, and simt_ptx_load, which
 * reads a whole module (simt_module_free undoes it). */
#include "ptx/ptx_int.h"
#include "mem/mem.h"

#include <stdlib.h>
#include <string.h>

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

	ptx_expect_punct(ps, '(');
	while (!ptx_is_punct(ps, ')')) {
		struct vdecl d = {0};
		struct simt_param *p;
		uint32_t size;

		if (!ptx_is_word(ps, ".param") && !ptx_is_word(ps, ".reg"))
			ptx_fail(ps, TOK->line, "expected .param");
		ptx_next(ps);
		d.space = SS_PARAM;
		ptx_parse_vdecl(ps, &d);
		size = (uint32_t)ptx_vdecl_size(&d);
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
		if (ptx_is_punct(ps, ','))
			ptx_next(ps);
	}
	ptx_next(ps);
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

		if (ptx_is_word(ps, ".maxntid"))
			dst = f->maxntid;
		else if (ptx_is_word(ps, ".reqntid"))
			dst = f->reqntid;
		else if (ptx_is_word(ps, ".minnctapersm") ||
			 ptx_is_word(ps, ".maxnctapersm") ||
			 ptx_is_word(ps, ".maxnreg") || ptx_is_word(ps, ".noreturn") ||
			 ptx_is_word(ps, ".maxclusterrank") ||
			 ptx_is_word(ps, ".reqnctapercluster") ||
			 ptx_is_word(ps, ".explicitcluster") ||
			 ptx_is_word(ps, ".pragma") || ptx_is_word(ps, ".abi_preserve") ||
			 ptx_is_word(ps, ".abi_preserve_control")) {
			bool pragma = ptx_is_word(ps, ".pragma");

			ptx_next(ps);
			if (pragma) {
				ptx_skip_to_semicolon(ps);
				continue;
			}
			while (TOK->kind == TK_INT || ptx_is_punct(ps, ',')) {
				ptx_next(ps);
			}
			continue;
		} else {
			return;
		}
		ptx_next(ps);
		for (i = 0; i < 3; i++) {
			dst[i] = 1;
		}
		for (i = 0; i < 3 && TOK->kind == TK_INT; i++) {
			dst[i] = (uint32_t)TOK->ival;
			ptx_next(ps);
			if (ptx_is_punct(ps, ','))
				ptx_next(ps);
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
			if (ptx_name_eq(ps->labels[j].name, ps->labels[j].len,
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
	ptx_next(ps);
	ptx_expect_punct(ps, ':');
	/* A call prototype or branch table follows some labels. */
	if (ptx_is_word(ps, ".callprototype")) {
		ptx_skip_to_semicolon(ps);
	} else if (ptx_is_word(ps, ".branchtargets")) {
		ptx_skip_to_semicolon(ps);
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
	if (ptx_is_punct(ps, '{')) {
		if (*scopes >= 64)
			ptx_fail(ps, TOK->line, "blocks nested too deeply");
		scope_regs[*scopes][0] = ps->nregs;
		scope_regs[*scopes][1] = ps->npdecls;
		scope_regs[*scopes][2] = ps->nlocals;
		(*scopes)++;
		(*depth)++;
		ptx_next(ps);
	} else if (ptx_is_punct(ps, '}')) {
		(*depth)--;
		if (*depth > 0) {
			(*scopes)--;
			ps->nregs = scope_regs[*scopes][0];
			ps->npdecls = scope_regs[*scopes][1];
		}
		ptx_next(ps);
	} else if (ptx_is_word(ps, ".reg")) {
		ptx_parse_reg_decl(ps);
	} else if (ptx_is_word(ps, ".local")) {
		ptx_parse_local_decl(ps);
	} else if (ptx_is_word(ps, ".param")) {
		ptx_parse_param_decl(ps);
	} else if (ptx_is_word(ps, ".shared")) {
		ptx_parse_module_var(ps, SS_SHARED, false);
	} else if (ptx_is_word(ps, ".global")) {
		ptx_parse_module_var(ps, SS_GLOBAL, false);
	} else if (ptx_is_word(ps, ".const")) {
		ptx_parse_module_var(ps, SS_CONST, false);
	} else if (ptx_is_word(ps, ".loc")) {
		ptx_parse_loc(ps);
	} else if (ptx_is_word(ps, ".pragma")) {
		ptx_skip_to_semicolon(ps);
	} else if (ptx_is_punct(ps, '@')) {
		bool neg = false;
		uint32_t row;
		int type;

		ptx_next(ps);
		if (ptx_is_punct(ps, '!')) {
			neg = true;
			ptx_next(ps);
		}
		if (TOK->kind != TK_IDENT ||
		    !ptx_find_reg(ps, TOK->s, TOK->len, &row, &type) ||
		    type != ST_PRED)
			ptx_fail(ps, TOK->line, "bad guard predicate '%.*s'",
				 (int)TOK->len, TOK->s);
		ps->guard_name = TOK->s;
		ps->guard_len = TOK->len;
		ptx_next(ps);
		ptx_parse_instruction(ps, (int)row, neg);
	} else if (TOK->kind == TK_IDENT && TOK->s[0] != '.' &&
		   next_is_colon(ps)) {
		parse_label(ps);
	} else if (TOK->kind == TK_IDENT && TOK->s[0] != '.') {
		ptx_parse_instruction(ps, -1, false);
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
	ptx_expect_punct(ps, '{');
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

	ptx_next(ps);
	ps->nrows = 0;
	ps->nregs = 0;
	ps->npdecls = 0;
	if (!entry && ptx_is_punct(ps, '('))
		parse_param_list(ps, false, 0, NULL);
	if (TOK->kind != TK_IDENT)
		ptx_fail(ps, TOK->line, "expected a function name");
	name = TOK->s;
	len = TOK->len;
	line = TOK->line;
	ptx_next(ps);
	if (ptx_is_punct(ps, '('))
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
		ptx_add_pdecl(ps, rets[i].name, (uint32_t)strlen(rets[i].name), false,
			      rets[i].offset, rets[i].size);
	for (i = 0; i < nparams; i++)
		ptx_add_pdecl(ps, params[i].name, (uint32_t)strlen(params[i].name),
			      entry, params[i].offset, params[i].size);
	parse_perf_directives(ps, f);
	if (ptx_is_punct(ps, ';')) {
		ptx_next(ps);
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
	ptx_next(ps);
	if (TOK->kind == TK_FLOAT) {
		const char *dot = memchr(TOK->s, '.', TOK->len);

		ps->mod->ptx_major = leading_number(TOK->s, TOK->len);
		ps->mod->ptx_minor = dot ? leading_number(dot + 1, TOK->len -
						 (uint32_t)(dot + 1 - TOK->s)) : 0;
		ptx_next(ps);
	} else {
		ps->mod->ptx_major = (int)ptx_expect_int(ps);
	}
}

static void parse_target(struct ptx_parser *ps)
{
	ptx_next(ps);
	while (TOK->kind == TK_IDENT) {
		if (TOK->len > 3 && memcmp(TOK->s, "sm_", 3) == 0)
			ps->mod->sm = leading_number(TOK->s + 3, TOK->len - 3);
		ptx_next(ps);
		if (!ptx_is_punct(ps, ','))
			break;
		ptx_next(ps);
	}
}

static void parse_toplevel(struct ptx_parser *ps)
{
	bool is_extern = false;

	while (TOK->kind != TK_EOF) {
		if (ptx_is_word(ps, ".version")) {
			parse_version(ps);
		} else if (ptx_is_word(ps, ".target")) {
			parse_target(ps);
		} else if (ptx_is_word(ps, ".address_size")) {
			ptx_next(ps);
			if (ptx_expect_int(ps) != 64)
				ptx_fail(ps, TOK->line,
					 "only 64-bit PTX is supported");
		} else if (ptx_is_word(ps, ".file")) {
			ptx_parse_file(ps);
		} else if (ptx_is_word(ps, ".section")) {
			ptx_next(ps);
			ptx_next(ps);
			ptx_skip_block(ps);
		} else if (ptx_is_word(ps, ".visible") || ptx_is_word(ps, ".weak") ||
			   ptx_is_word(ps, ".common")) {
			ptx_next(ps);
			continue;
		} else if (ptx_is_word(ps, ".extern")) {
			is_extern = true;
			ptx_next(ps);
			continue;
		} else if (ptx_is_word(ps, ".entry")) {
			parse_function(ps, true);
		} else if (ptx_is_word(ps, ".func")) {
			parse_function(ps, false);
		} else if (ptx_is_word(ps, ".global")) {
			ptx_parse_module_var(ps, SS_GLOBAL, is_extern);
		} else if (ptx_is_word(ps, ".const")) {
			ptx_parse_module_var(ps, SS_CONST, is_extern);
		} else if (ptx_is_word(ps, ".shared")) {
			ptx_parse_module_var(ps, SS_SHARED, is_extern);
		} else if (ptx_is_word(ps, ".alias") || ptx_is_word(ps, ".pragma")) {
			ptx_skip_to_semicolon(ps);
		} else if (ptx_is_punct(ps, ';')) {
			ptx_next(ps);
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
		free(f->sum_shvars);
		free(f->sum_bad);
		free(f->uck_rows);
	}
	for (i = 0; i < mod->nvars; i++) {
		struct simt_var *v = &mod->vars[i];

		if (v->alloc_size)
			simt_arena_unmap(v->alloc, v->alloc_size);
		else
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
	free(mod->ran);
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
