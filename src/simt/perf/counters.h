/* Profiler-style counters per kernel (counters.c): what the interpreter
 * counts while a kernel runs, summed per kernel name and written as JSON
 * at exit (CUDALAB_SIMT_COUNTERS). */
#ifndef SIMT_COUNTERS_H
#define SIMT_COUNTERS_H

#include "base/base.h"

#include <stdio.h>

struct simt_counts {
	uint64_t thread_insts;
	uint64_t warp_insts;
	uint64_t gld_req, gst_req, gld_sectors, gst_sectors;
	uint64_t sld_req, sst_req, bank_conflicts;
	uint64_t branches, divergent;
	uint64_t atomics, barriers;
	uint64_t flops_f32, flops_f64, flops_f16;
	uint64_t local_ld, local_st;
	uint64_t hazards; /* occurrences of hazards (check/) */
	uint64_t blocks;  /* blocks launched */
	/* lane operations of atomics by the space they resolved to, and per
	 * warp atomic its lanes beyond the first at each address */
	uint64_t gatom, satom, gatom_conflicts, satom_conflicts;
	uint64_t gld_bytes, gst_bytes; /* bytes the lanes asked for */
};

extern bool simt_counters_on;
/* Hazard occurrences met outside kernels (copies, memsets, library calls
 * and the host's own accesses, see check/): in the total only. */
void simt_counters_add_hazards(uint64_t n);
/* A copy of n bytes from device src's memory to device dst's (src !=
 * dst), by any copy path; staged: through the host, as a copy between
 * devices with no peer access between them goes on a GPU.  A later part
 * of a copy already counted (a slice of a 3D copy) has `first` false and
 * adds its bytes only.  Counted whether or not counting is on. */
void simt_counters_peer_copy(int src, int dst, uint64_t n, bool staged,
			     bool first);
/* Adds one launch of `kernel` on `device`. */
void simt_counters_add(const char *kernel, const struct simt_counts *c,
		       double seconds, int device);
/* Reads CUDALAB_SIMT_COUNTERS at start-up; `devices` is the number of
 * devices, whose launches the output counts apart. */
void simt_counters_init(int devices);
/* A part of the counters that a room above keeps (NCCL's communication
 * model): json appends its part of the JSON after "total" at exit, and
 * counter answers cudalab_simt_counter for the names that begin with
 * prefix.  Registered once, before main. */
void simt_counters_section(const char *prefix, void (*json)(FILE *f),
			   int (*counter)(const char *name,
					  unsigned long long *value));
/* A device number after a dot at *s (a counter name's ".D"), which
 * moves past it: the number, or -1 when there is none or it names no
 * possible device. */
int simt_counters_dot_device(const char **s);
/* Public, for programs that read their own counters while they run (lab.h
 * declares it weak): sets *value to the counter `name` (a key of the
 * counters JSON: "global_load_sectors", "shared_bank_conflicts", ...,
 * "launches") summed over every kernel launched so far, and returns 0; -1
 * for an unknown name.  Copies between devices are "peer_copies",
 * "peer_copy_bytes", "peer_copies_staged" and "peer_copy_bytes_staged",
 * in all or, with ".S.D" after the name, from device S to device D.
 * The modelled timeline's figures (runtime/timeline.c) are
 * "timeline.overlap_ns", "timeline.copy_busy_ns" and
 * "timeline.compute_busy_ns", in all or with ".D" for device D, there
 * only with the time model on; "timeline.on" reads 1 then, else 0.  The first call turns counting on when
 * CUDALAB_SIMT_COUNTERS did not, so counts start from there. */
int cudalab_simt_counter(const char *name, unsigned long long *value);

#endif
