/* Launching a kernel: the launch checks a GPU makes, the launch's state
 * (parameter buffer, device heap, schedule, hazard checks), the run of its
 * blocks (exec/sched.c), and afterwards its device printf output, its
 * counters and its fault.
 *
 * Device printf output is kept per block and written to stdout when the
 * kernel ends, in block order (within a block, in the order the threads
 * printed), like a GPU that flushes its printf buffer at the next
 * synchronisation; it therefore comes before anything the host prints
 * after the launch, and is the same on every run. */
#include "runtime/runtime.h"
#include "perf/predict.h"
#include "check/hazard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t launch_count;

static uint8_t *heap;
static uint64_t heap_size;

/* The memory of simt's own that kernels address (the parameter buffer,
 * the device heap, a cooperative launch's grid workspace) lies in the
 * arena, beside device memory and away from the program's own host
 * memory: a kernel reaching past it is then told from one reaching into
 * host memory (mem/table.c).  From the C heap when there is no arena.
 * Launches run one at a time (under simt_lock), so one parameter buffer
 * and one workspace serve them all. */
static uint8_t *params, *grid_ws;
static size_t params_cap;

/* n zeroed bytes of simt's own; own_give gives them back. */
static uint8_t *own_take(size_t n)
{
	uint8_t *p = simt_arena_take(simt_page_round(n), false);

	return p ? p : simt_xcalloc(1, n);
}

static void own_give(uint8_t *p, size_t n)
{
	if (simt_arena_has(p))
		simt_arena_unmap(p, simt_page_round(n));
	else
		free(p);
}

/* Checks a launch's configuration against the device and the kernel;
 * on failure *why says what is wrong, in the learner's terms. */
static cudaError_t check_config(const struct simt_launch_req *req,
				const struct simt_func *fn, uint32_t *dyn,
				char *why, size_t n)
{
	const struct cudaDeviceProp *p = &simt_device()->prop;
	dim3 g = req->grid, b = req->block;
	uint64_t threads = (uint64_t)b.x * b.y * b.z;
	size_t limit;

	if (!g.x || !g.y || !g.z) {
		snprintf(why, n, "a grid of (%u,%u,%u) blocks has no block to run; a grid "
			 "size computed from an empty input, or rounded down, is 0",
			 g.x, g.y, g.z);
		return cudaErrorInvalidConfiguration;
	}
	if (!b.x || !b.y || !b.z) {
		snprintf(why, n, "a block of (%u,%u,%u) threads has no thread", b.x, b.y, b.z);
		return cudaErrorInvalidConfiguration;
	}
	if (b.x > (unsigned)p->maxThreadsDim[0] || b.y > (unsigned)p->maxThreadsDim[1] ||
	    b.z > (unsigned)p->maxThreadsDim[2] || threads > (uint64_t)p->maxThreadsPerBlock) {
		snprintf(why, n, "a block of (%u,%u,%u) = %llu threads; the device allows %d "
			 "threads per block, at most (%d,%d,%d)", b.x, b.y, b.z,
			 (unsigned long long)threads, p->maxThreadsPerBlock,
			 p->maxThreadsDim[0], p->maxThreadsDim[1], p->maxThreadsDim[2]);
		return cudaErrorInvalidConfiguration;
	}
	if (g.x > (unsigned)p->maxGridSize[0] || g.y > (unsigned)p->maxGridSize[1] ||
	    g.z > (unsigned)p->maxGridSize[2]) {
		snprintf(why, n, "a grid of (%u,%u,%u) blocks; the device allows at most "
			 "(%d,%d,%d)", g.x, g.y, g.z, p->maxGridSize[0], p->maxGridSize[1],
			 p->maxGridSize[2]);
		return cudaErrorInvalidConfiguration;
	}
	if ((fn->maxntid[0] &&
	     threads > (uint64_t)fn->maxntid[0] * fn->maxntid[1] * fn->maxntid[2]) ||
	    (fn->reqntid[0] && (b.x != fn->reqntid[0] || b.y != fn->reqntid[1] ||
				b.z != fn->reqntid[2]))) {
		snprintf(why, n, "a block of %llu threads, more than the kernel's "
			 "__launch_bounds__ (or required block size) allows",
			 (unsigned long long)threads);
		return cudaErrorLaunchOutOfResources;
	}
	limit = fn->max_dyn_shared ? (size_t)fn->max_dyn_shared
				   : p->sharedMemPerBlock - fn->sum_shared;
	if (fn->sum_shared > p->sharedMemPerBlock ||
	    req->dyn_shared > limit ||
	    fn->sum_shared + req->dyn_shared > p->sharedMemPerBlockOptin) {
		snprintf(why, n, "%llu bytes of static and %zu of dynamic shared memory per "
			 "block; the limit is %zu (%zu with cudaFuncSetAttribute)",
			 (unsigned long long)fn->sum_shared, (size_t)req->dyn_shared,
			 (size_t)p->sharedMemPerBlock, (size_t)p->sharedMemPerBlockOptin);
		return cudaErrorInvalidValue;
	}
	*dyn = (uint32_t)req->dyn_shared;
	return cudaSuccess;
}

