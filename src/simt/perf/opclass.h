/* Each instruction of a module classified for a device (opclass.c). */
#ifndef SIMT_PERF_OPCLASS_H
#define SIMT_PERF_OPCLASS_H

#include "perf/sim.h"

struct simt_module;
struct simt_gpu;

/* Fills *c with one struct pm_op per instruction of mod, for device g. */
void pm_code_build(struct pm_code *c, const struct simt_module *mod,
		   const struct simt_gpu *g);

#endif
