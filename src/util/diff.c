/* diff.c — a line diff for showing a learner's file against the
 * solution: the longest common subsequence of lines by dynamic
 * programming, O(n·m) time and space, which for source files of a few
 * hundred lines is instant; longer texts are refused by the caller's cap. */
#include <stdlib.h>
#include <string.h>

#include "cudalab/util.h"

struct lines {
	char **v;
	long n;
};

static void split(const char *s, struct lines *l)
{
	size_t cap = 0;

	l->v = NULL;
	l->n = 0;
	while (s && *s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);

		xgrow((void **)&l->v, &cap, (size_t)l->n + 1, sizeof *l->v);
		l->v[l->n++] = xstrndup(s, len);
		s = nl ? nl + 1 : s + len;
	}
}

void str_lines_free(char **lines, long n)
{
	for (long i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

static void emit(char ***out, long *n, size_t *cap, char mark, const char *line)
{
	xgrow((void **)out, cap, (size_t)*n + 1, sizeof **out);
	(*out)[(*n)++] = xasprintf("%c%s", mark, line);
}

long diff_lines(const char *a, const char *b, long max_lines, char ***out)
{
	struct lines x, y;
	unsigned *len; /* len[i*(m+1)+j]: LCS of x[i..] and y[j..] */
	long n, m, i, j, count = 0;
	size_t cap = 0;

	*out = NULL;
	split(a, &x);
	split(b, &y);
	n = x.n;
	m = y.n;
	if (n > max_lines || m > max_lines) {
		str_lines_free(x.v, x.n);
		str_lines_free(y.v, y.n);
		return -1;
	}
	len = xcalloc((size_t)(n + 1) * (size_t)(m + 1), sizeof *len);
#define LEN(i, j) len[(size_t)(i) * (size_t)(m + 1) + (size_t)(j)]
	for (i = n - 1; i >= 0; i--)
		for (j = m - 1; j >= 0; j--)
			LEN(i, j) = strcmp(x.v[i], y.v[j]) == 0
					    ? LEN(i + 1, j + 1) + 1
					    : (LEN(i + 1, j) >= LEN(i, j + 1) ? LEN(i + 1, j)
										: LEN(i, j + 1));
	/* walk the table: removals before additions where both are possible */
	for (i = 0, j = 0; i < n || j < m;) {
		if (i < n && j < m && strcmp(x.v[i], y.v[j]) == 0) {
			emit(out, &count, &cap, ' ', x.v[i]);
			i++;
			j++;
		} else if (i < n && (j == m || LEN(i + 1, j) >= LEN(i, j + 1))) {
			emit(out, &count, &cap, '-', x.v[i++]);
		} else {
			emit(out, &count, &cap, '+', y.v[j++]);
		}
	}
#undef LEN
	free(len);
	str_lines_free(x.v, x.n);
	str_lines_free(y.v, y.n);
	return count;
}

char *str_expand_tabs(const char *s, size_t len, int width)
{
	struct strbuf sb;
	int col = 0;

	sb_init(&sb);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\t') {
			do
				sb_putc(&sb, ' ');
			while (++col % width);
		} else {
			sb_putc(&sb, s[i]);
			if (((unsigned char)s[i] & 0xC0) != 0x80)
				col++;
		}
	}
	return sb_steal(&sb);
}
