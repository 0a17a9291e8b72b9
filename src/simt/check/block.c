/* Launches and blocks: the clocks a launch begins from, the per-context
 * and per-block state of the checker (prepared, begun, released), and the
 * marking of compare-and-swap seed loads at a module's first launch. */
#include "check/hz_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hz_slog_clear(struct hz_block *hb)
{
	hb->q.n = 0;
	hb->nsoff = 0;
}

/* Whether a copy started by cp.async is still outstanding in the block. */
bool hz_async_pending(const struct hz_block *hb)
{
	uint32_t i;

	if (!hb->cold)  /* no thread has had a copy in flight */
		return false;
	for (i = 0; i < hb->n; i++)
		if (hb->c[i].nasync)
			return true;
	return false;
}

/* Whether instruction `in` writes register row `row` of its frame. */
static bool writes_row(const struct simt_insn *in, uint32_t row)
{
	return in->op != OP_ST && in->op != OP_BRA && in->o[0].kind == OK_REG &&
	       in->o[0].idx == row;
}

/* Marks the plain loads that seed a compare-and-swap loop (old = *p;
 * do { ... } while ((old = atomicCAS(p, assumed, ...)) != assumed), the
 * CUDA Programming Guide's way to build atomics): a load whose value,
 * directly or through moves, is the compare operand of an atom.cas a few
 * instructions on.  The value read is only a guess the CAS checks, so
 * the load counts as a relaxed one, which does not race with atomics. */
static void mark_cas_seeds(struct simt_module *mod)
{
	uint32_t i, j, k;

	for (i = 0; i < mod->ncode; i++) {
		struct simt_insn *ld = &mod->code[i];
		uint32_t rows[8], nrows = 1;

		if (ld->op != OP_LD || (ld->sem & MSEM_STRONG) || ld->vec != 1 ||
		    ld->o[0].kind != OK_REG || ld->am == AM_PARAM ||
		    ld->am == AM_KPARAM || ld->am == AM_LOCVAR)
			continue;
		rows[0] = ld->o[0].idx;
		for (j = i + 1; j < mod->ncode && j <= i + 48 && nrows; j++) {
			const struct simt_insn *in = &mod->code[j];
			bool held = false;

			if (in->op == OP_RET || in->op == OP_EXIT || in->op == OP_CALL)
				break;
			if (in->op == OP_ATOM && in->sub == SUB_CAS &&
			    in->o[1].kind == OK_REG) {
				for (k = 0; k < nrows; k++)
					held |= in->o[1].idx == rows[k];
				if (held) {
					ld->sem |= MSEM_STRONG;
					break;
				}
			}
			if (in->op == OP_MOV && in->o[1].kind == OK_REG) {
				for (k = 0; k < nrows; k++)
					held |= in->o[1].idx == rows[k];
				if (held && nrows < 8 && in->o[0].kind == OK_REG) {
					rows[nrows++] = in->o[0].idx;
					continue;
				}
			}
			for (k = 0; k < nrows; k++)
				if (writes_row(in, rows[k]))
					rows[k--] = rows[--nrows];
		}
	}
	mod->hz_marked = true;
}

/* Before clocks run out, every record of earlier operations is made to
 * read as old: the shadows start afresh, pooled ones included, and the
 * stream order forgets what is outstanding. */
void hz_clocks_check(void)
{
	if (hz_clock_base <= 0xC0000000u)
		return;
	hz_pool_flush();
	hz_pool_off = true;
	hz_shadows_reset();
	hz_pool_off = false;
	hz_clock_base = 1;
	simt_order_reset();
}

void simt_hz_launch_begin(struct launch_state *L)
{
	struct simt_order_op what = {0};

	L->hz = hz_checks_on;
	if (!L->hz)
		return;
	if (!L->mod->hz_marked)
		mark_cas_seeds(L->mod);
	hz_clocks_check();
	what.mod = L->mod;
	what.name = L->fn->name;
	what.grid[0] = L->grid.x;
	what.grid[1] = L->grid.y;
	what.grid[2] = L->grid.z;
	what.block[0] = L->block.x;
	what.block[1] = L->block.y;
	what.block[2] = L->block.z;
	L->hz_fence = simt_order_begin(L->lane, hz_clock_base, &what);
	L->hz_base = hz_clock_base;
	atomic_store(&hz_clock_max, hz_clock_base);
	L->hz_global = L->nblocks <= UINT32_MAX && L->nthreads <= 1024;
	hz_launch_number++;
}

