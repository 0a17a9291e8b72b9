/* remote.c — checks on a GPU elsewhere: over the learner's own ssh, or as
 * a SLURM job from a cluster's login node.
 *
 * Both run `cudalab remote --protocol N` on the far side and talk to it
 * through its stdin and stdout.  The request is a small text bundle: a
 * header (mode, exercise id, seed, timeout), then the files a build needs
 * (the exercise directory, lab.h and its parts, the learner's file), each as
 * "file NAME SIZE\n", SIZE bytes and a newline, then "end\n".  The far side answers
 * with a greeting ("cudalab-remote N VERSION"), any number of
 * "phase TEXT" lines, then either "result SIZE\n" and the result JSON or
 * "error TEXT".  It builds and runs exactly as a local check does (a GPU
 * there, else simt) and keeps its build cache under its own
 * CUDALAB_HOME/remote.  The near side keeps the far side's stdin open while
 * it waits: when the connection drops or the check is cancelled, the far
 * side sees end of file and kills what it started.
 *
 * One file of more than 1,500 lines, because the near and far sides of
 * the protocol are read and changed together: the request's text form,
 * its parser, the far side's server and the near side's transport each
 * follow the other line for line. */
#include "internal.h"

#include <cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/util.h"

#define FILE_CAP (4u << 20)   /* one file of a request */
#define BUNDLE_CAP (16u << 20) /* a whole request */
#define RESULT_CAP (8u << 20)
#define GRACE_S 5.0            /* after a cancel, before the far side is killed */

/* --- the request -------------------------------------------------------- */

void run_remote_request_free(struct run_remote_request *rq)
{
	for (size_t i = 0; i < rq->n_files; i++) {
		free(rq->files[i].name);
		free(rq->files[i].data);
	}
	free(rq->files);
	free(rq->exercise);
	for (size_t i = 0; i < rq->n_args; i++)
		free(rq->args[i]);
	free(rq->args);
	for (size_t i = 0; i < rq->n_defines; i++)
		free(rq->defines[i]);
	free(rq->defines);
	memset(rq, 0, sizeof *rq);
}

/* Exercise ids as the catalog allows them: lower case, digits, '-', '_'. */
static int good_id(const char *s)
{
	if (!*s || strlen(s) > 64)
		return 0;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-' &&
		    *s != '_')
			return 0;
	return 1;
}

/* Whether name is that of a part of the harness library: letters, digits,
 * '_' and '-', then ".h". */
static int lab_part_name(const char *name)
{
	size_t n = strlen(name);

	if (n < 3 || n > 64 || !str_ends(name, ".h"))
		return 0;
	for (size_t i = 0; i < n - 2; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("_-", name[i]))
			return 0;
	return 1;
}

/* A file name of a request: "exercise/NAME", "include/cudalab/lab.h",
 * "include/cudalab/lab/PART.h" or "source/NAME", NAME one plain file name
 * (no directories, no dot first). */
int run_remote_good_name(const char *name)
{
	const char *base;

	if (strcmp(name, "include/cudalab/lab.h") == 0)
		return 1;
	if (str_starts(name, "include/cudalab/lab/"))
		return lab_part_name(name + strlen("include/cudalab/lab/"));
	if (str_starts(name, "exercise/"))
		base = name + strlen("exercise/");
	else if (str_starts(name, "source/"))
		base = name + strlen("source/");
	else
		return 0;
	if (!*base || *base == '.' || strlen(base) > 128)
		return 0;
	for (; *base; base++)
		if (!isalnum((unsigned char)*base) && !strchr("._-+", *base))
			return 0;
	return 1;
}

/* "NAME SIZE\n", the bytes and a newline. */
static void framed(struct strbuf *sb, const char *name, const char *data, size_t len)
{
	sb_printf(sb, "%s %zu\n", name, len);
	sb_append(sb, data, len);
	sb_putc(sb, '\n');
}

void run_remote_request_text(const struct run_remote_request *rq, struct strbuf *sb)
{
	if (rq->program)
		sb_printf(sb, "cudalab-remote %d\nmode run\ntimeout %g\n", RUN_REMOTE_PROTOCOL,
			  rq->timeout_s);
	else
		sb_printf(sb, "cudalab-remote %d\nmode %s\nexercise %s\nseed %ld\ntimeout %g\n",
			  RUN_REMOTE_PROTOCOL, run_mode_name(rq->mode), rq->exercise, rq->seed,
			  rq->timeout_s);
	/* only when more than one, so that other requests read as before */
	if (!rq->program && rq->gpus > 1)
		sb_printf(sb, "gpus %d\n", rq->gpus);
	for (size_t i = 0; i < rq->n_args; i++)
		framed(sb, "arg", rq->args[i], strlen(rq->args[i]));
	for (size_t i = 0; i < rq->n_defines; i++)
		framed(sb, "define", rq->defines[i], strlen(rq->defines[i]));
	for (size_t i = 0; i < rq->n_files; i++) {
		char *head = xasprintf("file %s", rq->files[i].name);

		framed(sb, head, rq->files[i].data, rq->files[i].len);
		free(head);
	}
	sb_puts(sb, "end\n");
}

/* The line at *p (up to '\n', which must be there), advanced past it. */
static int take_line(const char **p, const char *end, char *out, size_t size)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	size_t len;

	if (!nl)
		return -1;
	len = (size_t)(nl - *p);
	if (len >= size)
		return -1;
	memcpy(out, *p, len);
	out[len] = '\0';
	*p = nl + 1;
	return 0;
}

static void add_file(struct run_remote_request *rq, const char *name, const char *data,
		     size_t len)
{
	rq->files = xrealloc(rq->files, (rq->n_files + 1) * sizeof *rq->files);
	rq->files[rq->n_files].name = xstrdup(name);
	rq->files[rq->n_files].data = xmalloc(len + 1);
	memcpy(rq->files[rq->n_files].data, data, len);
	rq->files[rq->n_files].data[len] = '\0';
	rq->files[rq->n_files].len = len;
	rq->n_files++;
}

