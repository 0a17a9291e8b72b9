/* Device files: one GPU's numbers, each with the source it came from.
 *
 *     # comment
 *     source wp = NVIDIA H100 Tensor Core GPU Architecture, 2022
 *     sms = 132          [wp, table 3]
 *
 * Every key line must cite a declared source, every required key must be
 * there exactly once, and nothing else may be: a file that breaks a rule
 * is refused with its line, never half-used. */
#include "perf/gpu.h"
#include "base/base.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef CUDALAB_DATADIR
#define CUDALAB_DATADIR "/usr/local/share/cudalab"
#endif

enum { K_NUM, K_TEXT, K_LIST };

#define NUM(k, req) { #k, K_NUM, offsetof(struct simt_gpu, k), req, 0 }

/* The keys of a device file: where each goes, whether it must be there,
 * and the least value that makes sense (-1: any non-negative value). */
static const struct key {
	const char *name;
	int kind;
	size_t off;
	bool required;
	double min;
} keys[] = {
	{ "name", K_TEXT, offsetof(struct simt_gpu, name), true, 0 },
	{ "arch", K_TEXT, offsetof(struct simt_gpu, arch), true, 0 },
	NUM(cc, true),
	NUM(sms, true), NUM(clock_mhz, true), NUM(schedulers_per_sm, true),
	NUM(max_threads_per_sm, true), NUM(max_blocks_per_sm, true),
	NUM(max_threads_per_block, true), NUM(regs_per_sm, true),
	NUM(max_regs_per_thread, true), NUM(reg_alloc_unit, true),
	NUM(shared_per_sm_kb, true), NUM(shared_per_block_kb, true),
	NUM(shared_reserved_per_block, true), NUM(shared_alloc_unit, true),
	NUM(l1_shared_kb, true),
	{ "shared_carveouts_kb", K_LIST, offsetof(struct simt_gpu, carveouts_kb), true, 0 },
	NUM(tp_fp16, true), NUM(tp_fp32, true), NUM(tp_fp64, true),
	NUM(tp_sfu, true), NUM(tp_int_add, true), NUM(tp_int_mul, true),
	NUM(tp_shift, true), NUM(tp_compare, true), NUM(tp_logic, true),
	NUM(tp_bitrev, true), NUM(tp_popc, true), NUM(tp_clz, true),
	NUM(tp_shfl, true), NUM(tp_redux, true), NUM(tp_conv, true),
	NUM(tp_conv64, true), NUM(tp_conv_small, true),
	NUM(tc_fp16_f32acc, true), NUM(tc_fp16_f16acc, true), NUM(tc_bf16, true),
	NUM(tc_tf32, true), NUM(tc_fp8, true), NUM(tc_int8, true),
	NUM(tc_fp64, true),
	NUM(lat_fma, true), NUM(lat_alu, true), NUM(lat_imad, true),
	NUM(lat_fp64, true), NUM(lat_sfu, true), NUM(lat_conv, true),
	NUM(lat_shfl, false), NUM(lat_shared, true), NUM(lat_l1, true),
	NUM(lat_l2, true), NUM(lat_dram, true), NUM(lat_tensor, true),
	NUM(lat_barrier, false), NUM(lat_atomic_shared, false),
	NUM(lat_atomic_global, true),
	NUM(sector_bytes, true), NUM(line_bytes, true), NUM(l1_bytes_per_clk, true),
	NUM(shared_bytes_per_clk, true), NUM(shared_banks, true), NUM(l2_kb, true),
	NUM(l2_gbps, true), NUM(dram_gbps, true), NUM(dram_gbps_measured, true),
	NUM(atomic_same_addr_per_clk, false), NUM(atomic_l2_per_clk, false),
	NUM(ldst_per_sm, false),
	NUM(launch_us, false), NUM(launch_host_us, false), NUM(pcie_gbps, true),
	NUM(pcie_latency_us, true), NUM(pageable_gbps, false),
	NUM(nvlink_gbps, true), NUM(nvlink_latency_us, false),
	NUM(copy_engines, true),
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* Keys whose value must be above zero (the others may be 0: a type the
 * part does not support, a link it does not have). */
static const char *const positive[] = {
	"cc", "sms", "clock_mhz", "schedulers_per_sm", "max_threads_per_sm",
	"max_blocks_per_sm", "max_threads_per_block", "regs_per_sm",
	"max_regs_per_thread", "reg_alloc_unit", "shared_per_sm_kb",
	"shared_per_block_kb", "shared_alloc_unit", "l1_shared_kb", "tp_fp32",
	"tp_int_add", "tp_sfu", "tp_shfl", "tp_conv", "lat_fma", "lat_alu",
	"lat_shared", "lat_l1", "lat_l2", "lat_dram", "sector_bytes",
	"line_bytes", "l1_bytes_per_clk", "shared_bytes_per_clk",
	"shared_banks", "l2_kb", "l2_gbps", "dram_gbps", "dram_gbps_measured",
	"pcie_gbps", "copy_engines",
};

static const struct key *key_named(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (strlen(keys[i].name) == n && memcmp(keys[i].name, s, n) == 0)
			return &keys[i];
	return NULL;
}

static bool must_be_positive(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof positive / sizeof positive[0]; i++)
		if (strcmp(positive[i], name) == 0)
			return true;
	return false;
}

