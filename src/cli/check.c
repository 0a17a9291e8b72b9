/* check.c — `cudalab check EX`, and what bench and watch share with it:
 * option parsing, the learner's copy, and printing a verdict. */
#include "cudalab/cli.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/store.h"

#define TAIL_LINES 20
#define LOG_LINES 60

/* Takes "--opt VALUE" or "--opt=VALUE" at argv[*i]; 1 when it was opt. */
static int opt_value(const char *opt, int argc, char **argv, int *i, const char **value)
{
	size_t n = strlen(opt);

	if (strncmp(argv[*i], opt, n) != 0)
		return 0;
	if (argv[*i][n] == '=') {
		*value = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n] != '\0')
		return 0;
	*value = *i + 1 < argc ? argv[++*i] : NULL;
	return 1;
}

static int parse_number(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = s ? strtod(s, &end) : 0;
	return s && *s && !*end && errno == 0 && *out > 0 && isfinite(*out) ? 0 : -1;
}

static int parse_option(struct cli *c, const char *verb, int argc, char **argv, int *i,
			int allow_json, struct cli_ex_opts *o)
{
	const char *v = NULL;
	double d;

	if (opt_value("--backend", argc, argv, i, &v)) {
		if (!v || cli_backend_parse(v, &o->where) != 0)
			return cli_usage_error(c, "%s: --backend needs auto, gpu, simt, ssh:HOST or "
					       "slurm", verb);
		o->backend = o->where.backend;
		o->backend_given = 1;
	} else if (opt_value("--file", argc, argv, i, &v)) {
		if (!v || !*v)
			return cli_usage_error(c, "%s: --file needs a file", verb);
		o->file = v;
	} else if (opt_value("--timeout", argc, argv, i, &v)) {
		if (parse_number(v, &o->timeout_s) != 0)
			return cli_usage_error(c, "%s: --timeout needs a number of seconds > 0",
					       verb);
	} else if (opt_value("--seed", argc, argv, i, &v)) {
		if (parse_number(v, &d) != 0 || d != floor(d) || d > 2147483647.0)
			return cli_usage_error(c, "%s: --seed needs a positive whole number", verb);
		o->seed = (long)d;
	} else if (opt_value("--predict", argc, argv, i, &v)) {
		if (!v || !cli_predict_good(v))
			return cli_usage_error(c, "%s: --predict needs a device id (see 'cudalab "
					       "doctor') or off", verb);
		o->predict = v;
	} else if (allow_json && strcmp(argv[*i], "--json") == 0) {
		o->json = 1;
	} else {
		return cli_usage_error(c, "%s: unknown option '%s'", verb, argv[*i]);
	}
	return 0;
}

int cli_ex_parse(struct cli *c, int argc, char **argv, int allow_json, struct cli_ex_opts *o)
{
	const char *verb = argv[0];

	memset(o, 0, sizeof *o);
	o->verb = verb;
	o->backend = BACKEND_AUTO;
	o->seed = -1;
	for (int i = 1; i < argc; i++) {
		int rc;

		if (argv[i][0] == '-' && argv[i][1]) {
			if ((rc = parse_option(c, verb, argc, argv, &i, allow_json, o)) != 0)
				return rc;
		} else if (!o->exercise) {
			o->exercise = argv[i];
		} else {
			return cli_usage_error(c, "%s: unexpected argument '%s'", verb, argv[i]);
		}
	}
	if (!o->exercise)
		return cli_usage_error(c, "%s: which exercise? (see 'cudalab list exercises')",
				       verb);
	if (!o->backend_given) {
		int rc = cli_default_backend(c, &o->where);

		if (rc != 0)
			return rc;
		o->backend = o->where.backend;
	}
	return 0;
}

int cli_ex_prepare(struct cli *c, const struct cli_ex_opts *o, const struct exercise **ex,
		   char **file)
{
	int created = 0;

	*file = NULL;
	*ex = catalog_exercise(cli_catalog(c), o->exercise);
	if (!*ex)
		return cli_unknown_id(c, o->verb, "exercise", o->exercise, CAT_EXERCISE, "exercises");
	if (o->file) {
		if (access(o->file, R_OK) != 0)
			return cli_error(c, "%s: cannot read %s: %s", o->verb, o->file,
					 strerror(errno));
		*file = xstrdup(o->file);
		return 0;
	}
	if (run_work_copy(c->home, *ex, file, &created) != 0)
		return cli_error(c, "%s: cannot make your copy of %s in %s/work: %s", o->verb,
				 (*ex)->id, c->home, strerror(errno));
	if (created)
		fprintf(stderr, "Your copy of %s is %s: edit it there.\n", (*ex)->id, *file);
	return 0;
}

