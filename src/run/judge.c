/* judge.c — the judge stage of a check: each run is two programs, the
 * checker (the harness with the reference solution, which computes the
 * expected outputs and runs none of the learner's code) and the worker
 * (the harness with the learner's file, in a sandbox), connected by a
 * socket the runner made (include/cudalab/lab/judge.h).  Only the
 * checker can write the result, to a pipe only the runner reads; the
 * worker's own account of itself (its output, its exit) only explains a
 * failure.  On simt the worker's hazard report comes through a memory
 * file the runner made and reads back: a report that is missing, or
 * written with the checks off, is no clean one.
 *
 * On simt a check runs under two schedules at once, each a checker and a
 * worker, under the runaway budget (runaway.c). */
#include "judge.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/util.h"
#include "predict.h"
#include "result.h"
#include "runaway.h"

#define OUTPUT_CAP (1u << 20)
#define CHECKER_CAP (64u << 10)
#define REPORT_CAP (16u << 20)
/* A checker waits on its worker; it gets a little longer, so that the
 * worker's deadline is the one a slow program meets. */
#define CHECKER_EXTRA_S 5.0
/* The checker's exit status for a run ahead that ended void (kVoidRun in
 * include/cudalab/lab/judge.h). */
#define VOID_RUN 3

/* A fresh empty file in the cache (the checker's progress). */
static char *cache_file(const char *cache, const char *what)
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

/* A file in memory for one of simt's reports, which the worker opens as
 * /dev/fd/N: nothing of it lies in the file system for a program to
 * replace, and what it holds after the run is what simt wrote (or not). */
struct report {
	int fd;    /* the runner's */
	int child; /* the worker's copy, handed over */
	char *entry;
};

static void report_open(struct report *r, const char *var, const char *name)
{
	r->fd = (int)memfd_create(name, MFD_CLOEXEC);
	r->child = r->fd >= 0 ? fcntl(r->fd, F_DUPFD_CLOEXEC, 3) : -1;
	r->entry = r->child >= 0 ? xasprintf("%s=/dev/fd/%d", var, r->child) : NULL;
}

/* What the report holds, NULL when it is empty. */
static char *report_text(const struct report *r)
{
	struct strbuf sb;
	char buf[65536];
	ssize_t n;
	off_t at = 0;

	if (r->fd < 0)
		return NULL;
	sb_init(&sb);
	while ((n = pread(r->fd, buf, sizeof buf, at)) > 0 && sb.len < REPORT_CAP) {
		sb_append(&sb, buf, (size_t)n);
		at += n;
	}
	if (!sb.len) {
		sb_free(&sb);
		return NULL;
	}
	return sb_steal(&sb);
}

static void report_close(struct report *r)
{
	if (r->fd >= 0)
		close(r->fd);
	free(r->entry);
}

/* The checker's progress file, read while it runs: each new line it
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

/* The most workers one checker serves: one per schedule. */
#define MAX_WORKERS 2

/* The environment entries of one run: the checker's and each worker's,
 * each set explicitly over cudalab's own minus every CUDALAB_* (what a
 * learner set in the shell, CUDALAB_SIMT_CHECKS=0 among it, does not
 * reach a check). */
struct envs {
	const char *checker[16], *worker[MAX_WORKERS][24];
	char *own[48];
	size_t n_own;
};

static const char *own(struct envs *e, char *entry)
{
	e->own[e->n_own++] = entry;
	return entry;
}

/* simt's settings a learner may choose for a check too: how many host
 * threads run blocks, which GPU's properties it reports, how long NCCL
 * waits; each goes to every program as it is set here. */
static const char *const simt_settings[] = { "CUDALAB_SIMT_THREADS", "CUDALAB_SIMT_DEVICE",
					     "CUDALAB_SIMT_NCCL_TIMEOUT" };

/* What every program of a run on simt gets (added to env at *n): as many
 * simulated devices as the exercise needs, the learner's choice of
 * simt_settings, and for a sanitizer-built simt (make SANITIZE=...) no
 * leak report (the harness's own host allocations are no leak of simt's,
 * and LeakSanitizer's ptrace is not the program's to use). */
static void simt_common(struct envs *e, const struct run_judge *j, const char **env, int *n)
{
	env[(*n)++] = own(e, xasprintf("CUDALAB_SIMT_GPUS=%d", run_gpus_needed(j->req)));
	for (size_t i = 0; i < sizeof simt_settings / sizeof simt_settings[0]; i++) {
		const char *v = getenv(simt_settings[i]);

		if (v)
			env[(*n)++] = own(e, xasprintf("%s=%s", simt_settings[i], v));
	}
	if (j->probe->simt_sanitize & RUN_SAN_ADDRESS) {
		const char *a = getenv("ASAN_OPTIONS");

		env[(*n)++] = own(e, xasprintf("ASAN_OPTIONS=%s%sdetect_leaks=0", a ? a : "",
					       a ? ":" : ""));
	}
}

