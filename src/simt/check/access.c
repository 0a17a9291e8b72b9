/* Memory accesses: the checks every load, store and atomic of shared and
 * global memory goes through (races by happens-before, reads of memory
 * never written), the line layer that keeps one record for a 128-byte
 * line a warp touched whole, and the quiet intervals in which shared
 * reads between full barriers are logged and checked in bulk.
 *
 * One file of more than 1,500 lines, because its per-access paths (HOT:
 * inlined) call one another across the three parts; split apart, they
 * would become calls on every access of every warp. */
#include "check/hz_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A granule record of this launch (in shared memory: of this block). */
static inline bool rec_live(const struct hz_rec *r, uint32_t base, bool shared,
			    uint32_t blk)
{
	return r->clk > base && (!shared || r->block == blk);
}

/* The line record r2 of global granule wd (NULL in shared memory, wh
 * NULL), settled so that the granule's r2 holds the truth.  A read
 * settles it only here, where it is needed (line_settle does it for
 * writes). */
HOT struct hz_rec *second_line(struct hz_block *hb, struct hz_word *wd,
			       const struct where *wh, uint32_t base)
{
	struct hz_rec *h;
	size_t li;

	if (!wh)
		return NULL;
	li = (size_t)(wd - wh->sh) / LINE_GRAN;
	h = &wh->lines[li].r2;
	if (h->flags & HZR_LINE)
		settle_rec(h, &wh->sh[li * LINE_GRAN], RK_R2, base, hb->fence, 0);
	return h;
}

/* A second read record of this launch was written at clock clk (h: its
 * line's r2, NULL in shared memory): the block's shared writes look at
 * r2 from now on, and the line's r2 says a granule of it has one, so that
 * a write of the whole line looks at them (see "the line layer"). */
HOT void second_stored(struct hz_block *hb, struct hz_rec *h, uint32_t clk,
		       uint32_t base, bool shared)
{
	if (shared)
		hb->sr2 = true;
	if (h && h->clk <= base)
		rec_put(h, 0, clk, 0, 0, 0, 0);
}

/* A read, record me, that the first read record r of its granule keeps
 * out: r holds a read by another thread that is not ordered before it.
 * It goes into the second record r2 unless r2 holds a read of another
 * thread still (drop_second empties r2 when a reader is ordered after
 * it); then the two kept are both reads a later write may race with,
 * and a write by either reader is checked against the other.  Returns 1
 * when r2 was written, 0 when it already held me, -1 when me was left
 * out. */
HOT int note_second(struct hz_block *hb, struct hz_word *wd, struct hz_rec *me,
		    const struct where *wh, uint32_t base, bool shared)
{
	struct hz_rec r2, *h = second_line(hb, wd, wh, base);

	rec_load(&r2, &wd->r2);
	if (rec_live(&r2, base, shared, hb->block)) {
		if (r2.block != me->block || r2.tid != me->tid)
			return -1;
		/* as for the first record: bytes merge only at one clock */
		if (r2.clk == me->clk)
			me->mask |= r2.mask;
	}
	if (memcmp(&r2, me, sizeof r2) == 0)
		return 0;
	rec_store(&wd->r2, me);
	second_stored(hb, h, me->clk, base, shared);
	return 1;
}

/* The last lane of a broadcast read (lanes of one instruction reading
 * the same n bytes at wd; fast_reads recorded the first): the second
 * read of each granule that holds none. */
HOT void note_bcast(struct hz_block *hb, struct hz_word *wd, uint32_t n,
		    uint32_t tid, uint32_t pc, const struct where *wh,
		    uint32_t base)
{
	uint32_t g, clk = hb->t[tid].clk;

	for (g = 0; g < n / 4; g++) {
		struct hz_rec *h = second_line(hb, wd + g, wh, base);

		if (rec_live(&wd[g].r2, base, !wh, hb->block))
			continue;
		rec_put_plain(&wd[g].r2, hb->block, clk, tid, pc);
		second_stored(hb, h, clk, base, !wh);
	}
}

/* A read by thread tid that replaces the first record (which is ordered
 * before it) at a clock the record was not made at: the second record,
 * when ordered before the read too, is emptied, so that it can take the
 * next concurrent reader. */
HOT void drop_second(struct hz_block *hb, struct hz_word *wd, uint32_t tid,
		     const struct where *wh, uint32_t base, bool shared)
{
	struct hz_rec *r2;

	second_line(hb, wd, wh, base);
	r2 = &wd->r2;
	if (rec_live(r2, base, shared, hb->block) &&
	    ((r2->block == hb->block && r2->tid == tid) || ordered(hb, tid, r2)))
		r2->clk = 0;
}

/* Whether two strong accesses are morally strong to each other. */
HOT bool both_strong(const struct hz_rec *r, uint8_t flags,
			       uint32_t block)
{
	if (!(r->flags & HZR_STRONG) || !(flags & HZR_STRONG))
		return false;
	return !((r->flags | flags) & HZR_CTA) || r->block == block;
}

int hz_acc_of_rec(const struct hz_rec *r, bool write)
{
	if (r->flags & HZR_ASYNC)
		return AC_ASYNC;
	if (r->flags & HZR_ATOMIC)
		return AC_ATOMIC;
	return write ? AC_WRITE : AC_READ;
}

/* A race of record r with the access of thread tid at pc, whose first
 * byte in common with r's is at `at`; the access is bc->hz->at_n bytes. */
COLD void hz_report_race(struct block_ctx *bc, int space, const struct hz_rec *r,
			bool r_write, uint32_t tid, uint32_t pc, int acc, int why,
			const uint8_t *at)
{
	struct hz_report k;

	hz_key_init(&k, bc, HK_RACE, space);
	k.why = (uint8_t)why;
	hz_key_site(&k, 0, bc, r->block, r->tid, r->pc, hz_acc_of_rec(r, r_write));
	hz_key_site(&k, 1, bc, bc->block, tid, pc, acc);
	hz_key_place(&k, bc, at);
	k.bytes[0] = hz_insn_bytes(bc->L->mod, r->pc, k.acc[0]);
	k.bytes[1] = bc->hz->at_n;
	hz_report(bc, &k, hz_race_message, NULL);
}

/* The first byte of a granule that the access at cur (its bytes `mask`
 * of the granule) and a record with bytes `other` have in common. */
static const uint8_t *common_byte(const uint8_t *cur, uint8_t mask,
				  uint8_t other)
{
	return cur - __builtin_ctz(mask) + __builtin_ctz(mask & other);
}

/* A global record r of an earlier operation that the full check met in
 * a launch: a race if that operation belongs to another stream and is
 * not ordered before this launch (see order.h), unless both accesses are
 * strong at device scope. */
COLD static void stream_race(struct block_ctx *bc, const struct hz_rec *r,
			     bool r_write, uint32_t tid, uint32_t pc, int acc,
			     uint8_t flags, const uint8_t *at)
{
	struct hz_block *hb = bc->hz;
	const struct simt_order_op *op, *me;
	struct hz_report k;
	uint32_t lo, hi;

	op = simt_order_unordered(r->clk, &lo, &hi);
	if (!op) {
		/* later records of that operation take the fast paths */
		hb->ok_lo = lo;
		hb->ok_hi = hi;
		return;
	}
	if (((r->flags & HZR_STRONG) && (flags & HZR_STRONG) &&
		    !((r->flags | flags) & HZR_CTA)))
		return;
	me = simt_order_current();
	hz_key_init(&k, bc, HK_RACE, SP_GLOBAL);
	hz_key_other(&k, op, r, r_write);
	hz_key_site(&k, 1, bc, bc->block, tid, pc, acc);
	k.xs[1] = hz_xsite_of(me);
	hz_key_place(&k, bc, at);
	k.param[0] = -1;   /* the other launch's parameters are gone */
	k.bytes[1] = hb->at_n;
	hz_report(bc, &k, hz_xop_message, NULL);
}

/* A strong store (volatile or relaxed, not an atomic) by thread tid to
 * granule wd, whose last write w was a strong store of another thread:
 * a lost update when tid loaded the granule with a strong load of this
 * block and launch before it (a load-then-store) and nothing orders w
 * before it.  Both accesses being strong, the memory model calls it no
 * data race, but the two steps let another store fall between them. */