int run_remote_request_parse(const char *buf, size_t len, struct run_remote_request *rq,
			     char **error)
{
	const char *p = buf, *end = buf + len;
	char line[512], word[32], arg[400];
	int have = 0, protocol = -1;

	memset(rq, 0, sizeof *rq);
	rq->seed = -1;
	rq->gpus = 1;
	*error = NULL;
	if (take_line(&p, end, line, sizeof line) != 0 ||
	    sscanf(line, "cudalab-remote %d", &protocol) != 1) {
		*error = xstrdup("the request does not start with \"cudalab-remote N\"");
		return -1;
	}
	if (protocol != RUN_REMOTE_PROTOCOL) {
		*error = xasprintf("protocol %d asked for; this side (cudalab %s) speaks protocol "
				   "%d", protocol, CUDALAB_VERSION, RUN_REMOTE_PROTOCOL);
		return -1;
	}
	for (;;) {
		char name[300];
		unsigned long size;
		int n = 0;

		if (take_line(&p, end, line, sizeof line) != 0) {
			*error = xstrdup("the request ends before \"end\"");
			goto fail;
		}
		if (strcmp(line, "end") == 0)
			break;
		if (sscanf(line, "%31s %399[^\n]%n", word, arg, &n) != 2 || line[n] != '\0') {
			*error = xasprintf("bad request line \"%.80s\"", line);
			goto fail;
		}
		if (strcmp(word, "mode") == 0 && (strcmp(arg, "check") == 0 ||
						  strcmp(arg, "bench") == 0 || strcmp(arg, "run") == 0)) {
			rq->mode = strcmp(arg, "bench") == 0 ? RUN_BENCH : RUN_CHECK;
			rq->program = strcmp(arg, "run") == 0;
			have |= 1;
		} else if ((strcmp(word, "arg") == 0 || strcmp(word, "define") == 0) &&
			   sscanf(arg, "%lu%n", &size, &n) == 1 && arg[n] == '\0') {
			int is_arg = strcmp(word, "arg") == 0;
			char ***v = is_arg ? &rq->args : &rq->defines;
			size_t *count = is_arg ? &rq->n_args : &rq->n_defines;

			if (size > 4096 || *count >= 256 || (size_t)(end - p) < size + 1 ||
			    p[size] != '\n' || memchr(p, '\0', size)) {
				*error = xasprintf("bad %s of %lu bytes", word, size);
				goto fail;
			}
			*v = xrealloc(*v, (*count + 1) * sizeof **v);
			(*v)[(*count)++] = xstrndup(p, size);
			p += size + 1;
		} else if (strcmp(word, "exercise") == 0 && good_id(arg) && !rq->exercise) {
			rq->exercise = xstrdup(arg);
			have |= 2;
		} else if (strcmp(word, "seed") == 0 && sscanf(arg, "%ld%n", &rq->seed, &n) == 1 &&
			   arg[n] == '\0' && rq->seed >= -1) {
			have |= 4;
		} else if (strcmp(word, "gpus") == 0 && !rq->program &&
			   sscanf(arg, "%d%n", &rq->gpus, &n) == 1 && arg[n] == '\0' &&
			   rq->gpus >= 1 && rq->gpus <= 64) {
			/* optional */
		} else if (strcmp(word, "timeout") == 0 &&
			   sscanf(arg, "%lf%n", &rq->timeout_s, &n) == 1 && arg[n] == '\0' &&
			   rq->timeout_s >= 0 && rq->timeout_s <= 86400) {
			have |= 8;
		} else if (strcmp(word, "file") == 0 &&
			   sscanf(arg, "%299s %lu%n", name, &size, &n) == 2 && arg[n] == '\0') {
			if (!run_remote_good_name(name)) {
				*error = xasprintf("bad file name \"%.80s\"", name);
				goto fail;
			}
			if (size > FILE_CAP || (size_t)(end - p) < size + 1 || p[size] != '\n' ||
			    len > BUNDLE_CAP) {
				*error = xasprintf("file %s: %lu bytes %s", name, size,
						   size > FILE_CAP ? "is too large" : "are not all there");
				goto fail;
			}
			for (size_t i = 0; i < rq->n_files; i++)
				if (strcmp(rq->files[i].name, name) == 0) {
					*error = xasprintf("file %s sent twice", name);
					goto fail;
				}
			add_file(rq, name, p, size);
			p += size + 1; /* and the newline after the bytes */
		} else {
			*error = xasprintf("bad request line \"%.80s\"", line);
			goto fail;
		}
	}
	if (rq->program ? (have & 9) != 9 || (have & 6) : have != 15) {
		*error = xstrdup(rq->program ? "a run request takes mode and timeout, and no "
					       "exercise or seed"
					     : "the request lacks mode, exercise, seed or timeout");
		goto fail;
	}
	if (!rq->program && (rq->n_args || rq->n_defines)) {
		*error = xstrdup("a check request takes no arg or define");
		goto fail;
	}
	return 0;
fail:
	run_remote_request_free(rq);
	return -1;
}

/* --- the far side --------------------------------------------------------- */

struct serve {
	int out;
	pthread_mutex_t mu;
	volatile sig_atomic_t cancel;
	const char *strip; /* a far-side directory not worth showing ("DIR/") */
};

static volatile sig_atomic_t *serve_cancel;

static void on_hangup(int sig)
{
	(void)sig;
	if (serve_cancel)
		*serve_cancel = 1;
}

static void send_all(struct serve *s, const char *data, size_t len)
{
	pthread_mutex_lock(&s->mu);
	while (len > 0) {
		ssize_t n = write(s->out, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			s->cancel = 1; /* the near side is gone */
			break;
		}
		data += n;
		len -= (size_t)n;
	}
	pthread_mutex_unlock(&s->mu);
}

static void send_line(struct serve *s, const char *fmt, ...) UTIL_PRINTF(2, 3);

static void send_line(struct serve *s, const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	sb_init(&sb);
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	for (char *c = sb.s; c && *c; c++)
		if (*c == '\n')
			*c = ' ';
	sb_putc(&sb, '\n');
	send_all(s, sb.s, sb.len);
	sb_free(&sb);
}

static void serve_phase(void *ctx, const char *phase)
{
	send_line(ctx, "phase %s", phase);
}

/* Reads the near side's stdin until it closes: then the check is
 * cancelled (the connection dropped, or the learner cancelled). */
static void *watch_stdin(void *arg)
{
	struct serve *s = arg;
	char buf[256];

	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof buf);

		if (n == 0 || (n < 0 && errno != EINTR))
			break;
	}
	s->cancel = 1;
	return NULL;
}

/* Reads the whole request: everything up to and including "end\n" at the
 * start of a line after the last file.  The near side keeps stdin open
 * afterwards, so the end is found by parsing as bytes arrive. */
static int read_request(struct strbuf *sb, struct run_remote_request *rq, char **error)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof buf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (run_remote_request_parse(sb->s ? sb->s : "", sb->len, rq, error) == 0)
				return 0;
			return -1;
		}
		sb_append(sb, buf, (size_t)n);
		if (sb->len > BUNDLE_CAP) {
			*error = xstrdup("the request is too large");
			return -1;
		}
		if (sb->len >= 4 && memcmp(sb->s + sb->len - 4, "end\n", 4) == 0) {
			if (run_remote_request_parse(sb->s, sb->len, rq, error) == 0)
				return 0;
			/* "end\n" inside a file: read on, unless the request is bad */
			if (!strstr(*error, "not all there") && !strstr(*error, "ends before")) {
				return -1;
			}
			free(*error);
			*error = NULL;
		}
	}
}

