/* read.c — `cudalab read LESSON [--plain] [--width N]`. */
#include "cudalab/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/doc.h"
#include "cudalab/tui.h"

static int parse_width(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < DOC_MIN_WIDTH || v > DOC_MAX_WIDTH)
		return -1;
	*out = (int)v;
	return 0;
}

static int terminal_width(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col < DOC_MIN_WIDTH ? DOC_MIN_WIDTH : ws.ws_col;
	return 80;
}

/* Renders text to stdout: ANSI styles on a terminal, plain text when piped
 * or under NO_COLOR. */
static int print_doc(struct cli *c, const char *what, const char *text, size_t len, int width)
{
	struct doc *doc = doc_parse(text, len);
	struct doc_layout *lay;
	int color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR"), rc;

	if (!doc)
		return cli_error(c, "%s: cannot parse the Markdown", what);
	lay = doc_layout(doc, width);
	rc = color ? doc_render_ansi(lay, stdout) : doc_render_plain(lay, stdout);
	if (fflush(stdout) != 0)
		rc = -1;
	doc_layout_free(lay);
	doc_free(doc);
	return rc == 0 ? EXIT_OK : cli_error(c, "read: cannot write: %s", strerror(errno));
}

/* A Markdown file named on the command line (a path, or a name ending in
 * .md): its front matter, if any, is skipped. */
static int read_file_arg(struct cli *c, const char *path, int width)
{
	size_t len;
	char *text = read_file(path, &len), *body;
	int rc;

	if (!text)
		return cli_error(c, "read: cannot read %s: %s", path, strerror(errno));
	body = text;
	if (str_starts(text, "---\n")) {
		char *end = strstr(text + 4, "\n---\n");

		if (end)
			body = end + 5;
	}
	rc = print_doc(c, path, body, len - (size_t)(body - text), width ? width : terminal_width());
	free(text);
	return rc;
}

int cli_read(struct cli *c, int argc, char **argv)
{
	const char *id = NULL;
	int plain = 0, width = 0;
	const struct lesson *l;
	const struct exercise *e;
	struct catalog *cat;
	char *text, *start;
	size_t len;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--plain") == 0)
			plain = 1;
		else if (strcmp(argv[i], "--width") == 0 || str_starts(argv[i], "--width=")) {
			const char *v = argv[i][7] == '=' ? argv[i] + 8 : i + 1 < argc ? argv[++i] : NULL;

			if (!v || parse_width(v, &width) != 0)
				return cli_usage_error(c, "read: --width needs a number from %d to %d, got '%s'",
						       DOC_MIN_WIDTH, DOC_MAX_WIDTH, v ? v : "");
		} else if (argv[i][0] == '-')
			return cli_usage_error(c, "read: unknown option '%s'", argv[i]);
		else if (!id)
			id = argv[i];
		else
			return cli_usage_error(c, "read: unexpected argument '%s'", argv[i]);
	}
	if (!id)
		return cli_usage_error(c, "read: which lesson? (see 'cudalab list lessons')");
	if (strchr(id, '/') || str_ends(id, ".md")) {
		if (!plain)
			return cli_usage_error(c, "read: a file is shown with --plain only");
		return read_file_arg(c, id, width);
	}
	cat = cli_catalog(c);
	l = catalog_lesson(cat, id);
	e = l ? NULL : catalog_exercise(cat, id);
	if (!l && !e)
		return cli_unknown_id(c, "read", "lesson or exercise", id,
				      CAT_LESSON | CAT_EXERCISE, "lessons");
	if (!plain) {
		start = xasprintf("%s:%s", l ? "lesson" : "exercise", id);
		rc = cli_tui_at(c, start);
		free(start);
		return rc;
	}
	text = l ? catalog_lesson_body(l, &len) : catalog_exercise_body(e, &len);
	if (!text)
		return cli_error(c, "read: cannot read %s: %s", l ? l->path : e->path, strerror(errno));
	rc = print_doc(c, l ? l->path : e->path, text, len, width ? width : terminal_width());
	free(text);
	return rc;
}
