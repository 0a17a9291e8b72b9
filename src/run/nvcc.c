/* nvcc.c — the pure parts of driving nvcc: hashing, the argv for each
 * backend, and reading compiler logs (path rewriting, error lines). */
#include "cudalab/run.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/util.h"

/* simt interprets PTX, so programs for it carry PTX only (no SASS, no
 * ptxas run) for a virtual architecture every PTX feature simt knows of
 * fits in. */
#define SIMT_ARCH "compute_80"

uint64_t run_fnv1a64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

void run_hash_hex(uint64_t h, char out[17])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 15; i >= 0; i--) {
		out[i] = digits[h & 0xf];
		h >>= 4;
	}
	out[16] = '\0';
}

struct argv_buf {
	char **v;
	size_t n, cap;
};

static void push(struct argv_buf *a, char *s)
{
	xgrow((void **)&a->v, &a->cap, a->n + 2, sizeof *a->v);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

/* Links the simt library by -L/-l when it has its usual name (so it
 * comes after every object), else by its path. */
static void push_simt(struct argv_buf *a, const char *lib, unsigned sanitize)
{
	const char *slash = strrchr(lib, '/');
	const char *base = slash ? slash + 1 : lib;

	if (sanitize & RUN_SAN_ADDRESS)
		push(a, xstrdup("-Xcompiler=-fsanitize=address"));
	if (sanitize & RUN_SAN_UNDEFINED)
		push(a, xstrdup("-Xcompiler=-fsanitize=undefined"));
	if (strcmp(base, "libcudalab-simt.a") == 0) {
		push(a, slash ? xasprintf("-L%.*s", (int)(slash - lib), lib) : xstrdup("-L."));
		push(a, xstrdup("-lcudalab-simt"));
	} else {
		push(a, xstrdup(lib));
	}
	push(a, xstrdup("-lpthread"));
	push(a, xstrdup("-lm"));
}

char **run_nvcc_argv(const struct run_nvcc *n)
{
	struct argv_buf a = { NULL, 0, 0 };

	push(&a, xstrdup(n->nvcc));
	if (n->optimize)
		push(&a, xstrdup("-O2"));
	if (n->backend == BACKEND_SIMT) {
		push(&a, xstrdup("--no-compress"));
		push(&a, xstrdup("-lineinfo"));
		/* host code's lines, for simt's report of host code that
		 * touches device memory */
		push(&a, xstrdup("-g"));
		push(&a, xstrdup("-cudart"));
		push(&a, xstrdup("none"));
		push(&a, xstrdup("-arch=" SIMT_ARCH));
		push(&a, xstrdup("-code=" SIMT_ARCH));
	} else {
		push(&a, xstrdup("-lineinfo"));
		push(&a, xasprintf("-arch=%s", n->gpu_arch ? n->gpu_arch : "native"));
	}
	for (size_t i = 0; i < n->n_includes; i++)
		push(&a, xasprintf("-I%s", n->includes[i]));
	for (size_t i = 0; i < n->n_defines; i++)
		push(&a, xasprintf("-D%s", n->defines[i]));
	if (n->compile_only)
		push(&a, xstrdup("-c"));
	push(&a, xstrdup("-o"));
	push(&a, xstrdup(n->output));
	for (size_t i = 0; i < n->n_sources; i++)
		push(&a, xstrdup(n->sources[i]));
	if (n->backend == BACKEND_SIMT && !n->compile_only)
		push_simt(&a, n->simt_lib ? n->simt_lib : "libcudalab-simt.a", n->simt_sanitize);
	if (n->backend != BACKEND_SIMT && !n->compile_only) {
		if (n->libs & RUN_LIB_CUBLAS) {
			push(&a, xstrdup("-lcublas"));
			push(&a, xstrdup("-lcublasLt"));
		}
		if (n->libs & RUN_LIB_NCCL)
			push(&a, xstrdup("-lnccl"));
	}
	return a.v;
}

/* The header named by an #include line at p (after any blanks), into
 * name; *quoted tells "..." from <...>.  0 when p is no #include. */
static int include_name(const char *p, char *name, size_t cap, int *quoted)
{
	const char *end;
	char close;
	size_t len;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '#')
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "include", 7) != 0)
		return 0;
	p += 7;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '<' && *p != '"')
		return 0;
	close = *p == '<' ? '>' : '"';
	*quoted = *p == '"';
	p++;
	end = p;
	while (*end && *end != close && *end != '\n')
		end++;
	if (*end != close || (len = (size_t)(end - p)) == 0 || len >= cap)
		return 0;
	memcpy(name, p, len);
	name[len] = '\0';
	return 1;
}

static unsigned header_lib(const char *name)
{
	if (strcmp(name, "cublas_v2.h") == 0 || strcmp(name, "cublas.h") == 0 ||
	    strcmp(name, "cublasLt.h") == 0)
		return RUN_LIB_CUBLAS;
	if (strcmp(name, "nccl.h") == 0)
		return RUN_LIB_NCCL;
	return 0;
}

