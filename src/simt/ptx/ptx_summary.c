/* Module finalisation: once the PTX is read, each instruction gets the
 * source line to report, the call graph is walked (reachability, cycles,
 * the local memory each call chain needs), shared memory is laid out, and
 * every kernel gets the summary a launch checks (the instructions it can
 * reach, unsupported ones named). */
#include "ptx/ptx_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- module finalisation ---- */

static bool file_known(const struct simt_module *mod, uint32_t f)
{
	return f < (uint32_t)mod->nfile_map && mod->file_map[f] != UINT32_MAX;
}

/* Gives each instruction the source location to report: the innermost
 * inlined location outside the CUDA toolkit's own headers, so a fault in
 * an inlined device function points at the user's line. */
static void map_files(struct ptx_parser *ps)
{
	struct simt_module *mod = ps->mod;
	uint32_t pc;

	for (pc = 0; pc < mod->ncode; pc++) {
		struct simt_insn *in = &mod->code[pc];
		uint32_t c = in->src_line, i, b, e, pick = UINT32_MAX;

		in->src_line = 0;
		in->src_file = UINT16_MAX;
		if (c == 0 || c > ps->nchains)
			continue;
		b = ps->chain_start[c - 1];
		e = ps->chain_start[c];
		for (i = e; i > b; i--) {
			const struct ptx_loc *l = &ps->chain[i - 1];

			if (l->line == 0 || !file_known(mod, l->file))
				continue;
			if (pick == UINT32_MAX)
				pick = i - 1;
			if (!mod->files[mod->file_map[l->file]].toolkit) {
				pick = i - 1;
				break;
			}
		}
		if (pick == UINT32_MAX)
			continue;
		in->src_file = (uint16_t)mod->file_map[ps->chain[pick].file];
		in->src_line = ps->chain[pick].line;
	}
}

static void add_unique(uint32_t **arr, int *n, uint32_t v)
{
	int i;

	for (i = 0; i < *n; i++)
		if ((*arr)[i] == v)
			return;
	*arr = simt_xrealloc(*arr, (size_t)(*n + 1) * sizeof **arr);
	(*arr)[(*n)++] = v;
}

/* Records, per function, its direct callees and shared variables. */
static void collect_uses(struct ptx_parser *ps)
{
	struct simt_module *mod = ps->mod;
	int fi, i;

	for (fi = 0; fi < mod->nfuncs; fi++) {
		struct simt_func *f = &mod->funcs[fi];
		uint32_t pc;

		if (!f->defined)
			continue;
		for (pc = f->pc_begin; pc < f->pc_end; pc++) {
			struct simt_insn *in = &mod->code[pc];

			if (in->op == OP_CALL)
				add_unique(&f->callees, &f->ncallees,
					   mod->calls[in->target].func);
			if (in->op == OP_CALLI)
				f->indirect_calls = true;
		}
		for (i = 0; i < ps->nshfix; i++) {
			struct ptx_shfix *s = &ps->shfix[i];

			if (!s->is_row && s->where >= f->pc_begin &&
			    s->where < f->pc_end)
				add_unique(&f->shvars, &f->nshvars, s->var);
			if (s->is_row && s->func == fi)
				add_unique(&f->shvars, &f->nshvars, s->var);
		}
	}
}

/* Transitive closure of callees of kernel k as a boolean array. */
static void reach(const struct simt_module *mod, int fi, bool *seen)
{
	const struct simt_func *f = &mod->funcs[fi];
	int i;

	if (seen[fi])
		return;
	seen[fi] = true;
	for (i = 0; i < f->ncallees; i++)
		reach(mod, (int)f->callees[i], seen);
}

static bool on_cycle(const struct simt_module *mod, int fi, int *state)
{
	const struct simt_func *f = &mod->funcs[fi];
	int i;

	if (state[fi] == 1)
		return true;
	if (state[fi] == 2)
		return false;
	state[fi] = 1;
	for (i = 0; i < f->ncallees; i++)
		if (on_cycle(mod, (int)f->callees[i], state))
			return true;
	state[fi] = 2;
	return false;
}