/* One line cut into its parts: [a, a_end) the key or "source ID", the
 * value [v, v_end), the citation's id [c, c_end) (c == NULL: none). */
struct line {
	const char *a, *a_end, *v, *v_end, *c, *c_end;
	bool source;
};

static const char *skip_space(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

static const char *trim_end(const char *s, const char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return e;
}

static bool is_ident(const char *s, const char *e)
{
	if (s == e)
		return false;
	for (; s < e; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

/* Splits one line (no newline) into *ln.  Returns 0 for a line with
 * content, 1 for a blank or comment line, -1 with the reason in err. */
static int split_line(const char *s, const char *e, struct line *ln,
		      const char *path, int lineno, struct simt_buf *err)
{
	const char *eq, *br;

	memset(ln, 0, sizeof *ln);
	s = skip_space(s, e);
	e = trim_end(s, e);
	if (s == e || *s == '#')
		return 1;
	eq = memchr(s, '=', (size_t)(e - s));
	if (!eq) {
		simt_buf_printf(err, "%s:%d: expected 'key = value [source]'",
				path, lineno);
		return -1;
	}
	ln->a = s;
	ln->a_end = trim_end(s, eq);
	if ((size_t)(ln->a_end - s) > 7 && memcmp(s, "source", 6) == 0 &&
	    (s[6] == ' ' || s[6] == '\t')) {
		ln->source = true;
		ln->a = skip_space(s + 6, ln->a_end);
		if (!is_ident(ln->a, ln->a_end)) {
			simt_buf_printf(err, "%s:%d: a source id is letters, digits, '_', '-' and '.'",
					path, lineno);
			return -1;
		}
		ln->v = skip_space(eq + 1, e);
		ln->v_end = e;
		if (ln->v == ln->v_end) {
			simt_buf_printf(err, "%s:%d: source '%.*s' says nothing about what it is",
					path, lineno, (int)(ln->a_end - ln->a), ln->a);
			return -1;
		}
		return 0;
	}
	/* a value, then its citation in brackets; a '#' after the
	 * citation starts a comment */
	ln->v = skip_space(eq + 1, e);
	br = memchr(ln->v, '[', (size_t)(e - ln->v));
	if (!br) {
		simt_buf_printf(err, "%s:%d: '%.*s' cites no source: end the line with [source-id]",
				path, lineno, (int)(ln->a_end - ln->a), ln->a);
		return -1;
	}
	ln->v_end = trim_end(ln->v, br);
	ln->c = skip_space(br + 1, e);
	ln->c_end = ln->c;
	while (ln->c_end < e && *ln->c_end != ',' && *ln->c_end != ']')
		ln->c_end++;
	if (!memchr(br, ']', (size_t)(e - br))) {
		simt_buf_printf(err, "%s:%d: the citation has no closing ']'", path, lineno);
		return -1;
	}
	ln->c_end = trim_end(ln->c, ln->c_end);
	return 0;
}

/* Source ids declared in the file. */
struct sources {
	const char *id[128];
	size_t len[128];
	int line[128];
	bool cited[128];
	int n;
};

/* The index of the declared source [s, e), or -1. */
static int source_index(const struct sources *src, const char *s, const char *e)
{
	int i;

	for (i = 0; i < src->n; i++)
		if (src->len[i] == (size_t)(e - s) && memcmp(src->id[i], s, src->len[i]) == 0)
			return i;
	return -1;
}

static int parse_number(const char *s, const char *e, double *out)
{
	char buf[64], *end;
	size_t n = (size_t)(e - s);

	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	*out = strtod(buf, &end);
	if (*end || errno || !isfinite(*out) || *out < 0)
		return -1;
	return 0;
}

static int set_value(struct simt_gpu *g, const struct key *k, const struct line *ln,
		     const char *path, int lineno, struct simt_buf *err)
{
	char *base = (char *)g + k->off;
	size_t n = (size_t)(ln->v_end - ln->v);

	if (k->kind == K_TEXT) {
		size_t cap = k->off == offsetof(struct simt_gpu, name) ? sizeof g->name
								       : sizeof g->arch;

		if (n == 0 || n >= cap) {
			simt_buf_printf(err, "%s:%d: %s must be 1 to %zu characters",
					path, lineno, k->name, cap - 1);
			return -1;
		}
		memcpy(base, ln->v, n);
		base[n] = 0;
		return 0;
	}
	if (k->kind == K_LIST) {
		const char *s = ln->v;

		g->ncarveouts = 0;
		while (s < ln->v_end) {
			const char *t = s;

			while (t < ln->v_end && *t != ' ' && *t != '\t')
				t++;
			if (g->ncarveouts == SIMT_GPU_MAX_CARVEOUTS ||
			    parse_number(s, t, &g->carveouts_kb[g->ncarveouts]) < 0) {
				simt_buf_printf(err, "%s:%d: %s takes up to %d numbers separated by spaces",
						path, lineno, k->name, SIMT_GPU_MAX_CARVEOUTS);
				return -1;
			}
			g->ncarveouts++;
			s = skip_space(t, ln->v_end);
		}
		if (!g->ncarveouts) {
			simt_buf_printf(err, "%s:%d: %s is empty", path, lineno, k->name);
			return -1;
		}
		return 0;
	}
	if (parse_number(ln->v, ln->v_end, (double *)(void *)base) < 0) {
		simt_buf_printf(err, "%s:%d: '%.*s' is not a number for %s (no units: the key names them)",
				path, lineno, (int)n, ln->v, k->name);
		return -1;
	}
	if (must_be_positive(k->name) && *(double *)(void *)base <= 0) {
		simt_buf_printf(err, "%s:%d: %s must be above 0", path, lineno, k->name);
		return -1;
	}
	return 0;
}

/* The file's id: its name without directories and ".gpu". */
static void id_of(const char *path, char *id, size_t cap)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 4 && strcmp(b + n - 4, ".gpu") == 0)
		n -= 4;
	if (n >= cap)
		n = cap - 1;
	memcpy(id, b, n);
	id[n] = 0;
}

/* Rules between keys: the carveouts ascend and end at the largest shared
 * memory, a block's shared memory fits an SM's, the compute capability is
 * the architecture's. */
static int check_sizes(const struct simt_gpu *g, const char *path, const int *seen_line,
		       struct simt_buf *err)
{
	int i;

	for (i = 1; i < g->ncarveouts; i++)
		if (g->carveouts_kb[i] <= g->carveouts_kb[i - 1]) {
			simt_buf_printf(err, "%s:%d: shared_carveouts_kb must ascend", path,
					seen_line[key_named("shared_carveouts_kb", 19) - keys]);
			return -1;
		}
	if (g->carveouts_kb[g->ncarveouts - 1] != g->shared_per_sm_kb) {
		simt_buf_printf(err, "%s:%d: the largest carveout is not shared_per_sm_kb (%g)",
				path, seen_line[key_named("shared_carveouts_kb", 19) - keys],
				g->shared_per_sm_kb);
		return -1;
	}
	if (g->shared_per_block_kb > g->shared_per_sm_kb) {
		simt_buf_printf(err, "%s:%d: shared_per_block_kb exceeds shared_per_sm_kb", path,
				seen_line[key_named("shared_per_block_kb", 19) - keys]);
		return -1;
	}
	if (fabs(g->cc * 10 - g->arch_num) > 0.01) {
		simt_buf_printf(err, "%s:%d: cc %g does not agree with arch %s", path,
				seen_line[key_named("cc", 2) - keys], g->cc, g->arch);
		return -1;
	}
	return 0;
}

static int check_arch(struct simt_gpu *g, const char *path, struct simt_buf *err)
{
	char *end;
	long v;

	if (strncmp(g->arch, "sm_", 3) != 0)
		goto bad;
	v = strtol(g->arch + 3, &end, 10);
	if (end == g->arch + 3 || (*end && strcmp(end, "a") != 0) || v < 50 || v > 200)
		goto bad;
	g->arch_num = (int)v;
	return 0;
bad:
	simt_buf_printf(err, "%s: arch '%s' is not of the form sm_XY", path, g->arch);
	return -1;
}

/* What a file leaves out, where no measurement exists, the model takes
 * from the nearest thing measured (devices/FORMAT.md says so per key):
 * a shuffle crosses the same crossbar as a shared-memory load; a barrier
 * every warp reaches at once releases them in about that time; a shared
 * atomic is a shared load and a store; a small peer copy takes what a
 * small PCIe copy does. */
static void fill_missing(struct simt_gpu *g)
{
	if (!g->lat_shfl)
		g->lat_shfl = g->lat_shared;
	if (!g->lat_barrier)
		g->lat_barrier = g->lat_shared;
	if (!g->lat_atomic_shared)
		g->lat_atomic_shared = 2 * g->lat_shared;
	if (!g->nvlink_latency_us)
		g->nvlink_latency_us = g->pcie_latency_us;
	/* eight per sub-partition in the Volta, Ampere, Ada and Hopper SM */
	if (!g->ldst_per_sm)
		g->ldst_per_sm = 32;
}

int simt_gpu_parse(const char *path, const char *text, size_t len,
		   struct simt_gpu *g, struct simt_buf *err)
{
	struct sources src = { .n = 0 };
	int seen_line[NKEYS] = {0};
	const char *p, *end = text + len;
	struct line ln;
	int pass, lineno;
	size_t i;

	memset(g, 0, sizeof *g);
	id_of(path, g->id, sizeof g->id);
	if (memchr(text, 0, len)) {
		simt_buf_printf(err, "%s: not a text file", path);
		return -1;
	}
	/* sources first, so a citation may come before its declaration */
	for (pass = 0; pass < 2; pass++) {
		for (p = text, lineno = 1; p < end; lineno++) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *le = nl ? nl : end;
			const struct key *k;
			int r = split_line(p, le, &ln, path, lineno, err), ci;

			p = nl ? nl + 1 : end;
			if (r < 0)
				return -1;
			if (r > 0)
				continue;
			if (ln.source) {
				if (pass == 1)
					continue;
				if (source_index(&src, ln.a, ln.a_end) >= 0) {
					simt_buf_printf(err, "%s:%d: source '%.*s' is declared twice",
							path, lineno, (int)(ln.a_end - ln.a), ln.a);
					return -1;
				}
				if (src.n == 128) {
					simt_buf_printf(err, "%s:%d: more than 128 sources", path, lineno);
					return -1;
				}
				src.id[src.n] = ln.a;
				src.line[src.n] = lineno;
				src.cited[src.n] = false;
				src.len[src.n++] = (size_t)(ln.a_end - ln.a);
				continue;
			}
			if (pass == 0)
				continue;
			k = key_named(ln.a, (size_t)(ln.a_end - ln.a));
			if (!k) {
				simt_buf_printf(err, "%s:%d: unknown key '%.*s' (devices/FORMAT.md lists the keys)",
						path, lineno, (int)(ln.a_end - ln.a), ln.a);
				return -1;
			}
			if (seen_line[k - keys]) {
				simt_buf_printf(err, "%s:%d: %s is already set on line %d",
						path, lineno, k->name, seen_line[k - keys]);
				return -1;
			}
			ci = ln.c == ln.c_end ? -1 : source_index(&src, ln.c, ln.c_end);
			if (ci < 0) {
				simt_buf_printf(err, "%s:%d: %s cites '%.*s', which no 'source' line declares",
						path, lineno, k->name, (int)(ln.c_end - ln.c), ln.c);
				return -1;
			}
			src.cited[ci] = true;
			if (set_value(g, k, &ln, path, lineno, err) < 0)
				return -1;
			seen_line[k - keys] = lineno;
		}
	}
	for (i = 0; i < NKEYS; i++)
		if (keys[i].required && !seen_line[i]) {
			simt_buf_printf(err, "%s: missing key '%s'", path, keys[i].name);
			return -1;
		}
	for (i = 0; i < (size_t)src.n; i++)
		if (!src.cited[i]) {
			simt_buf_printf(err, "%s:%d: source '%.*s' is declared but never cited",
					path, src.line[i], (int)src.len[i], src.id[i]);
			return -1;
		}
	if (check_arch(g, path, err) < 0 || check_sizes(g, path, seen_line, err) < 0)
		return -1;
	fill_missing(g);
	if (g->schedulers_per_sm > 8 || g->line_bytes < g->sector_bytes) {
		simt_buf_printf(err, "%s: schedulers_per_sm must be 1 to 8 and line_bytes at least sector_bytes",
				path);
		return -1;
	}
	return 0;
}

