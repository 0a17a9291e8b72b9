/* test_content.c — the catalog against fixture trees under
 * tests/fixtures/content/ (one tree per fault) and small trees written on
 * the fly.  Every expected line and column was counted by hand from the
 * fixture text, not taken from the loader's output. */
#include "cudalab/content.h"
#include "cudalab/util.h"
#include "../../src/content/internal.h"

#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CUDALAB_SRCDIR
#define CUDALAB_SRCDIR "."
#endif

static char root[4096];

static struct catalog *load_fixture(const char *tree)
{
	snprintf(root, sizeof root, "%s/tests/fixtures/content/%s",
		 CUDALAB_SRCDIR, tree);
	return catalog_load(root);
}

static void dump(const struct catalog *c)
{
	size_t i;

	for (i = 0; i < c->n_diags; i++) {
		char *s = diag_format(&c->diags[i]);
		cr_log_info("%s", s);
		free(s);
	}
}

/* Checks diagnostic i: file (relative to the tree), position, and that the
 * message contains needle. */
static void expect_diag(const struct catalog *c, size_t i, const char *rel,
			int line, int col, const char *needle)
{
	char *file = path_join(root, rel);
	const struct diag *d;

	cr_assert_lt(i, c->n_diags, "no diagnostic #%zu", i);
	d = &c->diags[i];
	cr_expect_str_eq(d->file, file);
	cr_expect_eq(d->line, line, "%s: line %d, want %d", d->msg, d->line,
		     line);
	cr_expect_eq(d->col, col, "%s: col %d, want %d", d->msg, d->col, col);
	cr_expect(strstr(d->msg, needle) != NULL, "\"%s\" lacks \"%s\"",
		  d->msg, needle);
	free(file);
}

static void expect_n_diags(const struct catalog *c, size_t n)
{
	if (c->n_diags != n)
		dump(c);
	cr_assert_eq(c->n_diags, n, "%zu diagnostics, want %zu", c->n_diags, n);
}

/* ---- the good tree ---------------------------------------------------- */

Test(content, good_tree_loads_without_diagnostics)
{
	struct catalog *c = load_fixture("good");

	expect_n_diags(c, 0);
	cr_assert_eq(c->n_lessons, 3);
	/* sorted by order, not by file name: 05-setup.md has order 30 */
	cr_expect_str_eq(c->lessons[0].id, "intro");
	cr_expect_str_eq(c->lessons[1].id, "gpu-memory");
	cr_expect_str_eq(c->lessons[2].id, "setup");
	cr_expect_str_eq(c->lessons[0].title, "Why GPUs");
	cr_expect_str_eq(c->lessons[0].section, "GPU concepts");
	cr_expect_eq(c->lessons[0].order, 10);
	cr_expect_eq(c->lessons[0].minutes, 20);
	cr_expect_eq(c->lessons[2].minutes, 5);
	cr_expect_eq(c->lessons[2].n_reading, 0);
	cr_expect_eq(c->lessons[2].n_exercises, 0);
	cr_assert_eq(c->lessons[0].n_exercises, 1);
	cr_expect_str_eq(c->lessons[0].exercises[0], "vector-add");
	cr_assert_eq(c->lessons[1].n_exercises, 1);
	cr_expect_str_eq(c->lessons[1].exercises[0], "saxpy");
	cr_expect_eq(catalog_count_items(c), 3);
	cr_expect_str_eq(c->root, root);
	catalog_free(c);
}

Test(content, good_tree_reading_items)
{
	struct catalog *c = load_fixture("good");
	const struct lesson *intro = catalog_lesson(c, "intro");
	const struct reading_item *it;

	cr_assert_not_null(intro);
	cr_assert_eq(intro->n_reading, 2);
	it = &intro->reading[0];
	cr_expect_str_eq(it->id, "intro-article");
	cr_expect_str_eq(it->title, "A first article");
	cr_expect_str_eq(it->url, "https://example.com/gpu/intro?x=1#top");
	cr_expect_str_eq(it->note, "Read the first half.");
	cr_expect_eq(it->kind, KIND_ARTICLE);
	cr_expect_eq(it->line, 8);
	it = &intro->reading[1];
	cr_expect_str_eq(it->id, "intro-video");
	cr_expect_null(it->url);
	cr_expect_eq(it->kind, KIND_VIDEO);
	cr_expect_eq(it->line, 13);

	it = catalog_item(c, "bandwidth-paper");
	cr_assert_not_null(it);
	cr_expect_str_eq(it->title, "Roofline");
	cr_expect_str_eq(it->url, "http://example.org:8080/papers/roofline.pdf");
	cr_expect_eq(it->kind, KIND_PAPER);
	cr_expect_eq(it->line, 8);
	/* gpu-memory is second by order */
	cr_expect_eq(it->lesson, 1);
	cr_expect_eq(catalog_item(c, "intro-video")->lesson, 0);
	cr_expect_null(catalog_item(c, "intro"));
	cr_expect_null(catalog_item(c, "no-such-item"));
	cr_expect_null(catalog_lesson(c, "intro-video"));
	cr_expect_null(catalog_exercise(c, "intro"));
	catalog_free(c);
}

