/* Registers and shared memory from the real compiler, and occupancy.
 *
 * simt runs PTX, but occupancy depends on what ptxas makes of it for the
 * target: the registers it allocates, its static shared memory, its
 * spills.  So the model runs `ptxas -arch=sm_XY -v` on the module's own
 * PTX and reads its report, once per text and architecture (kept on disk
 * under the cache directory), and the occupancy follows the rules of the
 * CUDA occupancy calculator (cuda_occupancy.h): warps, registers
 * allocated per warp in units of reg_alloc_unit within each of the four
 * sub-partitions, shared memory in units of shared_alloc_unit with the
 * per-block reserve, and the block limit. */
#include "perf/resources.h"
#include "perf/gpu.h"
#include "base/base.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- reading ptxas's report ---- */

static const char *find_after(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? p + strlen(key) : NULL;
}

/* The number before `unit` on the line [s, e), or 0. */
static uint32_t number_before(const char *s, const char *e, const char *unit)
{
	size_t n = strlen(unit);
	const char *p;

	for (p = s; p + n <= e; p++)
		if (memcmp(p, unit, n) == 0) {
			const char *q = p;

			while (q > s && q[-1] == ' ')
				q--;
			while (q > s && q[-1] >= '0' && q[-1] <= '9')
				q--;
			return (uint32_t)strtoul(q, NULL, 10);
		}
	return 0;
}

int simt_kres_parse(const char *log, const char *func, struct simt_kres *out)
{
	char *key = simt_xasprintf("Function properties for %s\n", func);
	const char *p = strstr(log, key), *e;

	free(key);
	if (!p)
		return -1;
	memset(out, 0, sizeof *out);
	p = strchr(p, '\n') + 1;
	e = strchr(p, '\n');
	if (!e)
		return -1;
	out->stack = number_before(p, e, " bytes stack frame");
	out->spill_stores = number_before(p, e, " bytes spill stores");
	out->spill_loads = number_before(p, e, " bytes spill loads");
	p = find_after(e, "Used ");
	if (!p)
		return -1;
	e = strchr(p, '\n');
	if (!e)
		e = p + strlen(p);
	out->regs = (int)strtol(p, NULL, 10);
	{
		const char *b = strstr(p, "used ");

		if (b && b < e)
			out->barriers = (int)strtol(b + 5, NULL, 10);
	}
	out->smem_static = number_before(p, e, " bytes smem");
	out->known = true;
	return 0;
}

/* ---- running ptxas ---- */

static char *ptxas_path(void)
{
	const char *env = getenv("CUDALAB_PTXAS"), *nvcc = getenv("CUDALAB_NVCC");
	const char *cuda = getenv("CUDA_HOME"), *path = getenv("PATH");
	char *p;

	if (env && *env)
		return simt_xstrdup(env);
	if (nvcc && strchr(nvcc, '/')) {
		const char *slash = strrchr(nvcc, '/');

		p = simt_xasprintf("%.*s/ptxas", (int)(slash - nvcc), nvcc);
		if (access(p, X_OK) == 0)
			return p;
		free(p);
	}
	if (path) {
		char *list = simt_xstrdup(path), *save = NULL, *d;

		for (d = strtok_r(list, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			p = simt_xasprintf("%s/ptxas", *d ? d : ".");
			if (access(p, X_OK) == 0) {
				free(list);
				return p;
			}
			free(p);
		}
		free(list);
	}
	if (cuda && *cuda) {
		p = simt_xasprintf("%s/bin/ptxas", cuda);
		if (access(p, X_OK) == 0)
			return p;
		free(p);
	}
	if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0)
		return simt_xstrdup("/usr/local/cuda/bin/ptxas");
	return NULL;
}

static char *cache_dir(void)
{
	const char *c = getenv("CUDALAB_SIMT_CACHE"), *x = getenv("XDG_CACHE_HOME");
	const char *h = getenv("HOME");

	if (c && *c)
		return simt_xstrdup(c);
	if (x && *x)
		return simt_xasprintf("%s/cudalab/ptxas", x);
	if (h && *h)
		return simt_xasprintf("%s/.cache/cudalab/ptxas", h);
	return NULL;
}

static void mkdirs(const char *dir)
{
	char *p = simt_xstrdup(dir), *s;

	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
	free(p);
}

