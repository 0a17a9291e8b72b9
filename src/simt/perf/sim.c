/* One SM, simulated over the traces of the blocks it runs (see sim.h).
 *
 * Time is in core clock cycles (double).  Every shared resource is a
 * server with the time it is next free: a scheduler's issue port and each
 * of its pipes, the SM's L1/shared-memory data stage (one wavefront per
 * line_bytes / l1_bytes_per_clk cycles), and the SM's shares of L2 and
 * DRAM bandwidth.  An instruction is issued at the first cycle at which
 * its warp has issued its previous one, its source registers are ready
 * and its pipe is free; what it produces is ready a fixed latency later
 * or, for memory, when the last of its data arrives through the servers
 * it queued at.  That is enough to show the limits a learner climbs
 * through: latency with too few warps, a saturated pipe, the L1 stage
 * under uncoalesced or conflicting accesses, and bandwidth. */
#include "perf/sim.h"
#include "perf/cache.h"
#include "perf/gpu.h"
#include "base/base.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A memory instruction does not issue while the SM's data stage (L1 and
 * shared memory) is booked further ahead than this: the memory
 * instruction queue has a bounded number of entries, so a flood of
 * accesses stalls the warps that make them (MIO throttle) rather than
 * every later access.  NVIDIA documents no depth; this is the model's
 * assumption, of the order of a few instructions per scheduler. */
#define MIO_AHEAD 64

/* Registers are tracked per warp in a table of SB_ROWS entries indexed by
 * row (rows of called functions alias, which only blurs their timing). */
#define SB_ROWS 2048
#define SB_MASK (SB_ROWS - 1)
#define MAX_SCHED 8

enum { W_EMPTY, W_RUN, W_BAR, W_DONE };

/* A straight-line run of the trace as ptxas would schedule it: the order
 * its instructions issue in, and their offsets from the run's start. */
struct sched {
	uint32_t pc, len;
	uint32_t *order;
	struct sched *next;     /* hash chain */
};

struct swarp {
	const struct pm_wtrace *t;
	uint32_t run, off, mem;
	const struct sched *sch;   /* of the current run */
	const struct pm_mref **rmem;  /* by offset in the run: its access */
	uint32_t caprmem;
	int state;
	uint32_t slot;          /* block slot */
	uint32_t sched;
	double next;            /* earliest issue after its last one */
	double rdy;             /* operands of the next instruction ready */
	uint8_t why;            /* what rdy waits on (PM_STALL_*) */
	double async_done;
	uint64_t age;           /* order of arrival */
	double last_issue;      /* when it last issued (round robin) */
	float *sb;
	uint8_t *sbk;
};

/* The SM's L1 as the replay sees it: per sector, when its data arrives
 * (a sector still on its way makes a later access wait for it, as the
 * miss it joins does on a GPU). */
struct l1way {
	uint64_t tag;          /* line + 1; 0: empty */
	float arrive[4];
	uint32_t stamp;
	uint8_t valid;
};

struct l1 {
	uint32_t sets, ways, clock;
	struct l1way *w;
};

struct sblock {
	bool active;
	uint32_t live, at_bar;
	double bar_last;
	uint32_t first, nwarps;
	/* added to its trace's line addresses: a trace replayed again stands
	 * for other blocks, which touch other data */
	uint64_t line_off;
};

struct sm {
	const struct pm_sim_in *in;
	const struct simt_gpu *g;
	int nsched;
	uint32_t wpb;           /* warp slots per block slot */
	struct swarp *w;
	uint32_t nw;
	struct sblock *b;
	uint64_t admitted, completed;
	double issue_free[MAX_SCHED];
	double pipe_free[MAX_SCHED][PM_PIPES];
	int last[MAX_SCHED];    /* warp issued last (greedy) */
	double cand[MAX_SCHED];
	int cand_w[MAX_SCHED];
	uint8_t cand_why[MAX_SCHED];
	bool cand_ok[MAX_SCHED];
	double now[MAX_SCHED];
	double l1_free, l2_free, dram_free, atom_free;
	struct l1 l1;
	float *carry;           /* by pc: DRAM sectors owed (fractions) */
	struct sched **sched;   /* schedules by hash of (pc, len) */
	double wave_cyc, swave_cyc, lat_l1, lat_l2, lat_dram;
	/* L2 and DRAM: the whole chip's bytes per clock, the SMs sharing
	 * them, the most one SM can take, and what this SM has taken */
	double l2_total, dram_total, l2_port, nactive;
	uint64_t issued, serial;
	/* when each block was admitted, for extrapolation */
	double *t_admit;
	size_t cap_admit;
	bool stopped;
	struct pm_sim_out *out;
};

/* ---- traces ---- */

