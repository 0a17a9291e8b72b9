/* A kernel's resources as the real compiler allocates them, and the
 * occupancy they allow on a device (resources.c). */
#ifndef SIMT_PERF_RESOURCES_H
#define SIMT_PERF_RESOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct simt_gpu;
struct simt_buf;

/* What `ptxas -arch=sm_XY -v` says of one entry function. */
struct simt_kres {
	bool known;            /* from ptxas; else estimated (see why) */
	int regs;
	uint32_t smem_static;  /* bytes */
	uint32_t stack;        /* bytes of stack frame per thread */
	uint32_t spill_stores, spill_loads;  /* bytes per thread */
	int barriers;
	char why[160];         /* when !known: why ptxas could not say */
	char note[96];         /* when known but not for the arch asked */
};

/* Resources of entry `func` of the module whose PTX text is ptx[0..len)
 * for architecture `arch` ("sm_90").  ptxas runs once per text and
 * architecture; its output is kept in the cache directory.  When ptxas
 * is missing or refuses the text, *out->known is false and regs is a
 * guess from the PTX, with the reason in out->why. */
void simt_kres_get(const char *ptx, size_t len, const char *arch,
		   const char *func, struct simt_kres *out);

/* Reads ptxas -v output for `func` into *out; returns 0 when found. */
int simt_kres_parse(const char *log, const char *func, struct simt_kres *out);

/* The occupancy calculator's answer for a block of `threads` threads
 * using `regs` registers per thread and `smem` bytes of shared memory
 * (static + dynamic), on device g. */
struct simt_occ {
	int blocks;            /* resident blocks per SM (0: cannot launch) */
	int warps_per_block;
	int by_warps, by_regs, by_smem, by_blocks;  /* each limit alone */
	const char *limiter;   /* "warps", "registers", "shared memory", "blocks" */
	uint32_t smem_alloc;   /* bytes allocated per block, reserve included */
	double carveout_kb;    /* shared memory the SM is configured with */
	double l1_kb;          /* what that leaves for the L1 cache */
};
void simt_occ_compute(const struct simt_gpu *g, int threads, int regs,
		      uint32_t smem, struct simt_occ *o);

#endif
