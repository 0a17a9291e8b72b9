/* Synchronisation: barriers (bar.sync, bar.arrive, bar.red, exits),
 * __syncwarp, mbarrier objects, fences, the release/acquire state of
 * shared and global locations, and the reports of barrier misuse. */
#include "check/hz_int.h"

#include <stdlib.h>
#include <string.h>

#define SYNC_BUCKETS 4096

struct gsync {
	struct gsync *next;
	uint64_t addr;
	struct hz_gvc *know;
};

static struct {
	atomic_flag lock;
	struct gsync *_Atomic head;
} gtable[SYNC_BUCKETS];

/* Whether any entry was made since the table was last cleared: most
 * launches make none, and clearing walks every bucket. */
static atomic_bool gtable_used;

static unsigned bucket_of(uint64_t a)
{
	return (unsigned)((a >> 2) * 0x9E3779B97F4A7C15ull >> 52) & (SYNC_BUCKETS - 1);
}

static void bucket_lock(unsigned b)
{
	while (atomic_flag_test_and_set_explicit(&gtable[b].lock, memory_order_acquire))
		;
}

static void bucket_unlock(unsigned b)
{
	atomic_flag_clear_explicit(&gtable[b].lock, memory_order_release);
}

/* The entry of address a, made when `make`; call with the bucket locked. */
static struct gsync *gsync_get(unsigned b, uint64_t a, bool make)
{
	struct gsync *s;

	for (s = atomic_load_explicit(&gtable[b].head, memory_order_acquire); s;
	     s = s->next)
		if (s->addr == a)
			return s;
	if (!make)
		return NULL;
	s = simt_xcalloc(1, sizeof *s);
	atomic_store_explicit(&gtable_used, true, memory_order_relaxed);
	s->addr = a;
	s->next = atomic_load_explicit(&gtable[b].head, memory_order_relaxed);
	atomic_store_explicit(&gtable[b].head, s, memory_order_release);
	return s;
}

void hz_gtable_clear(void)
{
	unsigned b;

	if (!atomic_exchange(&gtable_used, false))
		return;
	for (b = 0; b < SYNC_BUCKETS; b++) {
		struct gsync *s = atomic_load(&gtable[b].head), *next;

		for (; s; s = next) {
			next = s->next;
			hz_gvc_unref(s->know);
			free(s);
		}
		atomic_store(&gtable[b].head, NULL);
	}
}

/* ---- barriers ---- */

/* Lanes that exit are joined into `exited` when a barrier next needs it
 * (their state no longer changes), most blocks never: their threads all
 * exit at the end. */
void simt_hz_exit(struct block_ctx *bc, const struct warp *w, uint32_t lanes)
{
	struct hz_block *hb = bc->hz;

	if (!hb)
		return;
	hb->exit_pend[w->id] |= lanes;
	hb->any_exit_pend = true;
}

/* The exited lanes not yet in `exited`, joined into it. */
static void join_exits(struct hz_block *hb)
{
	struct hz_acc *a = &hb->exited;
	uint32_t wi;

	if (!hb->any_exit_pend)
		return;
	for (wi = 0; wi < hb->nwarps; wi++) {
		uint32_t lanes = hb->exit_pend[wi];

		hb->exit_pend[wi] = 0;
		while (lanes) {
			uint32_t tid = wi * 32 + (uint32_t)__builtin_ctz(lanes);

			lanes &= lanes - 1;
			hz_acc_add(hb, a, tid);
		}
	}
	hb->any_exit_pend = false;
}