Test(content, good_tree_exercises)
{
	struct catalog *c = load_fixture("good");
	const struct exercise *e;
	char *dir;

	cr_assert_eq(c->n_exercises, 2);
	cr_expect_str_eq(c->exercises[0].id, "vector-add");
	cr_expect_str_eq(c->exercises[1].id, "saxpy");
	e = catalog_exercise(c, "vector-add");
	cr_assert_not_null(e);
	cr_expect_str_eq(e->title, "Add two vectors");
	cr_expect_str_eq(e->lesson, "intro");
	cr_expect_eq(e->order, 1);
	cr_expect_eq(e->difficulty, 1);
	cr_assert_eq(e->n_hints, 2);
	cr_expect_str_eq(e->hints[0], "One thread per element.");
	cr_expect_str_eq(e->hints[1],
			 "Guard against n not a multiple of the block.");
	dir = path_join(root, "exercises/vector-add");
	cr_expect_str_eq(e->dir, dir);
	free(dir);
	dir = path_join(root, "exercises/vector-add/exercise.md");
	cr_expect_str_eq(e->path, dir);
	free(dir);
	e = catalog_exercise(c, "saxpy");
	cr_assert_not_null(e);
	cr_expect_eq(e->difficulty, 2);
	cr_assert_eq(e->n_hints, 1);
	cr_expect_str_eq(e->hints[0], "Use a grid-stride loop.");
	catalog_free(c);
}

/* Typos within the distance (two edits, or a third of the id) find the
 * id; the kinds asked for limit the search; far-off ids find nothing. */
Test(content, suggest_near_ids)
{
	struct catalog *c = load_fixture("good");

	cr_expect_str_eq(catalog_suggest(c, CAT_EXERCISE, "vectr-add"), "vector-add");
	cr_expect_str_eq(catalog_suggest(c, CAT_EXERCISE, "saxyp"), "saxpy");
	cr_expect_str_eq(catalog_suggest(c, CAT_LESSON, "intr"), "intro");
	cr_expect_null(catalog_suggest(c, CAT_EXERCISE, "intr"));
	cr_expect_null(catalog_suggest(c, CAT_EXERCISE, "matmul"));
	cr_expect_null(catalog_suggest(c, CAT_LESSON | CAT_EXERCISE | CAT_READING, ""));
	catalog_free(c);
}

/* Lessons of a section named again later join its first appearance, each
 * section in lesson order: a, c (Basics), then b, d (Advanced). */
Test(content, sections_grouped_in_lesson_order)
{
	struct catalog *c = load_fixture("split-section");

	dump(c);
	cr_assert_eq(c->n_diags, 0);
	cr_assert_eq(c->n_lessons, 4);
	cr_expect_str_eq(c->lessons[0].id, "a");
	cr_expect_str_eq(c->lessons[1].id, "c");
	cr_expect_str_eq(c->lessons[2].id, "b");
	cr_expect_str_eq(c->lessons[3].id, "d");
	catalog_free(c);
}

Test(content, body_offset_line_and_text)
{
	struct catalog *c = load_fixture("good");
	const struct lesson *l = catalog_lesson(c, "intro");
	const struct exercise *e = catalog_exercise(c, "vector-add");
	char *text, *body;
	size_t len;

	cr_assert_not_null(l);
	text = read_file(l->path, NULL);
	cr_assert_not_null(text);
	cr_expect_eq(l->body_offset,
		     (size_t)(strstr(text, "# Why GPUs") - text));
	cr_expect_eq(l->body_line, 19);
	free(text);
	body = catalog_lesson_body(l, &len);
	cr_assert_not_null(body);
	cr_expect_str_eq(body, "# Why GPUs\n\nBody text.\n");
	cr_expect_eq(len, strlen("# Why GPUs\n\nBody text.\n"));
	free(body);

	l = catalog_lesson(c, "setup");
	cr_expect_eq(l->body_line, 9);
	body = catalog_lesson_body(l, NULL);
	cr_expect_str_eq(body, "Setup body.\n");
	free(body);

	cr_assert_not_null(e);
	cr_expect_eq(e->body_line, 11);
	body = catalog_exercise_body(e, &len);
	cr_expect_str_eq(body, "Write `solve`.\n");
	cr_expect_eq(len, 15);
	free(body);
	catalog_free(c);
}

/* ---- broken trees, one fault each ------------------------------------- */