/* Deepest chain of (local bytes, rows) from fi, for non-recursive kernels. */
static void chain_need(const struct simt_module *mod, int fi, uint32_t *local,
		       uint32_t *rows)
{
	const struct simt_func *f = &mod->funcs[fi];
	uint32_t best_l = 0, best_r = 0;
	int i;

	for (i = 0; i < f->ncallees; i++) {
		uint32_t l = 0, r = 0;

		chain_need(mod, (int)f->callees[i], &l, &r);
		if (l > best_l)
			best_l = l;
		if (r > best_r)
			best_r = r;
	}
	*local = (f->local_size + 15) / 16 * 16 + best_l;
	*rows = f->nrows + best_r;
}

/* Places the shared variables: each kernel's variables must not overlap,
 * variables of different kernels may.  Dynamic (extern) shared memory
 * starts after the static variables of every kernel that uses it. */
static void layout_shared(struct ptx_parser *ps, bool **uses)
{
	struct simt_module *mod = ps->mod;
	int nv = mod->nvars, nf = mod->nfuncs, v, w, k;
	uint64_t *off = simt_xcalloc((size_t)nv, sizeof *off);
	bool *placed = simt_xcalloc((size_t)nv, 1);
	uint64_t dyn_off = 0;
	uint32_t dyn_align = 16;

	for (v = 0; v < nv; v++) {
		struct simt_var *var = &mod->vars[v];
		uint64_t o = 0;
		bool moved = true;

		if (var->space != SS_SHARED || var->is_extern)
			continue;
		while (moved) {
			moved = false;
			o = (o + var->align - 1) / var->align * var->align;
			for (w = 0; w < nv; w++) {
				bool together = false;

				if (!placed[w])
					continue;
				for (k = 0; k < nf && !together; k++)
					together = uses[k] && uses[k][v] &&
						   uses[k][w];
				if (together && o < off[w] + mod->vars[w].size &&
				    off[w] < o + var->size) {
					o = off[w] + mod->vars[w].size;
					moved = true;
				}
			}
		}
		off[v] = o;
		placed[v] = true;
	}
	for (k = 0; k < nf; k++) {
		struct simt_func *f = &mod->funcs[k];
		uint64_t end = 0;
		bool dyn = false;

		if (!uses[k])
			continue;
		for (v = 0; v < nv; v++) {
			if (!uses[k][v])
				continue;
			if (mod->vars[v].is_extern) {
				dyn = true;
				if (mod->vars[v].align > dyn_align)
					dyn_align = mod->vars[v].align;
			} else if (off[v] + mod->vars[v].size > end) {
				end = off[v] + mod->vars[v].size;
			}
		}
		f->sum_shared = (uint32_t)end;
		if (dyn && end > dyn_off)
			dyn_off = end;
	}
	dyn_off = (dyn_off + dyn_align - 1) / dyn_align * dyn_align;
	for (v = 0; v < nv; v++) {
		if (mod->vars[v].space == SS_SHARED && mod->vars[v].is_extern)
			off[v] = dyn_off;
		mod->vars[v].shared_off = off[v];
	}
	for (k = 0; k < nf; k++) {
		struct simt_func *f = &mod->funcs[k];

		if (!uses[k])
			continue;
		f->sum_dyn_align = dyn_align;
		for (v = 0; v < nv; v++)
			if (uses[k][v] && mod->vars[v].is_extern &&
			    dyn_off > f->sum_shared)
				f->sum_shared = (uint32_t)dyn_off;
	}
	/* Patch the references. */
	for (k = 0; k < ps->nshfix; k++) {
		struct ptx_shfix *s = &ps->shfix[k];

		if (s->is_row) {
			uint64_t *row = mod->consts + (size_t)s->where * 32;
			int l;

			for (l = 0; l < 32; l++)
				row[l] += off[s->var];
		} else {
			mod->code[s->where].imm += (int64_t)off[s->var];
		}
	}
	free(off);
	free(placed);
}

static char *first_bad(const struct simt_module *mod, const bool *seen)
{
	int i;

	for (i = 0; i < mod->nfuncs; i++) {
		const struct simt_func *f = &mod->funcs[i];

		if (!seen[i])
			continue;
		if (f->bad)
			return simt_xstrdup(f->bad);
		if (!f->defined && !f->builtin)
			return simt_xasprintf("calls external function %s, which "
					      "simt does not provide", f->name);
	}
	return NULL;
}