void simt_hz_bar_arrive(struct block_ctx *bc, const struct warp *w,
			uint32_t lanes, uint32_t id, bool wait)
{
	struct hz_block *hb = bc->hz;
	struct hz_acc *a = &hb->bars[id];
	uint32_t m;

	if (!hb)
		return;
	if (hb->q.on) {
		/* an arrival that goes on changes what the thread knows (no
		 * strong read is pending in a quiet interval: one ends it) */
		if (!wait)
			hz_quiet_end(hb, bc->L->hz_base);
		else
			hb->arrived[w->id] |= lanes;
	}
	/* usual case, as in acc_add, for the whole warp at once: no strong
	 * read pending, every snapshot the one joined last and nothing else
	 * known, so only the clocks are new.  In a quiet interval every live
	 * thread holds q_snap and q_xk, so the lanes need no look. */
	if (a->vc && !hb->Lon[w->id]) {
		struct hz_thread *t0 = &hb->t[w->id * 32];

		if (hb->q.on)
			m = a->last == hb->q_snap && (!hb->q_xk || hb->q_xk == a->xk)
			  ? 0 : lanes;
		else
			for (m = lanes; m; m &= m - 1) {
				const struct hz_thread *t = &t0[__builtin_ctz(m)];

				if (t->pend || t->snap != a->last ||
				    (t->xk && t->xk != a->xk))
					break;
			}
		if (!m) {
			uint32_t *c = a->vc->c + w->id * 32;
			uint32_t u = hb->wclk[w->id], k, w0 = w->id * 32;
			uint32_t nl = hb->n - w0 < 32 ? hb->n - w0 : 32;
			uint32_t all = nl == 32 ? UINT32_MAX : (1u << nl) - 1;

			if (u && lanes == all) {
				/* every thread of the warp, all at clock u */
				for (k = 0; k < nl; k++)
					c[k] = c[k] > u ? c[k] : u;
				for (k = 0; k < nl; k++)
					t0[k].clk = u + 1;
				hb->wclk[w->id] = u + 1;
				return;
			}
			for (m = lanes; m; m &= m - 1) {
				unsigned l = (unsigned)__builtin_ctz(m);

				if (t0[l].clk > c[l])
					c[l] = t0[l].clk;
				t0[l].clk++;
			}
			hb->wclk[w->id] = 0;
			return;
		}
	}
	while (lanes) {
		uint32_t tid = w->id * 32 + (uint32_t)__builtin_ctz(lanes);
		struct hz_thread *t = &hb->t[tid];

		lanes &= lanes - 1;
		/* a strong read before the barrier is acquired here */
		if (t->pend) {
			hz_acquire(hb, tid, t->pend);
			hz_gvc_unref(t->pend);
			t->pend = NULL;
		}
		hz_acc_add(hb, a, tid);
		t->clk++;
	}
	hb->wclk[w->id] = 0;
}

void simt_hz_bar_release(struct block_ctx *bc, uint32_t id)
{
	struct hz_block *hb = bc->hz;
	struct hz_acc *a;
	struct hz_vc *v, *old = NULL;
	uint32_t wi, nold = 0, nnew = 0;
	bool full = true, was_quiet, quiet_all;

	if (!hb)
		return;
	a = &hb->bars[id];
	if (!a->vc)
		return;
	was_quiet = hb->q.on;
	for (wi = 0; wi < bc->nwarps; wi++) {
		const struct warp *w = &bc->warps[wi];
		uint32_t live = w->exist & ~w->exited;

		if ((w->barmask[id] & live) != live)
			full = false;
	}
	if (full)
		hz_slog_clear(hb);  /* the barrier orders the logged reads */
	else
		hz_quiet_end(hb, bc->L->hz_base);
	join_exits(hb);
	if (hb->exited.vc) {
		hz_vc_max_into(a->vc, hb->exited.vc);
		if (hb->exited.xk) {
			struct hz_gvc *x = hz_gvc_join(a->xk, hb->exited.xk, 0, false);

			hz_gvc_unref(a->xk);
			a->xk = x;
		}
	}
	v = a->vc;
	/* every arriving thread takes v: the references counted and dropped
	 * a run of equal snapshots at a time, not one atomic per thread; at
	 * the end of a quiet interval all of them held q_snap and q_xk */
	quiet_all = was_quiet && full && hb->q_xk == a->xk;
	for (wi = 0; quiet_all && wi < bc->nwarps; wi++) {
		const struct warp *w = &bc->warps[wi];
		struct hz_thread *t0 = &hb->t[wi * 32];
		uint32_t lanes = w->barmask[id];

		hb->Lon[wi] = false;
		nnew += popc(lanes);
		for (; lanes; lanes &= lanes - 1)
			t0[__builtin_ctz(lanes)].snap = v;
		hb->same_snap = false;
	}
	if (quiet_all) {
		old = hb->q_snap;
		nold = nnew;
	}
	for (wi = 0; !quiet_all && wi < bc->nwarps; wi++) {
		const struct warp *w = &bc->warps[wi];
		uint32_t lanes = w->barmask[id], live = w->exist & ~w->exited;

		if ((lanes & live) == live)
			hb->Lon[wi] = false;
		while (lanes) {
			struct hz_thread *t = &hb->t[wi * 32 + (uint32_t)__builtin_ctz(lanes)];

			lanes &= lanes - 1;
			if (t->snap != v) {
				if (t->snap != old) {
					hz_vc_unref_n(old, nold);
					old = t->snap;
					nold = 0;
				}
				nold++;
				nnew++;
				t->snap = v;
				hb->same_snap = false;
			}
			if (t->xk != a->xk) {
				hz_gvc_unref(t->xk);
				t->xk = hz_gvc_ref(a->xk);
				hb->cold = true;
			}
		}
	}
	hz_vc_unref_n(old, nold);
	if (nnew)
		atomic_fetch_add_explicit(&v->refs, nnew, memory_order_relaxed);
	/* every live thread arrived and now holds v and a->xk */
	hb->q_snap = v;
	hb->q_xk = a->xk;
	hz_acc_clear(a);
	if (full && !hz_async_pending(hb))
		hz_quiet_begin(hb);
	else
		hb->q.on = false;
}

