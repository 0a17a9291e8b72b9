/* Cooperative launches: cudaLaunchCooperativeKernel, and cudaLaunchKernelEx
 * with cudaLaunchAttributeCooperative.
 *
 * A GPU keeps every block of such a launch resident at once, so blocks may
 * wait for one another.  cooperative_groups' grid.sync() relies on it: the
 * first thread of each block adds to a counter in a grid workspace whose
 * address the driver leaves in %envreg1 (high half) and %envreg2 (low
 * half), then spins until the last block's arrival flips the counter's top
 * bit.  An ordinary launch leaves those registers zero, which
 * grid_group::is_valid() reports as false.
 *
 * simt runs the blocks of a cooperative launch side by side instead of one
 * after the other: each block has a context of its own for the whole
 * launch, each host thread owns every nparts-th block, and a host thread
 * gives its live blocks one pass each in turn (every unfinished warp runs
 * until it finishes, blocks, or uses up its time slice).  A block spinning
 * on another block's store therefore never starves it, however few host
 * threads there are.
 *
 * A block whose warps can all no longer move is deadlocked as in an
 * ordinary launch.  A grid.sync() that can never complete (a block
 * returned without reaching it) is recognised too: when every block still
 * running only spins in a loop that reads the workspace counter, and the
 * counter keeps its value through two whole rounds of every host thread,
 * nothing can change it any more.  Other endless waits are stopped by the
 * instruction budget. */
#include "exec/exec.h"
#include "exec/hooks.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A warp's time slice in a cooperative launch.  Shorter than an ordinary
 * launch's, since a block waiting at grid.sync() spins for a whole slice
 * before the host thread moves on to blocks that can end the wait. */
#define COOP_SLICE 1024

/* The contexts of one share of the blocks, kept from one cooperative
 * launch to the next (allocating and zeroing them is costly); each share
 * is used by one host thread at a time.  The host thread also publishes,
 * for the others, whether its share can still change the grid.sync()
 * counter: `idle` when all its blocks have finished, otherwise `stuck`
 * consecutive rounds in which all its live blocks waited on the counter,
 * which held `value`. */
struct share {
	struct block_ctx *ctx;
	uint64_t *live;
	uint64_t cap;
	atomic_bool idle;
	atomic_uint stuck;
	atomic_uint value;
};

/* Instructions a wait loop on the grid.sync() counter may span. */
#define WAIT_LOOP_MAX 8

static struct share shares[SIMT_MAX_THREADS];

void simt_coop_begin(struct launch_state *L)
{
	int i;

	for (i = 0; i < SIMT_MAX_THREADS; i++) {
		atomic_store(&shares[i].idle, false);
		atomic_store(&shares[i].stuck, 0);
	}
	atomic_store(&L->coop_done, 0);
}

/* Adds to a budget overrun what the blocks were doing: in a cooperative
 * launch the usual cause is a grid.sync() some block never reaches. */
static void explain_overrun(struct launch_state *L)
{
	unsigned long long done = atomic_load(&L->coop_done);
	struct simt_buf b = {0};
	char *msg = L->fault.msg;

	if (L->fault.err != cudaErrorLaunchTimeout || !msg ||
	    atomic_load(&L->used) <= L->budget)
		return;
	simt_buf_add(&b, msg, strlen(msg));
	simt_buf_printf(&b, "  %llu of the %llu blocks of this cooperative "
			"launch had finished (a grid.sync() that not every "
			"block reaches never completes)\n", done,
			(unsigned long long)L->nblocks);
	free(msg);
	L->fault.msg = b.s;
}

void simt_coop_end(struct launch_state *L)
{
	explain_overrun(L);
}

static bool loop_op(int op)
{
	switch (op) {
	case OP_LD: case OP_MOV: case OP_NOP: case OP_MEMBAR:
	case OP_NANOSLEEP: case OP_AND_32: case OP_XOR_32: case OP_SETP_S32:
	case OP_SETP_U32: case OP_BRA:
		return true;
	default:
		return false;
	}
}

/* Whether lane l of w, parked between time slices, sits in a short loop
 * that only reads the grid.sync() counter and compares what it read, as
 * cooperative_groups waits for the last block to arrive. */
static bool waits_on_counter(const struct launch_state *L,
			     const struct warp *w, unsigned l)
{
	const struct simt_module *mod = L->mod;
	const uint64_t *regs = w->regs +
		(size_t)w->frames[w->lane_fi[l]].row_base * 32;
	uint32_t pc = w->lane_pc[l], end, head, i;
	bool reads = false;

	for (end = pc; end < mod->ncode && end - pc < WAIT_LOOP_MAX; end++)
		if (mod->code[end].op == OP_BRA)
			break;
	if (end >= mod->ncode || mod->code[end].op != OP_BRA)
		return false;
	head = mod->code[end].target;
	if (head > pc || end - head >= WAIT_LOOP_MAX)
		return false;
	for (i = head; i <= end; i++) {
		const struct simt_insn *in = &mod->code[i];

		if (!loop_op(in->op) || (in->op == OP_BRA && i != end))
			return false;
		if (in->op != OP_LD)
			continue;
		if (in->am != AM_REG || in->addr.kind != OK_REG ||
		    regs[(size_t)in->addr.idx * 32 + l] + (uint64_t)in->imm !=
		    L->grid_ws + offsetof(struct grid_workspace, barrier))
			return false;
		reads = true;
	}
	return reads;
}

/* Whether no warp of the block can do anything but wait for the
 * grid.sync() counter to change; *w_out and *l_out name a waiting lane. */
