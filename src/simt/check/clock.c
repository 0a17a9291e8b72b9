/* Vector clocks and what each thread knows: a block's clock vectors
 * (immutable, shared by reference), the sorted maps from other blocks to
 * vectors that fences and atomics carry, the accumulators that barriers
 * and mbarriers join into, and a thread's acquiring and publishing of
 * knowledge. */
#include "check/hz_int.h"

#include <stdlib.h>
#include <string.h>

struct hz_vc *hz_vc_ref(struct hz_vc *v)
{
	if (v)
		atomic_fetch_add_explicit(&v->refs, 1, memory_order_relaxed);
	return v;
}

void hz_vc_unref(struct hz_vc *v)
{
	if (v && atomic_fetch_sub_explicit(&v->refs, 1, memory_order_acq_rel) == 1)
		free(v);
}

/* Drops k references at once. */
void hz_vc_unref_n(struct hz_vc *v, uint32_t k)
{
	if (v && atomic_fetch_sub_explicit(&v->refs, k, memory_order_acq_rel) == k)
		free(v);
}

struct hz_vc *hz_vc_new(uint32_t n)
{
	struct hz_vc *v = simt_xmalloc(sizeof *v + (size_t)n * sizeof v->c[0]);

	atomic_init(&v->refs, 1);
	v->n = n;
	return v;
}

static struct hz_vc *vc_copy(const struct hz_vc *s)
{
	struct hz_vc *v = hz_vc_new(s->n);

	memcpy(v->c, s->c, (size_t)s->n * sizeof s->c[0]);
	return v;
}

void hz_vc_max_into(struct hz_vc *d, const struct hz_vc *s)
{
	uint32_t i, n = d->n < s->n ? d->n : s->n;

	for (i = 0; i < n; i++)
		d->c[i] = s->c[i] > d->c[i] ? s->c[i] : d->c[i];
}

static bool vc_covers(const struct hz_vc *a, const struct hz_vc *b)
{
	uint32_t i, n = a->n < b->n ? a->n : b->n;

	if (a == b)
		return true;
	for (i = 0; i < n; i++)
		if (b->c[i] > a->c[i])
			return false;
	return true;
}

struct hz_gvc *hz_gvc_ref(struct hz_gvc *g)
{
	if (g)
		atomic_fetch_add_explicit(&g->refs, 1, memory_order_relaxed);
	return g;
}

void hz_gvc_unref(struct hz_gvc *g)
{
	uint32_t i;

	if (!g || atomic_fetch_sub_explicit(&g->refs, 1, memory_order_acq_rel) != 1)
		return;
	for (i = 0; i < g->n; i++)
		hz_vc_unref(g->e[i].vc);
	free(g);
}

struct hz_gvc *hz_gvc_new(uint32_t n)
{
	struct hz_gvc *g = simt_xmalloc(sizeof *g + (size_t)n * sizeof g->e[0]);

	atomic_init(&g->refs, 1);
	g->n = 0;
	return g;
}

const struct hz_vc *hz_gvc_find(const struct hz_gvc *g, uint32_t block)
{
	uint32_t lo = 0, hi;

	if (!g)
		return NULL;
	hi = g->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (g->e[mid].block < block)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n && g->e[lo].block == block ? g->e[lo].vc : NULL;
}

/* Whether a already knows everything b knows, leaving out block `skip`. */
static bool gvc_covers(const struct hz_gvc *a, const struct hz_gvc *b,
		       uint32_t skip, bool use_skip)
{
	uint32_t i;

	if (!b || a == b)
		return true;
	for (i = 0; i < b->n; i++) {
		const struct hz_vc *x;

		if (use_skip && b->e[i].block == skip)
			continue;
		x = hz_gvc_find(a, b->e[i].block);
		if (!x || !vc_covers(x, b->e[i].vc))
			return false;
	}
	return true;
}

/* a joined with b (both may be NULL), leaving out block `skip` of b when
 * use_skip.  Returns a new reference. */
struct hz_gvc *hz_gvc_join(struct hz_gvc *a, const struct hz_gvc *b,
			   uint32_t skip, bool use_skip)
{
	struct hz_gvc *g;
	uint32_t i = 0, j = 0;

	if (!a && !b)
		return NULL;
	if (!b || (a && gvc_covers(a, b, skip, use_skip)))
		return hz_gvc_ref(a);
	g = hz_gvc_new((a ? a->n : 0) + b->n);
	while ((a && i < a->n) || j < b->n) {
		struct hz_ent e;

		if (j < b->n && use_skip && b->e[j].block == skip) {
			j++;
			continue;
		}
		if (!a || i >= a->n || (j < b->n && b->e[j].block < a->e[i].block)) {
			e.block = b->e[j].block;
			e.vc = hz_vc_ref(b->e[j++].vc);
		} else if (j >= b->n || a->e[i].block < b->e[j].block) {
			e.block = a->e[i].block;
			e.vc = hz_vc_ref(a->e[i++].vc);
		} else {
			e.block = a->e[i].block;
			if (vc_covers(a->e[i].vc, b->e[j].vc)) {
				e.vc = hz_vc_ref(a->e[i].vc);
			} else if (vc_covers(b->e[j].vc, a->e[i].vc)) {
				e.vc = hz_vc_ref(b->e[j].vc);
			} else {
				e.vc = vc_copy(a->e[i].vc);
				hz_vc_max_into(e.vc, b->e[j].vc);
			}
			i++;
			j++;
		}
		g->e[g->n++] = e;
	}
	if (g->n == 0) {
		free(g);
		return NULL;
	}
	return g;
}

