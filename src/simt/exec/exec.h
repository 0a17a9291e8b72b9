/* State of a running kernel, shared by the warp interpreter (exec.c) and
 * the block scheduler (sched.c). */
#ifndef SIMT_EXEC_H
#define SIMT_EXEC_H

#include "base/device.h"
#include "mem/mem.h"
#include "perf/counters.h"
#include "perf/trace.h"
#include "ptx/ptx.h"

#include <pthread.h>
#include <stdatomic.h>

/* Generic addresses of the per-thread (.local) and per-block (.shared)
 * windows.  Host pointers never reach these values on x86-64, so a generic
 * address is classified by its upper 32 bits. */
#define SIMT_LOCAL_WIN 0x0001000000000000ull
#define SIMT_SHARED_WIN 0x0002000000000000ull
#define SIMT_WIN_OF(a) ((a) & 0xffffffff00000000ull)

/* The instructions from one to the end of its straight-line run (the
 * next that may branch or stop the warp, itself included), and their
 * FLOPs per lane by type (f32, f64, f16) where no guard can skip them:
 * the interpreter counts a run when it enters it. */
struct simt_run {
	uint32_t len;
	uint32_t flops[3];
};
void simt_runs_prepare(struct simt_module *mod);

struct simt_fault {
	cudaError_t err;
	char *msg;
};

/* Host threads that run blocks, and library calls such as cuBLAS's GEMM
 * (CUDALAB_SIMT_THREADS, default the processors online). */
int simt_worker_count(void);

/* ---- formatting of device printf (printf.c) ---- */

/* Formats one device printf call into b and returns the number of
 * arguments it used.  args_len bounds the argument buffer. */
typedef const char *(*simt_strfetch)(void *ctx, uint64_t addr);
int simt_format_printf(struct simt_buf *b, const char *fmt,
			const uint8_t *args, size_t args_len,
			simt_strfetch fetch, void *ctx);


#define NBARRIERS 16
/* The most host threads that run blocks (CUDALAB_SIMT_THREADS). */
#define SIMT_MAX_THREADS 256
/* Warp instructions in a time slice (exec.c). */
#define SIMT_SLICE 8192
#define NO_FRAME UINT32_MAX

/* A call frame: the registers and local depot of one function activation,
 * shared by the lanes that made the call together. */
struct frame {
	uint32_t func;
	uint32_t row_base;
	uint32_t local_base;
	uint32_t ret_pc;
	uint32_t parent;
	uint32_t callsite;
	uint32_t depth;
	uint32_t active;       /* lanes with this frame on their call stack */
	uint32_t rows_top;     /* stack tops to restore when popped */
	uint32_t local_top;
};

/* A warp runs one group of lanes at a time: those at the lowest pc among
 * the deepest frame's runnable lanes.  Lanes outside the group keep their
 * pc in lane_pc; the group's lanes have pc `pc`. */
struct warp {
	uint32_t pc;
	uint32_t mask;         /* lanes of the current group; 0: pick anew */
	uint32_t fi;           /* frame of the current group */
	uint32_t next_pc;      /* lowest pc of other runnable lanes in fi */
	uint32_t exist;
	uint32_t exited;
	uint32_t bar_wait;
	uint32_t sync_wait;
	uint32_t carry;
	uint32_t barmask[NBARRIERS];
	uint32_t lane_pc[32];
	uint32_t lane_fi[32];
	struct frame *frames;
	uint32_t nframes, capframes;
	uint64_t *regs;
	uint32_t rows_cap, rows_top;
	uint32_t local_top;
	uint64_t *sregs;
	uint64_t scratch[32];  /* destination of sinks (`_`) */
	uint32_t id;
	/* After a time slice: lanes that ran last, so the next pick lets
	 * others go first (a lane may be spinning on another's store). */
	uint32_t rotate_from;
	uint32_t synced;       /* __syncwarp() calls completed */
	/* The last turn ended at an mbarrier wait that failed: where, for
	 * which lanes, and the object's shared-memory offset. */
	bool spun;
	uint32_t spin_pc, spin_lanes, spin_off;
	/* Hazard checking of warp-synchronous instructions: lanes released
	 * from a bar.warp.sync wait together with the running group. */
	uint32_t sync_extra;
	/* Per row, the lanes that have written it, kept for the rows
	 * check/uninit_reg.c checks (when the block's uck is set). */
	uint32_t *defd;
	uint32_t defd_cap;
};