/* A worker's settings of simt's time model for req->predict (predict.c):
 * predictions for that GPU, their report in out when it is open; a
 * predicted bench (bench) runs without the checks, a check's worker with
 * every block run.  Without req->predict the model stays off whatever
 * the shell says. */
static void predict_env(struct envs *e, const struct run_request *req, const struct report *out,
			int bench, const char **env, int *n)
{
	char *devices;

	if (!req->predict || (!bench && req->mode != RUN_CHECK)) {
		env[(*n)++] = "CUDALAB_SIMT_PREDICT=";
		return;
	}
	devices = run_devices_path(req->content);
	env[(*n)++] = own(e, xasprintf("CUDALAB_SIMT_PREDICT=%s", req->predict));
	env[(*n)++] = own(e, xasprintf("CUDALAB_SIMT_DEVICES=%s", devices));
	if (out && out->entry)
		env[(*n)++] = out->entry;
	env[(*n)++] = "CUDALAB_SIMT_PREDICT_QUIET=1";
	env[(*n)++] = bench ? "CUDALAB_SIMT_CHECKS=0" : "CUDALAB_SIMT_PREDICT_BUDGET=0";
	free(devices);
}

/* req as the time model sees it: a check of an exercise that reads
 * simt's modelled timeline ("timeline: true") that asked for no
 * prediction models the GPU the lessons' figures are for, its report
 * unshown.  The checker then runs under the same model as its workers:
 * its harness takes the same steps (what it names its cases by). */
static struct run_request timed_request(const struct run_request *req)
{
	struct run_request timed = *req;

	if (!req->predict && req->mode == RUN_CHECK && req->ex && req->ex->timeline)
		timed.predict = RUN_DEFAULT_DEVICE;
	return timed;
}

/* The report's path for reading it back here (predict.c reads files). */
static char *report_path(const struct report *r)
{
	return r->fd >= 0 ? xasprintf("/dev/fd/%d", r->fd) : NULL;
}

static void envs_free(struct envs *e)
{
	for (size_t i = 0; i < e->n_own; i++)
		free(e->own[i]);
}

/* One worker of a run and what it alone holds: its end of the channel,
 * simt's reports, its environment. */
struct worker {
	char *argv[6];
	int give[4], n_give, n_env;
	struct report hz, ct, pr;
};

/* Sets up worker k (schedule k on simt): its channel's end is chan, its
 * reports are opened, its environment filled. */
static void worker_setup(struct worker *w, struct envs *e, const struct run_judge *j,
			 const struct run_result *res, size_t k, int chan, uint64_t budget,
			 int ahead)
{
	const struct run_request *req = j->req;
	const struct run_request timed = timed_request(req);
	const char **env = e->worker[k];
	int n = 0;

	w->hz = w->ct = w->pr = (struct report){ -1, -1, NULL };
	w->argv[0] = (char *)j->worker;
	w->n_give = 0;
	w->give[w->n_give++] = chan;
	env[n++] = own(e, xasprintf("CUDALAB_JUDGE=worker%s %d", ahead ? "-ahead" : "", chan));
	if (res->backend == BACKEND_SIMT) {
		report_open(&w->hz, "CUDALAB_SIMT_HAZARDS", "cudalab-hazards");
		report_open(&w->ct, "CUDALAB_SIMT_COUNTERS", "cudalab-counters");
		if (w->hz.entry) {
			w->give[w->n_give++] = w->hz.child;
			env[n++] = w->hz.entry;
		}
		if (w->ct.entry) {
			w->give[w->n_give++] = w->ct.child;
			env[n++] = w->ct.entry;
		}
		/* a check's predictions come from schedule 0's worker */
		if (req->predict && req->mode == RUN_CHECK && k == 0) {
			report_open(&w->pr, "CUDALAB_SIMT_PREDICT_OUT", "cudalab-predictions");
			if (w->pr.entry)
				w->give[w->n_give++] = w->pr.child;
		}
		predict_env(e, &timed, &w->pr, 0, env, &n);
		env[n++] = "CUDALAB_SIMT_CHECKS=1";
		env[n++] = own(e, xasprintf("CUDALAB_SIMT_SCHEDULE=%zu", k));
		if (budget)
			env[n++] = own(e, xasprintf("CUDALAB_SIMT_MAX_INSTRUCTIONS=%llu",
						    (unsigned long long)budget));
		simt_common(e, j, env, &n);
	}
	env[n] = NULL;
}

