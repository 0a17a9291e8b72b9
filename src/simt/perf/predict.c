/* The time model of a launch: sampling, L2, one SM, the report (see
 * predict.h for the outline). */
#include "perf/predict.h"
#include "perf/cache.h"
#include "perf/gpu.h"
#include "perf/opclass.h"
#include "perf/resources.h"
#include "perf/sim.h"
#include "perf/trace.h"
#include "base/base.h"
#include "ptx/ptx.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Blocks spread over the grid beyond the first ones, to see whether
 * blocks differ. */
#define STRATA 4
/* Warp instructions the SM simulation issues before it extrapolates. */
#define SIM_ISSUE_CAP 40000000ull
/* Memory kept for the misses of sampled blocks: those of the longest
 * run of listed blocks, from the first, that fits (what blocks finish
 * first does not decide which). */
#define MISS_BYTES_CAP (768ull << 20)
/* The budget is counted in interpreted work, never by the clock, so that
 * a launch is sampled the same way, and predicted the same, on a busy
 * machine as on an idle one, with two cores or sixteen.  A second of
 * budget is what one core interprets in a second at simt's nominal rate:
 * ten million warp instructions (measured: 1.04e7 and 1.09e7 a second
 * on the register-blocked GEMM and flash-attention exercises, one core
 * of a 2-core x86-64 server), and setting up a block costs as much as
 * 50 of them (5 us).  An instruction's arithmetic counts too: simt does
 * a tensor-core MMA lane by lane, so one m16n8k16 (4096 FLOPs) costs it
 * about what 64 warp FMAs (64 FLOPs each) do; every 64 FLOPs count as
 * one more instruction. */
#define NOMINAL_INSNS_PER_S 1e7
#define BLOCK_SETUP_INSNS 50
#define FLOPS_PER_INSN 64.0
/* The default budget, in those seconds: about 10 s on two cores. */
#define DEFAULT_BUDGET_S 20
/* A guard against blocks far heavier than the first: past this many
 * budgets of work done, the rest of the grid is not run. */
#define GUARD_BUDGETS 4

struct ran {
	uint64_t block;
	uint64_t insns;
	struct pm_btrace *bt;
	struct pm_misses ms;
	bool done;
	bool prefix;          /* cut short after a prefix */
	bool kept;            /* its misses are kept (they went through L2) */
	double dram;          /* its DRAM bytes, from the L2 model */
	double flops[3];      /* f32, f64, f16 and tensor */
};

/* MODE_PREFIX: the first wave and the strata run, the rest of the wave
 * for a prefix of `prefix` instructions each (0: in full). */
enum { MODE_UNDECIDED, MODE_FULL, MODE_PREFIX };

struct pm_launch {
	struct pm_launch_desc d;
	const struct simt_gpu *g;
	struct simt_kres res;
	struct simt_occ occ;
	const struct pm_code *code;
	/* the listed blocks: [0, n_first) full and traced, [n_first, n_wave)
	 * the rest of the first wave, [n_wave, n_strata) strata, then the
	 * rest */
	uint64_t *list, nlist, n_first, n_wave, n_strata, ntraced;
	int mode;
	uint64_t prefix;          /* instructions a prefix block runs */
	uint64_t first_insns;     /* of the first listed block */
	double first_work;        /* its work: instructions and FLOPs */
	double work_done;         /* the work (block_work) of blocks done */
	bool guarded;             /* the guard ended the run early */
	pthread_cond_t cond;
	uint64_t wave;            /* blocks resident on the whole GPU at once */
	double budget;            /* in instructions; 0: no limit */
	pthread_mutex_t lock;
	struct ran *ran;
	uint64_t nran;            /* listed blocks done */
	uint64_t miss_bytes;
	uint64_t miss_limit;      /* listed blocks from here on keep no misses */
	uint64_t l1_bytes;
	float *dram_ratio;        /* by pc, from the L2 model */
};

/* ---- the device and the code, once ---- */

static const struct simt_gpu *the_gpu;

static void load_gpu(void)
{
	const char *id = simt_predict_device();
	struct simt_buf err = {0};

	if (*id) {
		the_gpu = simt_gpu_find(id, &err);
		if (!the_gpu)
			simt_warn("predict: %s; no predictions", err.s);
	}
	simt_buf_free(&err);
}

/* The device of CUDALAB_SIMT_PREDICT, read once (a broken file is
 * reported once, then predictions are off). */
const struct simt_gpu *simt_predict_gpu(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, load_gpu);
	return the_gpu;
}

const char *simt_predict_device(void)
{
	const char *id = getenv("CUDALAB_SIMT_PREDICT");

	return id ? id : "";
}

struct code_entry {
	const struct simt_module *mod;
	uint32_t ncode;
	struct pm_code code;
};