void pm_wtrace_run(struct pm_wtrace *t, uint32_t pc, uint32_t len)
{
	if (!len)
		return;
	if (t->nrun && t->run[t->nrun - 1].pc + t->run[t->nrun - 1].len == pc) {
		t->run[t->nrun - 1].len += len;
	} else {
		if (t->nrun == t->caprun) {
			t->caprun = t->caprun ? t->caprun * 2 : 16;
			t->run = simt_xrealloc(t->run, t->caprun * sizeof *t->run);
		}
		t->run[t->nrun++] = (struct pm_run){ pc, len };
	}
	t->insns += len;
}

void pm_wtrace_mem(struct pm_wtrace *t, const struct pm_mref *m)
{
	if (t->nmem == t->capmem) {
		t->capmem = t->capmem ? t->capmem * 2 : 16;
		t->mem = simt_xrealloc(t->mem, t->capmem * sizeof *t->mem);
	}
	t->mem[t->nmem++] = *m;
}

void pm_wtrace_line(struct pm_wtrace *t, uint64_t line, unsigned mask)
{
	if (t->nlines == t->caplines) {
		t->caplines = t->caplines ? t->caplines * 2 : 64;
		t->lines = simt_xrealloc(t->lines, t->caplines * sizeof *t->lines);
	}
	t->lines[t->nlines++] = line << 4 | (mask & 0xf);
}

void pm_btrace_free(struct pm_btrace *b)
{
	uint32_t i;

	if (!b)
		return;
	for (i = 0; i < b->nwarps; i++) {
		free(b->w[i].run);
		free(b->w[i].mem);
		free(b->w[i].lines);
	}
	free(b->w);
	free(b);
}

void pm_code_deps(struct pm_code *c, struct pm_op *o, const uint32_t *dst,
		  int ndst, const uint32_t *src, int nsrc)
{
	size_t need = c->nrows + (size_t)ndst + (size_t)nsrc;

	if (need > c->caprows) {
		c->caprows = need * 2;
		c->rows = simt_xrealloc(c->rows, c->caprows * sizeof *c->rows);
	}
	o->dep = (uint32_t)c->nrows;
	o->ndst = (uint8_t)ndst;
	o->nsrc = (uint8_t)nsrc;
	/* an op without destinations (a store) or sources passes NULL */
	if (ndst)
		memcpy(c->rows + c->nrows, dst, (size_t)ndst * sizeof *dst);
	if (nsrc)
		memcpy(c->rows + c->nrows + ndst, src, (size_t)nsrc * sizeof *src);
	c->nrows = need;
}

void pm_code_free(struct pm_code *c)
{
	free(c->op);
	free(c->merge);
	free(c->rows);
	memset(c, 0, sizeof *c);
}

/* ---- warps ---- */

/* ---- static scheduling of straight-line code ---- */

#define SCHED_BUCKETS 4096

static bool sched_fence(const struct pm_op *o)
{
	return o->ctl != PM_CTL_NONE || o->pipe == PM_PIPE_CBU;
}

/* Orders the instructions [lo, hi) of a run as a list scheduler does:
 * each cycle the ready instruction with the longest latency path to the
 * end goes first; an instruction waits for the registers it reads
 * (latency of their producer: an L1 hit for loads, as a compiler
 * assumes), may not pass a write of a register it reads or writes, and
 * memory instructions of one space keep their order around stores. */
