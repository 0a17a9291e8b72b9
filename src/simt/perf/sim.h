/* The time model's simulation of one SM (sim.c).
 *
 * What the interpreter saw of a sampled block is its trace: per warp, the
 * straight-line runs of instructions it issued, in order, and for each
 * memory instruction what the access needed (sectors, L1 wavefronts or
 * shared-memory wavefronts, and which sectors missed L1 and L2).  Each
 * instruction's static class for the device (pipe, issue slots, result
 * latency, registers read and written) is decided once per module.
 *
 * simt_sim_run replays the traces of the blocks one SM runs, `resident`
 * blocks at a time, through the SM's warp schedulers: each cycle a
 * scheduler issues at most one instruction of one of its warps whose
 * operands are ready and whose pipe is free (greedy, then oldest); loads
 * complete through the L1, the SM's share of L2 and DRAM bandwidth and
 * their latencies; a barrier holds a warp until every live warp of its
 * block has reached it.  It returns the SM's cycles and what kept it
 * busy or idle. */
#ifndef SIMT_PERF_SIM_H
#define SIMT_PERF_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct simt_gpu;

/* Execution pipes of a warp scheduler (an SM sub-partition). */
enum {
	PM_PIPE_NONE,   /* takes an issue slot only */
	PM_PIPE_FMA,    /* FP32 add/mul/fma, integer multiply(-add) */
	PM_PIPE_ALU,    /* integer add, logic, shifts, compares, selects */
	PM_PIPE_FP16,
	PM_PIPE_FP64,
	PM_PIPE_SFU,    /* transcendentals */
	PM_PIPE_CONV,   /* type conversions */
	PM_PIPE_TENSOR,
	PM_PIPE_LSU,    /* memory instructions, shuffles (MIO) */
	PM_PIPE_CBU,    /* branches, barriers */
	PM_PIPES
};

/* Memory behaviour of an instruction. */
enum {
	PM_MEM_NONE,
	PM_MEM_GLD,     /* global (or constant/texture) load through L1 */
	PM_MEM_GST,     /* global store: L1 write-through to L2 */
	PM_MEM_SLD,     /* shared load */
	PM_MEM_SST,     /* shared store */
	PM_MEM_GATOM,   /* global atomic or reduction, done at L2 */
	PM_MEM_SATOM,   /* shared atomic */
	PM_MEM_ASYNC,   /* cp.async: global to shared, completes on its own */
};

/* Control behaviour. */
enum {
	PM_CTL_NONE,
	PM_CTL_BAR,     /* waits for the block's live warps */
	PM_CTL_EXIT,
	PM_CTL_WAIT_ASYNC,  /* waits for the warp's cp.async copies */
	PM_CTL_FENCE,
};

/* Why a scheduler issued nothing in a cycle (Nsight Compute's names in
 * the report). */
enum {
	PM_STALL_WAIT,      /* waiting on a fixed-latency result */
	PM_STALL_LONG_SB,   /* waiting on a global/local load */
	PM_STALL_SHORT_SB,  /* waiting on shared memory, a shuffle, an SFU op */
	PM_STALL_PIPE,      /* the math pipe it needs is busy */
	PM_STALL_MIO,       /* the memory pipe is busy */
	PM_STALL_BARRIER,
	PM_STALL_IDLE,      /* no warp to run (tail, too few blocks) */
	PM_STALL_SELECTED,  /* issued: not a stall, kept for the totals */
	PM_STALLS
};

/* An instruction's class for one device. */
struct pm_op {
	uint8_t pipe, mem, ctl;
	uint8_t lat_kind;      /* PM_STALL_* a wait on its result counts as */
	uint8_t ndst, nsrc;
	uint16_t slots;        /* issue cycles (SASS instructions it becomes) */
	float pipe_cyc;        /* cycles its pipe is busy, per slot */
	float lat;             /* result latency in cycles (non-memory) */
	uint32_t dep;          /* first of ndst then nsrc rows in pm_code.rows */
};

