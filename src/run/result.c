/* result.c — from a finished run (the checker's result object, the
 * worker's end and output, simt's reports) to a verdict, a summary line
 * and the result JSON: the checker's object (include/cudalab/lab.h) with
 * the runner's keys added (docs/guide.md, "Result JSON"). */
#include "result.h"

#include <cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cudalab/content.h"
#include "cudalab/util.h"

static void put(cJSON *obj, const char *key, cJSON *item);

void run_result_init(struct run_result *res)
{
	memset(res, 0, sizeof *res);
	res->exit_code = -1;
	res->timing.median_ms = res->timing.min_ms = res->timing.mean_ms = NAN;
	res->timing.stdev_ms = res->timing.noise_pct = NAN;
	res->derived.gbps = res->derived.pct_peak_bw = NAN;
	res->derived.tflops = res->derived.peak_gbps = NAN;
	res->derived.pct_peak_flops = NAN;
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
	free(res->build_note);
	run_prediction_free(res->prediction);
	free(res->prediction);
	run_result_init(res);
}

static double num(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A count or index the harness reported: a whole number up to 2^53 (the
 * largest a JSON number holds exactly; larger ones are clamped to it), or
 * dflt when it reported none, or a negative one. */
static long long count_of(double v, long long dflt)
{
	if (isnan(v) || v < 0)
		return dflt;
	return v > 9007199254740992.0 ? 9007199254740992LL : (long long)v;
}

/* The same, for an int. */
static int int_count_of(double v, int dflt)
{
	long long n = count_of(v, dflt);

	return n > INT_MAX ? INT_MAX : (int)n;
}

/* A JSON value as a person reads it: strings bare, numbers short. */
static char *text_of(const cJSON *v)
{
	if (!v)
		return xstrdup("?");
	if (cJSON_IsString(v))
		return xstrdup(v->valuestring);
	if (cJSON_IsNumber(v))
		return xasprintf("%.9g", v->valuedouble);
	return cJSON_PrintUnformatted(v);
}

/* key's value as the harness spelled it (key_text, which keeps NaN and
 * infinities that JSON cannot), else its JSON value. */
static char *value_text(const cJSON *obj, const char *key)
{
	char *name = xasprintf("%s_text", key);
	const char *spelled = str(obj, name);

	free(name);
	if (spelled)
		return xstrdup(spelled);
	return text_of(cJSON_GetObjectItemCaseSensitive(obj, key));
}

/* The harness's "error": a string, or {"name","message","where"}. */
static char *error_text(const cJSON *h)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(h, "error");
	const char *name = str(e, "name"), *msg = str(e, "message"), *where = str(e, "where");
	struct strbuf sb;

	if (cJSON_IsString(e))
		return xstrdup(e->valuestring);
	if (!name && !msg)
		return str(h, "message") ? xstrdup(str(h, "message")) : NULL;
	sb_init(&sb);
	sb_printf(&sb, "%s%s%s", name ? name : "", name && msg ? ": " : "", msg ? msg : "");
	if (where)
		sb_printf(&sb, " (%s)", where);
	return sb_steal(&sb);
}

static void read_cases(struct run_result *res, const cJSON *h)
{
	const cJSON *cases = cJSON_GetObjectItemCaseSensitive(h, "cases"), *c;
	size_t n = (size_t)cJSON_GetArraySize(cases), i = 0;

	if (!cJSON_IsArray(cases) || n == 0)
		return;
	res->cases = xcalloc(n, sizeof *res->cases);
	cJSON_ArrayForEach(c, cases) {
		const char *name = str(c, "name"), *status = str(c, "status");

		res->cases[i].name = xstrdup(name ? name : "?");
		res->cases[i].status = xstrdup(status ? status : "?");
		res->cases[i].max_abs_err = num(c, "max_abs_err");
		res->cases[i].max_rel_err = num(c, "max_rel_err");
		res->cases[i].mismatches = (long)count_of(num(c, "mismatches"), -1);
		res->cases[i].not_written = (long)count_of(num(c, "not_written"), -1);
		res->cases[i].overruns = (long)count_of(num(c, "overruns"), 0);
		i++;
	}
	res->n_cases = i;
}