static int write_whole(const char *path, const char *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	int ok;

	if (!f) {
		free(tmp);
		return -1;
	}
	ok = fwrite(data, 1, len, f) == len;
	ok = fclose(f) == 0 && ok;
	ok = ok && rename(tmp, path) == 0;
	if (!ok)
		unlink(tmp);
	free(tmp);
	return ok ? 0 : -1;
}

/* Lays the request's files out under dir: dir/exercise/..., dir/include/
 * cudalab/lab.h and lab/..., dir/source/NAME.  Files of the exercise
 * directory and of the harness library that the request does not carry
 * are removed (a header dropped there must not linger).  *source gets the
 * learner's file. */
static int lay_out(const char *dir, const struct run_remote_request *rq, char **source,
		   char **error)
{
	const char *subs[] = { "exercise", "include/cudalab", "include/cudalab/lab", "source" };

	*source = NULL;
	for (size_t i = 0; i < 4; i++) {
		char *d = path_join(dir, subs[i]);

		if (i != 1)
			run_remove_dir(d);
		if (mkdir_p(d, 0700) != 0) {
			*error = xasprintf("cannot make %s: %s", d, strerror(errno));
			free(d);
			return -1;
		}
		free(d);
	}
	for (size_t i = 0; i < rq->n_files; i++) {
		char *path = path_join(dir, rq->files[i].name);

		if (write_whole(path, rq->files[i].data, rq->files[i].len) != 0) {
			*error = xasprintf("cannot write %s: %s", path, strerror(errno));
			free(path);
			return -1;
		}
		if (str_starts(rq->files[i].name, "source/") && !*source)
			*source = xstrdup(path);
		free(path);
	}
	if (!*source) {
		*error = xstrdup("the request carries no source file");
		return -1;
	}
	return 0;
}

static int serve_check(struct serve *s, const char *home, const struct run_remote_request *rq)
{
	char *dir = xasprintf("%s/remote/%s", home, rq->exercise), *lock, *source = NULL;
	char *exdir = path_join(dir, "exercise"), *error = NULL, *harness;
	struct exercise ex;
	struct run_request req;
	struct run_result res;
	int fd, rc;

	if (mkdir_p(dir, 0700) != 0) {
		send_line(s, "error cannot make %s: %s", dir, strerror(errno));
		free(dir);
		free(exdir);
		return 2;
	}
	/* one check per exercise at a time: the build cache keys on paths */
	lock = path_join(dir, ".lock");
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	free(lock);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
		send_line(s, "phase waiting for another check of %s on this machine", rq->exercise);
		while (flock(fd, LOCK_EX) != 0 && errno == EINTR && !s->cancel)
			;
	}
	if (lay_out(dir, rq, &source, &error) != 0) {
		send_line(s, "error %s", error);
		rc = 2;
		goto done;
	}
	harness = path_join(exdir, "harness.cu");
	if (access(harness, R_OK) != 0) {
		send_line(s, "error the request carries no exercise/harness.cu");
		free(harness);
		rc = 2;
		goto done;
	}
	free(harness);
	memset(&ex, 0, sizeof ex);
	ex.id = rq->exercise;
	ex.title = rq->exercise;
	ex.dir = exdir;
	ex.path = exdir;
	ex.gpus = rq->gpus;
	memset(&req, 0, sizeof req);
	req.ex = &ex;
	req.source = source;
	req.home = home;
	req.content = dir; /* lab.h is looked for in dir/include */
	req.mode = rq->mode;
	req.backend = BACKEND_AUTO;
	req.timeout_s = rq->timeout_s;
	req.seed = rq->seed;
	req.progress = serve_phase;
	req.progress_ctx = s;
	req.cancel = &s->cancel;
	send_line(s, "source %s", source);
	if (run_exercise(&req, &res) != 0) {
		send_line(s, "error %s", s->cancel ? "cancelled" : res.error ? res.error
								: "cannot run");
		rc = 2;
	} else {
		char head[64];

		snprintf(head, sizeof head, "result %zu\n", strlen(res.json));
		send_all(s, head, strlen(head));
		send_all(s, res.json, strlen(res.json));
		send_all(s, "\n", 1);
		rc = 0;
	}
	run_result_free(&res);
done:
	if (fd >= 0)
		close(fd);
	free(source);
	free(error);
	free(exdir);
	free(dir);
	return rc;
}

/* What the far side has, as one JSON object: version, protocol, nvcc,
 * GPU. */
static void serve_doctor(struct serve *s, const char *home)
{
	struct run_probe probe;
	char *cache = path_join(home, "cache"), *text;
	cJSON *o = cJSON_CreateObject();

	run_probe_cached(&probe, cache);
	cJSON_AddStringToObject(o, "version", CUDALAB_VERSION);
	cJSON_AddNumberToObject(o, "protocol", RUN_REMOTE_PROTOCOL);
	if (probe.nvcc)
		cJSON_AddStringToObject(o, "nvcc", probe.nvcc);
	if (probe.nvcc_version)
		cJSON_AddStringToObject(o, "nvcc_version", probe.nvcc_version);
	if (probe.gpu && probe.gpu_name)
		cJSON_AddStringToObject(o, "gpu", probe.gpu_name);
	if (probe.gpu_arch && str_starts(probe.gpu_arch, "sm_") && strlen(probe.gpu_arch) >= 5) {
		char cc[16];

		/* sm_90 -> 9.0, sm_100 -> 10.0 */
		snprintf(cc, sizeof cc, "%.*s.%s", (int)strlen(probe.gpu_arch) - 4,
			 probe.gpu_arch + 3, probe.gpu_arch + strlen(probe.gpu_arch) - 1);
		cJSON_AddStringToObject(o, "cc", cc);
	}
	if (probe.why)
		cJSON_AddStringToObject(o, "gpu_status", probe.why);
	if (probe.gpu) {
		char *argv[] = { "nvidia-smi", "--query-gpu=driver_version",
				 "--format=csv,noheader", NULL };
		char *out = NULL;

		if (run_capture(argv, &out, 256) == 0 && out && *out) {
			out[strcspn(out, "\n")] = '\0';
			cJSON_AddStringToObject(o, "driver", out);
		}
		free(out);
	}
	cJSON_AddStringToObject(o, "backend",
				run_backend_name(run_backend_choose(&probe, BACKEND_AUTO)));
	if (probe.simt_lib)
		cJSON_AddStringToObject(o, "simt", probe.simt_lib);
	text = cJSON_PrintUnformatted(o);
	send_line(s, "doctor %s", text);
	free(text);
	cJSON_Delete(o);
	run_probe_free(&probe);
	free(cache);
}

