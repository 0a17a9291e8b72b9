/* build.c — compiling an exercise program through a cache: the program
 * lives in cache/<key>/prog, where key hashes everything the build reads,
 * so an unchanged check never runs nvcc.  Builds happen in a temporary
 * directory renamed into place, so a cache entry is always complete, and
 * an entry is used only while it is what was built (a digest beside it).
 *
 * The harness is compiled once per exercise with hidden visibility (and
 * lab.h gives its own names internal linkage), the learner's file on its
 * own, without the exercise's folder on its include path; an object of
 * the learner's that defines anything in namespace lab is refused, and
 * the two objects are then linked. */
#include "build.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "cudalab/util.h"

/* Bumped when the way programs are built changes in a way the flags
 * alone do not show. */
#define BUILD_RECIPE "cudalab-build-3"
#define CACHE_KEEP 64
#define COMPILE_TIMEOUT_S 300.0
#define LOG_CAP (1u << 20)
/* nvcc's list of the files the learner's compile read (-MD -MF) */
#define DEPS_FILE "kernel.d"

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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_header(const char *name)
{
	return str_ends(name, ".h") || str_ends(name, ".cuh") || str_ends(name, ".hpp");
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

/* Appends text to the build's log. */
static void add_log(struct run_build *b, const char *text)
{
	char *log = xasprintf("%s%s", b->log ? b->log : "", text ? text : "");

	free(b->log);
	b->log = log;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/* One nvcc run in a build directory: the harness compiled to an object,
 * the learner's file compiled to one, or the two linked into the
 * program. */
enum step_kind { STEP_HARNESS, STEP_LEARNER, STEP_LINK };
struct step {
	enum step_kind kind;
	const char *copy;       /* compile steps: the source's copy in the build directory */
	const char *real;       /* the file it stands for */
	const char *text;
	size_t len;
	const char *objects[2]; /* the link step's: the harness's and the learner's */
	const char *output;     /* "harness.o", "kernel.o" or "prog" */
};

/* Include paths: the harness library's folder, then for the harness its
 * exercise's folder, for the learner's file its own folder, never the
 * exercise's (whose solution.cu is no file of the learner's to include);
 * the learner's compile also lists the files it reads (DEPS_FILE). */
static char **build_argv(const struct run_build *b, const struct step *st, const char *dir)
{
	char *src_dir = st->real ? dir_of(st->real) : xstrdup("");
	char *copy = st->copy ? path_join(dir, st->copy) : NULL, *out = path_join(dir, st->output);
	char *deps = st->kind == STEP_LEARNER ? path_join(dir, DEPS_FILE) : NULL;
	const char *inc[2], *srcs[2];
	size_t n_inc = 0, n_src = 0;
	struct run_nvcc n;
	char **argv;

	if (st->kind != STEP_LINK && b->include)
		inc[n_inc++] = b->include;
	if (st->kind == STEP_HARNESS)
		inc[n_inc++] = b->ex_dir;
	else if (st->kind == STEP_LEARNER && strcmp(src_dir, b->ex_dir) != 0)
		inc[n_inc++] = src_dir; /* the copy is elsewhere: keep "" includes working */
	if (st->kind == STEP_LINK) {
		srcs[n_src++] = st->objects[0];
		srcs[n_src++] = st->objects[1];
	} else {
		srcs[n_src++] = copy;
	}
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
	n.compile_only = st->kind != STEP_LINK;
	n.hidden = st->kind == STEP_HARNESS;
	n.deps = deps;
	n.keep_asm = st->kind == STEP_LEARNER;
	argv = run_nvcc_argv(&n);
	free(deps);
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
	if (!(s->learner = run_read_source(b->source, &s->learner_len, &b->error)))
		return -1;
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

static uint64_t prog_key(const struct run_build *b, const struct sources *s,
			 const struct step *compile, const struct step *link, uint64_t harness)
{
	struct hasher k = { RUN_FNV_INIT };
	char *dir = dir_of(b->source);
	struct stat sb;

	hash_part(&k, "harness-key", &harness, sizeof harness);
	hash_common(&k, b, compile);
	hash_common(&k, b, link);
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
 * unchanged.  The name is a C string there, any byte of it escaped that
 * would end or break one (quotes, backslashes, newlines, controls). */
static int write_copy(const char *dst, const char *real, const char *text, size_t len)
{
	FILE *f = fopen(dst, "w");
	int ok;

	if (!f)
		return -1;
	fputs("#line 1 \"", f);
	for (const unsigned char *p = (const unsigned char *)real; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\%03o", *p);
		else
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

/* --- verified entries ------------------------------------------------------
 * Each entry keeps, beside what it built, a file "digest": the FNV-1a 64
 * of the artifact's bytes, and its size, inode and change time.  An entry
 * is used only when the artifact still matches: the same size, inode and
 * change time (a write of any kind moves the change time), or else the
 * same bytes.  A harness object or program changed after its build (by a
 * program under check, where no sandbox stops it) is built again. */

static uint64_t hash_fd(int fd, int *ok)
{
	char buf[1 << 16];
	uint64_t h = RUN_FNV_INIT;
	ssize_t n;

	while ((n = read(fd, buf, sizeof buf)) > 0)
		h = run_fnv1a64(h, buf, (size_t)n);
	*ok = n == 0;
	return h;
}

/* "HASH SIZE INODE CTIME_SEC CTIME_NSEC" of the file at path. */
static char *digest_of(const char *path, int with_hash)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok = 1;
	struct stat sb;
	uint64_t h = 0;
	char hex[17];
	char *d = NULL;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
		if (with_hash)
			h = hash_fd(fd, &ok);
		run_hash_hex(h, hex);
		if (ok)
			d = xasprintf("%s %lld %llu %lld %ld", hex, (long long)sb.st_size,
				      (unsigned long long)sb.st_ino, (long long)sb.st_ctim.tv_sec,
				      (long)sb.st_ctim.tv_nsec);
	}
	close(fd);
	return d;
}

static int write_digest(const char *dir, const char *artifact)
{
	char *path = path_join(dir, artifact), *dpath = path_join(dir, "digest");
	char *d = digest_of(path, 1);
	int rc = d ? write_text(dpath, d) : -1;

	free(d);
	free(path);
	free(dpath);
	return rc;
}

/* Whether dir/artifact is there and is what was built. */
static int entry_good(const char *dir, const char *artifact)
{
	char *path = path_join(dir, artifact), *dpath = path_join(dir, "digest");
	char *kept = run_read_text(dpath, NULL), *now = kept ? digest_of(path, 0) : NULL;
	int good = 0;

	/* the same file, untouched since: its bytes need no reading */
	if (now && strlen(kept) > 17 && strcmp(kept + 17, now + 17) == 0) {
		good = 1;
	} else if (now) {
		free(now);
		now = digest_of(path, 1);
		good = now && strncmp(kept, now, 16) == 0 &&
		       strtoll(kept + 17, NULL, 10) == strtoll(now + 17, NULL, 10);
		/* the same bytes, touched (a hard link made, say): the next
		 * check need not read them again */
		if (good)
			write_text(dpath, now);
	}
	free(kept);
	free(now);
	free(path);
	free(dpath);
	return good;
}

/* An entry that exists but is not what was built: said once, and
 * removed so that it is built again. */
static void entry_drop(struct run_build *b, const char *dir, const char *what)
{
	free(b->note);
	b->note = xasprintf("the cached %s in %s had changed since it was built: built again", what,
			    dir);
	run_remove_dir(dir);
}

/* --- building ---------------------------------------------------------------- */

/* Runs nvcc for st in dir; adds to b->log (paths rewritten) and sets
 * b->failed.  Returns -1 when nvcc could not be started. */
static int compile(struct run_build *b, const struct step *st, const char *dir)
{
	char **argv = build_argv(b, st, dir);
	char *copy = st->copy ? path_join(dir, st->copy) : xstrdup("");
	const char *from[] = { copy, st->objects[0] ? st->objects[0] : "" };
	const char *to[] = { st->real ? st->real : "", b->harness };
	struct run_child c;
	char *log;
	int rc = 0;

	memset(&c, 0, sizeof c);
	c.argv = argv;
	c.cap = LOG_CAP;
	c.merge = 1;
	c.timeout_s = COMPILE_TIMEOUT_S;
	c.cancel = b->req ? b->req->cancel : NULL;
	if (run_child_exec(&c) != 0) {
		b->error = xasprintf("cannot run %s: %s", b->probe->nvcc, strerror(errno));
		rc = -1;
		goto done;
	}
	log = run_log_rewrite(c.out, from, to, 2);
	b->seconds += c.wall_s;
	if (c.timed_out || c.cancelled) {
		char *more = xasprintf("%snvcc %s after %.0f s\n", log,
				       c.timed_out ? "timed out" : "was stopped", c.wall_s);

		free(log);
		log = more;
		b->failed = 1;
	} else {
		b->failed = !WIFEXITED(c.status) || WEXITSTATUS(c.status) != 0;
	}
	add_log(b, log);
	free(log);
done:
	run_child_free(&c);
	run_argv_free(argv);
	free(copy);
	return rc;
}

/* A learner's object that defines anything in namespace lab is refused:
 * one "cudalab:" line per name in the log (run_log_errors reads them). */
static void refuse_lab_defs(struct run_build *b, const char *object)
{
	size_t len = 0;
	char *data = read_file(object, &len);
	char **defs = data ? run_object_lab_defs(data, len) : NULL;

	for (size_t i = 0; defs && defs[i]; i++) {
		/* nvcc names an unnamed namespace _GLOBAL__N__<hash> */
		int unnamed = str_starts(defs[i], "lab::_GLOBAL__N");
		char *line = xasprintf("cudalab: %s defines %s: the namespace lab is the harness's "
				       "(lab.h), not the learner's to define; rename yours or move "
				       "it out of lab\n", b->source,
				       unnamed ? "lab::(an unnamed namespace)" : defs[i]);

		add_log(b, line);
		free(line);
		b->failed = 1;
	}
	run_argv_free(defs);
	free(data);
}

/* Whether the file st describes is one of the exercise's folder's but
 * its harness: in the folder by its real path (a link resolved), or the
 * same file as one there (a hard link). */
static int exercise_file(const struct run_build *b, const char *path, const struct stat *st)
{
	char *real = realpath(path, NULL), *dir = realpath(b->ex_dir, NULL);
	struct stat hs;
	int in = 0;
	DIR *d;
	struct dirent *e;

	if (stat(b->harness, &hs) == 0 && hs.st_dev == st->st_dev && hs.st_ino == st->st_ino)
		goto done;
	in = real && dir && str_starts(real, dir) && real[strlen(dir)] == '/';
	for (d = in ? NULL : opendir(b->ex_dir); d && !in && (e = readdir(d));) {
		char *p = path_join(b->ex_dir, e->d_name);
		struct stat es;

		in = stat(p, &es) == 0 && S_ISREG(es.st_mode) && es.st_dev == st->st_dev &&
		     es.st_ino == st->st_ino;
		free(p);
	}
	if (d)
		closedir(d);
done:
	free(real);
	free(dir);
	return in;
}

/* A learner's file that reads a file of the exercise's folder (its
 * solution.cu, by an absolute path or a link) is refused: the folder is
 * off the include path, but nvcc runs outside the sandbox and would read
 * any path it is given.  One "cudalab:" line per file, from nvcc's list
 * of what the compile read; a compile that left no list is refused too.
 * The learner's file itself may lie there (a check of the solution). */
static void refuse_exercise_files(struct run_build *b, const char *tmp)
{
	char *path = path_join(tmp, DEPS_FILE), *text = run_read_text(path, NULL);
	char **deps = text ? run_deps_parse(text) : NULL;
	struct stat own;
	int have_own = stat(b->source, &own) == 0;

	unlink(path); /* no part of the cache entry */

	if (!deps) {
		add_log(b, "cudalab: nvcc did not say which files the compile read; a check "
			   "needs to know\n");
		b->failed = 1;
	}
	for (size_t i = 0; deps && deps[i]; i++) {
		struct stat st;
		char *line;

		/* the file itself is listed too (its copy's #line names it) */
		if (stat(deps[i], &st) != 0 ||
		    (have_own && st.st_dev == own.st_dev && st.st_ino == own.st_ino) ||
		    !exercise_file(b, deps[i], &st))
			continue;
		line = xasprintf("cudalab: %s includes %s, a file of the exercise's folder: a check "
				 "compiles your file without the exercise's files\n", b->source,
				 deps[i]);
		add_log(b, line);
		free(line);
		b->failed = 1;
	}
	run_argv_free(deps);
	free(text);
	free(path);
}

/* Whether line holds a directive of the assembler that reads a file
 * (.incbin, .include) or makes one out of parts (.macro, .irp, .irpc
 * substitute their arguments into the names of directives): a statement
 * begins at the line's start or after ';', past labels and blanks. */
static const char *file_directive(const char *line)
{
	static const char *const names[] = { ".incbin", ".include", ".macro", ".irpc", ".irp" };
	const char *p = line;

	while (*p) {
		p += strspn(p, " \t");
		while (*p == '.' || *p == '_' || isalnum((unsigned char)*p)) {
			const char *q = p + strspn(p, "._$abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");

			if (*q != ':')
				break;
			p = q + 1 + strspn(q + 1, " \t"); /* a label */
		}
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
			size_t len = strlen(names[i]);

			if (strncasecmp(p, names[i], len) == 0 &&
			    (p[len] == '\0' || strchr(" \t\"", p[len])))
				return names[i];
		}
		p = strchr(p, ';');
		if (!p)
			break;
		p++;
	}
	return NULL;
}

/* A learner's file whose host assembly reads a file is refused: inline
 * asm's .incbin pulls any file (the exercise's solution.cu among them)
 * into the program without the preprocessor's knowing, and a string split
 * in the source dodges any scan of the source, so the host compiler's own
 * output is read (kept by keep_asm).  Device code needs no such scan: PTX
 * has no directive that reads a file.  A compile that left no assembly
 * is refused too. */
static void refuse_assembler_reads(struct run_build *b, const struct step *st, const char *tmp)
{
	size_t stem = strlen(st->output) - 2; /* "kernel.o" */
	char *s_path = xasprintf("%s/%.*s.s", tmp, (int)stem, st->output);
	char *ii_path = xasprintf("%s/%.*s.ii", tmp, (int)stem, st->output);
	char *text = run_read_text(s_path, NULL), *line, *save = NULL;

	unlink(s_path); /* neither is part of the cache entry */
	unlink(ii_path);
	if (!text) {
		add_log(b, "cudalab: the host compiler left no assembly of your file; a check "
			   "needs to read it\n");
		b->failed = 1;
	}
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && !b->failed;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *d = file_directive(line);
		char *msg;

		if (!d)
			continue;
		msg = xasprintf("cudalab: %s: its assembly has the assembler read a file or make "
				"directives with macros (%s), which a check refuses: a program is "
				"built from your file's text alone; the line: %s\n",
				b->source, d, line + strspn(line, " \t"));
		add_log(b, msg);
		free(msg);
		b->failed = 1;
	}
	free(text);
	free(s_path);
	free(ii_path);
}

static char *temp_build_dir(struct run_build *b)
{
	char *tmp = xasprintf("%s/tmp-XXXXXX", b->cache);

	if (mkdtemp(tmp))
		return tmp;
	b->error = xasprintf("cannot create a build directory in %s: %s", b->cache, strerror(errno));
	free(tmp);
	return NULL;
}

/* Puts the finished build directory tmp in place as final, with the
 * digest of its artifact and its log. */
static int settle(struct run_build *b, const char *tmp, const char *artifact, const char *final)
{
	char *log_path = path_join(tmp, "compile.log");

	write_text(log_path, b->log ? b->log : "");
	free(log_path);
	if (write_digest(tmp, artifact) != 0) {
		b->error = xasprintf("cannot read back the build in %s: %s", tmp, strerror(errno));
		return -1;
	}
	/* Another build of the same key may have won the race: it is as good. */
	if (rename(tmp, final) != 0 && errno != EEXIST && errno != ENOTEMPTY) {
		b->error = xasprintf("cannot move the build into %s: %s", final, strerror(errno));
		return -1;
	}
	return 0;
}

/* Copies st's source into tmp and compiles it there.  Returns 0 (with
 * b->failed) or -1. */
static int compile_copy(struct run_build *b, const struct step *st, const char *tmp)
{
	char *copy = path_join(tmp, st->copy);
	int rc = -1;

	if (write_copy(copy, st->real, st->text, st->len) != 0)
		b->error = xasprintf("cannot write the sources into %s: %s", tmp, strerror(errno));
	else
		rc = compile(b, st, tmp);
	unlink(copy);
	free(copy);
	return rc;
}

/* The harness object, from the cache or compiled into it.  Returns 0
 * with *obj set (b->failed when the harness does not compile), or -1. */
static int harness_object(struct run_build *b, const struct step *st, uint64_t key, char **obj)
{
	char hex[17], *name, *dir, *tmp;
	int rc = -1;

	run_hash_hex(key, hex);
	name = xasprintf("h-%s", hex);
	dir = path_join(b->cache, name);
	*obj = path_join(dir, st->output);
	free(name);
	if (access(dir, F_OK) == 0 && entry_good(dir, st->output)) {
		utimensat(AT_FDCWD, dir, NULL, 0); /* recently used: kept by the pruning */
		free(dir);
		return 0;
	}
	if (access(dir, F_OK) == 0)
		entry_drop(b, dir, "harness object");
	if ((tmp = temp_build_dir(b))) {
		rc = compile_copy(b, st, tmp);
		if (rc == 0 && !b->failed)
			rc = settle(b, tmp, st->output, dir);
		run_remove_dir(tmp);
		free(tmp);
	}
	free(dir);
	return rc;
}

/* The program: the learner's file compiled, refused if it defines
 * anything in lab, and linked with the harness object obj. */
static int program(struct run_build *b, const struct step *ks, struct step *link, const char *obj,
		   const char *final)
{
	char *tmp = temp_build_dir(b), *kobj;
	int rc = -1;

	if (!tmp)
		return -1;
	/* the log shown with a verdict is the learner's file's */
	free(b->log);
	b->log = NULL;
	kobj = path_join(tmp, ks->output);
	if (compile_copy(b, ks, tmp) != 0)
		goto done;
	rc = 0;
	if (!b->failed)
		refuse_exercise_files(b, tmp);
	if (!b->failed)
		refuse_assembler_reads(b, ks, tmp);
	if (!b->failed)
		refuse_lab_defs(b, kobj);
	if (b->failed)
		goto done;
	link->objects[0] = obj;
	link->objects[1] = kobj;
	if ((rc = compile(b, link, tmp)) == 0 && !b->failed) {
		unlink(kobj);
		rc = settle(b, tmp, link->output, final);
	}
done:
	run_remove_dir(tmp);
	free(tmp);
	free(kobj);
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
	struct step hs, ks, ls;
	uint64_t hkey;
	int rc = -1;

	b->prog = b->log = b->source_hash = b->error = b->note = NULL;
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
	hs = (struct step){ STEP_HARNESS, "harness.cu", b->harness, s.harness, s.harness_len,
			    { NULL, NULL }, "harness.o" };
	ks = (struct step){ STEP_LEARNER, "kernel.cu", b->source, s.learner, s.learner_len,
			    { NULL, NULL }, "kernel.o" };
	ls = (struct step){ STEP_LINK, NULL, NULL, NULL, 0, { "/@harness@.o", "/@kernel@.o" },
			    "prog" };
	hkey = harness_key(b, &s, &hs);
	run_hash_hex(prog_key(b, &s, &ks, &ls, hkey), hex);
	final = path_join(b->cache, hex);
	b->prog = path_join(final, "prog");
	if (access(final, F_OK) == 0 && entry_good(final, "prog")) {
		use_cached(b, final);
		rc = 0;
		goto done;
	}
	if (access(final, F_OK) == 0)
		entry_drop(b, final, "program");
	run_phase(b->req, "compiling");
	if ((rc = harness_object(b, &hs, hkey, &obj)) != 0 || b->failed)
		goto done;
	rc = program(b, &ks, &ls, obj, final);
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
	free(b->note);
	b->prog = b->log = b->source_hash = b->error = b->note = NULL;
}
