/* Reading .file and .loc: the source files of a module and the source
 * location of each instruction, with the chains of inlined locations
 * (inlined_at) that name the call a line was inlined into. */
#include "ptx/ptx_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- .loc ---- */

static bool toolkit_path(const char *p)
{
	return strstr(p, "/cuda/") || strstr(p, "/cuda-") ||
	       strstr(p, "/targets/") || strstr(p, "/crt/") ||
	       strstr(p, "cuda_fp16") || strstr(p, "cuda_bf16");
}

void ptx_parse_file(struct ptx_parser *ps)
{
	struct simt_module *mod = ps->mod;
	uint64_t num;
	struct simt_file *f;

	ptx_next(ps);
	num = ptx_expect_int(ps);
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
	ptx_next(ps);
	while (ptx_is_punct(ps, ',')) {
		ptx_next(ps);
		ptx_next(ps);
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

void ptx_parse_loc(struct ptx_parser *ps)
{
	struct ptx_loc l;

	ptx_next(ps);
	l.file = (uint32_t)ptx_expect_int(ps);
	l.line = (uint32_t)ptx_expect_int(ps);
	l.col = (uint32_t)ptx_expect_int(ps);
	if (ptx_is_punct(ps, ',')) {
		struct ptx_loc at = {0, 0, 0};
		bool inlined = false;

		while (ptx_is_punct(ps, ',')) {
			ptx_next(ps);
			if (ptx_is_word(ps, "function_name")) {
				ptx_next(ps);
				ptx_next(ps);
				if (ptx_is_punct(ps, '+')) {
					ptx_next(ps);
					ptx_next(ps);
				}
			} else if (ptx_is_word(ps, "inlined_at")) {
				ptx_next(ps);
				at.file = (uint32_t)ptx_expect_int(ps);
				at.line = (uint32_t)ptx_expect_int(ps);
				at.col = (uint32_t)ptx_expect_int(ps);
				inlined = true;
			} else {
				ptx_next(ps);
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
