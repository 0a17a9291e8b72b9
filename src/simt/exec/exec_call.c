/* Call frames: lanes that call a function together share a frame of
 * registers and local depot; call, ret and exit, and the frames' stack. */
#include "exec/exec.h"

#include "exec/hooks.h"
#include "exec/lanes.h"

#include <stdlib.h>

/* ---- frames ---- */

static void pop_dead_frames(struct warp *w)
{
	while (w->nframes > 1 && w->frames[w->nframes - 1].active == 0) {
		struct frame *f = &w->frames[w->nframes - 1];

		w->rows_top = f->rows_top;
		w->local_top = f->local_top;
		w->nframes--;
	}
}

static void lanes_leave_frames(struct warp *w, uint32_t lanes)
{
	uint32_t i;

	for (i = 0; i < w->nframes; i++)
		w->frames[i].active &= ~lanes;
	pop_dead_frames(w);
}

/* ---- calls ---- */

static bool grow_rows(struct warp *w, uint32_t need)
{
	uint32_t cap = w->rows_cap;

	if (need <= cap)
		return true;
	if (need > (1u << 22))
		return false;
	while (cap < need)
		cap *= 2;
	w->regs = simt_xrealloc(w->regs, (size_t)cap * 32 * sizeof(uint64_t));
	w->rows_cap = cap;
	if (w->defd) {
		w->defd = simt_xrealloc(w->defd, (size_t)cap * sizeof *w->defd);
		w->defd_cap = cap;
	}
	return true;
}

/* Row of the callee's parameter area that copy c of call site cs uses:
 * fixed for direct calls, the callee's parameter for indirect ones. */
static uint32_t callee_row(const struct simt_callsite *cs,
			   const struct simt_func *f, uint32_t v, bool arg)
{
	if (!cs->indirect)
		return v;
	return arg ? f->params[v].offset : f->rets[v].offset;
}

bool simt_exec_call(struct block_ctx *bc, struct warp *w,
		      const struct simt_insn *in, uint32_t ex, uint32_t func)
{
	const struct simt_module *mod = bc->L->mod;
	const struct simt_callsite *cs = &mod->calls[in->target];
	const struct simt_func *f = &mod->funcs[func];
	uint32_t parent = w->fi, nf, i, row_base, local_base, cost;
	uint64_t *caller, *callee;

	row_base = w->rows_top;
	cost = (f->local_size + 15) / 16 * 16 + (bc->L->fn->sum_recursive ? 16 : 0);
	local_base = w->local_top;
	if (w->frames[parent].depth >= 100000 || !grow_rows(w, row_base + f->nrows) ||
	    local_base + cost > bc->L->local_per_thread) {
		char name[512];

		simt_fault(bc, w, __builtin_ctz(ex), in, cudaErrorLaunchFailure,
			   "call stack overflow calling %s at depth %u (raise it "
			   "with cudaDeviceSetLimit(cudaLimitStackSize, ...))",
			   simt_demangle(f->name, name, sizeof name),
			   w->frames[parent].depth + 1);
		return false;
	}
	if (w->nframes == w->capframes) {
		w->capframes *= 2;
		w->frames = simt_xrealloc(w->frames, w->capframes * sizeof *w->frames);
	}
	nf = w->nframes++;
	w->frames[nf] = (struct frame){
		.func = func,
		.row_base = row_base,
		.local_base = local_base,
		.ret_pc = w->pc + 1,
		.parent = parent,
		.callsite = in->target,
		.depth = w->frames[parent].depth + 1,
		.active = ex,
		.rows_top = w->rows_top,
		.local_top = w->local_top,
	};
	w->rows_top = row_base + f->nrows;
	w->local_top = local_base + cost;
	caller = w->regs + (size_t)w->frames[parent].row_base * 32;
	callee = w->regs + (size_t)row_base * 32;
	for (i = 0; i < cs->ncopies_args; i++) {
		const uint32_t *c = &cs->copies[i * 3];
		uint32_t k;

		uint32_t to = callee_row(cs, f, c[1], true);

		for (k = 0; k < c[2]; k++) {
			const uint64_t *S = caller + (size_t)(c[0] + k) * 32;
			uint64_t *D = callee + (size_t)(to + k) * 32;

			FOR_LANES(ex, D[l] = S[l]);
		}
	}
	if (bc->uck)
		simt_uck_frame(w, f, row_base, ex);
	FOR_LANES(ex, w->lane_fi[l] = nf);
	w->fi = nf;
	w->pc = f->pc_begin;
	w->mask = ex;
	w->next_pc = UINT32_MAX;
	return true;
}

void simt_exec_ret(struct warp *w, const struct simt_module *mod,
		     uint32_t ex)
{
	struct frame *f = &w->frames[w->fi];
	const struct simt_callsite *cs = &mod->calls[f->callsite];
	const struct simt_func *fn = &mod->funcs[f->func];
	uint64_t *callee = w->regs + (size_t)f->row_base * 32;
	uint64_t *caller = w->regs + (size_t)w->frames[f->parent].row_base * 32;
	uint32_t i, parent = f->parent, ret_pc = f->ret_pc;

	for (i = 0; i < cs->ncopies_rets; i++) {
		const uint32_t *c = &cs->copies[(cs->ncopies_args + i) * 3];
		uint32_t k, from = callee_row(cs, fn, c[0], false);

		for (k = 0; k < c[2]; k++) {
			const uint64_t *S = callee + (size_t)(from + k) * 32;
			uint64_t *D = caller + (size_t)(c[1] + k) * 32;

			FOR_LANES(ex, D[l] = S[l]);
		}
	}
	FOR_LANES(ex, {
		w->lane_fi[l] = parent;
		w->lane_pc[l] = ret_pc;
	});
	f->active &= ~ex;
	pop_dead_frames(w);
}

void simt_exec_exit(struct block_ctx *bc, struct warp *w, uint32_t ex)
{
	if (bc->hz) {
		uint32_t waiting = w->bar_wait & ~w->exited & ~ex;

		simt_hz_exit(bc, w, ex);
		if (waiting) {
			const struct simt_insn *bar =
				&bc->L->mod->code[w->lane_pc[__builtin_ctz(waiting)]];

			/* lanes leave while others of the warp wait at an
			 * aligned barrier: it is reached by part of the warp */
			if ((bar->op == OP_BAR || bar->op == OP_BAR_RED) &&
			    (bar->sem & MSEM_ALIGNED))
				simt_hz_divergent_bar(bc, w, bar, waiting, ex,
						      UINT32_MAX - 1);
		}
	}
	w->exited |= ex;
	bc->exited_threads += popc(ex);
	lanes_leave_frames(w, ex);
	simt_check_all_barriers(bc);
}