Test(content, invalid_yaml)
{
	struct catalog *c = load_fixture("invalid-yaml");

	expect_n_diags(c, 1);
	/* "title: x: y": the second colon is at column 9 */
	expect_diag(c, 0, "lessons/20-bad.md", 3, 9,
		    "invalid YAML: mapping values are not allowed");
	cr_assert_eq(c->n_lessons, 1);
	cr_expect_str_eq(c->lessons[0].id, "ok-lesson");
	cr_expect_null(catalog_lesson(c, "bad"));
	catalog_free(c);
}

Test(content, duplicate_ids)
{
	struct catalog *c = load_fixture("dup-ids");
	char *first;

	expect_n_diags(c, 4);
	/* exercise vs reading item: the exercise comes second */
	expect_diag(c, 0, "exercises/alpha-two/exercise.md", 2, 5,
		    "duplicate id \"alpha-two\"");
	first = xasprintf("first defined at %s/lessons/10-a.md:12", root);
	cr_expect(strstr(c->diags[0].msg, first), "%s", c->diags[0].msg);
	free(first);
	/* reading item vs lesson */
	expect_diag(c, 1, "lessons/20-b.md", 8, 9, "duplicate id \"alpha\"");
	first = xasprintf("first defined at %s/lessons/10-a.md:2", root);
	cr_expect(strstr(c->diags[1].msg, first), "%s", c->diags[1].msg);
	free(first);
	/* reading item vs reading item of another lesson */
	expect_diag(c, 2, "lessons/20-b.md", 12, 9,
		    "duplicate id \"shared-item\"");
	first = xasprintf("first defined at %s/lessons/10-a.md:8", root);
	cr_expect(strstr(c->diags[2].msg, first), "%s", c->diags[2].msg);
	free(first);
	/* lesson vs reading item: the whole later lesson goes */
	expect_diag(c, 3, "lessons/30-c.md", 2, 5, "duplicate id \"beta-item\"");
	first = xasprintf("first defined at %s/lessons/20-b.md:16", root);
	cr_expect(strstr(c->diags[3].msg, first), "%s", c->diags[3].msg);
	free(first);

	cr_assert_eq(c->n_lessons, 2);
	cr_expect_str_eq(c->lessons[0].id, "alpha");
	cr_expect_str_eq(c->lessons[1].id, "beta");
	cr_expect_eq(c->n_exercises, 0);
	cr_expect_eq(catalog_count_items(c), 3);
	/* the first definitions are the ones kept */
	cr_expect_str_eq(catalog_item(c, "shared-item")->title, "Shared");
	cr_expect_str_eq(catalog_item(c, "alpha-two")->title, "Two");
	cr_expect_str_eq(catalog_item(c, "beta-item")->title, "Kept");
	cr_expect_eq(catalog_item(c, "beta-item")->lesson, 1);
	cr_expect_null(catalog_item(c, "alpha"));
	cr_assert_eq(c->lessons[1].n_reading, 1);
	catalog_free(c);
}

/* Every required field of an exercise, a lesson and a reading item is
 * missing somewhere in the fixture: each must be named, at the mapping
 * that lacks it (line and column counted in the fixture files). */
Test(content, missing_fields_and_wrong_types)
{
	static const char *const exercise_fields[] = {
		"id", "title", "lesson", "order", "difficulty", "hints",
	};
	static const char *const lesson_fields[] = { "id", "title", "section", "order" };
	static const char *const item_fields[] = { "id", "title", "kind", "note" };
	struct catalog *c = load_fixture("missing-fields");
	char what[64];
	size_t i, k = 0;

	expect_n_diags(c, 23);
	/* exercises/bare has only the optional "gpus" */
	for (i = 0; i < 6; i++) {
		snprintf(what, sizeof what, "exercise is missing required field \"%s\"",
			 exercise_fields[i]);
		expect_diag(c, k++, "exercises/bare/exercise.md", 2, 1, what);
	}
	expect_diag(c, k++, "exercises/no-difficulty/exercise.md", 2, 1,
		    "exercise is missing required field \"difficulty\"");
	expect_diag(c, k++, "exercises/no-hints/exercise.md", 2, 1,
		    "exercise is missing required field \"hints\"");
	expect_diag(c, k++, "exercises/no-hints/exercise.md", 6, 13,
		    "\"difficulty\" must be 1 to 5, got 9");
	/* the lower bound too */
	expect_diag(c, k++, "exercises/zero-difficulty/exercise.md", 6, 13,
		    "\"difficulty\" must be 1 to 5, got 0");
	expect_diag(c, k++, "lessons/20-nominutes.md", 2, 1,
		    "lesson is missing required field \"minutes\"");
	expect_diag(c, k++, "lessons/30-types.md", 3, 8,
		    "\"title\" must be a string, got a sequence");
	expect_diag(c, k++, "lessons/30-types.md", 5, 8,
		    "\"order\" must be an integer, got \"ten\"");
	expect_diag(c, k++, "lessons/40-item.md", 7, 1, "unknown key \"titel\"");
	expect_diag(c, k++, "lessons/40-item.md", 9, 5,
		    "reading item is missing required field \"note\"");
	/* the last item has only a url */
	for (i = 0; i < 4; i++) {
		snprintf(what, sizeof what, "reading item is missing required field \"%s\"",
			 item_fields[i]);
		expect_diag(c, k++, "lessons/40-item.md", 16, 5, what);
	}
	/* lessons/50-bare.md has only its minutes */
	for (i = 0; i < 4; i++) {
		snprintf(what, sizeof what, "lesson is missing required field \"%s\"",
			 lesson_fields[i]);
		expect_diag(c, k++, "lessons/50-bare.md", 2, 1, what);
	}

	/* the unknown key and the broken items leave the lesson in place */
	cr_assert_eq(c->n_lessons, 2);
	cr_expect_str_eq(c->lessons[0].id, "ok-lesson");
	cr_expect_str_eq(c->lessons[1].id, "item-lesson");
	cr_assert_eq(c->lessons[1].n_reading, 1);
	cr_expect_str_eq(c->lessons[1].reading[0].id, "fine-item");
	cr_expect_eq(c->lessons[1].reading[0].kind, KIND_CODE);
	cr_expect_null(catalog_lesson(c, "no-minutes"));
	cr_expect_null(catalog_lesson(c, "types"));
	/* an exercise without its difficulty is left out like any other */
	cr_expect_null(catalog_exercise(c, "no-difficulty"));
	cr_expect_null(catalog_exercise(c, "zero-difficulty"));
	cr_expect_eq(c->n_exercises, 0);
	catalog_free(c);
}

