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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

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

/* The environment entries of one run: the checker's and the worker's,
 * each set explicitly over cudalab's own minus every CUDALAB_* (what a
 * learner set in the shell, CUDALAB_SIMT_CHECKS=0 among it, does not
 * reach a check). */
struct envs {
	const char *checker[12], *worker[24];
	char *own[20];
	size_t n_own;
};

static const char *own(struct envs *e, char *entry)
{
	e->own[e->n_own++] = entry;
	return entry;
}

/* simt's settings a learner may choose for a check too: how many host
 * threads run blocks, which GPU's properties it reports, how long NCCL
 * waits; each goes to both programs as it is set here. */
static const char *const simt_settings[] = { "CUDALAB_SIMT_THREADS", "CUDALAB_SIMT_DEVICE",
					     "CUDALAB_SIMT_NCCL_TIMEOUT" };

/* What both programs of a run on simt get: as many simulated devices as
 * the exercise needs, the learner's choice of simt_settings, and for a
 * sanitizer-built simt (make SANITIZE=...) no leak report (the harness's
 * own host allocations are no leak of simt's, and LeakSanitizer's ptrace
 * is not the program's to use). */
static void simt_common(struct envs *e, const struct run_judge *j, int *nc, int *nw)
{
	e->worker[(*nw)++] = e->checker[(*nc)++] =
		own(e, xasprintf("CUDALAB_SIMT_GPUS=%d", run_gpus_needed(j->req)));
	for (size_t i = 0; i < sizeof simt_settings / sizeof simt_settings[0]; i++) {
		const char *v = getenv(simt_settings[i]);

		if (v)
			e->worker[(*nw)++] = e->checker[(*nc)++] =
				own(e, xasprintf("%s=%s", simt_settings[i], v));
	}
	if (j->probe->simt_sanitize & RUN_SAN_ADDRESS) {
		const char *a = getenv("ASAN_OPTIONS");

		e->worker[(*nw)++] = e->checker[(*nc)++] =
			own(e, xasprintf("ASAN_OPTIONS=%s%sdetect_leaks=0", a ? a : "", a ? ":" : ""));
	}
}

/* The worker's settings of simt's time model for req->predict (predict.c):
 * predictions for that GPU, their report in out when it is open; a
 * predicted bench (bench) runs without the checks, a check's worker with
 * every block run.  Without req->predict the model stays off whatever
 * the shell says. */
