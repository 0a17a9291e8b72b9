/* fuzz_result.c — what the checker writes on the result pipe, and what
 * simt's reports hold: run_interpret with the input as the checker's
 * result (on simt with the input as the counters and hazard reports too,
 * and on a GPU), run_interpret_alone with it as a predicted bench's own
 * result, then run_insights on the result JSON; run_result_from_json and
 * run_insights on the input itself. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/content.h"
#include "cudalab/run.h"
#include "cudalab/util.h"
#include "../../src/run/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* As run_exercise starts a result: nothing reported yet. */
static void fresh(struct run_result *res, enum run_backend b)
{
	run_result_init(res);
	res->backend = b;
	res->timeout_s = 10;
}

static void insights(const char *json)
{
	char **lines = NULL;
	size_t n = run_insights(json, &lines);

	run_insights_free(lines, n);
}

static void show(struct run_result *res)
{
	for (size_t i = 0; i < res->n_cases; i++)
		free(run_case_errors(&res->cases[i]));
	insights(res->json);
	run_result_free(res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct exercise ex = { .id = "x" };
	struct run_request req = { .ex = &ex, .mode = RUN_CHECK };
	struct run_child checker, worker;
	struct run_result res;
	char *text = xstrndup((const char *)data, size);
	size_t len = strlen(text);

	/* on simt, both ended with 0; simt's reports are the same bytes */
	memset(&checker, 0, sizeof checker);
	memset(&worker, 0, sizeof worker);
	checker.result = text;
	checker.result_len = len;
	checker.err = "a line on the checker's stderr\n";
	worker.out = "some output\n";
	worker.err = "a line on stderr\n";
	fresh(&res, BACKEND_SIMT);
	run_interpret(&req, &res, &worker, &checker, text, text);
	show(&res);

	/* on a GPU, a bench, the worker's exit code 1 */
	worker.status = 1 << 8;
	req.mode = RUN_BENCH;
	fresh(&res, BACKEND_GPU);
	run_interpret(&req, &res, &worker, &checker, NULL, NULL);
	show(&res);

	/* a predicted bench's own word */
	fresh(&res, BACKEND_SIMT);
	run_interpret_alone(&res, &checker);
	run_result_free(&res);

	/* an attempt as stored */
	if (run_result_from_json(text, &res) == 0)
		for (size_t i = 0; i < res.n_cases; i++)
			free(run_case_errors(&res.cases[i]));
	run_result_free(&res);
	insights(text);
	free(text);
	return 0;
}