static int serve_run(struct serve *s, const char *home, const struct run_remote_request *rq);

int run_remote_serve(const char *home, int protocol, int doctor)
{
	struct serve s;
	struct strbuf sb;
	struct run_remote_request rq;
	struct sigaction sa;
	pthread_t th;
	char *error = NULL;
	int rc;

	memset(&s, 0, sizeof s);
	s.out = STDOUT_FILENO;
	pthread_mutex_init(&s.mu, NULL);
	signal(SIGPIPE, SIG_IGN);
	serve_cancel = &s.cancel;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_hangup;
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	send_line(&s, "cudalab-remote %d %s", RUN_REMOTE_PROTOCOL, CUDALAB_VERSION);
	if (protocol != RUN_REMOTE_PROTOCOL) {
		send_line(&s, "error protocol %d asked for; this side (cudalab %s) speaks "
			  "protocol %d", protocol, CUDALAB_VERSION, RUN_REMOTE_PROTOCOL);
		return 3;
	}
	if (doctor) {
		serve_doctor(&s, home);
		return 0;
	}
	sb_init(&sb);
	if (read_request(&sb, &rq, &error) != 0) {
		send_line(&s, "error %s", error ? error : "no request");
		free(error);
		sb_free(&sb);
		return 2;
	}
	sb_free(&sb);
	if (pthread_create(&th, NULL, watch_stdin, &s) == 0)
		pthread_detach(th);
	rc = rq.program ? serve_run(&s, home, &rq) : serve_check(&s, home, &rq);
	run_remote_request_free(&rq);
	serve_cancel = NULL;
	return rc;
}

/* --- the near side ---------------------------------------------------------- */

struct far {
	pid_t pid;
	int in, out, err;
};