Test(content, dangling_references)
{
	struct catalog *c = load_fixture("dangling-ref");
	char *where;

	expect_n_diags(c, 4);
	expect_diag(c, 0, "exercises/orphan/exercise.md", 4, 9,
		    "unknown lesson \"nowhere\"");
	expect_diag(c, 1, "exercises/unlisted/exercise.md", 4, 9,
		    "lesson \"lesson-a\" does not list exercise \"unlisted\"");
	expect_diag(c, 2, "lessons/10-a.md", 7, 21, "unknown exercise \"ghost\"");
	expect_diag(c, 3, "lessons/20-b.md", 8, 5,
		    "exercise \"ex-one\" belongs to lesson \"lesson-a\", not \"lesson-b\"");
	where = xasprintf("%s/exercises/ex-one/exercise.md:4", root);
	cr_expect(strstr(c->diags[3].msg, where), "%s", c->diags[3].msg);
	free(where);

	/* reference problems leave everything loaded */
	cr_expect_eq(c->n_lessons, 2);
	cr_assert_eq(c->n_exercises, 3);
	cr_expect_str_eq(c->exercises[0].id, "ex-one");
	cr_expect_str_eq(c->exercises[1].id, "orphan");
	cr_expect_str_eq(c->exercises[2].id, "unlisted");
	cr_assert_eq(c->lessons[0].n_exercises, 2);
	cr_expect_str_eq(c->lessons[0].exercises[1], "ghost");
	catalog_free(c);
}

Test(content, unknown_kind)
{
	struct catalog *c = load_fixture("unknown-kind");
	char *s;

	expect_n_diags(c, 1);
	expect_diag(c, 0, "lessons/10-k.md", 14, 11, "unknown kind");
	cr_expect_str_eq(c->diags[0].msg,
			 "unknown kind \"blog\" (expected article, paper, video, "
			 "code, thread, book, course, tool, docs)");
	s = diag_format(&c->diags[0]);
	cr_expect(str_ends(s, "/lessons/10-k.md:14:11: unknown kind \"blog\" "
			      "(expected article, paper, video, code, thread, "
			      "book, course, tool, docs)"),
		  "%s", s);
	free(s);
	cr_assert_eq(c->n_lessons, 2);
	cr_assert_eq(c->lessons[0].n_reading, 1);
	cr_expect_str_eq(c->lessons[0].reading[0].id, "good-item");
	cr_expect_eq(c->lessons[0].reading[0].kind, KIND_THREAD);
	cr_expect_null(catalog_item(c, "blog-item"));
	cr_expect_str_eq(c->lessons[1].id, "other");
	catalog_free(c);
}

Test(content, malformed_urls)
{
	struct catalog *c = load_fixture("bad-url");

	/* items start at lines 8, 13, 18, 23, 28; url is each one's 4th line,
	 * its value at column 10 after "    url: " */
	expect_n_diags(c, 4);
	expect_diag(c, 0, "lessons/10-u.md", 11, 10,
		    "malformed URL \"ftp://example.com/file\"");
	expect_diag(c, 1, "lessons/10-u.md", 16, 10,
		    "malformed URL \"https://exa mple.com/\"");
	expect_diag(c, 2, "lessons/10-u.md", 21, 10,
		    "malformed URL \"https:///path\"");
	expect_diag(c, 3, "lessons/10-u.md", 26, 10,
		    "malformed URL \"https://example.com/a|b\"");
	cr_assert_eq(c->n_lessons, 1);
	cr_assert_eq(c->lessons[0].n_reading, 1);
	cr_expect_str_eq(c->lessons[0].reading[0].id, "ok-item");
	cr_expect_str_eq(c->lessons[0].reading[0].url, "https://example.com/ok");
	catalog_free(c);
}

