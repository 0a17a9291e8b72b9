/* Allocation, strings and messages for simt, which depends on nothing
 * outside its own folder.  Allocation failures abort: a runtime that cannot
 * allocate its own bookkeeping cannot report anything useful. */
#include "base/base.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void oom(size_t n)
{
	fprintf(stderr, "simt: out of host memory (%zu bytes)\n", n);
	abort();
}

void *simt_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *simt_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom(n * size);
	return p;
}

void *simt_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *simt_xstrdup(const char *s)
{
	return simt_xstrndup(s, strlen(s));
}

char *simt_xstrndup(const char *s, size_t n)
{
	char *p = simt_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *simt_xasprintf(const char *fmt, ...)
{
	struct simt_buf b = {0};
	va_list ap;

	va_start(ap, fmt);
	simt_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return b.s ? b.s : simt_xstrdup("");
}

double simt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void simt_warn(const char *fmt, ...)
{
	struct simt_buf b = {0};
	va_list ap;

	simt_buf_add(&b, "simt: ", 6);
	va_start(ap, fmt);
	simt_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	simt_buf_add(&b, "\n", 1);
	fflush(stdout);
	fwrite(b.s, 1, b.len, stderr);
	fflush(stderr);
	simt_buf_free(&b);
}

long simt_env_long(const char *name, long dflt)
{
	const char *v = getenv(name);
	char *end;
	long x;

	if (!v || !*v)
		return dflt;
	errno = 0;
	x = strtol(v, &end, 0);
	if (errno || *end) {
		simt_warn("ignoring %s=%s: not a number", name, v);
		return dflt;
	}
	return x;
}

void simt_buf_add(struct simt_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 128;

		while (cap < b->len + n + 1)
			cap *= 2;
		b->s = simt_xrealloc(b->s, cap);
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void simt_buf_vprintf(struct simt_buf *b, const char *fmt, va_list ap)
{
	char small[256];
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof small, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		simt_buf_add(b, small, (size_t)n);
		return;
	}
	{
		char *big = simt_xmalloc((size_t)n + 1);

		vsnprintf(big, (size_t)n + 1, fmt, ap);
		simt_buf_add(b, big, (size_t)n);
		free(big);
	}
}

void simt_buf_printf(struct simt_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	simt_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void simt_buf_free(struct simt_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

uint64_t simt_float_literal_bits(double x)
{
	if (isnan(x))
		return 0;
	if (x >= 9223372036854775808.0)
		return (uint64_t)INT64_MAX;
	if (x < -9223372036854775808.0)
		return (uint64_t)INT64_MIN;
	return (uint64_t)(int64_t)x;
}
