/* predict.c — simt's time model seen from the runner: which GPUs it knows
 * (the device files, devices/FORMAT.md), the environment that turns it on
 * for a run, and its per-launch report read back into a run_prediction
 * (docs/time-model.md). */
#include "predict.h"

#include <cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/util.h"
#include "result.h"

/* Launches a prediction keeps, the longest first. */
#define KEEP_LAUNCHES 8

char *run_devices_path(const char *content)
{
	const char *env = getenv("CUDALAB_SIMT_DEVICES");
	char *own = path_join(content ? content : ".", "devices"), *all;

	if (!env || !*env)
		return own;
	all = xasprintf("%s:%s", env, own);
	free(own);
	return all;
}

/* The value of the `name` line of a device file ("NVIDIA H100 SXM5 80GB"),
 * its source citation in brackets left out; NULL when it has none. */
static char *device_name(const char *path)
{
	char *text = read_file(path, NULL), *line, *save = NULL, *name = NULL;

	if (!text)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line && !name;
	     line = strtok_r(NULL, "\n", &save)) {
		char *v, *end;

		while (*line == ' ' || *line == '\t')
			line++;
		if (strncmp(line, "name", 4) != 0)
			continue;
		for (v = line + 4; *v == ' ' || *v == '\t'; v++)
			;
		if (*v != '=')
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		end = strchr(v, '[');
		if (!end)
			end = v + strlen(v);
		while (end > v && isspace((unsigned char)end[-1]))
			end--;
		name = xstrndup(v, (size_t)(end - v));
	}
	free(text);
	return name;
}

static int good_id(const char *id, size_t n)
{
	if (n == 0 || n >= 64 || id[0] == '.' || id[0] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)id[i]) && id[i] != '-' && id[i] != '_' && id[i] != '.')
			return 0;
	return 1;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **run_devices_list(const char *content, char ***names)
{
	char *path = run_devices_path(content), *save = NULL, *dir;
	char **ids = NULL, **found_in = NULL;
	size_t n = 0, cap = 0, cap2 = 0;

	for (dir = strtok_r(path, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		DIR *d = opendir(dir);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			size_t len = strlen(e->d_name), i;

			if (len < 5 || strcmp(e->d_name + len - 4, ".gpu") != 0 ||
			    !good_id(e->d_name, len - 4))
				continue;
			for (i = 0; i < n; i++) /* the first directory wins, as in simt */
				if (strcspn(ids[i], "\t") == len - 4 &&
				    !strncmp(ids[i], e->d_name, len - 4))
					break;
			if (i < n)
				continue;
			xgrow((void **)&ids, &cap, n + 2, sizeof *ids);
			xgrow((void **)&found_in, &cap2, n + 2, sizeof *found_in);
			ids[n] = xasprintf("%.*s\t%s/%s", (int)(len - 4), e->d_name, dir, e->d_name);
			found_in[n] = NULL;
			n++;
		}
		if (d)
			closedir(d);
	}
	free(path);
	if (n)
		qsort(ids, n, sizeof *ids, by_text);
	if (!ids)
		ids = xcalloc(1, sizeof *ids);
	ids[n] = NULL;
	for (size_t i = 0; i < n; i++) {
		char *tab = strchr(ids[i], '\t');

		*tab = '\0';
		if (names)
			found_in[i] = device_name(tab + 1);
		if (names && !found_in[i])
			found_in[i] = xstrdup(ids[i]);
	}
	if (names) {
		if (!found_in)
			found_in = xcalloc(1, sizeof *found_in);
		found_in[n] = NULL;
		*names = found_in;
	} else {
		free(found_in);
	}
	return ids;
}

int run_device_find(const char *content, const char *id, char **name, char **why)
{
	char **names, **ids = run_devices_list(content, &names);
	struct strbuf sb;
	int rc = -1;
	size_t i;

	*name = NULL;
	*why = NULL;
	for (i = 0; ids[i]; i++)
		if (strcmp(ids[i], id) == 0) {
			*name = xstrdup(names[i]);
			rc = 0;
		}
	if (rc != 0) {
		sb_init(&sb);
		if (!ids[0]) {
			char *path = run_devices_path(content);

			sb_printf(&sb, "no device files found (looked in %s)", path);
			free(path);
		} else {
			const char *near = str_nearest(id, (const char *const *)ids, i);

			sb_printf(&sb, "unknown device '%s'", id);
			if (near)
				sb_printf(&sb, " (did you mean %s?)", near);
			sb_puts(&sb, "; known:");
			for (i = 0; ids[i]; i++)
				sb_printf(&sb, " %s", ids[i]);
		}
		*why = sb_steal(&sb);
	}
	run_argv_free(ids);
	run_argv_free(names);
	return rc;
}