static bool lost_update(struct hz_block *hb, const struct hz_word *wd,
			const struct hz_rec *w, uint32_t tid, uint8_t flags,
			uint8_t mask, uint32_t base)
{
	const struct hz_cold *c = &hb->c[tid];

	return (flags & (HZR_STRONG | HZR_ATOMIC)) == HZR_STRONG &&
	       (w->flags & (HZR_STRONG | HZR_ATOMIC)) == HZR_STRONG &&
	       (w->mask & mask) && (w->block != hb->block || w->tid != tid) &&
	       c->sld == wd && c->sld_block == hb->block && c->sld_clk > base &&
	       both_strong(w, flags, hb->block) && !ordered(hb, tid, w);
}

/* One granule: checks the access against the recorded ones and records
 * it.  `cur` is the current memory content of the bytes written, `val`
 * the new one (writes only). */
HOT void granule(struct block_ctx *bc, struct hz_word *wd, int space,
		    uint32_t tid, uint32_t pc, uint8_t mask, uint8_t flags,
		    int kind, const uint8_t *cur, const uint8_t *val, uint32_t n,
		    const struct where *wh)
{
	struct hz_block *hb = bc->hz;
	uint32_t base = bc->L->hz_base, blk = hb->block;
	bool shared = space == SP_SHARED;
	struct hz_rec w, r, me;
	int acc = kind == HZ_ATOMIC ? AC_ATOMIC : kind == HZ_WRITE ? AC_WRITE : AC_READ;

	rec_load(&w, &wd->w);
	me.block = blk;
	me.clk = hb->t[tid].clk;
	me.tid = (uint16_t)tid;
	me.flags = flags;
	me.mask = mask;
	me.pc = pc;
	/* a record of another block is stale in shared memory */
	if (w.clk <= base) {
		if (!shared && w.clk > hb->fence && (w.mask & mask))
			stream_race(bc, &w, true, tid, pc, acc, flags,
				    common_byte(cur, mask, w.mask));
	} else if ((w.mask & mask) && (!shared || w.block == blk) &&
		   !both_strong(&w, flags, blk) && !ordered(hb, tid, &w)) {
		/* rewriting the value memory holds is benign within a block,
		 * whose warps one host thread runs in a fixed order; between
		 * blocks, which run at once on several, what memory holds at
		 * this moment depends on timing, so it is a race as written */
		bool benign = kind == HZ_WRITE && val && !(w.flags & HZR_ASYNC) &&
			      w.block == blk && memcmp(cur, val, n) == 0;

		if (!benign)
			hz_report_race(bc, space, &w, true, tid, pc, acc,
				       (w.flags & HZR_ASYNC) && w.tid == tid &&
				       w.block == blk ? WHY_NOT_WAITED : 0,
				       common_byte(cur, mask, w.mask));
	} else if (kind == HZ_WRITE && (!shared || w.block == blk) &&
		   !(val && memcmp(cur, val, n) == 0) &&
		   lost_update(hb, wd, &w, tid, flags, mask, base)) {
		hz_report_race(bc, space, &w, true, tid, pc, acc, WHY_LOST_UPDATE,
			       common_byte(cur, mask, w.mask));
	}
	if ((flags & (HZR_STRONG | HZR_ATOMIC)) == HZR_STRONG && kind == HZ_READ) {
		struct hz_cold *c = &hb->c[tid];

		c->sld = wd;
		c->sld_block = blk;
		c->sld_clk = me.clk;
	}
	if (kind == HZ_READ) {
		/* a later read replaces the first record when that is ordered
		 * before it (so it covers it); otherwise the first of
		 * concurrent readers stays and the later one goes to the
		 * second record (note_second) */
		rec_load(&r, &wd->r);
		if (r.clk <= base || (shared && r.block != blk)) {
			rec_store(&wd->r, &me);
		} else if ((r.block == blk && r.tid == tid) || ordered(hb, tid, &r)) {
			/* the record keeps only bytes read at its own thread
			 * and clock: bytes read earlier (by another thread, or
			 * by this one before a barrier) kept under this read's
			 * name and clock would make a later write that is
			 * ordered after that earlier read look like a race
			 * with this one (2-byte elements share a granule) */
			if (r.block == blk && r.tid == tid && r.clk == me.clk)
				me.mask |= r.mask;
			else
				drop_second(hb, wd, tid, wh, base, shared);
			if (memcmp(&r, &me, sizeof r) != 0)
				rec_store(&wd->r, &me);
		} else if (note_second(hb, wd, &me, wh, base, shared) < 0 &&
			   (mask & ~r.mask)) {
			/* both records hold other concurrent readers: bytes
			 * the first does not cover are kept by replacing it */
			rec_store(&wd->r, &me);
		}
		return;
	}
	rec_load(&r, &wd->r);
	if (r.clk <= base) {
		if (!shared && r.clk > hb->fence && (r.mask & mask))
			stream_race(bc, &r, false, tid, pc, acc, flags,
				    common_byte(cur, mask, r.mask));
	} else if ((r.mask & mask) && (!shared || r.block == blk) &&
		   !both_strong(&r, flags, blk) && !ordered(hb, tid, &r)) {
		hz_report_race(bc, space, &r, false, tid, pc, acc, 0,
			       common_byte(cur, mask, r.mask));
		rec_store(&wd->w, &me);
		return;
	}
	/* the second read, of this launch only: a read of an earlier one
	 * that the first record does not cover is another stream's, which
	 * the first already stands for */
	rec_load(&r, &wd->r2);
	if (rec_live(&r, base, shared, blk) && (r.mask & mask) &&
	    !both_strong(&r, flags, blk) && !ordered(hb, tid, &r))
		hz_report_race(bc, space, &r, false, tid, pc, acc, 0,
			       common_byte(cur, mask, r.mask));
	rec_store(&wd->w, &me);
}

COLD static void report_uninit(struct block_ctx *bc, const struct warp *w,
			  unsigned lane, const struct simt_insn *in, int space,
			  uint32_t n, uint64_t off, uint64_t size, const uint8_t *p)
{
	struct hz_report k;
	struct simt_buf b = {0};
	uint32_t tid = w->id * 32 + lane;

	hz_key_init(&k, bc, HK_UNINIT, space);
	hz_key_site(&k, 0, bc, bc->block, tid, (uint32_t)(in - bc->L->mod->code),
		    AC_READ);
	if (hz_report_again(bc, &k))
		return;
	simt_buf_printf(&b, "uninitialized: %s read of %u bytes ",
			hz_space_word(space), n);
	hz_site_where(&b, k.mod, k.pc[0]);
	simt_buf_printf(&b, " by block (%u,%u,%u) thread (%u,%u,%u): ",
			k.block[0][0], k.block[0][1], k.block[0][2],
			k.thread[0][0], k.thread[0][1], k.thread[0][2]);
	if (space == SP_SHARED)
		simt_buf_printf(&b, "offset %llu of the block's shared memory, "
				"not written by this block", (unsigned long long)off);
	else if (space == SP_LOCAL)
		simt_buf_printf(&b, "offset %llu of the thread's %llu bytes of "
				"local memory, not written by this thread: an array "
				"indexed at run time lives there, and on a GPU an "
				"element never given a value holds whatever was there "
				"before", (unsigned long long)off,
				(unsigned long long)size);
	else
		simt_buf_printf(&b, "%llu bytes into a %llu-byte allocation, "
				"never written", (unsigned long long)off,
				(unsigned long long)size);
	if (space != SP_LOCAL)
		hz_key_place(&k, bc, p);
	k.bytes[0] = n;
	hz_report(bc, &k, NULL, b.s);
	simt_buf_free(&b);
}

COLD void simt_hz_uninit_reg(struct block_ctx *bc, const struct warp *w,
			     unsigned lane, const struct simt_insn *in,
			     const char *reg)
{
	struct hz_report k;
	struct simt_buf b = {0};

	hz_key_init(&k, bc, HK_UNINIT, SP_REG);
	hz_key_site(&k, 0, bc, bc->block, w->id * 32 + lane,
		    (uint32_t)(in - bc->L->mod->code), AC_READ);
	if (hz_report_again(bc, &k))
		return;
	simt_buf_printf(&b, "uninitialized: register %s read ", reg ? reg : "?");
	hz_site_where(&b, k.mod, k.pc[0]);
	simt_buf_printf(&b, " by block (%u,%u,%u) thread (%u,%u,%u), which nothing "
			"wrote before: a variable used before it was given a value "
			"(a sum without `= 0`?); on a GPU it holds whatever the "
			"hardware register last held",
			k.block[0][0], k.block[0][1], k.block[0][2],
			k.thread[0][0], k.thread[0][1], k.thread[0][2]);
	hz_report(bc, &k, NULL, b.s);
	simt_buf_free(&b);
}