static void list_schedule(const struct pm_code *c, const struct simt_gpu *g,
			  uint32_t lo, uint32_t hi, uint32_t *out)
{
	uint32_t n = hi - lo, i, j, k, done = 0;
	uint32_t *npred = simt_xcalloc(n, sizeof *npred);
	double *prio = simt_xcalloc(n, sizeof *prio), *earliest = simt_xcalloc(n, sizeof *earliest);
	bool *placed = simt_xcalloc(n, sizeof *placed);
	uint8_t *dep = simt_xcalloc((size_t)n * n, 1);
	double *lat = simt_xcalloc(n, sizeof *lat), now = 0;

	for (i = 0; i < n; i++) {
		const struct pm_op *o = &c->op[lo + i];

		lat[i] = o->mem == PM_MEM_GLD || o->mem == PM_MEM_ASYNC ? g->lat_l1
		       : o->mem == PM_MEM_SLD ? g->lat_shared : o->lat;
		if (lat[i] < o->slots)
			lat[i] = o->slots;
	}
	/* j depends on i (i < j) */
	for (j = 0; j < n; j++) {
		const struct pm_op *b = &c->op[lo + j];
		const uint32_t *bd = c->rows + b->dep, *bs = bd + b->ndst;

		for (i = 0; i < j; i++) {
			const struct pm_op *a = &c->op[lo + i];
			const uint32_t *ad = c->rows + a->dep, *as = ad + a->ndst;
			uint8_t d = 0;
			int x, y;

			for (x = 0; x < a->ndst && !d; x++) {
				for (y = 0; y < b->nsrc && !d; y++)
					if (ad[x] == bs[y])
						d = 2;          /* true dependence */
				for (y = 0; y < b->ndst && !d; y++)
					if (ad[x] == bd[y])
						d = 1;
			}
			for (x = 0; x < a->nsrc && !d; x++)
				for (y = 0; y < b->ndst && !d; y++)
					if (as[x] == bd[y])
						d = 1;
			if (!d && a->mem != PM_MEM_NONE && b->mem != PM_MEM_NONE &&
			    (a->mem == PM_MEM_GST || a->mem == PM_MEM_SST ||
			     b->mem == PM_MEM_GST || b->mem == PM_MEM_SST ||
			     a->mem == PM_MEM_GATOM || b->mem == PM_MEM_GATOM ||
			     a->mem == PM_MEM_SATOM || b->mem == PM_MEM_SATOM))
				d = 1;
			dep[(size_t)i * n + j] = d;
			if (d)
				npred[j]++;
		}
	}
	for (i = n; i-- > 0;) {
		prio[i] = lat[i];
		for (j = i + 1; j < n; j++)
			if (dep[(size_t)i * n + j] && prio[j] + (dep[(size_t)i * n + j] == 2 ? lat[i] : 0) > prio[i])
				prio[i] = prio[j] + (dep[(size_t)i * n + j] == 2 ? lat[i] : 0);
	}
	while (done < n) {
		int best = -1;

		for (i = 0; i < n; i++)
			if (!placed[i] && !npred[i] && earliest[i] <= now &&
			    (best < 0 || prio[i] > prio[best]))
				best = (int)i;
		if (best < 0) {
			double next = INFINITY;

			for (i = 0; i < n; i++)
				if (!placed[i] && !npred[i] && earliest[i] < next)
					next = earliest[i];
			now = next;
			continue;
		}
		placed[best] = true;
		out[done++] = lo + (uint32_t)best;
		for (k = (uint32_t)best + 1; k < n; k++) {
			uint8_t d = dep[(size_t)best * n + k];

			if (!d)
				continue;
			npred[k]--;
			if (now + (d == 2 ? lat[best] : 0) > earliest[k])
				earliest[k] = now + (d == 2 ? lat[best] : 0);
		}
		now += c->op[lo + best].slots ? 1 : 0;
	}
	free(npred);
	free(prio);
	free(earliest);
	free(placed);
	free(dep);
	free(lat);
}

/* The schedule of the run of `len` instructions from pc: straight-line
 * stretches between control instructions (branches, barriers, exits,
 * which keep their place) each list-scheduled; runs too long to schedule
 * cheaply keep their order. */
static const struct sched *sched_of(struct sm *m, uint32_t pc, uint32_t len)
{
	const struct pm_code *c = m->in->code;
	uint32_t h = (pc * 2654435761u ^ len) % SCHED_BUCKETS, i, lo;
	struct sched *sc;

	for (sc = m->sched[h]; sc; sc = sc->next)
		if (sc->pc == pc && sc->len == len)
			return sc;
	sc = simt_xcalloc(1, sizeof *sc);
	sc->pc = pc;
	sc->len = len;
	sc->order = simt_xmalloc(len * sizeof *sc->order);
	for (lo = pc, i = 0; i <= len; i++) {
		uint32_t x = pc + i;

		if (i < len && !sched_fence(&c->op[x]))
			continue;
		if (x - lo > 1 && x - lo <= 2048)
			list_schedule(c, m->g, lo, x, sc->order + (lo - pc));
		else
			for (uint32_t k = lo; k < x; k++)
				sc->order[k - pc] = k;
		if (i < len)
			sc->order[i] = x;
		lo = x + 1;
	}
	sc->next = m->sched[h];
	m->sched[h] = sc;
	return sc;
}

static void sched_free(struct sm *m)
{
	uint32_t h;

	for (h = 0; h < SCHED_BUCKETS; h++)
		while (m->sched[h]) {
			struct sched *sc = m->sched[h];

			m->sched[h] = sc->next;
			free(sc->order);
			free(sc);
		}
	free(m->sched);
}

/* ---- warps ---- */

static inline bool warp_more(const struct swarp *w)
{
	return w->run < w->t->nrun;
}

static inline uint32_t warp_pc(const struct swarp *w)
{
	return w->sch->order[w->off];
}

/* The warp enters run w->run: its schedule, and the access each of its
 * memory instructions made, matched in program order (an access of an
 * instruction the model does not count as memory is passed over). */