static const struct pm_code *code_for(const struct simt_module *mod,
				      const struct simt_gpu *g)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct code_entry *tab;
	static size_t ntab;
	const struct pm_code *c = NULL;
	size_t i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < ntab; i++)
		if (tab[i].mod == mod && tab[i].ncode == mod->ncode)
			c = &tab[i].code;
	if (!c) {
		tab = simt_xrealloc(tab, (ntab + 1) * sizeof *tab);
		tab[ntab].mod = mod;
		tab[ntab].ncode = mod->ncode;
		pm_code_build(&tab[ntab].code, mod, g);
		c = &tab[ntab++].code;
	}
	pthread_mutex_unlock(&lock);
	return c;
}

/* ---- which blocks run ---- */

/* The list, in order: the first two generations of one SM (run in full
 * and traced: the SM replays them), the rest of the first wave (run in
 * full when the whole grid fits the budget, else each for a prefix of its
 * instructions: enough to see how the wave's blocks share L2), blocks
 * spread over the rest of the grid (in full: whether blocks differ), then
 * the rest of the grid (only when everything fits). */
static void make_list(struct pm_launch *p)
{
	uint64_t n = p->d.nblocks, first = 2 * (uint64_t)p->occ.blocks, i, k = 0;
	uint64_t wave = p->wave < n ? p->wave : n;
	uint8_t *taken;
	int j;

	if (first > n)
		first = n;
	p->list = simt_xmalloc(n * sizeof *p->list);
	taken = simt_xcalloc(n, 1);
	for (i = 0; i < first; i++) {
		p->list[k++] = i;
		taken[i] = 1;
	}
	p->n_first = k;
	for (i = first; i < wave; i++) {
		p->list[k++] = i;
		taken[i] = 1;
	}
	p->n_wave = k;
	for (j = 0; j < STRATA && n > wave; j++) {
		uint64_t b = wave + (n - wave - 1) * (uint64_t)j / (STRATA - 1);

		if (!taken[b]) {
			taken[b] = 1;
			p->list[k++] = b;
		}
	}
	p->n_strata = k;
	for (i = wave; i < n; i++)
		if (!taken[i])
			p->list[k++] = i;
	p->nlist = k;
	p->ntraced = first;
	free(taken);
}

struct pm_launch *simt_predict_begin(const struct pm_launch_desc *d)
{
	const struct simt_gpu *g = simt_predict_gpu();
	struct pm_launch *p;
	uint32_t smem = d->shared_static + d->shared_dyn;

	if (!g || !d->nblocks)
		return NULL;
	p = simt_xcalloc(1, sizeof *p);
	p->d = *d;
	p->g = g;
	simt_kres_get(d->mod->ptx, d->mod->ptx_len, g->arch, d->fn->name, &p->res);
	if (p->res.known && p->res.smem_static > d->shared_static)
		smem = p->res.smem_static + d->shared_dyn;
	simt_occ_compute(g, (int)d->nthreads, p->res.regs, smem, &p->occ);
	if (p->occ.blocks < 1) {
		/* cannot be resident on that GPU: say so, predict as if one
		 * block fit */
		p->occ.blocks = 1;
		p->occ.limiter = "nothing: the block does not fit the device";
	}
	p->wave = (uint64_t)p->occ.blocks * (uint64_t)g->sms;
	p->code = code_for(d->mod, g);
	p->l1_bytes = (uint64_t)(p->occ.l1_kb * 1024 / p->occ.blocks);
	make_list(p);
	p->ran = simt_xcalloc(p->nlist, sizeof *p->ran);
	p->miss_limit = p->nlist;
	p->budget = (double)simt_env_long("CUDALAB_SIMT_PREDICT_BUDGET", DEFAULT_BUDGET_S) *
		    NOMINAL_INSNS_PER_S;
	if (p->budget < 0)
		p->budget = 0;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	return p;
}

/* Once the first listed block is done: whether the grid runs in full,
 * and if not how many instructions each prefix block may run.  Depends
 * on that block's instruction count alone, so on nothing the machine's
 * speed or load changes. */
static void decide(struct pm_launch *p)
{
	double per_block, left, full;
	uint64_t rest = p->n_wave - p->n_first;

	per_block = p->first_work + BLOCK_SETUP_INSNS;
	full = per_block * (double)p->d.nblocks;
	if (p->budget <= 0 || full <= p->budget || !rest) {
		p->mode = MODE_FULL;
		return;
	}
	p->mode = MODE_PREFIX;
	/* the rest of the first wave shares what is left of the budget once
	 * the first generations and the strata, which run in full, have
	 * theirs */
	left = p->budget - per_block * (double)(p->n_first + p->n_strata - p->n_wave);
	if (left < p->budget * 0.25)
		left = p->budget * 0.25;
	/* each prefix block's share, as instructions of the first block's mix */
	p->prefix = (uint64_t)(left / (double)rest * (double)p->first_insns / p->first_work);
	if (p->prefix < p->first_insns / 50)
		p->prefix = p->first_insns / 50;
	if (p->prefix >= p->first_insns)
		p->prefix = 0;
}

