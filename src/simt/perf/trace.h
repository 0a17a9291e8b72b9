/* Recording what a sampled block does, for the time model (trace.c).
 *
 * While a block chosen by the sample runs, the interpreter tells the
 * tracer each straight-line run of instructions a warp enters (and how
 * much of it was left undone), and each memory access with its lanes'
 * addresses.  The tracer keeps the block's trace (sim.h) and runs the
 * block's share of the SM's L1 on the fly: the sectors that miss it are
 * kept, in order, for the L2 model that runs over all sampled blocks
 * once the launch is over. */
#ifndef SIMT_PERF_TRACE_H
#define SIMT_PERF_TRACE_H

#include "perf/cache.h"
#include "perf/sim.h"

#include <stdbool.h>

/* A sector set that left L1 for L2 (or an atomic, which always goes
 * there), with where it came from. */
enum { PM_MISS_READ, PM_MISS_WRITE, PM_MISS_ATOMIC };
struct pm_miss {
	uint64_t line;
	uint32_t pos;         /* warp instructions of the block before it */
	uint16_t warp;
	uint8_t mask;         /* sectors */
	uint8_t kind;
};

/* A block's misses, in order, and for each the index of the memory
 * instruction (pm_wtrace.mem of its warp) it came from. */
struct pm_misses {
	struct pm_miss *m;
	uint32_t *mref;
	uint32_t *pc;         /* the instruction each came from */
	size_t n, cap;
};
void pm_misses_free(struct pm_misses *ms);

struct pm_tracer {
	struct pm_btrace *bt;
	const struct pm_merge *merge;   /* by pc: shared accesses ptxas merges */
	struct pm_cache l1;
	uint64_t l1_bytes;
	struct pm_misses ms;
	uint64_t pos;
	uint64_t limit;       /* cut the block after this many (0: never) */
	bool keep_lines;      /* the trace keeps each access's lines */
};

/* Whether the block has run all the instructions it may. */
static inline bool pm_trace_over(const struct pm_tracer *t)
{
	return t->limit && t->pos >= t->limit;
}

/* Starts recording block `block` of nwarps warps, with an L1 of l1_bytes. */
void pm_trace_begin(struct pm_tracer *t, uint64_t block, uint32_t nwarps,
		    uint64_t l1_bytes, const struct pm_merge *merge, bool keep_lines);
/* Hands over the finished trace and its misses (the tracer forgets them). */
struct pm_btrace *pm_trace_end(struct pm_tracer *t, struct pm_misses *ms);
void pm_trace_free(struct pm_tracer *t);

/* Warp `warp` entered the run of `len` instructions from pc. */
void pm_trace_run(struct pm_tracer *t, uint32_t warp, uint32_t pc, uint32_t len);
/* ...and left it with `left` of them not run. */
void pm_trace_unrun(struct pm_tracer *t, uint32_t warp, uint32_t left);

/* Memory accesses: `addr` indexed by lane, for the lanes in `lanes`, of
 * n bytes each. */
void pm_trace_global(struct pm_tracer *t, uint32_t warp, uint32_t pc,
		     const uint64_t *addr, uint32_t lanes, uint32_t n, bool store);
/* Per-thread local memory: interleaved by lane on a GPU, so a warp's
 * access is contiguous and stays in L1. */
void pm_trace_local(struct pm_tracer *t, uint32_t warp, uint32_t pc, uint32_t n);
void pm_trace_shared(struct pm_tracer *t, uint32_t warp, uint32_t pc,
		     const uint64_t *addr, uint32_t lanes, uint32_t n);
void pm_trace_atomic(struct pm_tracer *t, uint32_t warp, uint32_t pc,
		     const uint64_t *addr, uint32_t lanes, uint32_t n, bool shared);
/* A memory instruction that ran with no lane active (it still issues). */
void pm_trace_none(struct pm_tracer *t, uint32_t warp, uint32_t pc);

#endif
