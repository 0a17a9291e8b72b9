/* proc.c — running programs by argv through fork/exec, never a shell: a
 * simple capture for short tool runs, and run_child_exec for untrusted
 * programs under limits. */
#include "cudalab/run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cudalab/util.h"

extern char **environ;

int run_capture(char *const argv[], char **out, size_t cap)
{
	int fds[2], status;
	pid_t pid;
	struct strbuf sb;
	char buf[4096];
	ssize_t n;

	*out = NULL;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	sb_init(&sb);
	sb_puts(&sb, "");
	while ((n = read(fds[0], buf, sizeof buf)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (sb.len < cap)
			sb_append(&sb, buf, (size_t)n < cap - sb.len ? (size_t)n : cap - sb.len);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			sb_free(&sb);
			return -1;
		}
	}
	*out = sb_steal(&sb);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return status;
}

const char *run_signal_name(int sig)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{ SIGHUP, "SIGHUP" },   { SIGINT, "SIGINT" },   { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" },   { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" },   { SIGFPE, "SIGFPE" },   { SIGKILL, "SIGKILL" },
		{ SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
		{ SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" }, { SIGSYS, "SIGSYS" },
	};
	static char other[32];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].sig == sig)
			return names[i].name;
	snprintf(other, sizeof other, "signal %d", sig);
	return other;
}

/* The environment with c->env's entries (and extra, when not NULL) set on
 * top: same-named entries of environ are left out. */
static char **child_env(const char *const *add, const char *extra, const char *extra2)
{
	size_t n_env = 0, n_add = 0, k = 0;
	char **env;

	while (environ && environ[n_env])
		n_env++;
	while (add && add[n_add])
		n_add++;
	env = xcalloc(n_env + n_add + 3, sizeof *env);
	for (size_t i = 0; i < n_env; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t len = eq ? (size_t)(eq - environ[i]) + 1 : strlen(environ[i]);
		int replaced = (extra && strncmp(environ[i], extra, len) == 0) ||
			       (extra2 && strncmp(environ[i], extra2, len) == 0);

		for (size_t j = 0; j < n_add && !replaced; j++)
			replaced = strncmp(environ[i], add[j], len) == 0;
		if (!replaced)
			env[k++] = environ[i];
	}
	for (size_t j = 0; j < n_add; j++)
		env[k++] = (char *)add[j];
	if (extra)
		env[k++] = (char *)extra;
	if (extra2)
		env[k++] = (char *)extra2;
	env[k] = NULL;
	return env;
}

