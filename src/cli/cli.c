/* cli.c — the verb table, directory resolution, and the shared error and
 * resource helpers every verb uses. */
#include "cudalab/cli.h"

#include <cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/store.h"

const struct cli_verb cli_verbs[] = {
	{ "read", "LESSON [--plain] [--width N]", "read a lesson (--plain: rendered text to stdout)",
	  "Without --plain, opens the lesson in the lab. --plain writes it to stdout:\n"
	  "styled on a terminal, plain text when piped or when NO_COLOR is set, never\n"
	  "wider than N columns (default: the terminal's width, or 80). Quiz answers\n"
	  "stay hidden. LESSON may also be an exercise id, for its statement, or\n"
	  "the path of any Markdown file (with --plain).\n",
	  cli_read },
	{ "list", "[lessons|reading|exercises] [--json]",
	  "list lessons, reading items or exercises with their status",
	  "With no kind, lists all three. --json prints one JSON object per kind\n"
	  "(README, \"Command line\").\n", cli_list },
	{ "mark", "ITEM (done|reading|unread)", "set a reading item's status",
	  "ITEM is a reading item id, as shown by 'cudalab list reading'.\n", cli_mark },
	{ "progress", "[--json]", "how far you are: lessons, reading, exercises", "", cli_progress },
	{ "check", "EX [--backend B] [--file F] [--timeout S] [--seed N] [--json]",
	  "build your solution of an exercise and check it",
	  "Builds the exercise's harness with your copy (made from the starter on\n"
	  "first use; its path is printed then), runs it, and prints the verdict:\n"
	  "pass, wrong, hazard, compile_error, runtime_error or timeout. Exit 0 on\n"
	  "a pass. On simt every kernel is checked for races, barrier misuse and\n"
	  "uninitialized reads (a report makes the verdict hazard), and a pass is\n"
	  "run again under a second schedule (block and warp order).\n"
	  "  --backend B  auto (a usable GPU, else simt), gpu, simt, ssh:HOST\n"
	  "               (a GPU machine over ssh) or slurm (a job on a cluster)\n"
	  "  --file F     check F instead of your copy\n"
	  "  --timeout S  stop the program after S seconds (default 10, simt 60)\n"
	  "  --seed N     the seed for the harness's inputs\n"
	  "  --json       the harness's result with compile_log, stdout, stderr\n",
	  cli_check },
	{ "bench", "EX [--backend B] [--file F] [--timeout S] [--seed N] [--json]",
	  "check an exercise, then time it",
	  "Like check, then the harness's timing: median, min, noise and the share\n"
	  "of the device's peak. On simt the time is emulation time, not GPU time,\n"
	  "and the counters are shown instead. Default timeout 60 s (simt 180).\n",
	  cli_bench },
	{ "hint", "EX", "the next hint for an exercise", "Each hint is shown once, in order.\n",
	  cli_hint },
	{ "solution", "EX [--force]", "the reference solution, once you have passed",
	  "--force shows it before a pass.\n", cli_solution },
	{ "reset", "EX", "put the starter back in your copy (the old one is kept as .bak)", "",
	  cli_reset },
	{ "watch", "EX [--backend B] [--file F] [--timeout S]",
	  "check again every time you save", "Ctrl-C stops watching.\n", cli_watch },
	{ "run", "[--backend B] [--timeout S] [--counters FILE] [-I DIR] [-D X] FILE... [-- ARGS]",
	  "compile and run any CUDA program (.cu, .cpp, .cc, .c)",
	  "Runs the program on this terminal with ARGS and exits with its code:\n"
	  "124 after --timeout, 125 when it does not compile, 128+N when it died of\n"
	  "signal N, 123 when simt reported a hazard (a race, a barrier error or an\n"
	  "uninitialized read). On simt, --counters FILE writes the counters JSON\n"
	  "there; CUDALAB_SIMT_CHECKS=0 turns the hazard checks off. B is auto,\n"
	  "gpu, simt, ssh:HOST or slurm: remotely the sources and their headers go\n"
	  "to the far side and its output and exit status come back.\n",
	  cli_run },
	{ "validate", "", "check all content; prints file:line:col errors, exit 1 if any",
	  "Checks every lesson and exercise: YAML, required fields, unique ids and\n"
	  "orders, kinds, URLs, and lesson/exercise references.\n", cli_validate },
	{ "doctor", "[--backend ssh:HOST|slurm]",
	  "what works and what to fix: content, database, nvcc, GPU, terminal",
	  "With --backend, asks the remote side instead: reachable, its cudalab\n"
	  "version, nvcc, GPU name, compute capability and driver.\n", cli_doctor },
	{ "remote", "--protocol N [--doctor]",
	  "the far side of --backend ssh:HOST and slurm (they start it)",
	  "Reads a check request on stdin and answers on stdout; --backend\n"
	  "ssh:HOST runs it over ssh and --backend slurm under srun. It needs to be\n"
	  "installed where the GPU is (make install PREFIX=~/.local).\n", cli_remote },
};
const unsigned cli_n_verbs = sizeof cli_verbs / sizeof cli_verbs[0];