struct barrier {
	uint32_t arrived;
	uint32_t expected;     /* 0: every live thread of the block */
	uint32_t red_count;
	bool red_and, red_or;
};

struct launch_state;

/* The allocations a block's accesses fell in last, most recent first:
 * the range the program knows ([lo, lo + size)), where simt reaches it
 * (host: see simt_mem_host), and its hazard records. */
struct alloc_cache {
	uint64_t lo[4];
	uint64_t size[4];
	uint8_t *host[4];
	struct hz_word *shadow[4];
	uint8_t *init[4];
};

struct hz_block;

/* What one worker thread needs to run blocks of a launch. */
struct block_ctx {
	struct launch_state *L;
	struct warp *warps;
	uint32_t nwarps, capwarps;
	uint8_t *shared;
	size_t shared_cap;
	uint8_t *local;
	size_t local_cap;
	uint32_t ctaid[3];
	uint64_t block;        /* linear block index */
	uint32_t exited_threads;
	struct barrier bars[NBARRIERS];
	struct simt_counts counts;
	struct alloc_cache cache;
	struct simt_buf out;   /* device printf output of this block */
	uint64_t budget_tick;
	uint32_t slice_cut;    /* SIMT_SLICE less this is a warp's time slice */
	uint32_t passes;       /* passes over the block's warps so far */
	bool stop;
	/* mbarrier updates so far, the count the scheduler last saw, and
	 * the rounds since in which warps only polled (mbarrier.c) */
	uint64_t mbar_changes, mbar_seen;
	uint32_t mbar_idle;
	/* Hazard checking state (check/), NULL when checks are off. */
	struct hz_block *hz;
	/* Reads of registers before they are written are checked (uninit_reg.c):
	 * checks are on and the module has such reads. */
	bool uck;
	/* The time model's tracer when this block is traced, else NULL;
	 * its state, kept from block to block. */
	struct pm_tracer *tr;
	struct pm_tracer trace;
	uint32_t cur_warp;     /* the warp running, for the tracer */
};

struct launch_state {
	struct simt_module *mod;
	struct simt_func *fn;
	int device;            /* the device it runs on */
	dim3 grid, block;
	uint32_t nthreads, nwarps;
	uint64_t nblocks;
	atomic_ullong next_block;
	uint8_t *kparams;
	uint32_t shared_static, shared_dyn, shared_size;
	/* Kernels that read %reserved_smem_offset_*: the reserved shared
	 * region runs from reserved_begin to shared_size. */
	bool reserved;
	uint32_t reserved_begin;
	uint32_t local_per_thread;
	uint32_t entry_rows;
	atomic_int abort;
	pthread_mutex_t lock;
	struct simt_fault fault;
	uint64_t budget;
	atomic_ullong used;
	/* printf output per block, flushed in block order at the end */
	struct block_out {
		uint64_t block;
		char *s;
		size_t len;
	} *outs;
	size_t nouts, capouts, out_bytes;
	bool out_dropped;
	struct simt_counts total;
	/* device heap for malloc in kernels */
	uint8_t *heap;
	uint64_t heap_size;
	/* Kernels may reach the program's own host memory, as on a system
	 * with HMM or ATS (CUDALAB_SIMT_HMM=1). */
	bool hmm;
	/* the bytes of device printf output kept (cudaLimitPrintfFifoSize),
	 * and the number %gridid reads */
	size_t printf_fifo;
	uint64_t gridid;
	/* Hazard checks on (hz), also of global memory (hz_global: false
	 * for grids too large to identify their threads in 32 bits); every
	 * clock of earlier launches is at most hz_base, and those at most
	 * hz_fence come from operations ordered before this launch (see
	 * order.h; hz_fence < hz_base only while another stream's work is
	 * outstanding).  lane: the stream's lane.  sched: the schedule seed
	 * (CUDALAB_SIMT_SCHEDULE). */
	bool hz, hz_global;
	uint32_t hz_base, hz_fence;
	uint32_t lane;
	uint32_t sched;
	/* The schedule: warp instructions per time slice, and blocks handed
	 * out in the order i -> (i * perm_m + perm_c) mod nblocks. */
	uint32_t slice;
	uint64_t perm_m, perm_c;
	/* How many host threads share the blocks out (set when it starts). */
	int nparts;
	/* A cooperative launch: its grid workspace (coop.c) and how many of
	 * its blocks have finished. */
	bool coop;
	uint64_t grid_ws;
	atomic_ullong coop_done;
	/* The time model's state when the launch is predicted, else NULL. */
	struct pm_launch *pm;
};

