/* sandbox.c — the room a program under check runs in, as judges of
 * untrusted code build theirs (isolate, nsjail, bubblewrap), where the
 * kernel allows it without privileges:
 *
 *   - new user, mount and pid namespaces: the program sees the whole file
 *     system read-only (its progress database, the build cache, the
 *     content and the harness library included), the exercises' folders
 *     empty (no solution to read), a private /tmp and /dev/shm, and a
 *     /proc of its own in which no process of the learner's session,
 *     cudalab or the checker appears;
 *   - an init of cudalab's own as the namespace's first process: when the
 *     program ends, the init ends, and the kernel ends every process the
 *     program started, setsid or not;
 *   - in the program: no capabilities and no new privileges, at most
 *     nproc processes and threads (RLIMIT_NPROC, counted in its own user
 *     namespace), and a seccomp filter that refuses ptrace,
 *     process_vm_readv/writev and pidfd_getfd.
 *
 * Without user namespaces (a kernel that refuses them to unprivileged
 * users) the init still sweeps what the program leaves, as a child
 * subreaper, and the program still gets the seccomp filter and loses its
 * capabilities; the report says what held.
 *
 * Everything here between clone and exec runs in a child of a process
 * that may have other threads: only system calls, no allocation, no
 * stdio. */
#include "sandbox.h"

#include "cudalab/run.h"
#include "cudalab/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CLONE_NEWUSER
#define CLONE_NEWUSER 0x10000000
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#endif

#if defined(__x86_64__)
#define SB_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SB_ARCH AUDIT_ARCH_AARCH64
#endif

/* mount_setattr's argument, as the kernel lays it out (older C
 * libraries do not declare it). */
struct sb_mount_attr {
	unsigned long long attr_set, attr_clr, propagation, userns_fd;
};

void run_sandbox_record(int fd, char tag, int value)
{
	char rec[8] = { tag, 0, 0, 0 };
	ssize_t n;

	memcpy(rec + 4, &value, sizeof value);
	do
		n = write(fd, rec, sizeof rec);
	while (n < 0 && errno == EINTR);
}

/* --- the init, in the namespaces ----------------------------------------- */

/* Decimal digits of v into buf (async-signal-safe snprintf("%u")). */
static char *utoa(unsigned v, char *end)
{
	*--end = '\0';
	do
		*--end = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	return end;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = -1;

	if (fd >= 0) {
		n = write(fd, text, strlen(text));
		close(fd);
	}
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* "ID ID 1": the outside id stays the same inside. */
static int map_id(const char *path, unsigned id)
{
	char a[16], line[48];
	const char *s = utoa(id, a + sizeof a);
	size_t n = strlen(s);

	memcpy(line, s, n);
	line[n] = ' ';
	memcpy(line + n + 1, s, n);
	memcpy(line + 2 * n + 1, " 1\n", 4);
	return write_text(path, line);
}

static int is_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* Whether path lies in directory dir. */
static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return path && strncmp(path, dir, n) == 0 && path[n] == '/';
}

/* Every mount read-only at once (Linux 5.12 on); else the listed
 * directories, one bind mount each. */
static unsigned make_readonly(const struct run_sandbox *sb)
{
	unsigned got = 0;
	size_t done = 0;

#ifdef SYS_mount_setattr
	struct sb_mount_attr attr = { MOUNT_ATTR_RDONLY, 0, 0, 0 };

	if (syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &attr, sizeof attr) == 0)
		return RUN_SB_READONLY;
#endif
	for (size_t i = 0; i < sb->n_readonly; i++) {
		const char *d = sb->readonly[i];

		if (mount(d, d, NULL, MS_BIND | MS_REC, NULL) == 0 &&
		    mount(NULL, d, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL) == 0)
			done++;
	}
	if (sb->n_readonly && done == sb->n_readonly)
		got |= RUN_SB_READONLY_SOME;
	return got;
}

/* Makes the namespaces the init was cloned into a place to run the
 * program in.  Returns what held; -1 when the ids could not be mapped
 * (then nothing here can work). */