static uint64_t fnv1a(const char *s, size_t n, uint64_t h)
{
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static char *read_all_fd(int fd)
{
	struct simt_buf b = {0};
	char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			simt_buf_add(&b, buf, (size_t)n);
	simt_buf_add(&b, "", 1);
	return b.s;
}

static char *read_file_text(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *s;

	if (fd < 0)
		return NULL;
	s = read_all_fd(fd);
	close(fd);
	return s;
}

/* Runs ptxas on the text; returns its report (stdout and stderr), or
 * NULL with the reason in why. */
static char *run_ptxas(const char *ptx, size_t len, const char *arch,
		       char *why, size_t whylen)
{
	char *exe = ptxas_path(), *log = NULL;
	char tmpl[] = "/tmp/cudalab-ptxas-XXXXXX";
	char archopt[32];
	int fd, pipefd[2], status;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	if (!exe) {
		snprintf(why, whylen, "ptxas not found (set CUDALAB_PTXAS or put the CUDA toolkit on PATH)");
		return NULL;
	}
	fd = mkstemp(tmpl);
	if (fd < 0 || write(fd, ptx, len) != (ssize_t)len) {
		snprintf(why, whylen, "cannot write a temporary file: %s", strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmpl);
		}
		free(exe);
		return NULL;
	}
	close(fd);
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		unlink(tmpl);
		free(exe);
		return NULL;
	}
	snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	{
		char *argv[] = { exe, archopt, (char *)"-v", tmpl, (char *)"-o",
				 (char *)"/dev/null", NULL };

		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
		if (posix_spawn(&pid, exe, &fa, NULL, argv, environ) != 0) {
			snprintf(why, whylen, "cannot run %s", exe);
			pid = -1;
		}
		posix_spawn_file_actions_destroy(&fa);
	}
	close(pipefd[1]);
	if (pid > 0) {
		log = read_all_fd(pipefd[0]);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			const char *err = strstr(log, "error");

			snprintf(why, whylen, "ptxas -arch=%s refused the PTX%s%.100s", arch,
				 err ? ": " : "", err ? err : "");
			free(log);
			log = NULL;
		}
	}
	close(pipefd[0]);
	unlink(tmpl);
	free(exe);
	return log;
}

/* The report for this text and architecture: from the cache, or from
 * ptxas (then cached). */
static char *report_for(const char *ptx, size_t len, const char *arch,
			char *why, size_t whylen)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	char *dir = cache_dir(), *path = NULL, *log = NULL;
	uint64_t h = fnv1a(arch, strlen(arch), fnv1a(ptx, len, 0xcbf29ce484222325ull));

	pthread_mutex_lock(&lock);
	if (dir) {
		path = simt_xasprintf("%s/%016llx-%s.txt", dir, (unsigned long long)h, arch);
		log = read_file_text(path);
	}
	if (!log) {
		log = run_ptxas(ptx, len, arch, why, whylen);
		if (log && path) {
			char *tmp = simt_xasprintf("%s.%d", path, (int)getpid());
			FILE *f;

			mkdirs(dir);
			f = fopen(tmp, "w");
			if (f && fputs(log, f) >= 0 && fclose(f) == 0)
				rename(tmp, path);
			else if (f)
				fclose(f);
			unlink(tmp);
			free(tmp);
		}
	}
	pthread_mutex_unlock(&lock);
	free(dir);
	free(path);
	return log;
}

/* The text with its `.target` line naming `arch`: PTX built for a newer
 * GPU than the one predicted often uses nothing of the newer one. */
static char *retarget(const char *ptx, size_t len, const char *arch, size_t *outlen)
{
	const char *t = NULL, *e, *p;
	struct simt_buf b = {0};

	for (p = ptx; p + 7 < ptx + len; p++)
		if (memcmp(p, ".target", 7) == 0 && (p == ptx || p[-1] == '\n')) {
			t = p;
			break;
		}
	if (!t)
		return NULL;
	e = memchr(t, '\n', (size_t)(ptx + len - t));
	if (!e)
		return NULL;
	simt_buf_add(&b, ptx, (size_t)(t - ptx));
	simt_buf_printf(&b, ".target %s", arch);
	simt_buf_add(&b, e, (size_t)(ptx + len - e));
	*outlen = b.len;
	return b.s;
}