int simt_gpu_load(const char *path, struct simt_gpu *g, struct simt_buf *err)
{
	FILE *f = fopen(path, "rb");
	char *text;
	long n;
	int r;

	if (!f) {
		simt_buf_printf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0 || n > (1 << 20) ||
	    fseek(f, 0, SEEK_SET) < 0) {
		fclose(f);
		simt_buf_printf(err, "%s: not a readable device file of at most 1 MiB", path);
		return -1;
	}
	text = simt_xmalloc((size_t)n + 1);
	if (fread(text, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(text);
		simt_buf_printf(err, "%s: read error", path);
		return -1;
	}
	fclose(f);
	r = simt_gpu_parse(path, text, (size_t)n, g, err);
	free(text);
	return r;
}

/* ---- the search path ---- */

/* Calls fn(dir) for each directory of the search path, in order, until
 * it returns true; returns whether one did. */
static bool each_dir(bool (*fn)(const char *dir, void *arg), void *arg)
{
	const char *env = getenv("CUDALAB_SIMT_DEVICES");
	const char *home = getenv("CUDALAB_HOME");
	bool done = false;

	if (env && *env) {
		char *list = simt_xstrdup(env), *save = NULL, *d;

		for (d = strtok_r(list, ":", &save); d && !done; d = strtok_r(NULL, ":", &save))
			done = fn(d, arg);
		free(list);
	}
	if (!done && home && *home) {
		char *d = simt_xasprintf("%s/devices", home);

		done = fn(d, arg);
		free(d);
	}
	if (!done)
		done = fn(CUDALAB_DATADIR "/devices", arg);
	return done;
}

struct find_arg {
	const char *id;
	char *path;
};

static bool find_in(const char *dir, void *arg)
{
	struct find_arg *fa = arg;
	char *p = simt_xasprintf("%s/%s.gpu", dir, fa->id);
	struct stat st;

	if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
		fa->path = p;
		return true;
	}
	free(p);
	return false;
}