static int enter(const struct run_sandbox *sb, unsigned uid, unsigned gid)
{
	unsigned got = RUN_SB_USERNS | RUN_SB_SWEEP;
	size_t hidden = 0;

	write_text("/proc/self/setgroups", "deny"); /* absent before Linux 3.19 */
	if (map_id("/proc/self/uid_map", uid) != 0 || map_id("/proc/self/gid_map", gid) != 0)
		return -1;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return (int)got;
	got |= make_readonly(sb);
	for (size_t i = 0; i < sb->n_hide; i++)
		hidden += mount("tmpfs", sb->hide[i], "tmpfs",
				MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0555,size=4k") == 0;
	if (sb->n_hide && hidden == sb->n_hide)
		got |= RUN_SB_HIDDEN;
	/* not over the program itself (a home under /tmp, as in tests) */
	if (!under(sb->program, "/tmp") &&
	    mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777,size=1g") == 0)
		got |= RUN_SB_TMP;
	if (is_dir("/dev/shm") && !under(sb->program, "/dev/shm"))
		mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777,size=1g");
	/* the init is this pid namespace's first process: its /proc shows
	 * the namespace's processes only */
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0)
		got |= RUN_SB_PROC;
	return (int)got;
}

/* --- the program's lock-down ---------------------------------------------- */

/* Refuses ptrace, process_vm_readv/writev and pidfd_getfd (and every
 * call of another architecture's numbering, which could name them by
 * other numbers). */
static int seccomp_install(void)
{
#ifdef SB_ARCH
	static const unsigned denied[] = {
		__NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev,
#ifdef __NR_pidfd_getfd
		__NR_pidfd_getfd,
#endif
	};
	enum { N = sizeof denied / sizeof denied[0] };
	/* arch check (3), nr load (1), x32 check (1), one test per call, allow, deny */
	struct sock_filter f[3 + 1 + 1 + N + 2];
	struct sock_fprog prog;
	unsigned k = 0, deny = 3 + 1 + 1 + N + 1;

	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[k] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SB_ARCH, 1, 0);
	k++;
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	/* x86-64's x32 numbers carry bit 30; no other numbering has it */
	f[k] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u,
					    (unsigned char)(deny - k - 1), 0);
	k++;
	for (unsigned i = 0; i < N; i++, k++)
		f[k] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, denied[i],
						    (unsigned char)(deny - k - 1), 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	prog.len = (unsigned short)k;
	prog.filter = f;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
#else
	errno = ENOSYS;
	return -1;
#endif
}

/* No capabilities now or after exec (as uid 0 too), and none to gain. */
static int drop_caps(void)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct none[2];

	memset(none, 0, sizeof none);
	prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
				   SECBIT_NO_SETUID_FIXUP_LOCKED, 0, 0, 0);
	for (int cap = 0; cap < 64; cap++)
		prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
#ifdef PR_CAP_AMBIENT
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
#endif
	if (syscall(SYS_capset, &head, none) != 0)
		return -1;
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

static unsigned lock_down(const struct run_sandbox *sb, int ns)
{
	unsigned got = 0;

	/* counted per user namespace, so only there does it count the
	 * program's processes alone */
	if (ns && sb->nproc) {
		struct rlimit r = { sb->nproc, sb->nproc };

		if (setrlimit(RLIMIT_NPROC, &r) == 0)
			got |= RUN_SB_NPROC;
	}
	if (drop_caps() == 0)
		got |= RUN_SB_CAPS;
	else
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (seccomp_install() == 0)
		got |= RUN_SB_SECCOMP;
	return got;
}

/* --- the init's watch ------------------------------------------------------ */

static volatile sig_atomic_t stop_asked;

static void on_term(int sig)
{
	(void)sig;
	stop_asked = 1;
}