bool simt_predict_next(struct pm_launch *p, uint64_t i, uint64_t *block)
{
	if (i >= p->nlist)
		return false;
	if (i >= p->n_first) {
		pthread_mutex_lock(&p->lock);
		while (!p->mode)
			pthread_cond_wait(&p->cond, &p->lock);
		pthread_mutex_unlock(&p->lock);
		if (p->mode == MODE_PREFIX && i >= p->n_strata)
			return false;
		/* a guard against an estimate far off (blocks much heavier
		 * than the first); only then can the sample depend on which
		 * worker finished first */
		if (i >= p->n_strata && p->budget > 0) {
			bool over;

			pthread_mutex_lock(&p->lock);
			over = p->work_done > GUARD_BUDGETS * p->budget;
			p->guarded |= over;
			pthread_mutex_unlock(&p->lock);
			if (over)
				return false;
		}
	}
	*block = p->list[i];
	return true;
}

void simt_predict_block_begin(struct pm_launch *p, struct pm_tracer *t,
			      uint64_t i, uint64_t block)
{
	pm_trace_begin(t, block, p->d.nwarps, p->l1_bytes, p->code->merge, i < p->ntraced);
	if (p->mode == MODE_PREFIX && i >= p->n_first && i < p->n_wave)
		t->limit = p->prefix;
}

/* What interpreting a block costs, in instructions (see FLOPS_PER_INSN). */
static double block_work(uint64_t insns, const uint64_t flops[3])
{
	return (double)insns + (double)(flops[0] + flops[1] + flops[2]) / FLOPS_PER_INSN;
}

static uint64_t miss_bytes_of(const struct pm_misses *ms)
{
	return ms->n * (sizeof *ms->m + sizeof *ms->mref);
}

/* Keeps listed block i's misses (taking them from *ms) while the blocks
 * kept stay within the cap, evicting the latest listed first: whatever
 * order blocks finish in, what is kept in the end is the longest run of
 * listed blocks from the first that fits.  Called with p->lock held. */
static void keep_misses(struct pm_launch *p, uint64_t i, struct pm_misses *ms)
{
	uint64_t k;

	if (i >= p->miss_limit) {
		pm_misses_free(ms);
		return;
	}
	p->ran[i].ms = *ms;
	p->ran[i].kept = true;
	p->miss_bytes += miss_bytes_of(ms);
	for (k = p->miss_limit; p->miss_bytes > MISS_BYTES_CAP && k-- > 0;) {
		struct ran *e = &p->ran[k];

		p->miss_limit = k;
		if (!e->kept)
			continue;
		p->miss_bytes -= miss_bytes_of(&e->ms);
		pm_misses_free(&e->ms);
		memset(&e->ms, 0, sizeof e->ms);
		e->kept = false;
	}
}

void simt_predict_block_end(struct pm_launch *p, struct pm_tracer *t, uint64_t i,
			    const uint64_t flops[3])
{
	struct ran *r = &p->ran[i];
	struct pm_misses ms;
	bool cut = t->limit && t->pos >= t->limit;
	struct pm_btrace *bt = pm_trace_end(t, &ms);

	t->limit = 0;
	r->block = bt->block;
	r->insns = bt->insns;
	r->prefix = cut;
	r->flops[0] = (double)flops[0];
	r->flops[1] = (double)flops[1];
	r->flops[2] = (double)flops[2];
	pthread_mutex_lock(&p->lock);
	keep_misses(p, i, &ms);
	r->done = true;
	p->nran++;
	p->work_done += block_work(bt->insns, flops) + BLOCK_SETUP_INSNS;
	if (i == 0) {
		p->first_insns = bt->insns ? bt->insns : 1;
		p->first_work = block_work(p->first_insns, flops);
		decide(p);
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	if (i < p->ntraced)
		r->bt = bt;
	else
		pm_btrace_free(bt);
}

/* ---- L2: the sampled blocks' misses, merged as the blocks progress ---- */

struct cursor {
	struct ran *r;
	size_t k;
	double wave, norm;
};

static double key_of(const struct cursor *c)
{
	return c->wave + (double)c->r->ms.m[c->k].pos * c->norm;
}

static void heap_down(struct cursor *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, s = i;
		struct cursor t;

		if (l < n && key_of(&h[l]) < key_of(&h[s]))
			s = l;
		if (l + 1 < n && key_of(&h[l + 1]) < key_of(&h[s]))
			s = l + 1;
		if (s == i)
			return;
		t = h[i];
		h[i] = h[s];
		h[s] = t;
		i = s;
	}
}