static pthread_mutex_t gpus_lock = PTHREAD_MUTEX_INITIALIZER;
static struct simt_gpu **gpus;
static size_t ngpus;

static bool id_ok(const char *id)
{
	size_t n = strlen(id);

	return n > 0 && n < 64 && is_ident(id, id + n) && id[0] != '.';
}

const struct simt_gpu *simt_gpu_find(const char *id, struct simt_buf *err)
{
	struct find_arg fa = { id, NULL };
	struct simt_gpu *g = NULL;
	size_t i;

	if (!id_ok(id)) {
		simt_buf_printf(err, "'%s' is not a device id (letters, digits, '-', '_', '.')", id);
		return NULL;
	}
	pthread_mutex_lock(&gpus_lock);
	for (i = 0; i < ngpus; i++)
		if (strcmp(gpus[i]->id, id) == 0) {
			g = gpus[i];
			goto out;
		}
	if (!each_dir(find_in, &fa)) {
		struct simt_buf names = {0};
		const char *s;

		simt_gpu_list(&names);
		simt_buf_printf(err, "no device file '%s.gpu' (known:", id);
		for (s = names.s; s && s < names.s + names.len; s += strlen(s) + 1)
			simt_buf_printf(err, " %s", s);
		simt_buf_printf(err, "%s)", names.len ? "" : " none");
		simt_buf_free(&names);
		goto out;
	}
	g = simt_xcalloc(1, sizeof *g);
	if (simt_gpu_load(fa.path, g, err) < 0) {
		free(g);
		g = NULL;
		goto out;
	}
	gpus = simt_xrealloc(gpus, (ngpus + 1) * sizeof *gpus);
	gpus[ngpus++] = g;
out:
	pthread_mutex_unlock(&gpus_lock);
	free(fa.path);
	return g;
}