/* --- text output ------------------------------------------------------ */

static const char *verdict_word(enum run_status s)
{
	switch (s) {
	case RUN_PASS:
		return "PASS";
	case RUN_WRONG:
		return "WRONG";
	case RUN_COMPILE_ERROR:
		return "COMPILE ERROR";
	case RUN_TIMEOUT:
		return "TIMEOUT";
	case RUN_HAZARD:
		return "HAZARD";
	default:
		return "RUNTIME ERROR";
	}
}

/* Prints the last max lines of text, indented; dropped bytes of the
 * output came after it and were not kept. */
static void print_tail(const char *title, const char *text, size_t dropped, size_t max)
{
	const char *p, *start;
	size_t lines = 0;

	if (!text || !*text) {
		if (dropped)
			printf("  %s: %zu more bytes not kept\n", title, dropped);
		return;
	}
	p = text + strlen(text);
	while (p > text && p[-1] == '\n')
		p--;
	start = p;
	while (start > text && lines < max) {
		start--;
		if (*start == '\n' && ++lines == max) {
			start++;
			break;
		}
	}
	/* what is kept is the start: its last lines come from the middle */
	if (dropped)
		printf("  %s (the last lines of the first 1 MiB, which is what was kept):\n", title);
	else
		printf("  %s%s:\n", title, start > text ? " (last lines)" : "");
	while (start < p) {
		const char *nl = memchr(start, '\n', (size_t)(p - start));
		size_t len = nl ? (size_t)(nl - start) : (size_t)(p - start);

		printf("    %.*s\n", (int)len, start);
		start += len + 1;
	}
	if (dropped)
		printf("    ... %zu more bytes were not kept (output is capped at 1 MiB)\n",
		       dropped);
}

static void print_cases(const struct run_result *r)
{
	if (!r->n_cases)
		return;
	printf("  cases:\n");
	for (size_t i = 0; i < r->n_cases; i++) {
		const struct run_case *k = &r->cases[i];

		char *errs = run_case_errors(k);

		printf("    %-5s %-*s  %s\n", strcmp(k->status, "pass") == 0 ? "pass" : "FAIL",
		       run_case_width(r), k->name, errs);
		free(errs);
	}
}

/* The errors, then the compiler's output, unless every error is a
 * function the file lacks: the linker's lines about it name the
 * harness's own functions, which help no one. */
static void print_compile(const struct run_result *r)
{
	size_t missing = 0;

	for (size_t i = 0; i < r->n_errors; i++) {
		const struct run_compile_error *e = &r->errors[i];

		missing += e->missing;
		if (e->file && e->line)
			printf("  %s:%d: error: %s\n", e->file, e->line, e->message);
		else
			printf("  error: %s\n", e->message);
	}
	if (missing == 0 || missing < r->n_errors)
		print_tail("compiler output", r->compile_log, 0, LOG_LINES);
}

/* The totals, two to a line. */
static void print_counters(const cJSON *simt)
{
	const cJSON *total = cJSON_GetObjectItemCaseSensitive(simt, "total"), *v;
	int col = 0;

	if (!cJSON_IsObject(total))
		return;
	printf("  simt counters (what a profiler would count):\n");
	cJSON_ArrayForEach(v, total) {
		if (!cJSON_IsNumber(v) || strcmp(v->string, "seconds") == 0 ||
		    strcmp(v->string, "max_launch_warp_instructions") == 0)
			continue;
		printf(col ? "   %-22s %12.15g\n" : "    %-22s %12.15g", v->string, v->valuedouble);
		col = !col;
	}
	if (col)
		printf("\n");
}

static void print_timing(const struct run_result *r)
{
	const struct run_timing *t = &r->timing;

	if (isnan(t->median_ms))
		return;
	if (r->backend == BACKEND_SIMT ||
	    ((r->backend == BACKEND_SSH || r->backend == BACKEND_SLURM) && !r->remote_gpu)) {
		printf("  timing: %.3f ms of emulation time, not GPU time (%d run%s)\n",
		       t->median_ms, t->samples, t->samples == 1 ? "" : "s");
		return;
	}
	printf("  timing (%d samples%s):\n", t->samples, t->l2_flushed ? ", L2 flushed" : "");
	printf("    median     %10.4f ms\n", t->median_ms);
	if (!isnan(t->min_ms))
		printf("    min        %10.4f ms\n", t->min_ms);
	if (!isnan(t->mean_ms))
		printf("    mean       %10.4f ms\n", t->mean_ms);
	if (!isnan(t->noise_pct))
		printf("    noise      %10.2f %%\n", t->noise_pct);
	if (!isnan(r->derived.gbps)) {
		printf("    bandwidth  %10.1f GB/s", r->derived.gbps);
		if (!isnan(r->derived.pct_peak_bw))
			printf("  = %.1f%% of peak", r->derived.pct_peak_bw);
		if (!isnan(r->derived.peak_gbps))
			printf(" (%.0f GB/s)", r->derived.peak_gbps);
		printf("\n");
	}
	if (!isnan(r->derived.tflops))
		printf("    compute    %10.3f TFLOP/s\n", r->derived.tflops);
}