/* ---- knowledge of a thread ---- */

/* The thread's knowledge joined into an accumulator. */
void hz_acc_add(struct hz_block *hb, struct hz_acc *a, uint32_t tid)
{
	struct hz_thread *t = &hb->t[tid];

	/* usual case: the thread's snapshot is the one joined last and it
	 * knows nothing else, so only its own clock is new */
	if (a->vc && a->last == t->snap && !hb->Lon[tid >> 5] &&
	    (!t->xk || a->xk == t->xk)) {
		if (t->clk > a->vc->c[tid])
			a->vc->c[tid] = t->clk;
		return;
	}
	if (!a->vc) {
		a->vc = vc_copy(t->snap);
		a->last = hz_vc_ref(t->snap);
	} else if (a->last != t->snap) {
		hz_vc_max_into(a->vc, t->snap);
		hz_vc_unref(a->last);
		a->last = hz_vc_ref(t->snap);
	}
	if (t->clk > a->vc->c[tid])
		a->vc->c[tid] = t->clk;
	if (hb->Lon[tid >> 5]) {
		const uint32_t *row = lrow(hb, tid);
		uint32_t j, w0 = tid & ~31u;

		for (j = 0; j < 32 && w0 + j < hb->n; j++)
			if (row[j] > a->vc->c[w0 + j])
				a->vc->c[w0 + j] = row[j];
	}
	if (t->xk && a->xk != t->xk) {
		struct hz_gvc *x = hz_gvc_join(a->xk, t->xk, 0, false);

		hz_gvc_unref(a->xk);
		a->xk = x;
	}
}

/* The thread's snapshot joined with v (memoised: threads that share a
 * snapshot and acquire the same knowledge share the result). */
static void acquire_vc(struct hz_block *hb, uint32_t tid, struct hz_vc *v)
{
	struct hz_thread *t = &hb->t[tid];
	struct hz_vc *r;

	if (!v || vc_covers(t->snap, v))
		return;
	if (hb->memo_a == t->snap && hb->memo_b == v) {
		r = hz_vc_ref(hb->memo_r);
	} else {
		r = vc_copy(t->snap);
		hz_vc_max_into(r, v);
		hz_memo_clear(hb);
		hb->memo_a = hz_vc_ref(t->snap);
		hb->memo_b = hz_vc_ref(v);
		hb->memo_r = hz_vc_ref(r);
	}
	hz_vc_unref(t->snap);
	t->snap = r;
	hb->same_snap = false;
}

/* The thread acquires knowledge k (a map that may hold its own block). */
void hz_acquire(struct hz_block *hb, uint32_t tid, const struct hz_gvc *k)
{
	struct hz_thread *t = &hb->t[tid];
	const struct hz_vc *own;
	struct hz_gvc *x;

	if (!k)
		return;
	own = hz_gvc_find(k, hb->block);
	if (own)
		acquire_vc(hb, tid, (struct hz_vc *)own);
	if (gvc_covers(t->xk, k, hb->block, true))
		return;
	x = hz_gvc_join(t->xk, k, hb->block, true);
	hz_gvc_unref(t->xk);
	t->xk = x;
	hb->cold = true;
}

/* What the thread knows, as a map including its own block: everything at
 * its current clock, or at its last fence. */
struct hz_gvc *hz_publish(struct hz_block *hb, uint32_t tid, bool at_fence)
{
	struct hz_thread *t = &hb->t[tid];
	struct hz_cold *c = &hb->c[tid];
	const struct hz_vc *snap = at_fence ? c->fence_snap : t->snap;
	const struct hz_gvc *xk = at_fence ? c->fence_xk : t->xk;
	const uint32_t *row = NULL;
	struct hz_gvc *own, *g;
	struct hz_vc *v = vc_copy(snap);
	uint32_t j, w0 = tid & ~31u;

	v->c[tid] = at_fence ? t->fence_clk : t->clk;
	if (at_fence && c->fence_row_on)
		row = c->fence_row;
	else if (!at_fence && hb->Lon[tid >> 5])
		row = lrow(hb, tid);
	for (j = 0; row && j < 32 && w0 + j < hb->n; j++)
		if (row[j] > v->c[w0 + j] && w0 + j != tid)
			v->c[w0 + j] = row[j];
	own = hz_gvc_new(1);
	own->n = 1;
	own->e[0].block = hb->block;
	own->e[0].vc = v;
	g = hz_gvc_join(own, xk, hb->block, true);
	hz_gvc_unref(own);
	return g;
}