static void run_enter(struct sm *m, struct swarp *w)
{
	const struct pm_code *c = m->in->code;
	const struct pm_run *ru;
	uint32_t j;

	if (!warp_more(w))
		return;
	ru = &w->t->run[w->run];
	w->sch = sched_of(m, ru->pc, ru->len);
	if (ru->len > w->caprmem) {
		w->caprmem = ru->len;
		w->rmem = simt_xrealloc(w->rmem, w->caprmem * sizeof *w->rmem);
	}
	for (j = 0; j < ru->len; j++) {
		uint32_t pc = ru->pc + j;

		w->rmem[j] = NULL;
		if (c->op[pc].mem == PM_MEM_NONE)
			continue;
		while (w->mem < w->t->nmem && w->t->mem[w->mem].pc != pc &&
		       c->op[w->t->mem[w->mem].pc].mem == PM_MEM_NONE)
			w->mem++;
		if (w->mem < w->t->nmem && w->t->mem[w->mem].pc == pc)
			w->rmem[j] = &w->t->mem[w->mem++];
	}
}

static inline void warp_step(struct sm *m, struct swarp *w)
{
	if (++w->off == w->t->run[w->run].len) {
		w->run++;
		w->off = 0;
		run_enter(m, w);
	}
}

/* When the warp's next instruction has its operands, and why not sooner. */
static void warp_ready(struct sm *m, struct swarp *w)
{
	const struct pm_op *o;
	const uint32_t *r;
	double t = w->next;
	uint8_t why = PM_STALL_WAIT;
	int i;

	if (w->state != W_RUN)
		return;
	if (!warp_more(w)) {
		w->rdy = t;
		w->why = PM_STALL_WAIT;
		return;
	}
	o = &m->in->code->op[warp_pc(w)];
	r = m->in->code->rows + o->dep + o->ndst;
	for (i = 0; i < o->nsrc; i++) {
		uint32_t k = r[i] & SB_MASK;

		if (w->sb[k] > t) {
			t = w->sb[k];
			why = w->sbk[k];
		}
	}
	if (o->ctl == PM_CTL_WAIT_ASYNC && w->async_done > t) {
		t = w->async_done;
		why = PM_STALL_LONG_SB;
	}
	w->rdy = t;
	w->why = why;
}

/* ---- blocks ---- */

/* Something outside a scheduler's own warps changed at time t (a block
 * began, a barrier let go): the time its idle schedulers waited so far
 * counts for why they were idle, and every candidate is picked anew. */
static void invalidate(struct sm *m, double t)
{
	int s;

	for (s = 0; s < m->nsched; s++) {
		if (m->cand_ok[s] && m->cand_w[s] < 0 && t > m->now[s]) {
			m->out->stall[m->cand_why[s]] += t - m->now[s];
			m->now[s] = t;
		}
		m->cand_ok[s] = false;
	}
}

static void block_start(struct sm *m, uint32_t slot, double t)
{
	const struct pm_btrace *bt = m->in->traces[m->admitted % m->in->ntraces];
	struct sblock *b = &m->b[slot];
	uint32_t i;

	b->active = true;
	b->at_bar = 0;
	b->bar_last = 0;
	b->line_off = (m->admitted / m->in->ntraces) << 40;
	b->first = slot * m->wpb;
	b->nwarps = bt->nwarps < m->wpb ? bt->nwarps : m->wpb;
	b->live = 0;
	for (i = b->nwarps; i < m->wpb; i++)
		m->w[b->first + i].state = W_EMPTY;
	for (i = 0; i < b->nwarps; i++) {
		struct swarp *w = &m->w[b->first + i];

		w->t = &bt->w[i];
		w->run = w->off = w->mem = 0;
		w->next = t;
		w->last_issue = -1;
		w->async_done = 0;
		w->age = m->serial++;
		w->state = w->t->nrun ? W_RUN : W_DONE;
		run_enter(m, w);
		for (uint32_t k = 0; k < SB_ROWS; k++)
			w->sb[k] = 0;
		if (w->state == W_RUN) {
			b->live++;
			warp_ready(m, w);
		}
	}
	if (m->admitted == m->cap_admit) {
		m->cap_admit = m->cap_admit ? m->cap_admit * 2 : 64;
		m->t_admit = simt_xrealloc(m->t_admit, m->cap_admit * sizeof *m->t_admit);
	}
	m->t_admit[m->admitted++] = t;
	invalidate(m, t);
}

static bool may_admit(const struct sm *m)
{
	if (m->admitted >= m->in->queue)
		return false;
	if (m->in->max_issue && m->issued >= m->in->max_issue &&
	    m->admitted >= 4 * (uint64_t)m->in->resident + 1)
		return false;
	return true;
}

static void block_done(struct sm *m, uint32_t slot, double t)
{
	m->b[slot].active = false;
	m->completed++;
	if (may_admit(m))
		block_start(m, slot, t);
	else if (m->admitted < m->in->queue)
		m->stopped = true;
}

/* Lets the block's warps waiting at the barrier go, if all live ones are
 * there. */
