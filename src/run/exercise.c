/* exercise.c — a check as one pipeline: request -> build -> judge ->
 * record.  The request names the exercise and the learner's file; the
 * build stage (build.c) makes the worker (the harness with the learner's
 * file) and the checker (the harness with the reference solution); the
 * judge stage (judge.c) runs them and comes to the verdict; the record
 * stage (record.c) keeps the attempt.  A remote backend (remote.c) is the
 * transport of the same pipeline: the request goes to the far side, which
 * builds and judges there (serve.c), and the verdict comes back to be
 * recorded here. */
#include "build.h"
#include "judge.h"
#include "predict.h"
#include "remote.h"
#include "result.h"
#include "sandbox.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/util.h"

/* Resolves the backend and checks that it can work here, with as many
 * GPUs as the exercise needs. */
static int choose_backend(const struct run_request *req, struct run_result *res,
			  struct run_probe *probe, const char *cache)
{
	run_probe_cached(probe, cache);
	if (run_backend_for(probe, req->backend, run_gpus_needed(req), &res->backend,
			    &res->error, &res->backend_note) != 0)
		return -1;
	if (res->backend_note)
		run_phase(req, res->backend_note);
	return run_backend_ready(probe, res->backend, &res->error);
}

/* Whether the caller asked the check to stop.  A stopped build fails and
 * a stopped run ends early, and neither says anything about the learner's
 * code: every phase ends the check with -1 and records nothing then. */
static int cancelled(const struct run_request *req, struct run_result *res)
{
	if (!req->cancel || !*req->cancel)
		return 0;
	free(res->error);
	res->error = xstrdup("cancelled");
	return 1;
}

/* The checker's program: the harness with the exercise's reference
 * solution, built like any program (and cached once per exercise).
 * Returns 0 with *prog set, or -1 with res->error: an exercise whose
 * checker cannot be built cannot judge anything. */
static int build_checker(const struct run_build *learner, struct run_result *res, char **prog)
{
	struct run_build c = *learner;
	char *solution = path_join(learner->ex_dir, "solution.cu");
	int rc = -1;

	c.source = solution;
	if (access(solution, R_OK) != 0) {
		res->error = xasprintf("cannot judge: %s is missing (the checker is built from the "
				       "exercise's reference solution)", solution);
	} else if (run_build_exercise(&c) != 0) {
		res->error = c.error;
		c.error = NULL;
	} else if (c.failed) {
		char *last = run_last_line(c.log);

		res->error = xasprintf("cannot judge: the checker (the harness with %s) does not "
				       "build%s%s", solution, last ? ": " : "", last ? last : "");
		free(last);
	} else {
		*prog = c.prog;
		c.prog = NULL;
		rc = 0;
	}
	run_build_free(&c);
	free(solution);
	return rc;
}

/* The build of the learner's file for a request, for backend. */
static void learner_build(struct run_build *b, const struct run_request *req,
			  const struct run_probe *probe, enum run_backend backend,
			  const char *cache, const char *harness)
{
	memset(b, 0, sizeof *b);
	b->probe = probe;
	b->backend = backend;
	b->cache = cache;
	b->harness = harness;
	b->source = req->source;
	b->ex_dir = req->ex->dir;
	b->include = run_find_include(req->content);
	b->req = req;
}

/* A passed bench on a GPU, here or remote: simt's prediction for the
 * same GPU beside the measurement, so that the model is checked where it
 * is used.  The device file is the one whose name matches the GPU's
 * (gpu_name, as the GPU reported it), whatever req names: only that
 * comparison means anything.  The learner's file is built here for simt
 * and run_judge_predict runs it, in the check's sandbox.  Returns -1
 * with res->error when that program could not run at all; a prediction
 * that cannot be made is a reason in res->prediction. */
static int predict_beside_gpu(const struct run_request *req, struct run_result *res,
			      const char *gpu_name)
{
	struct run_request same = *req;
	struct run_probe probe;
	struct run_build b;
	struct run_judge j;
	struct run_sandbox sb;
	struct run_sandbox_paths paths = { { NULL }, { NULL }, { NULL }, { NULL } };
	char *cache = path_join(req->home, "cache"), *harness = NULL;
	char *id = run_device_match(req->content, gpu_name);
	const char *why = NULL;
	int rc = 0;

	memset(&b, 0, sizeof b);
	run_probe_cached(&probe, cache);
	if (!id)
		why = gpu_name ? "no device file models this GPU (devices/FORMAT.md says how to add one)"
			       : "the GPU did not say its name";
	else if (!probe.simt_lib)
		why = "the simt library is not installed here";
	else if (!probe.nvcc)
		why = "nvcc is not installed here, so the program cannot be built for simt";
	same.predict = id ? id : req->predict;
	if (why) {
		/* no device file: the GPU is named as it named itself */
		run_prediction_fail_for(&same, res, id ? NULL : gpu_name, why);
		goto done;
	}
	harness = path_join(req->ex->dir, "harness.cu");
	learner_build(&b, req, &probe, BACKEND_SIMT, cache, harness);
	run_phase(req, "building for simt's time model");
	if (run_build_exercise(&b) != 0 || b.failed) {
		char *w = xasprintf("it does not build against simt%s%s", b.error ? ": " : "",
				    b.error ? b.error : "");

		run_prediction_fail(&same, res, w);
		free(w);
		goto done;
	}
	run_sandbox_for_check(&sb, &paths, req->ex->dir, req->home, req->content, b.include,
			      b.prog);
	memset(&j, 0, sizeof j);
	j.req = &same;
	j.worker = b.prog;
	j.cache = cache;
	j.include = b.include;
	j.probe = &probe;
	j.sandbox = &sb;
	rc = run_judge_predict(&j, res);
done:
	run_sandbox_paths_free(&paths);
	free((char *)b.include);
	run_build_free(&b);
	run_probe_free(&probe);
	free(harness);
	free(cache);
	free(id);
	return rc;
}

