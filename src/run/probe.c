/* probe.c — finding nvcc, a GPU and the simt library. */
#include "common.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

/* $CUDALAB_NVCC alone when set; else nvcc from PATH, then $CUDA_HOME/bin,
 * then /usr/local/cuda/bin.  Sets *why when none is found. */
static char *find_nvcc(char **why)
{
	const char *want = getenv("CUDALAB_NVCC");
	const char *home = getenv("CUDA_HOME");
	char *p;

	if (want && *want) {
		p = strchr(want, '/') ? (is_exec(want) ? xstrdup(want) : NULL) : find_in_path(want);
		if (!p)
			*why = xasprintf("nvcc not found: CUDALAB_NVCC=%s is not %s", want,
					 strchr(want, '/') ? "an executable file" : "in PATH");
		return p;
	}
	if ((p = find_in_path("nvcc")))
		return p;
	if (home && *home) {
		p = xasprintf("%s/bin/nvcc", home);
		if (is_exec(p))
			return p;
		free(p);
	}
	if (is_exec("/usr/local/cuda/bin/nvcc"))
		return xstrdup("/usr/local/cuda/bin/nvcc");
	*why = xstrdup("nvcc not found in PATH, $CUDA_HOME/bin or /usr/local/cuda/bin: "
		       "install the CUDA toolkit, or name it in CUDALAB_NVCC");
	return NULL;
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

/* "9.0" -> "sm_90"; NULL when cc is not a compute capability. */
static char *arch_of_cc(const char *cc)
{
	int major, minor, used = 0;

	while (isspace((unsigned char)*cc))
		cc++;
	if (sscanf(cc, "%d.%d%n", &major, &minor, &used) != 2 || major <= 0 || minor < 0 ||
	    minor > 9)
		return NULL;
	while (isspace((unsigned char)cc[used]))
		used++;
	return cc[used] ? NULL : xasprintf("sm_%d%d", major, minor);
}

/* Non-empty lines in s. */
static int count_lines(const char *s)
{
	int n = 0;

	while (*s) {
		size_t len = strcspn(s, "\n");

		n += len > 0;
		s += len;
		s += *s == '\n';
	}
	return n;
}

/* /dev/nvidia0, /dev/nvidia1, ...: one for each GPU. */
static int count_device_nodes(void)
{
	struct stat sb;
	char path[32];
	int n = 0;

	for (;;) {
		snprintf(path, sizeof path, "/dev/nvidia%d", n);
		if (stat(path, &sb) != 0)
			return n;
		n++;
	}
}

/* Asks nvidia-smi for the first GPU's name and compute capability; older
 * drivers know no compute_cap field, so the name alone is asked next.
 * It lists one GPU a line, which counts them. */
static void ask_smi(struct run_probe *p, char *smi)
{
	char *both[] = { smi, "--query-gpu=name,compute_cap", "--format=csv,noheader", NULL };
	char *name[] = { smi, "--query-gpu=name", "--format=csv,noheader", NULL };
	char *out = NULL, *comma;

	if (run_capture(both, &out, 65536) != 0 || !out || !*out) {
		free(out);
		out = NULL;
		if (run_capture(name, &out, 65536) != 0 || !out || !*out) {
			p->why = xstrdup("nvidia-smi found no usable GPU (driver not loaded?)");
			free(out);
			return;
		}
	}
	p->gpu_count = count_lines(out);
	out[strcspn(out, "\n")] = '\0';
	comma = strrchr(out, ',');
	if (comma && (p->gpu_arch = arch_of_cc(comma + 1)))
		*comma = '\0';
	p->gpu = 1;
	p->gpu_name = xstrdup(out);
	p->why = xasprintf("nvidia-smi lists %s", out);
	free(out);
}

static void probe_gpu(struct run_probe *p)
{
	struct stat sb;
	char *smi;

	if (stat("/dev/nvidiactl", &sb) != 0 || stat("/dev/nvidia0", &sb) != 0) {
		p->why = xstrdup("no NVIDIA device (/dev/nvidia0 is absent)");
		return;
	}
	smi = find_in_path("nvidia-smi");
	if (smi) {
		ask_smi(p, smi);
		free(smi);
		return;
	}
	p->gpu = 1;
	p->gpu_count = count_device_nodes();
	p->why = xstrdup("/dev/nvidia0 is present (nvidia-smi not found to name it)");
}

/* CUDALAB_GPU: 0 (none), 1 (one, unprobed) or a compute capability (of
 * one GPU).
 * Returns 1 when it decided. */
static int gpu_from_env(struct run_probe *p)
{
	const char *v = getenv("CUDALAB_GPU");

	if (!v || !*v)
		return 0;
	if (strcmp(v, "0") == 0) {
		p->why = xstrdup("CUDALAB_GPU=0: the GPU is not used");
		return 1;
	}
	p->gpu = 1;
	p->gpu_count = 1;
	p->gpu_arch = strcmp(v, "1") == 0 ? NULL : arch_of_cc(v);
	p->why = xasprintf("CUDALAB_GPU=%s: a usable GPU is assumed", v);
	return 1;
}

/* $CUDALAB_SIMT_LIB, beside the running binary (a build directory), or in
 * the data directory. */
static char *find_simt(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	const char *want = getenv("CUDALAB_SIMT_LIB");
	char *slash, *cand;

	if (want && *want)
		return access(want, R_OK) == 0 ? xstrdup(want) : NULL;

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

/* A library built with SANITIZE=... carries the sanitizers' symbols
 * (the library is mapped, not read: it is megabytes). */
static unsigned simt_sanitizers(const char *lib)
{
	int fd = lib ? open(lib, O_RDONLY | O_CLOEXEC) : -1;
	struct stat sb;
	void *bytes = MAP_FAILED;
	unsigned san = 0;

	if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
		bytes = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (fd >= 0)
		close(fd);
	if (bytes == MAP_FAILED)
		return 0;
	if (memmem(bytes, (size_t)sb.st_size, "__asan_init", strlen("__asan_init")))
		san |= RUN_SAN_ADDRESS;
	if (memmem(bytes, (size_t)sb.st_size, "__ubsan_handle_", strlen("__ubsan_handle_")))
		san |= RUN_SAN_UNDEFINED;
	munmap(bytes, (size_t)sb.st_size);
	return san;
}

static void probe_tools(struct run_probe *p)
{
	p->nvcc = find_nvcc(&p->nvcc_why);
	if (p->nvcc)
		p->nvcc_version = nvcc_version(p->nvcc);
	p->simt_lib = find_simt();
	p->simt_sanitize = simt_sanitizers(p->simt_lib);
}

/* "PATH SIZE INODE MTIME CTIME" of a file: any rewrite, replacement or
 * touch of it changes the line.  "-" for none. */
static void stat_line(struct strbuf *sb, const char *path)
{
	struct stat st;

	if (!path || stat(path, &st) != 0) {
		sb_puts(sb, "-\n");
		return;
	}
	sb_printf(sb, "%s %lld %llu %lld.%09ld %lld.%09ld\n", path, (long long)st.st_size,
		  (unsigned long long)st.st_ino, (long long)st.st_mtim.tv_sec,
		  (long)st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec,
		  (long)st.st_ctim.tv_nsec);
}

/* What the tools are, from the cache when nvcc and the library are the
 * very files the cache saw (their stat lines below), else asked again
 * (nvcc --version, a scan of the library) and kept.  File: the two stat
 * lines, then nvcc's version ("-" for none) and the sanitizer bits. */
static void probe_tools_cached(struct run_probe *p, const char *cache_dir)
{
	char *file = path_join(cache_dir, "tools-probe"), *kept = run_read_text(file, NULL);
	struct strbuf key;
	size_t klen;

	p->nvcc = find_nvcc(&p->nvcc_why);
	p->simt_lib = find_simt();
	sb_init(&key);
	stat_line(&key, p->nvcc);
	stat_line(&key, p->simt_lib);
	klen = key.len;
	if (kept && strncmp(kept, key.s, klen) == 0) {
		char *ver = kept + klen, *nl = strchr(ver, '\n'), *end;
		unsigned long san = nl ? strtoul(nl + 1, &end, 10) : 0;

		if (nl && end != nl + 1 && *end == '\n' && san <= (RUN_SAN_ADDRESS | RUN_SAN_UNDEFINED)) {
			*nl = '\0';
			if (p->nvcc && strcmp(ver, "-") != 0)
				p->nvcc_version = xstrdup(ver);
			p->simt_sanitize = (unsigned)san;
			goto done;
		}
	}
	if (p->nvcc)
		p->nvcc_version = nvcc_version(p->nvcc);
	p->simt_sanitize = simt_sanitizers(p->simt_lib);
	/* a version the cache cannot hold in one line is asked each time */
	if (!p->nvcc_version || !strchr(p->nvcc_version, '\n')) {
		char *tmp = xasprintf("%s.%ld", file, (long)getpid());
		FILE *f;

		sb_printf(&key, "%s\n%u\n", p->nvcc_version ? p->nvcc_version : "-",
			  p->simt_sanitize);
		if (mkdir_p(cache_dir, 0700) == 0 && (f = fopen(tmp, "w"))) {
			int ok = fputs(key.s, f) >= 0;

			if (fclose(f) != 0 || !ok || rename(tmp, file) != 0)
				unlink(tmp);
		}
		free(tmp);
	}
done:
	sb_free(&key);
	free(kept);
	free(file);
}

void run_probe(struct run_probe *p)
{
	memset(p, 0, sizeof *p);
	probe_tools(p);
	if (!gpu_from_env(p))
		probe_gpu(p);
}

/* The boot this machine is in: a GPU found (or not) stays so until the
 * next one.  NULL when unknown. */
static char *boot_id(void)
{
	char *id = run_read_text("/proc/sys/kernel/random/boot_id", NULL);

	if (id)
		id[strcspn(id, "\n")] = '\0';
	if (id && !*id) {
		free(id);
		id = NULL;
	}
	return id;
}

/* Lines: boot id, gpu flag, name, arch, why ("-" for none), GPU count. */
static int load_gpu_cache(struct run_probe *p, const char *file, const char *boot)
{
	char *text = run_read_text(file, NULL), *line[6], *s = text, *end;
	int ok = 0;
	long count;

	for (int i = 0; s && i < 6; i++) {
		line[i] = s;
		s = strchr(s, '\n');
		if (s)
			*s++ = '\0';
		else if (i < 5)
			goto done;
	}
	if (!s || strcmp(line[0], boot) != 0 || (strcmp(line[1], "0") && strcmp(line[1], "1")))
		goto done;
	count = strtol(line[5], &end, 10);
	if (end == line[5] || *end || count < 0 || count > 4096)
		goto done;
	p->gpu_count = (int)count;
	p->gpu = line[1][0] == '1';
	p->gpu_name = strcmp(line[2], "-") ? xstrdup(line[2]) : NULL;
	p->gpu_arch = strcmp(line[3], "-") ? xstrdup(line[3]) : NULL;
	p->why = xstrdup(line[4]);
	ok = 1;
done:
	free(text);
	return ok;
}

static void save_gpu_cache(const struct run_probe *p, const char *dir, const char *file,
			   const char *boot)
{
	char *tmp = xasprintf("%s.%ld", file, (long)getpid());
	FILE *f;

	if (mkdir_p(dir, 0700) != 0 || !(f = fopen(tmp, "w"))) {
		free(tmp);
		return;
	}
	fprintf(f, "%s\n%d\n%s\n%s\n%s\n%d\n", boot, p->gpu, p->gpu_name ? p->gpu_name : "-",
		p->gpu_arch ? p->gpu_arch : "-", p->why ? p->why : "-", p->gpu_count);
	if (fclose(f) != 0 || rename(tmp, file) != 0)
		unlink(tmp);
	free(tmp);
}

void run_probe_cached(struct run_probe *p, const char *cache_dir)
{
	struct stat sb;
	char *boot, *file;

	memset(p, 0, sizeof *p);
	probe_tools_cached(p, cache_dir);
	if (gpu_from_env(p))
		return;
	/* Only nvidia-smi is slow; without a device there is nothing to ask. */
	boot = stat("/dev/nvidia0", &sb) == 0 ? boot_id() : NULL;
	if (!boot) {
		probe_gpu(p);
		return;
	}
	file = path_join(cache_dir, "gpu-probe");
	if (!load_gpu_cache(p, file, boot)) {
		probe_gpu(p);
		save_gpu_cache(p, cache_dir, file, boot);
	}
	free(file);
	free(boot);
}

void run_probe_free(struct run_probe *p)
{
	free(p->nvcc);
	free(p->nvcc_why);
	free(p->nvcc_version);
	free(p->gpu_name);
	free(p->gpu_arch);
	free(p->why);
	free(p->simt_lib);
	memset(p, 0, sizeof *p);
}

int run_backend_ready(const struct run_probe *p, enum run_backend b, char **why)
{
	*why = NULL;
	if (!p->nvcc)
		*why = xstrdup(p->nvcc_why ? p->nvcc_why : "nvcc not found");
	else if (b == BACKEND_GPU && !p->gpu)
		*why = xasprintf("the gpu backend needs a usable GPU: %s; use --backend simt "
				 "(or auto)", p->why ? p->why : "none was found");
	else if (b == BACKEND_SIMT && !p->simt_lib)
		*why = xasprintf("the simt backend needs libcudalab-simt.a, found neither "
				 "beside the cudalab binary nor in %s (run 'make', or set "
				 "CUDALAB_SIMT_LIB)",
				 CUDALAB_DATADIR);
	return *why ? -1 : 0;
}

enum run_backend run_backend_choose(const struct run_probe *p, enum run_backend wanted)
{
	if (wanted != BACKEND_AUTO)
		return wanted;
	return p->gpu ? BACKEND_GPU : BACKEND_SIMT;
}

int run_backend_for(const struct run_probe *p, enum run_backend wanted, int gpus,
		    enum run_backend *out, char **why, char **note)
{
	*why = *note = NULL;
	*out = run_backend_choose(p, wanted);
	if (*out != BACKEND_GPU || gpus <= 1 || p->gpu_count <= 0 || p->gpu_count >= gpus)
		return 0;
	if (wanted == BACKEND_AUTO) {
		*out = BACKEND_SIMT;
		*note = xasprintf("this exercise needs %d GPUs and this machine has %d: it runs "
				  "on simt, which simulates %d devices",
				  gpus, p->gpu_count, gpus);
		return 0;
	}
	*why = xasprintf("this exercise needs %d GPUs and this machine has %d; use --backend "
			 "simt (or auto), which simulates %d devices",
			 gpus, p->gpu_count, gpus);
	return -1;
}

const char *run_backend_name(enum run_backend b)
{
	switch (b) {
	case BACKEND_GPU:
		return "gpu";
	case BACKEND_SIMT:
		return "simt";
	case BACKEND_SSH:
		return "ssh";
	case BACKEND_SLURM:
		return "slurm";
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