/* The repository root when this binary runs from a build directory inside
 * a source tree (so `make run` uses the tree's content), else NULL. */
static char *source_tree(void)
{
	char dir[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
	struct stat sb;

	if (n <= 0)
		return NULL;
	dir[n] = '\0';
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(dir, '/'), *main_c, *lessons;
		int ok;

		if (!slash || slash == dir)
			return NULL;
		*slash = '\0';
		main_c = xasprintf("%s/src/main.c", dir);
		lessons = xasprintf("%s/lessons", dir);
		ok = stat(main_c, &sb) == 0 && stat(lessons, &sb) == 0 && S_ISDIR(sb.st_mode);
		free(main_c);
		free(lessons);
		if (ok)
			return xstrdup(dir);
	}
	return NULL;
}

static char *default_home(void)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		return path_join(xdg, "cudalab");
	if (home && *home)
		return xasprintf("%s/.local/share/cudalab", home);
	return xstrdup(".cudalab");
}

void cli_init(struct cli *c, const char *prog, const char *home, const char *content)
{
	const char *env;

	memset(c, 0, sizeof *c);
	c->prog = prog;
	if (home) {
		c->home = xstrdup(home);
		c->home_origin = "--home";
	} else if ((env = getenv("CUDALAB_HOME")) && *env) {
		c->home = xstrdup(env);
		c->home_origin = "$CUDALAB_HOME";
	} else {
		c->home = default_home();
		c->home_origin = "default";
	}
	if (content) {
		c->content = xstrdup(content);
		c->content_origin = "--content";
	} else if ((env = getenv("CUDALAB_CONTENT")) && *env) {
		c->content = xstrdup(env);
		c->content_origin = "$CUDALAB_CONTENT";
	} else if ((c->content = source_tree())) {
		c->content_origin = "source tree";
	} else {
		c->content = xstrdup(CUDALAB_DATADIR);
		c->content_origin = "installed";
	}
}

void cli_done(struct cli *c)
{
	if (c->st)
		store_close(c->st);
	if (c->cat)
		catalog_free(c->cat);
	cli_config_free(&c->cfg);
	free(c->self);
	free(c->home);
	free(c->content);
}

