/* fuzz_result.c — what a learner's program writes on the result pipe, and
 * what simt's report files hold: run_interpret with the input as the
 * harness's result (keyed and not, on simt with the input as the counters
 * and hazards files too, and on a GPU), then run_insights on the result
 * JSON; run_result_from_json and run_insights on the input itself. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/run.h"
#include "cudalab/util.h"
#include "../../src/run/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define KEY "0123456789abcdef0123456789abcdef"

static char *report_path;

static void remove_report(void)
{
	unlink(report_path);
	free(report_path);
}

static const char *report_file(void)
{
	if (!report_path) {
		const char *tmp = getenv("TMPDIR");
		int fd;

		report_path = xasprintf("%s/cudalab-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		fd = mkstemp(report_path);
		if (fd < 0) {
			perror(report_path);
			abort();
		}
		close(fd);
		atexit(remove_report);
	}
	return report_path;
}

/* As run_exercise starts a result: nothing reported yet. */
static void fresh(struct run_result *res, enum run_backend b)
{
	memset(res, 0, sizeof *res);
	res->exit_code = -1;
	res->timing.median_ms = res->timing.min_ms = res->timing.mean_ms = NAN;
	res->timing.stdev_ms = res->timing.noise_pct = NAN;
	res->derived.gbps = res->derived.pct_peak_bw = NAN;
	res->derived.tflops = res->derived.peak_gbps = NAN;
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
	struct run_child c;
	struct run_result res;
	char *text = xstrndup((const char *)data, size);
	size_t len = strlen(text);
	FILE *f;

	/* on simt, exit 0, keyed; simt's reports are the same bytes */
	f = fopen(report_file(), "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	memset(&c, 0, sizeof c);
	c.result = text;
	c.result_len = len;
	c.out = "some output\n";
	c.err = "a line on stderr\n";
	c.status = 0;
	memcpy(c.key, KEY, sizeof KEY);
	fresh(&res, BACKEND_SIMT);
	run_interpret(&req, &res, &c, report_path, report_path);
	show(&res);

	/* on a GPU, a bench, no key asked for, exit code 1 */
	memset(c.key, 0, sizeof c.key);
	c.status = 1 << 8;
	req.mode = RUN_BENCH;
	fresh(&res, BACKEND_GPU);
	run_interpret(&req, &res, &c, NULL, NULL);
	show(&res);

	/* an attempt as stored */
	if (run_result_from_json(text, &res) == 0)
		for (size_t i = 0; i < res.n_cases; i++)
			free(run_case_errors(&res.cases[i]));
	run_result_free(&res);
	insights(text);
	free(text);
	return 0;
}