/* Starts argv in a process group of its own with three pipes. */
static int far_start(char *const argv[], struct far *f)
{
	int in[2], out[2], err[2];

	if (pipe2(in, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(out, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	if (pipe2(err, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return -1;
	}
	f->pid = fork();
	if (f->pid == 0) {
		setpgid(0, 0);
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "cudalab: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	if (f->pid < 0) {
		close(in[1]);
		close(out[0]);
		close(err[0]);
		return -1;
	}
	setpgid(f->pid, f->pid);
	f->in = in[1];
	f->out = out[0];
	f->err = err[0];
	fcntl(f->in, F_SETFL, O_NONBLOCK);
	return 0;
}

/* What the near side has heard so far. */
struct talk {
	const struct run_request *req;
	struct strbuf out, err;  /* unparsed stdout; all of stderr (capped) */
	int greeted, protocol;
	char *version, *source, *error, *result, *doctor;
	size_t raw_need;         /* bytes still to come after "result N", "out N", "err N" */
	char raw_kind;           /* 'r', 'o' or 'e' */
	int exited, exit_code;   /* a program's "exit CODE" */
	long job;                /* SLURM job id, once known */
	int queued;
};

static const char *where(const struct run_request *req)
{
	return req->backend == BACKEND_SLURM ? "the SLURM job" : req->remote->host;
}

/* One line of the far side's stdout. */
static void heard(struct talk *t, const char *line)
{
	char phase[300];

	if (str_starts(line, "cudalab-remote ")) {
		char version[64] = "";

		if (sscanf(line, "cudalab-remote %d %63s", &t->protocol, version) >= 1) {
			t->greeted = 1;
			free(t->version);
			t->version = xstrdup(version);
		}
	} else if (str_starts(line, "phase ")) {
		snprintf(phase, sizeof phase, "%s: %s",
			 t->req->backend == BACKEND_SLURM ? "slurm" : t->req->remote->host,
			 line + 6);
		run_phase(t->req, phase);
	} else if (str_starts(line, "source ")) {
		free(t->source);
		t->source = xstrdup(line + 7);
	} else if (str_starts(line, "error ")) {
		free(t->error);
		t->error = xstrdup(line + 6);
	} else if (str_starts(line, "doctor ")) {
		free(t->doctor);
		t->doctor = xstrdup(line + 7);
	} else if (str_starts(line, "result ") || str_starts(line, "out ") ||
		   str_starts(line, "err ")) {
		unsigned long n = strtoul(strchr(line, ' ') + 1, NULL, 10);

		if (n > 0 && n <= RESULT_CAP) {
			t->raw_need = n + 1; /* and its newline */
			t->raw_kind = line[0];
		}
	} else if (str_starts(line, "exit ")) {
		t->exit_code = atoi(line + 5);
		t->exited = 1;
	}
}

/* A whole raw chunk: the result, or a program's output passed on. */
static void heard_raw(struct talk *t, const char *p, size_t n)
{
	if (t->raw_kind == 'r') {
		free(t->result);
		t->result = xstrndup(p, n);
	} else {
		FILE *to = t->raw_kind == 'o' ? stdout : stderr;

		fwrite(p, 1, n, to);
		fflush(to);
	}
}

/* Takes what stdout holds: whole lines, or the result's bytes. */
static void digest_out(struct talk *t)
{
	size_t used = 0;

	while (used < t->out.len) {
		const char *p = t->out.s + used;
		size_t left = t->out.len - used;
		const char *nl;

		if (t->raw_need) {
			if (left < t->raw_need)
				break;
			heard_raw(t, p, t->raw_need - 1);
			used += t->raw_need;
			t->raw_need = 0;
			continue;
		}
		nl = memchr(p, '\n', left);
		if (!nl)
			break;
		{
			char *line = xstrndup(p, (size_t)(nl - p));

			heard(t, line);
			free(line);
		}
		used += (size_t)(nl - p) + 1;
	}
	if (used) {
		memmove(t->out.s, t->out.s + used, t->out.len - used);
		t->out.len -= used;
		t->out.s[t->out.len] = '\0';
	}
}

/* The partition named in srun options (--partition=P, --partition P,
 * -p P, -pP), or NULL. */
static char *partition_of(const char *args)
{
	const char *p = args;

	while (p && *p) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t");
		if (len > 12 && strncmp(p, "--partition=", 12) == 0)
			return xstrndup(p + 12, len - 12);
		if (len > 2 && strncmp(p, "-p", 2) == 0 && p[2] != '-')
			return xstrndup(p + 2, len - 2);
		if ((len == 11 && strncmp(p, "--partition", 11) == 0) ||
		    (len == 2 && strncmp(p, "-p", 2) == 0)) {
			p += len;
			while (*p == ' ' || *p == '\t')
				p++;
			len = strcspn(p, " \t");
			return len ? xstrndup(p, len) : NULL;
		}
		p += len;
	}
	return NULL;
}

/* srun's own lines on stderr: "srun: job 42 queued and waiting for
 * resources", "srun: job 42 has been allocated resources". */
static void digest_err(struct talk *t, const char *chunk)
{
	const char *j = strstr(chunk, "srun: job ");
	long id;

	if (t->req->backend != BACKEND_SLURM || !j || sscanf(j, "srun: job %ld", &id) != 1)
		return;
	t->job = id;
	if (strstr(j, "queued") && !t->queued) {
		char phase[200], *part = partition_of(t->req->remote->slurm_args);

		t->queued = 1;
		snprintf(phase, sizeof phase, "slurm: queued on partition %s as job %ld",
			 part ? part : "(the default)", id);
		free(part);
		run_phase(t->req, phase);
	} else if (strstr(j, "allocated")) {
		char phase[100];

		snprintf(phase, sizeof phase, "slurm: job %ld is running", id);
		run_phase(t->req, phase);
	}
}

static void drain(int *fd, struct strbuf *sb, size_t cap, struct talk *t, int is_err)
{
	char buf[65536];
	ssize_t n = read(*fd, buf, sizeof buf);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close(*fd);
		*fd = -1;
		return;
	}
	if (sb->len + (size_t)n <= cap)
		sb_append(sb, buf, (size_t)n);
	if (is_err) {
		char *chunk = xstrndup(buf, (size_t)n);

		digest_err(t, chunk);
		free(chunk);
	} else {
		digest_out(t);
	}
}

static void scancel(const struct talk *t, const char *name)
{
	char id[32], jobname[128];
	char *argv[] = { "scancel", id, NULL };
	char *by_name[] = { "scancel", jobname, NULL };
	char *out = NULL;

	snprintf(id, sizeof id, "%ld", t->job);
	snprintf(jobname, sizeof jobname, "--name=%s", name);
	run_capture(t->job > 0 ? argv : by_name, &out, 4096);
	free(out);
}

/* Talks to the far side until it has answered and ended, the check is
 * cancelled, or the deadline passes.  The request is written as the far
 * side reads it; stdin then stays open until the answer is complete. */
static int converse(struct far *f, struct talk *t, const char *request, size_t len,
		    double run_limit, const char *jobname)
{
	size_t sent = 0;
	double start = mono_seconds(), stop_at = 0, deadline = 0;
	int status = 0, exited = 0;

	for (;;) {
		struct pollfd pfd[3];
		int n = 0;
		double now = mono_seconds();

		if (f->in >= 0 && (t->result || t->error || t->doctor || t->exited)) {
			close(f->in); /* answered: the far side may end */
			f->in = -1;
		}
		if (!stop_at && ((t->req->cancel && *t->req->cancel) ||
				 (deadline && now > deadline))) {
			stop_at = now + GRACE_S;
			if (f->in >= 0) {
				close(f->in);
				f->in = -1;
			}
			if (t->req->backend == BACKEND_SLURM)
				scancel(t, jobname);
		}
		if (stop_at && now > stop_at) {
			kill(-f->pid, SIGKILL);
			stop_at = now + 3600;
		}
		if (!deadline && t->greeted)
			deadline = now + run_limit;
		else if (!deadline && t->req->backend == BACKEND_SSH && now - start > 120)
			deadline = now; /* no greeting in two minutes: give up */
		if (f->out < 0 && f->err < 0) {
			if (!exited && waitpid(f->pid, &status, 0) == f->pid)
				exited = 1;
			break;
		}
		if (f->out >= 0)
			pfd[n++] = (struct pollfd){ .fd = f->out, .events = POLLIN };
		if (f->err >= 0)
			pfd[n++] = (struct pollfd){ .fd = f->err, .events = POLLIN };
		if (f->in >= 0 && sent < len)
			pfd[n++] = (struct pollfd){ .fd = f->in, .events = POLLOUT };
		if (poll(pfd, (nfds_t)n, 200) <= 0)
			continue;
		for (int i = 0; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			if (pfd[i].fd == f->out)
				drain(&f->out, &t->out, RESULT_CAP + 65536, t, 0);
			else if (pfd[i].fd == f->err)
				drain(&f->err, &t->err, 65536, t, 1);
			else if (pfd[i].fd == f->in) {
				ssize_t w = write(f->in, request + sent, len - sent);

				if (w > 0)
					sent += (size_t)w;
				else if (w < 0 && errno != EAGAIN && errno != EINTR) {
					close(f->in); /* the far side is gone: its stderr says why */
					f->in = -1;
				}
			}
		}
	}
	if (f->in >= 0)
		close(f->in);
	kill(-f->pid, SIGKILL);
	if (!exited)
		while (waitpid(f->pid, &status, 0) < 0 && errno == EINTR)
			;
	t->protocol = t->greeted ? t->protocol : -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A one-line account of why the far side could not be used, with what to
 * do about it. */
static char *explain_failure(const struct run_request *req, const struct talk *t, int code)
{
	const char *err = t->err.s ? t->err.s : "";
	const char *host = req->remote->host;
	char *last = run_last_line(err), *why;

	if (req->backend == BACKEND_SLURM) {
		if (code == 127 && strstr(err, "cannot run srun"))
			why = xstrdup("srun is not in PATH: --backend slurm runs on a SLURM login "
				      "node (or set PATH)");
		else if (strstr(err, "Unable to allocate resources") || strstr(err, "rejected") ||
			 strstr(err, "Invalid"))
			why = xasprintf("SLURM rejected the job: %s (options go in CUDALAB_SLURM_ARGS "
					"or slurm_args in the config, e.g. --partition=gpu)",
					last ? last : "no reason given");
		else
			why = xasprintf("the SLURM job ended without an answer (exit %d)%s%s", code,
					last ? ": " : "", last ? last : "");
	} else if (code == 127 && strstr(err, "cannot run ssh")) {
		why = xstrdup("ssh is not in PATH: install an ssh client");
	} else if (strstr(err, "Could not resolve hostname") || strstr(err, "Name or service")) {
		why = xasprintf("ssh cannot find the host %s: check the name or add it to "
				"~/.ssh/config", host);
	} else if (strstr(err, "Permission denied") || strstr(err, "Host key verification")) {
		why = xasprintf("ssh could not log in to %s without a password prompt: set up a "
				"key (ssh-copy-id %s) and check that 'ssh %s true' works", host,
				host, host);
	} else if (code == 127 || strstr(err, "command not found") || strstr(err, "not found")) {
		why = xasprintf("%s has no cudalab in PATH: install it there (make install "
				"PREFIX=~/.local) or set remote_cudalab in the config", host);
	} else if (code == 255) {
		why = xasprintf("ssh could not reach %s%s%s", host, last ? ": " : "",
				last ? last : "");
	} else {
		why = xasprintf("%s ended without an answer (exit %d)%s%s", host, code,
				last ? ": " : "", last ? last : "");
	}
	free(last);
	return why;
}

char *run_slurm_gpus(const char *configured, int gpus)
{
	const char *count = NULL, *colon;
	char *end;
	long k;

	if (str_starts(configured, "--gpus="))
		count = configured + strlen("--gpus=");
	else if (strcmp(configured, "--gres=gpu") == 0 || str_starts(configured, "--gres=gpu:"))
		count = configured + strlen("--gres=gpu");
	if (!count || gpus <= 1)
		return xstrdup(configured);
	/* the count is the last field: --gpus=a100:2, --gres=gpu:a100:2 */
	if ((colon = strrchr(count, ':')))
		count = colon + 1;
	k = strtol(count, &end, 10);
	if (end == count || *end) /* no count (--gres=gpu:a100): one GPU */
		return xasprintf("%s:%d", configured, gpus);
	if (k >= gpus)
		return xstrdup(configured);
	return xasprintf("%.*s%d", (int)(count - configured), configured, gpus);
}

/* The argument vector that starts the far side. */
static char **far_argv(const struct run_request *req, int doctor, const char *jobname)
{
	const struct run_remote *r = req->remote;
	char **v = xcalloc(64, sizeof *v);
	size_t n = 0;

	if (req->backend == BACKEND_SSH) {
		const char *bin = r->cudalab && *r->cudalab ? r->cudalab : "cudalab";

		v[n++] = xstrdup("ssh");
		v[n++] = xstrdup("-T");
		v[n++] = xstrdup("-o");
		v[n++] = xstrdup("BatchMode=yes");
		v[n++] = xstrdup("-o");
		v[n++] = xstrdup("ConnectTimeout=20");
		v[n++] = xstrdup(r->host);
		/* a login shell's PATH may lack ~/.local/bin, where make install
		 * PREFIX=~/.local puts cudalab */
		v[n++] = xasprintf("PATH=\"$HOME/.local/bin:$PATH\" exec %s remote --protocol %d%s",
				   bin, RUN_REMOTE_PROTOCOL, doctor ? " --doctor" : "");
		return v;
	}
	v[n++] = xstrdup("srun");
	v[n++] = xasprintf("--job-name=%s", jobname);
	v[n++] = xstrdup("--ntasks=1");
	if (r->gpus && *r->gpus && strcmp(r->gpus, "none") != 0)
		v[n++] = run_slurm_gpus(r->gpus, req->ex ? run_gpus_needed(req) : 1);
	for (const char *p = r->slurm_args ? r->slurm_args : ""; *p && n < 56;) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t");
		if (len)
			v[n++] = xstrndup(p, len);
		p += len;
	}
	v[n++] = xstrdup(r->cudalab && *r->cudalab ? r->cudalab : r->self);
	v[n++] = xstrdup("remote");
	v[n++] = xstrdup("--protocol");
	v[n++] = xasprintf("%d", RUN_REMOTE_PROTOCOL);
	if (doctor)
		v[n++] = xstrdup("--doctor");
	return v;
}

static void argv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static void talk_free(struct talk *t)
{
	sb_free(&t->out);
	sb_free(&t->err);
	free(t->version);
	free(t->source);
	free(t->error);
	free(t->result);
	free(t->doctor);
}

/* Runs one conversation: starts the far side, sends the request (NULL for
 * the doctor), and fills t.  Returns 0 when the far side answered, or -1
 * with *why set. */
static int exchange(const struct run_request *req, const char *request, size_t len,
		    double run_limit, struct talk *t, char **why)
{
	char jobname[64];
	char **argv;
	struct far f;
	int code;

	memset(t, 0, sizeof *t);
	t->req = req;
	sb_init(&t->out);
	sb_init(&t->err);
	*why = NULL;
	snprintf(jobname, sizeof jobname, "cudalab-%ld-%ld", (long)getpid(), (long)time(NULL));
	argv = far_argv(req, request == NULL, jobname);
	signal(SIGPIPE, SIG_IGN);
	if (far_start(argv, &f) != 0) {
		*why = xasprintf("cannot start %s: %s", argv[0], strerror(errno));
		argv_free(argv);
		return -1;
	}
	argv_free(argv);
	run_phase(req, req->backend == BACKEND_SLURM ? "slurm: submitting the job"
						     : "ssh: connecting");
	code = converse(&f, t, request ? request : "", request ? len : 0, run_limit, jobname);
	if (req->cancel && *req->cancel) {
		*why = xstrdup("cancelled");
		return -1;
	}
	if (t->greeted && t->protocol != RUN_REMOTE_PROTOCOL) {
		*why = xasprintf("%s runs cudalab %s, which speaks remote protocol %d; this "
				 "cudalab (%s) speaks protocol %d: install the same version on "
				 "both sides", where(req), t->version ? t->version : "?",
				 t->protocol, CUDALAB_VERSION, RUN_REMOTE_PROTOCOL);
		return -1;
	}
	if (t->error) {
		*why = xasprintf("%s: %s", where(req), t->error);
		return -1;
	}
	if (!t->result && !t->doctor && !t->exited) {
		*why = t->greeted ? xasprintf("%s stopped answering (no result within %.0f s)",
					      where(req), run_limit)
				  : explain_failure(req, t, code);
		return -1;
	}
	return 0;
}

/* Adds the files of the harness library under include to rq (as
 * include/cudalab/...); -1 with *why when one cannot be read. */
static int gather_lab(const char *include, struct run_remote_request *rq, char **why)
{
	char **names;
	int rc = 0;

	if (!include) {
		*why = xstrdup("cannot find include/cudalab/lab.h to send");
		return -1;
	}
	names = run_lab_files(include);
	for (size_t i = 0; names[i] && rc == 0; i++) {
		char *path = path_join(include, names[i]), *name;
		size_t len;
		char *text = run_read_text(path, &len);

		if (!text) {
			*why = i == 0 ? xstrdup("cannot find include/cudalab/lab.h to send")
				      : xasprintf("cannot read %s: %s", path, strerror(errno));
			rc = -1;
		} else {
			name = xasprintf("include/%s", names[i]);
			add_file(rq, name, text, len);
			free(name);
		}
		free(text);
		free(path);
	}
	run_argv_free(names);
	return rc;
}

/* Adds the exercise directory, the harness library and the learner's file
 * to rq. */
static int gather(const struct run_request *req, struct run_remote_request *rq, char **why)
{
	DIR *d = opendir(req->ex->dir);
	struct dirent *e;
	char *include = run_find_include(req->content), *base;
	size_t len;
	char *text;
	int rc;

	if (!d) {
		*why = xasprintf("cannot read %s: %s", req->ex->dir, strerror(errno));
		free(include);
		return -1;
	}
	while ((e = readdir(d))) {
		char *path = path_join(req->ex->dir, e->d_name), *name;
		struct stat sb;

		name = xasprintf("exercise/%s", e->d_name);
		if (run_remote_good_name(name) && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    sb.st_size <= (off_t)FILE_CAP && (text = run_read_text(path, &len))) {
			add_file(rq, name, text, len);
			free(text);
		}
		free(name);
		free(path);
	}
	closedir(d);
	rc = gather_lab(include, rq, why);
	free(include);
	if (rc != 0)
		return -1;
	if (!(text = run_read_text(req->source, &len))) {
		*why = xasprintf("cannot read %s: %s", req->source, strerror(errno));
		return -1;
	}
	base = strrchr(req->source, '/');
	base = xasprintf("source/%s", base ? base + 1 : req->source);
	if (!run_remote_good_name(base)) {
		free(base);
		base = xstrdup("source/kernel.cu");
	}
	add_file(rq, base, text, len);
	free(base);
	free(text);
	return 0;
}

/* text with every occurrence of from replaced by to (caller frees). */
static char *replace_all(const char *text, const char *from, const char *to)
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

/* The far side's result JSON as a result here: its paths are the
 * learner's, and its backend says where it ran. */
static int take_result(const struct run_request *req, const struct talk *t,
		       struct run_result *res)
{
	char *json = t->source ? replace_all(t->result, t->source, req->source)
			       : xstrdup(t->result);
	cJSON *o = cJSON_Parse(json), *far_backend;
	char *label = run_remote_label(req), *text;
	int rc;

	free(json);
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		free(label);
		res->error = xasprintf("%s sent a result that is not JSON", where(req));
		return -1;
	}
	far_backend = cJSON_DetachItemFromObjectCaseSensitive(o, "backend");
	res->remote_gpu = cJSON_IsString(far_backend) &&
			  strcmp(far_backend->valuestring, "gpu") == 0;
	cJSON_AddItemToObject(o, "remote_backend",
			      far_backend ? far_backend : cJSON_CreateString("unknown"));
	cJSON_AddStringToObject(o, "backend", label);
	if (t->version)
		cJSON_AddStringToObject(o, "remote_version", t->version);
	text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	{
		int gpu = res->remote_gpu;

		rc = run_result_from_json(text, res);
		res->remote_gpu = gpu;
	}
	free(text);
	free(label);
	if (rc != 0) {
		res->error = xasprintf("%s sent a result without a verdict", where(req));
		return -1;
	}
	res->backend = req->backend;
	return 0;
}

char *run_remote_label(const struct run_request *req)
{
	return req->backend == BACKEND_SSH ? xasprintf("ssh:%s", req->remote->host)
					   : xstrdup("slurm");
}

int run_remote_exercise(const struct run_request *req, struct run_result *res)
{
	struct run_remote_request rq;
	struct strbuf sb;
	struct talk t;
	char *why = NULL;
	double limit;
	int rc = -1;

	memset(&rq, 0, sizeof rq);
	rq.mode = req->mode;
	rq.exercise = xstrdup(req->ex->id);
	rq.seed = req->seed;
	rq.timeout_s = req->timeout_s > 0 ? req->timeout_s : 0;
	rq.gpus = run_gpus_needed(req);
	if (!good_id(rq.exercise)) {
		res->error = xasprintf("the exercise id '%s' cannot be sent", rq.exercise);
		run_remote_request_free(&rq);
		return -1;
	}
	if (gather(req, &rq, &res->error) != 0) {
		run_remote_request_free(&rq);
		return -1;
	}
	sb_init(&sb);
	run_remote_request_text(&rq, &sb);
	run_remote_request_free(&rq);
	/* the far side keeps its own limits; this one only guards against a
	 * far side that stops answering */
	limit = 300.0 + 2 * (req->timeout_s > 0 ? req->timeout_s
					       : run_default_timeout(req->mode, BACKEND_SIMT)) + 60;
	if (exchange(req, sb.s, sb.len, limit, &t, &why) == 0)
		rc = take_result(req, &t, res);
	else
		res->error = why;
	sb_free(&sb);
	talk_free(&t);
	return rc;
}

int run_remote_doctor(const struct run_request *req, char **json, char **why)
{
	struct talk t;
	int rc;

	*json = NULL;
	rc = exchange(req, NULL, 0, 120, &t, why);
	if (rc == 0) {
		*json = t.doctor;
		t.doctor = NULL;
	}
	talk_free(&t);
	return rc;
}

/* --- `cudalab run` on the far side ---------------------------------------- */

/* Sends what fd has to say as "out N" or "err N" chunks. */
static void relay(struct serve *s, int *fd, const char *kind)
{
	char buf[65536], head[48];
	ssize_t n = read(*fd, buf, sizeof buf);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close(*fd);
		*fd = -1;
		return;
	}
	{
		/* compiler messages name the far side's copies: keep their names */
		char *text = xstrndup(buf, (size_t)n);
		char *shown = s->strip ? replace_all(text, s->strip, "") : xstrdup(text);

		snprintf(head, sizeof head, "%s %zu\n", kind, strlen(shown));
		send_all(s, head, strlen(head));
		send_all(s, shown, strlen(shown));
		send_all(s, "\n", 1);
		free(shown);
		free(text);
	}
}

