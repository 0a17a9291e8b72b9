/* doctor.c — `cudalab doctor`: one line per part of the environment, what
 * works and, when something does not, what to do about it. */
#include "cudalab/cli.h"

#include <cJSON.h>

#include <curses.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <term.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/run.h"
#include "cudalab/store.h"

static void line(const char *state, const char *what, const char *fmt, ...) UTIL_PRINTF(3, 4);

static void line(const char *state, const char *what, const char *fmt, ...)
{
	va_list ap;

	printf("%-5s %-9s ", state, what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int check_content(struct cli *c)
{
	struct stat sb;
	struct catalog *cat;

	if (stat(c->content, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		line("FAIL", "content", "%s (%s) does not exist; pass --content DIR", c->content,
		     c->content_origin);
		return 1;
	}
	cat = cli_catalog(c);
	line(cat->n_diags ? "WARN" : "ok", "content", "%s (%s): %zu lessons, %zu reading items, %zu exercises%s",
	     c->content, c->content_origin, cat->n_lessons, catalog_count_items(cat), cat->n_exercises,
	     cat->n_diags ? "; problems found, run 'cudalab validate'" : "");
	return 0;
}

static int check_store(struct cli *c)
{
	char *warning = NULL, *err = NULL;
	struct store *st = store_open(c->home, &warning, &err);

	if (warning) {
		line("WARN", "database", "%s", warning);
		free(warning);
	}
	if (!st) {
		line("FAIL", "database", "%s; choose another place with --home DIR", err ? err : "cannot open");
		free(err);
		return 1;
	}
	line("ok", "database", "%s/progress.db (%s, schema %d)", c->home, c->home_origin,
	     store_schema_version(st));
	store_close(st);
	return 0;
}

/* The backend checks go to: the config's (b, set in HOME/config), else
 * auto, which the probe resolves. */
static void check_toolchain(struct cli *c, const struct cli_backend *b)
{
	struct run_probe p;
	char *why = NULL;

	run_probe(&p);
	if (p.nvcc)
		line("ok", "nvcc", "%s (release %s)", p.nvcc, p.nvcc_version ? p.nvcc_version : "unknown");
	else
		line("WARN", "nvcc", "not found in PATH, $CUDA_HOME/bin or /usr/local/cuda/bin: lessons "
		     "work; building exercises needs the CUDA toolkit");
	line(p.gpu ? "ok" : "info", "gpu", "%s", p.why);
	if (b->backend == BACKEND_AUTO)
		line("ok", "backend", "auto uses %s%s",
		     run_backend_name(run_backend_choose(&p, BACKEND_AUTO)),
		     p.gpu ? " (a usable GPU)" : " (no usable GPU: emulation; a bench predicts the GPU time with simt's time model)");
	else if (b->backend == BACKEND_SSH || b->backend == BACKEND_SLURM)
		line("ok", "backend", "%s%s%s, from %s/config: checks run there (below)",
		     run_backend_name(b->backend), b->backend == BACKEND_SSH ? ":" : "",
		     b->backend == BACKEND_SSH ? b->host : "", c->home);
	else if (run_backend_ready(&p, b->backend, &why) != 0)
		line("FAIL", "backend", "%s, from %s/config: %s", run_backend_name(b->backend),
		     c->home, why);
	else
		line("ok", "backend", "%s, from %s/config", run_backend_name(b->backend), c->home);
	free(why);
	if (p.simt_lib)
		line("ok", "simt", "%s", p.simt_lib);
	else
		line("WARN", "simt", "libcudalab-simt.a not found beside the binary or in %s; run 'make'",
		     CUDALAB_DATADIR);
	run_probe_free(&p);
}

static void check_terminal(void)
{
	const char *term = getenv("TERM");
	int err = 0, colors;

	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
		line("info", "terminal", "not a terminal: the lab needs one; 'cudalab read ID --plain' works anywhere");
		return;
	}
	if (!term || !*term || strcmp(term, "dumb") == 0) {
		line("WARN", "terminal", "TERM is %s: the lab needs a real terminal; use 'cudalab read ID --plain'",
		     term && *term ? term : "unset");
		return;
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		line("WARN", "terminal", "TERM=%s is unknown to terminfo; try TERM=xterm-256color", term);
		return;
	}
	colors = tigetnum("colors");
	line("ok", "terminal", "TERM=%s, %d colours%s", term, colors > 0 ? colors : 0,
	     getenv("NO_COLOR") ? " (NO_COLOR set: monochrome)" : "");
}

/* `doctor --backend ssh:HOST|slurm`, or a config that sends checks
 * there: what the far side has. */
static int doctor_remote(struct cli *c, const struct cli_backend *b)
{
	struct run_remote remote;
	struct run_request req;
	char *json = NULL, *why = NULL, *label;
	cJSON *o;
	int rc;

	if ((rc = cli_remote_setup(c, b, &remote)) != 0)
		return rc;
	memset(&req, 0, sizeof req);
	req.backend = b->backend;
	req.remote = &remote;
	label = run_remote_label(&req);
	if (run_remote_doctor(&req, &json, &why) != 0) {
		line("FAIL", "remote", "%s: %s", label, why);
		free(why);
		free(label);
		return EXIT_USAGE;
	}
	o = cJSON_Parse(json);
	{
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "version");
		const cJSON *nvcc = cJSON_GetObjectItemCaseSensitive(o, "nvcc");
		const cJSON *nv = cJSON_GetObjectItemCaseSensitive(o, "nvcc_version");
		const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(o, "gpu");
		const cJSON *cc = cJSON_GetObjectItemCaseSensitive(o, "cc");
		const cJSON *drv = cJSON_GetObjectItemCaseSensitive(o, "driver");
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "gpu_status");
		const cJSON *be = cJSON_GetObjectItemCaseSensitive(o, "backend");

		line("ok", "remote", "%s is reachable: cudalab %s", label,
		     cJSON_IsString(v) ? v->valuestring : "?");
		if (cJSON_IsString(nvcc))
			line("ok", "nvcc", "%s%s%s", nvcc->valuestring, cJSON_IsString(nv) ? ", " : "",
			     cJSON_IsString(nv) ? nv->valuestring : "");
		else
			line("FAIL", "nvcc", "not found on %s: install the CUDA toolkit there", label);
		if (cJSON_IsString(gpu))
			line("ok", "GPU", "%s, compute capability %s, driver %s", gpu->valuestring,
			     cJSON_IsString(cc) ? cc->valuestring : "?",
			     cJSON_IsString(drv) ? drv->valuestring : "?");
		else
			line("WARN", "GPU", "none usable on %s (%s): checks run on simt there",
			     label, cJSON_IsString(st) ? st->valuestring : "no GPU");
		line("ok", "backend", "checks sent to %s run on %s there", label,
		     cJSON_IsString(be) ? be->valuestring : "?");
		rc = cJSON_IsString(nvcc) ? EXIT_OK : EXIT_USAGE;
	}
	cJSON_Delete(o);
	free(json);
	free(label);
	return rc;
}

