/* A small Itanium C++ ABI demangler for kernel names in messages:
 * functions with namespaces, templates, and parameter types built from
 * builtins, classes, pointers, references, qualifiers, arrays and
 * substitutions.  Anything else returns the mangled name unchanged. */
#include "base/base.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXSUBS 128

struct dm {
	const char *p;
	char *subs[MAXSUBS];
	int nsubs;
	char *targs[32];
	int ntargs;
	bool fail;
	char *junk[512];
	int njunk;
};

/* Strings are collected in d->junk and freed together at the end. */
static char *keep(struct dm *d, char *s)
{
	if (d->njunk < 512)
		d->junk[d->njunk++] = s;
	else
		d->fail = true;
	return s;
}

static char *cat(struct dm *d, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *s = simt_xmalloc(la + lb + lc + 1);

	memcpy(s, a, la);
	memcpy(s + la, b, lb);
	memcpy(s + la + lb, c, lc + 1);
	return keep(d, s);
}

static void add_sub(struct dm *d, char *s)
{
	if (d->nsubs < MAXSUBS)
		d->subs[d->nsubs++] = s;
}

static const char *builtin(char c)
{
	switch (c) {
	case 'v': return "void";
	case 'w': return "wchar_t";
	case 'b': return "bool";
	case 'c': return "char";
	case 'a': return "signed char";
	case 'h': return "unsigned char";
	case 's': return "short";
	case 't': return "unsigned short";
	case 'i': return "int";
	case 'j': return "unsigned int";
	case 'l': return "long";
	case 'm': return "unsigned long";
	case 'x': return "long long";
	case 'y': return "unsigned long long";
	case 'n': return "__int128";
	case 'o': return "unsigned __int128";
	case 'f': return "float";
	case 'd': return "double";
	case 'e': return "long double";
	case 'g': return "__float128";
	case 'z': return "...";
	default: return NULL;
	}
}

static char *parse_type(struct dm *d);

static long number(struct dm *d)
{
	long n = 0;

	if (!isdigit((unsigned char)*d->p)) {
		d->fail = true;
		return 0;
	}
	while (isdigit((unsigned char)*d->p))
		n = n * 10 + (*d->p++ - '0');
	return n;
}

static char *source_name(struct dm *d)
{
	long n = number(d);

	if (d->fail || n <= 0 || (long)strlen(d->p) < n) {
		d->fail = true;
		return keep(d, simt_xstrdup(""));
	}
	d->p += n;
	if (n >= 11 && strncmp(d->p - n, "_GLOBAL__N_", 11) == 0)
		return keep(d, simt_xstrdup("(anonymous namespace)"));
	return keep(d, simt_xstrndup(d->p - n, (size_t)n));
}

/* S_, S<n>_, St, Sa, Sb, Ss. */
static char *substitution(struct dm *d)
{
	long idx = 0;

	d->p++;
	switch (*d->p) {
	case 't':
		d->p++;
		return keep(d, simt_xstrdup("std"));
	case 'a':
		d->p++;
		return keep(d, simt_xstrdup("std::allocator"));
	case 'b':
		d->p++;
		return keep(d, simt_xstrdup("std::basic_string"));
	case 's':
		d->p++;
		return keep(d, simt_xstrdup("std::string"));
	case '_':
		d->p++;
		idx = 0;
		break;
	default:
		while (isdigit((unsigned char)*d->p) || isupper((unsigned char)*d->p)) {
			idx = idx * 36 + (isdigit((unsigned char)*d->p)
					   ? *d->p - '0' : *d->p - 'A' + 10);
			d->p++;
		}
		if (*d->p != '_') {
			d->fail = true;
			return keep(d, simt_xstrdup(""));
		}
		d->p++;
		idx++;
	}
	if (idx >= d->nsubs) {
		d->fail = true;
		return keep(d, simt_xstrdup(""));
	}
	return d->subs[idx];
}

static char *template_param(struct dm *d)
{
	long idx = 0;

	d->p++;
	if (*d->p != '_') {
		idx = number(d) + 1;
	}
	if (*d->p != '_' || idx >= d->ntargs) {
		d->fail = true;
		return keep(d, simt_xstrdup("T"));
	}
	d->p++;
	return d->targs[idx];
}

static char *literal(struct dm *d)
{
	const char *t;
	const char *start;
	char *num;

	d->p++;
	t = builtin(*d->p);
	if (!t) {
		d->fail = true;
		return keep(d, simt_xstrdup(""));
	}
	d->p++;
	start = d->p;
	while (*d->p && *d->p != 'E')
		d->p++;
	num = keep(d, simt_xstrndup(start, (size_t)(d->p - start)));
	if (*d->p == 'E')
		d->p++;
	if (num[0] == 'n')
		num[0] = '-';
	if (strcmp(t, "bool") == 0)
		return keep(d, simt_xstrdup(strcmp(num, "0") ? "true" : "false"));
	if (strcmp(t, "unsigned int") == 0)
		return cat(d, num, "u", "");
	return num;
}

