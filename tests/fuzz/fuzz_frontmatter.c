/* fuzz_frontmatter.c — lesson and exercise files through the catalog: the
 * input, split at its first NUL byte, becomes lessons/10-x.md and
 * exercises/x/exercise.md of a private content directory, which is loaded
 * with catalog_load and checked as `cudalab validate` checks it (front
 * matter, cross references, then the bodies' links and quizzes). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudalab/cli.h"
#include "cudalab/content.h"
#include "cudalab/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *root, *lesson, *exercise;

static void remove_tree(void)
{
	static const char *const files[] = { "lessons/10-x.md", "exercises/x/exercise.md",
					     "exercises/x/kernel.cu", "exercises/x/solution.cu",
					     "exercises/x/harness.cu", "exercises/x", "exercises",
					     "lessons", "" };

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char *p = path_join(root, files[i]);

		if (unlink(p) != 0)
			rmdir(p);
		free(p);
	}
	free(root);
	free(lesson);
	free(exercise);
}

static void write_whole(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		abort();
	}
}

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/cudalab-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	static const char *const empty[] = { "kernel.cu", "solution.cu", "harness.cu" };

	if (!mkdtemp(dir)) {
		perror(dir);
		abort();
	}
	root = dir;
	lesson = path_join(root, "lessons/10-x.md");
	exercise = path_join(root, "exercises/x/exercise.md");
	{
		char *l = path_join(root, "lessons"), *x = path_join(root, "exercises/x");

		if (mkdir_p(l, 0700) != 0 || mkdir_p(x, 0700) != 0)
			abort();
		for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
			char *p = path_join(x, empty[i]);

			write_whole(p, "", 0);
			free(p);
		}
		free(l);
		free(x);
	}
	atexit(remove_tree);
	/* validate reports on stdout; only crashes matter here */
	if (!freopen("/dev/null", "w", stdout))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t n1 = nul ? (size_t)(nul - data) : size;
	struct catalog *cat;
	struct cli c;
	char *argv[] = { "validate", NULL };

	if (!root)
		setup();
	write_whole(lesson, data, n1);
	write_whole(exercise, nul ? nul + 1 : data + size, nul ? size - n1 - 1 : 0);

	cat = catalog_load(root);
	for (size_t i = 0; i < cat->n_diags; i++)
		free(diag_format(&cat->diags[i]));
	for (size_t i = 0; i < cat->n_lessons; i++) {
		const struct lesson *l = &cat->lessons[i];
		size_t len;

		(void)catalog_lesson(cat, l->id);
		(void)catalog_suggest(cat, CAT_LESSON | CAT_EXERCISE | CAT_READING, l->id);
		for (size_t j = 0; j < l->n_reading; j++)
			(void)catalog_item(cat, l->reading[j].id);
		free(catalog_lesson_body(l, &len));
	}
	for (size_t i = 0; i < cat->n_exercises; i++) {
		size_t len;

		(void)catalog_exercise(cat, cat->exercises[i].id);
		free(catalog_exercise_body(&cat->exercises[i], &len));
	}
	(void)catalog_count_items(cat);
	catalog_free(cat);

	memset(&c, 0, sizeof c);
	c.prog = "cudalab";
	c.content = root;
	c.content_origin = "--content";
	(void)cli_validate(&c, 1, argv);
	if (c.cat)
		catalog_free(c.cat);
	return 0;
}