/* The parent pid field of /proc/PID/stat, or -1. */
static long parent_of(const char *pid)
{
	char path[64] = "/proc/", buf[512], *p;
	size_t n = strlen(pid);
	ssize_t len;
	int fd;

	if (n > 20)
		return -1;
	memcpy(path + 6, pid, n);
	memcpy(path + 6 + n, "/stat", 6);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	/* "pid (comm) S ppid ...": comm may hold anything, the last ')' ends it */
	p = NULL;
	for (char *q = buf; *q; q++)
		if (*q == ')')
			p = q;
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	p += 4;
	n = 0;
	for (long v = 0;; p++) {
		if (*p < '0' || *p > '9')
			return n ? v : -1;
		v = v * 10 + (*p - '0');
		n++;
	}
}

/* Kills the children of this process (a subreaper's: what the program
 * left, reparented here); returns how many there were. */
static int kill_children(void)
{
	char buf[4096];
	long self = (long)getpid();
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), found = 0;
	long n;

	if (fd < 0)
		return 0;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
		for (long off = 0; off < n;) {
			struct {
				unsigned long long ino;
				long long off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(buf + off);
			long pid = 0;

			off += d->reclen;
			if (d->name[0] < '1' || d->name[0] > '9' || parent_of(d->name) != self)
				continue;
			for (const char *c = d->name; *c; c++)
				pid = pid * 10 + (*c - '0');
			kill((pid_t)pid, SIGKILL);
			found++;
		}
	}
	close(fd);
	return found;
}

/* Without a pid namespace: ends whatever the program left (its orphans
 * come to this subreaper) until nothing is left. */
static void sweep(void)
{
	struct timespec ms = { 0, 1000000 };

	for (int round = 0; round < 2000; round++) {
		int killed = kill_children();

		while (waitpid(-1, NULL, WNOHANG | __WALL) > 0)
			;
		if (!killed && waitpid(-1, NULL, WNOHANG | __WALL) < 0 && errno == ECHILD)
			return;
		nanosleep(&ms, NULL);
	}
}

/* Closes every descriptor but keep. */
static void close_all_but(int keep)
{
#ifdef SYS_close_range
	if (keep > 3)
		syscall(SYS_close_range, 3U, (unsigned)keep - 1, 0U);
	if (syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0U) == 0)
		return;
#endif
	for (int fd = 3; fd < 1024; fd++)
		if (fd != keep)
			close(fd);
}

static pid_t raw_fork(unsigned long flags)
{
	return (pid_t)syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
}

static UTIL_NORETURN void init_main(const struct run_sandbox *sb, int ns, unsigned uid,
				    unsigned gid, int report_fd, void (*start)(void *), void *ctx)
{
	struct sigaction sa;
	sigset_t none;
	pid_t prog;
	int setup, status = 0;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL); /* no SA_RESTART: waitpid returns */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (ns) {
		setup = enter(sb, uid, gid);
		if (setup < 0) {
			run_sandbox_record(report_fd, 'F', errno);
			_exit(125);
		}
	} else {
		setup = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? RUN_SB_SWEEP : 0;
	}
	/* nothing of the init's (a copy of cudalab's memory and descriptors)
	 * is open to the program */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	run_sandbox_record(report_fd, 'S', setup);
	prog = raw_fork(0);
	if (prog == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		run_sandbox_record(report_fd, 'L', (int)lock_down(sb, ns));
		start(ctx);
		_exit(127);
	}
	close_all_but(report_fd);
	if (prog < 0) {
		run_sandbox_record(report_fd, 'F', errno);
		_exit(125);
	}
	for (;;) {
		pid_t p = waitpid(-1, &status, __WALL);

		if (p == prog)
			break;
		if (p < 0 && errno == EINTR && stop_asked) {
			kill(prog, SIGKILL);
			stop_asked = 0;
		} else if (p < 0 && errno != EINTR) {
			status = 0;
			break;
		}
	}
	run_sandbox_record(report_fd, 'W', status);
	/* the first process of a pid namespace ends it, and the kernel ends
	 * every other process in it */
	if (!ns)
		sweep();
	_exit(0);
}