static void read_report(struct run_result *res, const cJSON *h)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(h, "mismatch");
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(h, "timing");
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(h, "derived");
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(h, "device");

	read_cases(res, h);
	if (cJSON_IsObject(m)) {
		const char *c = str(m, "case");
		double index = num(m, "index");

		res->mismatch.case_name = xstrdup(c ? c : "?");
		res->mismatch.index = count_of(index, -1);
		res->mismatch.expected = value_text(m, "expected");
		res->mismatch.got = value_text(m, "got");
		if (str(m, "note"))
			res->mismatch.note = xstrdup(str(m, "note"));
	}
	if (cJSON_IsObject(t)) {
		double samples = num(t, "samples");

		res->timing.samples = int_count_of(samples, 1);
		res->timing.median_ms = num(t, "median_ms");
		res->timing.min_ms = num(t, "min_ms");
		res->timing.mean_ms = num(t, "mean_ms");
		res->timing.stdev_ms = num(t, "stdev_ms");
		res->timing.noise_pct = num(t, "noise_pct");
		res->timing.l2_flushed =
			cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "l2_flushed"));
	}
	res->derived.gbps = num(d, "gbps");
	res->derived.pct_peak_bw = num(d, "pct_peak_bw");
	res->derived.tflops = num(d, "tflops");
	res->derived.pct_peak_flops = num(d, "pct_peak_flops");
	res->derived.peak_gbps = num(dev, "peak_gbps");
	if (str(dev, "name"))
		res->device = xstrdup(str(dev, "name"));
}


static size_t cases_failed(const struct run_result *res)
{
	size_t bad = 0;

	for (size_t i = 0; i < res->n_cases; i++)
		bad += strcmp(res->cases[i].status, "pass") != 0;
	return bad;
}

static char *pass_summary(const struct run_result *res)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_puts(&sb, "pass");
	if (res->n_cases)
		sb_printf(&sb, ": %zu/%zu cases", res->n_cases, res->n_cases);
	if (!isnan(res->timing.median_ms)) {
		if (res->backend == BACKEND_SIMT) {
			sb_printf(&sb, ", %.3f ms of emulation (not GPU time)",
				  res->timing.median_ms);
		} else {
			sb_printf(&sb, ", median %.4g ms", res->timing.median_ms);
			if (!isnan(res->derived.pct_peak_bw))
				sb_printf(&sb, " (%.1f%% of peak bandwidth)",
					  res->derived.pct_peak_bw);
		}
	}
	return sb_steal(&sb);
}

static char *wrong_summary(const struct run_result *res)
{
	const struct run_mismatch *m = &res->mismatch;

	if (m->case_name && m->index >= 0)
		return xasprintf("wrong: case %s, index %lld: expected %s, got %s", m->case_name,
				 m->index, m->expected, m->got);
	if (m->case_name)
		return xasprintf("wrong: case %s: expected %s, got %s", m->case_name, m->expected,
				 m->got);
	if (res->n_cases)
		return xasprintf("wrong: %zu of %zu cases failed", cases_failed(res), res->n_cases);
	return xstrdup("wrong answer");
}

/* How the worker ended, for a runtime error's summary: "killed by
 * SIGSEGV: LAST LINE", "exit code 3, no result: LAST LINE", or for a
 * clean exit `clean`. */
static char *worker_end(const struct run_result *res, const char *clean)
{
	char *why = run_last_line(res->err), *s;

	if (res->signal)
		s = xasprintf("killed by %s%s%s", run_signal_name(res->signal), why ? ": " : "",
			      why ? why : "");
	else if (res->exit_code != 0)
		s = xasprintf("exit code %d, no result%s%s", res->exit_code, why ? ": " : "",
			      why ? why : "");
	else
		s = xstrdup(clean);
	free(why);
	return s;
}

/* Decides status and summary from the checker's object h (NULL when it
 * wrote none that parses; bad_report says why) and how the worker ended. */
