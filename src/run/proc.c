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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cudalab/util.h"
#include "sandbox.h"

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

/* Whether entry ("NAME=VALUE") sets a variable named in names. */
static int env_named(const char *entry, const char *const *names)
{
	const char *eq = strchr(entry, '=');
	size_t len = eq ? (size_t)(eq - entry) + 1 : strlen(entry);

	for (size_t j = 0; names && names[j]; j++)
		if (strncmp(entry, names[j], len) == 0)
			return 1;
	return 0;
}

/* The environment with add's entries (and extra, when not NULL) set on
 * top: same-named entries of environ are left out, and with clean every
 * CUDALAB_* of environ too. */
static char **child_env(const char *const *add, const char *extra, int clean)
{
	size_t n_env = 0, n_add = 0, k = 0;
	const char *more[] = { extra, NULL };
	char **env;

	while (environ && environ[n_env])
		n_env++;
	while (add && add[n_add])
		n_add++;
	env = xcalloc(n_env + n_add + 2, sizeof *env);
	for (size_t i = 0; i < n_env; i++) {
		if (env_named(environ[i], add) || (extra && env_named(environ[i], more)) ||
		    (clean && str_starts(environ[i], "CUDALAB_")))
			continue;
		env[k++] = environ[i];
	}
	for (size_t j = 0; j < n_add; j++)
		env[k++] = (char *)add[j];
	if (extra)
		env[k++] = (char *)extra;
	env[k] = NULL;
	return env;
}

/* Pipes of one run: [0] stdout, [1] stderr (unused with merge), [2] the
 * result, [3] reports: 8-byte records, 'E' with the errno of a failed
 * exec, and from a sandbox its own (sandbox.h). */
#define NPIPES 4
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

		if ((i == 1 && c->merge) || (i == 2 && !c->want_result))
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

/* What a child needs between fork and exec. */
struct start {
	const struct run_child *c;
	const struct pipes *p;
	char **env;
};

/* The program's side of a start, in the child: standard streams, no
 * descriptor of cudalab's, exec.  Only async-signal-safe calls. */
static UTIL_NORETURN void child_exec(void *arg)
{
	const struct start *s = arg;
	const struct run_child *c = s->c;
	const struct pipes *p = s->p;
	struct rlimit no_core = { 0, 0 };
	sigset_t none;
	int devnull, err;

	setrlimit(RLIMIT_CORE, &no_core);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0 && devnull != 0)
		dup2(devnull, 0);
	dup2(p->wr[0], 1);
	dup2(c->merge ? p->wr[0] : p->wr[1], 2);
	/* Nothing of cudalab's (the database, the terminal) leaks into the
	 * program; only the result pipe and the descriptors given stay open. */
#if defined(SYS_close_range) && defined(CLOSE_RANGE_CLOEXEC)
	syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
#endif
	if (p->wr[2] >= 0)
		fcntl(p->wr[2], F_SETFD, 0);
	for (size_t i = 0; i < c->n_give; i++)
		fcntl(c->give_fds[i], F_SETFD, 0);
	if (c->dir && chdir(c->dir) != 0)
		goto fail;
	execvpe(c->argv[0], c->argv, s->env);
fail:
	err = errno;
	run_sandbox_record(p->wr[3], 'E', err);
	_exit(127);
}

/* A plain child: its own process group, killed with cudalab. */
static UTIL_NORETURN void child_start(struct start *s, pid_t parent)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	child_exec(s);
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

/* One child of a run_children_exec. */
struct kid {
	struct run_child *c;
	struct pipes p;
	struct sink sinks[3];
	struct start start;
	char *fd_entry;        /* CUDALAB_RESULT_FD=N, in start's environment */
	pid_t pid;
	int pidfd, ns, ended, stopping;
	double began, grace;   /* grace: stop reading at this time (0: not yet) */
	double stop_at;        /* the others' end: stop this one then (0: not asked) */
	char rec[8];           /* a report record, as far as it came */
	size_t rec_len;
	int prog_status, have_status, exec_err;
};

static void take_record(struct kid *k)
{
	int value;

	memcpy(&value, k->rec + 4, sizeof value);
	switch (k->rec[0]) {
	case 'E':
		k->exec_err = value ? value : ENOEXEC;
		break;
	case 'S':
		k->c->sandboxed |= (unsigned)value;
		break;
	case 'L':
		k->c->sandboxed |= (unsigned)value;
		break;
	case 'W':
		k->prog_status = value;
		k->have_status = 1;
		break;
	case 'F':
		k->exec_err = value ? value : EPERM;
		break;
	}
}

/* Reads what the report pipe holds, record by record; 0 when it has
 * nothing now. */