static void worker_close(struct worker *w)
{
	report_close(&w->hz);
	report_close(&w->ct);
	report_close(&w->pr);
}

/* Worker k's part of the checker's result: its k-th line (the last part
 * takes whatever follows, so that a line too many spoils it). */
static struct run_child checker_part(const struct run_child *checker, size_t k, size_t n)
{
	struct run_child part = *checker;
	const char *at = checker->result, *end;

	for (size_t i = 0; at && i < k; i++)
		at = (end = strchr(at, '\n')) ? end + 1 : NULL;
	part.result = NULL;
	part.result_len = 0;
	if (!at || !*at)
		return part;
	end = k + 1 < n ? strchr(at, '\n') : NULL;
	part.result_len = end ? (size_t)(end - at) : strlen(at);
	/* a line too many or a NUL inside spoil the last part */
	while (!end && part.result_len && at[part.result_len - 1] == '\n')
		part.result_len--;
	part.result = xstrndup(at, part.result_len);
	return part;
}

/* Fills res[k] from worker k's end, its reports and its part of the
 * checker's result.  A run that one worker took past its limit is a
 * timeout for all: the checker waited on it. */
static void interpret_all(const struct run_judge *j, struct run_result *res,
			  struct run_child *kids, struct worker *ws, size_t n)
{
	int late = 0;

	for (size_t k = 0; k < n; k++)
		late |= kids[1 + k].timed_out;
	for (size_t k = 0; k < n; k++) {
		struct run_child part = checker_part(&kids[0], k, n);
		char *hazards = report_text(&ws[k].hz), *counters = report_text(&ws[k].ct);

		kids[1 + k].timed_out |= late;
		res[k].schedule = (unsigned)k;
		run_interpret(j->req, &res[k], &kids[1 + k], &part, counters, hazards);
		if (ws[k].pr.fd >= 0) {
			char *path = report_path(&ws[k].pr);

			run_prediction_attach(j->req, &res[k], path);
			free(path);
		}
		free(part.result);
		free(hazards);
		free(counters);
	}
}

/* Whether a run ahead ended void: the checker saw an output that was not
 * right, which a worker had gone past (include/cudalab/lab/judge.h). */
static int run_void(const struct run_child *checker)
{
	return !checker->timed_out && !checker->cancelled && WIFEXITED(checker->status) &&
	       WEXITSTATUS(checker->status) == VOID_RUN && !checker->result_len;
}

/* One run: n workers (on simt, worker k under schedule k; n is 1 on a
 * GPU) and the checker that serves them all; fills res[0..n-1].  Run
 * ahead (ahead), the workers wait only for the verdicts they may need;
 * returns 1, with nothing filled, when such a run ended void. */