static void decide(struct run_result *res, const struct run_child *worker,
		   const struct run_child *checker, const cJSON *h, const char *bad_report)
{
	const char *said = h ? str(h, "status") : NULL;
	const cJSON *err = h ? cJSON_GetObjectItemCaseSensitive(h, "error") : NULL;
	char *why = NULL;

	if (worker->timed_out || checker->timed_out) {
		res->status = RUN_TIMEOUT;
		res->summary = xasprintf("timeout: still running after %g s; stopped, with every "
					 "process it started", res->timeout_s);
		return;
	}
	res->status = RUN_RUNTIME_ERROR;
	if (!h) {
		char *last = run_last_line(checker->err);

		/* the worker's crash is the likelier story */
		why = res->signal ? worker_end(res, "")
				  : xasprintf("the checker could not judge the run (%s%s%s)",
					      bad_report, last ? ": " : "", last ? last : "");
		res->summary = xasprintf("runtime error: %s", why);
		free(last);
	} else if (said && strcmp(said, "pass") == 0) {
		if (res->exit_code == 0 && !res->signal) {
			res->status = RUN_PASS;
			res->summary = pass_summary(res);
		} else {
			why = worker_end(res, "");
			res->summary = xasprintf("runtime error: every output was right, but the "
						 "program then ended badly: %s", why);
		}
	} else if (said && strcmp(said, "wrong") == 0) {
		res->status = RUN_WRONG;
		res->summary = wrong_summary(res);
	} else if (said && strcmp(said, "runtime_error") == 0) {
		/* the worker's stream ended early: its own end says why */
		if (str(err, "name") && strcmp(str(err, "name"), "ended_early") == 0)
			why = worker_end(res, "no result (the program ended before its harness "
					      "finished)");
		else
			why = error_text(h);
		if (!why)
			why = run_last_line(res->err);
		res->summary = xasprintf("runtime error: %s", why ? why : "reported by the program");
	} else {
		res->summary = xasprintf("runtime error: the checker reported an unknown status "
					 "\"%s\"", said ? said : "(none)");
	}
	free(why);
}

static cJSON *parse_object(const char *text)
{
	cJSON *j = text ? cJSON_Parse(text) : NULL;

	if (j && !cJSON_IsObject(j)) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

unsigned long long run_hazard_total(const char *path)
{
	char *text = run_read_text(path, NULL);
	cJSON *j = parse_object(text);
	double total = num(j, "total");

	free(text);
	cJSON_Delete(j);
	return (unsigned long long)count_of(total, 0);
}

/* simt's hazard reports (the object it writes to CUDALAB_SIMT_HAZARDS):
 * their messages go to res; any report makes a pass or a wrong answer a
 * hazard, a verdict that does not rest on luck.  A crash or a timeout
 * keeps its own status, with the reports beside it. */
static void read_hazards(struct run_result *res, const cJSON *hz)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(hz, "hazards"), *r;
	double total = num(hz, "total");
	size_t n = (size_t)cJSON_GetArraySize(list);

	if (!hz || count_of(total, 0) == 0)
		return;
	res->hazard_total = (unsigned long long)count_of(total, 0);
	res->hazards = xcalloc(n ? n : 1, sizeof *res->hazards);
	cJSON_ArrayForEach(r, list) {
		const char *msg = str(r, "message");
		double count = num(r, "count");

		if (!msg)
			continue;
		res->hazards[res->n_hazards++] =
			!isnan(count) && count > 1
				? xasprintf("%s (%.0f times)", msg, count)
				: xstrdup(msg);
	}
	if (res->status != RUN_PASS && res->status != RUN_WRONG)
		return;
	res->status = RUN_HAZARD;
	free(res->summary);
	if (res->n_hazards && res->hazard_total > 1)
		res->summary = xasprintf("hazard: %s (and %llu more)", str(list->child, "message"),
					 res->hazard_total - 1);
	else if (res->n_hazards)
		res->summary = xasprintf("hazard: %s", str(list->child, "message"));
	else
		res->summary = xasprintf("hazard: simt reported %llu hazards", res->hazard_total);
}