/* 32 hex digits from the kernel's random source. */
static int make_key(char key[33])
{
	unsigned char raw[16];
	size_t got = 0;

	while (got < sizeof raw) {
		ssize_t n = getrandom(raw + got, sizeof raw - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof raw; i++)
		snprintf(key + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

/* Pipes of one run: [0] stdout, [1] stderr (unused with merge), [2] the
 * result, [3] exec failure (errno travels through it), [4] the result's
 * key, read by the harness once at start-up. */
#define NPIPES 5
struct pipes {
	int rd[NPIPES], wr[NPIPES];
};

static void pipes_close(struct pipes *p)
{
	for (int i = 0; i < NPIPES; i++) {
		if (p->rd[i] >= 0)
			close(p->rd[i]);
		if (p->wr[i] >= 0)
			close(p->wr[i]);
		p->rd[i] = p->wr[i] = -1;
	}
}

static int pipes_open(struct pipes *p, const struct run_child *c)
{
	for (int i = 0; i < NPIPES; i++)
		p->rd[i] = p->wr[i] = -1;
	for (int i = 0; i < NPIPES; i++) {
		int fds[2];

		if ((i == 1 && c->merge) || ((i == 2 || i == 4) && !c->want_result))
			continue;
		if (pipe2(fds, O_CLOEXEC) != 0) {
			pipes_close(p);
			return -1;
		}
		p->rd[i] = fds[0];
		p->wr[i] = fds[1];
	}
	return 0;
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static UTIL_NORETURN void child_start(const struct run_child *c, const struct pipes *p,
				      char **env, pid_t parent)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t none;
	int devnull, err;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	setrlimit(RLIMIT_CORE, &no_core);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0 && devnull != 0)
		dup2(devnull, 0);
	dup2(p->wr[0], 1);
	dup2(c->merge ? p->wr[0] : p->wr[1], 2);
	/* Nothing of cudalab's (the database, the terminal) leaks into the
	 * program; only the result pipe stays open. */
#if defined(SYS_close_range) && defined(CLOSE_RANGE_CLOEXEC)
	syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
#endif
	if (p->wr[2] >= 0)
		fcntl(p->wr[2], F_SETFD, 0);
	if (p->rd[4] >= 0)
		fcntl(p->rd[4], F_SETFD, 0);
	if (c->dir && chdir(c->dir) != 0)
		goto fail;
	execvpe(c->argv[0], c->argv, env);
fail:
	err = errno;
	if (write(p->wr[3], &err, sizeof err) < 0)
		_exit(127);
	_exit(127);
}

struct sink {
	struct strbuf sb;
	size_t cap, dropped;
};

static void sink_add(struct sink *s, const char *buf, size_t n)
{
	size_t room = s->sb.len < s->cap ? s->cap - s->sb.len : 0;
	size_t keep = n < room ? n : room;

	if (keep)
		sb_append(&s->sb, buf, keep);
	s->dropped += n - keep;
}

/* Reads once from fd into s; closes *fd at end of file. */
static void drain_one(int *fd, struct sink *s)
{
	char buf[65536];
	ssize_t n = read(*fd, buf, sizeof buf);

	if (n > 0) {
		sink_add(s, buf, (size_t)n);
		return;
	}
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	close(*fd);
	*fd = -1;
}

static int pidfd_for(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/* Whether pid has ended; it stays a zombie (unreaped), so its id, and
 * the group's, cannot be reused while the group is killed. */
static int child_ended(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
		return errno != EINTR;
	return si.si_pid == pid;
}

/* Collects output until the child has ended and every pipe is closed.
 * The deadline or the cancel flag kills the group; after that, or once
 * the child has ended (a process that left the group may still hold a
 * pipe), the pipes are read for a short grace period only. */
static void supervise(struct run_child *c, pid_t pid, struct pipes *p, struct sink sinks[3],
		      double start)
{
	int pidfd = pidfd_for(pid), ended = 0;
	double deadline = c->timeout_s > 0 ? start + c->timeout_s : 0, grace = 0;

	for (;;) {
		struct pollfd pfd[4];
		int idx[4], n = 0, wait_ms = 200;
		double t = mono_seconds();

		for (int i = 0; i < 3; i++) {
			if (p->rd[i] < 0)
				continue;
			pfd[n] = (struct pollfd){ .fd = p->rd[i], .events = POLLIN };
			idx[n++] = i;
		}
		if (!ended && child_ended(pid)) {
			ended = 1;
			kill(-pid, SIGKILL); /* what it left behind */
			grace = grace ? grace : t + 2.0;
		}
		if ((ended && n == 0) || (grace && t > grace))
			break;
		if (c->tick)
			c->tick(c->tick_ctx);
		if (!grace && ((deadline && t >= deadline) || (c->cancel && *c->cancel))) {
			if (c->cancel && *c->cancel)
				c->cancelled = 1;
			else
				c->timed_out = 1;
			kill(-pid, SIGKILL);
			grace = t + 1.0;
			continue;
		}
		if (deadline && !grace && (deadline - t) * 1000 < wait_ms)
			wait_ms = (int)((deadline - t) * 1000) + 1;
		if (pidfd < 0 || ended)
			wait_ms = wait_ms < 10 ? wait_ms : 10;
		else
			pfd[n++] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
		if (poll(pfd, (nfds_t)n, wait_ms) <= 0)
			continue;
		for (int k = 0; k < n; k++) {
			if (pfd[k].fd == pidfd || !(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			drain_one(&p->rd[idx[k]], &sinks[idx[k]]);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	kill(-pid, SIGKILL);
	while (waitpid(pid, &c->status, 0) < 0 && errno == EINTR)
		;
}

static void sink_take(struct sink *s, char **text, size_t *len, size_t *dropped)
{
	*len = s->sb.len;
	*dropped = s->dropped;
	*text = sb_steal(&s->sb);
}

int run_child_exec(struct run_child *c)
{
	struct pipes p;
	struct sink sinks[3];
	char *fd_entry = NULL, *key_entry = NULL, **env = NULL;
	pid_t pid, parent = getpid();
	int err = 0;
	double start;

	c->out = c->err = c->result = NULL;
	c->out_len = c->err_len = c->result_len = 0;
	c->out_dropped = c->err_dropped = c->result_dropped = 0;
	c->status = 0;
	c->timed_out = c->cancelled = 0;
	c->wall_s = 0;
	c->key[0] = '\0';
	if (pipes_open(&p, c) != 0)
		return -1;
	if (c->want_result) {
		/* a fresh key per run, which only the harness reads (at start-up,
		 * before the learner's code runs), so that a result written by
		 * anything else is known for what it is */
		if (make_key(c->key) != 0 ||
		    write(p.wr[4], c->key, strlen(c->key)) != (ssize_t)strlen(c->key)) {
			err = errno ? errno : EIO;
			goto fail;
		}
		close(p.wr[4]);
		p.wr[4] = -1;
		fd_entry = xasprintf("CUDALAB_RESULT_FD=%d", p.wr[2]);
		key_entry = xasprintf("CUDALAB_RESULT_KEY_FD=%d", p.rd[4]);
	}
	env = child_env(c->env, fd_entry, key_entry);
	start = mono_seconds();
	pid = fork();
	if (pid < 0) {
		err = errno;
		goto fail;
	}
	if (pid == 0)
		child_start(c, &p, env, parent);
	setpgid(pid, pid); /* also here, so the group exists before any kill */
	for (int i = 0; i < NPIPES; i++) {
		if (p.wr[i] >= 0)
			close(p.wr[i]);
		p.wr[i] = -1;
	}
	if (p.rd[4] >= 0) {
		close(p.rd[4]); /* the child has its own */
		p.rd[4] = -1;
	}
	if (read(p.rd[3], &err, sizeof err) == (ssize_t)sizeof err) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		goto fail;
	}
	err = 0;
	for (int i = 0; i < 3; i++) {
		sb_init(&sinks[i].sb);
		sinks[i].cap = c->cap;
		sinks[i].dropped = 0;
	}
	sinks[2].cap = 16u << 20;
	supervise(c, pid, &p, sinks, start);
	c->wall_s = mono_seconds() - start;
	sink_take(&sinks[0], &c->out, &c->out_len, &c->out_dropped);
	sink_take(&sinks[1], &c->err, &c->err_len, &c->err_dropped);
	sink_take(&sinks[2], &c->result, &c->result_len, &c->result_dropped);
	if (!c->want_result) {
		free(c->result);
		c->result = NULL;
	}
fail:
	pipes_close(&p);
	free(env);
	free(fd_entry);
	free(key_entry);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

void run_child_free(struct run_child *c)
{
	free(c->out);
	free(c->err);
	free(c->result);
	c->out = c->err = c->result = NULL;
}

/* Waits for pid for at most timeout_s (> 0) seconds; returns 1 when it
 * ran out of time (pid is then killed and reaped), 0 when it ended. */
static int wait_limited(pid_t pid, double timeout_s, int *status)
{
	int pidfd = pidfd_for(pid);
	double deadline = mono_seconds() + timeout_s;
	int late = 0;

	while (!child_ended(pid)) {
		double left = deadline - mono_seconds();

		if (left <= 0) {
			kill(pid, SIGKILL);
			late = 1;
			break;
		}
		if (pidfd >= 0) {
			struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

			poll(&pfd, 1, (int)(left * 1000) + 1);
		} else {
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return late;
}

int run_program_exec(const char *exe, char *const args[], double timeout_s, const char *counters,
		     const char *hazards)
{
	struct sigaction ign, old_int, old_quit;
	char *entry = counters ? xasprintf("CUDALAB_SIMT_COUNTERS=%s", counters) : NULL;
	char *hz = hazards ? xasprintf("CUDALAB_SIMT_HAZARDS=%s", hazards) : NULL;
	const char *add[] = { hz, NULL };
	char **env = child_env(hz ? add : NULL, entry, NULL);
	int errp[2], err = 0, status = 0, late = 0;
	pid_t pid;

	if (pipe2(errp, O_CLOEXEC) != 0) {
		err = errno;
		goto done;
	}
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execve(exe, args, env);
		err = errno;
		if (write(errp[1], &err, sizeof err) < 0)
			_exit(127);
		_exit(127);
	}
	close(errp[1]);
	if (pid < 0) {
		err = errno;
	} else if (read(errp[0], &err, sizeof err) == (ssize_t)sizeof err) {
		waitpid(pid, NULL, 0);
	} else {
		err = 0;
		if (timeout_s > 0)
			late = wait_limited(pid, timeout_s, &status);
		else
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
	}
	close(errp[0]);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
done:
	free(env);
	free(entry);
	free(hz);
	if (err) {
		errno = err;
		return -1;
	}
	if (late)
		return 124;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