static int run_once(const struct run_judge *j, struct run_result *res, size_t n, uint64_t budget,
		    int ahead)
{
	const struct run_request *req = j->req;
	char seed[32];
	char *argv[] = { NULL, "--mode", (char *)run_mode_name(req->mode), NULL, NULL, NULL };
	char *cargv[6];
	struct progress_watch watch = { req, NULL, "" };
	struct run_child kids[1 + MAX_WORKERS];
	struct worker ws[MAX_WORKERS];
	struct envs e;
	struct strbuf role;
	int give_c[MAX_WORKERS], nc = 0, rc = 0;
	size_t made = 0;

	memset(&e, 0, sizeof e);
	memset(kids, 0, sizeof kids);
	if (req->seed >= 0) {
		snprintf(seed, sizeof seed, "%ld", req->seed);
		argv[3] = "--seed";
		argv[4] = seed;
	}
	memcpy(cargv, argv, sizeof argv);
	cargv[0] = (char *)j->checker;
	sb_init(&role);
	sb_puts(&role, ahead ? "CUDALAB_JUDGE=checker-ahead" : "CUDALAB_JUDGE=checker");
	for (; made < n; made++) {
		int chan[2];

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, chan) != 0)
			break;
		memcpy(ws[made].argv, argv, sizeof argv);
		give_c[made] = chan[0];
		sb_printf(&role, " %d", chan[0]);
		worker_setup(&ws[made], &e, j, &res[made], made, chan[1], budget, ahead);
	}
	if (made < n) {
		res->error = xasprintf("cannot connect the checker and the program: %s",
				       strerror(errno));
		for (size_t k = 0; k < made; k++) {
			close(give_c[k]);
			for (int i = 0; i < ws[k].n_give; i++)
				close(ws[k].give[i]);
			worker_close(&ws[k]);
		}
		sb_free(&role);
		envs_free(&e);
		return -1;
	}
	e.checker[nc++] = own(&e, sb_steal(&role));
	if (res->backend == BACKEND_SIMT) {
		struct run_request timed = timed_request(req);

		/* the checker's own device work needs no hazard checks */
		e.checker[nc++] = "CUDALAB_SIMT_CHECKS=0";
		simt_common(&e, j, e.checker, &nc);
		if (timed.predict)
			predict_env(&e, &timed, NULL, 0, e.checker, &nc);
	}
	if (req->progress && (watch.path = cache_file(j->cache, "progress")))
		e.checker[nc++] = own(&e, xasprintf("CUDALAB_PROGRESS=%s", watch.path));
	e.checker[nc] = NULL;

	kids[0].argv = cargv;
	kids[0].env = e.checker;
	kids[0].clean_env = 1;
	kids[0].timeout_s = res->timeout_s + CHECKER_EXTRA_S;
	kids[0].cap = CHECKER_CAP;
	kids[0].want_result = 1;
	kids[0].give_fds = give_c;
	kids[0].n_give = n;
	kids[0].ends_run = 1;
	kids[0].cancel = req->cancel;
	if (watch.path) {
		kids[0].tick = progress_tick;
		kids[0].tick_ctx = &watch;
	}
	for (size_t k = 0; k < n; k++) {
		struct run_child *w = &kids[1 + k];

		w->argv = ws[k].argv;
		w->env = e.worker[k];
		w->clean_env = 1;
		w->timeout_s = res->timeout_s;
		w->cap = OUTPUT_CAP;
		w->give_fds = ws[k].give;
		w->n_give = (size_t)ws[k].n_give;
		w->sandbox = j->sandbox;
		w->cancel = req->cancel;
	}
	run_phase(req, req->mode == RUN_BENCH ? "timing" : "running");
	if (run_children_exec(kids, 1 + n) != 0) {
		res->error = xasprintf("cannot run %s: %s", j->worker, strerror(errno));
		rc = -1;
	} else {
		int cancelled = kids[0].cancelled;

		for (size_t k = 0; k < n; k++)
			cancelled |= kids[1 + k].cancelled;
		if (cancelled) {
			res->error = xstrdup("stopped before the program finished");
			rc = -1;
		} else if (ahead && run_void(&kids[0])) {
			rc = 1;
		} else {
			interpret_all(j, res, kids, ws, n);
		}
	}
	if (watch.path)
		unlink(watch.path);
	free((char *)watch.path);
	for (size_t k = 0; k <= n; k++)
		run_child_free(&kids[k]);
	for (size_t k = 0; k < n; k++)
		worker_close(&ws[k]);
	envs_free(&e);
	return rc;
}

/* A run, first ahead and, when that ended void (an output that was not
 * right), again in lockstep: the result is always the lockstep one's
 * where any output was wrong, and the same one where every output was
 * right, only sooner. */