static bool block_waits(const struct block_ctx *bc, const struct warp **w_out,
			unsigned *l_out)
{
	bool any = false;
	uint32_t i;

	for (i = 0; i < bc->nwarps; i++) {
		const struct warp *w = &bc->warps[i];
		uint32_t run = w->exist & ~w->exited & ~w->bar_wait & ~w->sync_wait;

		if (!run)
			continue;
		if (w->mask)
			return false;
		while (run) {
			unsigned l = (unsigned)__builtin_ctz(run);

			run &= run - 1;
			if (!waits_on_counter(bc->L, w, l))
				return false;
			*w_out = w;
			*l_out = l;
			any = true;
		}
	}
	return any;
}

/* Whether every share either has finished or has waited on the counter,
 * at `value`, for at least two rounds. */
static bool all_stuck(int nparts, uint32_t value)
{
	int p;

	for (p = 0; p < nparts; p++) {
		struct share *sh = &shares[p];

		if (atomic_load(&sh->idle))
			continue;
		if (atomic_load(&sh->stuck) < 2 || atomic_load(&sh->value) != value)
			return false;
	}
	return true;
}

static void report_grid_deadlock(struct launch_state *L, struct block_ctx *bc,
				 const struct warp *w, unsigned l)
{
	unsigned long long done = atomic_load(&L->coop_done);
	const struct simt_insn *in = &L->mod->code[w->lane_pc[l]];
	char name[512];

	simt_fault(bc, w, (int)l, in, cudaErrorLaunchTimeout,
		   "deadlock in %s: a grid.sync() can never complete (%llu of "
		   "the %llu blocks of the cooperative launch wait in it, %llu "
		   "finished without reaching it)",
		   simt_demangle(L->fn->name, name, sizeof name),
		   (unsigned long long)L->nblocks - done,
		   (unsigned long long)L->nblocks, done);
}

/* After a round of share `part`: records whether all its live blocks
 * wait on the grid.sync() counter, and reports the deadlock when every
 * share has been waiting on the same value.  Returns true if it did. */
static bool check_grid_wait(struct launch_state *L, int part, int nparts,
			    struct block_ctx *ctx, const uint64_t *live,
			    uint64_t n)
{
	struct share *sh = &shares[part];
	const volatile struct grid_workspace *ws =
		(const volatile void *)(uintptr_t)L->grid_ws;
	const struct warp *w = NULL;
	unsigned l = 0;
	uint32_t value;
	uint64_t i;

	for (i = 0; i < n; i++)
		if (!block_waits(&ctx[live[i]], &w, &l)) {
			atomic_store(&sh->stuck, 0);
			return false;
		}
	value = __atomic_load_n(&ws->barrier, __ATOMIC_SEQ_CST);
	if (atomic_load(&sh->stuck) && atomic_load(&sh->value) == value) {
		atomic_fetch_add(&sh->stuck, 1);
	} else {
		atomic_store(&sh->value, value);
		atomic_store(&sh->stuck, 1);
	}
	if (!w || !all_stuck(nparts, value))
		return false;
	/* every block waits, so the last one checked named the lane */
	report_grid_deadlock(L, &ctx[live[n - 1]], w, l);
	return true;
}

/* Gives each live block one pass in turn until all have finished or the
 * launch stops.  live[0..n) index ctx. */
static void round_robin(struct launch_state *L, int part, int nparts,
			struct block_ctx *ctx, uint64_t *live, uint64_t n)
{
	while (n > 0) {
		uint64_t i = 0;

		while (i < n) {
			struct block_ctx *bc = &ctx[live[i]];
			int r;

			if (atomic_load_explicit(&L->abort, memory_order_relaxed))
				return;
			r = simt_block_pass(bc);
			if (r == PASS_STOP)
				return;
			if (r == PASS_RAN) {
				i++;
				continue;
			}
			atomic_fetch_add(&L->coop_done, 1);
			live[i] = live[--n];
		}
		if (n > 0 && check_grid_wait(L, part, nparts, ctx, live, n))
			return;
	}
}

/* Makes room for n contexts in share `part`. */
static struct share *share_of(int part, uint64_t n)
{
	struct share *sh = &shares[part];

	if (n > sh->cap) {
		sh->ctx = simt_xrealloc(sh->ctx, n * sizeof *sh->ctx);
		memset(sh->ctx + sh->cap, 0, (n - sh->cap) * sizeof *sh->ctx);
		sh->live = simt_xrealloc(sh->live, n * sizeof *sh->live);
		sh->cap = n;
	}
	return sh;
}

void simt_coop_run(struct launch_state *L, int part, int nparts)
{
	uint64_t n = 0, k, b;
	struct share *sh;

	if ((uint64_t)part < L->nblocks)
		n = (L->nblocks - (uint64_t)part + (uint64_t)nparts - 1) /
		    (uint64_t)nparts;
	if (n == 0) {
		atomic_store(&shares[part].idle, true);
		return;
	}
	sh = share_of(part, n);
	for (k = 0, b = (uint64_t)part; k < n; k++, b += (uint64_t)nparts) {
		simt_ctx_prepare(&sh->ctx[k], L);
		if (L->slice > COOP_SLICE)
			sh->ctx[k].slice_cut = SIMT_SLICE - COOP_SLICE;
		simt_block_begin(&sh->ctx[k], simt_block_order(L, b));
		sh->live[k] = k;
	}
	round_robin(L, part, nparts, sh->ctx, sh->live, n);
	atomic_store(&sh->idle, true);
	for (k = 0; k < n; k++) {
		simt_hz_block_end(&sh->ctx[k]);
		simt_block_output(&sh->ctx[k]);
		simt_ctx_add_counts(&sh->ctx[k]);
	}
}
