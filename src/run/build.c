/* build.c — compiling an exercise program through a cache: the program
 * lives in cache/<key>/prog, where key hashes everything the build reads,
 * so an unchanged check never runs nvcc.  Builds happen in a temporary
 * directory renamed into place, so a cache entry is always complete. */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cudalab/util.h"

/* Bumped when the way programs are built changes in a way the flags
 * alone do not show. */
#define BUILD_RECIPE "cudalab-build-1"
#define CACHE_KEEP 64
#define COMPILE_TIMEOUT_S 300.0
#define LOG_CAP (1u << 20)

void run_phase(const struct run_request *req, const char *phase)
{
	if (req && req->progress)
		req->progress(req->progress_ctx, phase);
}

void run_remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *p;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		p = path_join(dir, e->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
	rmdir(dir);
}

char *run_read_text(const char *path, size_t *len)
{
	size_t n = 0;
	char *text = read_file(path, &n);

	if (text && n == 0) {
		free(text);
		text = xstrdup("");
	}
	if (len)
		*len = n;
	return text;
}

static int has_lab_h(const char *dir)
{
	char *p = path_join(dir, "cudalab/lab.h");
	int ok = access(p, R_OK) == 0;

	free(p);
	return ok;
}

/* The source tree this binary was built in, when it runs from there. */
static char *exe_tree_include(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(exe, '/'), *inc;

		if (!slash || slash == exe)
			return NULL;
		*slash = '\0';
		inc = path_join(exe, "include");
		if (has_lab_h(inc))
			return inc;
		free(inc);
	}
	return NULL;
}

/* content/include (the source tree), content/../include, the tree the
 * binary runs from, then the installed prefix (DATADIR is
 * PREFIX/share/cudalab). */
char *run_find_include(const char *content)
{
	char *cand[2] = { path_join(content, "include"), path_join(content, "../include") };
	char *found = NULL;

	for (int i = 0; i < 2; i++) {
		if (!found && has_lab_h(cand[i]))
			found = cand[i];
		else
			free(cand[i]);
	}
	if (!found)
		found = exe_tree_include();
	if (!found) {
		char *inst = path_join(CUDALAB_DATADIR, "../../include");

		if (has_lab_h(inst))
			found = inst;
		else
			free(inst);
	}
	return found;
}

struct hasher {
	uint64_t h;
};

/* Each part is framed by its tag and length, so no two different inputs
 * hash the same stream. */
static void hash_part(struct hasher *k, const char *tag, const void *p, size_t n)
{
	uint64_t len = n;

	k->h = run_fnv1a64(k->h, tag, strlen(tag) + 1);
	k->h = run_fnv1a64(k->h, &len, sizeof len);
	k->h = run_fnv1a64(k->h, p, n);
}

static void hash_str(struct hasher *k, const char *tag, const char *s)
{
	hash_part(k, tag, s ? s : "", s ? strlen(s) : 0);
}

static int is_header(const char *name)
{
	return str_ends(name, ".h") || str_ends(name, ".cuh") || str_ends(name, ".hpp");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Headers beside the sources can be included by them; their bytes count. */
char **run_lab_files(const char *include)
{
	char *dir = path_join(include, "cudalab/lab");
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	xgrow((void **)&names, &cap, 1, sizeof *names);
	names[n++] = xstrdup("cudalab/lab.h");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !str_ends(e->d_name, ".h"))
			continue;
		xgrow((void **)&names, &cap, n + 1, sizeof *names);
		names[n++] = xasprintf("cudalab/lab/%s", e->d_name);
	}
	if (d)
		closedir(d);
	free(dir);
	qsort(names + 1, n - 1, sizeof *names, cmp_str);
	xgrow((void **)&names, &cap, n + 1, sizeof *names);
	names[n] = NULL;
	return names;
}

/* Hashes the file dir/name: its name under name_tag, then its text (empty
 * when it cannot be read) under text_tag. */
static void hash_file(struct hasher *k, const char *dir, const char *name,
		      const char *name_tag, const char *text_tag)
{
	char *p = path_join(dir, name);
	size_t len = 0;
	char *text = run_read_text(p, &len);

	hash_str(k, name_tag, name);
	hash_part(k, text_tag, text ? text : "", text ? len : 0);
	free(text);
	free(p);
}