/* Calls fn for each #include of text; returns the OR of what it returns. */
static unsigned scan_includes(const char *text,
			      unsigned (*fn)(const char *name, int quoted, void *ctx),
			      void *ctx)
{
	unsigned libs = 0;
	const char *line = text;
	char name[256];
	int quoted;

	while (line && *line) {
		if (include_name(line, name, sizeof name, &quoted))
			libs |= fn(name, quoted, ctx);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return libs;
}

static unsigned direct(const char *name, int quoted, void *ctx)
{
	(void)quoted;
	(void)ctx;
	return header_lib(name);
}

unsigned run_source_libs(const char *text)
{
	return text ? scan_includes(text, direct, NULL) : 0;
}

struct file_scan {
	const char *dir;
	const char *const *includes;
	size_t n_includes;
	int depth;
};

static unsigned file_libs(const char *path, const char *const *includes, size_t n_includes,
			  int depth);

static unsigned follow(const char *name, int quoted, void *ctx)
{
	const struct file_scan *fs = ctx;
	unsigned libs = header_lib(name);

	if (!quoted || fs->depth >= 8)
		return libs;
	for (size_t i = 0; i <= fs->n_includes; i++) {
		const char *dir = i == 0 ? fs->dir : fs->includes[i - 1];
		char *p = path_join(dir, name);
		size_t len;
		char *text = read_file(p, &len);

		free(text);
		if (text) {
			libs |= file_libs(p, fs->includes, fs->n_includes, fs->depth + 1);
			free(p);
			break;
		}
		free(p);
	}
	return libs;
}

static unsigned file_libs(const char *path, const char *const *includes, size_t n_includes,
			  int depth)
{
	struct file_scan fs = { NULL, includes, n_includes, depth };
	size_t len;
	char *text = read_file(path, &len), *dir, *slash;
	unsigned libs;

	if (!text)
		return 0;
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	fs.dir = dir;
	libs = scan_includes(text, follow, &fs);
	free(dir);
	free(text);
	return libs;
}

unsigned run_source_file_libs(const char *path, const char *const *includes,
			      size_t n_includes)
{
	return file_libs(path, includes, n_includes, 0);
}

void run_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

char *run_log_rewrite(const char *log, const char *const *from, const char *const *to, size_t n)
{
	char *cur = xstrdup(log ? log : "");

	for (size_t i = 0; i < n; i++) {
		struct strbuf sb;
		size_t flen = strlen(from[i]);
		const char *p = cur, *hit;

		if (flen == 0)
			continue;
		sb_init(&sb);
		sb_puts(&sb, "");
		while ((hit = strstr(p, from[i]))) {
			sb_append(&sb, p, (size_t)(hit - p));
			sb_puts(&sb, to[i]);
			p = hit + flen;
		}
		sb_puts(&sb, p);
		free(cur);
		cur = sb_steal(&sb);
	}
	return cur;
}

struct error_list {
	struct run_compile_error *v;
	size_t n, cap;
};

/* Adds an error, unless the same one (the linker names a missing function
 * once for each call) is there already. */
static void add_error(struct error_list *l, const char *file, size_t flen, int line,
		      const char *msg, size_t mlen)
{
	struct run_compile_error *e;

	while (mlen && isspace((unsigned char)msg[mlen - 1]))
		mlen--;
	for (size_t i = 0; i < l->n; i++) {
		e = &l->v[i];
		if (e->line == line && strlen(e->message) == mlen &&
		    memcmp(e->message, msg, mlen) == 0 && (e->file ? file && strlen(e->file) == flen &&
		    memcmp(e->file, file, flen) == 0 : !file))
			return;
	}
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
	e = &l->v[l->n++];
	e->file = file ? xstrndup(file, flen) : NULL;
	e->line = line;
	e->missing = 0;
	e->message = xstrndup(msg, mlen);
}

/* Digits ending just before end, back to no further than start: returns
 * where they begin (end when there are none). */
static const char *digits_before(const char *start, const char *end)
{
	const char *p = end;

	while (p > start && isdigit((unsigned char)p[-1]))
		p--;
	return p;
}

/* nvcc's front end: "FILE(LINE): KIND: MSG". */
static int edg_error(struct error_list *l, const char *s, size_t len)
{
	static const char *const kinds[] = { "): error: ", "): catastrophic error: ",
					     "): fatal error: " };
	const char *line_end = s + len;

	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		const char *hit = strstr(s, kinds[k]), *d;

		if (!hit || hit >= line_end)
			continue;
		d = digits_before(s, hit);
		if (d == hit || d == s || d[-1] != '(')
			continue;
		hit += strlen(kinds[k]);
		add_error(l, s, (size_t)(d - 1 - s), atoi(d), hit, (size_t)(line_end - hit));
		return 1;
	}
	return 0;
}