void simt_hz_warp_sync(struct block_ctx *bc, const struct warp *w,
		       uint32_t lanes)
{
	struct hz_block *hb = bc->hz;
	uint32_t *L, row[32], m, w0 = w->id * 32, j;
	struct hz_vc *snap;
	struct hz_gvc *xk;
	bool same = true;

	if (!hb || !lanes)
		return;
	hz_quiet_end(hb, bc->L->hz_base);
	L = hb->L + (size_t)w->id * 1024;
	if (!hb->Lon[w->id]) {
		memset(L, 0, 1024 * sizeof *L);
		hb->Lon[w->id] = true;
	}
	/* what the lanes know of other warps and blocks: usually one
	 * snapshot they all share */
	snap = hb->t[w0 + (uint32_t)__builtin_ctz(lanes)].snap;
	xk = hb->t[w0 + (uint32_t)__builtin_ctz(lanes)].xk;
	for (m = lanes; m; m &= m - 1) {
		const struct hz_thread *t = &hb->t[w0 + (uint32_t)__builtin_ctz(m)];

		if (t->snap != snap || t->xk != xk)
			same = false;
	}
	if (!same) {
		struct hz_acc a = {0};

		for (m = lanes; m; m &= m - 1)
			hz_acc_add(hb, &a, w0 + (uint32_t)__builtin_ctz(m));
		for (m = lanes; m; m &= m - 1) {
			struct hz_thread *t = &hb->t[w0 + (uint32_t)__builtin_ctz(m)];

			hz_vc_unref(t->snap);
			t->snap = hz_vc_ref(a.vc);
			hb->same_snap = false;
			hz_gvc_unref(t->xk);
			t->xk = hz_gvc_ref(a.xk);
			hb->cold = true;
		}
		hz_acc_clear(&a);
	}
	memset(row, 0, sizeof row);
	for (m = lanes; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		const uint32_t *r = L + l * 32;

		for (j = 0; j < 32; j++)
			row[j] = r[j] > row[j] ? r[j] : row[j];
		if (hb->t[w0 + l].clk > row[l])
			row[l] = hb->t[w0 + l].clk;
	}
	for (m = lanes; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);

		memcpy(L + l * 32, row, sizeof row);
		hb->t[w0 + l].clk++;
	}
	hb->wclk[w->id] = 0;
}

/* ---- mbarrier objects and shared release/acquire locations ---- */

static struct hz_sync *sync_of(struct hz_block *hb, uint32_t off, bool make)
{
	uint32_t i, h = (off >> 2) * 2654435761u;