/* The words of a GPU name that tell models apart: lower-case runs of
 * letters and digits, without the maker's and the memory's words. */
static size_t name_words(const char *name, char words[][24], size_t max)
{
	static const char *const noise[] = { "nvidia", "geforce", "tesla", "tensor", "core",
					     "gpu", "hbm3", "hbm2", "hbm2e", "sxm4", "sxm5" };
	size_t n = 0;

	while (*name && n < max) {
		size_t k = 0, j;

		while (*name && !isalnum((unsigned char)*name))
			name++;
		while (isalnum((unsigned char)*name)) {
			if (k < 23)
				words[n][k++] = (char)tolower((unsigned char)*name);
			name++;
		}
		words[n][k] = '\0';
		if (!k)
			continue;
		for (j = 0; j < sizeof noise / sizeof noise[0]; j++)
			if (strcmp(words[n], noise[j]) == 0)
				break;
		/* a memory size ("80gb") says nothing of the chip */
		if (j == sizeof noise / sizeof noise[0] && !str_ends(words[n], "gb"))
			n++;
	}
	return n;
}

/* The model word of a name: the first word holding a digit ("h100",
 * "a100", "4090", "v100", "t4", "l4"); "a6000" for an RTX A6000. */
static const char *model_word(char words[][24], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strpbrk(words[i], "0123456789"))
			return words[i];
	return NULL;
}

static int has_word(char words[][24], size_t n, const char *w)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(words[i], w) == 0)
			return 1;
	return 0;
}

char *run_device_match(const char *content, const char *gpu_name)
{
	char have[16][24], want[16][24], **names, **ids;
	size_t nh, nw;
	const char *model;
	char *found = NULL;

	if (!gpu_name)
		return NULL;
	nh = name_words(gpu_name, have, 16);
	model = model_word(have, nh);
	if (!model)
		return NULL;
	ids = run_devices_list(content, &names);
	for (size_t i = 0; ids[i] && !found; i++) {
		const char *m;

		nw = name_words(names[i], want, 16);
		m = model_word(want, nw);
		if (m && strcmp(m, model) == 0 &&
		    has_word(want, nw, "pcie") == has_word(have, nh, "pcie"))
			found = xstrdup(ids[i]);
	}
	run_argv_free(ids);
	run_argv_free(names);
	return found;
}

static int by_us(const void *a, const void *b)
{
	const struct run_launch_prediction *x = a, *y = b;

	return x->us < y->us ? 1 : x->us > y->us ? -1 : 0;
}

/* A launch as simt's report or the result JSON has it (stalls under
 * stalls_key): 0, or -1 when it names no kernel or time. */
static int launch_of(const cJSON *o, const char *stalls_key, struct run_launch_prediction *l)
{
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "kernel");
	const cJSON *us = cJSON_GetObjectItemCaseSensitive(o, "us");
	const cJSON *lim = cJSON_GetObjectItemCaseSensitive(o, "limits");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, stalls_key);
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "blocks");
	const cJSON *br = cJSON_GetObjectItemCaseSensitive(o, "blocks_run");

	memset(l, 0, sizeof *l);
	if (!cJSON_IsString(k) || !cJSON_IsNumber(us))
		return -1;
	l->kernel = k->valuestring;
	l->us = us->valuedouble;
	l->limits = cJSON_IsString(lim) ? lim->valuestring : NULL;
	l->stalls = cJSON_IsString(st) ? st->valuestring : NULL;
	l->blocks = cJSON_IsNumber(b) ? (unsigned long long)b->valuedouble : 0;
	l->blocks_run = cJSON_IsNumber(br) ? (unsigned long long)br->valuedouble : l->blocks;
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Adds one launch to p, merging it with an earlier one of the same kernel
 * (the same kernel launched many times is one line: its total). */