void simt_kres_get(const char *ptx, size_t len, const char *arch,
		   const char *func, struct simt_kres *out)
{
	char why[160] = "";
	char *log = report_for(ptx, len, arch, why, sizeof why);
	/* CUDA 13's ptxas no longer targets sm_70: the nearest it does */
	const char *near = strcmp(arch, "sm_70") == 0 || strcmp(arch, "sm_72") == 0
			   ? "sm_75" : NULL;

	if (!log && near) {
		log = report_for(ptx, len, near, why, sizeof why);
		if (log && simt_kres_parse(log, func, out) == 0) {
			snprintf(out->note, sizeof out->note,
				 "ptxas for %s (this toolkit cannot target %s)", near, arch);
			free(log);
			return;
		}
	}
	if (!log) {
		size_t n;
		char *again = retarget(ptx, len, near ? near : arch, &n);

		if (again) {
			log = report_for(again, n, near ? near : arch, why, sizeof why);
			free(again);
			if (log && simt_kres_parse(log, func, out) == 0) {
				snprintf(out->note, sizeof out->note,
					 "ptxas for %s on the PTX retargeted from its .target",
					 near ? near : arch);
				free(log);
				return;
			}
		}
	}
	if (log && simt_kres_parse(log, func, out) == 0) {
		free(log);
		return;
	}
	if (log)
		snprintf(why, sizeof why, "ptxas did not report on %s", func);
	free(log);
	memset(out, 0, sizeof *out);
	/* a middling guess; the report says it is one */
	out->regs = 32;
	snprintf(out->why, sizeof out->why, "%s", why);
}

/* ---- occupancy ---- */

static int round_up(int x, int unit)
{
	return unit > 0 ? (x + unit - 1) / unit * unit : x;
}

void simt_occ_compute(const struct simt_gpu *g, int threads, int regs,
		      uint32_t smem, struct simt_occ *o)
{
	int wpb = (threads + 31) / 32, i;
	int max_warps = (int)g->max_threads_per_sm / 32;
	int unit = (int)g->reg_alloc_unit;
	uint32_t reserve = (uint32_t)g->shared_reserved_per_block;
	uint32_t limit_block = (uint32_t)(g->shared_per_block_kb * 1024) + reserve;
	uint32_t per_sm = (uint32_t)(g->shared_per_sm_kb * 1024);
	uint32_t need;

	memset(o, 0, sizeof *o);
	o->warps_per_block = wpb;
	if (threads <= 0 || threads > (int)g->max_threads_per_block)
		return;
	o->by_warps = max_warps / wpb;
	o->by_blocks = (int)g->max_blocks_per_sm;
	if (regs <= 0) {
		o->by_regs = INT_MAX;
	} else {
		int per_warp = round_up(regs * 32, unit);
		int subs = (int)g->schedulers_per_sm;
		int per_sub = (int)g->regs_per_sm / subs / per_warp;

		if (regs > (int)g->max_regs_per_thread ||
		    per_warp * round_up(wpb, subs) > (int)g->regs_per_sm)
			o->by_regs = 0;
		else
			o->by_regs = per_sub * subs / wpb;
	}
	o->smem_alloc = (uint32_t)round_up((int)(smem + reserve), (int)g->shared_alloc_unit);
	if (o->smem_alloc > limit_block)
		o->by_smem = 0;
	else
		o->by_smem = o->smem_alloc ? (int)(per_sm / o->smem_alloc) : INT_MAX;
	o->blocks = o->by_warps;
	o->limiter = "warps";
	if (o->by_regs < o->blocks) {
		o->blocks = o->by_regs;
		o->limiter = "registers";
	}
	if (o->by_smem < o->blocks) {
		o->blocks = o->by_smem;
		o->limiter = "shared memory";
	}
	if (o->by_blocks < o->blocks) {
		o->blocks = o->by_blocks;
		o->limiter = "blocks";
	}
	/* the smallest carveout that holds the resident blocks' shared
	 * memory; the rest of the unified storage is L1 */
	need = (uint32_t)o->blocks * o->smem_alloc;
	o->carveout_kb = g->shared_per_sm_kb;
	for (i = 0; i < g->ncarveouts; i++)
		if (g->carveouts_kb[i] * 1024 >= need && g->carveouts_kb[i] < o->carveout_kb)
			o->carveout_kb = g->carveouts_kb[i];
	o->l1_kb = g->l1_shared_kb - o->carveout_kb;
	if (o->l1_kb < 0)
		o->l1_kb = 0;
}