/* exec.c */
/* Runs the warp until none of its lanes can go on (all exited, waiting at
 * a barrier or a warp-synchronous instruction), until a wait on an
 * mbarrier finds its phase incomplete (w->spun), or the launch stops. */
void simt_run_warp(struct block_ctx *bc, struct warp *w);
void simt_warp_start(struct block_ctx *bc, struct warp *w);
/* Releases barrier `id` if it is complete; returns true if it did. */
bool simt_barrier_check(struct block_ctx *bc, uint32_t id);

/* exec.c, for tensor.c: a checked host pointer for n bytes at address a
 * in the instruction's space for `lane` (hazard-checked when on), or
 * NULL after reporting the fault; and the memory counters of an access
 * by the lanes in `lanes`, addr indexed by lane. */
uint8_t *simt_lane_mem(struct block_ctx *bc, const struct warp *w,
		       unsigned lane, const struct simt_insn *in, uint64_t a,
		       uint32_t n, uint32_t align, bool write);
void simt_count_mem(struct block_ctx *bc, const struct simt_insn *in,
		    const uint64_t *addr, uint32_t lanes, uint32_t n, bool store);

/* The rest of the interpreter, called from its loop in exec.c: each
 * executes one instruction for the lanes in ex.  Those returning bool
 * return false when the group's pc was already set or the warp must
 * stop. */
/* exec_mem.c: memory instructions */
bool simt_exec_ld(struct block_ctx *bc, struct warp *w,
		  const struct simt_insn *in, uint64_t *const *bases,
		  uint32_t ex);
bool simt_exec_st(struct block_ctx *bc, struct warp *w,
		  const struct simt_insn *in, uint64_t *const *bases,
		  uint32_t ex);
bool simt_exec_cp_async(struct block_ctx *bc, struct warp *w,
			const struct simt_insn *in, uint64_t *const *bases,
			uint32_t ex);
bool simt_exec_atom(struct block_ctx *bc, struct warp *w,
		    const struct simt_insn *in, uint64_t *const *bases,
		    uint32_t ex);

/* exec_sync.c: warp-synchronous instructions and barriers */
void simt_wake_sync(struct block_ctx *bc, const struct simt_module *mod,
		    struct warp *w);
bool simt_warp_sync_ready(const struct simt_module *mod, struct warp *w,
			  uint32_t membermask);
void simt_warp_bar_order(struct block_ctx *bc, const struct simt_module *mod,
			 const struct warp *w, uint32_t run, uint32_t past);
void simt_exec_shfl(struct block_ctx *bc, const struct warp *w,
		    const struct simt_insn *in, uint64_t *const *bases,
		    uint32_t ex);
void simt_exec_vote(const struct simt_insn *in, uint64_t *const *bases,
		    uint32_t ex, const uint64_t *M);
void simt_exec_match(const struct simt_insn *in, uint64_t *const *bases,
		     uint32_t ex, const uint64_t *M);
void simt_exec_elect(const struct simt_insn *in, uint64_t *const *bases,
		     uint32_t ex, const uint64_t *M);
void simt_exec_redux(const struct simt_insn *in, uint64_t *const *bases,
		     uint32_t ex, const uint64_t *M);
bool simt_bar_arrive(struct block_ctx *bc, struct warp *w,
		     const struct simt_insn *in, uint64_t *const *bases,
		     uint32_t ex, bool wait);
