/* test_verdict.c — how run_interpret weighs simt's hazard reports: any
 * report turns a pass or a wrong answer into a hazard, with the first
 * report as its summary; a crash, an error or a timeout keeps its own
 * status with the reports beside it; a GPU run never reads them.  The
 * checker's results and the hazard reports are written here by hand, in
 * the shapes lab.h and simt write. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/content.h"
#include "cudalab/run.h"
#include "cudalab/util.h"
#include "../../src/run/result.h"

#define RACE "race: shared write at k.cu:7 and shared read at k.cu:9"
#define UNINIT "uninitialized: global read of 4 bytes at k.cu:3"

/* Interprets a run on `backend` whose checker wrote `result` and whose
 * worker exited with `code` (or timed out), with `hazards` as simt's
 * report. */
static void interpret(struct run_result *res, enum run_backend backend, const char *result,
		      int code, int timed_out, const char *hazards)
{
	static struct exercise ex = { .id = "x" };
	struct run_request req = { .ex = &ex, .mode = RUN_CHECK };
	struct run_child checker, worker;
	char *text = xasprintf("%s", result);

	memset(&checker, 0, sizeof checker);
	memset(&worker, 0, sizeof worker);
	checker.result = text;
	checker.result_len = strlen(text);
	worker.out = "";
	worker.err = "a line on stderr\n";
	worker.status = code << 8;
	worker.timed_out = timed_out;
	run_result_init(res);
	res->backend = backend;
	res->timeout_s = 10;
	run_interpret(&req, res, &worker, &checker, NULL, hazards);
	free(text);
}

static const char one_race[] =
	"{\"total\":1,\"checks\":true,\"hazards\":[{\"kind\":\"race\",\"message\":\"" RACE
	"\",\"count\":3}]}";
static const char two_kinds[] =
	"{\"total\":2,\"checks\":true,\"hazards\":[{\"kind\":\"race\",\"message\":\"" RACE
	"\",\"count\":1},{\"kind\":\"uninitialized\",\"message\":\"" UNINIT "\",\"count\":1}]}";
static const char none[] = "{\"total\":0,\"checks\":true,\"hazards\":[]}";
static const char none_unchecked[] = "{\"total\":0,\"checks\":false,\"hazards\":[]}";

Test(verdict, a_wrong_answer_with_a_race_is_a_hazard)
{
	struct run_result res;

	interpret(&res, BACKEND_SIMT, "{\"status\":\"wrong\"}", 0, 0,
		  one_race);
	cr_expect_eq(res.status, RUN_HAZARD, "status %s", run_status_name(res.status));
	cr_expect_str_eq(res.summary, "hazard: " RACE);
	cr_assert_eq(res.n_hazards, 1);
	cr_expect_str_eq(res.hazards[0], RACE " (3 times)");
	cr_expect_eq(res.hazard_total, 1);
	cr_expect(strstr(res.json, "\"status\":\"hazard\"") != NULL, "%s", res.json);
	run_result_free(&res);
}

Test(verdict, a_pass_with_two_reports_is_a_hazard_naming_the_first)
{
	struct run_result res;

	interpret(&res, BACKEND_SIMT, "{\"status\":\"pass\"}", 0, 0,
		  two_kinds);
	cr_expect_eq(res.status, RUN_HAZARD, "status %s", run_status_name(res.status));
	cr_expect_str_eq(res.summary, "hazard: " RACE " (and 1 more)");
	cr_assert_eq(res.n_hazards, 2);
	cr_expect_str_eq(res.hazards[1], UNINIT);
	run_result_free(&res);
}

Test(verdict, no_report_leaves_the_verdict_alone)
{
	struct run_result res;

	interpret(&res, BACKEND_SIMT, "{\"status\":\"wrong\"}", 0, 0,
		  none);
	cr_expect_eq(res.status, RUN_WRONG, "status %s", run_status_name(res.status));
	cr_expect_str_eq(res.summary, "wrong answer");
	cr_expect_eq(res.n_hazards, 0);
	run_result_free(&res);
	interpret(&res, BACKEND_SIMT, "{\"status\":\"pass\"}", 0, 0,
		  none);
	cr_expect_eq(res.status, RUN_PASS, "status %s", run_status_name(res.status));
	run_result_free(&res);
}

Test(verdict, an_error_or_a_timeout_keeps_its_status_beside_the_reports)
{
	struct run_result res;

	interpret(&res, BACKEND_SIMT,
		  "{\"status\":\"runtime_error\","
		  "\"error\":{\"message\":\"cudaErrorIllegalAddress\"}}",
		  2, 0, one_race);
	cr_expect_eq(res.status, RUN_RUNTIME_ERROR, "status %s", run_status_name(res.status));
	cr_expect(strncmp(res.summary, "runtime error: ", 15) == 0, "%s", res.summary);
	cr_expect_eq(res.n_hazards, 1);
	run_result_free(&res);
	interpret(&res, BACKEND_SIMT, "{\"status\":\"pass\"}", 0, 1,
		  one_race);
	cr_expect_eq(res.status, RUN_TIMEOUT, "status %s", run_status_name(res.status));
	cr_expect_eq(res.n_hazards, 1);
	run_result_free(&res);
}

Test(verdict, a_gpu_run_reads_no_hazards_file)
{
	struct run_result res;

	interpret(&res, BACKEND_GPU, "{\"status\":\"wrong\"}", 0, 0,
		  one_race);
	cr_expect_eq(res.status, RUN_WRONG, "status %s", run_status_name(res.status));
	cr_expect_eq(res.n_hazards, 0);
	run_result_free(&res);
}

/* A program that reports a pass and then exits with an error has not
 * passed: whatever failed after the report (a leak check, a destructor, a
 * stray cudaError) counts. */
Test(verdict, a_pass_followed_by_an_error_exit_is_a_runtime_error)
{
	struct run_result res;

	interpret(&res, BACKEND_GPU, "{\"status\":\"pass\"}", 3, 0, NULL);
	cr_expect_eq(res.status, RUN_RUNTIME_ERROR, "status %s", run_status_name(res.status));
	cr_expect(str_starts(res.summary, "runtime error: every output was right, but the program "
				       "then ended badly: exit code 3"), "%s", res.summary);
	run_result_free(&res);
	interpret(&res, BACKEND_GPU, "{\"status\":\"pass\"}", 0, 0, NULL);
	cr_expect_eq(res.status, RUN_PASS, "status %s", run_status_name(res.status));
	run_result_free(&res);
}

/* A pass on simt stands only on a report written with the checks on: no
 * report at all (a program that kept simt from writing it), or one from a
 * run with the checks off, is a runtime error. */
Test(verdict, a_pass_without_a_report_with_the_checks_on_is_a_runtime_error)
{
	struct run_result res;

	interpret(&res, BACKEND_SIMT, "{\"status\":\"pass\"}", 0, 0, NULL);
	cr_expect_eq(res.status, RUN_RUNTIME_ERROR, "status %s", run_status_name(res.status));
	cr_expect(strstr(res.summary, "hazard report is missing") != NULL, "%s", res.summary);
	run_result_free(&res);
	interpret(&res, BACKEND_SIMT, "{\"status\":\"pass\"}", 0, 0, none_unchecked);
	cr_expect_eq(res.status, RUN_RUNTIME_ERROR, "status %s", run_status_name(res.status));
	cr_expect(strstr(res.summary, "checks were off") != NULL, "%s", res.summary);
	run_result_free(&res);
}
