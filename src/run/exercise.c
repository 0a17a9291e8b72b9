/* exercise.c — checking and timing an exercise: choose the backend, build
 * through the cache, run the harness under limits, record the attempt;
 * and the learner's copy of the starter. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/store.h"
#include "cudalab/util.h"

#define OUTPUT_CAP (1u << 20)

const char *run_mode_name(enum run_mode m)
{
	return m == RUN_BENCH ? "bench" : "check";
}

const char *run_status_name(enum run_status s)
{
	static const char *const names[] = {
		[RUN_PASS] = "pass",
		[RUN_WRONG] = "wrong",
		[RUN_COMPILE_ERROR] = "compile_error",
		[RUN_RUNTIME_ERROR] = "runtime_error",
		[RUN_TIMEOUT] = "timeout",
		[RUN_HAZARD] = "hazard",
	};

	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "runtime_error";
}

/* Emulation is far slower than a GPU, so simt gets more time. */
double run_default_timeout(enum run_mode m, enum run_backend b)
{
	if (b == BACKEND_SIMT)
		return m == RUN_BENCH ? 180 : 60;
	return m == RUN_BENCH ? 60 : 10;
}

static void result_init(struct run_result *res)
{
	memset(res, 0, sizeof *res);
	res->exit_code = -1;
	res->timing.median_ms = res->timing.min_ms = res->timing.mean_ms = NAN;
	res->timing.stdev_ms = res->timing.noise_pct = NAN;
	res->derived.gbps = res->derived.pct_peak_bw = NAN;
	res->derived.tflops = res->derived.peak_gbps = NAN;
}

void run_result_free(struct run_result *res)
{
	free(res->summary);
	free(res->source_hash);
	free(res->device);
	for (size_t i = 0; i < res->n_cases; i++) {
		free(res->cases[i].name);
		free(res->cases[i].status);
	}
	free(res->cases);
	free(res->mismatch.case_name);
	free(res->mismatch.expected);
	free(res->mismatch.got);
	free(res->mismatch.note);
	run_compile_errors_free(res->errors, res->n_errors);
	free(res->compile_log);
	free(res->out);
	free(res->err);
	free(res->json);
	free(res->error);
	free(res->not_recorded);
	for (size_t i = 0; i < res->n_hazards; i++)
		free(res->hazards[i]);
	free(res->hazards);
	free(res->nondeterminism);
	free(res->backend_note);
	run_prediction_free(res->prediction);
	free(res->prediction);
	result_init(res);
}

int run_gpus_needed(const struct run_request *req)
{
	return req->ex && req->ex->gpus > 1 ? req->ex->gpus : 1;
}

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

/* A fresh empty file in the cache for one of simt's reports (counters,
 * hazards), which it writes when the program exits. */