/* Whether none of the n bits from off is set. */
static bool bits_none(const uint8_t *bits, uint64_t off, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (bits[(off + i) >> 3] & (1u << ((off + i) & 7)))
			return false;
	return true;
}

/* A lane's access of local memory, at offset off of the block's local
 * bytes: a read of an element the thread never wrote a byte of is
 * reported, unless nothing uses the value it loads (mod->ld_quiet, see
 * mark_quiet_loads in undef.c).  An element some of whose bytes were
 * written is taken for part of a struct copied whole and let pass. */
static void local_access(struct block_ctx *bc, struct hz_block *hb,
			 const struct warp *w, unsigned lane,
			 const struct simt_insn *in, uint64_t off, uint32_t n,
			 int kind)
{
	const struct simt_module *mod = bc->L->mod;
	uint32_t per = bc->L->local_per_thread, pc = (uint32_t)(in - mod->code);
	uint32_t parts = 1, k;
	uint8_t quiet = 0;

	if (kind != HZ_READ) {
		bits_set(hb->linit, off, n, false);
		return;
	}
	if (in->op == OP_LD && in->vec > 1 && n % in->vec == 0)
		parts = in->vec;
	if (in->op == OP_LD && pc < mod->ncode_quiet)
		quiet = mod->ld_quiet[pc];
	for (k = 0; k < parts; k++) {
		uint32_t size = n / parts;

		if (!(k < 8 && (quiet >> k & 1)) &&
		    bits_none(hb->linit, off + k * size, size)) {
			report_uninit(bc, w, lane, in, SP_LOCAL, size,
				      (off + k * size) % per, per, NULL);
			return;
		}
	}
}

/* wh for the allocation that host pointer a (where simt reaches global
 * memory, see simt_mem_host) lies in; wh->lo is in the same terms.
 * False, with wh emptied, for memory without a shadow. */
static bool global_where(struct block_ctx *bc, uint64_t a, struct where *wh)
{
	struct alloc_cache *c = &bc->cache;
	const struct simt_alloc *al;
	int i;

	for (i = 0; i < 4; i++)
		if (a - (uint64_t)(uintptr_t)c->host[i] < c->size[i]) {
			wh->sh = c->shadow[i];
			wh->init = c->init[i];
			wh->lo = (uint64_t)(uintptr_t)c->host[i];
			wh->size = c->size[i];
			goto found;
		}
	al = simt_mem_find_host((const void *)(uintptr_t)a, 1);
	if (!al) {
		wh->sh = NULL;
	} else {
		wh->sh = al->shadow;
		wh->init = al->init;
		wh->lo = (uint64_t)(uintptr_t)simt_mem_host((const void *)(uintptr_t)al->base);
		wh->size = al->size;
	}
found:
	if (!wh->sh) {
		wh->lo = wh->size = 0;
		return false;
	}
	wh->lines = lines_of(wh->sh, wh->size);
	return true;
}

static uint8_t flags_of(const struct simt_insn *in, int kind)
{
	uint8_t f = 0;

	if (kind == HZ_ATOMIC || (in->sem & MSEM_STRONG))
		f |= HZR_STRONG;
	if (kind == HZ_ATOMIC)
		f |= HZR_ATOMIC;
	if (in->sem & MSEM_CTA)
		f |= HZR_CTA;
	return f;
}

static inline void line_settle(const struct where *wh, uint64_t off,
			       uint32_t n, uint32_t base, uint32_t fence,
			       uint32_t clk, int kind);

/* One lane's access (see simt_hz_access). */
HOT void lane_access(struct block_ctx *bc, struct hz_block *hb,
			       struct where *wh, const struct warp *w,
			       unsigned lane, const struct simt_insn *in,
			       uint32_t pc, uint8_t flags, int kind, uint8_t *p,
			       uint32_t n, const uint8_t *val)
{
	uint32_t tid = w->id * 32 + lane;
	struct hz_word *sh;
	uint8_t *init;
	uint64_t off, size, g, gend;
	int space;
	bool strong = flags & HZR_STRONG;

	hb->at_n = n;

	if ((uint64_t)(p - bc->shared) < bc->L->shared_size) {
		space = SP_SHARED;
		off = (uint64_t)(p - bc->shared);
		sh = hb->ssh;
		init = hb->sinit;
		size = bc->L->shared_size;
		if (kind != HZ_WRITE && off < hb->init_limit &&
		    !bits_all(init, off, n))
			report_uninit(bc, w, lane, in, SP_SHARED, n, off, size, p);
		if (kind != HZ_READ)
			bits_set(init, off, n, false);
	} else if ((uint64_t)(p - bc->local) < bc->local_cap) {
		local_access(bc, hb, w, lane, in, (uint64_t)(p - bc->local), n, kind);
		return;
	} else if (!hb->global_ok) {
		return;
	} else {
		uint64_t a = (uint64_t)(uintptr_t)p;

		if (a - wh->lo >= wh->size && !global_where(bc, a, wh))
			return;
		space = SP_GLOBAL;
		sh = wh->sh;
		init = wh->init;
		off = a - wh->lo;
		size = wh->size;
		line_settle(wh, off, n, bc->L->hz_base, hb->fence, hb->t[tid].clk,
			    kind == HZ_READ ? HZ_READ : HZ_WRITE);
		if (init) {
			if (kind != HZ_WRITE && !bits_all(init, off, n))
				report_uninit(bc, w, lane, in, SP_GLOBAL, n, off, size, p);
			if (kind != HZ_READ)
				bits_set(init, off, n, true);
		}
	}
	if (strong && kind != HZ_READ)
		hz_sync_strong(hb, tid, in, space == SP_SHARED,
			       space == SP_SHARED ? off : (uint64_t)(uintptr_t)p,
			       kind, false);
	g = off >> 2;
	gend = (off + n - 1) >> 2;
	if (g == gend) {
		granule(bc, &sh[g], space, tid, pc,
			(uint8_t)(((1u << n) - 1) << (off & 3)), flags, kind, p, val, n,
			space == SP_GLOBAL ? wh : NULL);
	} else {
		for (; g <= gend; g++) {
			uint64_t lo = g * 4 > off ? g * 4 : off;
			uint64_t hi = g * 4 + 4 < off + n ? g * 4 + 4 : off + n;
			uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo & 3));

			granule(bc, &sh[g], space, tid, pc, mask, flags, kind,
				p + (lo - off), val ? val + (lo - off) : NULL,
				(uint32_t)(hi - lo), space == SP_GLOBAL ? wh : NULL);
		}
	}
	if (strong && kind == HZ_READ)
		hz_sync_strong(hb, tid, in, space == SP_SHARED,
			       space == SP_SHARED ? off : (uint64_t)(uintptr_t)p,
			       kind, true);
}

void simt_hz_access(struct block_ctx *bc, const struct warp *w, unsigned lane,
		    const struct simt_insn *in, uint8_t *p, uint32_t n,
		    int kind, const uint8_t *val)
{
	struct where wh = {0};
	uint8_t flags;

	if (bc->hz->q.on && ((kind != HZ_READ && kind != HZ_WRITE) || flags_of(in, kind) ||
			      (uint64_t)(p - bc->shared) < bc->L->shared_size))
		hz_quiet_end(bc->hz, bc->L->hz_base);
	if (kind == HZ_WRITE_COLL) {
		kind = HZ_WRITE;
		flags = (uint8_t)(flags_of(in, kind) | HZR_COLL);
	} else {
		flags = flags_of(in, kind);
	}
	lane_access(bc, bc->hz, &wh, w, lane, in,
		    (uint32_t)(in - bc->L->mod->code), flags, kind, p, n, val);
}

/* The read record of a granule after a plain whole-granule read by
 * thread tid at clock clk whose write record is ordered before it: the read replaces a record
 * that is stale, ordered before it or of fewer bytes; an earlier read of
 * the whole granule that it does not know of stays. */
