/* ops.c — the record of which instructions ran (ops.h). */
#include "perf/ops.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

bool simt_ops_on;
static char *out_path;
static pthread_mutex_t ops_lock = PTHREAD_MUTEX_INITIALIZER;
static struct simt_module **mods;
static size_t nmods, capmods;

void simt_ops_module(struct simt_module *mod)
{
	if (!simt_ops_on || mod->ran || !mod->ncode)
		return;
	mod->ran = simt_xcalloc(mod->ncode, 1);
	pthread_mutex_lock(&ops_lock);
	if (nmods == capmods) {
		capmods = capmods ? capmods * 2 : 8;
		mods = simt_xrealloc(mods, capmods * sizeof *mods);
	}
	mods[nmods++] = mod;
	pthread_mutex_unlock(&ops_lock);
}

/* The PTX opcode on line `line` (from 1) of mod's text: the first word
 * after the braces that open inline asm blocks ("{ add.f16 ...") and an
 * optional guard (@%p, @!%p), up to a blank or ';'.  Its length, 0 when
 * the line is not there. */
static size_t opcode_at(const struct simt_module *mod, const char *const *starts,
			uint32_t nlines, uint32_t line, const char **op)
{
	const char *p, *end = mod->ptx + mod->ptx_len;
	size_t n = 0;

	if (line == 0 || line > nlines)
		return 0;
	p = starts[line - 1];
	while (p < end && (*p == ' ' || *p == '\t' || *p == '{'))
		p++;
	if (p < end && *p == '@') {
		while (p < end && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
	}
	while (p + n < end && p[n] != ' ' && p[n] != '\t' && p[n] != ';' && p[n] != '\n')
		n++;
	*op = p;
	return n;
}

/* The start of every line of mod's text; *n gets their count. */
static const char **line_starts(const struct simt_module *mod, uint32_t *n)
{
	const char **s = NULL, *p = mod->ptx, *end = mod->ptx + mod->ptx_len;
	uint32_t cap = 0;

	*n = 0;
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (*n == cap) {
			cap = cap ? cap * 2 : 1024;
			s = simt_xrealloc(s, cap * sizeof *s);
		}
		s[(*n)++] = p;
		p = nl ? nl + 1 : end;
	}
	return s;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One line per instruction that ran, sorted, duplicates dropped, written
 * to out_path with one append so that programs running at once do not
 * interleave their lines. */
static void write_ops(void)
{
	char **lines = NULL;
	size_t n = 0, cap = 0, i, k;
	struct simt_buf all = {0};
	int fd;

	for (i = 0; i < nmods; i++) {
		const struct simt_module *mod = mods[i];
		uint32_t nl, pc;
		const char **starts = line_starts(mod, &nl);

		for (pc = 0; pc < mod->ncode; pc++) {
			const char *op = "";
			size_t len;

			if (!mod->ran[pc])
				continue;
			len = opcode_at(mod, starts, nl, mod->code[pc].ptx_line, &op);
			if (n == cap) {
				cap = cap ? cap * 2 : 256;
				lines = simt_xrealloc(lines, cap * sizeof *lines);
			}
			lines[n++] = simt_xasprintf("%s\t%.*s\n", simt_op_name(mod->code[pc].op),
						    (int)len, op);
		}
		free(starts);
	}
	qsort(lines, n, sizeof *lines, by_text);
	for (i = 0, k = 0; i < n; i++) {
		if (k && strcmp(lines[i], lines[k - 1]) == 0) {
			free(lines[i]);
			continue;
		}
		lines[k++] = lines[i];
		simt_buf_add(&all, lines[i], strlen(lines[i]));
	}
	fd = open(out_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (all.len && write(fd, all.s, all.len) != (ssize_t)all.len)
			simt_warn("could not write %s", out_path);
		close(fd);
	} else {
		simt_warn("could not open %s", out_path);
	}
	for (i = 0; i < k; i++)
		free(lines[i]);
	free(lines);
	simt_buf_free(&all);
}

/* Read once at load, before any module is registered. */
__attribute__((constructor)) static void ops_init(void)
{
	const char *p = getenv("CUDALAB_SIMT_OPS");

	if (!p || !*p)
		return;
	out_path = simt_xstrdup(p);
	simt_ops_on = true;
	atexit(write_ops);
}
