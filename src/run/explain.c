/* explain.c — what simt's reports mean in the learner's terms: where a
 * kernel was stopped (its fault report on stderr, read back), the element
 * a hazard is about when the report and the learner's source tell it
 * ("s[1]" for "offset 4 of the block's shared memory"), and the usual fix
 * for each kind of hazard in one line.  The source is read as text: a
 * kernel's parameters and __shared__ arrays, and the assignment on a line;
 * whatever is not plain enough to read is left unnamed, never guessed. */
#include "cudalab/run.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/util.h"

void run_kernel_name(const char *full, char *out, size_t size)
{
	const char *open = strchr(full, '('), *p = full, *start = full;

	if (open == full) { /* "(anonymous namespace)::..." */
		const char *close = strchr(full, ')');

		p = start = close && close[1] == ':' && close[2] == ':' ? close + 3 : full;
		open = strchr(p, '(');
	}
	for (const char *q = p; q < (open ? open : p + strlen(p)); q++)
		if (q[0] == ':' && q[1] == ':' && !memchr(start, '<', (size_t)(q - start)))
			start = q + 2;
	snprintf(out, size, "%.*s", (int)((open ? open : start + strlen(start)) - start), start);
}

/* ---- simt's fault report ---- */

/* "  in KERNEL at FILE:LINE (PTX line N), block (x,y,z) thread (x,y,z)",
 * the second line of a report, into f. */
static int fault_where(const char *s, size_t len, struct run_fault *f)
{
	char *ln = xstrndup(s, len), *ptx = strstr(ln, " (PTX line "), *at, *colon;
	const char *who = ptx ? strstr(ptx, "), block (") : NULL;
	char name[256];

	if (!str_starts(ln, "  in ") || !ptx || !who ||
	    sscanf(who, "), block (%d,%d,%d) thread (%d,%d,%d)", &f->block[0], &f->block[1],
		   &f->block[2], &f->thread[0], &f->thread[1], &f->thread[2]) != 6) {
		free(ln);
		return -1;
	}
	*ptx = '\0';
	at = strstr(ln, " at ");
	colon = at ? strrchr(at, ':') : NULL;
	if (colon && isdigit((unsigned char)colon[1])) {
		f->line = atoi(colon + 1);
		f->file = xstrndup(at + 4, (size_t)(colon - at - 4));
		*at = '\0';
	}
	run_kernel_name(ln + 5, name, sizeof name);
	f->kernel = xstrdup(name);
	free(ln);
	return 0;
}

int run_fault_find(const char *err, struct run_fault *f)
{
	memset(f, 0, sizeof *f);
	for (const char *p = err; p && *p;) {
		const char *nl = strchr(p, '\n'), *next = nl ? nl + 1 : NULL;
		size_t nlen = next && strchr(next, '\n') ? (size_t)(strchr(next, '\n') - next)
						      : next ? strlen(next) : 0;

		if (str_starts(p, "simt: ") && next && fault_where(next, nlen, f) == 0) {
			f->message = xstrndup(p + 6, (size_t)(nl - p - 6));
			return 0;
		}
		p = next;
	}
	run_fault_free(f);
	return -1;
}

void run_fault_free(struct run_fault *f)
{
	free(f->message);
	free(f->kernel);
	free(f->file);
	memset(f, 0, sizeof *f);
}

/* ---- reading the learner's source ---- */

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Bytes of an element of a C type as written ("const float", "unsigned
 * int"), 0 when it is none of the usual ones. */
static int type_size(const char *type, size_t len)
{
	static const struct {
		const char *name;
		int size;
	} types[] = {
		{ "float", 4 }, { "int", 4 }, { "unsigned", 4 }, { "unsigned int", 4 },
		{ "uint32_t", 4 }, { "int32_t", 4 }, { "double", 8 }, { "long long", 8 },
		{ "unsigned long long", 8 }, { "int64_t", 8 }, { "uint64_t", 8 },
		{ "size_t", 8 }, { "half", 2 }, { "__half", 2 }, { "__nv_bfloat16", 2 },
		{ "short", 2 }, { "char", 1 }, { "unsigned char", 1 }, { "uint8_t", 1 },
		{ "int8_t", 1 }, { "float2", 8 }, { "float4", 16 }, { "int2", 8 }, { "int4", 16 },
	};
	char buf[64];
	size_t n = 0;

	/* the words, qualifiers left out, one space between */
	for (size_t i = 0; i < len;) {
		size_t w = 0;

		while (i < len && !ident_char(type[i]))
			i++;
		while (i + w < len && ident_char(type[i + w]))
			w++;
		if (w && !(w == 5 && memcmp(type + i, "const", 5) == 0) &&
		    !(w == 8 && memcmp(type + i, "volatile", 8) == 0) &&
		    !(w == 11 && memcmp(type + i, "__restrict__", 11) == 0) && n + w + 2 < sizeof buf) {
			if (n)
				buf[n++] = ' ';
			memcpy(buf + n, type + i, w);
			n += w;
		}
		i += w;
	}
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(buf, types[i].name) == 0)
			return types[i].size;
	return 0;
}

