/* validate.c — the small checkers content relies on (slugs, URLs) and the
 * catalog's list of diagnostics. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void content_diag(struct catalog *cat, const char *file, struct pos p,
		  const char *fmt, ...)
{
	struct strbuf sb;
	struct diag *d;
	va_list ap;

	sb_init(&sb);
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	cat->diags = xrealloc(cat->diags, (cat->n_diags + 1) * sizeof *d);
	d = &cat->diags[cat->n_diags++];
	d->file = xstrdup(file);
	d->line = p.line;
	d->col = p.col;
	d->msg = sb_steal(&sb);
}

struct ranked {
	struct diag d;
	size_t seq;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	int c = strcmp(a->d.file, b->d.file);

	if (c)
		return c;
	if (a->d.line != b->d.line)
		return a->d.line < b->d.line ? -1 : 1;
	if (a->d.col != b->d.col)
		return a->d.col < b->d.col ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void content_sort_diags(struct catalog *cat)
{
	struct ranked *r;
	size_t i;

	if (cat->n_diags < 2)
		return;
	r = xmalloc(cat->n_diags * sizeof *r);
	for (i = 0; i < cat->n_diags; i++) {
		r[i].d = cat->diags[i];
		r[i].seq = i;
	}
	qsort(r, cat->n_diags, sizeof *r, cmp_ranked);
	for (i = 0; i < cat->n_diags; i++)
		cat->diags[i] = r[i].d;
	free(r);
}

char *diag_format(const struct diag *d)
{
	if (d->line <= 0)
		return xasprintf("%s: %s", d->file, d->msg);
	if (d->col <= 0)
		return xasprintf("%s:%d: %s", d->file, d->line, d->msg);
	return xasprintf("%s:%d:%d: %s", d->file, d->line, d->col, d->msg);
}

static int is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

int content_is_slug(const char *s)
{
	size_t i;

	if (!is_lower_alnum(s[0]))
		return 0;
	for (i = 1; s[i]; i++) {
		if (is_lower_alnum(s[i]))
			continue;
		if (s[i] != '-' || !is_lower_alnum(s[i + 1]))
			return 0;
	}
	return 1;
}

static int is_alnum(char c)
{
	return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* One DNS name: dot-separated labels of letters, digits and inner hyphens,
 * each 1..63 long.  Returns NULL or what is wrong. */
static char *host_problem(const char *h, size_t n)
{
	size_t i, label = 0;

	if (n == 0)
		return xstrdup("the host is empty");
	if (n > 253)
		return xstrdup("the host is longer than 253 characters");
	for (i = 0; i <= n; i++) {
		if (i == n || h[i] == '.') {
			if (label == 0)
				return xstrdup("the host has an empty label");
			if (h[i - 1] == '-')
				return xstrdup("a host label ends with '-'");
			label = 0;
			continue;
		}
		if (h[i] == '-' && label == 0)
			return xstrdup("a host label starts with '-'");
		if (h[i] != '-' && !is_alnum(h[i]))
			return xasprintf("the host contains '%c'", h[i]);
		if (++label > 63)
			return xstrdup("a host label is longer than 63 characters");
	}
	return NULL;
}

/* A bracketed IPv6 literal, "[...]" of hex digits, colons and dots. */
static char *ipv6_problem(const char *h, size_t n)
{
	size_t i;

	if (n < 3 || h[n - 1] != ']')
		return xstrdup("unterminated IPv6 host");
	for (i = 1; i + 1 < n; i++)
		if (!is_hex(h[i]) && h[i] != ':' && h[i] != '.')
			return xasprintf("the IPv6 host contains '%c'", h[i]);
	return NULL;
}

static char *port_problem(const char *p, size_t n)
{
	long v = 0;
	size_t i;

	if (n == 0 || n > 5)
		return xstrdup("the port must be 1 to 5 digits");
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return xstrdup("the port must be 1 to 5 digits");
		v = v * 10 + (p[i] - '0');
	}
	if (v < 1 || v > 65535)
		return xasprintf("port %ld is out of range", v);
	return NULL;
}

/* "host[:port]" with no user information. */
static char *authority_problem(const char *a, size_t n)
{
	const char *colon;
	char *why;
	size_t hn;

	if (memchr(a, '@', n))
		return xstrdup("user information ('@') is not allowed");
	if (n > 0 && a[0] == '[') {
		const char *close = memchr(a, ']', n);
		hn = close ? (size_t)(close - a) + 1 : n;
		if (hn < n && a[hn] != ':')
			return xstrdup("unexpected text after the IPv6 host");
		colon = hn < n ? a + hn : NULL;
	} else {
		colon = memchr(a, ':', n);
		hn = colon ? (size_t)(colon - a) : n;
	}
	why = a[0] == '[' ? ipv6_problem(a, hn) : host_problem(a, hn);
	if (!why && colon)
		why = port_problem(colon + 1, n - hn - 1);
	return why;
}

/* What may follow the authority: RFC 3986 path, query and fragment
 * characters, and '%' only as the start of a two-digit escape. */
static char *rest_problem(const char *s)
{
	static const char allowed[] = "-._~!$&'()*+,;=:@/?#";
	size_t i;

	for (i = 0; s[i]; i++) {
		if (s[i] == '%') {
			if (!is_hex(s[i + 1]) || !is_hex(s[i + 2]))
				return xstrdup("'%' is not followed by two hex digits");
			i += 2;
			continue;
		}
		if (!is_alnum(s[i]) && !strchr(allowed, s[i]))
			return xasprintf("'%c' must be percent-encoded", s[i]);
	}
	return NULL;
}

char *content_url_problem(const char *url)
{
	const char *a;
	size_t i, n;
	char *why;

	for (i = 0; url[i]; i++) {
		unsigned char c = (unsigned char)url[i];
		if (c == ' ')
			return xstrdup("it contains a space");
		if (c < 0x20 || c == 0x7f)
			return xstrdup("it contains a control character");
		if (c >= 0x80)
			return xstrdup("it contains a non-ASCII character (percent-encode it)");
	}
	if (str_starts(url, "https://"))
		a = url + 8;
	else if (str_starts(url, "http://"))
		a = url + 7;
	else
		return xstrdup("the scheme must be http:// or https://");
	n = strcspn(a, "/?#");
	why = authority_problem(a, n);
	if (why)
		return why;
	return rest_problem(a + n);
}