	for (i = 0; i < hb->capsync; i++) {
		struct hz_sync *s = &hb->sync[(h + i) & (hb->capsync - 1)];

		if (s->used && s->off == off)
			return s;
		if (!s->used) {
			if (!make)
				return NULL;
			if ((hb->nsync + 1) * 2 > hb->capsync)
				break;
			s->used = true;
			s->off = off;
			hb->nsync++;
			return s;
		}
	}
	if (!make)
		return NULL;
	{
		/* grow and rehash */
		struct hz_sync *old = hb->sync;
		uint32_t oldcap = hb->capsync;

		hb->capsync *= 2;
		hb->sync = simt_xcalloc(hb->capsync, sizeof *hb->sync);
		hb->nsync = 0;
		for (i = 0; i < oldcap; i++) {
			struct hz_sync *s;

			if (!old[i].used)
				continue;
			s = sync_of(hb, old[i].off, true);
			*s = old[i];
		}
		free(old);
		return sync_of(hb, off, true);
	}
}

void simt_hz_mbar_init(struct block_ctx *bc, uint32_t off)
{
	struct hz_block *hb = bc->hz;
	struct hz_sync *s;

	if (!hb)
		return;
	hz_quiet_end(hb, bc->L->hz_base);
	s = sync_of(hb, off, true);
	hz_acc_clear(&s->cur);
	hz_gvc_unref(s->done[0]);
	hz_gvc_unref(s->done[1]);
	s->done[0] = s->done[1] = NULL;
}

void simt_hz_mbar_arrive(struct block_ctx *bc, const struct warp *w,
			 unsigned lane, uint32_t off, bool completed,
			 unsigned parity)
{
	struct hz_block *hb = bc->hz;
	uint32_t tid = w->id * 32 + lane;
	struct hz_sync *s;

	if (!hb)
		return;
	hz_quiet_end(hb, bc->L->hz_base);
	s = sync_of(hb, off, true);
	hz_acc_add(hb, &s->cur, tid);
	hb->t[tid].clk++;
	hb->wclk[tid >> 5] = 0;
	if (completed) {
		struct hz_gvc *g = hz_gvc_new(1), *k;

		g->n = 1;
		g->e[0].block = hb->block;
		g->e[0].vc = s->cur.vc;
		s->cur.vc = NULL;
		k = hz_gvc_join(g, s->cur.xk, 0, false);
		hz_gvc_unref(g);
		hz_gvc_unref(s->done[parity & 1]);
		s->done[parity & 1] = k;
		hz_acc_clear(&s->cur);
	}
}

void simt_hz_mbar_wait(struct block_ctx *bc, const struct warp *w,
		       unsigned lane, uint32_t off, unsigned parity)
{
	struct hz_block *hb = bc->hz;
	struct hz_sync *s;

	if (!hb)
		return;
	hz_quiet_end(hb, bc->L->hz_base);
	s = sync_of(hb, off, false);
	if (s && s->done[parity & 1])
		hz_acquire(hb, w->id * 32 + lane, s->done[parity & 1]);
}

/* ---- fences ---- */

void simt_hz_fence(struct block_ctx *bc, const struct warp *w, uint32_t lanes,
		   const struct simt_insn *in)
{
	struct hz_block *hb = bc->hz;

	if (!hb)
		return;
	hz_quiet_end(hb, bc->L->hz_base);
	while (lanes) {
		uint32_t tid = w->id * 32 + (uint32_t)__builtin_ctz(lanes);
		struct hz_thread *t = &hb->t[tid];

		lanes &= lanes - 1;
		if ((in->sem & MSEM_ACQ) && t->pend) {
			hz_acquire(hb, tid, t->pend);
			hz_gvc_unref(t->pend);
			t->pend = NULL;
		}
		if (in->sem & MSEM_REL) {
			struct hz_cold *c = &hb->c[tid];

			hz_vc_unref(c->fence_snap);
			hz_gvc_unref(c->fence_xk);
			c->fence_snap = hz_vc_ref(t->snap);
			c->fence_xk = hz_gvc_ref(t->xk);
			t->fence_clk = t->clk;
			hb->cold = true;
			c->fence_row_on = hb->Lon[tid >> 5];
			if (c->fence_row_on)
				memcpy(c->fence_row, lrow(hb, tid), sizeof c->fence_row);
			t->clk++;
			hb->wclk[tid >> 5] = 0;
		}
	}
}