/* Sectors of one miss that come from DRAM, in full blocks beyond the
 * window the prefixes saw: the window's share for that instruction,
 * carried over from miss to miss so the totals stay whole. */
struct window {
	double *sect, *miss, *carry;
};

static unsigned from_window(struct window *wn, uint32_t pc, unsigned sectors)
{
	double want = (double)sectors * wn->miss[pc] / wn->sect[pc] + wn->carry[pc];
	unsigned got = (unsigned)want;

	wn->carry[pc] = want - got;
	return got;
}

/* Runs the misses through L2 in the order the blocks progress together:
 * a block's position is its wave plus the fraction of its instructions
 * done.  Prefix blocks cover only the start of that; beyond it, full
 * blocks' accesses miss L2 as often as the same instruction did inside
 * the window.  Fills each traced access's DRAM sectors and each block's
 * DRAM bytes. */
static void run_l2(struct pm_launch *p)
{
	const struct simt_gpu *g = p->g;
	struct cursor *h = simt_xcalloc(p->nlist ? p->nlist : 1, sizeof *h);
	uint64_t first_wave = p->d.nblocks < p->wave ? p->d.nblocks : p->wave, in_wave = 0;
	double norm = p->first_insns ? 1.0 / (double)p->first_insns : 0, phi = 1, frac;
	struct window wn = {0};
	struct pm_cache l2;
	size_t n = 0, i;
	double *all_sect = simt_xcalloc(p->code->n + 1, sizeof *all_sect);
	double *all_dram = simt_xcalloc(p->code->n + 1, sizeof *all_dram);
	double tot_sect = 0, tot_dram = 0;

	if (p->mode == MODE_PREFIX && p->prefix && p->first_insns)
		phi = (double)p->prefix / (double)p->first_insns;
	wn.sect = simt_xcalloc(p->code->n + 1, sizeof *wn.sect);
	wn.miss = simt_xcalloc(p->code->n + 1, sizeof *wn.miss);
	wn.carry = simt_xcalloc(p->code->n + 1, sizeof *wn.carry);
	for (i = 0; i < p->nlist; i++) {
		struct ran *r = &p->ran[i];

		if (!r->done || !r->ms.n)
			continue;
		if (r->block < first_wave)
			in_wave++;
		h[n].r = r;
		h[n].k = 0;
		h[n].wave = (double)(r->block / (p->wave ? p->wave : 1));
		h[n].norm = norm;
		n++;
	}
	/* without every block of the first wave, L2 is shared with blocks the
	 * model did not see: the sampled ones get their share of it */
	frac = first_wave ? (double)in_wave / (double)first_wave : 1;
	if (frac <= 0 || frac > 1)
		frac = 1;
	pm_cache_init(&l2, (uint64_t)(g->l2_kb * 1024 * frac), 16);
	for (i = n; i-- > 0;)
		heap_down(h, n, i);
	while (n) {
		struct cursor *c = &h[0];
		const struct pm_miss *m = &c->r->ms.m[c->k];
		uint32_t pc = c->r->ms.pc[c->k];
		unsigned sectors = (unsigned)__builtin_popcount(m->mask), dr;
		bool beyond = (double)m->pos * c->norm > phi && pc < p->code->n &&
			      wn.sect[pc] > 0;

		if (beyond) {
			dr = from_window(&wn, pc, sectors);
		} else {
			unsigned bits;

			if (m->kind == PM_MISS_WRITE)
				bits = pm_cache_write(&l2, m->line, m->mask, true);
			else
				bits = pm_cache_read(&l2, m->line, m->mask);
			if (m->kind == PM_MISS_ATOMIC)
				bits |= pm_cache_write(&l2, m->line, m->mask, true);
			dr = (unsigned)__builtin_popcount(bits);
			if (pc < p->code->n && (double)m->pos * c->norm <= phi) {
				wn.sect[pc] += sectors;
				wn.miss[pc] += dr;
			}
		}
		c->r->dram += dr * g->sector_bytes;
		if (pc < p->code->n) {
			all_sect[pc] += sectors;
			all_dram[pc] += dr;
		}
		tot_sect += sectors;
		tot_dram += dr;
		if (++c->k == c->r->ms.n)
			h[0] = h[--n];
		heap_down(h, n, 0);
	}
	/* each instruction's share of its L2 sectors that DRAM serves; one
	 * never seen in L2 gets the kernel's */
	p->dram_ratio = simt_xcalloc(p->code->n + 1, sizeof *p->dram_ratio);
	for (i = 0; i < p->code->n; i++)
		p->dram_ratio[i] = (float)(all_sect[i] > 0 ? all_dram[i] / all_sect[i]
					   : tot_sect > 0 ? tot_dram / tot_sect : 1);
	pm_cache_free(&l2);
	free(wn.sect);
	free(wn.miss);
	free(wn.carry);
	free(all_sect);
	free(all_dram);
	free(h);
}

