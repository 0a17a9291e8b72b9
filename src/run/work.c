/* work.c — the learner's copy of an exercise's starter: made on first
 * use, put back by `cudalab reset` (the old copy kept as .bak). */
#include "cudalab/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/util.h"

/* Copies src to dst (created 0644, or replaced) through a temporary file
 * renamed into place. */
static int copy_file(const char *src, const char *dst)
{
	size_t len;
	char *text = read_file(src, &len), *tmp;
	FILE *f;
	int ok, err;

	if (!text)
		return -1;
	tmp = xasprintf("%s.tmp-%ld", dst, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		err = errno;
		free(text);
		free(tmp);
		errno = err;
		return -1;
	}
	ok = fwrite(text, 1, len, f) == len;
	ok = fclose(f) == 0 && ok;
	ok = ok && rename(tmp, dst) == 0;
	err = errno;
	if (!ok)
		unlink(tmp);
	free(text);
	free(tmp);
	errno = err;
	return ok ? 0 : -1;
}

static char *work_path(const char *home, const struct exercise *ex, char **dir)
{
	*dir = xasprintf("%s/work/%s", home, ex->id);
	return path_join(*dir, "kernel.cu");
}

int run_work_copy(const char *home, const struct exercise *ex, char **path, int *created)
{
	char *dir, *starter;
	int rc = 0;

	*created = 0;
	*path = work_path(home, ex, &dir);
	if (access(*path, F_OK) == 0)
		goto done;
	starter = path_join(ex->dir, "kernel.cu");
	rc = mkdir_p(dir, 0700) == 0 ? copy_file(starter, *path) : -1;
	free(starter);
	*created = rc == 0;
done:
	free(dir);
	if (rc != 0) {
		int err = errno;

		free(*path);
		*path = NULL;
		errno = err;
	}
	return rc;
}

int run_work_reset(const char *home, const struct exercise *ex, char **path, char **bak)
{
	char *dir, *starter = path_join(ex->dir, "kernel.cu");
	int rc = -1, err;

	*bak = NULL;
	*path = work_path(home, ex, &dir);
	if (access(starter, R_OK) != 0 || mkdir_p(dir, 0700) != 0)
		goto done;
	if (access(*path, F_OK) == 0) {
		*bak = xasprintf("%s.bak", *path);
		if (copy_file(*path, *bak) != 0)
			goto done;
	}
	rc = copy_file(starter, *path);
done:
	err = errno;
	if (rc != 0) {
		free(*path);
		free(*bak);
		*path = *bak = NULL;
	}
	free(dir);
	free(starter);
	errno = err;
	return rc;
}
