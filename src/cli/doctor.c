/* doctor.c — `cudalab doctor`: one line per part of the environment, what
 * works and, when something does not, what to do about it. */
#include "cudalab/cli.h"

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

static void check_toolchain(void)
{
	struct run_probe p;

	run_probe(&p);
	if (p.nvcc)
		line("ok", "nvcc", "%s (release %s)", p.nvcc, p.nvcc_version ? p.nvcc_version : "unknown");
	else
		line("WARN", "nvcc", "not found in PATH, $CUDA_HOME/bin or /usr/local/cuda/bin: lessons "
		     "work; building exercises needs the CUDA toolkit");
	line(p.gpu ? "ok" : "info", "gpu", "%s", p.why);
	line("ok", "backend", "auto uses %s%s", run_backend_name(run_backend_choose(&p, BACKEND_AUTO)),
	     p.gpu ? " (a usable GPU)" : " (no usable GPU: emulation; timings are not GPU times)");
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

int cli_doctor(struct cli *c, int argc, char **argv)
{
	int bad = 0;

	if (argc > 1)
		return cli_usage_error(c, "doctor: unexpected argument '%s'", argv[1]);
	printf("cudalab %s\n", CUDALAB_VERSION);
	bad |= check_content(c);
	bad |= check_store(c);
	check_toolchain();
	check_terminal();
	return bad ? EXIT_USAGE : EXIT_OK;
}