HOT void note_read(struct hz_block *hb, struct hz_word *wd, uint32_t clk,
		   uint32_t tid, uint32_t pc, uint32_t base, bool shared,
		   const struct where *wh)
{
	const struct hz_rec *r = &wd->r;
	uint32_t blk = hb->block;

	if (r->clk <= base || (shared && r->block != blk)) {
		rec_put_plain(&wd->r, blk, clk, tid, pc);
	} else if ((r->block == blk && r->tid == tid) || ordered(hb, tid, r)) {
		if (r->clk != clk || r->block != blk || r->tid != tid)
			drop_second(hb, wd, tid, wh, base, shared);
		if (r->clk != clk || r->pc != pc || r->mask != 0xf || r->flags ||
		    r->block != blk || r->tid != tid)
			rec_put_plain(&wd->r, blk, clk, tid, pc);
	} else {
		/* note_second, its usual outcomes first without building the
		 * record: another thread's read kept, or this very read */
		const struct hz_rec *q = &wd->r2;

		second_line(hb, wd, wh, base);
		if (rec_live(q, base, shared, blk)) {
			if (q->block != blk || q->tid != tid) {
				if (r->mask != 0xf)
					rec_put_plain(&wd->r, blk, clk, tid, pc);
				return;
			}
			if (q->clk == clk && q->pc == pc && q->mask == 0xf && !q->flags)
				return;
		}
		{
			struct hz_rec me = {blk, clk, (uint16_t)tid, 0, 0xf, pc};

			if (note_second(hb, wd, &me, wh, base, shared) < 0 &&
			    r->mask != 0xf)
				rec_put_plain(&wd->r, blk, clk, tid, pc);
		}
	}
}

/* The commonest access, a plain aligned 4-byte read of a granule whose
 * write record is stale or ordered before it: only the read record may
 * change.  False when the full check is needed (a possible race). */
HOT bool read4(struct hz_block *hb, struct hz_word *wd, uint32_t tid,
	       uint32_t pc, uint32_t base, const struct where *wh)
{
	bool shared = !wh;
	uint32_t blk = hb->block;
	const struct hz_rec *w = &wd->w;

	if (w->clk > base && (!shared || w->block == blk)) {
		if (w->block != blk || (w->flags & HZR_ASYNC))
			return false;
		if (w->tid != tid && !((w->flags & HZR_COLL) && (w->tid >> 5) == (tid >> 5)) &&
		    knows(hb, tid, w->tid) < w->clk)
			return false;
	} else if (!shared && w->clk > hb->fence && !ok_clock(hb, w->clk)) {
		return false;           /* another stream's, maybe unordered */
	}
	note_read(hb, wd, hb->t[tid].clk, tid, pc, base, shared, wh);
	return true;
}

/* read4 for each granule of an aligned plain read of n bytes (4, 8 or
 * 16).  A granule that needs the full check stops it; those before it
 * are then checked again the full way, which finds them as read4 left
 * them (no race, the read recorded) and changes nothing. */
HOT bool reads4(struct hz_block *hb, struct hz_word *wd, uint32_t n,
		uint32_t tid, uint32_t pc, uint32_t base, const struct where *wh)
{
	uint32_t g;

	for (g = 0; g < n / 4; g++)
		if (!read4(hb, wd + g, tid, pc, base, wh))
			return false;
	return true;
}

/* Whether the record r (of this launch) is ordered before an access by
 * thread tid that is not strong, as far as a fast path can tell: false
 * when the full check is needed. */
HOT bool fast_ordered(struct hz_block *hb, const struct hz_rec *r, uint32_t tid,
		      uint32_t base, bool shared)
{
	if (r->clk <= base)
		return shared || r->clk <= hb->fence || ok_clock(hb, r->clk);
	if (shared && r->block != hb->block)
		return true;
	if (r->block != hb->block || (r->flags & HZR_ASYNC))
		return false;
	return r->tid == tid || ((r->flags & HZR_COLL) && (r->tid >> 5) == (tid >> 5)) ||
	       knows(hb, tid, r->tid) >= r->clk;
}

/* A plain aligned 4-byte write of a granule whose records are stale or
 * ordered before it.  False when the full check is needed. */
HOT bool write4(struct hz_block *hb, struct hz_word *wd, uint32_t tid,
		uint32_t pc, uint32_t base, bool shared)
{
	if (!fast_ordered(hb, &wd->w, tid, base, shared) ||
	    !fast_ordered(hb, &wd->r, tid, base, shared) ||
	    ((!shared || hb->sr2) && rec_live(&wd->r2, base, shared, hb->block) &&
	     !fast_ordered(hb, &wd->r2, tid, base, shared)))
		return false;
	rec_put_plain(&wd->w, hb->block, hb->t[tid].clk, tid, pc);
	return true;
}

/* write4 for each granule of an aligned plain write of n bytes (4, 8 or
 * 16); as in reads4, a granule that needs the full check leaves those
 * before it as the full check would leave them. */
HOT bool writes4_at(struct hz_block *hb, struct hz_word *wd, uint32_t n,
		    uint32_t tid, uint32_t pc, uint32_t base, bool shared)
{
	uint32_t g;

	for (g = 0; g < n / 4; g++)
		if (!write4(hb, wd + g, tid, pc, base, shared))
			return false;
	return true;
}

/* ---- the line layer ----
 *
 * A streaming kernel touches each line of an array with one warp
 * instruction, and its 32 granules' records are 1 KiB of shadow for 128
 * bytes of data: moving them costs more than the kernel's own work.  So
 * each of a line's three records (w for its granules' write records, r
 * and r2 for their first and second read records) is either
 *   - a line record (HZR_LINE): granule g's record is the line record
 *     with thread tid + g / per, where per, the granules of one lane, is
 *     kept in mask (1, 2 or 4); all four bytes, plain.  The granules' own
 *     records are not looked at;
 *   - or not: the granules' records hold the truth, and when the line's
 *     record has a clock of an earlier launch, none of them is of this
 *     launch and none needs reading.  (r2 is marked when a granule's
 *     second read is written, not when the line is read: a line most
 *     kernels write after reading it has none.)
 * A plain access by one run of lanes that covers a whole line, each lane
 * at the same clock, is checked and recorded at the line's level when
 * that settles it (line_access).  Every other access of a line first
 * "settles" it: a line record of this launch is copied out into the 32
 * granules' records, and the line is marked as holding records of this
 * launch (line_settle).
 *
 * Concurrency: as for granules, records are copied whole.  Two blocks
 * that touch one line at once in a program without a race can only both
 * read it (a write of the whole line conflicts with any other access of
 * it), and then what may be lost is a read record, as two concurrent
 * reads of one granule may lose one. */

/* Copies line record h out into the line's granule records fw. */
__attribute__((noinline)) void hz_line_expand(const struct hz_rec *h,
					      struct hz_word *fw, int k)
{
	uint32_t g;

	for (g = 0; g < LINE_GRAN; g++)
		rec_put(rec_of(&fw[g], k), h->block, h->clk, line_tid(h, g),
			h->flags & ~HZR_LINE, 0xf, h->pc);
}

/* Settles the lines that n bytes at offset off of an allocation touch,
 * before an access of kind `kind` by a thread at clock clk looks at or
 * changes their granule records. */
HOT void line_settle(const struct where *wh, uint64_t off, uint32_t n,
		     uint32_t base, uint32_t fence, uint32_t clk, int kind)
{
	uint64_t li = off / LINE_BYTES, le = (off + n - 1) / LINE_BYTES;

	for (; li <= le; li++) {
		struct hz_line *hl = &wh->lines[li];
		struct hz_word *fw = &wh->sh[li * LINE_GRAN];

		settle_rec(&hl->w, fw, RK_W, base, fence, kind != HZ_READ ? clk : 0);
		settle_rec(&hl->r, fw, RK_R, base, fence, kind == HZ_READ ? clk : 0);
		/* marked only when a granule's second read is written; a read
		 * settles it in note_second, if it gets there */
		if (kind != HZ_READ)
			settle_rec(&hl->r2, fw, RK_R2, base, fence, 0);
	}
}

/* How many granules of a line have their record of one kind (line
 * record h, granule records fw) ordered before a plain access by lanes
 * tid0 + g / per (granule g), or of an earlier launch: as granule() and
 * note_read judge them one by one. */
