/* common.c — what every stage of a check uses: progress, files, the
 * harness library's place, names and limits. */
#include "common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/util.h"

const char *run_mode_name(enum run_mode m)
{
	return m == RUN_BENCH ? "bench" : "check";
}

const char *run_status_name(enum run_status s)
{
	static const char *const names[] = {
		[RUN_PASS] = "pass",
		[RUN_WRONG] = "wrong",
		[RUN_COMPILE_ERROR] = "compile_error",
		[RUN_RUNTIME_ERROR] = "runtime_error",
		[RUN_TIMEOUT] = "timeout",
		[RUN_HAZARD] = "hazard",
	};

	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "runtime_error";
}

/* Emulation is far slower than a GPU, so simt gets more time. */
double run_default_timeout(enum run_mode m, enum run_backend b)
{
	if (b == BACKEND_SIMT)
		return m == RUN_BENCH ? 180 : 60;
	return m == RUN_BENCH ? 60 : 10;
}

int run_gpus_needed(const struct run_request *req)
{
	return req->ex && req->ex->gpus > 1 ? req->ex->gpus : 1;
}

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

/* The last non-empty line of text (often the error a program printed
 * before it gave up), or NULL. */
char *run_last_line(const char *text)
{
	const char *end = text ? text + strlen(text) : NULL, *start;

	if (!end)
		return NULL;
	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	if (end == text)
		return NULL;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	if (end - start > 200)
		end = start + 200;
	return xstrndup(start, (size_t)(end - start));
}

/* text with every occurrence of from replaced by to (caller frees). */
char *run_replace_all(const char *text, const char *from, const char *to)
{
	struct strbuf sb;
	size_t n = strlen(from);

	sb_init(&sb);
	for (const char *p = text, *q; *p; p = q + n) {
		q = n ? strstr(p, from) : NULL;
		if (!q) {
			sb_puts(&sb, p);
			break;
		}
		sb_append(&sb, p, (size_t)(q - p));
		sb_puts(&sb, to);
	}
	return sb_steal(&sb);
}

char *run_read_source(const char *path, size_t *len, char **why)
{
	/* no blocking on a FIFO: its open returns at once, and fstat says */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	char *text = NULL;
	size_t got = 0;

	if (fd < 0) {
		*why = xasprintf("cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		*why = xasprintf("%s is not a regular file (a source file is: not a device, a "
				 "FIFO or a directory)", path);
	} else if ((unsigned long long)sb.st_size > RUN_SOURCE_CAP) {
		*why = xasprintf("%s is %lld bytes: a source file may have at most %u MiB", path,
				 (long long)sb.st_size, RUN_SOURCE_CAP >> 20);
	} else {
		text = xmalloc((size_t)sb.st_size + 1);
		for (;;) {
			ssize_t n = read(fd, text + got, (size_t)sb.st_size - got);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0 || (got += (size_t)n) == (size_t)sb.st_size)
				break;
		}
		text[got] = '\0';
	}
	close(fd);
	if (len)
		*len = got;
	return text;
}