static void predict_env(struct envs *e, const struct run_request *req, const struct report *out,
			int bench, int *nw)
{
	char *devices;

	if (!req->predict || (!bench && req->mode != RUN_CHECK)) {
		e->worker[(*nw)++] = "CUDALAB_SIMT_PREDICT=";
		return;
	}
	devices = run_devices_path(req->content);
	e->worker[(*nw)++] = own(e, xasprintf("CUDALAB_SIMT_PREDICT=%s", req->predict));
	e->worker[(*nw)++] = own(e, xasprintf("CUDALAB_SIMT_DEVICES=%s", devices));
	if (out && out->entry)
		e->worker[(*nw)++] = out->entry;
	e->worker[(*nw)++] = "CUDALAB_SIMT_PREDICT_QUIET=1";
	e->worker[(*nw)++] = bench ? "CUDALAB_SIMT_CHECKS=0" : "CUDALAB_SIMT_PREDICT_BUDGET=0";
	free(devices);
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

/* One run: the worker under simt schedule `schedule` (ignored on a GPU)
 * with the checker beside it; fills res. */
static int run_once(const struct run_judge *j, struct run_result *res, unsigned schedule,
		    uint64_t budget)
{
	const struct run_request *req = j->req;
	char seed[32];
	char *argv[] = { NULL, "--mode", (char *)run_mode_name(req->mode), NULL, NULL, NULL };
	char *cargv[6], *wargv[6];
	struct progress_watch watch = { req, NULL, "" };
	struct report hz = { -1, -1, NULL }, ct = { -1, -1, NULL }, pr = { -1, -1, NULL };
	struct run_child kids[2];
	struct envs e;
	int chan[2] = { -1, -1 }, give_c[1], give_w[4], nw = 0, nc = 0, nwg = 0, rc = 0;
	int simt = res->backend == BACKEND_SIMT;

	memset(&e, 0, sizeof e);
	memset(kids, 0, sizeof kids);
	if (req->seed >= 0) {
		snprintf(seed, sizeof seed, "%ld", req->seed);
		argv[3] = "--seed";
		argv[4] = seed;
	}
	memcpy(cargv, argv, sizeof argv);
	memcpy(wargv, argv, sizeof argv);
	cargv[0] = (char *)j->checker;
	wargv[0] = (char *)j->worker;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, chan) != 0) {
		res->error = xasprintf("cannot connect the checker and the program: %s",
				       strerror(errno));
		return -1;
	}
	give_c[0] = chan[0];
	give_w[nwg++] = chan[1];
	e.checker[nc++] = own(&e, xasprintf("CUDALAB_JUDGE=checker %d", chan[0]));
	e.worker[nw++] = own(&e, xasprintf("CUDALAB_JUDGE=worker %d", chan[1]));
	if (simt) {
		report_open(&hz, "CUDALAB_SIMT_HAZARDS", "cudalab-hazards");
		report_open(&ct, "CUDALAB_SIMT_COUNTERS", "cudalab-counters");
		if (hz.entry) {
			give_w[nwg++] = hz.child;
			e.worker[nw++] = hz.entry;
		}
		if (ct.entry) {
			give_w[nwg++] = ct.child;
			e.worker[nw++] = ct.entry;
		}
		/* a check's predictions come from schedule 0's worker */
		if (req->predict && req->mode == RUN_CHECK && schedule == 0) {
			report_open(&pr, "CUDALAB_SIMT_PREDICT_OUT", "cudalab-predictions");
			if (pr.entry)
				give_w[nwg++] = pr.child;
		}
		predict_env(&e, req, &pr, 0, &nw);
		e.worker[nw++] = "CUDALAB_SIMT_CHECKS=1";
		e.worker[nw++] = own(&e, xasprintf("CUDALAB_SIMT_SCHEDULE=%u", schedule));
		if (budget)
			e.worker[nw++] = own(&e, xasprintf("CUDALAB_SIMT_MAX_INSTRUCTIONS=%llu",
							   (unsigned long long)budget));
		/* the checker's own device work needs no hazard checks */
		e.checker[nc++] = "CUDALAB_SIMT_CHECKS=0";
		simt_common(&e, j, &nc, &nw);
		res->schedule = schedule;
	}
	if (req->progress && (watch.path = cache_file(j->cache, "progress")))
		e.checker[nc++] = own(&e, xasprintf("CUDALAB_PROGRESS=%s", watch.path));
	e.checker[nc] = NULL;
	e.worker[nw] = NULL;

	kids[0].argv = cargv;
	kids[0].env = e.checker;
	kids[0].clean_env = 1;
	kids[0].timeout_s = res->timeout_s + CHECKER_EXTRA_S;
	kids[0].cap = CHECKER_CAP;
	kids[0].want_result = 1;
	kids[0].give_fds = give_c;
	kids[0].n_give = 1;
	kids[0].ends_run = 1;
	kids[0].cancel = req->cancel;
	if (watch.path) {
		kids[0].tick = progress_tick;
		kids[0].tick_ctx = &watch;
	}
	kids[1].argv = wargv;
	kids[1].env = e.worker;
	kids[1].clean_env = 1;
	kids[1].timeout_s = res->timeout_s;
	kids[1].cap = OUTPUT_CAP;
	kids[1].give_fds = give_w;
	kids[1].n_give = (size_t)nwg;
	kids[1].sandbox = j->sandbox;
	kids[1].cancel = req->cancel;
	run_phase(req, req->mode == RUN_BENCH ? "timing" : "running");
	if (run_children_exec(kids, 2) != 0) {
		res->error = xasprintf("cannot run %s: %s", j->worker, strerror(errno));
		rc = -1;
	} else if (kids[0].cancelled || kids[1].cancelled) {
		res->error = xstrdup("stopped before the program finished");
		rc = -1;
	} else {
		char *hazards = report_text(&hz), *counters = report_text(&ct);

		run_interpret(req, res, &kids[1], &kids[0], counters, hazards);
		if (pr.fd >= 0) {
			char *path = report_path(&pr);

			run_prediction_attach(req, res, path);
			free(path);
		}
		free(hazards);
		free(counters);
	}
	if (watch.path)
		unlink(watch.path);
	free((char *)watch.path);
	run_child_free(&kids[0]);
	run_child_free(&kids[1]);
	report_close(&hz);
	report_close(&ct);
	report_close(&pr);
	envs_free(&e);
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
	struct run_judge j;
	struct run_request req; /* the caller's, without progress or store */
	struct run_result res;
	uint64_t budget;
	int rc;
};

static void *sched_run(void *arg)
{
	struct sched_job *s = arg;

	s->rc = run_once(&s->j, &s->res, 1, s->budget);
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

static int two_schedules(const struct run_judge *j, struct run_result *res, uint64_t budget)
{
	struct sched_job s;
	pthread_t th;
	int rc, threaded;

	memset(&s, 0, sizeof s);
	s.req = *j->req;
	s.req.progress = NULL;
	s.req.st = NULL;
	s.j = *j;
	s.j.req = &s.req;
	s.budget = budget;
	run_result_init(&s.res);
	s.res.backend = res->backend;
	s.res.timeout_s = res->timeout_s;
	threaded = pthread_create(&th, NULL, sched_run, &s) == 0;
	rc = run_once(j, res, 0, budget);
	if (threaded)
		pthread_join(th, NULL);
	else if (rc == 0 && res->status == RUN_PASS)
		sched_run(&s);
	if (rc != 0 || (s.rc != 0 && res->status == RUN_PASS)) {
		if (rc == 0) {
			res->error = s.res.error;
			s.res.error = NULL;
		}
		run_result_free(&s.res);
		return -1;
	}
	join_schedules(res, &s.res);
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
	int give[1], nw = 0, nc = 0, ng = 0, rc = 0;

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
	predict_env(&e, req, &pr, 1, &nw);
	simt_common(&e, j, &nc, &nw);
	e.worker[nw] = NULL;
	kid.argv = argv;
	kid.env = e.worker;
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
	if (run_once(j, res, 0, simt ? own_budget() : 0) != 0)
		return -1;
	if (simt && j->req->predict && res->status == RUN_PASS)
		return run_judge_predict(j, res);
	return 0;
}
