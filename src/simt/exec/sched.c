/* Running a launch's blocks: the pool of host threads that run blocks in
 * parallel, the per-block warp scheduler, the schedules, and the
 * reporting of faults.  The runtime prepares the launch and its checks
 * (runtime/launch.c) and hands it over to simt_run_grid.
 *
 * Each block runs on one host thread from start to end; its warps are
 * cooperative contexts that switch when they can no longer proceed (all
 * lanes at a barrier, exited, or waiting at a warp-synchronous
 * instruction) or have polled an mbarrier phase that is not complete.
 * Blocks of a launch are handed out in order through an atomic counter.
 * Cooperative launches, whose blocks must all be resident at once, are
 * scheduled differently (coop.c) from the same steps.  Device printf
 * output is kept per block and handed to the launch when the block ends
 * (simt_block_output). */
#include "exec/exec.h"
#include "perf/predict.h"
#include "exec/mbarrier.h"
#include "exec/hooks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where %reserved_smem_offset_1 points in the reserved shared region, which
 * starts at %reserved_smem_offset_begin (= _0) and is
 * cudaDeviceProp::reservedSharedMemPerBlock long.  The layout is simt's
 * own; cooperative_groups needs at least 288 bytes from _1 on. */
#define RESERVED_SMEM_1 128

/* ---- the worker pool ---- */

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	struct launch_state *L;
	uint64_t generation;
	int nworkers;          /* worker threads besides the caller */
	int busy;
	/* one per worker, index 0 = caller, each in cache lines of its own:
	 * the interpreter writes some fields at every instruction, which a
	 * neighbour sharing the line would pay for */
	struct block_ctx **ctx;
	bool started;
};

static struct pool pool = {
	.mu = PTHREAD_MUTEX_INITIALIZER,
	.go = PTHREAD_COND_INITIALIZER,
	.done = PTHREAD_COND_INITIALIZER,
};

int simt_worker_count(void)
{
	long n = simt_env_long("CUDALAB_SIMT_THREADS", 0);

	if (n <= 0)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n <= 0)
		n = 1;
	if (n > SIMT_MAX_THREADS)
		n = SIMT_MAX_THREADS;
	return (int)n;
}

/* ---- fault reporting ---- */

void simt_thread_coords(const struct block_ctx *bc, const struct warp *w,
			int lane, uint32_t tid[3])
{
	const struct launch_state *L = bc->L;
	uint32_t t = w->id * 32 + (uint32_t)lane;

	tid[0] = t % L->block.x;
	tid[1] = (t / L->block.x) % L->block.y;
	tid[2] = t / (L->block.x * L->block.y);
}