/* A cooperative launch must fit on the device at once:
 * cudaErrorCooperativeLaunchTooLarge when its blocks cannot all be
 * resident. */
static cudaError_t coop_check(const struct simt_launch_req *req, uint32_t dyn)
{
	uint64_t threads = (uint64_t)req->block.x * req->block.y * req->block.z;
	uint64_t blocks = (uint64_t)req->grid.x * req->grid.y * req->grid.z;
	uint64_t per_sm = (uint64_t)simt_occupancy(req->fn, (int)threads, dyn);
	uint64_t sms = (uint64_t)simt_device()->prop.multiProcessorCount;

	return blocks > per_sm * sms ? cudaErrorCooperativeLaunchTooLarge
				     : cudaSuccess;
}

/* The grid workspace of a cooperative launch (see coop.c): memory the
 * kernel addresses, made for the launch and freed after it. */
static void grid_ws_make(struct launch_state *L)
{
	struct grid_workspace *ws;

	if (!grid_ws)
		grid_ws = own_take(sizeof *ws);
	ws = (struct grid_workspace *)(void *)grid_ws;
	memset(ws, 0, sizeof *ws);

	/* The driver's own value of `size` is not documented and nothing
	 * reads it; simt stores the workspace's size. */
	ws->size = sizeof *ws;
	simt_mem_track(ws, sizeof *ws, MEM_SYMBOL, "grid workspace", false);
	L->grid_ws = (uint64_t)(uintptr_t)ws;
}

static void grid_ws_free(struct launch_state *L)
{
	simt_mem_untrack((void *)(uintptr_t)L->grid_ws);
	L->grid_ws = 0;
}

static bool uses_malloc(const struct simt_module *mod)
{
	int i;

	for (i = 0; i < mod->nfuncs; i++)
		if (mod->funcs[i].builtin == BI_MALLOC)
			return true;
	return false;
}

static uint32_t local_need(const struct simt_func *fn)
{
	size_t stack = simt_stack_limit < 1024 ? 1024 : simt_stack_limit;

	if (!fn->sum_recursive)
		return fn->sum_local ? fn->sum_local : 16;
	return (uint32_t)((fn->local_size + 15) / 16 * 16 + stack * 8);
}

static void flush_output(struct launch_state *L)
{
	size_t i, j;

	/* insertion sort: outputs arrive nearly in block order */
	for (i = 1; i < L->nouts; i++) {
		struct block_out t = L->outs[i];

		for (j = i; j > 0 && L->outs[j - 1].block > t.block; j--)
			L->outs[j] = L->outs[j - 1];
		L->outs[j] = t;
	}
	for (i = 0; i < L->nouts; i++) {
		fwrite(L->outs[i].s, 1, L->outs[i].len, stdout);
		free(L->outs[i].s);
	}
	if (L->nouts)
		fflush(stdout);
	free(L->outs);
	if (L->out_dropped)
		simt_warn("device printf output beyond %zu bytes was dropped "
			  "(cudaLimitPrintfFifoSize)", simt_printf_fifo);
}

/* The parameter buffer, filled for a launch of fn. */
static uint8_t *pack_params(const struct simt_func *fn, void **args)
{
	size_t n = fn->kparam_size ? fn->kparam_size : 1;
	uint8_t *buf;
	int i;

	if (n > params_cap) {
		if (params)
			own_give(params, params_cap);
		params_cap = n < 65536 ? 65536 : n;
		params = own_take(params_cap);
	}
	buf = params;
	memset(buf, 0, n);

	for (i = 0; i < fn->nparams; i++)
		if (args && args[i])
			memcpy(buf + fn->params[i].offset, args[i], fn->params[i].size);
	return buf;
}

static void report_unsupported(struct simt_func *fn)
{
	static const struct simt_func *reported[64];
	static int nreported;
	char name[512];
	int i;

	for (i = 0; i < nreported; i++)
		if (reported[i] == fn)
			return;
	if (nreported < 64)
		reported[nreported++] = fn;
	simt_warn("cannot run kernel %s: %s",
		  simt_demangle(fn->name, name, sizeof name),
		  fn->sum_bad ? fn->sum_bad : "it could not be decoded");
}

/* The time model takes the launch when predictions are on: counters on
 * (its traces come from them), and warps taking turns often, as a GPU's
 * do, so that the L1 the tracer models sees them interleaved. */