static char *template_args(struct dm *d, bool top)
{
	char *out = keep(d, simt_xstrdup(""));
	int n = 0;

	d->p++;
	if (top)
		d->ntargs = 0;
	while (*d->p && *d->p != 'E' && !d->fail) {
		char *a;

		if (*d->p == 'L')
			a = literal(d);
		else if (*d->p == 'J') {
			d->p++;
			a = keep(d, simt_xstrdup(""));
			while (*d->p && *d->p != 'E' && !d->fail)
				a = cat(d, a, *a ? ", " : "", parse_type(d));
			if (*d->p == 'E')
				d->p++;
		} else {
			a = parse_type(d);
		}
		if (top && d->ntargs < 32)
			d->targs[d->ntargs++] = a;
		out = cat(d, out, n++ ? ", " : "", a);
	}
	if (*d->p != 'E')
		d->fail = true;
	else
		d->p++;
	return cat(d, "<", out, out[0] && out[strlen(out) - 1] == '>' ? " >" : ">");
}

static const struct {
	const char *code, *name;
} operators[] = {
	{"pl", "operator+"}, {"mi", "operator-"}, {"ml", "operator*"},
	{"dv", "operator/"}, {"eq", "operator=="}, {"ne", "operator!="},
	{"lt", "operator<"}, {"gt", "operator>"}, {"ix", "operator[]"},
	{"cl", "operator()"}, {"aS", "operator="}, {"pL", "operator+="},
};

static char *unqualified(struct dm *d, const char *last)
{
	size_t i;

	if (isdigit((unsigned char)*d->p))
		return source_name(d);
	if (*d->p == 'C' && d->p[1] >= '1' && d->p[1] <= '3') {
		d->p += 2;
		return keep(d, simt_xstrdup(last ? last : "ctor"));
	}
	if (*d->p == 'D' && d->p[1] >= '0' && d->p[1] <= '2') {
		d->p += 2;
		return cat(d, "~", last ? last : "dtor", "");
	}
	for (i = 0; i < sizeof operators / sizeof operators[0]; i++) {
		if (strncmp(d->p, operators[i].code, 2) == 0) {
			d->p += 2;
			return keep(d, simt_xstrdup(operators[i].name));
		}
	}
	d->fail = true;
	return keep(d, simt_xstrdup(""));
}

/* N [qualifiers] prefix... E; adds each proper prefix as a substitution. */
static char *nested(struct dm *d, bool top, bool *templ)
{
	char *prefix = NULL, *last = NULL;

	d->p++;
	while (*d->p == 'r' || *d->p == 'V' || *d->p == 'K')
		d->p++;
	*templ = false;
	while (*d->p && *d->p != 'E' && !d->fail) {
		if (*d->p == 'S') {
			prefix = substitution(d);
			continue;
		}
		if (*d->p == 'I') {
			if (!prefix) {
				d->fail = true;
				break;
			}
			prefix = cat(d, prefix, template_args(d, top), "");
			*templ = true;
		} else if (*d->p == 'T') {
			prefix = template_param(d);
			*templ = false;
		} else {
			last = unqualified(d, last);
			prefix = prefix ? cat(d, prefix, "::", last) : last;
			*templ = false;
		}
		if (*d->p != 'E')
			add_sub(d, prefix);
	}
	if (*d->p == 'E')
		d->p++;
	else
		d->fail = true;
	return prefix ? prefix : keep(d, simt_xstrdup(""));
}

static char *encoding(struct dm *d);
static char *parse_name(struct dm *d, bool top, bool *templ);

/* A local name, after its 'Z': the function's encoding, 'E', the entity
 * and an optional discriminator ("f(int)::tile"). */
static char *local_name(struct dm *d, bool *templ)
{
	char *f = encoding(d);

	if (*d->p != 'E') {
		d->fail = true;
		return f;
	}
	d->p++;
	f = cat(d, f, "::", parse_name(d, false, templ));
	if (*d->p == '_') {
		d->p += d->p[1] == '_' ? 2 : 1;
		while (isdigit((unsigned char)*d->p))
			d->p++;
		if (*d->p == '_')
			d->p++;
	}
	return f;
}

static char *parse_name(struct dm *d, bool top, bool *templ)
{
	char *n;

	*templ = false;
	if (*d->p == 'Z') {
		d->p++;
		return local_name(d, templ);
	}
	if (*d->p == 'N')
		return nested(d, top, templ);
	if (*d->p == 'S' && d->p[1] == 't') {
		d->p += 2;
		n = cat(d, "std::", unqualified(d, NULL), "");
	} else if (*d->p == 'S') {
		n = substitution(d);
	} else {
		n = unqualified(d, NULL);
	}
	if (*d->p == 'I') {
		add_sub(d, n);
		n = cat(d, n, template_args(d, top), "");
		*templ = true;
	}
	return n;
}

