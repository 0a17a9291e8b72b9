/* probe.c — finding nvcc, a GPU and the simt library. */
#include "cudalab/run.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cudalab/util.h"

static int is_exec(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0;
}

static char *find_in_path(const char *name)
{
	const char *path = getenv("PATH");
	const char *p = path, *colon;

	while (p && *p) {
		colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char *dir = n ? xstrndup(p, n) : xstrdup(".");
		char *cand = path_join(dir, name);

		free(dir);
		if (is_exec(cand))
			return cand;
		free(cand);
		p = colon ? colon + 1 : NULL;
	}
	return NULL;
}

/* nvcc from PATH, then $CUDA_HOME/bin, then /usr/local/cuda/bin. */
static char *find_nvcc(void)
{
	char *p = find_in_path("nvcc");
	const char *home = getenv("CUDA_HOME");

	if (p)
		return p;
	if (home && *home) {
		p = xasprintf("%s/bin/nvcc", home);
		if (is_exec(p))
			return p;
		free(p);
	}
	return is_exec("/usr/local/cuda/bin/nvcc") ? xstrdup("/usr/local/cuda/bin/nvcc") : NULL;
}

/* "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0, V13.0.88". */
static char *nvcc_version(const char *nvcc)
{
	char *argv[] = { (char *)nvcc, "--version", NULL };
	char *out = NULL, *line, *end, *v = NULL;

	if (run_capture(argv, &out, 65536) != 0 || !out)
		goto done;
	line = strstr(out, "release ");
	if (!line)
		goto done;
	line += strlen("release ");
	end = strchr(line, '\n');
	v = end ? xstrndup(line, (size_t)(end - line)) : xstrdup(line);
done:
	free(out);
	return v;
}

static void probe_gpu(struct run_probe *p)
{
	struct stat sb;
	char *smi, *out = NULL;

	if (stat("/dev/nvidiactl", &sb) != 0 || stat("/dev/nvidia0", &sb) != 0) {
		p->why = xstrdup("no NVIDIA device (/dev/nvidia0 is absent)");
		return;
	}
	smi = find_in_path("nvidia-smi");
	if (smi) {
		char *argv[] = { smi, "--query-gpu=name", "--format=csv,noheader", NULL };

		if (run_capture(argv, &out, 65536) == 0 && out && *out) {
			out[strcspn(out, "\n")] = '\0';
			p->gpu = 1;
			p->gpu_name = xstrdup(out);
			p->why = xasprintf("nvidia-smi lists %s", out);
		} else {
			p->why = xstrdup("nvidia-smi found no usable GPU (driver not loaded?)");
		}
		free(out);
		free(smi);
		return;
	}
	p->gpu = 1;
	p->why = xstrdup("/dev/nvidia0 is present (nvidia-smi not found to name it)");
}

/* Beside the running binary (a build directory) or in the data directory. */
static char *find_simt(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash, *cand;

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			cand = path_join(exe, "libcudalab-simt.a");
			if (access(cand, R_OK) == 0)
				return cand;
			free(cand);
		}
	}
	cand = path_join(CUDALAB_DATADIR, "libcudalab-simt.a");
	if (access(cand, R_OK) == 0)
		return cand;
	free(cand);
	return NULL;
}

void run_probe(struct run_probe *p)
{
	memset(p, 0, sizeof *p);
	p->nvcc = find_nvcc();
	if (p->nvcc)
		p->nvcc_version = nvcc_version(p->nvcc);
	probe_gpu(p);
	p->simt_lib = find_simt();
}

void run_probe_free(struct run_probe *p)
{
	free(p->nvcc);
	free(p->nvcc_version);
	free(p->gpu_name);
	free(p->why);
	free(p->simt_lib);
	memset(p, 0, sizeof *p);
}

enum run_backend run_backend_choose(const struct run_probe *p, enum run_backend wanted)
{
	if (wanted != BACKEND_AUTO)
		return wanted;
	return p->gpu ? BACKEND_GPU : BACKEND_SIMT;
}

const char *run_backend_name(enum run_backend b)
{
	switch (b) {
	case BACKEND_GPU:
		return "gpu";
	case BACKEND_SIMT:
		return "simt";
	default:
		return "auto";
	}
}

int run_backend_parse(const char *name, enum run_backend *out)
{
	static const enum run_backend all[] = { BACKEND_AUTO, BACKEND_GPU, BACKEND_SIMT };

	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		if (strcmp(name, run_backend_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	}
	return -1;
}