Test(content, duplicate_order)
{
	struct catalog *c = load_fixture("dup-order");
	char *first;

	expect_n_diags(c, 2);
	expect_diag(c, 0, "exercises/ex-b/exercise.md", 5, 8,
		    "order 1 is already used by");
	first = xasprintf("%s/exercises/ex-a/exercise.md:5", root);
	cr_expect(strstr(c->diags[0].msg, first), "%s", c->diags[0].msg);
	free(first);
	expect_diag(c, 1, "lessons/20-b.md", 5, 8, "order 10 is already used by");
	first = xasprintf("%s/lessons/10-a.md:5", root);
	cr_expect(strstr(c->diags[1].msg, first), "%s", c->diags[1].msg);
	free(first);
	cr_expect_eq(c->n_lessons, 2);
	cr_expect_eq(c->n_exercises, 2);
	catalog_free(c);
}

Test(content, missing_or_unterminated_front_matter)
{
	struct catalog *c = load_fixture("no-frontmatter");

	expect_n_diags(c, 4);
	expect_diag(c, 0, "lessons/10-none.md", 1, 1, "missing front matter");
	expect_diag(c, 1, "lessons/20-unterminated.md", 1, 1,
		    "unterminated front matter");
	expect_diag(c, 2, "lessons/40-notmap.md", 2, 1,
		    "must be a mapping of fields, not a sequence");
	expect_diag(c, 3, "lessons/50-empty.md", 2, 1,
		    "the front matter is empty");
	cr_assert_eq(c->n_lessons, 1);
	cr_expect_str_eq(c->lessons[0].id, "ok-lesson");
	catalog_free(c);
}

Test(content, missing_exercise_files)
{
	struct catalog *c = load_fixture("missing-files");

	expect_n_diags(c, 5);
	expect_diag(c, 0, "exercises/no-md/exercise.md", 0, 0, "file is missing");
	expect_diag(c, 1, "exercises/no-md/harness.cu", 0, 0, "file is missing");
	expect_diag(c, 2, "exercises/no-md/solution.cu", 0, 0, "file is missing");
	expect_diag(c, 3, "exercises/partial/harness.cu", 0, 0, "file is missing");
	expect_diag(c, 4, "exercises/partial/solution.cu", 0, 0,
		    "file is missing");
	/* an exercise whose statement is there still loads */
	cr_assert_eq(c->n_exercises, 1);
	cr_expect_str_eq(c->exercises[0].id, "partial");
	cr_expect_eq(c->n_lessons, 1);
	catalog_free(c);
}

Test(content, missing_root)
{
	struct catalog *c = load_fixture("no-such-tree");

	expect_n_diags(c, 2);
	expect_diag(c, 0, "exercises", 0, 0, "cannot open directory");
	expect_diag(c, 1, "lessons", 0, 0, "cannot open directory");
	cr_expect_eq(c->n_lessons, 0);
	cr_expect_eq(c->n_exercises, 0);
	catalog_free(c);
}

/* ---- trees written by the tests --------------------------------------- */

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Makes a fresh tree with empty lessons/ and exercises/ and points root at
 * it. */