static void predict_begin(struct launch_state *L, const struct simt_launch_req *req,
			  uint32_t dyn)
{
	struct pm_launch_desc pd = {
		.mod = req->mod, .fn = req->fn,
		.grid = { req->grid.x, req->grid.y, req->grid.z },
		.block = { req->block.x, req->block.y, req->block.z },
		.nblocks = L->nblocks, .nthreads = L->nthreads, .nwarps = L->nwarps,
		.shared_static = req->fn->sum_shared, .shared_dyn = dyn,
		.device = L->device,
	};

	L->pm = simt_predict_begin(&pd);
	if (!L->pm)
		return;
	simt_counters_on = true;
	if (!L->sched)
		L->slice = 256;
}

cudaError_t simt_launch(const struct simt_launch_req *req)
{
	struct simt_func *fn = req->fn;
	struct launch_state L;
	cudaError_t err;
	uint32_t dyn = 0;
	double t0;
	char why[256], name[512];

	if (simt_kernel_summarize(req->mod, fn) != 0) {
		report_unsupported(fn);
		return cudaErrorInvalidPtx;
	}
	err = check_config(req, fn, &dyn, why, sizeof why);
	if (err != cudaSuccess) {
		simt_warn("launch of %s not started: %s (%s)",
			  simt_demangle(fn->name, name, sizeof name), why, cudaGetErrorName(err));
		return err;
	}
	if (req->cooperative && (err = coop_check(req, dyn)) != cudaSuccess)
		return err;
	memset(&L, 0, sizeof L);
	pthread_mutex_init(&L.lock, NULL);
	L.mod = req->mod;
	L.fn = fn;
	L.device = simt_current_device();
	L.grid = req->grid;
	L.block = req->block;
	L.nthreads = req->block.x * req->block.y * req->block.z;
	L.nwarps = (L.nthreads + 31) / 32;
	L.nblocks = (uint64_t)req->grid.x * req->grid.y * req->grid.z;
	L.shared_static = fn->sum_shared;
	L.shared_dyn = dyn;
	L.shared_size = fn->sum_shared + dyn;
	if (req->mod->reserved_smem) {
		L.reserved = true;
		L.reserved_begin = (L.shared_size + 15) / 16 * 16;
		L.shared_size = L.reserved_begin + (uint32_t)
			simt_device()->prop.reservedSharedMemPerBlock;
	}
	L.local_per_thread = local_need(fn);
	L.entry_rows = fn->sum_rows > fn->nrows ? fn->sum_rows : fn->nrows;
	L.budget = (uint64_t)simt_env_long("CUDALAB_SIMT_MAX_INSTRUCTIONS",
					   (long)(1ull << 32));
	L.coop = req->cooperative;
	L.sched = simt_hz_schedule();
	simt_schedule_setup(&L);
	if (!L.coop)
		predict_begin(&L, req, dyn);
	simt_runs_prepare(req->mod);
	L.lane = simt_stream_lane(req->stream);
	simt_hz_launch_begin(&L);
	L.kparams = pack_params(fn, req->args);
	simt_mem_track(L.kparams, fn->kparam_size, MEM_SYMBOL,
		       "kernel parameters", true);
	if (uses_malloc(req->mod) && !heap) {
		heap_size = simt_heap_limit;
		heap = own_take(heap_size);
		simt_mem_track(heap, heap_size, MEM_SYMBOL, "device heap", false);
	}
	L.heap = heap;
	L.heap_size = heap_size;
	L.hmm = simt_device()->prop.pageableMemoryAccess != 0;
	L.printf_fifo = simt_printf_fifo;
	L.gridid = ++launch_count;
	t0 = simt_now();
	if (L.coop) {
		grid_ws_make(&L);
		simt_coop_begin(&L);
	}
	simt_run_grid(&L);
	if (L.coop) {
		simt_coop_end(&L);
		grid_ws_free(&L);
	}
	flush_output(&L);
	simt_mem_untrack(L.kparams);
	if (L.pm) {
		struct pm_result pr;

		simt_predict_end(L.pm, &pr);
		simt_tl_kernel(L.lane, L.device, pr.kernel_us, pr.share);
	} else if (simt_tl_on()) {
		static bool said;

		if (!said)
			simt_warn("predict: cooperative launches are not modelled; %s counts as no time",
				  simt_demangle(fn->name, name, sizeof name));
		said = true;
		simt_tl_kernel(L.lane, L.device, 0, 1);
	}
	if (simt_counters_on) {
		L.total.blocks = L.nblocks;
		simt_counters_add(fn->name, &L.total, simt_now() - t0, L.device);
	}
	pthread_mutex_destroy(&L.lock);
	simt_hz_launch_end(&L);
	if (L.fault.err != cudaSuccess) {
		fflush(stdout);
		fputs(L.fault.msg, stderr);
		fflush(stderr);
		free(L.fault.msg);
		simt_set_sticky(L.fault.err);
	}
	return cudaSuccess;
}