static char *report_file(const char *cache, const char *what)
{
	char *path = xasprintf("%s/%s-XXXXXX", cache, what);
	int fd = mkstemp(path);

	if (fd < 0) {
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

/* The harness's progress file, read while it runs: each new line it
 * holds ("case n=4096, seed 2", "timing n=4096") becomes the phase. */
struct progress_watch {
	const struct run_request *req;
	const char *path;
	char last[128];
};

static void progress_tick(void *ctx)
{
	struct progress_watch *w = ctx;
	char line[128] = "", phase[160];
	FILE *f = fopen(w->path, "r");

	if (!f)
		return;
	if (!fgets(line, sizeof line, f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (!line[0] || strcmp(line, w->last) == 0)
		return;
	snprintf(w->last, sizeof w->last, "%s", line);
	snprintf(phase, sizeof phase, "%s%s", str_starts(line, "timing") ? "" : "running ", line);
	run_phase(w->req, phase);
}

/* One run of the harness under simt schedule `schedule` (ignored on a
 * GPU); fills res from it. */
/* The environment that turns simt's time model on for req->predict: with
 * out, its per-launch report goes there; a predicted bench (the harness
 * at the GPU's sizes, lab.predicting()) runs without the checks, a check
 * with every block run.  Adds to env and entries (to free); returns how
 * many were added. */
static int predict_env(const struct run_request *req, const char *out, int bench,
		       const char **env, char **entries)
{
	int n = 0;

	env[n] = entries[n] = xasprintf("CUDALAB_SIMT_PREDICT=%s", req->predict);
	n++;
	{
		char *path = run_devices_path(req->content);

		env[n] = entries[n] = xasprintf("CUDALAB_SIMT_DEVICES=%s", path);
		n++;
		free(path);
	}
	if (out) {
		env[n] = entries[n] = xasprintf("CUDALAB_SIMT_PREDICT_OUT=%s", out);
		n++;
	}
	env[n++] = "CUDALAB_SIMT_PREDICT_QUIET=1";
	env[n++] = bench ? "CUDALAB_SIMT_CHECKS=0" : "CUDALAB_SIMT_PREDICT_BUDGET=0";
	return n;
}

/* One run of the harness under simt schedule `schedule` (ignored on a
 * GPU); fills res from it.  With req->predict on simt, the time model
 * predicts the run (predicted: this is a predicted bench), and
 * schedule 0's report lands in res->prediction. */
static int run_harness(const struct run_request *req, struct run_result *res, const char *prog,
		       const char *cache, unsigned sanitize, unsigned schedule, uint64_t budget,
		       int predicted)
{
	char seed[32], *counters = NULL, *hazards = NULL, *entries[12] = { NULL };
	char *predict_out = NULL;
	char *argv[] = { (char *)prog, "--mode", (char *)run_mode_name(req->mode), NULL, NULL,
			 NULL };
	const char *env[16] = { NULL };
	struct progress_watch watch = { req, NULL, "" };
	struct run_child c;
	int rc = 0, n = 0;

	if (req->seed >= 0) {
		snprintf(seed, sizeof seed, "%ld", req->seed);
		argv[3] = "--seed";
		argv[4] = seed;
	}
	if (res->backend == BACKEND_SIMT) {
		if ((counters = report_file(cache, "counters")))
			env[n++] = entries[0] = xasprintf("CUDALAB_SIMT_COUNTERS=%s", counters);
		if ((hazards = report_file(cache, "hazards")))
			env[n++] = entries[1] = xasprintf("CUDALAB_SIMT_HAZARDS=%s", hazards);
		env[n++] = entries[2] = xasprintf("CUDALAB_SIMT_SCHEDULE=%u", schedule);
		res->schedule = schedule;
		if (budget)
			env[n++] = entries[4] = xasprintf("CUDALAB_SIMT_MAX_INSTRUCTIONS=%llu",
							  (unsigned long long)budget);
		/* as many simulated devices as the exercise needs */
		env[n++] = entries[5] = xasprintf("CUDALAB_SIMT_GPUS=%d", run_gpus_needed(req));
		if (req->predict && (predicted || req->mode == RUN_CHECK)) {
			if (schedule == 0)
				predict_out = report_file(cache, "predictions");
			n += predict_env(req, predict_out, predicted, env + n, entries + 6);
		} else if (req->mode == RUN_CHECK && req->ex && req->ex->timeline) {
			/* the check reads simt's modelled timeline: the time
			 * model is on for the GPU the lessons' figures are for,
			 * its report unshown since no prediction was asked */
			struct run_request timed = *req;

			timed.predict = RUN_DEFAULT_DEVICE;
			n += predict_env(&timed, NULL, 0, env + n, entries + 6);
		} else {
			/* the learner's shell does not turn a check into a prediction */
			env[n++] = "CUDALAB_SIMT_PREDICT=";
		}
	}
	/* a sanitizer-built simt (make SANITIZE=...): the harness's own host
	 * allocations are no leak of simt's */
	if (res->backend == BACKEND_SIMT && (sanitize & RUN_SAN_ADDRESS) && !getenv("ASAN_OPTIONS"))
		env[n++] = "ASAN_OPTIONS=detect_leaks=0";
	if (req->progress && (watch.path = report_file(cache, "progress")))
		env[n++] = entries[3] = xasprintf("CUDALAB_PROGRESS=%s", watch.path);
	memset(&c, 0, sizeof c);
	c.argv = argv;
	c.env = env;
	if (watch.path) {
		c.tick = progress_tick;
		c.tick_ctx = &watch;
	}
	c.timeout_s = res->timeout_s;
	c.cap = OUTPUT_CAP;
	c.want_result = 1;
	c.cancel = req->cancel;
	run_phase(req, req->mode == RUN_BENCH ? "timing" : "running");
	if (run_child_exec(&c) != 0) {
		res->error = xasprintf("cannot run %s: %s", prog, strerror(errno));
		rc = -1;
	} else if (c.cancelled) {
		res->error = xstrdup("stopped before the program finished");
		rc = -1;
	} else {
		run_interpret(req, res, &c, counters, hazards);
		if (predict_out)
			run_prediction_attach(req, res, predict_out);
	}
	if (counters)
		unlink(counters);
	if (hazards)
		unlink(hazards);
	if (watch.path)
		unlink(watch.path);
	if (predict_out)
		unlink(predict_out);
	free(predict_out);
	free((char *)watch.path);
	run_child_free(&c);
	free(counters);
	free(hazards);
	for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
		free(entries[i]);
	return rc;
}

/* What the two runs' outputs differ in, when both passed (NULL when they
 * agree): the harness's per-case errors, or the program's output. */
static char *outputs_differ(const struct run_result *a, const struct run_result *b)
{
	if (a->n_cases != b->n_cases)
		return xasprintf("%zu cases under schedule %u, %zu under schedule %u", a->n_cases,
				 a->schedule, b->n_cases, b->schedule);
	for (size_t i = 0; i < a->n_cases; i++) {
		const struct run_case *x = &a->cases[i], *y = &b->cases[i];

		if (x->max_abs_err != y->max_abs_err &&
		    !(isnan(x->max_abs_err) && isnan(y->max_abs_err)))
			return xasprintf("case %s: max abs err %.3g under schedule %u, %.3g under "
					 "schedule %u: the order of the additions depends on the "
					 "order blocks and warps run (floating-point atomics or "
					 "a reduction whose order is not fixed)", x->name,
					 x->max_abs_err, a->schedule, y->max_abs_err, b->schedule);
	}
	if (strcmp(a->out ? a->out : "", b->out ? b->out : "") != 0)
		return xasprintf("the program printed something else under schedule %u than "
				 "under schedule %u", b->schedule, a->schedule);
	return NULL;
}

/* A check on simt runs under two schedules at once: schedule 0 and
 * schedule 1 (another block order, warp interleaving and time slice).
 * The second runs in a thread of its own, so a check costs about one
 * run's time where there are cores for both. */
struct sched_job {
	struct run_request req; /* the caller's, without progress or store */
	struct run_result res;
	const char *prog, *cache;
	unsigned sanitize;
	uint64_t budget;
	int rc;
};

static void *sched_run(void *arg)
{
	struct sched_job *j = arg;

	j->rc = run_harness(&j->req, &j->res, j->prog, j->cache, j->sanitize, 1, j->budget, 0);
	return NULL;
}

/* The verdict from both runs: when schedule 0 passed, a schedule-1
 * verdict that differs is the verdict, said to depend on the schedule;
 * two passes whose outputs differ are noted as nondeterminism. */
static void join_schedules(struct run_result *res, struct run_result *again)
{
	char *why;

	if (res->status != RUN_PASS) {
		run_result_free(again);
		return;
	}
	if (again->status == RUN_PASS) {
		res->nondeterminism = outputs_differ(res, again);
		if (res->nondeterminism)
			run_result_note(res, "nondeterminism", res->nondeterminism);
		run_result_free(again);
		return;
	}
	why = xasprintf("%s (under schedule 1; schedule 0 passed: the result depends on the "
			"order in which blocks and warps run)", again->summary);
	again->nondeterminism = xasprintf("passed under schedule 0, %s under schedule 1",
					  run_status_name(again->status));
	free(again->summary);
	again->summary = why;
	again->cached = res->cached;
	again->compile_s = res->compile_s;
	again->source_hash = res->source_hash;
	again->compile_log = res->compile_log;
	res->source_hash = res->compile_log = NULL;
	run_result_free(res);
	*res = *again;
	run_result_note(res, "summary", res->summary);
	run_result_note(res, "nondeterminism", res->nondeterminism);
}

static int check_two_schedules(const struct run_request *req, struct run_result *res,
			       const char *prog, const char *cache, unsigned sanitize,
			       uint64_t budget)
{
	struct sched_job j;
	pthread_t th;
	int rc, threaded;

	memset(&j, 0, sizeof j);
	j.req = *req;
	j.req.progress = NULL;
	j.req.st = NULL;
	j.prog = prog;
	j.cache = cache;
	j.sanitize = sanitize;
	j.budget = budget;
	result_init(&j.res);
	j.res.backend = res->backend;
	j.res.timeout_s = res->timeout_s;
	threaded = pthread_create(&th, NULL, sched_run, &j) == 0;
	rc = run_harness(req, res, prog, cache, sanitize, 0, budget, 0);
	if (threaded)
		pthread_join(th, NULL);
	else if (rc == 0 && res->status == RUN_PASS)
		sched_run(&j);
	if (rc != 0 || (j.rc != 0 && res->status == RUN_PASS)) {
		if (rc == 0) {
			res->error = j.res.error;
			j.res.error = NULL;
		}
		run_result_free(&j.res);
		return -1;
	}
	join_schedules(res, &j.res);
	return 0;
}

/* Keeps what the build put in res across a second run. */
static void result_reset_run(struct run_result *res)
{
	struct run_result keep = *res;

	res->source_hash = res->compile_log = NULL;
	run_result_free(res);
	res->backend = keep.backend;
	res->timeout_s = keep.timeout_s;
	res->cached = keep.cached;
	res->compile_s = keep.compile_s;
	res->source_hash = keep.source_hash;
	res->compile_log = keep.compile_log;
}

/* A check on simt, with a runaway launch stopped early: under the
 * reference's budget when it is known, else under the floor; a run that
 * goes past the floor has the reference measured and runs again under
 * its budget, when that is larger. */
static int check_on_simt(const struct run_request *req, struct run_result *res,
			 const struct run_build *b, const struct run_probe *probe, const char *cache)
{
	uint64_t budget = run_runaway_floor(), reference = 0;
	int known;

	if (getenv("CUDALAB_SIMT_MAX_INSTRUCTIONS")) /* the learner's own limit */
		return check_two_schedules(req, res, b->prog, cache, probe->simt_sanitize, 0);
	known = run_runaway_budget(req, probe, cache, b->include, 0, &budget, &reference) == 0;

	if (check_two_schedules(req, res, b->prog, cache, probe->simt_sanitize, budget) != 0)
		return -1;
	if (!known && run_runaway_stopped(res)) {
		uint64_t measured = 0;

		known = run_runaway_budget(req, probe, cache, b->include, 1, &measured,
					   &reference) == 0;
		if (req->cancel && *req->cancel)
			return -1;
		if (!known || measured > budget) {
			/* not known: the wall clock is the only limit left */
			budget = known ? measured : 0;
			result_reset_run(res);
			run_phase(req, "running again under the reference's budget");
			if (check_two_schedules(req, res, b->prog, cache, probe->simt_sanitize,
						budget) != 0)
				return -1;
		}
	}
	if (budget && run_runaway_stopped(res))
		run_runaway_verdict(res, budget, reference);
	return 0;
}

/* A passed bench on simt runs once more, at the GPU's sizes with the
 * time model on: what lab.time measures there is the predicted time. */
static int predict_bench(const struct run_request *req, struct run_result *res,
			 const char *prog, const char *cache, unsigned sanitize)
{
	struct run_result p;
	struct run_request quiet = *req;

	result_init(&p);
	p.backend = BACKEND_SIMT;
	p.timeout_s = req->timeout_s > 0 ? req->timeout_s
					 : run_default_timeout(RUN_BENCH, BACKEND_SIMT);
	quiet.progress = NULL;
	run_phase(req, "predicting the time on a GPU");
	if (run_harness(&quiet, &p, prog, cache, sanitize, 0, 0, 1) != 0) {
		res->error = p.error;
		p.error = NULL;
		run_result_free(&p);
		return -1;
	}
	run_prediction_take(req, res, &p);
	run_result_free(&p);
	return 0;
}

/* A passed bench on a GPU: simt's prediction for the same GPU beside the
 * measurement, so that the model is checked where it is used.  The
 * device file is the one whose name matches the GPU's, whatever req
 * names: only that comparison means anything. */
static int predict_beside_gpu(const struct run_request *req, struct run_result *res,
			      const struct run_build *gpu_build, const char *cache)
{
	const struct run_probe *probe = gpu_build->probe;
	struct run_request same = *req;
	struct run_build b = *gpu_build;
	char *id = run_device_match(req->content, probe->gpu_name);
	const char *why = NULL;
	int rc = 0;

	if (!id)
		why = "no device file models this GPU (devices/FORMAT.md says how to add one)";
	else if (!probe->simt_lib)
		why = "the simt library is not installed";
	same.predict = id ? id : req->predict;
	if (why) {
		run_prediction_fail(&same, res, why);
		free(id);
		return 0;
	}
	same.predict = id;
	b.backend = BACKEND_SIMT;
	b.prog = b.log = b.source_hash = b.error = NULL;
	b.failed = b.cached = 0;
	run_phase(req, "building for simt's time model");
	if (run_build_exercise(&b) != 0 || b.failed) {
		char *w = xasprintf("it does not build against simt%s%s", b.error ? ": " : "",
				    b.error ? b.error : "");

		run_prediction_fail(&same, res, w);
		free(w);
	} else {
		rc = predict_bench(&same, res, b.prog, cache, probe->simt_sanitize);
	}
	run_build_free(&b);
	free(id);
	return rc;
}

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

int run_exercise(const struct run_request *req, struct run_result *res)
{
	struct run_probe probe;
	struct run_build b;
	char *cache = path_join(req->home, "cache"), *harness = NULL;
	int rc = -1;

	result_init(res);
	if (req->backend == BACKEND_SSH || req->backend == BACKEND_SLURM) {
		free(cache);
		if (!req->remote) {
			res->error = xstrdup("no remote given");
			return -1;
		}
		if (run_remote_exercise(req, res) != 0 || cancelled(req, res))
			return -1;
		run_record(req, res);
		return 0;
	}
	memset(&b, 0, sizeof b);
	if (choose_backend(req, res, &probe, cache) != 0)
		goto done;
	res->timeout_s = req->timeout_s > 0 ? req->timeout_s
					    : run_default_timeout(req->mode, res->backend);
	harness = path_join(req->ex->dir, "harness.cu");
	b.probe = &probe;
	b.backend = res->backend;
	b.cache = cache;
	b.harness = harness;
	b.source = req->source;
	b.ex_dir = req->ex->dir;
	b.include = run_find_include(req->content);
	b.req = req;
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
	b.source_hash = b.log = NULL;
	if (b.failed) {
		char *text = read_file(harness, NULL);

		res->n_errors = run_log_errors(res->compile_log, &res->errors);
		run_log_missing(res->errors, res->n_errors, text);
		free(text);
		run_interpret_compile(req, res);
	} else if (res->backend == BACKEND_SIMT && req->mode == RUN_CHECK) {
		if (check_on_simt(req, res, &b, &probe, cache) != 0)
			goto done;
	} else if (run_harness(req, res, b.prog, cache, probe.simt_sanitize, 0, 0, 0) != 0) {
		goto done;
	} else if (res->backend == BACKEND_SIMT && req->predict && res->status == RUN_PASS &&
		   predict_bench(req, res, b.prog, cache, probe.simt_sanitize) != 0) {
		goto done;
	} else if (res->backend == BACKEND_GPU && req->predict && req->mode == RUN_BENCH &&
		   res->status == RUN_PASS && predict_beside_gpu(req, res, &b, cache) != 0) {
		goto done;
	}
	if (cancelled(req, res))
		goto done;
	if (res->backend_note)
		run_result_note(res, "backend_note", res->backend_note);
	run_record(req, res);
	rc = 0;
done:
	free((char *)b.include);
	run_build_free(&b);
	run_probe_free(&probe);
	free(harness);
	free(cache);
	return rc;
}

/* Copies src to dst (created 0644, or replaced) through a temporary file
 * renamed into place. */
static int copy_file(const char *src, const char *dst)
{
	size_t len;
	char *text = read_file(src, &len), *tmp;
	FILE *f;
	int ok, err;

	if (!text)
		return -1;
	tmp = xasprintf("%s.tmp-%ld", dst, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		err = errno;
		free(text);
		free(tmp);
		errno = err;
		return -1;
	}
	ok = fwrite(text, 1, len, f) == len;
	ok = fclose(f) == 0 && ok;
	ok = ok && rename(tmp, dst) == 0;
	err = errno;
	if (!ok)
		unlink(tmp);
	free(text);
	free(tmp);
	errno = err;
	return ok ? 0 : -1;
}

static char *work_path(const char *home, const struct exercise *ex, char **dir)
{
	*dir = xasprintf("%s/work/%s", home, ex->id);
	return path_join(*dir, "kernel.cu");
}

int run_work_copy(const char *home, const struct exercise *ex, char **path, int *created)
{
	char *dir, *starter;
	int rc = 0;

	*created = 0;
	*path = work_path(home, ex, &dir);
	if (access(*path, F_OK) == 0)
		goto done;
	starter = path_join(ex->dir, "kernel.cu");
	rc = mkdir_p(dir, 0700) == 0 ? copy_file(starter, *path) : -1;
	free(starter);
	*created = rc == 0;
done:
	free(dir);
	if (rc != 0) {
		int err = errno;

		free(*path);
		*path = NULL;
		errno = err;
	}
	return rc;
}

int run_work_reset(const char *home, const struct exercise *ex, char **path, char **bak)
{
	char *dir, *starter = path_join(ex->dir, "kernel.cu");
	int rc = -1, err;

	*bak = NULL;
	*path = work_path(home, ex, &dir);
	if (access(starter, R_OK) != 0 || mkdir_p(dir, 0700) != 0)
		goto done;
	if (access(*path, F_OK) == 0) {
		*bak = xasprintf("%s.bak", *path);
		if (copy_file(*path, *bak) != 0)
			goto done;
	}
	rc = copy_file(starter, *path);
done:
	err = errno;
	if (rc != 0) {
		free(*path);
		free(*bak);
		*path = *bak = NULL;
	}
	free(dir);
	free(starter);
	errno = err;
	return rc;
}
