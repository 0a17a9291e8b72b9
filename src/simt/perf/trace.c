/* The tracer of sampled blocks (see trace.h). */
#include "perf/trace.h"
#include "base/base.h"

#include <stdlib.h>
#include <string.h>

#define SECTOR 32u

void pm_trace_begin(struct pm_tracer *t, uint64_t block, uint32_t nwarps,
		    uint64_t l1_bytes, const struct pm_merge *merge, bool keep_lines)
{
	struct pm_btrace *b = simt_xcalloc(1, sizeof *b);

	t->merge = merge;
	t->keep_lines = keep_lines;
	b->block = block;
	b->nwarps = nwarps;
	b->w = simt_xcalloc(nwarps ? nwarps : 1, sizeof *b->w);
	t->bt = b;
	t->pos = 0;
	t->ms.n = 0;
	if (!t->l1.tag || t->l1_bytes != l1_bytes) {
		pm_cache_free(&t->l1);
		pm_cache_init(&t->l1, l1_bytes ? l1_bytes : 128, 16);
		t->l1_bytes = l1_bytes;
	} else {
		pm_cache_clear(&t->l1);
	}
}

struct pm_btrace *pm_trace_end(struct pm_tracer *t, struct pm_misses *ms)
{
	struct pm_btrace *b = t->bt;
	uint32_t i;

	for (i = 0; i < b->nwarps; i++)
		b->insns += b->w[i].insns;
	*ms = t->ms;
	memset(&t->ms, 0, sizeof t->ms);
	t->bt = NULL;
	return b;
}

void pm_misses_free(struct pm_misses *ms)
{
	free(ms->m);
	free(ms->mref);
	free(ms->pc);
	memset(ms, 0, sizeof *ms);
}

void pm_trace_free(struct pm_tracer *t)
{
	pm_btrace_free(t->bt);
	pm_cache_free(&t->l1);
	pm_misses_free(&t->ms);
	memset(t, 0, sizeof *t);
}

void pm_trace_run(struct pm_tracer *t, uint32_t warp, uint32_t pc, uint32_t len)
{
	if (warp < t->bt->nwarps) {
		pm_wtrace_run(&t->bt->w[warp], pc, len);
		t->pos += len;
	}
}

void pm_trace_unrun(struct pm_tracer *t, uint32_t warp, uint32_t left)
{
	struct pm_wtrace *w;

	if (warp >= t->bt->nwarps || !left)
		return;
	w = &t->bt->w[warp];
	if (w->nrun && w->run[w->nrun - 1].len >= left) {
		w->run[w->nrun - 1].len -= left;
		w->insns -= left;
		t->pos -= left;
		if (!w->run[w->nrun - 1].len)
			w->nrun--;
	}
}

static void miss_add(struct pm_tracer *t, uint32_t warp, uint32_t mref, uint32_t pc,
		     uint64_t line, unsigned mask, int kind)
{
	struct pm_misses *ms = &t->ms;
	struct pm_miss *m;

	if (ms->n == ms->cap) {
		ms->cap = ms->cap ? ms->cap * 2 : 256;
		ms->m = simt_xrealloc(ms->m, ms->cap * sizeof *ms->m);
		ms->mref = simt_xrealloc(ms->mref, ms->cap * sizeof *ms->mref);
		ms->pc = simt_xrealloc(ms->pc, ms->cap * sizeof *ms->pc);
	}
	ms->mref[ms->n] = mref;
	ms->pc[ms->n] = pc;
	m = &ms->m[ms->n++];
	m->line = line;
	m->pos = t->pos > UINT32_MAX ? UINT32_MAX : (uint32_t)t->pos;
	m->warp = (uint16_t)warp;
	m->mask = (uint8_t)mask;
	m->kind = (uint8_t)kind;
}

/* The distinct 128-byte lines the lanes touch, each with its sectors. */
static int lines_of(const uint64_t *addr, uint32_t lanes, uint32_t n,
		    uint64_t *line, unsigned *mask)
{
	int nl = 0, j;

	while (lanes) {
		unsigned l = (unsigned)__builtin_ctz(lanes);
		uint64_t s = addr[l] / SECTOR, e = (addr[l] + (n ? n : 1) - 1) / SECTOR;

		lanes &= lanes - 1;
		for (; s <= e; s++) {
			uint64_t ln = s >> 2;

			for (j = 0; j < nl && line[j] != ln; j++)
				;
			if (j == nl) {
				if (nl == 64)
					return nl;
				line[nl] = ln;
				mask[nl++] = 0;
			}
			mask[j] |= 1u << (s & 3);
		}
	}
	return nl;
}

static uint32_t add_mref(struct pm_tracer *t, uint32_t warp, uint32_t pc,
			 unsigned sectors, unsigned waves, unsigned addrs)
{
	struct pm_wtrace *w = &t->bt->w[warp];
	struct pm_mref r = {
		.pc = pc, .sectors = (uint16_t)sectors, .waves = (uint16_t)waves,
		.addrs = (uint16_t)addrs, .line0 = w->nlines,
	};

	/* an instruction whose access the interpreter reports in parts
	 * (ldmatrix's four matrices) is one access */
	if (w->nmem && w->mem[w->nmem - 1].pc == pc && w->mem_at == w->insns) {
		struct pm_mref *last = &w->mem[w->nmem - 1];

		last->sectors = (uint16_t)(last->sectors + sectors);
		last->waves = (uint16_t)(last->waves + waves);
		last->addrs = (uint16_t)(last->addrs + addrs);
		return w->nmem - 1;
	}
	pm_wtrace_mem(w, &r);
	w->mem_at = w->insns;
	return w->nmem - 1;
}