/* Relays the program's output until both pipes close or the run is
 * cancelled (then the program's group is killed). */
static void relay_all(struct serve *s, struct far *f)
{
	while (f->out >= 0 || f->err >= 0) {
		struct pollfd pfd[2];
		int k = 0;

		if (s->cancel) {
			kill(-f->pid, SIGKILL);
			break;
		}
		if (f->out >= 0)
			pfd[k++] = (struct pollfd){ .fd = f->out, .events = POLLIN };
		if (f->err >= 0)
			pfd[k++] = (struct pollfd){ .fd = f->err, .events = POLLIN };
		if (poll(pfd, (nfds_t)k, 200) <= 0)
			continue;
		for (int i = 0; i < k; i++)
			if (pfd[i].revents)
				relay(s, pfd[i].fd == f->out ? &f->out : &f->err,
				      pfd[i].fd == f->out ? "out" : "err");
	}
}

static int is_program_source(const char *name)
{
	return str_ends(name, ".cu") || str_ends(name, ".cpp") || str_ends(name, ".cc") ||
	       str_ends(name, ".c");
}

/* Runs this cudalab's own `run` over the request's files, relaying its
 * output, and ends with "exit CODE". */
static int serve_run(struct serve *s, const char *home, const struct run_remote_request *rq)
{
	char *dir = xasprintf("%s/remote/run-%ld", home, (long)getpid());
	char *src = path_join(dir, "source"), **argv, self[4096];
	struct far f;
	size_t n = 0, cap = 16 + 2 * rq->n_defines + rq->n_files + rq->n_args;
	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	int status = 0, code;

	run_remove_dir(src);
	if (len <= 0 || mkdir_p(src, 0700) != 0) {
		send_line(s, "error cannot make %s: %s", src, strerror(errno));
		free(src);
		free(dir);
		return 2;
	}
	self[len] = '\0';
	argv = xcalloc(cap, sizeof *argv);
	argv[n++] = xstrdup(self);
	argv[n++] = xstrdup("run");
	if (rq->timeout_s > 0) {
		argv[n++] = xstrdup("--timeout");
		argv[n++] = xasprintf("%g", rq->timeout_s);
	}
	argv[n++] = xasprintf("-I%s", src);
	for (size_t i = 0; i < rq->n_defines; i++)
		argv[n++] = xasprintf("-D%s", rq->defines[i]);
	for (size_t i = 0; i < rq->n_files; i++) {
		char *path;

		if (!str_starts(rq->files[i].name, "source/")) {
			send_line(s, "error a run request carries only source/ files, not %s",
				  rq->files[i].name);
			code = 2;
			goto done;
		}
		path = path_join(dir, rq->files[i].name);
		if (write_whole(path, rq->files[i].data, rq->files[i].len) != 0) {
			send_line(s, "error cannot write %s: %s", path, strerror(errno));
			free(path);
			code = 2;
			goto done;
		}
		if (is_program_source(path))
			argv[n++] = path;
		else
			free(path);
	}
	argv[n++] = xstrdup("--");
	for (size_t i = 0; i < rq->n_args; i++)
		argv[n++] = xstrdup(rq->args[i]);
	if (far_start(argv, &f) != 0) {
		send_line(s, "error cannot start %s: %s", self, strerror(errno));
		code = 2;
		goto done;
	}
	close(f.in); /* the program reads an empty stdin */
	{
		char *strip = xasprintf("%s/", src);

		s->strip = strip;
		relay_all(s, &f);
		s->strip = NULL;
		free(strip);
	}
	if (f.out >= 0)
		close(f.out);
	if (f.err >= 0)
		close(f.err);
	kill(-f.pid, SIGKILL); /* whatever the program left behind */
	while (waitpid(f.pid, &status, 0) < 0 && errno == EINTR)
		;
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (s->cancel)
		send_line(s, "error cancelled");
	else
		send_line(s, "exit %d", code);
done:
	for (size_t i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
	run_remove_dir(src);
	rmdir(dir);
	free(src);
	free(dir);
	return code;
}

/* --- `cudalab run` from the near side -------------------------------------- */

static int is_header(const char *name)
{
	return str_ends(name, ".h") || str_ends(name, ".cuh") || str_ends(name, ".hpp") ||
	       str_ends(name, ".hh") || str_ends(name, ".inl");
}

/* Adds path as source/<its name>; a second file of the same name is
 * refused unless it is the same file again. */
static int add_flat(struct run_remote_request *rq, const char *path, char **why)
{
	const char *base = strrchr(path, '/');
	char *name = xasprintf("source/%s", base ? base + 1 : path), *text;
	size_t len;

	if (!run_remote_good_name(name)) {
		*why = xasprintf("%s: a file name the remote side does not take", path);
		free(name);
		return -1;
	}
	if (!(text = run_read_text(path, &len))) {
		*why = xasprintf("cannot read %s: %s", path, strerror(errno));
		free(name);
		return -1;
	}
	for (size_t i = 0; i < rq->n_files; i++) {
		if (strcmp(rq->files[i].name, name) != 0)
			continue;
		if (rq->files[i].len != len || memcmp(rq->files[i].data, text, len) != 0) {
			*why = xasprintf("two different files named %s (one is %s): a remote run "
					 "sends sources and headers as one directory", name + 7, path);
			free(text);
			free(name);
			return -1;
		}
		free(text);
		free(name);
		return 0;
	}
	add_file(rq, name, text, len);
	free(text);
	free(name);
	return 0;
}

/* The headers of dir (not of its subdirectories). */
static int add_headers(struct run_remote_request *rq, const char *dir, char **why)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d) {
		*why = xasprintf("cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	while (rc == 0 && (e = readdir(d))) {
		char *path = path_join(dir, e->d_name);
		struct stat sb;

		if (e->d_name[0] != '.' && is_header(e->d_name) && stat(path, &sb) == 0 &&
		    S_ISREG(sb.st_mode))
			rc = add_flat(rq, path, why);
		free(path);
	}
	closedir(d);
	return rc;
}