static int run_judged(const struct run_judge *j, struct run_result *res, size_t n,
		      uint64_t budget)
{
	int rc = run_once(j, res, n, budget, 1);

	if (rc != 1)
		return rc;
	run_phase(j->req, "an output was not right: running again, step by step");
	return run_once(j, res, n, budget, 0);
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

/* A check on simt runs under two schedules at once: schedule 0 and
 * schedule 1 (another block order, warp interleaving and time slice),
 * each a worker of one checker, so a check costs about one run's time
 * where there are cores for both, and the inputs and the reference are
 * made once. */
static int two_schedules(const struct run_judge *j, struct run_result *res, uint64_t budget)
{
	struct run_result both[2];

	both[0] = *res;
	run_result_init(&both[1]);
	both[1].backend = res->backend;
	both[1].timeout_s = res->timeout_s;
	if (run_judged(j, both, 2, budget) != 0) {
		*res = both[0];
		run_result_free(&both[1]);
		return -1;
	}
	*res = both[0];
	join_schedules(res, &both[1]);
	return 0;
}

/* Keeps what the build put in res across a second run. */
static void result_reset_run(struct run_result *res)
{
	struct run_result keep = *res;

	res->source_hash = res->compile_log = res->build_note = NULL;
	run_result_free(res);
	res->backend = keep.backend;
	res->timeout_s = keep.timeout_s;
	res->cached = keep.cached;
	res->compile_s = keep.compile_s;
	res->source_hash = keep.source_hash;
	res->compile_log = keep.compile_log;
	res->build_note = keep.build_note;
}

/* The learner's own budget (CUDALAB_SIMT_MAX_INSTRUCTIONS), which
 * replaces the runaway budget; 0 when none is set. */
static uint64_t own_budget(void)
{
	const char *v = getenv("CUDALAB_SIMT_MAX_INSTRUCTIONS");
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtoull(v, &end, 10);
	return errno || *end || n == 0 ? 0 : (uint64_t)n;
}

/* A check on simt, with a runaway launch stopped early: under the
 * reference's budget when it is known, else under the floor; a run that
 * goes past the floor has the reference measured and runs again under
 * its budget, when that is larger. */
static int check_on_simt(const struct run_judge *j, struct run_result *res)
{
	const struct run_request *req = j->req;
	uint64_t budget = run_runaway_floor(), reference = 0, mine = own_budget();
	int known;

	if (mine)
		return two_schedules(j, res, mine);
	known = run_runaway_budget(req, j->probe, j->cache, j->include, 0, &budget, &reference) == 0;
	if (two_schedules(j, res, budget) != 0)
		return -1;
	if (!known && run_runaway_stopped(res)) {
		uint64_t measured = 0;

		known = run_runaway_budget(req, j->probe, j->cache, j->include, 1, &measured,
					   &reference) == 0;
		if (req->cancel && *req->cancel)
			return -1;
		if (!known || measured > budget) {
			/* not known: the wall clock is the only limit left */
			budget = known ? measured : 0;
			result_reset_run(res);
			run_phase(req, "running again under the reference's budget");
			if (two_schedules(j, res, budget) != 0)
				return -1;
		}
	}
	if (budget && run_runaway_stopped(res))
		run_runaway_verdict(res, budget, reference);
	return 0;
}

int run_judge_predict(const struct run_judge *j, struct run_result *res)
{
	const struct run_request *req = j->req;
	char seed[32], *path;
	char *argv[] = { (char *)j->worker, "--mode", "bench", NULL, NULL, NULL };
	struct report pr = { -1, -1, NULL };
	struct run_result p;
	struct run_child kid;
	struct envs e;
	int give[1], nw = 0, ng = 0, rc = 0;

	memset(&e, 0, sizeof e);
	memset(&kid, 0, sizeof kid);
	if (req->seed >= 0) {
		snprintf(seed, sizeof seed, "%ld", req->seed);
		argv[3] = "--seed";
		argv[4] = seed;
	}
	report_open(&pr, "CUDALAB_SIMT_PREDICT_OUT", "cudalab-predictions");
	if (pr.entry)
		give[ng++] = pr.child;
	predict_env(&e, req, &pr, 1, e.worker[0], &nw);
	simt_common(&e, j, e.worker[0], &nw);
	e.worker[0][nw] = NULL;
	kid.argv = argv;
	kid.env = e.worker[0];
	kid.clean_env = 1;
	/* simt's limit, also after a bench on a GPU */
	kid.timeout_s = req->timeout_s > 0 ? req->timeout_s
					   : run_default_timeout(RUN_BENCH, BACKEND_SIMT);
	kid.cap = OUTPUT_CAP;
	kid.want_result = 1;
	kid.give_fds = give;
	kid.n_give = (size_t)ng;
	kid.sandbox = j->sandbox;
	kid.cancel = req->cancel;
	run_result_init(&p);
	p.backend = BACKEND_SIMT;
	p.timeout_s = kid.timeout_s; /* for the words of a timeout */
	run_phase(req, "predicting the time on a GPU");
	if (run_child_exec(&kid) != 0 || kid.cancelled) {
		res->error = kid.cancelled ? xstrdup("stopped before the program finished")
					   : xasprintf("cannot run %s: %s", j->worker, strerror(errno));
		rc = -1;
	} else {
		run_interpret_alone(&p, &kid);
		path = report_path(&pr);
		run_prediction_attach(req, &p, path);
		free(path);
		run_prediction_take(req, res, &p);
	}
	run_result_free(&p);
	run_child_free(&kid);
	report_close(&pr);
	envs_free(&e);
	return rc;
}

int run_judge(const struct run_judge *j, struct run_result *res)
{
	int simt = res->backend == BACKEND_SIMT;

	if (simt && j->req->mode == RUN_CHECK)
		return check_on_simt(j, res);
	if (run_judged(j, res, 1, simt ? own_budget() : 0) != 0)
		return -1;
	if (simt && j->req->predict && res->status == RUN_PASS)
		return run_judge_predict(j, res);
	return 0;
}