void simt_check_all_barriers(struct block_ctx *bc);
void simt_check_aligned_bar(struct block_ctx *bc, const struct warp *w,
			    const struct simt_insn *in, uint32_t ex);
void simt_check_members(struct block_ctx *bc, const struct warp *w,
			const struct simt_insn *in, uint32_t ex,
			const uint64_t *M);

/* exec_call.c: calls */
bool simt_exec_call(struct block_ctx *bc, struct warp *w,
		    const struct simt_insn *in, uint32_t ex, uint32_t func);
void simt_exec_ret(struct warp *w, const struct simt_module *mod, uint32_t ex);
void simt_exec_exit(struct block_ctx *bc, struct warp *w, uint32_t ex);

/* exec_devlib.c: the device library */
void simt_exec_vprintf(struct block_ctx *bc, struct warp *w,
		       const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex);
void simt_exec_assert(struct block_ctx *bc, struct warp *w,
		      const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex);
uint64_t simt_heap_alloc(struct launch_state *L, uint64_t size);
void simt_heap_free(struct launch_state *L, uint64_t p);

/* Leaves `lanes` of the warp waiting at pc (they run again when picked). */
static inline void simt_park(struct warp *w, uint32_t lanes, uint32_t pc)
{
	while (lanes) {
		w->lane_pc[__builtin_ctz(lanes)] = pc;
		lanes &= lanes - 1;
	}
}

/* sched.c: the steps of running blocks, shared by the scheduler of
 * ordinary launches (one block at a time per host thread, start to end)
 * and that of cooperative ones (coop.c).  A context is prepared for a
 * launch, a block begins in it, runs pass after pass (every unfinished
 * warp once, until it finishes or blocks or its time slice ends), and its
 * device printf output is collected when it ends. */
enum { PASS_RAN, PASS_DONE, PASS_STOP };
void simt_ctx_prepare(struct block_ctx *bc, struct launch_state *L);
void simt_block_begin(struct block_ctx *bc, uint64_t block);
/* One pass over the block's warps: PASS_DONE when every warp has
 * finished, PASS_STOP when the launch stops (a fault, or this block is
 * deadlocked, which it reports), PASS_RAN otherwise. */
int simt_block_pass(struct block_ctx *bc);
void simt_block_output(struct block_ctx *bc);
/* The block that the i-th hand-out of launch L runs (the schedule). */
uint64_t simt_block_order(const struct launch_state *L, uint64_t i);
/* Adds the context's counters to the launch's totals. */
void simt_ctx_add_counts(struct block_ctx *bc);

/* coop.c: cooperative launches.  simt_coop_begin and _end come before
 * and after the blocks run (the latter explains a launch that ran out of
 * budget); simt_coop_run runs share `part` of `nparts` of the blocks, all
 * of them resident together.  The grid workspace, which the runtime makes
 * for the launch (L->grid_ws), is what cooperative_groups reads: its own
 * size, then the arrival counter of grid.sync(). */
struct grid_workspace {
	uint32_t size;
	uint32_t barrier;
};
void simt_coop_begin(struct launch_state *L);
void simt_coop_end(struct launch_state *L);
void simt_coop_run(struct launch_state *L, int part, int nparts);

/* sched.c: the schedule of launch L (L->sched set: the seed), and the run
 * of all its blocks, which the runtime prepares (runtime/launch.c). */
void simt_schedule_setup(struct launch_state *L);
void simt_run_grid(struct launch_state *L);

/* sched.c: records the first fault of the launch and stops it.  `w` and
 * `lane` locate the thread, `in` the instruction (may be NULL). */
void simt_fault(struct block_ctx *bc, const struct warp *w, int lane,
		const struct simt_insn *in, cudaError_t err, const char *fmt,
		...) __attribute__((format(printf, 6, 7)));
void simt_thread_coords(const struct block_ctx *bc, const struct warp *w,
			int lane, uint32_t tid[3]);
void simt_describe_insn(struct simt_buf *b, const struct simt_module *mod,
			const struct simt_insn *in, uint32_t pc);


#endif