static const struct simt_func *func_at(const struct simt_module *mod,
				       uint32_t pc)
{
	int i;

	for (i = 0; i < mod->nfuncs; i++)
		if (mod->funcs[i].defined && pc >= mod->funcs[i].pc_begin &&
		    pc < mod->funcs[i].pc_end)
			return &mod->funcs[i];
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* "in f(int) at file.cu:12 (PTX line 40)" for instruction `pc`. */
void simt_describe_insn(struct simt_buf *b, const struct simt_module *mod,
			const struct simt_insn *in, uint32_t pc)
{
	const struct simt_func *f = func_at(mod, pc);
	char name[512];

	simt_buf_printf(b, "in %s", f ? simt_demangle(f->name, name, sizeof name)
				       : "?");
	if (in->src_file != UINT16_MAX && (int)in->src_file < mod->nfiles &&
	    in->src_line)
		simt_buf_printf(b, " at %s:%u",
				base_name(mod->files[in->src_file].path),
				in->src_line);
	simt_buf_printf(b, " (PTX line %u)", in->ptx_line);
}

void simt_fault(struct block_ctx *bc, const struct warp *w, int lane,
		const struct simt_insn *in, cudaError_t err, const char *fmt,
		...)
{
	struct launch_state *L = bc->L;
	struct simt_buf b = {0};
	va_list ap;

	bc->stop = true;
	pthread_mutex_lock(&L->lock);
	if (L->fault.err != cudaSuccess) {
		pthread_mutex_unlock(&L->lock);
		atomic_store(&L->abort, 1);
		return;
	}
	if (err != cudaErrorAssert)
		simt_buf_add(&b, "simt: ", 6);
	va_start(ap, fmt);
	simt_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (err != cudaErrorAssert && in && w) {
		uint32_t tid[3];

		simt_thread_coords(bc, w, lane, tid);
		simt_buf_add(&b, "\n  ", 3);
		simt_describe_insn(&b, L->mod, in, (uint32_t)(in - L->mod->code));
		simt_buf_printf(&b, ", block (%u,%u,%u) thread (%u,%u,%u)",
				bc->ctaid[0], bc->ctaid[1], bc->ctaid[2], tid[0],
				tid[1], tid[2]);
	}
	if (b.len && b.s[b.len - 1] != '\n')
		simt_buf_add(&b, "\n", 1);
	L->fault.err = err;
	L->fault.msg = b.s;
	pthread_mutex_unlock(&L->lock);
	atomic_store(&L->abort, 1);
}

/* ---- block contexts ---- */

static void warp_launch_sregs(struct block_ctx *bc, struct warp *w);

void simt_ctx_prepare(struct block_ctx *bc, struct launch_state *L)
{
	uint32_t i, rows = L->entry_rows;
	size_t local = (size_t)L->nwarps * 32 * L->local_per_thread;

	bc->L = L;
	bc->stop = false;
	bc->slice_cut = SIMT_SLICE - L->slice;
	memset(&bc->counts, 0, sizeof bc->counts);
	memset(&bc->cache, 0, sizeof bc->cache);
	bc->budget_tick = 0;
	if (L->nwarps > bc->capwarps) {
		bc->warps = simt_xrealloc(bc->warps, L->nwarps * sizeof *bc->warps);
		memset(bc->warps + bc->capwarps, 0,
		       (L->nwarps - bc->capwarps) * sizeof *bc->warps);
		bc->capwarps = L->nwarps;
	}
	bc->nwarps = L->nwarps;
	for (i = 0; i < L->nwarps; i++) {
		struct warp *w = &bc->warps[i];

		if (w->rows_cap < rows) {
			free(w->regs);
			w->regs = simt_xcalloc((size_t)rows * 32, sizeof(uint64_t));
			w->rows_cap = rows;
		}
		if (!w->frames) {
			w->capframes = 8;
			w->frames = simt_xmalloc(w->capframes * sizeof *w->frames);
		}
		if (!w->sregs)
			w->sregs = simt_xcalloc((size_t)SR_COUNT * 32, sizeof(uint64_t));
		w->id = i;
		warp_launch_sregs(bc, w);
	}
	simt_uck_prepare(bc);
	if (bc->shared_cap < L->shared_size + 16) {
		free(bc->shared);
		bc->shared_cap = L->shared_size + 16;
		bc->shared = aligned_alloc(64, (bc->shared_cap + 63) / 64 * 64);
		if (!bc->shared)
			abort();
	}
	if (bc->local_cap < local) {
		free(bc->local);
		bc->local_cap = local;
		bc->local = simt_xcalloc(1, local);
	}
	simt_hz_ctx_prepare(bc);
}

static void set_row(uint64_t *row, uint64_t v)
{
	int l;

	for (l = 0; l < 32; l++)
		row[l] = v;
}

/* The special registers of a warp that hold for a whole launch (all but
 * those of warp_block_sregs), set once per launch in each context. */
static void warp_launch_sregs(struct block_ctx *bc, struct warp *w)
{
	struct launch_state *L = bc->L;
	uint64_t *s = w->sregs;
	uint32_t l;

	w->exist = 0;
	for (l = 0; l < 32; l++) {
		uint32_t t = w->id * 32 + l;

		if (t < L->nthreads)
			w->exist |= 1u << l;
		s[SR_TID_X * 32 + l] = t % L->block.x;
		s[SR_TID_Y * 32 + l] = (t / L->block.x) % L->block.y;
		s[SR_TID_Z * 32 + l] = t / (L->block.x * L->block.y);
		s[SR_LANEID * 32 + l] = l;
		s[SR_LANEMASK_EQ * 32 + l] = 1u << l;
		s[SR_LANEMASK_LT * 32 + l] = (1u << l) - 1;
		s[SR_LANEMASK_LE * 32 + l] = (uint32_t)((2ull << l) - 1);
		s[SR_LANEMASK_GT * 32 + l] = (uint32_t)~((2ull << l) - 1);
		s[SR_LANEMASK_GE * 32 + l] = (uint32_t)~((1u << l) - 1);
	}
	set_row(s + SR_NTID_X * 32, L->block.x);
	set_row(s + SR_NTID_Y * 32, L->block.y);
	set_row(s + SR_NTID_Z * 32, L->block.z);
	set_row(s + SR_NCTAID_X * 32, L->grid.x);
	set_row(s + SR_NCTAID_Y * 32, L->grid.y);
	set_row(s + SR_NCTAID_Z * 32, L->grid.z);
	set_row(s + SR_WARPID * 32, w->id);
	set_row(s + SR_NWARPID * 32, 64);
	set_row(s + SR_NSMID * 32, (uint64_t)simt_device()->prop.multiProcessorCount);
	set_row(s + SR_GRIDID * 32, L->gridid);
	set_row(s + SR_DYN_SMEM * 32, L->shared_dyn);
	set_row(s + SR_TOTAL_SMEM * 32, L->shared_static + L->shared_dyn);
	set_row(s + SR_ZERO * 32, 0);
	set_row(s + SR_ONE * 32, 1);
	if (L->reserved) {
		uint32_t b = L->reserved_begin;

		set_row(s + SR_RSMEM_BEGIN * 32, b);
		set_row(s + SR_RSMEM_END * 32, L->shared_size);
		set_row(s + SR_RSMEM_CAP * 32, L->shared_size - b);
		set_row(s + SR_RSMEM_0 * 32, b);
		set_row(s + SR_RSMEM_1 * 32, b + RESERVED_SMEM_1);
	}
	/* Contexts of ordinary launches never write these rows, so they keep
	 * the zeros they were allocated with. */
	if (L->coop) {
		set_row(s + SR_ENVREG0 * 32, 0);
		set_row(s + SR_ENVREG1 * 32, L->grid_ws >> 32);
		set_row(s + SR_ENVREG2 * 32, L->grid_ws & 0xffffffffu);
	}
}

/* The special registers that change from block to block. */
static void warp_block_sregs(struct block_ctx *bc, struct warp *w)
{
	uint64_t *s = w->sregs;

	set_row(s + SR_CTAID_X * 32, bc->ctaid[0]);
	set_row(s + SR_CTAID_Y * 32, bc->ctaid[1]);
	set_row(s + SR_CTAID_Z * 32, bc->ctaid[2]);
	set_row(s + SR_SMID * 32,
		bc->block % (uint64_t)simt_device()->prop.multiProcessorCount);
}

static void describe_waiters(struct block_ctx *bc, struct simt_buf *b)
{
	const struct simt_module *mod = bc->L->mod;
	uint32_t pcs[4], counts[4], i, n = 0;
	uint32_t wi;

	for (wi = 0; wi < bc->nwarps; wi++) {
		struct warp *w = &bc->warps[wi];
		uint32_t lanes = (w->bar_wait | w->sync_wait) & ~w->exited;

		while (lanes) {
			unsigned l = (unsigned)__builtin_ctz(lanes);

			lanes &= lanes - 1;
			for (i = 0; i < n && pcs[i] != w->lane_pc[l]; i++)
				;
			if (i == n && n < 4) {
				pcs[n] = w->lane_pc[l];
				counts[n++] = 0;
			}
			if (i < n)
				counts[i]++;
		}
	}
	for (i = 0; i < n; i++) {
		simt_buf_printf(b, "\n  %u thread%s wait at %s ", counts[i],
				counts[i] == 1 ? "" : "s",
				mod->code[pcs[i]].op == OP_BAR ||
				mod->code[pcs[i]].op == OP_BAR_RED
					? "a barrier" : "a warp-synchronous instruction");
		simt_describe_insn(b, mod, &mod->code[pcs[i]], pcs[i]);
	}
	simt_buf_printf(b, "\n  %u of %u threads of the block have exited",
			bc->exited_threads, bc->L->nthreads);
}

/* `polling`: the threads left spin on mbarrier phases that cannot
 * complete, rather than all being blocked. */
static void report_deadlock(struct block_ctx *bc, bool polling)
{
	struct launch_state *L = bc->L;
	struct simt_buf b = {0};
	char name[512];

	simt_buf_printf(&b, "deadlock in %s, block (%u,%u,%u): no thread can "
			"go on (%s)",
			simt_demangle(L->fn->name, name, sizeof name),
			bc->ctaid[0], bc->ctaid[1], bc->ctaid[2],
			polling ? "an mbarrier phase that fewer threads arrive "
				  "at than it expects?"
				: "a __syncthreads() or __shfl_sync() that not "
				  "every thread reaches?");
	if (polling)
		simt_mbar_describe(bc, &b);
	describe_waiters(bc, &b);
	simt_fault(bc, NULL, 0, NULL, cudaErrorLaunchTimeout, "%s", b.s);
	simt_buf_free(&b);
}

static bool warp_finished(const struct warp *w)
{
	return (w->exist & ~w->exited) == 0;
}

void simt_block_begin(struct block_ctx *bc, uint64_t block)
{
	struct launch_state *L = bc->L;
	uint32_t i;

	bc->block = block;
	bc->ctaid[0] = (uint32_t)(block % L->grid.x);
	bc->ctaid[1] = (uint32_t)((block / L->grid.x) % L->grid.y);
	bc->ctaid[2] = (uint32_t)(block / ((uint64_t)L->grid.x * L->grid.y));
	bc->exited_threads = 0;
	memset(bc->bars, 0, sizeof bc->bars);
	memset(bc->shared, 0, L->shared_size);
	if (L->fn->local_size) {
		size_t t;

		for (t = 0; t < (size_t)L->nwarps * 32; t++)
			memset(bc->local + t * L->local_per_thread, 0,
			       L->fn->local_size);
	}
	for (i = 0; i < L->nwarps; i++) {
		warp_block_sregs(bc, &bc->warps[i]);
		simt_warp_start(bc, &bc->warps[i]);
		bc->warps[i].synced = 0;
		bc->warps[i].sync_extra = 0;
	}
	simt_hz_block_begin(bc);
	bc->mbar_idle = 0;
	bc->passes = 0;
}

/* The warp that takes the i-th turn of a pass: in order, or, under a
 * schedule seed, in an order that changes from pass to pass. */
static uint32_t warp_turn(const struct block_ctx *bc, uint32_t i)
{
	const struct launch_state *L = bc->L;
	uint32_t n = L->nwarps, r;

	if (!L->sched || n == 1)
		return i;
	r = (uint32_t)((bc->passes + L->sched) % n);
	if (L->sched & 1)
		i = n - 1 - i;
	return (i + r) % n;
}

int simt_block_pass(struct block_ctx *bc)
{
	struct launch_state *L = bc->L;
	uint64_t before = bc->counts.warp_insts;
	bool done = true;
	bool idle = true; /* no warp did more than fail mbarrier waits */
	uint32_t i;

	for (i = 0; i < L->nwarps && !bc->stop; i++) {
		struct warp *w = &bc->warps[warp_turn(bc, i)];
		uint64_t ran = bc->counts.warp_insts;

		if (warp_finished(w))
			continue;
		w->spun = false;
		simt_run_warp(bc, w);
		if (!warp_finished(w))
			done = false;
		if (!w->spun && bc->counts.warp_insts != ran)
			idle = false;
	}
	bc->passes++;
	if (bc->stop)
		return PASS_STOP;
	if (done)
		return PASS_DONE;
	if (bc->counts.warp_insts == before || simt_mbar_stalled(bc, idle)) {
		report_deadlock(bc, bc->counts.warp_insts != before);
		return PASS_STOP;
	}
	return PASS_RAN;
}

static void run_block(struct block_ctx *bc, uint64_t block)
{
	simt_block_begin(bc, block);
	while (simt_block_pass(bc) == PASS_RAN)
		;
}

void simt_block_output(struct block_ctx *bc)
{
	struct launch_state *L = bc->L;
	struct block_out *o;

	if (!bc->out.len)
		return;
	pthread_mutex_lock(&L->lock);
	if (L->nouts == L->capouts) {
		L->capouts = L->capouts ? L->capouts * 2 : 16;
		L->outs = simt_xrealloc(L->outs, L->capouts * sizeof *L->outs);
	}
	o = &L->outs[L->nouts++];
	o->block = bc->block;
	o->s = bc->out.s;
	o->len = bc->out.len;
	L->out_bytes += bc->out.len;
	pthread_mutex_unlock(&L->lock);
	memset(&bc->out, 0, sizeof bc->out);
}

static void add_counts(struct simt_counts *t, const struct simt_counts *c)
{
	const uint64_t *s = (const uint64_t *)(const void *)c;
	uint64_t *d = (uint64_t *)(void *)t;
	size_t i;

	for (i = 0; i < sizeof *c / sizeof(uint64_t); i++)
		d[i] += s[i];
}

void simt_ctx_add_counts(struct block_ctx *bc)
{
	struct launch_state *L = bc->L;

	pthread_mutex_lock(&L->lock);
	add_counts(&L->total, &bc->counts);
	pthread_mutex_unlock(&L->lock);
}

/* The b-th block the time model lists, if it is to run: traced, and
 * cut short when the model has seen enough of it.  False when the list
 * is done. */
static bool predicted_block(struct block_ctx *bc, struct launch_state *L, uint64_t b)
{
	uint64_t block, f0[3], f[3];

	if (!simt_predict_next(L->pm, b, &block))
		return false;
	f0[0] = bc->counts.flops_f32;
	f0[1] = bc->counts.flops_f64;
	f0[2] = bc->counts.flops_f16;
	bc->tr = &bc->trace;
	simt_predict_block_begin(L->pm, bc->tr, b, block);
	run_block(bc, block);
	f[0] = bc->counts.flops_f32 - f0[0];
	f[1] = bc->counts.flops_f64 - f0[1];
	f[2] = bc->counts.flops_f16 - f0[2];
	simt_predict_block_end(L->pm, bc->tr, b, f);
	bc->tr = NULL;
	/* a block cut short stops only itself */
	if (!atomic_load_explicit(&L->abort, memory_order_relaxed))
		bc->stop = false;
	return true;
}

static void run_blocks(struct block_ctx *bc, struct launch_state *L)
{
	simt_ctx_prepare(bc, L);
	for (;;) {
		uint64_t b;

		if (atomic_load_explicit(&L->abort, memory_order_relaxed))
			break;
		b = atomic_fetch_add(&L->next_block, 1);
		if (L->pm) {
			if (!predicted_block(bc, L, b))
				break;
		} else {
			if (b >= L->nblocks)
				break;
			run_block(bc, simt_block_order(L, b));
		}
		simt_hz_block_end(bc);
		simt_block_output(bc);
	}
	simt_ctx_add_counts(bc);
}

/* Runs share `part` of `nparts` of the launch on the calling thread. */
static void run_share(struct launch_state *L, int part)
{
	if (L->coop)
		simt_coop_run(L, part, L->nparts);
	else
		run_blocks(pool.ctx[part], L);
}

static void *worker_main(void *arg)
{
	int idx = (int)(intptr_t)arg;
	uint64_t seen = 0;

	for (;;) {
		struct launch_state *L;

		pthread_mutex_lock(&pool.mu);
		while (pool.generation == seen)
			pthread_cond_wait(&pool.go, &pool.mu);
		seen = pool.generation;
		L = pool.L;
		pthread_mutex_unlock(&pool.mu);
		run_share(L, idx);
		pthread_mutex_lock(&pool.mu);
		if (--pool.busy == 0)
			pthread_cond_signal(&pool.done);
		pthread_mutex_unlock(&pool.mu);
	}
	return NULL;
}

static void pool_start(void)
{
	int n = simt_worker_count(), i;

	size_t line = 64, size = (sizeof **pool.ctx + line - 1) / line * line;

	pool.ctx = simt_xcalloc((size_t)n, sizeof *pool.ctx);
	for (i = 0; i < n; i++) {
		pool.ctx[i] = aligned_alloc(line, size);
		if (!pool.ctx[i])
			abort();
		memset(pool.ctx[i], 0, size);
	}
	pool.nworkers = 0;
	for (i = 1; i < n; i++) {
		pthread_t t;
		pthread_attr_t attr;

		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &attr, worker_main, (void *)(intptr_t)i) == 0)
			pool.nworkers++;
		pthread_attr_destroy(&attr);
		if (pool.nworkers != i)
			break;
	}
	pool.started = true;
}

