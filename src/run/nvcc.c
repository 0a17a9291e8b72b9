/* nvcc.c — the pure parts of driving nvcc: hashing, the argv for each
 * backend, and reading compiler logs (path rewriting, error lines). */
#include "cudalab/run.h"

#include <ctype.h>
#include <stdio.h>
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
	/* a harness object exports nothing a program could interpose on */
	if (n->hidden)
		push(&a, xstrdup("-Xcompiler=-fvisibility=hidden"));
	if (n->deps) {
		push(&a, xstrdup("-MD"));
		push(&a, xstrdup("-MF"));
		push(&a, xstrdup(n->deps));
	}
	if (n->keep_asm)
		push(&a, xstrdup("-Xcompiler=-save-temps=obj"));
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

/* Errors that name no source line: the linker's, nvcc's own, and the
 * build's ("cudalab: MSG", a file cudalab refuses). */
static int other_error(struct error_list *l, const char *s, size_t len)
{
	const char *hit = strstr(s, "undefined reference to ");
	const char *line_end = s + len;

	if (str_starts(s, "cudalab: ")) {
		add_error(l, NULL, 0, 0, s + 9, len - 9);
		return 1;
	}
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
	return run_log_errors_named(log, NULL, 0, out);
}

/* text with each from[i] replaced by to[i], in place. */
static void swap_names(char **text, const char *const *from, const char *const *to, size_t n)
{
	char *t;

	if (!*text || !n)
		return;
	t = run_log_rewrite(*text, from, to, n);
	free(*text);
	*text = t;
}

size_t run_log_errors_named(const char *log, const char *const *names, size_t n_names,
			    struct run_compile_error **out)
{
	struct error_list l = { NULL, 0, 0 };
	const char **from = xcalloc(n_names + 1, sizeof *from), **to = xcalloc(n_names + 1, sizeof *to);
	char *text, *s;
	size_t k = 0;

	/* A name with a line break in it would split its messages: it stands
	 * for itself as a token without one while the lines are read. */
	for (size_t i = 0; i < n_names; i++) {
		if (!names[i] || !strchr(names[i], '\n'))
			continue;
		from[k] = names[i];
		to[k] = xasprintf("\x01%zu\x01", k);
		k++;
	}
	text = run_log_rewrite(log, from, to, k);
	for (s = text; *s;) {
		char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char *line = xstrndup(s, len);

		if (!edg_error(&l, line, len) && !gcc_error(&l, line, len))
			other_error(&l, line, len);
		free(line);
		s += len + (nl ? 1 : 0);
	}
	for (size_t i = 0; i < l.n; i++) {
		swap_names(&l.v[i].file, to, from, k);
		swap_names(&l.v[i].message, to, from, k);
	}
	for (size_t i = 0; i < k; i++)
		free((char *)to[i]);
	free(to);
	free(from);
	free(text);
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

/* --- what a learner's object defines -------------------------------------- */

/* Skips an Itanium source name ("12compare_host") at *p into name; 0 when
 * there is none. */
static int source_name(const char **p, char *name, size_t size)
{
	unsigned long n = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)*s))
		n = n * 10 + (unsigned long)(*s++ - '0');
	if (n == 0 || strlen(s) < n)
		return 0;
	snprintf(name, size, "%.*s", (int)(n < size ? n : size - 1), s);
	*p = s + n;
	return 1;
}

int run_mangled_in_lab(const char *sym, char *name, size_t size)
{
	const char *p = sym;

	if (!str_starts(p, "_Z"))
		return 0;
	p += 2;
	/* vtables, type information, guard variables, local entities */
	if (p[0] == 'T' && strchr("VIST", p[1]) && p[1])
		p += 2;
	else if (str_starts(p, "GV"))
		p += 2;
	if (*p == 'Z')
		p++;
	if (*p++ != 'N')
		return 0;
	while (*p && strchr("rVKRO", *p))
		p++;
	if (!str_starts(p, "3lab"))
		return 0;
	p += 4;
	if (*p == 'L')
		p++;
	if (!source_name(&p, name, size))
		snprintf(name, size, "%s", "(an operator or a constructor)");
	return strcmp(name, "_GLOBAL__N_1") != 0;
}

/* An ELF64 relocatable object's header and sections, as read from data;
 * 0 when it is not one (of this machine's byte order). */
struct elf64 {
	const unsigned char *data;
	size_t len;
	uint64_t shoff;
	uint16_t shentsize, shnum;
};

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