/* A strong access's release side on the location whose knowledge is
 * *know: st.release / atom.release publish everything; after a fence,
 * a strong write publishes what the fence saw; a relaxed store without
 * either ends the release sequence. */
static void release_to(struct hz_block *hb, uint32_t tid,
		       const struct simt_insn *in, bool rmw,
		       struct hz_gvc **know)
{
	struct hz_thread *t = &hb->t[tid];
	struct hz_gvc *k = NULL, *j;

	if (in->sem & MSEM_REL) {
		k = hz_publish(hb, tid, false);
		t->clk++;
		hb->wclk[tid >> 5] = 0;
	} else if (t->fence_clk) {
		k = hz_publish(hb, tid, true);
	} else if (!rmw) {
		hz_gvc_unref(*know);
		*know = NULL;
		return;
	} else {
		return;
	}
	if (rmw) {
		j = hz_gvc_join(*know, k, 0, false);
		hz_gvc_unref(k);
		k = j;
	}
	hz_gvc_unref(*know);
	*know = k;
}

/* A strong read's acquire side: at once for ld.acquire / atom.acquire,
 * else kept until the next fence or barrier. */
static void acquire_from(struct hz_block *hb, uint32_t tid,
			 const struct simt_insn *in, const struct hz_gvc *know)
{
	struct hz_thread *t = &hb->t[tid];
	struct hz_gvc *j;

	if (!know)
		return;
	if (in->sem & MSEM_ACQ) {
		hz_acquire(hb, tid, know);
		return;
	}
	if (t->pend == know)
		return;
	j = hz_gvc_join(t->pend, know, 0, false);
	hz_gvc_unref(t->pend);
	t->pend = j;
	hb->cold = true;
}

COLD void hz_sync_strong(struct hz_block *hb, uint32_t tid,
			const struct simt_insn *in, bool shared, uint64_t key,
			int kind, bool after)
{
	bool rmw = kind == HZ_ATOMIC;
	bool writes = kind != HZ_READ, reads = kind != HZ_WRITE;
	bool rel = writes && !after, acq = reads && (after || kind == HZ_READ);

	if (!rel && !acq)
		return;
	if (shared) {
		struct hz_sync *s;
		bool need = rel && ((in->sem & MSEM_REL) || hb->t[tid].fence_clk);

		s = sync_of(hb, (uint32_t)key & ~3u, need);
		if (!s)
			return;
		if (rel)
			release_to(hb, tid, in, rmw, &s->know);
		if (acq)
			acquire_from(hb, tid, in, s->know);
		return;
	}
	{
		unsigned b;

		key &= ~3ull;
		b = bucket_of(key);
		bool need = rel && ((in->sem & MSEM_REL) || hb->t[tid].fence_clk);
		struct gsync *s;

		/* a location nothing was released to has nothing to acquire
		 * or end: no lock for the common relaxed atomic */
		if (!need && !gsync_get(b, key, false))
			return;
		bucket_lock(b);
		s = gsync_get(b, key, need);
		if (s && rel)
			release_to(hb, tid, in, rmw, &s->know);
		if (s && acq)
			acquire_from(hb, tid, in, s->know);
		bucket_unlock(b);
	}
}

/* ---- barrier misuse ---- */

static void lane_ranges(struct simt_buf *b, uint32_t m)
{
	bool first = true;

	while (m) {
		unsigned lo = (unsigned)__builtin_ctz(m), hi = lo;

		while (hi + 1 < 32 && (m >> (hi + 1) & 1))
			hi++;
		simt_buf_printf(b, "%s%u", first ? "" : ",", lo);
		if (hi > lo)
			simt_buf_printf(b, "-%u", hi);
		first = false;
		if (hi == 31)
			break;
		m &= ~(uint32_t)(((2ull << hi) - 1));
	}
}