/* The kernel called name (template arguments left out) in src: where its
 * parameter list opens and its body's braces are.  0 when found. */
static int find_kernel(const char *src, const char *name, const char **params,
		       const char **body, const char **end)
{
	size_t nlen = strcspn(name, "<");

	for (const char *g = strstr(src, "__global__"); g; g = strstr(g + 1, "__global__")) {
		const char *brace = strchr(g, '{'), *semi = strchr(g, ';');
		const char *p = g;
		int depth = 0;

		if (!brace || (semi && semi < brace))
			continue;
		while ((p = strstr(p, name)) && p < brace &&
		       (ident_char(p[-1]) || ident_char(p[nlen]) || p[nlen + strspn(p + nlen, " ")] != '('))
			p += nlen;
		if (!p || p >= brace)
			continue;
		*params = strchr(p, '(');
		*body = brace;
		for (const char *q = brace; *q; q++) {
			depth += *q == '{' ? 1 : *q == '}' ? -1 : 0;
			if (depth == 0) {
				*end = q;
				return 0;
			}
		}
	}
	return -1;
}

/* The element size of pointer parameter pname in the parameter list that
 * opens at params; 0 when it is no such parameter. */
static int param_pointee(const char *params, const char *pname, size_t plen)
{
	const char *close = strchr(params, ')'), *p = params + 1;

	while (p && close && p < close) {
		const char *comma = memchr(p, ',', (size_t)(close - p)), *e = comma ? comma : close;
		const char *star = memchr(p, '*', (size_t)(e - p)), *n = e;

		while (n > p && !ident_char(n[-1]))
			n--;
		while (n > p && ident_char(n[-1]))
			n--;
		if (star && (size_t)(e - n) >= plen && memcmp(n, pname, plen) == 0 &&
		    !ident_char(n[plen]))
			return type_size(p, (size_t)(star - p));
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* Line `line` (from 1) of text and its length; NULL if absent. */
static const char *line_of(const char *text, int line, size_t *len)
{
	const char *p = text;

	for (int i = 1; p && i < line; i++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p || line < 1)
		return NULL;
	*len = strcspn(p, "\n");
	return p;
}

/* "s[1]" or "tile[2][5]" for byte off of a kernel's one __shared__ array
 * (its only one: the order several are laid out in is the compiler's). */
static char *shared_element(const char *src, const char *kernel, unsigned long long off)
{
	const char *params, *body, *end, *decl = NULL, *at;
	char type[64], name[64];
	unsigned long long dims[2] = { 0, 0 }, i;
	int size, nd = 0, n = 0, used = 0;

	if (find_kernel(src, kernel, &params, &body, &end) != 0)
		return NULL;
	for (at = strstr(body, "__shared__"); at && at < end; at = strstr(at + 1, "__shared__"))
		if (n++ == 0)
			decl = at + strlen("__shared__");
	/* "float s[256]", "unsigned int bins[2][128]", "float s[]" */
	if (n != 1 || sscanf(decl, " %63[A-Za-z0-9_ ]%n", type, &used) != 1 || decl[used] != '[')
		return NULL;
	{
		char *sp = strrchr(type, ' ');

		while (sp && sp[1] == '\0') {
			*sp = '\0';
			sp = strrchr(type, ' ');
		}
		if (!sp)
			return NULL;
		snprintf(name, sizeof name, "%s", sp + 1);
		*sp = '\0';
	}
	size = type_size(type, strlen(type));
	for (at = strchr(decl, '['); at && at < end && *at == '[' && nd < 2; nd++) {
		dims[nd] = strtoull(at + 1, NULL, 10);
		at = strchr(at, ']');
		at = at ? at + 1 : NULL;
	}
	if (size == 0 || off % (unsigned)size != 0)
		return NULL;
	i = off / (unsigned)size;
	if (nd == 2 && dims[1] > 0)
		return xasprintf("%s[%llu][%llu]", name, i / dims[1], i % dims[1]);
	return xasprintf("%s[%llu]", name, i);
}

/* The identifier of a pointer parameter of the kernel that the code line
 * reads, when it reads just one ("in" in "sum += in[i];"); its element
 * size in *size. */
static char *line_pointer(const char *src, const char *kernel, const char *code, size_t len,
			  int *size)
{
	const char *params, *body, *end;
	char *found = NULL;

	if (find_kernel(src, kernel, &params, &body, &end) != 0)
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t w = 0;
		int s;

		while (i + w < len && ident_char(code[i + w]))
			w++;
		if (w && (i == 0 || !ident_char(code[i - 1])) &&
		    (s = param_pointee(params, code + i, w)) > 0) {
			if (found && (strlen(found) != w || memcmp(found, code + i, w) != 0)) {
				free(found);
				return NULL; /* two pointers: which one is not said */
			}
			if (!found)
				found = xstrndup(code + i, w);
			*size = s;
		}
		i += w ? w : 1;
	}
	return found;
}

/* The target and value of a line's "TARGET += VALUE;" (or -=), blanks
 * trimmed: "*out" and "acc" in "    *out += acc;".  0 when it is one. */
static int compound_add(const char *code, size_t len, char **target, char **value, char *op)
{
	const char *eq = NULL, *semi;

	for (size_t i = 1; i + 1 < len && !eq; i++)
		if ((code[i] == '+' || code[i] == '-') && code[i + 1] == '=' && code[i - 1] != code[i])
			eq = code + i;
	semi = eq ? memchr(eq, ';', len - (size_t)(eq - code)) : NULL;
	if (!semi)
		return -1;
	*op = *eq;
	{
		const char *a = code, *b = eq, *c = eq + 2, *d = semi;

		while (a < b && isspace((unsigned char)*a))
			a++;
		while (b > a && isspace((unsigned char)b[-1]))
			b--;
		while (c < d && isspace((unsigned char)*c))
			c++;
		while (d > c && isspace((unsigned char)d[-1]))
			d--;
		if (a == b || c == d || memchr(a, '=', (size_t)(b - a)) || memchr(a, ';', (size_t)(b - a)))
			return -1;
		*target = xstrndup(a, (size_t)(b - a));
		*value = xstrndup(c, (size_t)(d - c));
	}
	return 0;
}

/* "out[0]" for "*out", "out[3]" for "out[3]": the element an assignment
 * writes, when its place is fixed; NULL otherwise. */
static char *fixed_element(const char *target)
{
	const char *p = target + (*target == '*'), *q = p;

	while (ident_char(*q))
		q++;
	if (q == p)
		return NULL;
	if (*target == '*' && !*q)
		return xasprintf("%.*s[0]", (int)(q - p), p);
	if (*target != '*' && *q == '[' && isdigit((unsigned char)q[1]) &&
	    q[1 + strspn(q + 1, "0123456789")] == ']' && !q[2 + strspn(q + 1, "0123456789")])
		return xstrdup(target);
	return NULL;
}

/* ---- the element and the fix ---- */

/* The number the message puts just before suffix: 4 for "offset 4 of the
 * block's shared memory", 8 for "8 bytes into a 64-byte allocation". */
static int number_before(const char *msg, const char *suffix, unsigned long long *n)
{
	const char *hit = msg ? strstr(msg, suffix) : NULL, *d = hit;

	while (d && d > msg && isdigit((unsigned char)d[-1]))
		d--;
	if (!hit || d == hit)
		return 0;
	*n = strtoull(d, NULL, 10);
	return 1;
}

static char *place_of(const char *kind, const char *space, const char *kernel,
		      const char *msg, const struct run_access *a, int n, const char *src)
{
	unsigned long long off;
	size_t len;
	const char *code;
	int size = 0;

	if (!src || !kernel || !space)
		return NULL;
	if (strcmp(space, "shared") == 0 &&
	    number_before(msg, " of the block's shared memory", &off))
		return shared_element(src, kernel, off);
	if (strcmp(space, "global") != 0 || n < 1 || !(code = line_of(src, a[0].line, &len)))
		return NULL;
	if (strcmp(kind, "uninitialized") == 0 && number_before(msg, " bytes into a ", &off)) {
		char *p = line_pointer(src, kernel, code, len, &size), *e = NULL;

		if (p && off % (unsigned)size == 0)
			e = xasprintf("%s[%llu]", p, off / (unsigned)size);
		free(p);
		return e;
	}
	for (int i = 0; i < n; i++) {
		char *target, *value, op, *e;

		if (!a[i].access || strcmp(a[i].access, "write") != 0 ||
		    !(code = line_of(src, a[i].line, &len)) ||
		    compound_add(code, len, &target, &value, &op) != 0)
			continue;
		e = fixed_element(target);
		free(target);
		free(value);
		return e;
	}
	return NULL;
}

/* The fix of a race between blocks on "TARGET += VALUE": an atomicAdd. */
static char *atomic_fix(const char *src, const struct run_access *a, int n)
{
	for (int i = 0; i < n; i++) {
		char *target, *value, op, *fix;
		const char *code;
		size_t len;

		if (!(code = line_of(src, a[i].line, &len)) ||
		    compound_add(code, len, &target, &value, &op) != 0)
			continue;
		fix = xasprintf("fix: atomicAdd(%s%s, %s%s) at line %d; blocks cannot wait for one "
				"another, so an atomic adds their parts", target[0] == '*' ? "" : "&",
				target[0] == '*' ? target + 1 : target, op == '-' ? "-" : "", value,
				a[i].line);
		free(target);
		free(value);
		return fix;
	}
	return NULL;
}

static int same_block(const struct run_access *a, int n)
{
	return n == 2 && memcmp(a[0].block, a[1].block, sizeof a[0].block) == 0;
}

/* "a __syncthreads() between the write at line 12 and the read at line
 * 15": the sites in the order they come in the code. */
static char *barrier_fix(const struct run_access *a, int n)
{
	const struct run_access *x = &a[0], *y = &a[n > 1 ? 1 : 0];

	if (n < 2 || !x->line || !y->line)
		return xstrdup("fix: a __syncthreads() between the two accesses, reached by every "
			       "thread of the block");
	if (y->line < x->line) {
		const struct run_access *t = x;

		x = y;
		y = t;
	}
	if (x->line == y->line)
		return xasprintf("fix: a __syncthreads() between one turn's %s at line %d and the "
				 "next turn's %s, reached by every thread of the block",
				 x->access ? x->access : "access", x->line,
				 y->access ? y->access : "access");
	return xasprintf("fix: a __syncthreads() between the %s at line %d and the %s at line "
			 "%d, reached by every thread of the block", x->access ? x->access : "access",
			 x->line, y->access ? y->access : "access", y->line);
}

static char *race_fix(const char *space, const struct run_access *a, int n, const char *src)
{
	char *fix;

	for (int i = 0; i < n; i++)
		if (a[i].host)
			return xstrdup("fix: wait for the device (cudaStreamSynchronize or "
				       "cudaDeviceSynchronize) before the host reads or writes that "
				       "memory, or copy it with cudaMemcpy");
	if (n == 2 && (a[0].stream >= 0 || a[1].stream >= 0) && a[0].stream != a[1].stream)
		return xstrdup("fix: order the two streams: cudaEventRecord after the first, "
			       "cudaStreamWaitEvent before the second (or synchronize in between)");
	if (strcmp(space, "shared") == 0 || same_block(a, n))
		return barrier_fix(a, n);
	if (src && (fix = atomic_fix(src, a, n)))
		return fix;
	return xstrdup("fix: blocks cannot wait for one another inside a kernel: an atomic "
		       "(atomicAdd, atomicMax, ...) for a shared total, or a second kernel launch "
		       "for what needs all blocks done");
}

static char *uninit_fix(const char *space)
{
	if (strcmp(space, "register") == 0)
		return xstrdup("fix: give the variable a value before its first use (float sum = "
			       "0.0f;)");
	if (strcmp(space, "shared") == 0)
		return xstrdup("fix: write every element the block reads, then __syncthreads(), "
			       "then read; shared memory starts with whatever was there before");
	if (strcmp(space, "local") == 0)
		return xstrdup("fix: give every element of the array a value before reading it");
	return xstrdup("fix: read only what was written first: the harness fills the inputs, "
		       "and an output holds nothing until a kernel (or cudaMemset) writes it");
}

void run_hazard_words(const char *kind, const char *space, const char *kernel,
		      const char *message, const struct run_access *a, int n, const char *source,
		      struct run_hazard_words *w)
{
	char name[256];

	memset(w, 0, sizeof *w);
	if (kernel)
		run_kernel_name(kernel, name, sizeof name);
	if (!kind)
		return;
	w->place = place_of(kind, space, kernel ? name : NULL, message, a, n, source);
	if (strcmp(kind, "race") == 0)
		w->fix = race_fix(space ? space : "", a, n, source);
	else if (strcmp(kind, "barrier") == 0)
		w->fix = xstrdup("fix: every thread of the block must reach the same "
				 "__syncthreads(): move it out of the if (or make the condition "
				 "the same for the whole block)");
	else if (strcmp(kind, "uninitialized") == 0)
		w->fix = uninit_fix(space ? space : "");
}

void run_hazard_words_free(struct run_hazard_words *w)
{
	free(w->place);
	free(w->fix);
	w->place = w->fix = NULL;
}