/* A pass on simt stands only on a hazard report written with the checks
 * on: a program that turned them off, or kept simt from writing its
 * report, has no clean report to show. */
static void require_report(struct run_result *res, const cJSON *hz)
{
	const char *why = NULL;

	if (res->status != RUN_PASS)
		return;
	if (!hz)
		why = "simt's hazard report is missing (the program kept simt from writing it): a "
		      "check passes only with the report";
	else if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(hz, "checks")))
		why = "simt's hazard checks were off in the program (a check runs with them on "
		      "whatever the environment says)";
	if (!why)
		return;
	res->status = RUN_RUNTIME_ERROR;
	free(res->summary);
	res->summary = xasprintf("runtime error: %s", why);
}

/* The checker's object, when it wrote exactly one; else NULL with *bad
 * saying what it wrote. */
static cJSON *checker_object(const struct run_child *checker, const char **bad)
{
	cJSON *h;

	*bad = "it wrote no result";
	if (!checker->result || !checker->result_len)
		return NULL;
	/* one object and nothing after it (the length counts the NUL cJSON
	 * wants to see) */
	h = cJSON_ParseWithLengthOpts(checker->result, checker->result_len + 1, NULL, 1);
	if (cJSON_IsObject(h))
		return h;
	cJSON_Delete(h);
	*bad = checker->result_dropped ? "its result is too large" : "its result is not one JSON object";
	return NULL;
}

/* What the program that ran the learner's code printed, and how it ended. */
static void take_end(struct run_result *res, const struct run_child *worker)
{
	res->out = xstrdup(worker->out ? worker->out : "");
	res->err = xstrdup(worker->err ? worker->err : "");
	res->out_truncated = worker->out_dropped;
	res->err_truncated = worker->err_dropped;
	res->run_s = worker->wall_s;
	res->exit_code = WIFEXITED(worker->status) ? WEXITSTATUS(worker->status) : -1;
	res->signal = WIFSIGNALED(worker->status) && !worker->timed_out ? WTERMSIG(worker->status)
									 : 0;
	res->sandbox = worker->sandboxed;
}

void run_interpret(const struct run_request *req, struct run_result *res,
		   const struct run_child *worker, const struct run_child *checker,
		   const char *counters, const char *hazards)
{
	cJSON *h, *simt, *hz;
	const char *bad = NULL;

	take_end(res, worker);
	h = checker_object(checker, &bad);
	if (h && !worker->timed_out)
		read_report(res, h);
	decide(res, worker, checker, worker->timed_out ? NULL : h, bad);
	simt = res->backend == BACKEND_SIMT ? parse_object(counters) : NULL;
	hz = res->backend == BACKEND_SIMT ? parse_object(hazards) : NULL;
	if (res->backend == BACKEND_SIMT)
		require_report(res, hz);
	read_hazards(res, hz);
	if (hz && simt)
		put(simt, "hazards", hz);
	else
		cJSON_Delete(hz);
	run_result_json(res, req, h, simt);
}

void run_interpret_alone(struct run_result *res, const struct run_child *alone)
{
	const char *bad = NULL;
	cJSON *h;

	take_end(res, alone);
	h = alone->timed_out ? NULL : checker_object(alone, &bad);
	if (h)
		read_report(res, h);
	decide(res, alone, alone, h, bad);
	cJSON_Delete(h);
}

void run_result_note(struct run_result *res, const char *key, const char *text)
{
	cJSON *o = res->json ? cJSON_Parse(res->json) : NULL;

	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return;
	}
	if (strcmp(key, "summary") == 0)
		put(o, "status", cJSON_CreateString(run_status_name(res->status)));
	put(o, key, cJSON_CreateString(text));
	free(res->json);
	res->json = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
}

void run_interpret_compile(const struct run_request *req, struct run_result *res)
{
	const struct run_compile_error *e = res->n_errors ? &res->errors[0] : NULL;

	res->status = RUN_COMPILE_ERROR;
	if (e && e->file && e->line)
		res->summary = xasprintf("compile error: %s:%d: %s", e->file, e->line, e->message);
	else if (e)
		res->summary = xasprintf("compile error: %s", e->message);
	else
		res->summary = xstrdup("compile error (see the compiler's output)");
	run_result_json(res, req, NULL, NULL);
}

