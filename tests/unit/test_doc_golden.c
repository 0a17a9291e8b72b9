/* test_doc_golden.c — every tests/golden/NAME.md rendered as plain text at
 * 40 and 80 columns must equal NAME.40.txt and NAME.80.txt byte for byte.
 *
 * The expected files were reviewed by hand.  To regenerate them after an
 * intended change, run with CUDALAB_GOLDEN_UPDATE=1 and review the diff. */
#include "cudalab/doc.h"
#include "cudalab/util.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CUDALAB_SRCDIR
#define CUDALAB_SRCDIR "."
#endif

#define GOLDEN_DIR CUDALAB_SRCDIR "/tests/golden"

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The NAME.md files of the golden directory, sorted; NULL-terminated. */
static char **golden_inputs(size_t *count)
{
	DIR *d = opendir(GOLDEN_DIR);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	cr_assert_not_null(d, "cannot open %s", GOLDEN_DIR);
	while ((e = readdir(d)) != NULL) {
		if (!str_ends(e->d_name, ".md") || e->d_name[0] == '.')
			continue;
		xgrow((void **)&names, &cap, n + 2, sizeof *names);
		names[n++] = xstrndup(e->d_name, strlen(e->d_name) - 3);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_names);
	*count = n;
	return names;
}

static char *render_plain(const char *md, size_t len, int width)
{
	struct doc *doc = doc_parse(md, len);
	struct doc_layout *l;
	char *out = NULL;
	size_t outlen = 0;
	FILE *f;

	cr_assert_not_null(doc);
	l = doc_layout(doc, width);
	f = open_memstream(&out, &outlen);
	cr_assert_not_null(f);
	cr_assert_eq(doc_render_plain(l, f), 0);
	fclose(f);
	doc_layout_free(l);
	doc_free(doc);
	return out;
}

/* Line n (0-based) of s, as a pointer and length; false past the end. */
static bool nth_line(const char *s, int n, const char **line, int *len)
{
	for (; n > 0; n--) {
		s = strchr(s, '\n');
		if (!s)
			return false;
		s++;
	}
	if (!*s)
		return false;
	*line = s;
	*len = (int)(strchr(s, '\n') ? strchr(s, '\n') - s : (long)strlen(s));
	return true;
}

static bool same_line(const char *exp, const char *got, int n)
{
	const char *a, *b;
	int la, lb;
	bool ha = nth_line(exp, n, &a, &la), hb = nth_line(got, n, &b, &lb);

	return ha == hb && (!ha || (la == lb && memcmp(a, b, (size_t)la) == 0));
}

/* Prints where expected and got part, in the manner of a unified diff:
 * two lines of context, then up to six differing lines of each. */
static void diff_hint(const char *name, const char *exp, const char *got)
{
	const char *a;
	int la, first = 0, last;

	while (same_line(exp, got, first) && nth_line(exp, first, &a, &la))
		first++;
	for (last = first; last < first + 6 && !same_line(exp, got, last); last++)
		;
	fprintf(stderr, "--- %s (expected)\n+++ %s (rendered)\n@@ line %d @@\n",
		name, name, first + 1);
	for (int i = first > 2 ? first - 2 : 0; i < first; i++)
		if (nth_line(exp, i, &a, &la))
			fprintf(stderr, " %.*s\n", la, a);
	for (int i = first; i < last; i++)
		if (nth_line(exp, i, &a, &la))
			fprintf(stderr, "-%.*s\n", la, a);
	for (int i = first; i < last; i++)
		if (nth_line(got, i, &a, &la))
			fprintf(stderr, "+%.*s\n", la, a);
}

static void check_width(int width)
{
	bool update = getenv("CUDALAB_GOLDEN_UPDATE") &&
		      strcmp(getenv("CUDALAB_GOLDEN_UPDATE"), "1") == 0;
	size_t n, len;
	char **names = golden_inputs(&n);

	cr_assert_geq(n, 9, "expected the golden inputs in %s", GOLDEN_DIR);
	for (size_t i = 0; i < n; i++) {
		char *in = xasprintf("%s/%s.md", GOLDEN_DIR, names[i]);
		char *out = xasprintf("%s/%s.%d.txt", GOLDEN_DIR, names[i], width);
		char *md = read_file(in, &len);
		char *got, *exp;

		cr_assert_not_null(md, "cannot read %s", in);
		got = render_plain(md, len, width);
		if (update) {
			FILE *f = fopen(out, "w");
			cr_assert_not_null(f, "cannot write %s", out);
			fputs(got, f);
			fclose(f);
		}
		exp = read_file(out, NULL);
		cr_expect_not_null(exp, "missing %s (CUDALAB_GOLDEN_UPDATE=1 makes it)", out);
		if (exp && strcmp(exp, got) != 0) {
			diff_hint(out, exp, got);
			cr_expect_fail("%s differs from the rendering of %s", out, in);
		}
		free(exp);
		free(got);
		free(md);
		free(in);
		free(out);
		free(names[i]);
	}
	free(names);
}

Test(doc_golden, width_40)
{
	check_width(40);
}

Test(doc_golden, width_80)
{
	check_width(80);
}
