/* util.c — allocation wrappers, string buffers and file helpers. */
#include "cudalab/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

static UTIL_NORETURN void out_of_memory(size_t n)
{
	fprintf(stderr, "cudalab: out of memory (%zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = xmalloc(len + 1);
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	sb_init(&sb);
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	return sb_steal(&sb);
}

void xgrow(void **items, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 8;

	if (need <= *cap)
		return;
	while (n < need)
		n *= 2;
	*items = xrealloc(*items, n * elem);
	*cap = n;
}

void sb_init(struct strbuf *sb)
{
	sb->s = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void sb_free(struct strbuf *sb)
{
	free(sb->s);
	sb_init(sb);
}

static void sb_reserve(struct strbuf *sb, size_t extra)
{
	xgrow((void **)&sb->s, &sb->cap, sb->len + extra + 1, 1);
}

void sb_append(struct strbuf *sb, const char *s, size_t n)
{
	sb_reserve(sb, n);
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void sb_putc(struct strbuf *sb, char c)
{
	sb_append(sb, &c, 1);
}

void sb_puts(struct strbuf *sb, const char *s)
{
	sb_append(sb, s, strlen(s));
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	sb_reserve(sb, (size_t)n);
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

char *sb_steal(struct strbuf *sb)
{
	char *s = sb->s ? sb->s : xstrdup("");

	sb_init(sb);
	return s;
}

char *read_file(const char *path, size_t *len)
{
	struct strbuf sb;
	char chunk[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	sb_init(&sb);
	sb_reserve(&sb, 0);
	sb.s[0] = '\0';
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		sb_append(&sb, chunk, n);
	if (ferror(f)) {
		int e = errno ? errno : EIO;
		fclose(f);
		sb_free(&sb);
		errno = e;
		return NULL;
	}
	fclose(f);
	if (len)
		*len = sb.len;
	return sb_steal(&sb);
}

int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	char *s;
	int rc = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) != 0 && errno != EEXIST) {
			rc = -1;
			break;
		}
		*s = '/';
	}
	if (rc == 0 && mkdir(p, mode) != 0 && errno != EEXIST)
		rc = -1;
	free(p);
	return rc;
}

char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	if (la && a[la - 1] == '/')
		return xasprintf("%s%s", a, b);
	return xasprintf("%s/%s", a, b);
}

int str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int str_ends(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && memcmp(s + ls - lx, suffix, lx) == 0;
}

double mono_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

size_t str_distance(const char *a, const char *b, size_t cap)
{
	size_t la = strlen(a), lb = strlen(b), i, j, best, *row;

	if ((la > lb ? la - lb : lb - la) > cap || la > 256 || lb > 256)
		return cap + 1;
	row = xcalloc(lb + 1, sizeof *row);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], d = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < d)
				d = up + 1;
			if (row[j - 1] + 1 < d)
				d = row[j - 1] + 1;
			diag = up;
			row[j] = d;
			if (d < best)
				best = d;
		}
		if (best > cap)
			break;
	}
	best = i > la ? row[lb] : cap + 1;
	free(row);
	return best;
}

size_t str_near_cap(const char *word)
{
	return strlen(word) / 3 > 2 ? strlen(word) / 3 : 2;
}

const char *str_nearest(const char *word, const char *const *names, size_t n)
{
	size_t cap = str_near_cap(word), best = cap + 1;
	const char *near = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = str_distance(word, names[i], cap);

		if (d < best) {
			best = d;
			near = names[i];
		}
	}
	return near;
}