/* DRAM bytes and FLOPs of the whole grid: those of the blocks run in
 * full, on average, times the grid's blocks (DRAM bytes: of those whose
 * misses went through L2). */
static void grid_totals(const struct pm_launch *p, double *dram, double flops[3])
{
	double sum = 0, f[3] = {0, 0, 0};
	uint64_t n = 0, nd = 0, i;
	int k;

	for (i = 0; i < p->nlist; i++)
		if (p->ran[i].done && !p->ran[i].prefix) {
			if (p->ran[i].kept) {
				sum += p->ran[i].dram;
				nd++;
			}
			for (k = 0; k < 3; k++)
				f[k] += p->ran[i].flops[k];
			n++;
		}
	*dram = nd ? sum * (double)p->d.nblocks / (double)nd : 0;
	for (k = 0; k < 3; k++)
		flops[k] = n ? f[k] * (double)p->d.nblocks / (double)n : 0;
}

/* ---- the report ---- */

static const char *const stall_name[PM_STALLS] = {
	[PM_STALL_WAIT] = "waiting on a fixed-latency result",
	[PM_STALL_LONG_SB] = "waiting on global or local memory (long scoreboard)",
	[PM_STALL_SHORT_SB] = "waiting on shared memory or the special-function unit (short scoreboard)",
	[PM_STALL_PIPE] = "math pipe busy",
	[PM_STALL_MIO] = "memory instruction queue full (MIO throttle)",
	[PM_STALL_BARRIER] = "at a barrier",
	[PM_STALL_IDLE] = "no warp to run (tail or too few blocks)",
	[PM_STALL_SELECTED] = "issuing",
};

static const char *const stall_key[PM_STALLS] = {
	[PM_STALL_WAIT] = "wait", [PM_STALL_LONG_SB] = "long_scoreboard",
	[PM_STALL_SHORT_SB] = "short_scoreboard", [PM_STALL_PIPE] = "math_pipe_throttle",
	[PM_STALL_MIO] = "mio_throttle", [PM_STALL_BARRIER] = "barrier",
	[PM_STALL_IDLE] = "idle", [PM_STALL_SELECTED] = "selected",
};

enum {
	U_ISSUE, U_FMA, U_ALU, U_FP16, U_FP64, U_SFU, U_CONV, U_TENSOR, U_MIO,
	U_L1, U_SMEM, U_L2, U_DRAM, U_COUNT
};

static const char *const unit_name[U_COUNT] = {
	"issue slots", "FP32 pipe", "integer pipe", "FP16 pipe", "FP64 pipe",
	"special-function unit", "conversion pipe", "tensor cores",
	"memory instruction pipe", "L1 wavefronts", "shared-memory wavefronts",
	"L2 bandwidth", "DRAM bandwidth",
};

static const char *const unit_key[U_COUNT] = {
	"issue", "fp32", "int", "fp16", "fp64", "sfu", "conv", "tensor", "mio",
	"l1", "shared", "l2", "dram",
};

struct report {
	double util[U_COUNT];
	double stall[PM_STALLS];   /* fractions of scheduler cycles */
	double us, kernel_us, flops, flop_peak, dram_bytes, spread;
	const char *flop_kind;
	int top;
};

static void utilisations(const struct pm_launch *p, const struct pm_sim_out *o,
			 double l2_share, double dram_share, struct report *r)
{
	double c = o->cycles > 0 ? o->cycles : 1, ns = p->g->schedulers_per_sm;
	double total = 0;
	int i;

	r->util[U_ISSUE] = o->issue_slots / (c * ns);
	r->util[U_FMA] = o->pipe_busy[PM_PIPE_FMA] / (c * ns);
	r->util[U_ALU] = o->pipe_busy[PM_PIPE_ALU] / (c * ns);
	r->util[U_FP16] = o->pipe_busy[PM_PIPE_FP16] / (c * ns);
	r->util[U_FP64] = o->pipe_busy[PM_PIPE_FP64] / (c * ns);
	r->util[U_SFU] = o->pipe_busy[PM_PIPE_SFU] / (c * ns);
	r->util[U_CONV] = o->pipe_busy[PM_PIPE_CONV] / (c * ns);
	r->util[U_TENSOR] = o->pipe_busy[PM_PIPE_TENSOR] / (c * ns);
	r->util[U_MIO] = o->pipe_busy[PM_PIPE_LSU] / (c * ns);
	r->util[U_L1] = o->l1_busy / c;
	r->util[U_SMEM] = o->smem_busy / c;
	r->util[U_L2] = l2_share > 0 ? o->l2_bytes / (c * l2_share) : 0;
	r->util[U_DRAM] = dram_share > 0 ? o->dram_bytes / (c * dram_share) : 0;
	r->top = 0;
	for (i = 0; i < U_COUNT; i++) {
		if (r->util[i] > 1)
			r->util[i] = 1;
		if (r->util[i] > r->util[r->top])
			r->top = i;
	}
	for (i = 0; i < PM_STALLS; i++)
		total += o->stall[i];
	for (i = 0; i < PM_STALLS; i++)
		r->stall[i] = total > 0 ? o->stall[i] / total : 0;
}