/* Sets key (spelled exactly so: a harness's "Status" is another key). */
static void put(cJSON *obj, const char *key, cJSON *item)
{
	if (cJSON_GetObjectItemCaseSensitive(obj, key))
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item);
	else
		cJSON_AddItemToObject(obj, key, item);
}

static cJSON *errors_json(const struct run_result *res)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; i < res->n_errors; i++) {
		const struct run_compile_error *e = &res->errors[i];
		cJSON *o = cJSON_CreateObject();

		put(o, "file", e->file ? cJSON_CreateString(e->file) : cJSON_CreateNull());
		put(o, "line", e->line ? cJSON_CreateNumber(e->line) : cJSON_CreateNull());
		put(o, "message", cJSON_CreateString(e->message));
		if (e->missing)
			put(o, "missing", cJSON_CreateTrue());
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* The protections that held for the program under check, by name. */
static cJSON *sandbox_json(unsigned bits)
{
	cJSON *arr = cJSON_CreateArray();

	for (unsigned bit = 1; bit && bit <= bits; bit <<= 1)
		if ((bits & bit) && run_sandbox_name(bit))
			cJSON_AddItemToArray(arr, cJSON_CreateString(run_sandbox_name(bit)));
	return arr;
}

void run_result_json(struct run_result *res, const struct run_request *req, cJSON *harness,
		     cJSON *simt)
{
	cJSON *o = harness ? harness : cJSON_CreateObject();

	if (!cJSON_GetObjectItemCaseSensitive(o, "schema"))
		put(o, "schema", cJSON_CreateNumber(1));
	if (!str(o, "exercise"))
		put(o, "exercise", cJSON_CreateString(req->ex->id));
	put(o, "status", cJSON_CreateString(run_status_name(res->status)));
	put(o, "backend", cJSON_CreateString(run_backend_name(res->backend)));
	put(o, "mode", cJSON_CreateString(run_mode_name(req->mode)));
	put(o, "summary", cJSON_CreateString(res->summary));
	put(o, "cached", cJSON_CreateBool(res->cached));
	put(o, "source_hash", res->source_hash ? cJSON_CreateString(res->source_hash)
					       : cJSON_CreateNull());
	put(o, "compile_log", cJSON_CreateString(res->compile_log ? res->compile_log : ""));
	put(o, "compile_errors", errors_json(res));
	put(o, "stdout", cJSON_CreateString(res->out ? res->out : ""));
	put(o, "stderr", cJSON_CreateString(res->err ? res->err : ""));
	put(o, "stdout_truncated_bytes", cJSON_CreateNumber((double)res->out_truncated));
	put(o, "stderr_truncated_bytes", cJSON_CreateNumber((double)res->err_truncated));
	put(o, "exit_code", res->exit_code >= 0 ? cJSON_CreateNumber(res->exit_code)
						: cJSON_CreateNull());
	put(o, "signal", res->signal ? cJSON_CreateString(run_signal_name(res->signal))
				     : cJSON_CreateNull());
	put(o, "timeout_s", cJSON_CreateNumber(res->timeout_s));
	if (res->backend == BACKEND_SIMT)
		put(o, "schedule", cJSON_CreateNumber(res->schedule));
	if (res->sandbox)
		put(o, "sandbox", sandbox_json(res->sandbox));
	if (res->build_note)
		put(o, "build_note", cJSON_CreateString(res->build_note));
	if (simt)
		put(o, "simt", simt);
	free(res->json);
	res->json = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
}

/* The status named s, or -1. */
static int status_named(const char *s)
{
	for (int i = RUN_PASS; s && i <= RUN_HAZARD; i++)
		if (strcmp(run_status_name((enum run_status)i), s) == 0)
			return i;
	return -1;
}

int run_result_from_json(const char *json, struct run_result *res)
{
	cJSON *o = json ? cJSON_Parse(json) : NULL;
	const cJSON *errs, *e, *hz;
	const char *s;
	int status = o ? status_named(str(o, "status")) : -1;

	run_result_init(res);
	if (!cJSON_IsObject(o) || status < 0) {
		cJSON_Delete(o);
		return -1;
	}
	res->status = (enum run_status)status;
	s = str(o, "backend");
	res->backend = s && strcmp(s, "gpu") == 0	   ? BACKEND_GPU
		       : s && str_starts(s, "ssh:")	   ? BACKEND_SSH
		       : s && strcmp(s, "slurm") == 0	   ? BACKEND_SLURM
							   : BACKEND_SIMT;
	s = str(o, "remote_backend");
	res->remote_gpu = s && strcmp(s, "gpu") == 0;
	read_report(res, o);
	res->summary = xstrdup(str(o, "summary") ? str(o, "summary") : run_status_name(res->status));
	res->out = xstrdup(str(o, "stdout") ? str(o, "stdout") : "");
	res->err = xstrdup(str(o, "stderr") ? str(o, "stderr") : "");
	if (str(o, "nondeterminism"))
		res->nondeterminism = xstrdup(str(o, "nondeterminism"));
	res->cached = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "cached"));
	res->prediction = run_prediction_from_json(cJSON_GetObjectItemCaseSensitive(o, "prediction"));
	errs = cJSON_GetObjectItemCaseSensitive(o, "compile_errors");
	if (cJSON_GetArraySize(errs) > 0)
		res->errors = xcalloc((size_t)cJSON_GetArraySize(errs), sizeof *res->errors);
	cJSON_ArrayForEach(e, errs) {
		struct run_compile_error *ce = &res->errors[res->n_errors++];
		double line = num(e, "line");

		ce->file = str(e, "file") ? xstrdup(str(e, "file")) : NULL;
		ce->line = int_count_of(line, 0);
		ce->message = xstrdup(str(e, "message") ? str(e, "message") : "");
		ce->missing = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "missing"));
	}
	hz = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "simt"),
					      "hazards");
	res->hazard_total = (unsigned long long)count_of(num(hz, "total"), 0);
	res->json = xstrdup(json);
	cJSON_Delete(o);
	return 0;
}

