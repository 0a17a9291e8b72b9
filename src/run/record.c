/* record.c — the last stage of a check: the attempt goes to the
 * learner's progress (store_attempt_add), with the verdict as it stands. */
#include "common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/content.h"
#include "cudalab/store.h"
#include "cudalab/util.h"

/* Records the attempt; a failure is only worth a warning on stderr, the
 * verdict stands.  The median is kept only for GPU runs: emulation time
 * is no best time. */
void run_record(const struct run_request *req, struct run_result *res)
{
	struct attempt a;

	char *label;
	int gpu = res->backend == BACKEND_GPU || res->remote_gpu;

	if (!req->st)
		return;
	label = res->backend == BACKEND_SSH || res->backend == BACKEND_SLURM
			? run_remote_label(req)
			: xstrdup(run_backend_name(res->backend));
	memset(&a, 0, sizeof a);
	a.exercise = req->ex->id;
	a.mode = (char *)run_mode_name(req->mode);
	a.backend = label;
	a.status = (char *)run_status_name(res->status);
	a.source_hash = res->source_hash;
	a.median_ms = gpu && !isnan(res->timing.median_ms) ? res->timing.median_ms : -1;
	a.result_json = res->json;
	a.predicted_ms = -1;
	if (res->prediction && !isnan(res->prediction->ms)) {
		a.predicted_ms = res->prediction->ms;
		a.predicted_device = res->prediction->device;
	}
	a.scratch = req->scratch;
	if (store_attempt_add(req->st, &a) != 0)
		res->not_recorded = xstrdup(store_errmsg(req->st));
	free(label);
}