static void add_launch(struct run_prediction *p, size_t *cap, const cJSON *o)
{
	struct run_launch_prediction in, *l = NULL;

	if (launch_of(o, "stall_text", &in) != 0)
		return;
	p->total_launches++;
	for (size_t i = 0; i < p->n_launches; i++)
		if (strcmp(p->launches[i].kernel, in.kernel) == 0)
			l = &p->launches[i];
	if (!l) {
		xgrow((void **)&p->launches, cap, p->n_launches + 1, sizeof *p->launches);
		l = &p->launches[p->n_launches++];
		memset(l, 0, sizeof *l);
		l->kernel = xstrdup(in.kernel);
	}
	l->us += in.us;
	/* the words of the kernel's first launch stand for it */
	if (!l->limits)
		l->limits = dup_or_null(in.limits);
	if (!l->stalls)
		l->stalls = dup_or_null(in.stalls);
	l->blocks += in.blocks;
	l->blocks_run += in.blocks_run;
	if (in.blocks_run < in.blocks)
		p->sampled = 1;
}

static void launch_free(struct run_launch_prediction *l)
{
	free(l->kernel);
	free(l->limits);
	free(l->stalls);
}

int run_prediction_read(const char *path, struct run_prediction *p)
{
	char *text = read_file(path, NULL), *line, *save = NULL;
	size_t cap = 0;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		cJSON *o = cJSON_Parse(line);

		if (cJSON_IsObject(o))
			add_launch(p, &cap, o);
		cJSON_Delete(o);
	}
	free(text);
	if (p->n_launches)
		qsort(p->launches, p->n_launches, sizeof *p->launches, by_us);
	while (p->n_launches > KEEP_LAUNCHES)
		launch_free(&p->launches[--p->n_launches]);
	return 0;
}

void run_prediction_free(struct run_prediction *p)
{
	if (!p)
		return;
	free(p->device);
	free(p->name);
	for (size_t i = 0; i < p->n_launches; i++)
		launch_free(&p->launches[i]);
	free(p->launches);
	free(p->error);
	memset(p, 0, sizeof *p);
}

static void time_text(char *out, size_t n, double us);

static struct run_prediction *prediction_new(const struct run_request *req)
{
	struct run_prediction *p = xcalloc(1, sizeof *p);
	char *why = NULL;

	p->device = xstrdup(req->predict);
	if (run_device_find(req->content, req->predict, &p->name, &why) != 0)
		p->name = xstrdup(req->predict);
	free(why);
	p->ms = p->gbps = p->pct_peak_bw = p->tflops = p->pct_peak_flops = NAN;
	return p;
}

static void put_number(cJSON *o, const char *key, double v)
{
	if (!isnan(v))
		cJSON_AddNumberToObject(o, key, v);
}

/* res->prediction as the result JSON's "prediction" object. */
static void prediction_note(struct run_result *res)
{
	const struct run_prediction *p = res->prediction;
	cJSON *o = res->json ? cJSON_Parse(res->json) : NULL, *q, *ls;

	if (!cJSON_IsObject(o) || !p) {
		cJSON_Delete(o);
		return;
	}
	q = cJSON_CreateObject();
	cJSON_AddStringToObject(q, "device", p->device);
	cJSON_AddStringToObject(q, "name", p->name);
	put_number(q, "ms", p->ms);
	put_number(q, "gbps", p->gbps);
	put_number(q, "pct_peak_bw", p->pct_peak_bw);
	put_number(q, "tflops", p->tflops);
	put_number(q, "pct_peak_flops", p->pct_peak_flops);
	cJSON_AddBoolToObject(q, "sampled", p->sampled);
	cJSON_AddNumberToObject(q, "launches_total", (double)p->total_launches);
	ls = cJSON_AddArrayToObject(q, "launches");
	for (size_t i = 0; i < p->n_launches; i++) {
		const struct run_launch_prediction *l = &p->launches[i];
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "kernel", l->kernel);
		cJSON_AddNumberToObject(x, "us", l->us);
		if (l->limits)
			cJSON_AddStringToObject(x, "limits", l->limits);
		if (l->stalls)
			cJSON_AddStringToObject(x, "stalls", l->stalls);
		cJSON_AddNumberToObject(x, "blocks", (double)l->blocks);
		cJSON_AddNumberToObject(x, "blocks_run", (double)l->blocks_run);
		cJSON_AddItemToArray(ls, x);
	}
	if (p->error)
		cJSON_AddStringToObject(q, "error", p->error);
	cJSON_DeleteItemFromObjectCaseSensitive(o, "prediction");
	cJSON_AddItemToObject(o, "prediction", q);
	free(res->json);
	res->json = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
}

