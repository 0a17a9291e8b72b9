/* The line diff and tab expansion behind the solution view, against diffs
 * worked out by hand. */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "cudalab/util.h"

static void expect_diff(const char *a, const char *b, const char *const *want, long nwant)
{
	char **got;
	long n = diff_lines(a, b, 1000, &got);

	cr_assert_eq(n, nwant, "%ld lines, expected %ld", n, nwant);
	for (long i = 0; i < n; i++)
		cr_expect_str_eq(got[i], want[i], "line %ld", i);
	str_lines_free(got, n);
}

Test(diff, equal_texts_are_all_context)
{
	const char *want[] = { " a", " b", " c" };

	expect_diff("a\nb\nc\n", "a\nb\nc", want, 3);
}

Test(diff, one_changed_line_is_a_removal_then_an_addition)
{
	const char *want[] = { " int i = 0;", "-c[i] = a[i];", "+c[i] = a[i] + b[i];", " }" };

	expect_diff("int i = 0;\nc[i] = a[i];\n}\n", "int i = 0;\nc[i] = a[i] + b[i];\n}\n",
		    want, 4);
}

Test(diff, insertions_and_deletions_keep_the_common_lines)
{
	/* LCS of "x a b y c" and "a b c z" is "a b c" */
	const char *want[] = { "-x", " a", " b", "-y", " c", "+z" };

	expect_diff("x\na\nb\ny\nc\n", "a\nb\nc\nz\n", want, 6);
}

Test(diff, empty_sides)
{
	const char *all_new[] = { "+1", "+2" };
	const char *all_gone[] = { "-1" };
	char **got;

	expect_diff("", "1\n2\n", all_new, 2);
	expect_diff("1\n", "", all_gone, 1);
	cr_expect_eq(diff_lines("", "", 10, &got), 0);
	str_lines_free(got, 0);
}

Test(diff, refuses_texts_past_the_cap)
{
	char **got;

	cr_expect_eq(diff_lines("1\n2\n3\n", "1\n", 2, &got), -1);
	cr_expect_null(got);
}

Test(tabs, expand_to_the_next_stop)
{
	const char *s = "\tx\ty\t\tz";
	char *e = str_expand_tabs(s, strlen(s), 4);

	cr_expect_str_eq(e, "    x   y       z");
	free(e);
	e = str_expand_tabs("ab\tc", 4, 8);
	cr_expect_str_eq(e, "ab      c");
	free(e);
	e = str_expand_tabs("", 0, 8);
	cr_expect_str_eq(e, "");
	free(e);
}