HOT uint32_t line_ordered(struct hz_block *hb, const struct hz_rec *h,
			  struct hz_word *fw, int k, uint32_t tid0,
			  uint32_t per, uint32_t base)
{
	uint32_t g, n = 0, ps = per >> 1;

	/* second reads count in their own launch only (see granule) */
	if (h->clk <= base && k == RK_R2)
		return LINE_GRAN;
	if (h->clk <= base) {
		/* a line record of another stream's operation found ordered
		 * stands for its granules; any other record's granules may be
		 * of several operations */
		return h->clk <= hb->fence ||
		       ((h->flags & HZR_LINE) && ok_clock(hb, h->clk)) ? LINE_GRAN : 0;
	}
	if (!(h->flags & HZR_LINE)) {
		for (g = 0; g < LINE_GRAN; g++) {
			const struct hz_rec *r = rec_of(&fw[g], k);

			n += r->clk <= base ? k == RK_R2 || r->clk <= hb->fence ||
					      ok_clock(hb, r->clk)
					    : ordered(hb, tid0 + (g >> ps), r);
		}
		return n;
	}
	if (h->block == hb->block && h->tid == tid0 && h->mask == per)
		return LINE_GRAN;       /* the same lanes' own accesses */
	if (h->block != hb->block) {
		/* another block's: what the lanes know of it, found once when
		 * they know the same (nothing, most often) */
		const struct hz_gvc *xk = hb->t[tid0].xk;
		const struct hz_vc *v;
		uint32_t j;

		if (!hb->cold)
			return 0;       /* no thread knows anything of another block */
		for (j = 1; j < LINE_GRAN / per && hb->t[tid0 + j].xk == xk; j++)
			;
		if (j == LINE_GRAN / per) {
			if (!(v = hz_gvc_find(xk, h->block)))
				return 0;
			for (g = 0; g < LINE_GRAN; g++)
				n += v->c[line_tid(h, g)] >= h->clk;
			return n;
		}
	}
	for (g = 0; g < LINE_GRAN; g++) {
		struct hz_rec e = *h;

		e.tid = (uint16_t)line_tid(h, g);
		e.flags = 0;
		e.mask = 0xf;
		n += ordered(hb, tid0 + (g >> ps), &e);
	}
	return n;
}

/* Whether the lanes that cover a line are at one clock, clk: known at
 * once while every thread of the warp is (hb->wclk), which holds from the
 * start of a block to a thread's first release, and again once looked
 * at after every thread of the warp has passed a barrier. */
HOT bool line_clock(struct hz_block *hb, uint32_t tid0, uint32_t per,
		    uint32_t clk)
{
	uint32_t k, w0 = tid0 & ~31u, end = hb->n - w0 < 32 ? hb->n - w0 : 32;

	if (hb->wclk[tid0 >> 5] == clk)
		return true;
	for (k = 0; k < end && hb->t[w0 + k].clk == clk; k++)
		;
	if (k == end) {
		hb->wclk[tid0 >> 5] = clk;
		return true;
	}
	for (k = 1; k < LINE_GRAN / per; k++)
		if (hb->t[tid0 + k].clk != clk)
			return false;
	return true;
}

/* A plain read or write of a whole line li by lanes tid0 + g / per
 * (granule g), checked and recorded at the line's level.  False, with
 * nothing changed, when some granule needs the full check (a possible
 * race), or a write's lanes are at different clocks. */
HOT bool line_access(struct hz_block *hb, const struct where *wh, uint64_t li,
		     uint32_t tid0, uint32_t per, uint32_t pc, uint32_t base,
		     int kind)
{
	struct hz_line *hl = &wh->lines[li];
	struct hz_word *fw = &wh->sh[li * LINE_GRAN];
	struct hz_rec w, r, r2;
	uint32_t clk = hb->t[tid0].clk, n, g, blk = hb->block;

	rec_load(&w, &hl->w);
	if (line_ordered(hb, &w, fw, RK_W, tid0, per, base) != LINE_GRAN)
		return false;
	rec_load(&r, &hl->r);
	if (kind != HZ_READ) {
		if (line_ordered(hb, &r, fw, RK_R, tid0, per, base) != LINE_GRAN ||
		    (hl->r2.clk > base &&
		     line_ordered(hb, &hl->r2, fw, RK_R2, tid0, per, base) != LINE_GRAN) ||
		    !line_clock(hb, tid0, per, clk))
			return false;
		rec_put(&hl->w, blk, clk, tid0, HZR_LINE, per, pc);
		return true;
	}
	/* The read record: each earlier read this one is ordered after is
	 * replaced, the others stay (see note_read). */
	n = r.clk <= base ? LINE_GRAN
	    : (r.flags & HZR_LINE) ? line_ordered(hb, &r, fw, RK_R, tid0, per, base)
	    : 0;
	if (n == 0 && (r.flags & HZR_LINE)) {
		/* an unordered read of the line stays; this one becomes the
		 * line's second read when that holds nothing of this launch
		 * or these lanes' own earlier read (as note_second does
		 * granule by granule), and is left out otherwise */
		rec_load(&r2, &hl->r2);
		if ((r2.clk <= base ||
		     ((r2.flags & HZR_LINE) && r2.block == blk && r2.tid == tid0 &&
		      r2.mask == per && (r2.clk != clk || r2.pc != pc))) &&
		    line_clock(hb, tid0, per, clk))
			rec_put(&hl->r2, blk, clk, tid0, HZR_LINE, per, pc);
		return true;
	}
	if (n == LINE_GRAN && line_clock(hb, tid0, per, clk)) {
		if (!(r.flags & HZR_LINE) || r.clk != clk || r.block != blk ||
		    r.tid != tid0 || r.mask != per || r.pc != pc)
			rec_put(&hl->r, blk, clk, tid0, HZR_LINE, per, pc);
		/* a second read of the line that these lanes are ordered
		 * after is dropped, as drop_second does for a granule */
		rec_load(&r2, &hl->r2);
		if ((r2.flags & HZR_LINE) && r2.clk > base &&
		    line_ordered(hb, &r2, fw, RK_R2, tid0, per, base) == LINE_GRAN)
			rec_put(&hl->r2, 0, 0, 0, 0, 0, 0);
		return true;
	}
	settle_rec(&hl->r, fw, RK_R, base, hb->fence, clk);
	settle_rec(&hl->r2, fw, RK_R2, base, hb->fence, 0);
	for (g = 0; g < LINE_GRAN; g++) {
		uint32_t tid = tid0 + g / per;

		note_read(hb, &fw[g], hb->t[tid].clk, tid, pc, base, false, wh);
	}
	return true;
}

/* A plain aligned run of ng granules from offset off of a global
 * allocation, granule g by thread tid0 + g / per: whole lines at the
 * line's level where they can be, the rest granule by granule.  Returns
 * the granules done, from the first (ng: all). */
HOT uint32_t global_run(struct hz_block *hb, const struct where *wh,
			uint64_t off, uint32_t ng, uint32_t per, uint32_t tid0,
			uint32_t pc, uint32_t base, int kind)
{
	uint32_t g = 0;

	while (g < ng) {
		uint64_t goff = off + (uint64_t)g * 4, li = goff / LINE_BYTES;
		uint32_t at = (uint32_t)(goff / 4 % LINE_GRAN), e;

		if (at == 0 && ng - g >= LINE_GRAN && g % per == 0 &&
		    line_access(hb, wh, li, tid0 + g / per, per, pc, base, kind)) {
			g += LINE_GRAN;
			continue;
		}
		e = g + (LINE_GRAN - at < ng - g ? LINE_GRAN - at : ng - g);
		line_settle(wh, goff, 4, base, hb->fence, hb->t[tid0 + g / per].clk,
			    kind);
		for (; g < e; g++)
			if (kind == HZ_READ
			    ? !read4(hb, &wh->sh[off / 4 + g], tid0 + g / per, pc, base, wh)
			    : !write4(hb, &wh->sh[off / 4 + g], tid0 + g / per, pc, base, false))
				return g;
	}
	return g;
}

/* Plain aligned writes of 4, 8 or 16 bytes to distinct words, lane by
 * lane, until one needs the full check; returns the lanes left. */
HOT uint32_t writes4(struct block_ctx *bc, struct hz_block *hb,
			struct where *wh, const struct warp *w, uint32_t lanes,
		     uint8_t *const *ptr, uint32_t n, uint32_t pc)
{
	uint32_t base = bc->L->hz_base;
	uint64_t ssize = bc->L->shared_size;

	while (lanes) {
		unsigned l = (unsigned)__builtin_ctz(lanes);
		uint8_t *p = ptr[l];
		uint64_t off = (uint64_t)(p - bc->shared), a = (uint64_t)(uintptr_t)p;

		if (off < ssize && !(off & 3)) {
			if (!writes4_at(hb, &hb->ssh[off >> 2], n, w->id * 32 + l, pc,
					base, true))
				break;
			bits_set(hb->sinit, off, n, false);
		} else if (off >= ssize && hb->global_ok && !(a & 3) &&
			   (uint64_t)(p - bc->local) >= bc->local_cap &&
			   (a - wh->lo < wh->size || global_where(bc, a, wh))) {
			off = a - wh->lo;
			line_settle(wh, off, n, base, hb->fence,
				    hb->t[w->id * 32 + l].clk, HZ_WRITE);
			if (!writes4_at(hb, &wh->sh[off >> 2], n, w->id * 32 + l, pc,
					base, false))
				break;
			if (wh->init)
				bits_set(wh->init, off, n, true);
		} else {
			break;
		}
		lanes &= lanes - 1;
	}
	return lanes;
}

