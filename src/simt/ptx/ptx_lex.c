/* The PTX lexer: identifiers (with their dots), numbers in every PTX
 * form (hex floats 0f/0d included), strings and punctuation; and the
 * table of PTX type names and their sizes. */
#include "ptx/ptx_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- lexer ---- */

static bool ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

static bool ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

static void skip_space(struct ptx_lexer *lx)
{
	while (lx->p < lx->end) {
		char c = *lx->p;

		if (c == '\n') {
			lx->line++;
			lx->p++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v' || c == 0) {
			lx->p++;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
			lx->p += 2;
			while (lx->p + 1 < lx->end &&
			       !(lx->p[0] == '*' && lx->p[1] == '/')) {
				if (*lx->p == '\n')
					lx->line++;
				lx->p++;
			}
			lx->p = lx->p + 2 <= lx->end ? lx->p + 2 : lx->end;
		} else {
			break;
		}
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool lex_hex_float(struct ptx_lexer *lx, struct ptx_tok *t)
{
	const char *p = lx->p;
	int digits = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
	uint64_t v = 0;
	int i;

	if (p + 2 + digits > lx->end)
		return false;
	for (i = 0; i < digits; i++) {
		int h = hexval(p[2 + i]);

		if (h < 0)
			return false;
		v = v << 4 | (uint64_t)h;
	}
	t->kind = TK_FLOAT;
	t->fbits = digits == 8 ? 32 : 64;
	t->raw = v;
	if (digits == 8) {
		uint32_t u = (uint32_t)v;
		float f;

		memcpy(&f, &u, 4);
		t->fval = f;
	} else {
		memcpy(&t->fval, &v, 8);
	}
	lx->p = p + 2 + digits;
	return true;
}

static void lex_number(struct ptx_lexer *lx, struct ptx_tok *t)
{
	const char *p = lx->p;
	uint64_t v = 0;

	if (p[0] == '0' && p + 1 < lx->end &&
	    (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D') &&
	    lex_hex_float(lx, t))
		goto done;
	t->kind = TK_INT;
	if (p[0] == '0' && p + 1 < lx->end && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		while (p < lx->end && hexval(*p) >= 0)
			v = v << 4 | (uint64_t)hexval(*p++);
	} else if (p[0] == '0' && p + 1 < lx->end && (p[1] == 'b' || p[1] == 'B')) {
		p += 2;
		while (p < lx->end && (*p == '0' || *p == '1'))
			v = v << 1 | (uint64_t)(*p++ - '0');
	} else {
		const char *q = p;

		while (q < lx->end && isdigit((unsigned char)*q))
			q++;
		if (q < lx->end && (*q == '.' || *q == 'e' || *q == 'E')) {
			char buf[64];
			size_t n = 0;

			while (p < lx->end && n < sizeof buf - 1 &&
			       (isdigit((unsigned char)*p) || *p == '.' ||
				*p == 'e' || *p == 'E' ||
				((*p == '-' || *p == '+') &&
				 (p[-1] == 'e' || p[-1] == 'E'))))
				buf[n++] = *p++;
			buf[n] = 0;
			t->kind = TK_FLOAT;
			t->fbits = 0;
			t->fval = strtod(buf, NULL);
			lx->p = p;
			goto done;
		}
		if (p[0] == '0' && q - p > 1) {
			for (p++; p < q; p++)
				v = v * 8 + (uint64_t)(*p - '0');
		} else {
			for (; p < q; p++)
				v = v * 10 + (uint64_t)(*p - '0');
		}
	}
	if (p < lx->end && (*p == 'U' || *p == 'u'))
		p++;
	t->ival = v;
	lx->p = p;
done:
	t->len = (uint32_t)(lx->p - t->s);
}

void ptx_lex_next(struct ptx_lexer *lx)
{
	struct ptx_tok *t = &lx->cur;

	skip_space(lx);
	memset(t, 0, sizeof *t);
	t->line = lx->line;
	t->s = lx->p;
	if (lx->p >= lx->end) {
		t->kind = TK_EOF;
		return;
	}
	if (ident_start((unsigned char)*lx->p)) {
		const char *p = lx->p + 1;

		for (;;) {
			if (p < lx->end && ident_char((unsigned char)*p))
				p++;
			else if (p + 1 < lx->end && p[0] == ':' && p[1] == ':')
				p += 2;
			else
				break;
		}
		t->kind = TK_IDENT;
		t->len = (uint32_t)(p - lx->p);
		lx->p = p;
		return;
	}
	if (isdigit((unsigned char)*lx->p)) {
		lex_number(lx, t);
		return;
	}
	if (*lx->p == '"') {
		const char *p = lx->p + 1;

		while (p < lx->end && *p != '"') {
			if (*p == '\\' && p + 1 < lx->end)
				p++;
			p++;
		}
		t->kind = TK_STRING;
		t->s = lx->p + 1;
		t->len = (uint32_t)(p - t->s);
		lx->p = p < lx->end ? p + 1 : p;
		return;
	}
	t->kind = TK_PUNCT;
	t->punct = *lx->p++;
	t->len = 1;
}

/* ---- types ---- */

static const struct {
	const char *name;
	int type;
} type_names[] = {
	{"b8", ST_B8}, {"b16", ST_B16}, {"b32", ST_B32}, {"b64", ST_B64},
	{"b128", ST_B128}, {"u8", ST_U8}, {"u16", ST_U16}, {"u32", ST_U32},
	{"u64", ST_U64}, {"s8", ST_S8}, {"s16", ST_S16}, {"s32", ST_S32},
	{"s64", ST_S64}, {"f16", ST_F16}, {"f16x2", ST_F16X2},
	{"bf16", ST_BF16}, {"bf16x2", ST_BF16X2}, {"tf32", ST_TF32},
	{"f32", ST_F32}, {"f64", ST_F64}, {"pred", ST_PRED},
};

/* Parses a type name without its dot; ST_NONE if it is not one. */
int ptx_parse_type(const char *s, uint32_t len)
{
	size_t i;

	for (i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
		if (strlen(type_names[i].name) == len &&
		    memcmp(type_names[i].name, s, len) == 0)
			return type_names[i].type;
	return ST_NONE;
}

bool simt_type_float(int t)
{
	return t == ST_F16 || t == ST_F16X2 || t == ST_BF16 ||
	       t == ST_BF16X2 || t == ST_F32 || t == ST_F64 || t == ST_TF32;
}