static void barrier_check(struct sm *m, struct sblock *b)
{
	uint32_t i;
	double t;

	if (!b->live || b->at_bar < b->live)
		return;
	t = b->bar_last + m->g->lat_barrier;
	for (i = 0; i < b->nwarps; i++) {
		struct swarp *w = &m->w[b->first + i];

		if (w->state == W_BAR) {
			w->state = W_RUN;
			if (w->next < t)
				w->next = t;
			warp_ready(m, w);
		}
	}
	b->at_bar = 0;
	invalidate(m, t);
}

static void warp_exit(struct sm *m, struct swarp *w, double t)
{
	struct sblock *b = &m->b[w->slot];

	w->state = W_DONE;
	b->live--;
	if (b->live == 0) {
		block_done(m, w->slot, t);
		return;
	}
	if (b->at_bar && b->bar_last < t)
		b->bar_last = t;
	barrier_check(m, b);
}

/* ---- memory ---- */

static double serve(double *free_at, double t, double busy)
{
	double s = *free_at > t ? *free_at : t;

	*free_at = s + busy;
	return s;
}

static void l1_init(struct l1 *c, double bytes)
{
	uint64_t lines = (uint64_t)(bytes / 128);

	c->ways = 16;
	if (lines < c->ways)
		lines = c->ways;
	c->sets = (uint32_t)(lines / c->ways);
	c->w = simt_xcalloc((size_t)c->sets * c->ways, sizeof *c->w);
	c->clock = 0;
}

/* The way of `line`, placed (least recently used evicted) if absent. */
static struct l1way *l1_way(struct l1 *c, uint64_t line, bool allocate)
{
	size_t base = (size_t)(((pm_line_key(line) * 0x9e3779b97f4a7c15ull) >> 32) % c->sets) * c->ways;
	struct l1way *v = NULL;
	uint32_t i;

	for (i = 0; i < c->ways; i++) {
		struct l1way *x = &c->w[base + i];

		if (x->tag == line + 1) {
			x->stamp = ++c->clock;
			return x;
		}
		if (!v || !x->tag || (v->tag && x->stamp < v->stamp))
			v = x;
	}
	if (!allocate)
		return NULL;
	v->tag = line + 1;
	v->valid = 0;
	v->stamp = ++c->clock;
	return v;
}

/* Sectors of `n` sent to L2 by instruction pc that go on to DRAM: the L2
 * model's share for pc, fractions carried from access to access. */
static double dram_sectors(struct sm *m, uint32_t pc, double n)
{
	double want;

	if (!m->in->dram_ratio)
		return n;
	want = n * m->in->dram_ratio[pc] + m->carry[pc];
	m->carry[pc] = (float)(want - floor(want));
	return floor(want);
}

/* The bytes per clock this SM may take from a resource of `total` for
 * the whole chip when it has taken `used` by time t: the other SMs are
 * taken to use what this one uses on average (they run the same
 * blocks), and what they leave is this SM's, at least its even share and
 * at most `cap`. */
static double rate(const struct sm *m, double total, double used, double t, double cap)
{
	double share = total / m->nactive, others, r;

	/* `used` counts what is booked, perhaps far ahead of t */
	if (t < m->lat_dram)
		t = m->lat_dram;
	others = (m->nactive - 1) * used / t;
	r = total - others;
	if (r < share)
		r = share;
	return r < cap ? r : cap;
}

/* Whether `line`, sent to L2 by instruction pc, misses there: the L2
 * model gives each instruction the share of its sectors DRAM served; a
 * line misses whole, chosen by a hash of its address, so that the share
 * holds and every access to one line agrees. */
static bool l2_misses(const struct sm *m, uint32_t pc, uint64_t line)
{
	uint64_t h = pm_line_key(line) * 0x9e3779b97f4a7c15ull;

	if (!m->in->dram_ratio)
		return true;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (double)(h >> 11) * 0x1p-53 < m->in->dram_ratio[pc];
}

/* Sends `sectors` to L2 from time s, `dsectors` of them on to DRAM;
 * returns when the data is back (wait) or when L2 took it. */
static double to_l2(struct sm *m, double s, double sectors, double dsectors, bool wait)
{
	const struct simt_gpu *g = m->g;
	double b = sectors * g->sector_bytes;
	double busy = b / rate(m, m->l2_total, m->out->l2_bytes,
			       s > m->l2_free ? s : m->l2_free, m->l2_port);
	double d = dsectors, done;

	s = serve(&m->l2_free, s, busy);
	m->out->l2_bytes += b;
	done = s + busy + m->lat_l2;
	if (d > 0) {
		double db = d * g->sector_bytes;
		double dbusy = db / rate(m, m->dram_total, m->out->dram_bytes,
					 s > m->dram_free ? s : m->dram_free, m->l2_port);
		double ds = serve(&m->dram_free, s, dbusy);

		m->out->dram_bytes += db;
		if (ds + dbusy + m->lat_dram > done)
			done = ds + dbusy + m->lat_dram;
	}
	return wait ? done : s;
}