static const char *sync_name(const struct simt_insn *in)
{
	switch (in->op) {
	case OP_BAR_WARP: return "__syncwarp()";
	case OP_SHFL: return "__shfl_sync()";
	case OP_VOTE: return "a warp vote (__ballot_sync/__all_sync/__any_sync)";
	case OP_MATCH: return "__match_sync()";
	case OP_REDUX: return "__reduce_sync()";
	case OP_ELECT: return "elect.sync";
	case OP_TENSOR: return "a warp-wide tensor-core instruction";
	default: return "__syncthreads()";
	}
}

static void barrier_report(struct block_ctx *bc, const struct warp *w,
			   const struct simt_insn *in, unsigned lane, int why,
			   const char *text)
{
	struct hz_report k;

	hz_key_init(&k, bc, HK_BARRIER, SP_NONE);
	k.why = (uint8_t)why;
	hz_key_site(&k, 0, bc, bc->block, w->id * 32 + lane,
		    (uint32_t)(in - bc->L->mod->code), AC_NONE);
	hz_report(bc, &k, NULL, text);
}

void simt_hz_divergent_bar(struct block_ctx *bc, const struct warp *w,
			   const struct simt_insn *in, uint32_t arriving,
			   uint32_t others, uint32_t other_pc)
{
	const struct simt_module *mod = bc->L->mod;
	struct simt_buf b = {0};

	simt_buf_printf(&b, "barrier: divergent __syncthreads() ");
	hz_site_where(&b, mod, (uint32_t)(in - mod->code));
	simt_buf_printf(&b, ": in block (%u,%u,%u) lanes ", bc->ctaid[0],
			bc->ctaid[1], bc->ctaid[2]);
	lane_ranges(&b, arriving);
	simt_buf_printf(&b, " of warp %u waited at it while lanes ", w->id);
	lane_ranges(&b, others);
	if (other_pc == UINT32_MAX) {
		simt_buf_printf(&b, " skipped it");
	} else if (other_pc == UINT32_MAX - 1) {
		simt_buf_printf(&b, " exited without reaching it");
	} else {
		simt_buf_printf(&b, " waited at another __syncthreads() ");
		hz_site_where(&b, mod, other_pc);
	}
	simt_buf_printf(&b, " (all threads of a warp must reach the same "
			"__syncthreads() together)");
	barrier_report(bc, w, in, (unsigned)__builtin_ctz(arriving),
		       WHY_DIVERGENT, b.s);
	simt_buf_free(&b);
}

void simt_hz_not_member(struct block_ctx *bc, const struct warp *w,
			const struct simt_insn *in, unsigned lane, uint32_t mask)
{
	const struct simt_module *mod = bc->L->mod;
	struct simt_buf b = {0};

	simt_buf_printf(&b, "barrier: %s ", sync_name(in));
	hz_site_where(&b, mod, (uint32_t)(in - mod->code));
	simt_buf_printf(&b, ": lane %u of warp %u in block (%u,%u,%u) is not in "
			"its own member mask 0x%08x", lane, w->id, bc->ctaid[0],
			bc->ctaid[1], bc->ctaid[2], mask);
	barrier_report(bc, w, in, lane, WHY_NOT_MEMBER, b.s);
	simt_buf_free(&b);
}

void simt_hz_shfl_exited(struct block_ctx *bc, const struct warp *w,
			 const struct simt_insn *in, unsigned lane, unsigned src,
			 bool inactive)
{
	const struct simt_module *mod = bc->L->mod;
	struct simt_buf b = {0};
	bool exists = (w->exist >> src) & 1;

	simt_buf_printf(&b, "barrier: __shfl_sync() ");
	hz_site_where(&b, mod, (uint32_t)(in - mod->code));
	simt_buf_printf(&b, ": lane %u of warp %u in block (%u,%u,%u) reads lane "
			"%u, which %s, so the value it gets is undefined", lane,
			w->id, bc->ctaid[0], bc->ctaid[1], bc->ctaid[2], src,
			inactive ? "is not taking part in the shuffle (inactive)"
			: exists ? "has exited"
				 : "does not exist (the block's last warp is partial)");
	barrier_report(bc, w, in, lane, WHY_EXITED_SRC, b.s);
	simt_buf_free(&b);
}