/* Plain aligned reads of n bytes (4, 8 or 16), lane by lane, until one
 * needs the full check (a new allocation, local memory, an unwritten or
 * racing granule); returns the lanes left. */
HOT uint32_t fast_reads(struct block_ctx *bc, struct hz_block *hb,
			struct where *wh, const struct warp *w, uint32_t lanes,
			uint8_t *const *ptr, uint32_t n, uint32_t pc)
{
	uint32_t base = bc->L->hz_base;
	uint64_t ssize = bc->L->shared_size;
	const struct hz_thread *prev = NULL;
	const uint8_t *prev_p = NULL;
	/* lanes of a warp without __syncwarp knowledge of their own know the
	 * same when they share a snapshot */
	bool same_ok = !hb->Lon[w->id];

	while (lanes) {
		unsigned l = (unsigned)__builtin_ctz(lanes);
		uint8_t *p = ptr[l];
		uint64_t off = (uint64_t)(p - bc->shared), a = (uint64_t)(uintptr_t)p;
		const struct hz_thread *t = &hb->t[w->id * 32 + l];

		uint32_t rest = lanes & (lanes - 1);

		if (p == prev_p && same_ok && t->snap == prev->snap && t->xk == prev->xk) {
			/* a broadcast read: what held for the lane before holds
			 * for this one, and the first record stays.  The last
			 * lane of the run is kept as the second read, so that
			 * a write by the first is checked against it */
			if (!rest || ptr[__builtin_ctz(rest)] != p)
				note_bcast(hb, off < ssize ? &hb->ssh[off >> 2]
							   : &wh->sh[(a - wh->lo) >> 2],
					   n, w->id * 32 + l, pc, off < ssize ? NULL : wh,
					   base);
			lanes = rest;
			continue;
		}
		if (off < ssize && !(off & 3)) {
			if ((off < hb->init_limit && !bits_all(hb->sinit, off, n)) ||
			    !reads4(hb, &hb->ssh[off >> 2], n, w->id * 32 + l, pc, base,
				    NULL))
				break;
		} else if (off >= ssize && hb->global_ok && !(a & 3) &&
			   (uint64_t)(p - bc->local) >= bc->local_cap &&
			   (a - wh->lo < wh->size || global_where(bc, a, wh))) {
			off = a - wh->lo;
			if (wh->init && !bits_all(wh->init, off, n))
				break;
			line_settle(wh, off, n, base, hb->fence, t->clk, HZ_READ);
			if (!reads4(hb, &wh->sh[off >> 2], n, w->id * 32 + l, pc, base,
				    wh))
				break;
		} else {
			break;
		}
		prev = t;
		prev_p = p;
		lanes &= lanes - 1;
	}
	return lanes;
}

/* Sets the n bits from off: whole bytes by a store of all ones (bits are
 * only ever set, so a byte whose every bit is ours cannot lose another
 * thread's), the ends bit by bit. */
static void bits_set_span(uint8_t *bits, uint64_t off, uint64_t n, bool atomic)
{
	uint64_t end = off + n;

	for (; off < end && (off & 7); off++)
		bits_or(&bits[off >> 3], (uint8_t)(1u << (off & 7)), atomic);
	for (; off + 8 <= end && (off & 63); off += 8) {
		if (atomic)
			__atomic_store_n(&bits[off >> 3], 0xff, __ATOMIC_RELAXED);
		else
			bits[off >> 3] = 0xff;
	}
	/* 64 bytes' bits at a time, aligned (the bits start page- or
	 * malloc-aligned) */
	for (; off + 64 <= end; off += 64) {
		uint64_t *q = (uint64_t *)(void *)&bits[off >> 3];

		if (atomic)
			__atomic_store_n(q, UINT64_MAX, __ATOMIC_RELAXED);
		else
			*q = UINT64_MAX;
	}
	for (; off + 8 <= end; off += 8) {
		if (atomic)
			__atomic_store_n(&bits[off >> 3], 0xff, __ATOMIC_RELAXED);
		else
			bits[off >> 3] = 0xff;
	}
	for (; off < end; off++)
		bits_or(&bits[off >> 3], (uint8_t)(1u << (off & 7)), atomic);
}

/* Whether the n bits from off are all set: the partial bytes at the ends
 * by a mask, the whole ones between a word at a time. */
static bool span_all(const uint8_t *bits, uint64_t off, uint64_t n)
{
	uint64_t end = off + n, x;
	uint8_t m;

	if (off & 7) {
		uint64_t stop = (off | 7) + 1 < end ? (off | 7) + 1 : end;

		m = (uint8_t)(((1u << (stop - off)) - 1) << (off & 7));
		if ((bits[off >> 3] & m) != m)
			return false;
		off = stop;
	}
	for (; off + 64 <= end; off += 64) {
		memcpy(&x, bits + (off >> 3), 8);
		if (x != UINT64_MAX)
			return false;
	}
	for (; off + 8 <= end; off += 8)
		if (bits[off >> 3] != 0xff)
			return false;
	if (off < end) {
		m = (uint8_t)((1u << (end - off)) - 1);
		if ((bits[off >> 3] & m) != m)
			return false;
	}
	return true;
}

/* ---- quiet intervals ---- */

/* At the start of a block, and after a barrier that every live thread of
 * the block passed with no cp.async copy outstanding, every shared-memory
 * access recorded so far happens before whatever follows.  Until
 * something else happens (a write, an atomic, a strong access, a fence,
 * __syncwarp, an mbarrier operation, a barrier that does not wait or
 * does not gather the whole block) no thread's clock or knowledge
 * changes except by arriving at a barrier, so a plain shared read cannot
 * race with any write.  Such reads are only logged, a warp instruction
 * at a time.  When the interval ends at the next full barrier, which
 * orders them before everything after it, the log is dropped; when it
 * ends otherwise, the log is replayed into the read records the per-lane
 * check would have left. */

void hz_quiet_begin(struct hz_block *hb)
{
	hb->q.on = true;
	/* nothing writes shared memory while it lasts, so if every byte has
	 * been written, no read in it needs to look */
	hb->q.all_init = span_all(hb->sinit, 0, hb->init_limit);
	hz_slog_clear(hb);
	memset(hb->arrived, 0, hb->nwarps * sizeof *hb->arrived);
}

/* The logged reads as read records, in the order they were made, each
 * with the clock its thread had then (one less than now for a thread
 * that has since arrived at a barrier). */
/* The clock lane l of logged read e had when it read (one less than
 * now for a thread that has since arrived at a barrier). */
static inline uint32_t slog_clk(const struct hz_block *hb,
				const struct hz_slog *e, uint32_t l)
{
	return hb->t[e->warp * 32u + l].clk - (hb->arrived[e->warp] >> l & 1);
}

static void slog_replay(struct hz_block *hb, uint32_t base)
{
	uint32_t i;

	for (i = 0; i < hb->q.n; i++) {
		const struct hz_slog *e = &hb->q.log[i];
		uint32_t lanes = e->lanes;

		while (lanes) {
			uint32_t l = (uint32_t)__builtin_ctz(lanes), tid = e->warp * 32u + l, g;
			uint32_t off = e->lined ? e->off + l * e->step : hb->soff[e->off][l];
			uint32_t clk = slog_clk(hb, e, l), rest = lanes & (lanes - 1);

			lanes = rest;
			/* inside a broadcast (the lanes before and after it read
			 * the same word at the same clock) a lane leaves no record
			 * its neighbours do not: the first of the run and the last
			 * are recorded, as in fast_reads */
			if (!e->lined && rest && l && (e->lanes >> (l - 1) & 1)) {
				uint32_t n = (uint32_t)__builtin_ctz(rest);

				if (n == l + 1 && hb->soff[e->off][l - 1] == off &&
				    hb->soff[e->off][n] == off &&
				    slog_clk(hb, e, l - 1) == clk && slog_clk(hb, e, n) == clk)
					continue;
			}
			for (g = off >> 2; g < (off + e->n) >> 2; g++)
				note_read(hb, &hb->ssh[g], clk, tid, e->pc, base, true, NULL);
		}
	}
}