static void print_prediction(const struct run_result *r)
{
	char **lines;
	size_t n = run_prediction_lines(r->prediction, &lines);

	for (size_t i = 0; i < n; i++)
		printf("  %s\n", lines[i]);
	run_insights_free(lines, n);
}

static void print_result(const char *id, const struct run_result *r)
{
	cJSON *j = cJSON_Parse(r->json);
	const cJSON *simt = cJSON_GetObjectItemCaseSensitive(j, "simt");
	const cJSON *label = cJSON_GetObjectItemCaseSensitive(j, "backend");
	const cJSON *far = cJSON_GetObjectItemCaseSensitive(j, "remote_backend");
	int emulated = r->backend == BACKEND_SIMT ||
		       (cJSON_IsString(far) && strcmp(far->valuestring, "simt") == 0);

	printf("%s %s: %s\n", verdict_word(r->status), id, r->summary);
	if (cJSON_IsString(far) && cJSON_IsString(label))
		printf("  backend: %s, on %s there%s%s%s; build %s\n", label->valuestring,
		       far->valuestring, emulated ? " (it has no usable GPU: emulation)" : "",
		       r->device ? ", " : "", r->device ? r->device : "",
		       r->cached ? "cached" : "compiled");
	else
		printf("  backend: %s%s%s%s; build %s\n", run_backend_name(r->backend),
		       emulated ? " (emulation)" : "", r->device ? ", " : "",
		       r->device ? r->device : "", r->cached ? "cached" : "compiled");
	if (r->status == RUN_COMPILE_ERROR) {
		print_compile(r);
	} else {
		print_cases(r);
		if (r->mismatch.case_name)
			printf("  mismatch: case %s, index %lld: expected %s, got %s\n",
			       r->mismatch.case_name, r->mismatch.index, r->mismatch.expected,
			       r->mismatch.got);
		if (r->mismatch.note)
			printf("            %s\n", r->mismatch.note);
		print_timing(r);
		print_prediction(r);
	}
	if (r->n_hazards) {
		printf("  simt reported %llu hazard%s (CUDALAB_SIMT_CHECKS=0 turns the checks "
		       "off):\n", r->hazard_total, r->hazard_total == 1 ? "" : "s");
		for (size_t i = 0; i < r->n_hazards; i++)
			printf("    - %s\n", r->hazards[i]);
		if (r->hazard_total > r->n_hazards)
			printf("    ... and %llu more\n", r->hazard_total - r->n_hazards);
	}
	if (r->nondeterminism)
		printf("  nondeterminism: %s\n", r->nondeterminism);
	if (r->status == RUN_HAZARD) {
		/* stderr holds the reports just shown */
		print_tail("stdout", r->out, r->out_truncated, TAIL_LINES);
	} else if (r->status != RUN_PASS && r->status != RUN_COMPILE_ERROR) {
		print_tail("stdout", r->out, r->out_truncated, TAIL_LINES);
		print_tail("stderr", r->err, r->err_truncated, TAIL_LINES);
	} else if (r->status == RUN_PASS) {
		/* what the learner's printf said is worth seeing after a pass too */
		print_tail("stdout", r->out, r->out_truncated, TAIL_LINES);
	}
	if (r->status == RUN_PASS || r->status == RUN_COMPILE_ERROR) {
		if (r->out_truncated || r->err_truncated)
			printf("  output capped at 1 MiB: %zu bytes of stdout and %zu of stderr not "
			       "kept\n", r->out_truncated, r->err_truncated);
	}
	{
		char **lines;
		size_t n = run_insights(r->json, &lines);

		if (cJSON_IsObject(simt))
			print_counters(simt);
		if (n)
			printf("  %s\n", cJSON_IsObject(simt) ? "what the counters say:"
							      : "what the timing says:");
		for (size_t i = 0; i < n; i++)
			printf("    - %s\n", lines[i]);
		run_insights_free(lines, n);
		n = run_comm_model(r->json, &lines);
		if (n)
			printf("  NCCL communication (modelled):\n");
		for (size_t i = 0; i < n; i++)
			printf("    %s\n", lines[i]);
		run_insights_free(lines, n);
	}
	cJSON_Delete(j);
}

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* Ctrl-C stops the child's whole process group before cudalab ends by
 * the same signal. */