int run_case_width(const struct run_result *r)
{
	size_t w = 0;

	for (size_t i = 0; i < r->n_cases; i++)
		if (r->cases[i].name && strlen(r->cases[i].name) > w)
			w = strlen(r->cases[i].name);
	return w > 40 ? 40 : (int)w;
}

/* A case's counts add up its seeds' (three in a check): "3 elements never
 * written" of n=1 is one element in each. */
#define SEEDS_SUMMED " (summed over the case's seeds)"

char *run_case_errors(const struct run_case *c)
{
	struct strbuf sb;
	int failed = strcmp(c->status, "pass") != 0;
	long wrong = c->mismatches - (c->not_written > 0 ? c->not_written : 0) - c->overruns;

	sb_init(&sb);
	if (failed && c->not_written > 0)
		sb_printf(&sb, "%ld element%s never written", c->not_written,
			  c->not_written == 1 ? "" : "s");
	if (failed && c->overruns > 0)
		sb_printf(&sb, "%swrote past the end of the output", sb.len ? "; " : "");
	if (failed && sb.len && c->mismatches >= 0 && wrong <= 0) {
		/* nothing else was wrong: the error figures would read as a pass */
		sb_puts(&sb, c->overruns > 0 && !c->not_written ? "; the values inside are right"
								: SEEDS_SUMMED);
		return sb_steal(&sb);
	}
	if (failed && wrong > 0 && sb.len)
		sb_printf(&sb, "; %ld wrong value%s%s:", wrong, wrong == 1 ? "" : "s", SEEDS_SUMMED);
	if (!isnan(c->max_abs_err))
		sb_printf(&sb, "%smax abs err %.3g", sb.len ? " " : "", c->max_abs_err);
	if (!isnan(c->max_rel_err))
		sb_printf(&sb, "%smax rel err %.3g", sb.len ? "  " : "", c->max_rel_err);
	if (!sb.len && failed)
		sb_puts(&sb, "failed");
	return sb_steal(&sb);
}