/* Ends a quiet interval other than at a full barrier. */
void hz_quiet_end(struct hz_block *hb, uint32_t base)
{
	if (!hb->q.on)
		return;
	slog_replay(hb, base);
	hz_slog_clear(hb);
	hb->q.on = false;
}

/* Logs a plain read by a whole warp in a quiet interval whose lanes lie
 * in a line, lane l at p0 + l * step: one small record, the span checked
 * at once.  False when it must be checked lane by lane. */
HOT bool quiet_line(struct block_ctx *bc, struct hz_block *hb,
		    const struct warp *w, const uint8_t *p0, uint32_t n,
		    uint32_t step, uint32_t pc)
{
	uint64_t ssize = bc->L->shared_size;
	uint64_t limit = hb->q.all_init ? 0 : hb->init_limit;
	uint64_t off = (uint64_t)(p0 - bc->shared), span = 31ull * step + n;

	if (hb->q.n == SLOG_MAX || (n != 4 && n != 8 && n != 16) ||
	    off >= ssize || ssize - off < span || (off & 3) || (step & 3) ||
	    (off < limit && !bits_all(hb->sinit, off, (uint32_t)span)))
		return false;
	simt_hz_log_put_line(&hb->q, pc, w->id, n, step, (uint32_t)off);
	return true;
}

/* Logs a plain warp read of shared memory in a quiet interval.  True
 * when every lane's address is 4-aligned and inside shared memory and
 * every byte read was written; otherwise the read goes the checked way
 * (which also reports an unwritten byte). */
HOT bool quiet_read(struct block_ctx *bc, struct hz_block *hb,
		    const struct warp *w, uint32_t lanes, uint8_t *const *ptr,
		    uint32_t n, int step, uint32_t pc)
{
	uint64_t ssize = bc->L->shared_size, limit = hb->init_limit;
	const uint8_t *prev = NULL;
	struct hz_slog *e;
	uint32_t m, *offs;

	if (n != 4 && n != 8 && n != 16)
		return false;
	if (hb->q.n == SLOG_MAX) {
		/* the records the log stands for, made now; the interval goes on */
		slog_replay(hb, bc->L->hz_base);
		hz_slog_clear(hb);
	}
	if (step >= 0)  /* only ptr[0] is there */
		return lanes == UINT32_MAX &&
		       quiet_line(bc, hb, w, ptr[0], n, (uint32_t)step, pc);
	e = &hb->q.log[hb->q.n];
	offs = hb->soff[hb->nsoff];
	if (hb->q.all_init)
		limit = 0;
	m = lanes;
	if (lanes == UINT32_MAX && !limit && ssize >= n) {
		/* a whole warp with nothing to look up: one loop without
		 * branches, which the compiler vectorises */
		uint64_t bad = 0, last = ssize - n;
		unsigned l;

		for (l = 0; l < 32; l++) {
			uint64_t off = (uint64_t)(ptr[l] - bc->shared);

			bad |= (uint64_t)(off > last) | (off & 3);
			offs[l] = (uint32_t)off;
		}
		if (bad)
			return false;
		m = 0;
	}
	for (; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint64_t off = (uint64_t)(ptr[l] - bc->shared);

		if (ptr[l] != prev) {
			if (off >= ssize || ssize - off < n || (off & 3) ||
			    (off < limit && !bits_all(hb->sinit, off, n)))
				return false;
			prev = ptr[l];
		}
		offs[l] = (uint32_t)off;
	}
	e->lined = false;
	e->off = hb->nsoff++;
	e->pc = pc;
	e->lanes = lanes;
	e->warp = (uint16_t)w->id;
	e->n = (uint8_t)n;
	hb->q.n++;
	return true;
}

bool simt_hz_quiet_line(struct block_ctx *bc, const struct warp *w,
			const struct simt_insn *in, uint8_t *p0, uint32_t n,
			uint32_t step)
{
	struct hz_block *hb = bc->hz;

	return hb->q.on && !flags_of(in, HZ_READ) &&
	       quiet_line(bc, hb, w, p0, n, step,
			  (uint32_t)(in - bc->L->mod->code));
}

/* Whether any of the lanes' addresses lies in shared memory. */
static bool any_shared(const struct block_ctx *bc, uint32_t lanes,
		       uint8_t *const *ptr)
{
	uint64_t ssize = bc->L->shared_size;
	const uint8_t *s = bc->shared;
	bool any = false;
	unsigned l;

	if (!ssize)
		return false;
	if (lanes == UINT32_MAX) {
		for (l = 0; l < 32; l++)
			any |= (uint64_t)(ptr[l] - s) < ssize;
		return any;
	}
	for (; lanes; lanes &= lanes - 1)
		if ((uint64_t)(ptr[__builtin_ctz(lanes)] - s) < ssize)
			return true;
	return false;
}

/* Whether shared-memory record r leaves a plain access by thread tid
 * free to go on and be recorded: it is stale (an earlier launch, or
 * another block) or the thread's own synchronous access. */
HOT bool rec_free(const struct hz_rec *r, uint32_t blk, uint32_t tid,
		  uint32_t base)
{
	return r->clk <= base || r->block != blk ||
	       (r->tid == tid && !(r->flags & HZR_ASYNC));
}

/* A run of ng granules of shared memory whose records all leave the
 * access free (as a kernel streams through a tile): recorded in one
 * loop, as read4 or write4 would record it granule by granule.  False,
 * with nothing changed, when some granule needs their checks. */
HOT bool own_run(struct hz_block *hb, struct hz_word *wd, uint32_t ng,
		 uint32_t per, uint32_t tid0, uint32_t pc, uint32_t base,
		 int kind)
{
	uint32_t blk = hb->block, g;

	for (g = 0; g < ng; g++)
		if (!rec_free(&wd[g].w, blk, tid0 + g / per, base) ||
		    !rec_free(&wd[g].r, blk, tid0 + g / per, base) ||
		    (kind != HZ_READ && hb->sr2 &&
		     !rec_free(&wd[g].r2, blk, tid0 + g / per, base)))
			return false;
	for (g = 0; g < ng; g++) {
		uint32_t tid = tid0 + g / per;

		rec_put_plain(kind == HZ_READ ? &wd[g].r : &wd[g].w, blk,
			      hb->t[tid].clk, tid, pc);
	}
	return true;
}

/* A coalesced access: the lanes, one unbroken run of them, touch
 * consecutive n-byte pieces of one region (shared memory, or one global
 * allocation with a shadow) from a 4-aligned address.  The region and
 * the initialised bytes are then checked once for the whole run; in
 * shared memory the granules go through own_run or read4/write4 with the
 * lane each belongs to, in global memory through global_run.
 * Returns the lanes left for the other paths: all of them when the
 * access is not of this shape, else those from the first granule that
 * needs the full check (granules of it already done are found again as
 * read4/write4 left them). */