void pm_trace_global(struct pm_tracer *t, uint32_t warp, uint32_t pc,
		     const uint64_t *addr, uint32_t lanes, uint32_t n, bool store)
{
	uint64_t line[64];
	unsigned mask[64], sectors = 0;
	int nl, i;
	uint32_t ref;

	if (warp >= t->bt->nwarps)
		return;
	nl = lines_of(addr, lanes, n, line, mask);
	for (i = 0; i < nl; i++)
		sectors += (unsigned)__builtin_popcount(mask[i]);
	ref = add_mref(t, warp, pc, sectors, (unsigned)nl, 0);
	if (t->keep_lines)
		for (i = 0; i < nl; i++)
			pm_wtrace_line(&t->bt->w[warp], line[i], mask[i]);
	for (i = 0; i < nl; i++) {
		unsigned m;

		if (store) {
			/* write-through: every sector goes on to L2 */
			pm_cache_write(&t->l1, line[i], mask[i], false);
			miss_add(t, warp, ref, pc, line[i], mask[i], PM_MISS_WRITE);
			continue;
		}
		m = pm_cache_read(&t->l1, line[i], mask[i]);
		if (m)
			miss_add(t, warp, ref, pc, line[i], m, PM_MISS_READ);
	}
}

void pm_trace_local(struct pm_tracer *t, uint32_t warp, uint32_t pc, uint32_t n)
{
	unsigned bytes = 32 * (n ? n : 4);

	if (warp < t->bt->nwarps)
		add_mref(t, warp, pc, (bytes + SECTOR - 1) / SECTOR, (bytes + 127) / 128, 0);
}

/* Shared-memory wavefronts of one access: a warp's lanes are served in
 * phases (all 32 for accesses of up to 4 bytes, half-warps for 8,
 * quarter-warps for 16), and within a phase lanes that touch different
 * 4-byte words of one bank take a wavefront each; lanes on the same word
 * share it. */
static unsigned bank_waves(const uint64_t *addr, uint32_t lanes, uint32_t n)
{
	unsigned per = n <= 4 ? 32 : n <= 8 ? 16 : 8, nwords = n <= 4 ? 1 : n / 4;
	unsigned waves = 0, phase;

	for (phase = 0; phase < 32; phase += per) {
		uint32_t pl = lanes & (uint32_t)(((1ull << per) - 1) << phase);
		uint32_t word[32][4], cnt[32], used = 0;
		unsigned worst = 0;

		if (!pl)
			continue;
		while (pl) {
			unsigned l = (unsigned)__builtin_ctz(pl), k;

			pl &= pl - 1;
			for (k = 0; k < nwords; k++) {
				uint32_t w = (uint32_t)(addr[l] / 4) + k, b = w & 31, j;

				if (!(used & (1u << b))) {
					used |= 1u << b;
					cnt[b] = 0;
				}
				for (j = 0; j < cnt[b] && word[b][j] != w; j++)
					;
				if (j == cnt[b] && cnt[b] < 4)
					word[b][cnt[b]++] = w;
				if (cnt[b] > worst)
					worst = cnt[b];
			}
		}
		waves += worst;
	}
	return waves;
}

void pm_trace_shared(struct pm_tracer *t, uint32_t warp, uint32_t pc,
		     const uint64_t *addr, uint32_t lanes, uint32_t n)
{
	unsigned waves;

	if (warp >= t->bt->nwarps)
		return;
	if (t->merge && t->merge[pc].role == PM_MERGE_FOLLOW)
		return;
	if (t->merge && t->merge[pc].role == PM_MERGE_LEAD) {
		const struct pm_merge *m = &t->merge[pc];
		uint64_t a[32];
		uint32_t rest = lanes;
		bool aligned = true;

		while (rest) {
			unsigned l = (unsigned)__builtin_ctz(rest);

			rest &= rest - 1;
			a[l] = addr[l] + (uint64_t)(int64_t)m->delta;
			aligned &= a[l] % m->width == 0;
		}
		/* ptxas merges only what it can prove aligned; a group that is
		 * not costs what its parts would */
		waves = aligned ? bank_waves(a, lanes, m->width)
				: bank_waves(a, lanes, n) * (m->width / n);
	} else {
		waves = bank_waves(addr, lanes, n);
	}
	add_mref(t, warp, pc, 0, waves ? waves : 1, 0);
}

void pm_trace_atomic(struct pm_tracer *t, uint32_t warp, uint32_t pc,
		     const uint64_t *addr, uint32_t lanes, uint32_t n, bool shared)
{
	uint64_t a[32];
	unsigned cnt[32], most = 0, nlanes = 0;
	int na = 0, j;
	uint32_t ref, rest = lanes;

	if (warp >= t->bt->nwarps)
		return;
	while (rest) {
		unsigned l = (unsigned)__builtin_ctz(rest);

		rest &= rest - 1;
		nlanes++;
		for (j = 0; j < na && a[j] != addr[l]; j++)
			;
		if (j == na) {
			a[na] = addr[l];
			cnt[na++] = 0;
		}
		if (++cnt[j] > most)
			most = cnt[j];
	}
	ref = add_mref(t, warp, pc, nlanes, most, (unsigned)na);
	if (shared)
		return;
	for (j = 0; j < na; j++)
		miss_add(t, warp, ref, pc, a[j] / 128,
			 1u << ((a[j] / SECTOR) & 3) | (n > SECTOR ? 0xf : 0), PM_MISS_ATOMIC);
}

void pm_trace_none(struct pm_tracer *t, uint32_t warp, uint32_t pc)
{
	if (warp < t->bt->nwarps)
		add_mref(t, warp, pc, 0, 0, 0);
}
