/* cp.async: a copy into shared memory lands when its thread waits for its
 * group (cp.async.wait_group / wait_all) or arrives on an mbarrier for it,
 * so until then it races with every other access of its bytes. */
#include "check/hz_int.h"

#include <stdlib.h>
#include <string.h>

/* The first shared byte that bytes `mask` of the granule holding offset
 * lo and a record's bytes `other` have in common. */
static const uint8_t *at(const struct block_ctx *bc, uint32_t lo,
			 uint8_t mask, uint8_t other)
{
	return bc->shared + (lo & ~3u) + __builtin_ctz(mask & other);
}

void simt_hz_async_copy(struct block_ctx *bc, const struct warp *w,
			unsigned lane, const struct simt_insn *in,
			uint32_t off, uint32_t n)
{
	struct hz_block *hb = bc->hz;
	uint32_t tid = w->id * 32 + lane, pc = (uint32_t)(in - bc->L->mod->code);
	struct hz_cold *t = &hb->c[tid];
	uint32_t g;

	hz_quiet_end(hb, bc->L->hz_base);
	hb->at_n = n;
	bits_set(hb->sinit, off, n, false);
	for (g = off >> 2; g <= (off + n - 1) >> 2; g++) {
		uint32_t lo = g * 4 > off ? g * 4 : off;
		uint32_t hi = g * 4 + 4 < off + n ? g * 4 + 4 : off + n;
		uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo & 3));
		struct hz_word *wd = &hb->ssh[g];
		struct hz_rec r, me;
		uint32_t base = bc->L->hz_base;

		rec_load(&r, &wd->w);
		if (r.clk > base && r.block == hb->block && (r.mask & mask) &&
		    !ordered(hb, tid, &r))
			hz_report_race(bc, SP_SHARED, &r, true, tid, pc, AC_ASYNC,
				       (r.flags & HZR_ASYNC) && r.tid == tid
				       ? WHY_ASYNC_AGAIN : 0, at(bc, lo, mask, r.mask));
		rec_load(&r, &wd->r);
		if (r.clk > base && r.block == hb->block && (r.mask & mask) &&
		    !ordered(hb, tid, &r)) {
			hz_report_race(bc, SP_SHARED, &r, false, tid, pc, AC_ASYNC, 0,
				       at(bc, lo, mask, r.mask));
		} else {
			rec_load(&r, &wd->r2);
			if (r.clk > base && r.block == hb->block && (r.mask & mask) &&
			    !ordered(hb, tid, &r))
				hz_report_race(bc, SP_SHARED, &r, false, tid, pc,
					       AC_ASYNC, 0, at(bc, lo, mask, r.mask));
		}
		me.block = hb->block;
		me.clk = NOT_WAITED;
		me.tid = (uint16_t)tid;
		me.flags = HZR_ASYNC;
		me.mask = mask;
		me.pc = pc;
		rec_store(&wd->w, &me);
	}
	if (t->nasync == ASYNC_MAX) {
		/* too many copies never waited for: the oldest count as done */
		memmove(t->async, t->async + 1, (ASYNC_MAX - 1) * sizeof *t->async);
		t->nasync--;
	}
	if (t->nasync == t->capasync) {
		t->capasync = t->capasync ? t->capasync * 2 : 16;
		t->async = simt_xrealloc(t->async, t->capasync * sizeof *t->async);
	}
	t->async[t->nasync].off = off;
	t->async[t->nasync].n = (uint16_t)n;
	t->async[t->nasync++].group = t->committed;
	hb->cold = true;
}

void simt_hz_async_commit(struct block_ctx *bc, const struct warp *w,
			  uint32_t lanes)
{
	struct hz_block *hb = bc->hz;

	if (!hb)
		return;
	hz_quiet_end(hb, bc->L->hz_base);
	hb->cold = true;
	for (; lanes; lanes &= lanes - 1)
		hb->c[w->id * 32 + (uint32_t)__builtin_ctz(lanes)].committed++;
}

/* The copies of thread tid in groups below `upto` have landed. */
static void async_land(struct hz_block *hb, uint32_t tid, uint32_t upto)
{
	struct hz_cold *t = &hb->c[tid];
	uint32_t i, k = 0;

	for (i = 0; i < t->nasync; i++) {
		struct hz_async *a = &t->async[i];
		uint32_t g;

		if (a->group >= upto) {
			t->async[k++] = *a;
			continue;
		}
		for (g = a->off >> 2; g <= (a->off + a->n - 1) >> 2; g++) {
			struct hz_rec *r = &hb->ssh[g].w;

			if (r->block == hb->block && r->tid == tid &&
			    (r->flags & HZR_ASYNC)) {
				r->clk = hb->t[tid].clk;
				r->flags &= (uint8_t)~HZR_ASYNC;
			}
		}
	}
	t->nasync = k;
}

void simt_hz_async_wait(struct block_ctx *bc, const struct warp *w,
			uint32_t lanes, uint32_t n, bool all)
{
	struct hz_block *hb = bc->hz;

	if (!hb)
		return;
	hz_quiet_end(hb, bc->L->hz_base);
	for (; lanes; lanes &= lanes - 1) {
		uint32_t tid = w->id * 32 + (uint32_t)__builtin_ctz(lanes);
		struct hz_cold *t = &hb->c[tid];

		if (all)
			async_land(hb, tid, UINT32_MAX);
		else if (t->committed > n)
			async_land(hb, tid, t->committed - n);
	}
}

void simt_hz_async_done(struct block_ctx *bc, const struct warp *w,
			unsigned lane)
{
	if (bc->hz) {
		hz_quiet_end(bc->hz, bc->L->hz_base);
		async_land(bc->hz, w->id * 32 + lane, UINT32_MAX);
	}
}
