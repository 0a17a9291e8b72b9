/* program.c — building any CUDA program for `cudalab run`: the learner's
 * own files compiled for the chosen backend into a temporary directory. */
#include "common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cudalab/util.h"

#define LOG_CAP (1u << 20)
#define COMPILE_TIMEOUT_S 300.0

static char *temp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = xasprintf("%s/cudalab-run-XXXXXX", base && *base ? base : "/tmp");

	if (!mkdtemp(dir)) {
		free(dir);
		return NULL;
	}
	return dir;
}

int run_program_build(const struct run_program *p, const struct run_probe *probe, char **exe,
		      char **log)
{
	struct run_nvcc n;
	struct run_child c;
	char *dir, **argv;
	int rc;

	*exe = NULL;
	if (!(dir = temp_dir())) {
		*log = xasprintf("cannot create a temporary directory: %s", strerror(errno));
		return -1;
	}
	memset(&n, 0, sizeof n);
	n.nvcc = probe->nvcc;
	n.backend = p->backend;
	n.gpu_arch = probe->gpu_arch;
	n.simt_lib = probe->simt_lib;
	n.simt_sanitize = probe->simt_sanitize;
	n.includes = p->includes;
	n.n_includes = p->n_includes;
	n.defines = p->defines;
	n.n_defines = p->n_defines;
	n.sources = p->sources;
	n.n_sources = p->n_sources;
	n.output = *exe = path_join(dir, "prog");
	for (size_t i = 0; i < p->n_sources; i++)
		n.libs |= run_source_file_libs(p->sources[i], p->includes, p->n_includes);
	argv = run_nvcc_argv(&n);
	memset(&c, 0, sizeof c);
	c.argv = argv;
	c.cap = LOG_CAP;
	c.merge = 1;
	c.timeout_s = COMPILE_TIMEOUT_S;
	if (run_child_exec(&c) != 0) {
		*log = xasprintf("cannot run %s: %s", probe->nvcc, strerror(errno));
		rc = -1;
	} else if (c.timed_out) {
		*log = xasprintf("%snvcc timed out after %.0f s\n", c.out, c.wall_s);
		rc = 1;
	} else {
		*log = xstrdup(c.out);
		rc = WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0 ? 0 : 1;
	}
	run_child_free(&c);
	run_argv_free(argv);
	if (rc != 0) {
		run_remove_dir(dir);
		free(*exe);
		*exe = NULL;
	}
	free(dir);
	return rc;
}

void run_program_clean(char *exe)
{
	char *slash;

	if (!exe)
		return;
	slash = strrchr(exe, '/');
	if (slash) {
		*slash = '\0';
		run_remove_dir(exe);
	}
	free(exe);
}