HOT uint32_t run_access(struct block_ctx *bc, struct hz_block *hb,
			struct where *wh, const struct warp *w, uint32_t lanes,
			uint8_t *const *ptr, uint32_t n, int kind, uint32_t pc,
			bool line)
{
	unsigned f, l;
	uint32_t run, cnt, g, ng, per = n / 4, base = bc->L->hz_base, tid0;
	uint8_t *p0;
	uint64_t off, a, len;
	struct hz_word *wd;
	bool shared;

	if (!lanes)
		return 0;
	f = (unsigned)__builtin_ctz(lanes);
	tid0 = w->id * 32 + f;
	p0 = ptr[f];
	off = (uint64_t)(p0 - bc->shared);
	a = (uint64_t)(uintptr_t)p0;
	run = lanes >> f;
	if (run & (run + 1))
		return lanes;           /* not one unbroken run */
	cnt = run == UINT32_MAX ? 32 : (uint32_t)__builtin_ctz(~run);
	if (cnt < 4)
		return lanes;
	for (l = 1; l < cnt && !line; l++)
		if (ptr[f + l] != p0 + (size_t)l * n)
			return lanes;
	len = (uint64_t)cnt * n;
	if (off < bc->L->shared_size) {
		if ((off & 3) || off + len > bc->L->shared_size)
			return lanes;
		shared = true;
		wd = &hb->ssh[off >> 2];
		if (kind == HZ_READ && off < hb->init_limit &&
		    !span_all(hb->sinit, off, len))
			return lanes;
	} else {
		if (!hb->global_ok || (a & 3) ||
		    (uint64_t)(p0 - bc->local) < bc->local_cap ||
		    !(a - wh->lo < wh->size || global_where(bc, a, wh)))
			return lanes;
		off = a - wh->lo;
		if (off + len > wh->size)
			return lanes;
		shared = false;
		wd = NULL;
		if (kind == HZ_READ && wh->init && !span_all(wh->init, off, len))
			return lanes;
	}
	ng = (uint32_t)(len / 4);
	if (!shared) {
		g = global_run(hb, wh, off, ng, per, tid0, pc, base, kind);
	} else if (own_run(hb, wd, ng, per, tid0, pc, base, kind)) {
		g = ng;
	} else if (kind == HZ_READ) {
		for (g = 0; g < ng; g++)
			if (!read4(hb, wd + g, tid0 + g / per, pc, base, NULL))
				break;
	} else {
		for (g = 0; g < ng; g++)
			if (!write4(hb, wd + g, tid0 + g / per, pc, base, shared))
				break;
	}
	/* the lanes fully written are initialised; the rest are marked by
	 * the path that finishes them */
	if (kind != HZ_READ && g / per) {
		if (shared)
			bits_set_span(hb->sinit, off, (uint64_t)(g / per) * n, false);
		else if (wh->init)
			bits_set_span(wh->init, off, (uint64_t)(g / per) * n, true);
	}
	if (g == ng)
		return 0;
	return lanes & ~((1u << (f + g / per)) - 1);
}

/* run_access with the size a constant, so it is compiled for each; when
 * line (a whole warp in a rising run), only ptr[0] is read. */
static uint32_t fast_run(struct block_ctx *bc, struct hz_block *hb,
			 struct where *wh, const struct warp *w,
			 uint32_t lanes, uint8_t *const *ptr, uint32_t n,
			 int kind, uint32_t pc, bool line)
{
	switch (n) {
	case 4: return run_access(bc, hb, wh, w, lanes, ptr, 4, kind, pc, line);
	case 8: return run_access(bc, hb, wh, w, lanes, ptr, 8, kind, pc, line);
	case 16: return run_access(bc, hb, wh, w, lanes, ptr, 16, kind, pc, line);
	default: return lanes;
	}
}

/* The fast paths with the size a constant, so each is compiled for it;
 * the lanes they leave are returned.  `ran`: fast_run has been tried. */
static uint32_t fast_access(struct block_ctx *bc, struct hz_block *hb,
			    struct where *wh, const struct warp *w,
			    uint32_t lanes, uint8_t *const *ptr, uint32_t n,
			    int kind, uint32_t pc, bool line, bool ran)
{
	if (!ran)
		lanes = fast_run(bc, hb, wh, w, lanes, ptr, n, kind, pc, line);
	if (!lanes)
		return 0;
	if (kind == HZ_READ) {
		switch (n) {
		case 4: return fast_reads(bc, hb, wh, w, lanes, ptr, 4, pc);
		case 8: return fast_reads(bc, hb, wh, w, lanes, ptr, 8, pc);
		case 16: return fast_reads(bc, hb, wh, w, lanes, ptr, 16, pc);
		default: return lanes;
		}
	}
	switch (n) {
	case 4: return writes4(bc, hb, wh, w, lanes, ptr, 4, pc);
	case 8: return writes4(bc, hb, wh, w, lanes, ptr, 8, pc);
	case 16: return writes4(bc, hb, wh, w, lanes, ptr, 16, pc);
	default: return lanes;
	}
}

SIMT_LANE_CLONES void
simt_hz_warp_access(struct block_ctx *bc, const struct warp *w,
			 const struct simt_insn *in, uint32_t lanes,
			 uint8_t *const *ptr, uint32_t n, int kind,
			 const uint8_t (*val)[32], uint32_t coll, int step)
{
	struct hz_block *hb = bc->hz;
	struct where wh = {0};
	uint8_t *line[32];
	uint32_t pc = (uint32_t)(in - bc->L->mod->code);
	uint8_t flags = flags_of(in, kind);
	bool fast, ran = false;

	if (!lanes)
		return;
	if (hb->q.on && kind == HZ_READ && !flags &&
	    quiet_read(bc, hb, w, lanes, ptr, n, step, pc))
		return;
	/* plain global accesses leave it quiet: they change no clock and no
	 * shared record (a line lies in shared memory if its start does) */
	if (hb->q.on && ((kind != HZ_READ && kind != HZ_WRITE) || flags ||
			 (step >= 0 ? (uint64_t)(ptr[0] - bc->shared) <
				      bc->L->shared_size
				    : any_shared(bc, lanes, ptr))))
		hz_quiet_end(hb, bc->L->hz_base);
	fast = !flags && (kind == HZ_READ || (kind == HZ_WRITE && !coll));
	if (fast && step == (int)n && lanes == UINT32_MAX) {
		/* a whole warp's rising run: as a run, from ptr[0] alone */
		lanes = fast_run(bc, hb, &wh, w, lanes, ptr, n, kind, pc, true);
		if (!lanes)
			return;
		ran = true;
	}
	if (step >= 0) {
		/* only ptr[0] was made; the others follow from it */
		line[0] = ptr[0];
		line_ptrs(line, (uint32_t)step);
		ptr = line;
	}
	if (fast)
		lanes = fast_access(bc, hb, &wh, w, lanes, ptr, n, kind, pc,
				    step == (int)n && lanes == UINT32_MAX, ran);
	while (lanes) {
		unsigned l = (unsigned)__builtin_ctz(lanes);

		lanes &= lanes - 1;
		lane_access(bc, hb, &wh, w, l, in, pc,
			    (uint8_t)(flags | ((coll >> l & 1) ? HZR_COLL : 0)),
			    kind, ptr[l], n, val ? val[l] : NULL);
	}
}

SIMT_LANE_CLONES uint32_t
simt_hz_write_fast(struct block_ctx *bc, const struct warp *w,
			    const struct simt_insn *in, uint32_t lanes,
			    uint8_t *const *ptr, uint32_t n, bool line)
{
	struct hz_block *hb = bc->hz;
	struct where wh = {0};

	if (flags_of(in, HZ_WRITE))
		return lanes;
	if (hb->q.on && any_shared(bc, lanes, ptr))
		hz_quiet_end(hb, bc->L->hz_base);
	return fast_access(bc, hb, &wh, w, lanes, ptr, n, HZ_WRITE,
			   (uint32_t)(in - bc->L->mod->code), line, false);
}

void simt_hz_atomic_done(struct block_ctx *bc, const struct warp *w,
			 unsigned lane, const struct simt_insn *in, uint8_t *p)
{
	struct hz_block *hb = bc->hz;
	struct where wh;
	bool shared = p >= bc->shared && p < bc->shared + bc->L->shared_size;

	hz_quiet_end(hb, bc->L->hz_base);
	if (!shared && (!hb->global_ok ||
			!global_where(bc, (uint64_t)(uintptr_t)p, &wh)))
		return;
	hz_sync_strong(hb, w->id * 32 + lane, in, shared,
		       shared ? (uint64_t)(p - bc->shared) : (uint64_t)(uintptr_t)p,
		       HZ_ATOMIC, true);
}

void simt_hz_same_address(struct block_ctx *bc, const struct warp *w,
			  const struct simt_insn *in, unsigned first,
			  unsigned other, uint8_t *p)
{
	struct hz_report k;
	uint32_t pc = (uint32_t)(in - bc->L->mod->code);
	int space = p >= bc->shared && p < bc->shared + bc->L->shared_size
		? SP_SHARED : SP_GLOBAL;

	if (p >= bc->local && p < bc->local + bc->local_cap)
		return;
	hz_key_init(&k, bc, HK_RACE, space);
	k.why = WHY_SAME_INSN;
	hz_key_site(&k, 0, bc, bc->block, w->id * 32 + first, pc, AC_WRITE);
	hz_key_site(&k, 1, bc, bc->block, w->id * 32 + other, pc, AC_WRITE);
	hz_key_place(&k, bc, p);
	k.bytes[0] = k.bytes[1] = hz_insn_bytes(bc->L->mod, pc, AC_WRITE);
	hz_report(bc, &k, hz_race_message, NULL);
}