void run_prediction_attach(const struct run_request *req, struct run_result *res,
			   const char *path)
{
	struct run_prediction *p = prediction_new(req);

	if (run_prediction_read(path, p) != 0 || !p->total_launches)
		p->error = xstrdup(res->status == RUN_PASS ? "no kernel was launched"
				   : "the run ended before a launch was predicted");
	if (res->prediction) {
		run_prediction_free(res->prediction);
		free(res->prediction);
	}
	res->prediction = p;
	prediction_note(res);
}

void run_prediction_take(const struct run_request *req, struct run_result *res,
			 struct run_result *predicted)
{
	struct run_prediction *p = predicted->prediction;

	predicted->prediction = NULL;
	if (!p) /* the run did not get as far as simt's report */
		p = prediction_new(req);
	if (predicted->status == RUN_PASS && !isnan(predicted->timing.median_ms)) {
		p->ms = predicted->timing.median_ms;
		p->gbps = predicted->derived.gbps;
		p->pct_peak_bw = predicted->derived.pct_peak_bw;
		p->tflops = predicted->derived.tflops;
		p->pct_peak_flops = predicted->derived.pct_peak_flops;
	} else if (!p->error || predicted->status != RUN_PASS) {
		free(p->error);
		p->error = predicted->status == RUN_PASS
				   ? xstrdup("the harness timed nothing")
				   : xasprintf("the run at the GPU's sizes failed: %s",
					       predicted->summary ? predicted->summary : "no result");
	}
	res->prediction = p;
	if (res->status == RUN_PASS && !isnan(p->ms)) {
		/* the summary leads with the time the learner came for */
		char t[32], *sum;
		size_t passed = 0;

		for (size_t i = 0; i < res->n_cases; i++)
			passed += strcmp(res->cases[i].status, "pass") == 0;
		time_text(t, sizeof t, p->ms * 1000);
		sum = xasprintf("pass: %zu/%zu cases, predicted %s on %s (a model estimate)",
				passed, res->n_cases, t, p->device);
		free(res->summary);
		res->summary = sum;
		run_result_note(res, "summary", sum);
	}
	prediction_note(res);
}

/* A number of seconds in the unit that suits it: "412 us", "2.658 ms". */
static void time_text(char *out, size_t n, double us)
{
	if (us >= 1000)
		snprintf(out, n, "%.3f ms", us / 1000);
	else
		snprintf(out, n, "%.1f us", us);
}

size_t run_prediction_lines(const struct run_prediction *p, char ***lines)
{
	char **v = NULL, t[32];
	size_t n = 0, cap = 0;

#define LINE(...) (xgrow((void **)&v, &cap, n + 1, sizeof *v), v[n++] = xasprintf(__VA_ARGS__))
	*lines = NULL;
	if (!p)
		return 0;
	if (p->error && !*p->device) {
		LINE("no prediction for %s: %s", p->name, p->error);
		*lines = v;
		return n;
	}
	if (p->error) {
		LINE("no prediction for %s (%s): %s", p->name ? p->name : p->device, p->device,
		     p->error);
		*lines = v;
		return n;
	}
	if (!isnan(p->ms)) {
		time_text(t, sizeof t, p->ms * 1000);
		LINE("predicted on %s (%s): %s, a model estimate, not a measurement", p->name,
		     p->device, t);
	} else {
		LINE("predicted on %s (%s), per kernel at the check's sizes (a model estimate):",
		     p->name, p->device);
	}
	if (!isnan(p->gbps) || !isnan(p->tflops)) {
		char bw[96] = "", fl[64] = "";

		if (!isnan(p->gbps))
			snprintf(bw, sizeof bw, "%.1f GB/s%s", p->gbps, "");
		if (!isnan(p->gbps) && !isnan(p->pct_peak_bw))
			snprintf(bw, sizeof bw, "%.1f GB/s = %.1f%% of its DRAM peak", p->gbps,
				 p->pct_peak_bw);
		if (!isnan(p->tflops) && p->tflops > 0)
			snprintf(fl, sizeof fl, "%.2f TFLOP/s", p->tflops);
		if (!isnan(p->tflops) && p->tflops > 0 && !isnan(p->pct_peak_flops))
			snprintf(fl, sizeof fl, "%.2f TFLOP/s = %.1f%% of its peak", p->tflops,
				 p->pct_peak_flops);
		LINE("  %s%s%s", bw, bw[0] && fl[0] ? ", " : "", fl);
	}
	for (size_t i = 0; i < p->n_launches; i++) {
		const struct run_launch_prediction *l = &p->launches[i];

		time_text(t, sizeof t, l->us);
		LINE("  %s: %s%s", l->kernel, t,
		     l->blocks_run < l->blocks ? " (a sample of its blocks ran)" : "");
		if (l->limits)
			LINE("    %s", l->limits);
		if (l->stalls)
			LINE("    scheduler cycles: %s", l->stalls);
	}
	if (p->total_launches > p->n_launches && p->n_launches)
		LINE("  (%llu launches in all; the %zu longest kernels shown)", p->total_launches,
		     p->n_launches);
#undef LINE
	*lines = v;
	return n;
}

