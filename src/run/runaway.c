/* runaway.c — a kernel that runs away in a check on simt (an endless
 * loop, a spin on a flag nobody sets) is stopped within seconds, not at
 * the wall-clock limit, and the verdict names where it was.
 *
 * Each launch of a check gets a budget of warp instructions: RUNAWAY_FACTOR
 * times what the longest launch of the exercise's reference solution
 * needs for the same cases, and never less than RUNAWAY_FLOOR (about a
 * second of emulation).  The reference is measured once per machine, and
 * only when a learner's launch first goes past the floor: building and
 * running the solution costs a compile, which most checks never need.
 * The figure is kept in the cache under a key made of the solution, the
 * harness, the harness library (lab.h and its parts) and the seed.  CUDALAB_SIMT_MAX_INSTRUCTIONS, when the
 * learner sets it, is the budget instead. */
#include "runaway.h"

#include <cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "cudalab/content.h"
#include "cudalab/util.h"
#include "result.h"

#define RUNAWAY_FACTOR 64
#define RUNAWAY_FLOOR (UINT64_C(1) << 24)
#define BUDGET_MARK "ran past its budget of "

uint64_t run_runaway_floor(void)
{
	return RUNAWAY_FLOOR;
}

/* What the budget file is named by: the texts that decide how many
 * instructions the reference needs. */
static char *budget_path(const struct run_request *req, const char *cache, const char *include)
{
	const char *names[] = { "solution.cu", "harness.cu" };
	uint64_t h = RUN_FNV_INIT;
	char hex[17];

	for (size_t i = 0; i < 2; i++) {
		char *path = path_join(req->ex->dir, names[i]);
		size_t len = 0;
		char *text = run_read_text(path, &len);

		h = run_fnv1a64(h, names[i], strlen(names[i]) + 1);
		if (text)
			h = run_fnv1a64(h, text, len);
		free(text);
		free(path);
	}
	if (include) {
		char **lab = run_lab_files(include);

		for (size_t i = 0; lab[i]; i++) {
			char *path = path_join(include, lab[i]);
			size_t len = 0;
			char *text = run_read_text(path, &len);

			if (text)
				h = run_fnv1a64(h, text, len);
			free(text);
			free(path);
		}
		run_argv_free(lab);
	}
	if (req->seed >= 0)
		h = run_fnv1a64(h, &req->seed, sizeof req->seed);
	run_hash_hex(h, hex);
	return xasprintf("%s/reference-%s", cache, hex);
}

static int read_count(const char *path, uint64_t *count)
{
	char *text = run_read_text(path, NULL), *end;
	unsigned long long v;

	if (!text)
		return -1;
	errno = 0;
	v = strtoull(text, &end, 10);
	free(text);
	if (errno || end == text || v == 0)
		return -1;
	*count = (uint64_t)v;
	return 0;
}

static uint64_t budget_for(uint64_t reference)
{
	return reference * RUNAWAY_FACTOR > RUNAWAY_FLOOR ? reference * RUNAWAY_FACTOR
							  : RUNAWAY_FLOOR;
}

/* The warp instructions of the longest launch in simt's counters file,
 * or 0 when it holds none. */
static uint64_t longest_launch(const char *counters)
{
	char *text = run_read_text(counters, NULL);
	cJSON *j = text ? cJSON_Parse(text) : NULL, *k;
	double most = 0;

	cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(j, "kernels")) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(k, "max_launch_warp_instructions");

		if (cJSON_IsNumber(v) && v->valuedouble > most)
			most = v->valuedouble;
	}
	cJSON_Delete(j);
	free(text);
	return (uint64_t)most;
}

/* Runs the reference program once, checks off, and reads its longest
 * launch.  0 when it did not run to a pass. */
static uint64_t measure(const struct run_request *req, const char *prog, const char *cache)
{
	char seed[32], *counters = xasprintf("%s/counters-ref-%ld", cache, (long)getpid());
	char *entry = xasprintf("CUDALAB_SIMT_COUNTERS=%s", counters);
	char *gpus = xasprintf("CUDALAB_SIMT_GPUS=%d", run_gpus_needed(req));
	char *argv[] = { (char *)prog, "--mode", "check", NULL, NULL, NULL };
	/* every block run, not the time model's sample of them, whatever the
	 * shell says */
	const char *env[] = { entry, gpus, "CUDALAB_SIMT_CHECKS=0", "CUDALAB_SIMT_SCHEDULE=0",
			      "CUDALAB_SIMT_PREDICT=", "ASAN_OPTIONS=detect_leaks=0", NULL };
	struct run_child c;
	uint64_t most = 0;

	if (req->seed >= 0) {
		snprintf(seed, sizeof seed, "%ld", req->seed);
		argv[3] = "--seed";
		argv[4] = seed;
	}
	memset(&c, 0, sizeof c);
	c.argv = argv;
	c.env = env;
	c.timeout_s = run_default_timeout(RUN_CHECK, BACKEND_SIMT);
	c.cap = 1 << 16;
	c.want_result = 1;
	c.cancel = req->cancel;
	if (run_child_exec(&c) == 0 && !c.timed_out && !c.cancelled &&
	    WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0)
		most = longest_launch(counters);
	run_child_free(&c);
	unlink(counters);
	free(counters);
	free(entry);
	free(gpus);
	return most;
}

