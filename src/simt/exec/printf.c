/* Device printf.  A kernel's printf passes the format string and a buffer
 * holding its arguments, each promoted as in a C variadic call (integers
 * to at least 4 bytes, float to double) and aligned to its own size.  The
 * format is interpreted here with the host's printf, one conversion at a
 * time. */
#include "exec/exec.h"

#include <string.h>

/* The conversions are rebuilt from the device's format at run time, so the
 * host printf calls below necessarily take non-literal formats. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

struct spec {
	char flags[8];
	int nflags;
	int width;          /* -1: none, -2: from the arguments */
	int prec;
	char len[3];
	char conv;
};

/* Parses a conversion after '%'; returns the characters consumed or 0. */
static size_t parse_spec(const char *s, struct spec *sp)
{
	const char *p = s;

	memset(sp, 0, sizeof *sp);
	sp->width = -1;
	sp->prec = -1;
	while (*p && strchr("-+ #0", *p) && sp->nflags < 7)
		sp->flags[sp->nflags++] = *p++;
	if (*p == '*') {
		sp->width = -2;
		p++;
	} else if (*p >= '0' && *p <= '9') {
		sp->width = 0;
		while (*p >= '0' && *p <= '9')
			sp->width = sp->width * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		p++;
		sp->prec = 0;
		if (*p == '*') {
			sp->prec = -2;
			p++;
		} else {
			while (*p >= '0' && *p <= '9')
				sp->prec = sp->prec * 10 + (*p++ - '0');
		}
	}
	if (*p == 'h' || *p == 'l' || *p == 'L' || *p == 'z' || *p == 'j' ||
	    *p == 't' || *p == 'q') {
		sp->len[0] = *p++;
		if ((*p == 'h' || *p == 'l') && *p == sp->len[0])
			sp->len[1] = *p++;
	}
	if (!*p || !strchr("diouxXcsfFeEgGaApn%", *p))
		return 0;
	sp->conv = *p++;
	return (size_t)(p - s);
}

struct argbuf {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

static uint64_t take(struct argbuf *a, size_t size)
{
	uint64_t v = 0;

	a->off = (a->off + size - 1) / size * size;
	if (!a->p || a->off + size > a->len) {
		a->bad = true;
		return 0;
	}
	memcpy(&v, a->p + a->off, size);
	a->off += size;
	return v;
}

static size_t int_size(const struct spec *sp)
{
	if (sp->len[0] == 'l' || sp->len[0] == 'z' || sp->len[0] == 'j' ||
	    sp->len[0] == 't' || sp->len[0] == 'q')
		return 8;
	return 4;
}

/* Rebuilds the conversion for the host printf with a fixed length. */
static void host_fmt(char *out, const struct spec *sp, const char *len)
{
	char *o = out;
	int i;

	*o++ = '%';
	for (i = 0; i < sp->nflags; i++)
		*o++ = sp->flags[i];
	if (sp->width != -1)
		*o++ = '*';
	if (sp->prec != -1) {
		*o++ = '.';
		*o++ = '*';
	}
	while (*len)
		*o++ = *len++;
	*o++ = sp->conv;
	*o = 0;
}

static void emit_int(struct simt_buf *b, const struct spec *sp, int w, int pr,
		     struct argbuf *a)
{
	char f[32];
	uint64_t v = take(a, int_size(sp));
	bool sgn = sp->conv == 'd' || sp->conv == 'i';
	long long x;