static void catch_stop(struct sigaction old[3])
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
	/* a closed terminal must not leave a check running (on a remote too) */
	sigaction(SIGHUP, &sa, &old[2]);
}

static void release_stop(const struct sigaction old[3])
{
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	sigaction(SIGHUP, &old[2], NULL);
	if (stop_signal) {
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
	}
}

static void show_phase(void *ctx, const char *phase)
{
	(void)ctx;
	fprintf(stderr, "%s...\n", phase);
}

/* Whether file is something else than the learner's copy of ex: a check
 * of it is a scratch attempt. */
static int is_scratch(struct cli *c, const struct exercise *ex, const char *file)
{
	char *copy = xasprintf("%s/work/%s/kernel.cu", c->home, ex->id);
	char *a = realpath(copy, NULL), *b = realpath(file, NULL);
	int scratch = !a || !b || strcmp(a, b) != 0;

	free(copy);
	free(a);
	free(b);
	return scratch;
}

/* A check of another file than the learner's copy is kept apart from
 * their progress: said on stderr, with where the copy is. */
static void scratch_note(struct cli *c, const struct exercise *ex, const char *file)
{
	char *copy = xasprintf("%s/work/%s/kernel.cu", c->home, ex->id);

	fprintf(stderr, "not counted: %s is not your copy of %s (%s); the attempt is kept apart "
		"and your progress is unchanged\n", file, ex->id, copy);
	free(copy);
}

int cli_ex_run(struct cli *c, const struct cli_ex_opts *o, const struct exercise *ex,
	       const char *file, enum run_mode mode, const volatile sig_atomic_t *cancel)
{
	struct run_request req;
	struct run_result res;
	struct run_remote remote;
	struct sigaction old[3];
	char *predict = NULL;
	int rc, own = !cancel;

	if ((rc = cli_remote_setup(c, &o->where, &remote)) != 0)
		return rc;
	if ((rc = cli_predict_device(c, o->predict, mode, &predict)) != 0)
		return rc;

	if (own) {
		catch_stop(old);
		cancel = &stop_signal;
	}
	memset(&req, 0, sizeof req);
	req.ex = ex;
	req.source = file;
	req.home = c->home;
	req.content = c->content;
	req.mode = mode;
	req.backend = o->backend;
	req.timeout_s = o->timeout_s;
	req.seed = o->seed;
	req.st = cli_store(c);
	req.scratch = is_scratch(c, ex, file);
	req.cancel = cancel;
	req.remote = &remote;
	req.predict = predict;
	if (!o->json && isatty(STDERR_FILENO))
		req.progress = show_phase;
	fflush(stdout);
	if (run_exercise(&req, &res) != 0) {
		/* a backend the learner did not name came from the config */
		rc = *cancel ? EXIT_FAILED
		     : !o->backend_given && c->cfg.backend
			     ? cli_error(c, "%s: %s (the backend %s is set in %s/config)",
					 run_mode_name(mode), res.error, c->cfg.backend, c->home)
			     : cli_error(c, "%s: %s", run_mode_name(mode), res.error);
	} else {
		if (res.backend_note && !o->json)
			cli_warn(c, "%s", res.backend_note);
		if (o->json)
			cli_print_json(cJSON_Parse(res.json));
		else
			print_result(ex->id, &res);
		fflush(stdout);
		rc = res.status == RUN_PASS ? EXIT_OK : EXIT_FAILED;
		if (res.not_recorded)
			cli_warn(c, "the attempt was not recorded: %s", res.not_recorded);
		else if (req.scratch)
			scratch_note(c, ex, file);
	}
	run_result_free(&res);
	free(predict);
	if (own)
		release_stop(old);
	return rc;
}

int cli_check(struct cli *c, int argc, char **argv)
{
	struct cli_ex_opts o;
	const struct exercise *ex;
	char *file = NULL;
	int rc;

	if ((rc = cli_ex_parse(c, argc, argv, 1, &o)) != 0)
		return rc;
	if ((rc = cli_ex_prepare(c, &o, &ex, &file)) == 0)
		rc = cli_ex_run(c, &o, ex, file, RUN_CHECK, NULL);
	free(file);
	return rc;
}
