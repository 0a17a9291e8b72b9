/* serve.c — the far side of a remote check (`cudalab remote`): it reads
 * a request on stdin, lays the files out under CUDALAB_HOME/remote, runs
 * the same pipeline as a local check there (run_exercise: build, judge in
 * a sandbox, no record), and answers on stdout with phases, the host's
 * name and one result, which carries the request's nonce.  A `cudalab
 * run` request runs this side's own `cudalab run` and relays its output.
 * The near side keeps stdin open while it waits: end of file cancels. */
#include "remote.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/util.h"

#define BUNDLE_CAP (16u << 20) /* a whole request */

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

/* "host NAME": where the verdict comes from, for the near side to say. */
static void send_host(struct serve *s)
{
	char name[256];

	if (gethostname(name, sizeof name) == 0) {
		name[sizeof name - 1] = '\0';
		send_line(s, "host %s", name);
	}
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
	send_host(s);
	if (run_exercise(&req, &res) != 0) {
		send_line(s, "error %s", s->cancel ? "cancelled" : res.error ? res.error
								: "cannot run");
		rc = 2;
	} else {
		char head[64];

		/* the request's nonce: a program that writes into this stream
		 * (where nothing stops it) cannot know it */
		snprintf(head, sizeof head, "result %s %zu\n", rq->nonce, strlen(res.json));
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
	/* the programs this side runs cannot open its descriptors (the
	 * stream back to the near side) through /proc */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
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
		char *shown = s->strip ? run_replace_all(text, s->strip, "") : xstrdup(text);

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
static void relay_all(struct serve *s, struct run_far *f)
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
	struct run_far f;
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
	if (run_far_start(argv, &f) != 0) {
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