static void hash_headers(struct hasher *k, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!is_header(e->d_name))
			continue;
		xgrow((void **)&names, &cap, n + 1, sizeof *names);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		hash_file(k, dir, names[i], "header-name", "header");
		free(names[i]);
	}
	free(names);
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/* One nvcc run in a build directory: a source copied there, compiled to
 * an object (-c) or, with a prebuilt object, linked into the program. */
struct step {
	const char *copy;   /* the copy's name in the build directory */
	const char *real;   /* the file it stands for */
	const char *text;
	size_t len;
	const char *object; /* linked in when not NULL */
	const char *output; /* "harness.o" or "prog" */
};

static char **build_argv(const struct run_build *b, const struct step *st, const char *dir)
{
	char *src_dir = dir_of(st->real);
	char *copy = path_join(dir, st->copy), *out = path_join(dir, st->output);
	const char *inc[3], *srcs[2];
	size_t n_inc = 0, n_src = 0;
	struct run_nvcc n;
	char **argv;

	if (b->include)
		inc[n_inc++] = b->include;
	inc[n_inc++] = b->ex_dir;
	if (strcmp(src_dir, b->ex_dir) != 0)
		inc[n_inc++] = src_dir; /* the copy is elsewhere: keep "" includes working */
	if (st->object)
		srcs[n_src++] = st->object;
	srcs[n_src++] = copy;
	memset(&n, 0, sizeof n);
	n.nvcc = b->probe->nvcc;
	n.backend = b->backend;
	n.gpu_arch = b->probe->gpu_arch;
	n.simt_lib = b->probe->simt_lib;
	n.simt_sanitize = b->probe->simt_sanitize;
	n.includes = inc;
	n.n_includes = n_inc;
	n.sources = srcs;
	n.n_sources = n_src;
	n.output = out;
	n.optimize = 1;
	n.compile_only = !st->object;
	argv = run_nvcc_argv(&n);
	free(copy);
	free(out);
	free(src_dir);
	return argv;
}

struct sources {
	char *harness, *learner;
	size_t harness_len, learner_len;
};

static void sources_free(struct sources *s)
{
	free(s->harness);
	free(s->learner);
}

static int read_sources(struct run_build *b, struct sources *s)
{
	memset(s, 0, sizeof *s);
	if (!(s->harness = run_read_text(b->harness, &s->harness_len))) {
		b->error = xasprintf("cannot read %s: %s", b->harness, strerror(errno));
		return -1;
	}
	if (!(s->learner = run_read_text(b->source, &s->learner_len))) {
		b->error = xasprintf("cannot read %s: %s", b->source, strerror(errno));
		return -1;
	}
	return 0;
}

static void hash_common(struct hasher *k, const struct run_build *b, const struct step *st)
{
	char **argv = build_argv(b, st, "/@build@");

	hash_str(k, "recipe", BUILD_RECIPE);
	hash_str(k, "backend", run_backend_name(b->backend));
	hash_str(k, "nvcc", b->probe->nvcc);
	hash_str(k, "nvcc-version", b->probe->nvcc_version);
	for (size_t i = 0; argv[i]; i++)
		hash_str(k, "arg", argv[i]);
	run_argv_free(argv);
}

/* Hashes every file of the harness library (lab.h and its parts), name
 * and text, so that a change in any of them gives another key. */
static void hash_lab(struct hasher *k, const char *include)
{
	char **names;

	if (!include)
		return;
	names = run_lab_files(include);
	for (size_t i = 0; names[i]; i++)
		hash_file(k, include, names[i], "lab-name", "lab");
	run_argv_free(names);
}

/* The harness object depends on the harness, the harness library, the
 * exercise's headers and the flags; the learner's edits leave it alone. */
static uint64_t harness_key(const struct run_build *b, const struct sources *s,
			    const struct step *st)
{
	struct hasher k = { RUN_FNV_INIT };

	hash_common(&k, b, st);
	hash_str(&k, "harness-path", b->harness);
	hash_part(&k, "harness", s->harness, s->harness_len);
	hash_lab(&k, b->include);
	hash_headers(&k, b->ex_dir);
	return k.h;
}