int run_remote_program(const struct run_request *req, const struct run_program *p,
		       char *const args[], int n_args, int *status, char **why)
{
	struct run_remote_request rq;
	struct strbuf sb;
	struct talk t;
	double limit;
	int rc = -1;

	*why = NULL;
	memset(&rq, 0, sizeof rq);
	rq.program = 1;
	rq.seed = -1;
	rq.timeout_s = req->timeout_s > 0 ? req->timeout_s : 0;
	for (size_t i = 0; i < p->n_sources && !*why; i++) {
		char *dir = xstrdup(p->sources[i]), *slash = strrchr(dir, '/');

		if (slash)
			*slash = '\0';
		if (add_flat(&rq, p->sources[i], why) == 0)
			add_headers(&rq, slash ? dir : ".", why);
		free(dir);
	}
	for (size_t i = 0; i < p->n_includes && !*why; i++)
		add_headers(&rq, p->includes[i], why);
	for (size_t i = 0; i < p->n_defines; i++) {
		rq.defines = xrealloc(rq.defines, (rq.n_defines + 1) * sizeof *rq.defines);
		rq.defines[rq.n_defines++] = xstrdup(p->defines[i]);
	}
	for (int i = 0; i < n_args; i++) {
		rq.args = xrealloc(rq.args, (rq.n_args + 1) * sizeof *rq.args);
		rq.args[rq.n_args++] = xstrdup(args[i]);
	}
	if (*why) {
		run_remote_request_free(&rq);
		return -1;
	}
	sb_init(&sb);
	run_remote_request_text(&rq, &sb);
	run_remote_request_free(&rq);
	limit = 300.0 + (req->timeout_s > 0 ? req->timeout_s : 24 * 3600.0) + 60;
	if (exchange(req, sb.s, sb.len, limit, &t, why) == 0) {
		*status = t.exit_code;
		rc = 0;
	}
	sb_free(&sb);
	talk_free(&t);
	return rc;
}