static void summarize_kernels(struct ptx_parser *ps)
{
	struct simt_module *mod = ps->mod;
	int nf = mod->nfuncs, k, i;
	bool **uses = simt_xcalloc((size_t)nf, sizeof *uses);
	bool *seen = simt_xmalloc((size_t)nf);
	int *state = simt_xmalloc((size_t)nf * sizeof *state);

	for (k = 0; k < nf; k++) {
		struct simt_func *f = &mod->funcs[k];
		uint32_t l, r;

		if (!f->is_entry || !f->defined)
			continue;
		memset(seen, 0, (size_t)nf);
		reach(mod, k, seen);
		for (i = 0; i < nf; i++)
			if (seen[i] && mod->funcs[i].indirect_calls)
				break;
		if (i < nf) {
			int j;

			for (j = 0; j < nf; j++)
				if (mod->funcs[j].address_taken)
					reach(mod, j, seen);
		}
		uses[k] = simt_xcalloc((size_t)(mod->nvars ? mod->nvars : 1), 1);
		for (i = 0; i < nf; i++) {
			int j;

			if (!seen[i])
				continue;
			for (j = 0; j < mod->funcs[i].nshvars; j++)
				uses[k][mod->funcs[i].shvars[j]] = true;
			if (i != k)
				f->sum_calls = true;
			if (mod->funcs[i].indirect_calls)
				f->sum_recursive = true;
		}
		memset(state, 0, (size_t)nf * sizeof *state);
		if (on_cycle(mod, k, state))
			f->sum_recursive = true;
		f->sum_bad = first_bad(mod, seen);
		if (!f->sum_recursive) {
			chain_need(mod, k, &l, &r);
			f->sum_local = l;
			f->sum_rows = r;
		} else {
			f->sum_local = (f->local_size + 15) / 16 * 16;
			f->sum_rows = f->nrows;
		}
		f->sum_ok = f->sum_bad == NULL;
		f->summarized = true;
	}
	layout_shared(ps, uses);
	for (k = 0; k < nf; k++)
		mod->funcs[k].sum_shvars = uses[k];
	free(uses);
	free(seen);
	free(state);
}

int simt_kernel_summarize(struct simt_module *mod, struct simt_func *f)
{
	(void)mod;
	return f->summarized && f->sum_ok ? 0 : -1;
}

/* What a launch needs computed once the whole module is read: source
 * locations, the functions each function can reach, the shared-memory
 * layout and each kernel's summary. */
/* Whether instruction p may write register row r: any register operand
 * of it other than a load's address. */
static bool may_write_row(const struct simt_insn *p, uint32_t r)
{
	int k;

	for (k = 0; k < 6; k++)
		if (p->o[k].kind == OK_REG && p->o[k].idx == r)
			return true;
	return p->op != OP_LD && p->addr.kind == OK_REG && p->addr.idx == r;
}

/* Whether p is a lane-wise operation or a plain memory access, which
 * writes no register row but its operands (no call, tensor core,
 * synchronisation or control flow). */
static bool lane_wise(const struct simt_insn *p)
{
	return p->op <= OP_TESTP || p->op == OP_LD ||
	       p->op == OP_ST;
}

/* Marks each register-addressed 4-byte ld.shared whose address row an
 * earlier one read a few instructions before, with only lane-wise
 * operations and memory accesses between that do not write the row: the interpreter
 * then reuses what it found of the row's lanes there (lanes in a line)
 * instead of looking again, as long as it ran the code in between
 * straight through (exec.c). */
static void mark_known_lines(struct simt_module *mod)
{
	int fi;

	for (fi = 0; fi < mod->nfuncs; fi++) {
		const struct simt_func *f = &mod->funcs[fi];
		uint32_t pc, q;

		if (!f->defined)
			continue;
		for (pc = f->pc_begin; pc < f->pc_end; pc++) {
			struct simt_insn *in = &mod->code[pc];
			uint32_t r = in->addr.idx;

			if (in->form != MF_LD_SHARED4)
				continue;
			for (q = pc; q > f->pc_begin && pc - q < 64; q--) {
				const struct simt_insn *p = &mod->code[q - 1];

				if (!lane_wise(p))
					break;
				if (may_write_row(p, r))
					break;
				if ((p->form == MF_LD_SHARED4 ||
				     p->form == MF_LD_SHARED4_AGAIN) &&
				    p->addr.idx == r) {
					in->form = MF_LD_SHARED4_AGAIN;
					break;
				}
			}
		}
	}
}

void ptx_finish(struct ptx_parser *ps)
{
	map_files(ps);
	collect_uses(ps);
	summarize_kernels(ps);
	mark_known_lines(ps->mod);
}