static void temp_tree(void)
{
	char *dir;

	snprintf(root, sizeof root, "/tmp/cudalab-content-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	dir = path_join(root, "lessons");
	cr_assert_eq(mkdir_p(dir, 0700), 0);
	free(dir);
	dir = path_join(root, "exercises");
	cr_assert_eq(mkdir_p(dir, 0700), 0);
	free(dir);
}

static void drop_tree(void)
{
	nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *rel, const char *text)
{
	char *path = path_join(root, rel);
	char *dir = xstrdup(path);
	FILE *f;

	*strrchr(dir, '/') = '\0';
	cr_assert_eq(mkdir_p(dir, 0700), 0);
	f = fopen(path, "wb");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	free(dir);
	free(path);
}

static void put_exercise(const char *id, const char *md)
{
	char *p = xasprintf("exercises/%s/exercise.md", id);

	put(p, md);
	free(p);
	p = xasprintf("exercises/%s/kernel.cu", id);
	put(p, "\n");
	free(p);
	p = xasprintf("exercises/%s/solution.cu", id);
	put(p, "\n");
	free(p);
	p = xasprintf("exercises/%s/harness.cu", id);
	put(p, "\n");
	free(p);
}

Test(content, crlf_lines_and_fence_at_end_of_file)
{
	struct catalog *c;
	const char *crlf = "---\r\nid: crlf\r\ntitle: T\r\nsection: S\r\n"
			   "order: 1\r\nminutes: 3\r\n---\r\nBody\r\n";

	temp_tree();
	put("lessons/a.md", crlf);
	put("lessons/b.md", "---\nid: tail\ntitle: T\nsection: S\norder: 2\n"
			    "minutes: 3\n---");
	c = catalog_load(root);
	expect_n_diags(c, 0);
	cr_assert_eq(c->n_lessons, 2);
	cr_expect_eq(c->lessons[0].body_line, 8);
	cr_expect_eq(c->lessons[0].body_offset,
		     (size_t)(strstr(crlf, "Body") - crlf));
	cr_expect_eq(c->lessons[1].body_line, 8);
	cr_expect_eq(c->lessons[1].body_offset,
		     strlen("---\nid: tail\ntitle: T\nsection: S\norder: 2\n"
			    "minutes: 3\n---"));
	catalog_free(c);
	drop_tree();
}

Test(content, field_value_checks)
{
	struct catalog *c;

	temp_tree();
	/* duplicate key: reported on the second, the first value kept */
	put("lessons/a.md", "---\nid: dupkey\ntitle: First\nsection: S\n"
			    "order: 1\nminutes: 3\ntitle: Second\n---\n");
	/* quoted number and zero minutes: left out */
	put("lessons/b.md", "---\nid: quoted\ntitle: T\nsection: S\n"
			    "order: \"2\"\nminutes: 0\n---\n");
	/* not a slug */
	put("lessons/c.md", "---\nid: Not_A_Slug\ntitle: T\nsection: S\n"
			    "order: 3\nminutes: 3\n---\n");
	/* empty required string */
	put("lessons/d.md", "---\nid: empty\ntitle:\nsection: S\n"
			    "order: 4\nminutes: 3\n---\n");
	c = catalog_load(root);
	expect_n_diags(c, 5);
	expect_diag(c, 0, "lessons/a.md", 7, 1,
		    "duplicate key \"title\" (first at line 3)");
	expect_diag(c, 1, "lessons/b.md", 5, 8,
		    "\"order\" must be an integer, got \"2\"");
	expect_diag(c, 2, "lessons/b.md", 6, 10,
		    "\"minutes\" must be greater than 0, got 0");
	expect_diag(c, 3, "lessons/c.md", 2, 5, "invalid id \"Not_A_Slug\"");
	expect_diag(c, 4, "lessons/d.md", 3, 1, "\"title\" has no value");
	cr_assert_eq(c->n_lessons, 1);
	cr_expect_str_eq(c->lessons[0].title, "First");
	catalog_free(c);
	drop_tree();
}

Test(content, exercise_checks)
{
	struct catalog *c;

	temp_tree();
	put("lessons/a.md", "---\nid: les\ntitle: T\nsection: S\norder: 1\n"
			    "minutes: 3\nexercises: [right-name, empty-hints]\n"
			    "---\n");
	/* id differs from the directory */
	put_exercise("right-name", "---\nid: wrong-name\ntitle: T\nlesson: les\n"
				   "order: 1\ndifficulty: 1\nhints: [h]\n---\n");
	/* no hints at all */
	put_exercise("empty-hints", "---\nid: empty-hints\ntitle: T\n"
				    "lesson: les\norder: 2\ndifficulty: 1\n"
				    "hints: []\n---\n");
	c = catalog_load(root);
	expect_n_diags(c, 4);
	expect_diag(c, 0, "exercises/empty-hints/exercise.md", 7, 8,
		    "\"hints\" needs at least one hint");
	expect_diag(c, 1, "exercises/right-name/exercise.md", 2, 5,
		    "id \"wrong-name\" differs from the directory name \"right-name\"");
	/* "exercises: [right-name, empty-hints]" */
	expect_diag(c, 2, "lessons/a.md", 7, 13, "unknown exercise \"right-name\"");
	expect_diag(c, 3, "lessons/a.md", 7, 25,
		    "unknown exercise \"empty-hints\"");
	cr_expect_eq(c->n_exercises, 0);
	cr_expect_eq(c->n_lessons, 1);
	catalog_free(c);
	drop_tree();
}

/* "gpus": 1 when absent, the value when 1 to 64, a diagnostic on the
 * value otherwise (the exercise is left out, like a bad difficulty). */
Test(content, exercise_gpus)
{
	const struct exercise *e;
	struct catalog *c;

	temp_tree();
	put("lessons/a.md", "---\nid: les\ntitle: T\nsection: S\norder: 1\n"
			    "minutes: 3\nexercises: [one, four, most, zero, many, word]\n"
			    "---\n");
	put_exercise("one", "---\nid: one\ntitle: T\nlesson: les\norder: 1\n"
			    "difficulty: 1\nhints: [h]\n---\n");
	put_exercise("four", "---\nid: four\ntitle: T\nlesson: les\norder: 2\n"
			     "difficulty: 1\nhints: [h]\ngpus: 4\n---\n");
	put_exercise("most", "---\nid: most\ntitle: T\nlesson: les\norder: 3\n"
			     "difficulty: 1\nhints: [h]\ngpus: 64\n---\n");
	put_exercise("zero", "---\nid: zero\ntitle: T\nlesson: les\norder: 4\n"
			     "difficulty: 1\nhints: [h]\ngpus: 0\n---\n");
	put_exercise("many", "---\nid: many\ntitle: T\nlesson: les\norder: 5\n"
			     "difficulty: 1\nhints: [h]\ngpus: 65\n---\n");
	put_exercise("word", "---\nid: word\ntitle: T\nlesson: les\norder: 6\n"
			     "difficulty: 1\nhints: [h]\ngpus: two\n---\n");
	c = catalog_load(root);
	expect_n_diags(c, 5);
	expect_diag(c, 0, "exercises/many/exercise.md", 8, 7,
		    "\"gpus\" must be 1 to 64, got 65");
	expect_diag(c, 1, "exercises/word/exercise.md", 8, 7,
		    "\"gpus\" must be an integer, got \"two\"");
	expect_diag(c, 2, "exercises/zero/exercise.md", 8, 7,
		    "\"gpus\" must be 1 to 64, got 0");
	/* "exercises: [one, four, most, zero, many, word]" */
	expect_diag(c, 3, "lessons/a.md", 7, 30, "unknown exercise \"zero\"");
	expect_diag(c, 4, "lessons/a.md", 7, 36, "unknown exercise \"many\"");
	e = catalog_exercise(c, "one");
	cr_assert_not_null(e);
	cr_expect_eq(e->gpus, 1);
	e = catalog_exercise(c, "four");
	cr_assert_not_null(e);
	cr_expect_eq(e->gpus, 4);
	e = catalog_exercise(c, "most");
	cr_assert_not_null(e);
	cr_expect_eq(e->gpus, 64);
	/* a value of the wrong type is reported and the default kept */
	e = catalog_exercise(c, "word");
	cr_assert_not_null(e);
	cr_expect_eq(e->gpus, 1);
	catalog_free(c);
	drop_tree();
}

/* "timeline": false when absent, true or false as written, a diagnostic
 * on anything else (the exercise is left out). */
Test(content, exercise_timeline)
{
	const struct exercise *e;
	struct catalog *c;

	temp_tree();
	put("lessons/a.md", "---\nid: les\ntitle: T\nsection: S\norder: 1\n"
			    "minutes: 3\nexercises: [plain, on, off, maybe]\n---\n");
	put_exercise("plain", "---\nid: plain\ntitle: T\nlesson: les\norder: 1\n"
			      "difficulty: 1\nhints: [h]\n---\n");
	put_exercise("on", "---\nid: on\ntitle: T\nlesson: les\norder: 2\n"
			   "difficulty: 1\nhints: [h]\ntimeline: true\n---\n");
	put_exercise("off", "---\nid: off\ntitle: T\nlesson: les\norder: 3\n"
			    "difficulty: 1\nhints: [h]\ntimeline: false\n---\n");
	put_exercise("maybe", "---\nid: maybe\ntitle: T\nlesson: les\norder: 4\n"
			      "difficulty: 1\nhints: [h]\ntimeline: yes please\n---\n");
	c = catalog_load(root);
	expect_n_diags(c, 2);
	expect_diag(c, 0, "exercises/maybe/exercise.md", 8, 11,
		    "\"timeline\" must be true or false, got \"yes please\"");
	expect_diag(c, 1, "lessons/a.md", 7, 29, "unknown exercise \"maybe\"");
	e = catalog_exercise(c, "plain");
	cr_assert_not_null(e);
	cr_expect(!e->timeline);
	e = catalog_exercise(c, "on");
	cr_assert_not_null(e);
	cr_expect(e->timeline);
	e = catalog_exercise(c, "off");
	cr_assert_not_null(e);
	cr_expect(!e->timeline);
	catalog_free(c);
	drop_tree();
}

Test(content, yaml_reader_error_and_second_document)
{
	struct catalog *c;

	temp_tree();
	/* a control character at line 3, column 9 */
	put("lessons/a.md", "---\nid: a\ntitle: b\001c\nsection: S\norder: 1\n"
			    "minutes: 3\n---\n");
	/* "--- extra" is no fence, so YAML sees a second document */
	put("lessons/b.md", "---\nid: b\ntitle: T\nsection: S\norder: 2\n"
			    "minutes: 3\n--- extra\n---\n");
	/* text after an explicit document end */
	put("lessons/d.md", "---\nid: d\ntitle: T\nsection: S\norder: 4\n"
			    "minutes: 3\n...\nid: c\n---\n");
	put("lessons/c.md", "---\nid: ok\ntitle: T\nsection: S\norder: 3\n"
			    "minutes: 3\n---\n");
	c = catalog_load(root);
	expect_n_diags(c, 3);
	expect_diag(c, 0, "lessons/a.md", 3, 9,
		    "invalid YAML: control characters are not allowed");
	expect_diag(c, 1, "lessons/b.md", 7, 1, "more than one YAML document");
	expect_diag(c, 2, "lessons/d.md", 8, 1, "invalid YAML");
	cr_assert_eq(c->n_lessons, 1);
	cr_expect_str_eq(c->lessons[0].id, "ok");
	catalog_free(c);
	drop_tree();
}

/* ---- small pieces ----------------------------------------------------- */

Test(content, kind_names)
{
	static const char *const names[] = { "article", "paper", "video",
					     "code",    "thread", "book",
					     "course",  "tool",  "docs" };
	enum item_kind k;
	size_t i;

	cr_assert_eq(sizeof names / sizeof names[0], KIND__COUNT);
	for (i = 0; i < KIND__COUNT; i++) {
		cr_expect_str_eq(content_kind_name((enum item_kind)i), names[i]);
		cr_expect_eq(content_kind_parse(names[i], &k), 0);
		cr_expect_eq((size_t)k, i);
	}
	cr_expect_eq(content_kind_parse("blog", &k), -1);
	cr_expect_eq(content_kind_parse("Article", &k), -1);
	cr_expect_eq(content_kind_parse("", &k), -1);
}

Test(content, diag_format_shapes)
{
	struct diag d = { "lessons/10-gpu.md", 14, 11, "unknown kind" };
	char *s;

	s = diag_format(&d);
	cr_expect_str_eq(s, "lessons/10-gpu.md:14:11: unknown kind");
	free(s);
	d.col = 0;
	s = diag_format(&d);
	cr_expect_str_eq(s, "lessons/10-gpu.md:14: unknown kind");
	free(s);
	d.line = 0;
	s = diag_format(&d);
	cr_expect_str_eq(s, "lessons/10-gpu.md: unknown kind");
	free(s);
}

Test(content, slugs)
{
	cr_expect(content_is_slug("gpu-memory"));
	cr_expect(content_is_slug("a"));
	cr_expect(content_is_slug("h100-2x"));
	cr_expect_not(content_is_slug(""));
	cr_expect_not(content_is_slug("-a"));
	cr_expect_not(content_is_slug("a-"));
	cr_expect_not(content_is_slug("a--b"));
	cr_expect_not(content_is_slug("A"));
	cr_expect_not(content_is_slug("a_b"));
	cr_expect_not(content_is_slug("a b"));
}

static void expect_url(const char *url, int ok)
{
	char *why = content_url_problem(url);

	if (ok)
		cr_expect_null(why, "%s rejected: %s", url, why);
	else
		cr_expect_not_null(why, "%s accepted", url);
	free(why);
}

Test(content, url_checker)
{
	expect_url("https://example.com", 1);
	expect_url("https://example.com/", 1);
	expect_url("http://a.b-c.org:8080/x/y?q=1&r=%20#frag", 1);
	expect_url("https://www.youtube.com/watch?v=3jJ1GhGkLY0", 1);
	expect_url("https://docs.google.com/document/d/x/edit#heading=h.iv", 1);
	expect_url("https://x.com/u/status/1?s=12", 1);
	expect_url("http://[::1]:8000/", 1);
	expect_url("https://localhost", 1);

	expect_url("", 0);
	expect_url("example.com", 0);
	expect_url("ftp://example.com/", 0);
	expect_url("HTTPS://example.com/", 0);
	expect_url("https://", 0);
	expect_url("https:///x", 0);
	expect_url("https://exa mple.com", 0);
	expect_url("https://example.com/a b", 0);
	expect_url("https://example.com/\t", 0);
	expect_url("https://example.com/\x7f", 0);
	expect_url("https://ex_ample.com/", 0);
	expect_url("https://-example.com/", 0);
	expect_url("https://example-.com/", 0);
	expect_url("https://example..com/", 0);
	expect_url("https://example.com:/", 0);
	expect_url("https://example.com:99999/", 0);
	expect_url("https://example.com:8x/", 0);
	expect_url("https://user@example.com/", 0);
	expect_url("https://example.com/%zz", 0);
	expect_url("https://example.com/%4", 0);
	expect_url("https://example.com/a\"b", 0);
	expect_url("https://example.com/<x>", 0);
	expect_url("https://example.com/caf\xc3\xa9", 0);
	expect_url("http://[::1", 0);
	expect_url("http://[::g]/", 0);
}