void simt_hz_launch_end(struct launch_state *L)
{
	uint32_t m;

	if (!L->hz)
		return;
	m = atomic_load(&hz_clock_max);
	hz_clock_base = m + 1;
	if (L->hz_global)
		simt_hs_op_done(L->hz_base, m, false);
	hz_gtable_clear();
	fflush(stdout);
	hz_print_new_reports(L);
	fflush(stderr);
}

void hz_acc_clear(struct hz_acc *a)
{
	if (a->vc)
		hz_vc_unref(a->vc);
	hz_vc_unref(a->last);
	hz_gvc_unref(a->xk);
	memset(a, 0, sizeof *a);
}

/* The snapshots of the block's threads let go of: threads side by side
 * mostly share one (all of them after a barrier), so each run of equal
 * ones drops its references in one atomic operation. */
static void release_snaps(struct hz_block *hb)
{
	uint32_t i = 0, k;

	if (hb->same_snap && hb->n) {
		hz_vc_unref_n(hb->t[0].snap, hb->n);
		for (i = 0; i < hb->n; i++)
			hb->t[i].snap = NULL;
		hb->same_snap = false;
		return;
	}
	while (i < hb->n) {
		struct hz_vc *v = hb->t[i].snap;

		for (k = 0; i < hb->n && hb->t[i].snap == v; i++, k++)
			hb->t[i].snap = NULL;
		hz_vc_unref_n(v, k);
	}
}

/* What a thread holds besides its snapshot (release_snaps). */
static void thread_clear(struct hz_thread *t, struct hz_cold *c)
{
	if (t->xk || t->pend) {
		hz_gvc_unref(t->xk);
		hz_gvc_unref(t->pend);
		t->xk = t->pend = NULL;
	}
	if (t->fence_clk) {
		hz_vc_unref(c->fence_snap);
		hz_gvc_unref(c->fence_xk);
		c->fence_snap = NULL;
		c->fence_xk = NULL;
		c->fence_row_on = false;
		t->fence_clk = 0;
	}
	c->committed = 0;
	c->nasync = 0;
}

static void sync_clear(struct hz_block *hb)
{
	uint32_t i;

	for (i = 0; i < hb->capsync; i++) {
		struct hz_sync *s = &hb->sync[i];

		if (!s->used)
			continue;
		hz_gvc_unref(s->know);
		hz_acc_clear(&s->cur);
		hz_gvc_unref(s->done[0]);
		hz_gvc_unref(s->done[1]);
		memset(s, 0, sizeof *s);
	}
	hb->nsync = 0;
}

void hz_memo_clear(struct hz_block *hb)
{
	hz_vc_unref(hb->memo_a);
	hz_vc_unref(hb->memo_b);
	hz_vc_unref(hb->memo_r);
	hb->memo_a = hb->memo_b = hb->memo_r = NULL;
}

static void block_release(struct hz_block *hb)
{
	uint32_t i;

	if (hb->released)
		return;
	release_snaps(hb);
	if (hb->cold) {
		for (i = 0; i < hb->n; i++)
			thread_clear(&hb->t[i], &hb->c[i]);
		hb->cold = false;
	}
	if (hb->any_exit_pend) {
		memset(hb->exit_pend, 0, hb->nwarps * sizeof *hb->exit_pend);
		hb->any_exit_pend = false;
	}
	for (i = 0; i < NBARRIERS; i++)
		hz_acc_clear(&hb->bars[i]);
	hz_acc_clear(&hb->exited);
	sync_clear(hb);
	hz_memo_clear(hb);
	hb->released = true;
}