/* A global load's lines through L1 from time s (the data stage's turn):
 * hits, sectors already on their way, and misses, which go to L2 and are
 * then on their way for later accesses. */
static double l1_load(struct sm *m, const struct pm_mref *r, const uint64_t *lines,
		      uint64_t off, double s, double busy)
{
	double done = s + busy + m->lat_l1 - 1;
	double arrive, missed = 0, dmissed = 0;
	struct l1way *slot[64];
	unsigned miss[64];
	uint32_t i, n = r->waves < 64 ? r->waves : 64;

	for (i = 0; i < n; i++) {
		uint64_t line = (lines[i] >> 4) + off;
		unsigned mask = (unsigned)(lines[i] & 0xf), k;
		struct l1way *x = l1_way(&m->l1, line, true);

		slot[i] = x;
		miss[i] = 0;
		for (k = 0; k < 4; k++) {
			if (!(mask & (1u << k)))
				continue;
			if (x->valid & (1u << k)) {
				if (x->arrive[k] > done)
					done = x->arrive[k];
			} else {
				miss[i] |= 1u << k;
				missed++;
			}
		}
		if (miss[i] && l2_misses(m, r->pc, line))
			dmissed += (double)__builtin_popcount(miss[i]);
	}
	if (!missed)
		return done;
	arrive = to_l2(m, s, missed, dmissed, true);
	for (i = 0; i < n; i++) {
		unsigned k;

		for (k = 0; k < 4; k++)
			if (miss[i] & (1u << k)) {
				slot[i]->valid |= (uint8_t)(1u << k);
				slot[i]->arrive[k] = (float)arrive;
			}
	}
	return arrive > done ? arrive : done;
}

/* When the data of memory instruction `o` issued at t arrives. */
static double mem_access(struct sm *m, const struct pm_op *o,
			 const struct pm_mref *r, struct swarp *w, double t)
{
	const struct simt_gpu *g = m->g;
	struct pm_sim_out *out = m->out;
	double waves = r->waves ? r->waves : 1, s, busy;

	if (!r->waves && !r->sectors)
		return t;      /* no lane was active */
	switch (o->mem) {
	case PM_MEM_SLD: case PM_MEM_SST:
		s = serve(&m->l1_free, t, waves * m->swave_cyc);
		out->smem_busy += waves * m->swave_cyc;
		return s + waves * m->swave_cyc + g->lat_shared - m->swave_cyc;
	case PM_MEM_SATOM:
		s = serve(&m->l1_free, t, waves * m->swave_cyc);
		out->smem_busy += waves * m->swave_cyc;
		return s + waves * g->lat_atomic_shared;
	case PM_MEM_GATOM: {
		double addrs = r->addrs ? r->addrs : 1, done;

		s = serve(&m->l1_free, t, 1);
		out->l1_busy += 1;
		done = to_l2(m, s, addrs, dram_sectors(m, r->pc, addrs), true);
		/* lanes on one address serialise at L2, and so do other SMs'
		 * atomics on the hot addresses (this SM's share) */
		if (m->in->atomic_addr_per_clk > 0) {
			double a = serve(&m->atom_free, s, waves / m->in->atomic_addr_per_clk);

			if (a + waves / m->in->atomic_addr_per_clk + g->lat_atomic_global > done)
				done = a + waves / m->in->atomic_addr_per_clk + g->lat_atomic_global;
		}
		return done > s + g->lat_atomic_global ? done : s + g->lat_atomic_global;
	}
	default:
		break;
	}
	/* global loads, stores and async copies: the L1 takes a line (a tag)
	 * a clock, and its data path the sectors' bytes at its rate */
	busy = r->sectors * g->sector_bytes / g->l1_bytes_per_clk;
	if (busy < waves)
		busy = waves;
	s = serve(&m->l1_free, t, busy);
	out->l1_busy += busy;
	if (o->mem == PM_MEM_GST) {
		uint32_t i;

		for (i = 0; i < r->waves && r->line0 + i < w->t->nlines; i++) {
			struct l1way *x = l1_way(&m->l1, (w->t->lines[r->line0 + i] >> 4) +
						   m->b[w->slot].line_off, false);

			/* write-through: a line there keeps its sectors */
			if (x)
				x->valid |= (uint8_t)(w->t->lines[r->line0 + i] & 0xf);
		}
		to_l2(m, s, r->sectors, dram_sectors(m, r->pc, r->sectors), false);
		return t;
	}
	if (r->line0 + r->waves <= w->t->nlines)
		return l1_load(m, r, w->t->lines + r->line0, m->b[w->slot].line_off, s, busy);
	/* a trace without its lines: every sector from L2 */
	return to_l2(m, s, r->sectors, dram_sectors(m, r->pc, r->sectors), true);
}

/* ---- issuing ---- */