/* The host compiler: "FILE:LINE:COL: error: MSG" or "FILE:LINE: error: MSG". */
static int gcc_error(struct error_list *l, const char *s, size_t len)
{
	static const char *const kinds[] = { ": error: ", ": fatal error: " };
	const char *line_end = s + len;

	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		const char *hit = strstr(s, kinds[k]), *d, *line_start;

		if (!hit || hit >= line_end)
			continue;
		d = digits_before(s, hit);
		if (d == hit || d == s)
			continue;
		line_start = d;
		if (d[-1] == ':' && digits_before(s, d - 1) != d - 1) {
			line_start = digits_before(s, d - 1); /* d was the column */
			if (line_start == s || line_start[-1] != ':')
				continue;
		} else if (d[-1] != ':') {
			continue;
		}
		hit += strlen(kinds[k]);
		add_error(l, s, (size_t)(line_start - 1 - s), atoi(line_start), hit,
			  (size_t)(line_end - hit));
		return 1;
	}
	return 0;
}

/* Errors that name no source line: the linker's and nvcc's own. */
static int other_error(struct error_list *l, const char *s, size_t len)
{
	const char *hit = strstr(s, "undefined reference to ");
	const char *line_end = s + len;

	if (hit && hit < line_end) {
		add_error(l, NULL, 0, 0, hit, (size_t)(line_end - hit));
		return 1;
	}
	if (str_starts(s, "nvcc fatal") || str_starts(s, "nvcc error")) {
		hit = strchr(s, ':');
		if (hit && hit < line_end) {
			hit++;
			while (*hit == ' ')
				hit++;
			add_error(l, NULL, 0, 0, hit, (size_t)(line_end - hit));
			return 1;
		}
	}
	return 0;
}

size_t run_log_errors(const char *log, struct run_compile_error **out)
{
	struct error_list l = { NULL, 0, 0 };
	const char *s = log ? log : "";

	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char *line = xstrndup(s, len);

		if (!edg_error(&l, line, len) && !gcc_error(&l, line, len))
			other_error(&l, line, len);
		free(line);
		s += len + (nl ? 1 : 0);
	}
	*out = l.v;
	return l.n;
}

/* The name a linker message's symbol is called by: "solve" for
 * "undefined reference to `ns::solve(float const*, int)'"; NULL when the
 * message is not about a missing function. */
static char *missing_function(const char *msg)
{
	const char *p = str_starts(msg, "undefined reference to `") ? strchr(msg, '`') + 1 : NULL;
	const char *open = p ? strchr(p, '(') : NULL, *start = p;

	if (!open)
		return NULL;
	for (const char *q = p; q + 1 < open; q++)
		if (q[0] == ':' && q[1] == ':')
			start = q + 2;
	return start < open ? xstrndup(start, (size_t)(open - start)) : NULL;
}

/* The declaration of function name at the start of a line of text (a
 * harness's "void solve(const float* a, ..., int n);", over as many
 * lines as it takes, blanks squeezed), without its ';'; NULL if none. */
static char *declaration(const char *text, const char *name)
{
	size_t nlen = strlen(name);

	for (const char *ln = text; ln && *ln; ln = strchr(ln, '\n') ? strchr(ln, '\n') + 1 : NULL) {
		const char *hit = ln, *end, *eol = strchr(ln, '\n');
		struct strbuf sb;

		if (!isalpha((unsigned char)*ln))
			continue;
		while ((hit = strstr(hit, name)) && (!eol || hit < eol) &&
		       ((hit > ln && (isalnum((unsigned char)hit[-1]) || hit[-1] == '_')) ||
			hit[nlen + strspn(hit + nlen, " ")] != '('))
			hit += nlen;
		/* the name before the line's first '(', and a ';' before any '{' */
		if (!hit || (eol && hit > eol) || strchr(ln, '(') != hit + nlen + strspn(hit + nlen, " ") ||
		    !(end = strpbrk(ln, ";{")) || *end != ';')
			continue;
		sb_init(&sb);
		for (const char *c = ln; c < end; c++)
			if (!isspace((unsigned char)*c) || (sb.len && sb.s[sb.len - 1] != ' '))
				sb_putc(&sb, isspace((unsigned char)*c) ? ' ' : *c);
		return sb_steal(&sb);
	}
	return NULL;
}

void run_log_missing(struct run_compile_error *e, size_t n, const char *harness)
{
	for (size_t i = 0; harness && i < n; i++) {
		char *name = missing_function(e[i].message);
		char *decl = name ? declaration(harness, name) : NULL;

		if (decl) {
			free(e[i].message);
			e[i].message = xasprintf("your file must define `%s`: the harness calls it, and "
						 "the linker found no definition", decl);
			e[i].missing = 1;
		}
		free(decl);
		free(name);
	}
}

void run_compile_errors_free(struct run_compile_error *e, size_t n)
{
	for (size_t i = 0; e && i < n; i++) {
		free(e[i].file);
		free(e[i].message);
	}
	free(e);
}