static uint64_t prog_key(const struct run_build *b, const struct sources *s, const struct step *st,
			 uint64_t harness)
{
	struct hasher k = { RUN_FNV_INIT };
	char *dir = dir_of(b->source);
	struct stat sb;

	hash_part(&k, "harness-key", &harness, sizeof harness);
	hash_common(&k, b, st);
	if (b->backend == BACKEND_SIMT && stat(b->probe->simt_lib, &sb) == 0) {
		int64_t id[3] = { (int64_t)sb.st_size, (int64_t)sb.st_mtim.tv_sec,
				  (int64_t)sb.st_mtim.tv_nsec };

		hash_part(&k, "simt-lib", id, sizeof id);
	}
	hash_str(&k, "source-path", b->source);
	hash_part(&k, "source", s->learner, s->learner_len);
	if (strcmp(dir, b->ex_dir) != 0)
		hash_headers(&k, dir);
	free(dir);
	return k.h;
}

/* Writes a copy of a source whose diagnostics and line information name
 * the real file: a #line directive comes first, so line numbers are
 * unchanged. */
static int write_copy(const char *dst, const char *real, const char *text, size_t len)
{
	FILE *f = fopen(dst, "w");
	int ok;

	if (!f)
		return -1;
	fputs("#line 1 \"", f);
	for (const char *p = real; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fputc(*p, f);
	}
	fputs("\"\n", f);
	fwrite(text, 1, len, f);
	ok = !ferror(f);
	return fclose(f) == 0 && ok ? 0 : -1;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	fputs(text, f);
	ok = !ferror(f);
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* Keeps the newest CACHE_KEEP entries, and drops temporary directories
 * an interrupted build left over an hour ago. */
static void cache_prune(const char *cache)
{
	DIR *d = opendir(cache);
	struct dirent *e;
	struct entry {
		char *path;
		time_t mtime;
	} *v = NULL;
	size_t n = 0, cap = 0;
	time_t now = time(NULL);

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat sb;
		char *p;

		if (e->d_name[0] == '.')
			continue;
		p = path_join(cache, e->d_name);
		if (stat(p, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			free(p);
		} else if (str_starts(e->d_name, "tmp-")) {
			if (now - sb.st_mtime > 3600)
				run_remove_dir(p);
			free(p);
		} else {
			xgrow((void **)&v, &cap, n + 1, sizeof *v);
			v[n].path = p;
			v[n++].mtime = sb.st_mtime;
		}
	}
	closedir(d);
	while (n > CACHE_KEEP) {
		size_t old = 0;

		for (size_t i = 1; i < n; i++)
			if (v[i].mtime < v[old].mtime)
				old = i;
		run_remove_dir(v[old].path);
		free(v[old].path);
		v[old] = v[--n];
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/* Runs nvcc for st in dir; sets b->log (paths rewritten) and b->failed.
 * Returns -1 when nvcc could not be started. */
static int compile(struct run_build *b, const struct step *st, const char *dir)
{
	char **argv = build_argv(b, st, dir);
	char *copy = path_join(dir, st->copy);
	const char *from[] = { copy, st->object ? st->object : "" };
	const char *to[] = { st->real, b->harness };
	struct run_child c;
	int rc = 0;

	memset(&c, 0, sizeof c);
	c.argv = argv;
	c.cap = LOG_CAP;
	c.merge = 1;
	c.timeout_s = COMPILE_TIMEOUT_S;
	c.cancel = b->req ? b->req->cancel : NULL;
	free(b->log);
	b->log = NULL;
	if (run_child_exec(&c) != 0) {
		b->error = xasprintf("cannot run %s: %s", b->probe->nvcc, strerror(errno));
		rc = -1;
		goto done;
	}
	b->log = run_log_rewrite(c.out, from, to, 2);
	b->seconds += c.wall_s;
	if (c.timed_out || c.cancelled) {
		char *log = xasprintf("%snvcc %s after %.0f s\n", b->log,
				      c.timed_out ? "timed out" : "was stopped", c.wall_s);

		free(b->log);
		b->log = log;
		b->failed = 1;
	} else {
		b->failed = !WIFEXITED(c.status) || WEXITSTATUS(c.status) != 0;
	}
done:
	run_child_free(&c);
	run_argv_free(argv);
	free(copy);
	return rc;
}

/* Builds st in a fresh temporary directory renamed to final when nvcc
 * succeeds.  Returns 0 (b->failed says whether nvcc did) or -1. */
static int build_step(struct run_build *b, const struct step *st, const char *final)
{
	char *tmp = xasprintf("%s/tmp-XXXXXX", b->cache);
	char *copy = NULL, *log_path = NULL;
	int rc = -1;

	if (!mkdtemp(tmp)) {
		b->error = xasprintf("cannot create a build directory in %s: %s", b->cache,
				     strerror(errno));
		free(tmp);
		return -1;
	}
	copy = path_join(tmp, st->copy);
	log_path = path_join(tmp, "compile.log");
	if (write_copy(copy, st->real, st->text, st->len) != 0) {
		b->error = xasprintf("cannot write the sources into %s: %s", tmp, strerror(errno));
		goto done;
	}
	if (compile(b, st, tmp) != 0)
		goto done;
	rc = 0;
	if (b->failed)
		goto done;
	unlink(copy);
	write_text(log_path, b->log);
	/* Another build of the same key may have won the race: it is as good. */
	if (rename(tmp, final) != 0 && errno != EEXIST && errno != ENOTEMPTY) {
		b->error = xasprintf("cannot move the build into %s: %s", final, strerror(errno));
		rc = -1;
	}
done:
	run_remove_dir(tmp);
	free(tmp);
	free(copy);
	free(log_path);
	return rc;
}

/* The harness object, from the cache or compiled into it.  Returns 0
 * with *obj set (b->failed when the harness does not compile), or -1. */
static int harness_object(struct run_build *b, const struct step *st, uint64_t key, char **obj)
{
	char hex[17], *name, *dir;
	int rc = 0;

	run_hash_hex(key, hex);
	name = xasprintf("h-%s", hex);
	dir = path_join(b->cache, name);
	*obj = path_join(dir, st->output);
	if (access(*obj, R_OK) == 0)
		utimensat(AT_FDCWD, dir, NULL, 0); /* recently used: kept by the pruning */
	else
		rc = build_step(b, st, dir);
	free(name);
	free(dir);
	return rc;
}

static void use_cached(struct run_build *b, const char *final)
{
	char *log_path = path_join(final, "compile.log");

	b->cached = 1;
	b->log = run_read_text(log_path, NULL);
	if (!b->log)
		b->log = xstrdup("");
	free(log_path);
	utimensat(AT_FDCWD, final, NULL, 0);
	run_phase(b->req, "cached");
}

int run_build_exercise(struct run_build *b)
{
	struct sources s;
	char hex[17], *final = NULL, *obj = NULL;
	struct step hs, ks;
	uint64_t hkey;
	int rc = -1;

	b->prog = b->log = b->source_hash = b->error = NULL;
	b->cached = b->failed = 0;
	b->seconds = 0;
	if (mkdir_p(b->cache, 0700) != 0) {
		b->error = xasprintf("cannot create %s: %s", b->cache, strerror(errno));
		return -1;
	}
	if (read_sources(b, &s) != 0)
		goto done;
	run_hash_hex(run_fnv1a64(RUN_FNV_INIT, s.learner, s.learner_len), hex);
	b->source_hash = xstrdup(hex);
	hs = (struct step){ "harness.cu", b->harness, s.harness, s.harness_len, NULL, "harness.o" };
	ks = (struct step){ "kernel.cu", b->source, s.learner, s.learner_len, "/@harness@.o",
			    "prog" };
	hkey = harness_key(b, &s, &hs);
	run_hash_hex(prog_key(b, &s, &ks, hkey), hex);
	final = path_join(b->cache, hex);
	b->prog = path_join(final, "prog");
	if (access(b->prog, X_OK) == 0) {
		use_cached(b, final);
		rc = 0;
		goto done;
	}
	run_phase(b->req, "compiling");
	if ((rc = harness_object(b, &hs, hkey, &obj)) != 0 || b->failed)
		goto done;
	ks.object = obj;
	rc = build_step(b, &ks, final);
	if (rc == 0 && !b->failed)
		cache_prune(b->cache);
done:
	if (rc != 0 || b->failed) {
		free(b->prog);
		b->prog = NULL;
	}
	sources_free(&s);
	free(final);
	free(obj);
	return rc;
}

void run_build_free(struct run_build *b)
{
	free(b->prog);
	free(b->log);
	free(b->source_hash);
	free(b->error);
	b->prog = b->log = b->source_hash = b->error = NULL;
}