/* The GPUs simt's time model knows, and the one a bench predicts for. */
static int check_devices(struct cli *c)
{
	char **names, **ids = run_devices_list(c->content, &names), *predict = NULL;
	struct strbuf sb;
	int bad = 0;

	if (cli_predict_device(c, NULL, RUN_BENCH, &predict) != 0)
		bad = 1;
	sb_init(&sb);
	for (size_t i = 0; ids[i]; i++)
		sb_printf(&sb, "%s%s", i ? ", " : "", ids[i]);
	if (!ids[0])
		line("WARN", "devices", "no device files: a bench on simt predicts no time");
	else
		line("ok", "devices", "a bench on simt predicts the time on %s (predict in %s/config, "
		     "--predict); known: %s", predict ? predict : "no GPU (predict = off)", c->home,
		     sb.s ? sb.s : "");
	{
		/* on a GPU: which device file stands for it, to compare with */
		struct run_probe probe;
		char *cache = path_join(c->home, "cache"), *id;

		run_probe_cached(&probe, cache);
		id = probe.gpu ? run_device_match(c->content, probe.gpu_name) : NULL;
		if (probe.gpu && probe.gpu_name)
			line("info", "devices", "this machine's GPU is %s by %s", id ? "modelled" : "not modelled",
			     id ? id : "any device file (devices/FORMAT.md says how to add one)");
		free(id);
		free(cache);
		run_probe_free(&probe);
	}
	sb_free(&sb);
	run_argv_free(ids);
	run_argv_free(names);
	free(predict);
	return bad;
}

int cli_doctor(struct cli *c, int argc, char **argv)
{
	int bad = 0;

	if (argc == 3 && strcmp(argv[1], "--backend") == 0) {
		struct cli_backend b;

		if (cli_backend_parse(argv[2], &b) != 0 ||
		    (b.backend != BACKEND_SSH && b.backend != BACKEND_SLURM))
			return cli_usage_error(c, "doctor: --backend needs ssh:HOST or slurm");
		printf("cudalab %s, remote protocol %d\n", CUDALAB_VERSION, RUN_REMOTE_PROTOCOL);
		return doctor_remote(c, &b);
	}
	if (argc > 1)
		return cli_usage_error(c, "doctor: unexpected argument '%s'", argv[1]);
	printf("cudalab %s\n", CUDALAB_VERSION);
	bad |= check_content(c);
	bad |= check_store(c);
	{
		/* the config's backend, as a check would take it */
		struct cli_backend where;

		if (cli_default_backend(c, &where) != 0) {
			bad = 1;
			where.backend = BACKEND_AUTO;
		}
		check_toolchain(c, &where);
		if (where.backend == BACKEND_SSH || where.backend == BACKEND_SLURM)
			bad |= doctor_remote(c, &where) != EXIT_OK;
	}
	bad |= check_devices(c);
	check_terminal();
	return bad ? EXIT_USAGE : EXIT_OK;
}
