/* runaway.h — the budget of warp instructions per launch of a check on
 * simt (runaway.c). */
#ifndef CUDALAB_RUN_RUNAWAY_H
#define CUDALAB_RUN_RUNAWAY_H

#include <stdint.h>

#include "common.h"

/* The budget for a check of req's exercise on simt, and the reference's
 * longest launch it comes from.  Returns 0 with both set, 1 when they are
 * not known yet and may_measure is 0, -1 when they cannot be measured (no
 * reference solution, or it does not pass). */
int run_runaway_budget(const struct run_request *req, const struct run_probe *probe,
		       const char *cache, const char *include, int may_measure,
		       uint64_t *budget, uint64_t *reference);
/* The budget while the reference is not measured. */
uint64_t run_runaway_floor(void);
/* Whether simt stopped the run at its budget. */
int run_runaway_stopped(const struct run_result *res);
/* Turns such a run's verdict into a timeout that says where it spun. */
void run_runaway_verdict(struct run_result *res, uint64_t budget, uint64_t reference);

#endif