/* Runs every block of L to completion, sharing them out among the pool's
 * host threads. */
void simt_run_grid(struct launch_state *L)
{
	if (!pool.started)
		pool_start();
	if (pool.nworkers == 0 || L->nblocks == 1) {
		L->nparts = 1;
		run_share(L, 0);
		return;
	}
	L->nparts = pool.nworkers + 1;
	pthread_mutex_lock(&pool.mu);
	pool.L = L;
	pool.busy = pool.nworkers;
	pool.generation++;
	pthread_cond_broadcast(&pool.go);
	pthread_mutex_unlock(&pool.mu);
	run_share(L, 0);
	pthread_mutex_lock(&pool.mu);
	while (pool.busy > 0)
		pthread_cond_wait(&pool.done, &pool.mu);
	pthread_mutex_unlock(&pool.mu);
}

/* ---- schedules ---- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Under schedule seed s > 0 blocks are handed out as i -> (i*m + c) mod n,
 * with m prime to n, and warps get time slices of 64 to 1087
 * instructions; seed 0 is the natural order and the full slice. */
void simt_schedule_setup(struct launch_state *L)
{
	uint64_t n = L->nblocks, h;

	L->slice = SIMT_SLICE;
	L->perm_m = 1;
	L->perm_c = 0;
	if (!L->sched)
		return;
	h = mix64(L->sched);
	L->slice = 64 + (uint32_t)(h % 1024);
	if (n < 2)
		return;
	L->perm_c = mix64(h) % n;
	if (n == 2) {
		/* the only other order: 1, 0 */
		L->perm_c = 1;
		return;
	}
	/* a multiplier in [2, n) prime to n; n - 1 always is */
	L->perm_m = 2 + (h | 1) % (n - 2);
	while (gcd64(L->perm_m, n) != 1)
		L->perm_m = L->perm_m + 1 < n ? L->perm_m + 1 : 2;
}

uint64_t simt_block_order(const struct launch_state *L, uint64_t i)
{
	if (L->perm_m == 1 && L->perm_c == 0)
		return i;
	return (uint64_t)(((unsigned __int128)i * L->perm_m + L->perm_c) %
			  L->nblocks);
}