/* The kernel's name without its parameter list. */
static void short_name(const char *mangled, char *out, size_t n)
{
	static const char anon[] = "(anonymous namespace)::";
	char buf[1024];
	const char *s = simt_demangle(mangled, buf, sizeof buf);
	int depth = 0;
	size_t k = 0;

	for (; *s && k + 1 < n; s++) {
		/* a static kernel's namespace: not the start of its parameters */
		while (strncmp(s, anon, sizeof anon - 1) == 0)
			s += sizeof anon - 1;
		if (!*s)
			break;
		if (*s == '<')
			depth++;
		else if (*s == '>')
			depth--;
		else if (*s == '(' && depth == 0)
			break;
		out[k++] = *s;
	}
	out[k] = 0;
}

static int by_size(const void *a, const void *b, void *v)
{
	const double *u = v;
	int x = *(const int *)a, y = *(const int *)b;

	return u[y] > u[x] ? 1 : u[y] < u[x] ? -1 : x - y;
}

/* What limits the launch, in words ("limited by FP32 pipe: 86% of peak;
 * ..."), and where the schedulers' cycles went. */
static void limit_text(const struct report *r, char *lim, size_t nl, char *stall, size_t ns)
{
	int order[U_COUNT], st[PM_STALLS], i, k;
	size_t n;

	for (i = 0; i < U_COUNT; i++)
		order[i] = i;
	qsort_r(order, U_COUNT, sizeof *order, by_size, (void *)r->util);
	if (r->util[order[0]] >= 0.6)
		n = (size_t)snprintf(lim, nl, "limited by %s: %.0f%% of peak",
				     unit_name[order[0]], r->util[order[0]] * 100);
	else
		n = (size_t)snprintf(lim, nl, "limited by latency (no unit above 60%%): %s %.0f%%",
				     unit_name[order[0]], r->util[order[0]] * 100);
	for (k = 1; k < 4 && r->util[order[k]] >= 0.01 && n < nl; k++)
		n += (size_t)snprintf(lim + n, nl - n, "; %s %.0f%%", unit_name[order[k]],
				      r->util[order[k]] * 100);
	for (i = 0; i < PM_STALLS; i++)
		st[i] = i;
	qsort_r(st, PM_STALLS, sizeof *st, by_size, (void *)r->stall);
	for (k = 0, n = 0; k < 3 && n < ns; k++)
		n += (size_t)snprintf(stall + n, ns - n, "%s%s %.0f%%", k ? "; " : "",
				      stall_name[st[k]], r->stall[st[k]] * 100);
}

static void print_report(const struct pm_launch *p, const struct report *r,
			 uint64_t ran, const struct pm_sim_out *o)
{
	const struct simt_gpu *g = p->g;
	char name[512], lim[512], stall[512];
	double secs = r->us * 1e-6;

	short_name(p->d.fn->name, name, sizeof name);
	limit_text(r, lim, sizeof lim, stall, sizeof stall);
	fprintf(stderr, "simt: predict: %s<<<(%u,%u,%u),(%u,%u,%u)>>> %.2f us on %s "
		"(model estimate; ", name, p->d.grid[0], p->d.grid[1], p->d.grid[2],
		p->d.block[0], p->d.block[1], p->d.block[2], r->us, g->id);
	if (ran < p->d.nblocks)
		fprintf(stderr, "%llu of %llu blocks run, block work varies %.0f%%%s)\n",
			(unsigned long long)ran, (unsigned long long)p->d.nblocks,
			r->spread * 100, p->guarded ? "; cut short: later blocks far heavier "
			"than the first, so the sample may differ from run to run" : "");
	else
		fprintf(stderr, "every block run)\n");
	fprintf(stderr, "simt: predict:   %s\n", lim);
	fprintf(stderr, "simt: predict:   achieved %.3g %s/s (%.1f%% of %.3g), DRAM %.3g GB/s "
		"(%.1f%% of %.0f GB/s)\n",
		secs > 0 ? r->flops / secs : 0, r->flop_kind,
		r->flop_peak > 0 && secs > 0 ? 100 * r->flops / secs / r->flop_peak : 0,
		r->flop_peak, secs > 0 ? r->dram_bytes / secs / 1e9 : 0,
		secs > 0 ? 100 * r->dram_bytes / secs / 1e9 / g->dram_gbps : 0, g->dram_gbps);
	fprintf(stderr, "simt: predict:   occupancy %d block%s of %d warps per SM (limited by %s), "
		"%d registers%s, %u bytes shared per block\n", p->occ.blocks,
		p->occ.blocks == 1 ? "" : "s", p->occ.warps_per_block, p->occ.limiter,
		p->res.regs, p->res.known ? "" : " (guessed: ptxas unavailable)",
		p->occ.smem_alloc);
	if (!p->res.known && p->res.why[0])
		fprintf(stderr, "simt: predict:   registers are a guess: %s\n", p->res.why);
	if (p->res.known && p->res.note[0])
		fprintf(stderr, "simt: predict:   registers from %s\n", p->res.note);
	if (p->res.spill_stores || p->res.spill_loads)
		fprintf(stderr, "simt: predict:   ptxas spills %u bytes per thread (stores) and reloads "
			"%u: their traffic is not in the estimate\n", p->res.spill_stores,
			p->res.spill_loads);
	fprintf(stderr, "simt: predict:   scheduler cycles: %s\n", stall);
	(void)o;
}

