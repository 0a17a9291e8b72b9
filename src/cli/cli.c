/* cli.c — dispatch to a verb (the table is in help.c), directory
 * resolution, and the shared error and resource helpers every verb uses. */
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

/* The repository root when this binary runs from a build directory inside
 * a source tree (so `make run` uses the tree's content and docs). */
char *cli_source_tree(void)
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
	} else if ((c->content = cli_source_tree())) {
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
	const struct cli_verb *v = cli_verb_find(argv[0]);

	if (!v)
		return unknown_verb(c, argv[0]);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (cli_is_help(argv[i])) {
			cli_verb_help(argv[0], stdout);
			return EXIT_OK;
		}
	}
	return v->fn(c, argc, argv);
}