static void vreport(const struct cli *c, const char *tag, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", c->prog, tag);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_usage_error(const struct cli *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(c, "", fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int cli_error(const struct cli *c, const char *fmt, ...)
{
	va_list ap;

	/* "cudalab: check: ...", as usage errors read: only warnings say
	 * what they are */
	va_start(ap, fmt);
	vreport(c, "", fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

void cli_warn(const struct cli *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(c, "warning: ", fmt, ap);
	va_end(ap);
}

int cli_is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

void cli_print_json(cJSON *root)
{
	char *text = cJSON_Print(root);

	puts(text);
	free(text);
	cJSON_Delete(root);
}

struct catalog *cli_catalog(struct cli *c)
{
	if (!c->cat)
		c->cat = catalog_load(c->content);
	return c->cat;
}

int cli_unknown_id(struct cli *c, const char *verb, const char *what, const char *id,
		   int kinds, const char *list)
{
	const char *near = catalog_suggest(cli_catalog(c), kinds, id);

	cli_report_content_problems(c);
	if (near)
		return cli_usage_error(c, "%s%sno %s '%s' (did you mean '%s'? see 'cudalab list %s')",
				       verb ? verb : "", verb ? ": " : "", what, id, near, list);
	return cli_usage_error(c, "%s%sno %s '%s' (see 'cudalab list %s')", verb ? verb : "",
			       verb ? ": " : "", what, id, list);
}

size_t cli_report_content_problems(struct cli *c)
{
	struct catalog *cat = cli_catalog(c);

	for (size_t i = 0; i < cat->n_diags; i++) {
		char *line = diag_format(&cat->diags[i]);
		cli_warn(c, "%s", line);
		free(line);
	}
	if (cat->n_diags)
		cli_warn(c, "%zu content problem%s; what loaded is shown (run '%s validate')",
			 cat->n_diags, cat->n_diags == 1 ? "" : "s", c->prog);
	return cat->n_diags;
}

struct store *cli_store(struct cli *c)
{
	char *warning = NULL, *err = NULL;

	if (c->st)
		return c->st;
	c->st = store_open(c->home, &warning, &err);
	if (warning) {
		fprintf(stderr, "%s: %s\n", c->prog, warning);
		free(warning);
	}
	if (!c->st) {
		cli_error(c, "%s", err ? err : "cannot open the progress database");
		free(err);
	}
	return c->st;
}

void cli_usage(FILE *out)
{
	fprintf(out,
		"usage: cudalab [--home DIR] [--content DIR] [VERB [ARGS]]\n"
		"\n"
		"With no verb, opens the lab.\n"
		"\n"
		"verbs:\n");
	for (unsigned i = 0; i < cli_n_verbs; i++)
		fprintf(out, "  %-10s %s\n", cli_verbs[i].name, cli_verbs[i].summary);
	fprintf(out,
		"\n"
		"options:\n"
		"  --home DIR     progress and work files (env CUDALAB_HOME,\n"
		"                 default $XDG_DATA_HOME/cudalab)\n"
		"  --content DIR  lessons and exercises (env CUDALAB_CONTENT)\n"
		"  -h, --help     this help; 'cudalab VERB --help' for one verb\n"
		"  --version      print the version\n");
}

static const struct cli_verb *find_verb(const char *name, unsigned *index)
{
	for (unsigned i = 0; i < cli_n_verbs; i++) {
		if (strcmp(cli_verbs[i].name, name) == 0) {
			if (index)
				*index = i;
			return &cli_verbs[i];
		}
	}
	return NULL;
}

int cli_verb_help(const char *name, FILE *out)
{
	const struct cli_verb *v = find_verb(name, NULL);

	if (!v)
		return -1;
	fprintf(out, "usage: cudalab %s%s%s\n\n%s.\n", v->name, *v->args ? " " : "", v->args,
		v->summary);
	if (*v->help)
		fprintf(out, "\n%s", v->help);
	return 0;
}

/* "unknown verb 'chekc' (did you mean 'check'? see ...)" */
static int unknown_verb(const struct cli *c, const char *name)
{
	const char *names[64], *near;
	size_t n = 0;

	for (unsigned i = 0; i < cli_n_verbs && n < sizeof names / sizeof names[0]; i++)
		names[n++] = cli_verbs[i].name;
	near = str_nearest(name, names, n);
	if (near)
		return cli_usage_error(c, "unknown verb '%s' (did you mean '%s'? see '%s --help')",
				       name, near, c->prog);
	return cli_usage_error(c, "unknown verb '%s' (see '%s --help')", name, c->prog);
}

int cli_dispatch(struct cli *c, int argc, char **argv)
{
	unsigned index;

	if (!find_verb(argv[0], &index))
		return unknown_verb(c, argv[0]);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (cli_is_help(argv[i])) {
			cli_verb_help(argv[0], stdout);
			return EXIT_OK;
		}
	}
	return cli_verbs[index].fn(c, argc, argv);
}
