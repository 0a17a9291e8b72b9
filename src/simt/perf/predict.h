/* The time model of one kernel launch (predict.c).
 *
 * With CUDALAB_SIMT_PREDICT=ID (a device file's id), every launch is
 * predicted for that GPU:
 *
 *   1. before it runs, the kernel's registers and shared memory come from
 *      ptxas for the device's architecture and give its occupancy; the
 *      blocks to run are chosen: the first two generations of one SM,
 *      blocks spread over the grid (strata), then the rest of the first
 *      wave and the rest of the grid, for as long as the budget allows
 *      (every block when it does: then nothing is sampled); the budget
 *      is CUDALAB_SIMT_PREDICT_BUDGET seconds of one core at simt's
 *      nominal rate, counted in instructions, never by the clock (20;
 *      0: no limit, every block runs, as a check needs);
 *   2. each block that runs is traced (trace.h), the first ones in full;
 *   3. afterwards the sampled blocks' L1 misses go through the L2 in the
 *      order the blocks progress together, which decides each traced
 *      access's DRAM traffic; one SM runs its share of the grid (sim.h);
 *      waves, tail and launch overhead follow.
 *
 * The result is printed (`simt: predict: ...` on stderr) and kept for
 * events on the modelled timeline, the counters file and the predictions
 * file (CUDALAB_SIMT_PREDICT_OUT, one JSON object a line). */
#ifndef SIMT_PERF_PREDICT_H
#define SIMT_PERF_PREDICT_H

#include <stdbool.h>
#include <stdint.h>

struct simt_module;
struct simt_func;
struct simt_counts;
struct pm_tracer;
struct pm_launch;

/* What the model needs to know of a launch. */
struct pm_launch_desc {
	const struct simt_module *mod;
	const struct simt_func *fn;
	uint32_t grid[3], block[3];
	uint64_t nblocks;
	uint32_t nthreads, nwarps;
	uint32_t shared_static, shared_dyn;
	int device;
};

/* The result of one launch. */
struct pm_result {
	double us;              /* predicted duration, launch overhead included */
	double kernel_us;       /* the kernel alone */
	double share;           /* the part of the GPU's block slots it fills */
	bool sampled;           /* not every block ran: outputs are incomplete */
	uint64_t blocks_run;
};

/* The device id predictions are for ("" when off): CUDALAB_SIMT_PREDICT. */
const char *simt_predict_device(void);
/* Its device file, read once (NULL when off or unreadable, said once). */
struct simt_gpu;
const struct simt_gpu *simt_predict_gpu(void);

/* Starts predicting a launch, or returns NULL when predictions are off or
 * the device file cannot be read (said once). */
struct pm_launch *simt_predict_begin(const struct pm_launch_desc *d);

/* The i-th block to run, and whether it may still run (false once the
 * list is done, or the budget is spent after the blocks the model needs). */
bool simt_predict_next(struct pm_launch *p, uint64_t i, uint64_t *block);

/* A worker starts the i-th listed block: begins tracing it in t. */
void simt_predict_block_begin(struct pm_launch *p, struct pm_tracer *t,
			      uint64_t i, uint64_t block);
/* ...and ends it, handing over its trace and the FLOPs it did (f32,
 * f64, f16 and tensor). */
void simt_predict_block_end(struct pm_launch *p, struct pm_tracer *t, uint64_t i,
			    const uint64_t flops[3]);

/* After the launch: predicts, prints and records; frees p. */
void simt_predict_end(struct pm_launch *p, struct pm_result *out);

#endif