	if (int_size(sp) == 4)
		v = sgn ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
	if (sp->len[0] == 'h' && sp->len[1] == 'h')
		v = sgn ? (uint64_t)(int64_t)(int8_t)v : (uint8_t)v;
	else if (sp->len[0] == 'h')
		v = sgn ? (uint64_t)(int64_t)(int16_t)v : (uint16_t)v;
	host_fmt(f, sp, "ll");
	x = (long long)v;
	if (sp->width != -1 && sp->prec != -1)
		simt_buf_printf(b, f, w, pr, x);
	else if (sp->width != -1)
		simt_buf_printf(b, f, w, x);
	else if (sp->prec != -1)
		simt_buf_printf(b, f, pr, x);
	else
		simt_buf_printf(b, f, x);
}

static void emit_double(struct simt_buf *b, const struct spec *sp, int w,
			int pr, struct argbuf *a)
{
	char f[32];
	uint64_t bits = take(a, 8);
	double x;

	memcpy(&x, &bits, 8);
	host_fmt(f, sp, "");
	if (sp->width != -1 && sp->prec != -1)
		simt_buf_printf(b, f, w, pr, x);
	else if (sp->width != -1)
		simt_buf_printf(b, f, w, x);
	else if (sp->prec != -1)
		simt_buf_printf(b, f, pr, x);
	else
		simt_buf_printf(b, f, x);
}

static void emit_str(struct simt_buf *b, const struct spec *sp, int w, int pr,
		     const char *s)
{
	char f[32];

	host_fmt(f, sp, "");
	if (sp->width != -1 && sp->prec != -1)
		simt_buf_printf(b, f, w, pr, s);
	else if (sp->width != -1)
		simt_buf_printf(b, f, w, s);
	else if (sp->prec != -1)
		simt_buf_printf(b, f, pr, s);
	else
		simt_buf_printf(b, f, s);
}

static void emit(struct simt_buf *b, const struct spec *sp, struct argbuf *a,
		 simt_strfetch fetch, void *ctx)
{
	int w = 0, pr = 0;

	if (sp->width == -2)
		w = (int)(int32_t)take(a, 4);
	else
		w = sp->width;
	if (sp->prec == -2)
		pr = (int)(int32_t)take(a, 4);
	else
		pr = sp->prec;
	switch (sp->conv) {
	case 'd': case 'i': case 'o': case 'u': case 'x': case 'X':
		emit_int(b, sp, w, pr, a);
		break;
	case 'c': {
		struct spec s2 = *sp;
		char f[32];

		s2.prec = -1;
		host_fmt(f, &s2, "");
		if (sp->width != -1)
			simt_buf_printf(b, f, w, (int)(int32_t)take(a, 4));
		else
			simt_buf_printf(b, f, (int)(int32_t)take(a, 4));
		break;
	}
	case 's': {
		uint64_t addr = take(a, 8);
		const char *s = addr ? fetch(ctx, addr) : "(null)";

		emit_str(b, sp, w, pr, s ? s : "<bad string>");
		break;
	}
	case 'p': {
		uint64_t v = take(a, 8);

		simt_buf_printf(b, "0x%llx", (unsigned long long)v);
		break;
	}
	case 'n':
		take(a, 8);
		break;
	default:
		emit_double(b, sp, w, pr, a);
		break;
	}
}

int simt_format_printf(struct simt_buf *b, const char *fmt,
		       const uint8_t *args, size_t args_len,
		       simt_strfetch fetch, void *ctx)
{
	struct argbuf a = {args, args_len, 0, false};
	const char *p = fmt;
	int used = 0;

	while (*p) {
		const char *pct = strchr(p, '%');
		struct spec sp;
		size_t n;

		if (!pct) {
			simt_buf_add(b, p, strlen(p));
			break;
		}
		simt_buf_add(b, p, (size_t)(pct - p));
		if (pct[1] == '%') {
			simt_buf_add(b, "%", 1);
			p = pct + 2;
			continue;
		}
		n = parse_spec(pct + 1, &sp);
		if (!n) {
			simt_buf_add(b, pct, 1);
			p = pct + 1;
			continue;
		}
		emit(b, &sp, &a, fetch, ctx);
		used += 1 + (sp.width == -2) + (sp.prec == -2);
		p = pct + 1 + n;
	}
	return used;
}