static int read_reports(struct kid *k)
{
	ssize_t n = read(k->p.rd[3], k->rec + k->rec_len, sizeof k->rec - k->rec_len);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return errno == EINTR;
	if (n <= 0) {
		close(k->p.rd[3]);
		k->p.rd[3] = -1;
		return 0;
	}
	k->rec_len += (size_t)n;
	if (k->rec_len == sizeof k->rec) {
		take_record(k);
		k->rec_len = 0;
	}
	return 1;
}

/* Ends a child and all it started: a sandbox's init gets SIGTERM first,
 * so that without a pid namespace it can sweep what the program left;
 * the group gets SIGKILL a little later (or at once). */
static void stop_kid(struct kid *k, double now, int at_once)
{
	if (k->c->sandbox && !k->ns && !at_once && !k->stopping) {
		kill(k->pid, SIGTERM);
		k->stopping = 1;
		k->stop_at = now + 0.5;
		return;
	}
	kill(-k->pid, SIGKILL);
	k->stopping = 1;
	k->stop_at = 0;
}

static int kid_pipes_open(const struct kid *k)
{
	for (int i = 0; i < NPIPES; i++)
		if (k->p.rd[i] >= 0)
			return 1;
	return 0;
}

/* Collects output until every child has ended and its pipes are closed.
 * A child's deadline or the cancel flag stops it (all of them, for
 * cancel); a child that ends is killed with what it left in its group,
 * its pipes then read for a short grace period only; a child marked
 * ends_run stops the others when it ends. */