void simt_hz_ctx_prepare(struct block_ctx *bc)
{
	struct launch_state *L = bc->L;
	struct hz_block *hb = bc->hz;
	size_t words = L->shared_size / 4 + 2;

	if (!L->hz)
		return;
	if (!hb) {
		hb = bc->hz = simt_xcalloc(1, sizeof *hb);
		hb->capsync = 16;
		hb->sync = simt_xcalloc(hb->capsync, sizeof *hb->sync);
	}
	block_release(hb);
	hz_flush_cache(hb);
	if (hb->n < L->nthreads) {
		uint32_t i;

		for (i = 0; i < hb->n; i++)
			free(hb->c[i].async);
		free(hb->t);
		free(hb->c);
		hb->t = simt_xcalloc(L->nwarps * 32, sizeof *hb->t);
		hb->c = simt_xcalloc(L->nwarps * 32, sizeof *hb->c);
	}
	if (hb->nwarps < L->nwarps) {
		free(hb->L);
		free(hb->Lon);
		free(hb->arrived);
		free(hb->exit_pend);
		free(hb->wclk);
		hb->wclk = simt_xcalloc(L->nwarps, sizeof *hb->wclk);
		hb->L = simt_xmalloc((size_t)L->nwarps * 32 * 32 * sizeof *hb->L);
		hb->Lon = simt_xcalloc(L->nwarps, sizeof *hb->Lon);
		hb->arrived = simt_xcalloc(L->nwarps, sizeof *hb->arrived);
		hb->exit_pend = simt_xcalloc(L->nwarps, sizeof *hb->exit_pend);
	}
	if (!hb->q.log) {
		hb->q.log = simt_xmalloc(SLOG_MAX * sizeof *hb->q.log);
		hb->soff = simt_xmalloc(SLOG_MAX * sizeof *hb->soff);
	}
	hb->q.on = false;
	hz_slog_clear(hb);
	hb->n = L->nthreads;
	hb->nwarps = L->nwarps;
	if (hb->ssh_cap < words) {
		free(hb->ssh);
		hb->ssh = simt_xcalloc(words, sizeof *hb->ssh);
		hb->ssh_cap = words;
	}
	if (hb->sinit_cap < L->shared_size / 8 + 1) {
		free(hb->sinit);
		hb->sinit_cap = L->shared_size / 8 + 1;
		hb->sinit = simt_xcalloc(hb->sinit_cap, 1);
	}
	if (hb->linit_cap < bc->local_cap / 8 + 1) {
		free(hb->linit);
		hb->linit_cap = bc->local_cap / 8 + 1;
		hb->linit = simt_xcalloc(hb->linit_cap, 1);
	}
	/* the reserved region (cooperative_groups' state) is the driver's */
	hb->init_limit = L->reserved ? L->reserved_begin : L->shared_size;
	hb->global_ok = L->hz_global;
}

void simt_hz_block_begin(struct block_ctx *bc)
{
	struct hz_block *hb = bc->hz;
	struct hz_vc *start;
	uint32_t i, base;

	if (!bc->L->hz)
		return;
	block_release(hb);
	base = bc->L->hz_base;
	hb->fence = bc->L->hz_fence;
	hb->ok_lo = hb->ok_hi = 0;
	hb->block = (uint32_t)bc->block;
	start = hz_vc_new(hb->n);
	for (i = 0; i < hb->n; i++)
		start->c[i] = base;
	atomic_store(&start->refs, hb->n);
	for (i = 0; i < hb->n; i++) {
		hb->t[i].clk = base + 1;
		hb->t[i].snap = start;
	}
	for (i = 0; i < hb->nwarps; i++)
		hb->wclk[i] = base + 1;
	hb->q_snap = start;
	hb->q_xk = NULL;
	hb->same_snap = true;
	hb->released = false;
	memset(hb->Lon, 0, hb->nwarps * sizeof *hb->Lon);
	memset(hb->sinit, 0, bc->L->shared_size / 8 + 1);
	memset(hb->linit, 0, (size_t)hb->n * bc->L->local_per_thread / 8 + 1);
	hb->sr2 = false;
	/* no access of this block is recorded yet */
	hz_quiet_begin(hb);
}

void simt_hz_block_end(struct block_ctx *bc)
{
	struct hz_block *hb = bc->hz;
	uint32_t i, m = 0, cur;

	if (!bc->L->hz)
		return;
	for (i = 0; i < hb->n; i++) {
		if (i % 32 == 0 && hb->wclk[i / 32]) {
			/* every thread of the warp is at this clock */
			if (hb->wclk[i / 32] > m)
				m = hb->wclk[i / 32];
			i += 31;
			continue;
		}
		if (hb->t[i].clk > m)
			m = hb->t[i].clk;
	}
	cur = atomic_load(&hz_clock_max);
	while (m > cur && !atomic_compare_exchange_weak(&hz_clock_max, &cur, m))
		;
	hz_flush_cache(hb);
	block_release(hb);
}
