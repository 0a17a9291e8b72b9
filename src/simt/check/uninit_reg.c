/* Reads of registers before anything was written to them, while kernels
 * run: each warp keeps, per candidate row of each frame, the lanes that
 * have written it (w->defd), and the instructions that ptx/undef.c found
 * may read a candidate unwritten, or write one, carry a check (struct
 * simt_uck) that the interpreter makes through the hooks.  A lane that
 * reads an unwritten candidate is reported with the instruction's source
 * line (simt_hz_uninit_reg). */
#include "check/hazard.h"

#include <stdlib.h>

void simt_uck_prepare(struct block_ctx *bc)
{
	const struct launch_state *L = bc->L;
	uint32_t i;

	bc->uck = L->hz && L->mod->nucks;
	if (!bc->uck)
		return;
	for (i = 0; i < bc->nwarps; i++) {
		struct warp *w = &bc->warps[i];

		if (w->defd_cap < w->rows_cap) {
			free(w->defd);
			w->defd = simt_xcalloc(w->rows_cap, sizeof *w->defd);
			w->defd_cap = w->rows_cap;
		}
	}
}

void simt_uck_frame(struct warp *w, const struct simt_func *f,
		    uint32_t row_base, uint32_t lanes)
{
	uint32_t i;

	for (i = 0; i < f->nuck_rows; i++)
		w->defd[row_base + f->uck_rows[i]] &= ~lanes;
}

void simt_uck_exec(struct block_ctx *bc, struct warp *w,
		   const struct simt_insn *in, uint32_t group, uint32_t ex)
{
	const struct simt_module *mod = bc->L->mod;
	const struct simt_uck *u = &mod->ucks[mod->uck_of[in - mod->code]];
	const uint32_t *row = &mod->uck_row[u->first];
	char *const *name = &mod->uck_name[u->first];
	uint32_t *dd = w->defd + w->frames[w->fi].row_base;
	uint32_t i, k = 0, bad, m;

	if (u->guard) {
		bad = group & ~dd[row[0]];
		if (bad) {
			simt_hz_uninit_reg(bc, w, (unsigned)__builtin_ctz(bad), in,
					   name[0]);
			dd[row[0]] |= bad;
		}
		k = 1;
	}
	for (i = 0; i < u->nchk; i++, k++) {
		bad = ex & ~dd[row[k]];
		if (bad) {
			simt_hz_uninit_reg(bc, w, (unsigned)__builtin_ctz(bad), in,
					   name[k]);
			dd[row[k]] |= bad;
		}
	}
	for (i = 0; i < u->nset; i++, k++)
		dd[row[k]] |= ex;
	if (u->ndst) {
		const uint32_t *dst = &row[k], *src = &row[k + u->ndst];

		m = u->merge == UCK_ALL ? ~0u : 0;
		for (i = 0; i < u->nsrc; i++)
			m = u->merge == UCK_ALL ? m & dd[src[i]] : m | dd[src[i]];
		if (u->merge == UCK_XLANE)
			m = (m & ex) ? ~0u : 0;
		for (i = 0; i < u->ndst; i++)
			dd[dst[i]] = (dd[dst[i]] & ~ex) | (m & ex);
	}
}