static void supervise(struct kid *v, size_t n)
{
	for (;;) {
		struct pollfd pfd[64];
		struct kid *owner[64];
		int which[64], m = 0, wait_ms = 200, busy = 0;
		double t = mono_seconds();

		for (size_t i = 0; i < n; i++) {
			struct kid *k = &v[i];
			const struct run_child *c = k->c;
			double deadline = c->timeout_s > 0 ? k->began + c->timeout_s : 0;

			if (!k->ended && child_ended(k->pid)) {
				k->ended = 1;
				kill(-k->pid, SIGKILL); /* what it left behind */
				k->grace = k->grace ? k->grace : t + 2.0;
				for (size_t j = 0; c->ends_run && j < n; j++)
					if (j != i && !v[j].ended && !v[j].stop_at && !v[j].stopping)
						v[j].stop_at = t + 1.0;
			}
			if (!k->grace && ((deadline && t >= deadline) || (c->cancel && *c->cancel))) {
				for (size_t j = 0; j < n; j++) {
					struct kid *o = &v[j];

					if (c->cancel && *c->cancel)
						o->c->cancelled = 1;
					else if (j == i)
						o->c->timed_out = 1;
					if (j == i || (c->cancel && *c->cancel))
						stop_kid(o, t, 0);
					o->grace = o->grace ? o->grace : t + 1.5;
				}
			}
			if (k->stop_at && t >= k->stop_at)
				stop_kid(k, t, k->stopping);
			if (c->tick && !k->ended)
				c->tick(c->tick_ctx);
			if ((k->ended && !kid_pipes_open(k)) || (k->grace && t > k->grace))
				continue;
			busy = 1;
			if (deadline && !k->grace && (deadline - t) * 1000 < wait_ms)
				wait_ms = (int)((deadline - t) * 1000) + 1;
			if (k->stop_at && (k->stop_at - t) * 1000 < wait_ms)
				wait_ms = (int)((k->stop_at - t) * 1000) + 1;
			for (int j = 0; j < NPIPES && m < 60; j++) {
				if (k->p.rd[j] < 0)
					continue;
				pfd[m] = (struct pollfd){ .fd = k->p.rd[j], .events = POLLIN };
				owner[m] = k;
				which[m++] = j;
			}
			if (k->pidfd < 0 || k->ended)
				wait_ms = wait_ms < 10 ? wait_ms : 10;
			else if (m < 64) {
				pfd[m] = (struct pollfd){ .fd = k->pidfd, .events = POLLIN };
				owner[m] = k;
				which[m++] = -1;
			}
		}
		if (!busy)
			break;
		if (poll(pfd, (nfds_t)m, wait_ms < 0 ? 0 : wait_ms) <= 0)
			continue;
		for (int j = 0; j < m; j++) {
			struct kid *k = owner[j];

			if (which[j] < 0 || !(pfd[j].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (which[j] == 3)
				read_reports(k);
			else
				drain_one(&k->p.rd[which[j]], &k->sinks[which[j]]);
		}
	}
}

static void sink_take(struct sink *s, char **text, size_t *len, size_t *dropped)
{
	*len = s->sb.len;
	*dropped = s->dropped;
	*text = sb_steal(&s->sb);
}

static void child_reset(struct run_child *c)
{
	c->out = c->err = c->result = NULL;
	c->out_len = c->err_len = c->result_len = 0;
	c->out_dropped = c->err_dropped = c->result_dropped = 0;
	c->status = 0;
	c->timed_out = c->cancelled = 0;
	c->wall_s = 0;
	c->sandboxed = 0;
}

/* Starts k's child.  A plain child's exec failure is known here (its
 * report pipe closes on exec or brings the errno); a sandboxed one's
 * comes later, through the same pipe.  Returns 0, or -1 with errno. */
static int kid_start(struct kid *k)
{
	struct run_child *c = k->c;
	pid_t parent = getpid();
	char rec[8];
	int err = 0;

	k->pidfd = -1;
	k->pid = -1;
	if (pipes_open(&k->p, c) != 0)
		return -1;
	if (c->want_result)
		k->fd_entry = xasprintf("CUDALAB_RESULT_FD=%d", k->p.wr[2]);
	k->start = (struct start){ c, &k->p, child_env(c->env, k->fd_entry, c->clean_env) };
	k->began = mono_seconds();
	if (c->sandbox)
		k->pid = run_sandbox_spawn(c->sandbox, k->p.wr[3], child_exec, &k->start, &k->ns);
	else if ((k->pid = fork()) == 0)
		child_start(&k->start, parent);
	if (k->pid < 0)
		return -1;
	setpgid(k->pid, k->pid); /* also here, so the group exists before any kill */
	for (int i = 0; i < NPIPES; i++) {
		if (k->p.wr[i] >= 0)
			close(k->p.wr[i]);
		k->p.wr[i] = -1;
	}
	k->pidfd = pidfd_for(k->pid);
	if (c->sandbox)
		return 0;
	if (read(k->p.rd[3], rec, sizeof rec) == (ssize_t)sizeof rec && rec[0] == 'E') {
		memcpy(&err, rec + 4, sizeof err);
		while (waitpid(k->pid, NULL, 0) < 0 && errno == EINTR)
			;
		k->pid = -1;
		errno = err ? err : ENOEXEC;
		return -1;
	}
	return 0;
}

/* Waits for k's child and fills its outputs. */
static void kid_finish(struct kid *k)
{
	struct run_child *c = k->c;
	int status = 0;

	if (k->pid > 0) {
		kill(-k->pid, SIGKILL);
		while (waitpid(k->pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	/* what the sandbox's init reported last (its end closed the pipe) */
	if (k->p.rd[3] >= 0) {
		fcntl(k->p.rd[3], F_SETFL, O_NONBLOCK);
		while (k->p.rd[3] >= 0 && read_reports(k))
			;
	}
	c->status = k->have_status ? k->prog_status : status;
	c->wall_s = mono_seconds() - k->began;
	sink_take(&k->sinks[0], &c->out, &c->out_len, &c->out_dropped);
	sink_take(&k->sinks[1], &c->err, &c->err_len, &c->err_dropped);
	sink_take(&k->sinks[2], &c->result, &c->result_len, &c->result_dropped);
	if (!c->want_result) {
		free(c->result);
		c->result = NULL;
	}
	if (k->pidfd >= 0)
		close(k->pidfd);
	pipes_close(&k->p);
	free(k->start.env);
	free(k->fd_entry);
}

int run_children_exec(struct run_child *v, size_t n)
{
	struct kid *kids = xcalloc(n, sizeof *kids);
	size_t started = 0;
	int err = 0;

	for (size_t i = 0; i < n; i++) {
		child_reset(&v[i]);
		kids[i].c = &v[i];
		kids[i].pid = kids[i].pidfd = -1;
		for (int j = 0; j < NPIPES; j++)
			kids[i].p.rd[j] = kids[i].p.wr[j] = -1;
		for (int j = 0; j < 3; j++) {
			sb_init(&kids[i].sinks[j].sb);
			kids[i].sinks[j].cap = j == 2 ? 16u << 20 : v[i].cap;
		}
	}
	for (; started < n && !err; started++)
		if (kid_start(&kids[started]) != 0)
			err = errno ? errno : EIO;
	/* the descriptors given are the children's alone now */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < v[i].n_give; j++)
			close(v[i].give_fds[j]);
	if (err) {
		for (size_t i = 0; i < started; i++)
			if (kids[i].pid > 0)
				kill(-kids[i].pid, SIGKILL);
	} else {
		supervise(kids, n);
	}
	for (size_t i = 0; i < n; i++) {
		kid_finish(&kids[i]);
		if (!err && kids[i].exec_err)
			err = kids[i].exec_err;
	}
	free(kids);
	if (err) {
		for (size_t i = 0; i < n; i++)
			run_child_free(&v[i]);
		errno = err;
		return -1;
	}
	return 0;
}

int run_child_exec(struct run_child *c)
{
	return run_children_exec(c, 1);
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
	char **env = child_env(hz ? add : NULL, entry, 0);
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