/* Scalar shared-memory accesses off one base register at consecutive
 * offsets, which ptxas turns into one vector access (opclass.c): the
 * first in program order leads, with the group's width and the offset
 * from its own address to the group's first byte; the others follow
 * (no issue slot, no access of their own). */
enum { PM_MERGE_NONE, PM_MERGE_LEAD, PM_MERGE_FOLLOW };
struct pm_merge {
	uint8_t role, width;
	int16_t delta;
};

struct pm_code {
	struct pm_op *op;      /* by pc */
	struct pm_merge *merge;  /* by pc */
	uint32_t n;
	uint32_t *rows;
	size_t nrows, caprows;
};

/* A run of `len` instructions from `pc` issued in order by one warp. */
struct pm_run {
	uint32_t pc, len;
};

/* What one memory instruction needed, in issue order within its warp.
 * Global: sectors and distinct lines (L1 wavefronts); the lines
 * themselves, lines[line0 .. line0 + waves) of the warp's trace, each
 * (address / line size) << 4 | the sectors touched, when the block keeps
 * them.  Shared: wavefronts.  Atomics: lanes (sectors), the most lanes
 * on one address (waves), distinct addresses (addrs). */
struct pm_mref {
	uint32_t pc;
	uint16_t sectors, waves, addrs, pad;
	uint32_t line0;
};

struct pm_wtrace {
	struct pm_run *run;
	uint32_t nrun, caprun;
	struct pm_mref *mem;
	uint32_t nmem, capmem;
	uint64_t *lines;
	uint32_t nlines, caplines;
	uint64_t insns;        /* instructions in all runs */
	uint64_t mem_at;       /* insns when the last mem entry was added */
};

struct pm_btrace {
	uint64_t block;        /* linear block index */
	uint32_t nwarps;
	struct pm_wtrace *w;
	uint64_t insns;
};

struct pm_sim_in {
	const struct simt_gpu *g;
	const struct pm_code *code;
	struct pm_btrace *const *traces;  /* replayed in turn by the blocks */
	uint32_t ntraces;
	uint64_t queue;        /* blocks this SM runs in all */
	uint32_t resident;     /* at most at once */
	double l2_bytes_per_clk, dram_bytes_per_clk;  /* this SM's even shares */
	double active_sms;     /* SMs with blocks, sharing L2 and DRAM */
	double l1_bytes;       /* L1 of the SM (what shared memory leaves) */
	/* by pc: of the sectors an instruction sends to L2, the share that
	 * goes on to DRAM (the L2 model's answer); NULL: all */
	const float *dram_ratio;
	double atomic_addr_per_clk;  /* one address's atomics, this SM's share */
	uint64_t max_issue;    /* then extrapolate (0: no limit) */
};

struct pm_sim_out {
	double cycles;
	double issue_slots;            /* slots used */
	double pipe_busy[PM_PIPES];    /* cycles, summed over schedulers */
	double l1_busy, smem_busy;     /* wavefront cycles of the SM */
	double l2_bytes, dram_bytes;   /* moved for this SM */
	double stall[PM_STALLS];       /* scheduler cycles by reason */
	uint64_t blocks_simulated;
	bool extrapolated;
};

/* Replays in->queue blocks; fills *out. */
void simt_sim_run(const struct pm_sim_in *in, struct pm_sim_out *out);

/* Trace building (also used by the tests to make synthetic traces). */
void pm_wtrace_run(struct pm_wtrace *t, uint32_t pc, uint32_t len);
void pm_wtrace_mem(struct pm_wtrace *t, const struct pm_mref *m);
void pm_wtrace_line(struct pm_wtrace *t, uint64_t line, unsigned mask);
void pm_btrace_free(struct pm_btrace *b);
/* Adds rows (ndst destinations, then nsrc sources) for op *o. */
void pm_code_deps(struct pm_code *c, struct pm_op *o, const uint32_t *dst,
		  int ndst, const uint32_t *src, int nsrc);
void pm_code_free(struct pm_code *c);

#endif