static char *qualified(struct dm *d, const char *q)
{
	char *t;

	d->p++;
	t = cat(d, parse_type(d), q, "");
	add_sub(d, t);
	return t;
}

static char *function_type(struct dm *d)
{
	char *ret, *args = keep(d, simt_xstrdup(""));
	int n = 0;

	d->p++;
	if (*d->p == 'Y')
		d->p++;
	ret = parse_type(d);
	while (*d->p && *d->p != 'E' && !d->fail) {
		char *a = parse_type(d);

		if (!(n == 0 && strcmp(a, "void") == 0 && *d->p == 'E'))
			args = cat(d, args, n ? ", " : "", a);
		n++;
	}
	if (*d->p == 'E')
		d->p++;
	return cat(d, ret, " (", cat(d, args, ")", ""));
}

static char *parse_type(struct dm *d)
{
	const char *b = builtin(*d->p);
	char *t;
	bool templ;

	if (d->fail)
		return keep(d, simt_xstrdup(""));
	if (b) {
		d->p++;
		return keep(d, simt_xstrdup(b));
	}
	switch (*d->p) {
	case 'P': return qualified(d, "*");
	case 'R': return qualified(d, "&");
	case 'O': return qualified(d, "&&");
	case 'K': return qualified(d, " const");
	case 'V': return qualified(d, " volatile");
	case 'r': return qualified(d, " __restrict__");
	case 'D':
		if (d->p[1] == 'n') {
			d->p += 2;
			return keep(d, simt_xstrdup("decltype(nullptr)"));
		}
		if (d->p[1] == 'h') {
			d->p += 2;
			return keep(d, simt_xstrdup("half"));
		}
		if (d->p[1] == 'p') {
			d->p += 2;
			return parse_type(d);
		}
		if (strncmp(d->p, "DF16_", 5) == 0) {
			d->p += 5;
			return keep(d, simt_xstrdup("_Float16"));
		}
		d->fail = true;
		return keep(d, simt_xstrdup(""));
	case 'S':
		if (d->p[1] == 't') {
			t = parse_name(d, false, &templ);
			add_sub(d, t);
			return t;
		}
		t = substitution(d);
		if (*d->p == 'I') {
			t = cat(d, t, template_args(d, false), "");
			add_sub(d, t);
		}
		return t;
	case 'T':
		t = template_param(d);
		add_sub(d, t);
		if (*d->p == 'I') {
			t = cat(d, t, template_args(d, false), "");
			add_sub(d, t);
		}
		return t;
	case 'A': {
		long n;

		d->p++;
		n = number(d);
		if (*d->p != '_') {
			d->fail = true;
			return keep(d, simt_xstrdup(""));
		}
		d->p++;
		t = parse_type(d);
		{
			char buf[32];

			snprintf(buf, sizeof buf, " [%ld]", n);
			t = cat(d, t, buf, "");
		}
		add_sub(d, t);
		return t;
	}
	case 'F':
		t = function_type(d);
		add_sub(d, t);
		return t;
	case 'u':
		d->p++;
		return source_name(d);
	default:
		if (*d->p == 'N' || isdigit((unsigned char)*d->p)) {
			t = parse_name(d, false, &templ);
			add_sub(d, t);
			return t;
		}
		d->fail = true;
		return keep(d, simt_xstrdup(""));
	}
}

static char *encoding(struct dm *d)
{
	char *name, *args = keep(d, simt_xstrdup(""));
	bool templ;
	int n = 0;

	name = parse_name(d, true, &templ);
	if (!*d->p)
		return name;    /* a variable's name: no parameters follow */
	if (templ)
		parse_type(d);
	/* a local name's function ends at its 'E' */
	while (*d->p && *d->p != 'E' && !d->fail) {
		char *a = parse_type(d);

		if (n == 0 && strcmp(a, "void") == 0 && !*d->p)
			break;
		args = cat(d, args, n ? ", " : "", a);
		n++;
	}
	return cat(d, name, "(", cat(d, args, ")", ""));
}

/* Writes the demangled form of `mangled` into buf (or the name itself when
 * it is not a mangled function name) and returns buf. */
const char *simt_demangle(const char *mangled, char *buf, size_t n)
{
	struct dm d;
	char *r;
	int i;

	if (strncmp(mangled, "_Z", 2) != 0) {
		snprintf(buf, n, "%s", mangled);
		return buf;
	}
	memset(&d, 0, sizeof d);
	d.p = mangled + 2;
	r = encoding(&d);
	if (d.fail || *d.p)
		snprintf(buf, n, "%s", mangled);
	else
		snprintf(buf, n, "%s", r);
	for (i = 0; i < d.njunk; i++)
		free(d.junk[i]);
	return buf;
}