/* Issues w's next instruction at t on scheduler s; returns the issue
 * cycles it takes. */
static double issue(struct sm *m, int s, struct swarp *w, double t)
{
	const struct pm_code *c = m->in->code;
	uint32_t pc = warp_pc(w);
	const struct pm_op *o = &c->op[pc];
	const uint32_t *dst = c->rows + o->dep;
	double slots = o->slots, ready = t + o->lat;
	uint8_t kind = o->lat_kind;
	int i;

	m->issued++;
	m->out->issue_slots += slots;
	if (o->pipe != PM_PIPE_NONE && slots > 0) {
		double busy = slots * o->pipe_cyc;

		serve(&m->pipe_free[s][o->pipe], t, busy);
		m->out->pipe_busy[o->pipe] += busy;
	}
	if (o->mem != PM_MEM_NONE) {
		const struct pm_mref *r = w->rmem[pc - w->t->run[w->run].pc];

		if (r) {
			ready = mem_access(m, o, r, w, t);
			if (o->mem == PM_MEM_ASYNC && ready > w->async_done)
				w->async_done = ready;
		}
	}
	for (i = 0; i < o->ndst; i++) {
		uint32_t k = dst[i] & SB_MASK;

		w->sb[k] = (float)ready;
		w->sbk[k] = kind;
	}
	/* an instruction that becomes no SASS instruction takes no cycle */
	m->issue_free[s] = t + slots;
	w->next = t + slots;
	if (o->ctl == PM_CTL_FENCE)
		w->next += o->lat;
	warp_step(m, w);
	m->last[s] = (int)(w - m->w);
	w->last_issue = t;
	if (o->ctl == PM_CTL_BAR) {
		struct sblock *b = &m->b[w->slot];

		w->state = W_BAR;
		b->at_bar++;
		if (t > b->bar_last)
			b->bar_last = t;
		barrier_check(m, b);
	} else if (o->ctl == PM_CTL_EXIT || !warp_more(w)) {
		warp_exit(m, w, t + 1);
	} else {
		warp_ready(m, w);
	}
	m->cand_ok[s] = false;
	return slots;
}

/* The next issue of scheduler s: when, which warp and, for the cycles
 * before, why nothing could go.  False when it has no warp that runs. */
static bool candidate(struct sm *m, int s)
{
	const struct pm_code *c = m->in->code;
	double best = INFINITY, best_last = INFINITY;
	int bw = -1;
	uint8_t why = PM_STALL_IDLE;
	bool barrier = false;
	uint32_t i;

	for (i = (uint32_t)s; i < m->nw; i += (uint32_t)m->nsched) {
		struct swarp *w = &m->w[i];
		const struct pm_op *o;
		double t;
		uint8_t wy;

		if (w->state == W_BAR)
			barrier = true;
		if (w->state != W_RUN)
			continue;
		o = &c->op[warp_pc(w)];
		t = w->rdy;
		wy = w->why;
		if (o->pipe != PM_PIPE_NONE && m->pipe_free[s][o->pipe] > t) {
			t = m->pipe_free[s][o->pipe];
			wy = o->pipe == PM_PIPE_LSU ? PM_STALL_MIO : PM_STALL_PIPE;
		}
		if (o->mem != PM_MEM_NONE && m->l1_free - MIO_AHEAD > t) {
			t = m->l1_free - MIO_AHEAD;
			wy = PM_STALL_MIO;
		}
		if (t < m->issue_free[s])
			t = m->issue_free[s];
		/* of the warps that can go first, the one that issued least
		 * recently (loose round robin) */
		if (t < best || (t == best && w->last_issue < best_last)) {
			best = t;
			bw = (int)i;
			why = wy;
			best_last = w->last_issue;
		}
	}
	m->cand_ok[s] = true;
	m->cand_w[s] = bw;
	m->cand[s] = best;
	m->cand_why[s] = bw < 0 ? (barrier ? PM_STALL_BARRIER : PM_STALL_IDLE) : why;
	return bw >= 0;
}