pid_t run_sandbox_spawn(const struct run_sandbox *sb, int report_fd, void (*start)(void *ctx),
			void *ctx, int *ns)
{
	unsigned uid = (unsigned)geteuid(), gid = (unsigned)getegid();
	pid_t pid = raw_fork(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID);

	*ns = 1;
	if (pid < 0 && (errno == EPERM || errno == EINVAL || errno == ENOSPC ||
			errno == EUSERS || errno == ENOSYS || errno == EACCES)) {
		*ns = 0;
		pid = fork();
	}
	if (pid == 0)
		init_main(sb, *ns, uid, gid, report_fd, start, ctx);
	return pid;
}

/* --- a check's sandbox ----------------------------------------------------- */

static char *parent_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash != path ? xstrndup(path, (size_t)(slash - path)) : xstrdup(path);
}

void run_sandbox_for_check(struct run_sandbox *sb, struct run_sandbox_paths *paths,
			   const char *ex_dir, const char *home, const char *content,
			   const char *include, const char *program)
{
	const char *ro[] = { home, content, include };
	size_t n = 0;

	memset(sb, 0, sizeof *sb);
	memset(paths, 0, sizeof *paths);
	paths->hide[0] = parent_dir(ex_dir);
	paths->hide_c[0] = paths->hide[0];
	for (size_t i = 0; i < 3; i++)
		if (ro[i] && ro[i][0] == '/') {
			paths->readonly[n] = xstrdup(ro[i]);
			paths->readonly_c[n] = paths->readonly[n];
			n++;
		}
	sb->hide = paths->hide_c;
	sb->n_hide = 1;
	sb->readonly = paths->readonly_c;
	sb->n_readonly = n;
	sb->nproc = 512;
	sb->program = program;
}

void run_sandbox_paths_free(struct run_sandbox_paths *paths)
{
	free(paths->hide[0]);
	for (size_t i = 0; i < 3; i++)
		free(paths->readonly[i]);
	memset(paths, 0, sizeof *paths);
}

unsigned run_sandbox_probe(void)
{
	char *argv[] = { "true", NULL };
	const char *home = getenv("HOME");
	const char *ro[] = { home && *home == '/' ? home : "/" };
	struct run_sandbox sb;
	struct run_child c;
	unsigned got;

	memset(&sb, 0, sizeof sb);
	sb.readonly = ro;
	sb.n_readonly = 1;
	sb.nproc = 512;
	memset(&c, 0, sizeof c);
	c.argv = argv;
	c.cap = 4096;
	c.timeout_s = 10;
	c.sandbox = &sb;
	if (run_child_exec(&c) != 0)
		return 0;
	got = c.sandboxed;
	run_child_free(&c);
	return got;
}

static const struct {
	unsigned bit;
	const char *name, *words;
} sb_names[] = {
	{ RUN_SB_USERNS, "namespaces", "user, mount and pid namespaces of its own" },
	{ RUN_SB_READONLY, "readonly", "the whole file system read-only" },
	{ RUN_SB_READONLY_SOME, "readonly_home",
	  "the home (progress, build cache), the content and lab.h read-only" },
	{ RUN_SB_HIDDEN, "solutions_hidden", "the exercises' folders (the solutions) not visible" },
	{ RUN_SB_TMP, "private_tmp", "a private /tmp" },
	{ RUN_SB_PROC, "private_proc", "no other process in sight" },
	{ RUN_SB_SWEEP, "sweep", "every process it starts ends with it, setsid or not" },
	{ RUN_SB_SECCOMP, "seccomp", "no ptrace, process_vm_readv/writev or pidfd_getfd" },
	{ RUN_SB_NPROC, "nproc", "a limit on processes and threads (RLIMIT_NPROC)" },
	{ RUN_SB_CAPS, "no_caps", "no capabilities, no new privileges" },
};

const char *run_sandbox_name(unsigned bit)
{
	for (size_t i = 0; i < sizeof sb_names / sizeof sb_names[0]; i++)
		if (sb_names[i].bit == bit)
			return sb_names[i].name;
	return NULL;
}

const char *run_sandbox_words(unsigned bit)
{
	for (size_t i = 0; i < sizeof sb_names / sizeof sb_names[0]; i++)
		if (sb_names[i].bit == bit)
			return sb_names[i].words;
	return NULL;
}