/* s as a JSON string's contents. */
static void json_text(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
}

/* The warp instructions the sampled blocks ran: what the budget counts. */
static uint64_t insns_run(const struct pm_launch *p)
{
	uint64_t n = 0, i;

	for (i = 0; i < p->nlist; i++)
		if (p->ran[i].done)
			n += p->ran[i].insns;
	return n;
}

static void json_report(const struct pm_launch *p, const struct report *r, uint64_t ran)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	const char *path = getenv("CUDALAB_SIMT_PREDICT_OUT");
	char name[512], lim[512], stall[512];
	FILE *f;
	int i;

	if (!path || !*path)
		return;
	short_name(p->d.fn->name, name, sizeof name);
	pthread_mutex_lock(&lock);
	f = fopen(path, "a");
	if (!f) {
		pthread_mutex_unlock(&lock);
		return;
	}
	limit_text(r, lim, sizeof lim, stall, sizeof stall);
	fputs("{\"kernel\":\"", f);
	json_text(f, name);
	fputs("\",\"limits\":\"", f);
	json_text(f, lim);
	fputs("\",\"stall_text\":\"", f);
	json_text(f, stall);
	fprintf(f, "\",\"device\":\"%s\",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],"
		"\"us\":%.4f,\"kernel_us\":%.4f,\"blocks\":%llu,\"blocks_run\":%llu,"
		"\"warp_instructions_run\":%llu,"
		"\"spread\":%.4f,\"flops\":%.6g,\"flop_kind\":\"%s\",\"flop_peak\":%.6g,"
		"\"dram_bytes\":%.6g,\"dram_peak_gbps\":%.6g,\"occupancy\":{\"blocks\":%d,"
		"\"warps_per_block\":%d,\"limiter\":\"%s\",\"registers\":%d,"
		"\"registers_from_ptxas\":%s,\"shared_per_block\":%u},\"limiter\":\"%s\","
		"\"utilisation\":{", p->g->id, p->d.grid[0], p->d.grid[1], p->d.grid[2],
		p->d.block[0], p->d.block[1], p->d.block[2], r->us, r->kernel_us,
		(unsigned long long)p->d.nblocks, (unsigned long long)ran,
		(unsigned long long)insns_run(p), r->spread,
		r->flops, r->flop_kind, r->flop_peak, r->dram_bytes, p->g->dram_gbps,
		p->occ.blocks, p->occ.warps_per_block, p->occ.limiter, p->res.regs,
		p->res.known ? "true" : "false", p->occ.smem_alloc,
		r->util[r->top] >= 0.6 ? unit_key[r->top] : "latency");
	for (i = 0; i < U_COUNT; i++)
		fprintf(f, "%s\"%s\":%.4f", i ? "," : "", unit_key[i], r->util[i]);
	fputs("},\"stalls\":{", f);
	for (i = 0; i < PM_STALLS; i++)
		fprintf(f, "%s\"%s\":%.4f", i ? "," : "", stall_key[i], r->stall[i]);
	fputs("}}\n", f);
	fclose(f);
	pthread_mutex_unlock(&lock);
}

/* ---- the end of a launch ---- */

