/* validate.c — `cudalab validate`: every content problem as
 * file:line:col: message; exit 1 when there is any.  The catalog checks
 * front matter and references between files; this verb adds the bodies:
 * lesson: and exercise: links must resolve and quiz blocks must be
 * well formed. */
#include "cudalab/cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cudalab/content.h"
#include "cudalab/doc.h"

struct body_check {
	const struct catalog *cat;
	const char *path;
	const char *text; /* the body */
	int first_line;   /* file line of the body's first line */
	size_t problems;
};

static void report(struct body_check *b, const char *at, const char *fmt, ...) UTIL_PRINTF(3, 4);

/* Prints path:line:col for the byte at (within the body) and the message. */
static void report(struct body_check *b, const char *at, const char *fmt, ...)
{
	int line = b->first_line, col = 1;
	va_list ap;

	for (const char *p = b->text; p < at; p++) {
		if (*p == '\n') {
			line++;
			col = 1;
		} else if (((unsigned char)*p & 0xC0) != 0x80) {
			col++;
		}
	}
	printf("%s:%d:%d: ", b->path, line, col);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	b->problems++;
}

static int target_resolves(const struct catalog *cat, const char *target)
{
	if (str_starts(target, "lesson:"))
		return catalog_lesson(cat, target + strlen("lesson:")) != NULL;
	if (str_starts(target, "exercise:"))
		return catalog_exercise(cat, target + strlen("exercise:")) != NULL;
	return 1;
}

static void check_links(struct body_check *b, const struct doc *doc)
{
	for (int i = 0; i < doc_link_count(doc); i++) {
		const char *target = doc_link_target(doc, i);
		const char *at;

		if (target_resolves(b->cat, target))
			continue;
		at = strstr(b->text, target);
		report(b, at ? at : b->text, "link to %s, which is not in the content", target);
	}
}

/* Each ```quiz fence is parsed on its own, so a problem has its own line. */
static void check_quizzes(struct body_check *b)
{
	for (const char *p = strstr(b->text, "```quiz"); p; p = strstr(p + 1, "```quiz")) {
		const char *end = strstr(p + 7, "\n```");
		struct doc *one;

		if (p != b->text && p[-1] != '\n')
			continue;
		end = end ? end + 4 : p + strlen(p);
		one = doc_parse(p, (size_t)(end - p));
		if (!one) {
			report(b, p, "quiz block cannot be parsed");
			continue;
		}
		for (int i = 0; i < doc_problem_count(one); i++)
			report(b, p, "%s", doc_problem(one, i));
		doc_free(one);
	}
}

static size_t check_body(const struct catalog *cat, const char *path, char *text, size_t len,
			 int first_line)
{
	struct body_check b = { cat, path, text, first_line, 0 };
	struct doc *doc;

	if (!text) {
		printf("%s:0:0: cannot read the body\n", path);
		return 1;
	}
	doc = doc_parse(text, len);
	if (doc) {
		check_links(&b, doc);
		doc_free(doc);
	}
	check_quizzes(&b);
	free(text);
	return b.problems;
}

static size_t check_bodies(const struct catalog *cat)
{
	size_t problems = 0, len = 0;

	for (size_t i = 0; i < cat->n_lessons; i++) {
		const struct lesson *l = &cat->lessons[i];
		char *text = catalog_lesson_body(l, &len);

		problems += check_body(cat, l->path, text, len, l->body_line);
	}
	for (size_t i = 0; i < cat->n_exercises; i++) {
		const struct exercise *e = &cat->exercises[i];
		char *text = catalog_exercise_body(e, &len);

		problems += check_body(cat, e->path, text, len, e->body_line);
	}
	return problems;
}

int cli_validate(struct cli *c, int argc, char **argv)
{
	struct catalog *cat;
	struct stat sb;
	size_t problems;

	if (argc > 1)
		return cli_usage_error(c, "validate: unexpected argument '%s'", argv[1]);
	if (stat(c->content, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return cli_error(c, "content directory %s does not exist (%s); use --content DIR",
				 c->content, c->content_origin);
	cat = cli_catalog(c);
	for (size_t i = 0; i < cat->n_diags; i++) {
		char *line = diag_format(&cat->diags[i]);
		puts(line);
		free(line);
	}
	problems = cat->n_diags + check_bodies(cat);
	if (problems) {
		fflush(stdout);
		fprintf(stderr, "%zu problem%s in %s\n", problems, problems == 1 ? "" : "s", c->content);
		return EXIT_FAILED;
	}
	printf("ok: %zu lessons, %zu reading items, %zu exercises in %s\n", cat->n_lessons,
	       catalog_count_items(cat), cat->n_exercises, c->content);
	return EXIT_OK;
}