struct run_prediction *run_prediction_from_json(const cJSON *o)
{
	const cJSON *ls = cJSON_GetObjectItemCaseSensitive(o, "launches"), *x;
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(o, "device");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(o, "error");
	const cJSON *total = cJSON_GetObjectItemCaseSensitive(o, "launches_total");
	struct run_prediction *p;
	size_t cap = 0;

	if (!cJSON_IsObject(o) || !cJSON_IsString(dev))
		return NULL;
	p = xcalloc(1, sizeof *p);
	p->device = xstrdup(dev->valuestring);
	p->name = xstrdup(cJSON_IsString(name) ? name->valuestring : dev->valuestring);
	p->error = cJSON_IsString(err) ? xstrdup(err->valuestring) : NULL;
	x = cJSON_GetObjectItemCaseSensitive(o, "ms");
	p->ms = cJSON_IsNumber(x) ? x->valuedouble : NAN;
	x = cJSON_GetObjectItemCaseSensitive(o, "gbps");
	p->gbps = cJSON_IsNumber(x) ? x->valuedouble : NAN;
	x = cJSON_GetObjectItemCaseSensitive(o, "pct_peak_bw");
	p->pct_peak_bw = cJSON_IsNumber(x) ? x->valuedouble : NAN;
	x = cJSON_GetObjectItemCaseSensitive(o, "tflops");
	p->tflops = cJSON_IsNumber(x) ? x->valuedouble : NAN;
	x = cJSON_GetObjectItemCaseSensitive(o, "pct_peak_flops");
	p->pct_peak_flops = cJSON_IsNumber(x) ? x->valuedouble : NAN;
	p->sampled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "sampled"));
	cJSON_ArrayForEach(x, ls) {
		struct run_launch_prediction in;

		if (launch_of(x, "stalls", &in) != 0 || p->n_launches >= KEEP_LAUNCHES)
			continue;
		xgrow((void **)&p->launches, &cap, p->n_launches + 1, sizeof *p->launches);
		in.kernel = xstrdup(in.kernel);
		in.limits = dup_or_null(in.limits);
		in.stalls = dup_or_null(in.stalls);
		p->launches[p->n_launches++] = in;
	}
	p->total_launches = cJSON_IsNumber(total) ? (unsigned long long)total->valuedouble
						  : p->n_launches;
	return p;
}

void run_prediction_fail(const struct run_request *req, struct run_result *res, const char *why)
{
	run_prediction_fail_for(req, res, NULL, why);
}

void run_prediction_fail_for(const struct run_request *req, struct run_result *res,
			     const char *gpu_name, const char *why)
{
	struct run_prediction *p = prediction_new(req);

	if (gpu_name) {
		free(p->name);
		free(p->device);
		p->name = xstrdup(gpu_name);
		p->device = xstrdup("");
	}
	p->error = xstrdup(why);
	if (res->prediction) {
		run_prediction_free(res->prediction);
		free(res->prediction);
	}
	res->prediction = p;
	prediction_note(res);
}