static void sm_init(struct sm *m, const struct pm_sim_in *in, struct pm_sim_out *out)
{
	const struct simt_gpu *g = in->g;
	uint32_t i, maxw = 0;

	memset(m, 0, sizeof *m);
	memset(out, 0, sizeof *out);
	m->in = in;
	m->g = g;
	m->out = out;
	m->nsched = (int)g->schedulers_per_sm;
	if (m->nsched < 1)
		m->nsched = 1;
	if (m->nsched > MAX_SCHED)
		m->nsched = MAX_SCHED;
	for (i = 0; i < in->ntraces; i++)
		if (in->traces[i]->nwarps > maxw)
			maxw = in->traces[i]->nwarps;
	m->wpb = maxw ? maxw : 1;
	m->nw = in->resident * m->wpb;
	m->w = simt_xcalloc(m->nw, sizeof *m->w);
	m->b = simt_xcalloc(in->resident, sizeof *m->b);
	for (i = 0; i < m->nw; i++) {
		m->w[i].slot = i / m->wpb;
		m->w[i].sched = i % (uint32_t)m->nsched;
		m->w[i].state = W_EMPTY;
		m->w[i].sb = simt_xcalloc(SB_ROWS, sizeof *m->w[i].sb);
		m->w[i].sbk = simt_xcalloc(SB_ROWS, 1);
	}
	for (i = 0; i < MAX_SCHED; i++)
		m->last[i] = -1;
	m->wave_cyc = g->line_bytes / g->l1_bytes_per_clk;
	m->swave_cyc = g->shared_banks * 4 / g->shared_bytes_per_clk;
	m->nactive = in->active_sms > 1 ? in->active_sms : 1;
	m->l2_total = in->l2_bytes_per_clk * m->nactive;
	m->dram_total = in->dram_bytes_per_clk * m->nactive;
	m->l2_port = g->l1_bytes_per_clk;
	l1_init(&m->l1, in->l1_bytes > 0 ? in->l1_bytes : 32768);
	m->carry = simt_xcalloc(in->code->n + 1, sizeof *m->carry);
	m->sched = simt_xcalloc(SCHED_BUCKETS, sizeof *m->sched);
	m->lat_l1 = g->lat_l1;
	m->lat_l2 = g->lat_l2;
	m->lat_dram = g->lat_dram;
}

static void sm_free(struct sm *m)
{
	uint32_t i;

	for (i = 0; i < m->nw; i++) {
		free(m->w[i].sb);
		free(m->w[i].sbk);
		free(m->w[i].rmem);
	}
	sched_free(m);
	free(m->w);
	free(m->b);
	free(m->t_admit);
	free(m->l1.w);
	free(m->carry);
}

void simt_sim_run(const struct pm_sim_in *in, struct pm_sim_out *out)
{
	struct sm m;
	uint32_t i;
	double end = 0;

	sm_init(&m, in, out);
	if (!in->queue || !in->ntraces || !in->resident) {
		sm_free(&m);
		return;
	}
	for (i = 0; i < in->resident && may_admit(&m); i++)
		block_start(&m, i, 0);
	for (;;) {
		int s, best_s = -1;
		double best = INFINITY, took;

		for (s = 0; s < m.nsched; s++) {
			if (!m.cand_ok[s])
				candidate(&m, s);
			if (m.cand_w[s] >= 0 && m.cand[s] < best) {
				best = m.cand[s];
				best_s = s;
			}
		}
		if (best_s < 0)
			break;
		/* every scheduler that had nothing to issue until `best`
		 * waited for its reason; the one issuing waited until then */
		s = best_s;
		if (best > m.now[s]) {
			out->stall[m.cand_why[s]] += best - m.now[s];
			m.now[s] = best;
		}
		took = issue(&m, s, &m.w[m.cand_w[s]], best);
		out->stall[PM_STALL_SELECTED] += took;
		m.now[s] = best + took;
		if (m.now[s] > end)
			end = m.now[s];
	}
	/* the time the last scheduler was idle to the end counts too */
	for (i = 0; i < (uint32_t)m.nsched; i++) {
		if (end > m.now[i])
			out->stall[m.cand_why[i] == PM_STALL_BARRIER ? PM_STALL_BARRIER
								   : PM_STALL_IDLE] += end - m.now[i];
	}
	{
		/* results still in flight finish the last block */
		double tail = end;

		if (m.l1_free > tail)
			tail = m.l1_free;
		if (m.dram_free > tail)
			tail = m.dram_free;
		end = tail;
	}
	out->blocks_simulated = m.admitted;
	out->cycles = end;
	if (m.admitted < in->queue && m.admitted > 4 * (uint64_t)in->resident) {
		/* steady state: the time per block over whole generations
		 * since the first one ended; the rest of the queue at that
		 * rate after the admitted ones have drained */
		uint64_t first = 2 * (uint64_t)in->resident, span;
		double per, rest = (double)(in->queue - m.admitted);

		span = (m.admitted - 1 - first) / in->resident * in->resident;
		per = (m.t_admit[first + span] - m.t_admit[first]) / (double)span;
		double scale = (double)in->queue / (double)m.admitted;

		out->cycles = end + rest * per;
		out->issue_slots *= scale;
		out->l1_busy *= scale;
		out->smem_busy *= scale;
		out->l2_bytes *= scale;
		out->dram_bytes *= scale;
		for (i = 0; i < PM_PIPES; i++)
			out->pipe_busy[i] *= scale;
		for (i = 0; i < PM_STALLS; i++)
			out->stall[i] *= out->cycles / (end > 0 ? end : 1);
		out->extrapolated = true;
	}
	sm_free(&m);
}