struct list_arg {
	char **names;
	size_t n;
};

static bool list_in(const char *dir, void *arg)
{
	struct list_arg *la = arg;
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return false;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name), i;
		char id[64];

		if (n <= 4 || strcmp(de->d_name + n - 4, ".gpu") != 0)
			continue;
		id_of(de->d_name, id, sizeof id);
		for (i = 0; i < la->n && strcmp(la->names[i], id) != 0; i++)
			;
		if (i < la->n || !id_ok(id))
			continue;
		la->names = simt_xrealloc(la->names, (la->n + 1) * sizeof *la->names);
		la->names[la->n++] = simt_xstrdup(id);
	}
	closedir(d);
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void simt_gpu_list(struct simt_buf *out)
{
	struct list_arg la = { NULL, 0 };
	size_t i;

	each_dir(list_in, &la);
	qsort(la.names, la.n, sizeof *la.names, cmp_str);
	for (i = 0; i < la.n; i++) {
		simt_buf_add(out, la.names[i], strlen(la.names[i]) + 1);
		free(la.names[i]);
	}
	free(la.names);
}

double simt_gpu_clock_hz(const struct simt_gpu *g)
{
	return g->clock_mhz * 1e6;
}

double simt_gpu_dram_bytes_per_clk(const struct simt_gpu *g)
{
	return g->dram_gbps_measured * 1e9 / simt_gpu_clock_hz(g);
}

double simt_gpu_l2_bytes_per_clk(const struct simt_gpu *g)
{
	return g->l2_gbps * 1e9 / simt_gpu_clock_hz(g);
}