static double spread_of(const struct pm_launch *p, double *mean_all, double *mean_traced)
{
	double s = 0, s2 = 0, t = 0;
	uint64_t n = 0, nt = 0, i;

	for (i = 0; i < p->nlist; i++) {
		const struct ran *r = &p->ran[i];

		if (!r->done || r->prefix)
			continue;
		s += (double)r->insns;
		s2 += (double)r->insns * (double)r->insns;
		n++;
		if (r->bt) {
			t += (double)r->insns;
			nt++;
		}
	}
	*mean_all = n ? s / (double)n : 0;
	*mean_traced = nt ? t / (double)nt : *mean_all;
	if (n < 2 || *mean_all <= 0)
		return 0;
	return sqrt(fmax(0, s2 / (double)n - *mean_all * *mean_all)) / *mean_all;
}

static void free_launch(struct pm_launch *p)
{
	uint64_t i;

	for (i = 0; i < p->nlist; i++) {
		pm_btrace_free(p->ran[i].bt);
		pm_misses_free(&p->ran[i].ms);
	}
	free(p->ran);
	free(p->list);
	free(p->dram_ratio);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p);
}

void simt_predict_end(struct pm_launch *p, struct pm_result *out)
{
	const struct simt_gpu *g = p->g;
	struct pm_btrace **tr = simt_xcalloc(p->ntraced ? p->ntraced : 1, sizeof *tr);
	uint64_t i, nt = 0, ran = p->nran, active;
	double mean_all, mean_traced, scale, clock = simt_gpu_clock_hz(g);
	double l2_share, dram_share, flops[3];
	struct pm_sim_in in;
	struct pm_sim_out o;
	struct report r;

	memset(out, 0, sizeof *out);
	memset(&r, 0, sizeof r);
	if (!ran) {
		free(tr);
		free_launch(p);
		return;
	}
	run_l2(p);
	for (i = 0; i < p->ntraced && i < p->nlist; i++)
		if (p->ran[i].bt)
			tr[nt++] = p->ran[i].bt;
	active = p->d.nblocks < g->sms ? p->d.nblocks : (uint64_t)g->sms;
	l2_share = simt_gpu_l2_bytes_per_clk(g) / (double)active;
	dram_share = simt_gpu_dram_bytes_per_clk(g) / (double)active;
	in = (struct pm_sim_in){
		.g = g, .code = p->code, .traces = tr, .ntraces = (uint32_t)nt,
		.queue = (p->d.nblocks + (uint64_t)g->sms - 1) / (uint64_t)g->sms,
		.resident = (uint32_t)p->occ.blocks,
		.l2_bytes_per_clk = l2_share, .dram_bytes_per_clk = dram_share,
		.active_sms = (double)active,
		.l1_bytes = p->occ.l1_kb * 1024, .dram_ratio = p->dram_ratio,
		.atomic_addr_per_clk = (g->atomic_same_addr_per_clk > 0
					? g->atomic_same_addr_per_clk : 1) / (double)active,
		.max_issue = SIM_ISSUE_CAP,
	};
	if (nt)
		simt_sim_run(&in, &o);
	else
		memset(&o, 0, sizeof o);
	r.spread = spread_of(p, &mean_all, &mean_traced);
	/* the SM ran the first blocks' traces: blocks elsewhere in the grid
	 * may do more or less work */
	scale = mean_traced > 0 ? mean_all / mean_traced : 1;
	utilisations(p, &o, l2_share, dram_share, &r);
	r.kernel_us = o.cycles * scale / clock * 1e6;
	r.us = r.kernel_us + (g->launch_us > 0 ? g->launch_us : 0);
	grid_totals(p, &r.dram_bytes, flops);
	if (o.pipe_busy[PM_PIPE_TENSOR] > 0) {
		r.flops = flops[2] + flops[0];
		r.flop_kind = "FLOP (tensor)";
		r.flop_peak = g->tc_fp16_f32acc * 1e12;
	} else if (flops[2] > flops[0] + flops[1]) {
		/* a half2 FMA: four FLOPs a lane */
		r.flops = flops[2];
		r.flop_kind = "FLOP (FP16)";
		r.flop_peak = g->tp_fp16 * 4 * g->sms * clock;
	} else if (flops[1] > flops[0]) {
		r.flops = flops[1];
		r.flop_kind = "FLOP (FP64)";
		r.flop_peak = g->tp_fp64 * 2 * g->sms * clock;
	} else {
		r.flops = flops[0];
		r.flop_kind = "FLOP";
		r.flop_peak = g->tp_fp32 * 2 * g->sms * clock;
	}
	if (!getenv("CUDALAB_SIMT_PREDICT_QUIET"))
		print_report(p, &r, ran, &o);
	json_report(p, &r, ran);
	out->us = r.us;
	out->kernel_us = r.kernel_us;
	out->sampled = ran < p->d.nblocks;
	out->share = p->d.nblocks < p->wave ? (double)p->d.nblocks / (double)p->wave : 1;
	out->blocks_run = ran;
	free(tr);
	free_launch(p);
}