/* Whether a finished run is a passed bench on a GPU that asked for the
 * model beside it. */
static int wants_prediction_beside(const struct run_request *req, const struct run_result *res)
{
	return req->predict && req->mode == RUN_BENCH && res->status == RUN_PASS;
}

/* The request over a remote backend: the far side builds and judges,
 * the verdict is recorded here, with simt's prediction for the far
 * side's GPU beside a passed bench that asked for one. */
static int over_remote(const struct run_request *req, struct run_result *res)
{
	if (!req->remote) {
		res->error = xstrdup("no remote given");
		return -1;
	}
	if (run_remote_exercise(req, res) != 0 || cancelled(req, res))
		return -1;
	if (wants_prediction_beside(req, res) &&
	    (predict_beside_gpu(req, res, res->device) != 0 || cancelled(req, res)))
		return -1;
	run_record(req, res);
	return 0;
}

/* The build stage's verdict, when it has one: a compile error. */
static void compile_verdict(const struct run_build *b, struct run_result *res,
			    const struct run_request *req)
{
	const char *names[] = { b->source, b->harness };
	char *text = read_file(b->harness, NULL);

	res->n_errors = run_log_errors_named(res->compile_log, names, 2, &res->errors);
	run_log_missing(res->errors, res->n_errors, text);
	free(text);
	run_interpret_compile(req, res);
}

int run_exercise(const struct run_request *req, struct run_result *res)
{
	struct run_probe probe;
	struct run_build b;
	struct run_judge j;
	struct run_sandbox sb;
	struct run_sandbox_paths paths = { { NULL }, { NULL }, { NULL }, { NULL } };
	char *cache = path_join(req->home, "cache"), *harness = NULL, *checker = NULL;
	int rc = -1;

	run_result_init(res);
	if (req->backend == BACKEND_SSH || req->backend == BACKEND_SLURM) {
		free(cache);
		return over_remote(req, res);
	}
	memset(&b, 0, sizeof b);
	if (choose_backend(req, res, &probe, cache) != 0)
		goto done;
	res->timeout_s = req->timeout_s > 0 ? req->timeout_s
					    : run_default_timeout(req->mode, res->backend);
	harness = path_join(req->ex->dir, "harness.cu");
	learner_build(&b, req, &probe, res->backend, cache, harness);
	/* build */
	if (run_build_exercise(&b) != 0) {
		res->error = b.error;
		b.error = NULL;
		goto done;
	}
	if (cancelled(req, res))
		goto done;
	res->cached = b.cached;
	res->compile_s = b.seconds;
	res->source_hash = b.source_hash;
	res->compile_log = b.log;
	res->build_note = b.note;
	b.source_hash = b.log = b.note = NULL;
	if (b.failed) {
		compile_verdict(&b, res, req);
	} else {
		/* judge */
		if (build_checker(&b, res, &checker) != 0 || cancelled(req, res))
			goto done;
		run_sandbox_for_check(&sb, &paths, req->ex->dir, req->home, req->content, b.include,
				      b.prog);
		memset(&j, 0, sizeof j);
		j.req = req;
		j.checker = checker;
		j.worker = b.prog;
		j.cache = cache;
		j.include = b.include;
		j.probe = &probe;
		j.sandbox = &sb;
		if (run_judge(&j, res) != 0)
			goto done;
		if (res->backend == BACKEND_GPU && wants_prediction_beside(req, res) &&
		    predict_beside_gpu(req, res, res->device ? res->device : probe.gpu_name) != 0)
			goto done;
	}
	if (cancelled(req, res))
		goto done;
	if (res->backend_note)
		run_result_note(res, "backend_note", res->backend_note);
	/* record */
	run_record(req, res);
	rc = 0;
done:
	run_sandbox_paths_free(&paths);
	free((char *)b.include);
	run_build_free(&b);
	run_probe_free(&probe);
	free(checker);
	free(harness);
	free(cache);
	return rc;
}