int run_runaway_budget(const struct run_request *req, const struct run_probe *probe,
		       const char *cache, const char *include, int may_measure, uint64_t *budget,
		       uint64_t *reference)
{
	char *path = budget_path(req, cache, include), *solution, *harness;
	struct run_request quiet = *req;
	struct run_build b;
	uint64_t most;
	int rc = -1;

	if (read_count(path, reference) == 0) {
		*budget = budget_for(*reference);
		free(path);
		return 0;
	}
	if (!may_measure) {
		free(path);
		return 1;
	}
	run_phase(req, "a launch ran long: measuring the reference solution once");
	quiet.progress = NULL;
	quiet.mode = RUN_CHECK;
	solution = path_join(req->ex->dir, "solution.cu");
	memset(&b, 0, sizeof b);
	b.probe = probe;
	b.backend = BACKEND_SIMT;
	b.cache = cache;
	b.ex_dir = req->ex->dir;
	b.include = include;
	b.req = &quiet;
	b.source = solution;
	b.harness = harness = path_join(req->ex->dir, "harness.cu");
	if (access(solution, R_OK) == 0 && run_build_exercise(&b) == 0 && !b.failed &&
	    (most = measure(req, b.prog, cache)) > 0) {
		FILE *f;

		*reference = most;
		*budget = budget_for(most);
		if ((f = fopen(path, "w"))) {
			fprintf(f, "%" PRIu64 "\n", most);
			fclose(f);
		}
		rc = 0;
	}
	free(harness);
	run_build_free(&b);
	free(solution);
	free(path);
	return rc;
}

int run_runaway_stopped(const struct run_result *res)
{
	return res->status == RUN_RUNTIME_ERROR && res->err && strstr(res->err, BUDGET_MARK);
}

/* The line after simt's budget message: "in KERNEL at FILE:LINE (PTX
 * line N), block (x,y,z) thread (x,y,z)", into out without the kernel's
 * parameter list. */
static void where_it_spun(const char *err, char *kernel, size_t ksize, char *where,
			  size_t wsize)
{
	const char *p = strstr(err, BUDGET_MARK), *at, *nl;

	snprintf(kernel, ksize, "the kernel");
	snprintf(where, wsize, "an unknown place");
	p = p ? strchr(p, '\n') : NULL;
	if (!p)
		return;
	p++;
	while (*p == ' ')
		p++;
	if (strncmp(p, "in ", 3) != 0)
		return;
	p += 3;
	nl = strchr(p, '\n');
	if (!nl)
		nl = p + strlen(p);
	at = strstr(p, " at ");
	if (!at || at > nl)
		at = strstr(p, ", ");
	if (!at || at > nl)
		return;
	snprintf(kernel, ksize, "%.*s", (int)(strcspn(p, "(") < (size_t)(at - p)
						  ? strcspn(p, "(") : (size_t)(at - p)), p);
	snprintf(where, wsize, "%.*s", (int)(nl - at - 1), at + 1);
}

void run_runaway_verdict(struct run_result *res, uint64_t budget, uint64_t reference)
{
	char kernel[128], where[256], *summary;

	where_it_spun(res->err, kernel, sizeof kernel, where, sizeof where);
	if (reference)
		summary = xasprintf("stopped early: one launch of %s ran %" PRIu64 " warp "
				    "instructions (%.0f times the %" PRIu64 " of the reference "
				    "solution's longest launch) and was still running %s (an "
				    "endless loop, or a wait for something that never comes? if it is "
				    "only slow, CUDALAB_SIMT_MAX_INSTRUCTIONS=N sets the limit)",
				    kernel, budget, (double)budget / (double)reference, reference,
				    where);
	else
		summary = xasprintf("stopped early: one launch of %s ran %" PRIu64 " warp "
				    "instructions and was still running %s (an endless loop, or "
				    "a wait for something that never comes? if it is only slow, "
				    "CUDALAB_SIMT_MAX_INSTRUCTIONS=N sets the limit)",
				    kernel, budget, where);
	res->status = RUN_TIMEOUT;
	free(res->summary);
	res->summary = summary;
	run_result_note(res, "summary", res->summary);
}