static uint16_t rd16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

static int elf_open(struct elf64 *e, const void *data, size_t len)
{
	const unsigned char *d = data;
	uint16_t probe = 1;
	int little = *(const unsigned char *)&probe == 1;

	if (len < 64 || memcmp(d, "\177ELF", 4) != 0 || d[4] != 2 || d[5] != (little ? 1 : 2))
		return 0;
	e->data = d;
	e->len = len;
	e->shoff = rd64(d + 0x28);
	e->shentsize = rd16(d + 0x3a);
	e->shnum = rd16(d + 0x3c);
	return e->shentsize >= 64 && e->shoff < len &&
	       (uint64_t)e->shnum * e->shentsize <= len - e->shoff;
}

/* Section i's type, offset, size and link, checked against the data. */
static int elf_section(const struct elf64 *e, unsigned i, uint32_t *type, uint64_t *off,
		       uint64_t *size, uint32_t *link)
{
	const unsigned char *s = e->data + e->shoff + (uint64_t)i * e->shentsize;

	*type = rd32(s + 4);
	*off = rd64(s + 0x18);
	*size = rd64(s + 0x20);
	*link = rd32(s + 0x28);
	return *off <= e->len && *size <= e->len - *off;
}

char **run_object_lab_defs(const void *data, size_t len)
{
	struct elf64 e;
	struct argv_buf out = { NULL, 0, 0 };

	if (!elf_open(&e, data, len))
		return NULL;
	out.cap = 2;
	out.v = xcalloc(out.cap, sizeof *out.v);
	for (unsigned i = 0; i < e.shnum; i++) {
		uint32_t type, link, stype, slink;
		uint64_t off, size, soff, ssize;

		/* SHT_SYMTAB, and its string table */
		if (!elf_section(&e, i, &type, &off, &size, &link) || type != 2 || link >= e.shnum ||
		    !elf_section(&e, link, &stype, &soff, &ssize, &slink) || ssize == 0)
			continue;
		for (uint64_t k = 24; k + 24 <= size; k += 24) {
			const unsigned char *sym = e.data + off + k;
			uint32_t name = rd32(sym);
			unsigned bind = sym[4] >> 4;
			uint16_t shndx = rd16(sym + 6);
			const char *s = (const char *)e.data + soff + name;
			char part[128];

			/* global, weak or unique, and defined here */
			if ((bind != 1 && bind != 2 && bind != 10) || shndx == 0 || name >= ssize ||
			    !memchr(s, '\0', (size_t)(ssize - name)))
				continue;
			if (run_mangled_in_lab(s, part, sizeof part))
				push(&out, xasprintf("lab::%s", part));
		}
	}
	return out.v;
}

/* The next name of a rule at *p (escapes undone), advanced past it; NULL
 * at the end of the rule. */
static char *dep_word(const char **p)
{
	const char *s = *p;
	struct strbuf sb;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (s[0] == '\\' && s[1] == '\n')
			s += 2; /* a continued line */
		else if (s[0] == '\\' && s[1] == '\r' && s[2] == '\n')
			s += 3;
		else
			break;
	}
	if (!*s || *s == '\n') {
		*p = s;
		return NULL;
	}
	sb_init(&sb);
	sb_puts(&sb, "");
	while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
		if (s[0] == '\\' && (s[1] == ' ' || s[1] == '\t' || s[1] == '#' || s[1] == '\\')) {
			sb_putc(&sb, s[1]);
			s += 2;
		} else if (s[0] == '\\' && (s[1] == '\n' || (s[1] == '\r' && s[2] == '\n'))) {
			break;
		} else if (s[0] == '$' && s[1] == '$') {
			sb_putc(&sb, '$');
			s += 2;
		} else {
			sb_putc(&sb, *s++);
		}
	}
	*p = s;
	return sb_steal(&sb);
}

char **run_deps_parse(const char *text)
{
	const char *p = text ? text : "";
	char **v = NULL, *w;
	size_t n = 0, cap = 0;
	int target = 1;

	while (target && (w = dep_word(&p))) {
		/* the target ends at its ':' ("x.o:" or "x.o :") */
		target = w[strlen(w) - 1] != ':';
		free(w);
	}
	if (target)
		return NULL;
	while ((w = dep_word(&p))) {
		xgrow((void **)&v, &cap, n + 2, sizeof *v);
		v[n++] = w;
	}
	xgrow((void **)&v, &cap, n + 1, sizeof *v);
	v[n] = NULL;
	return v;
}
