/* The host's accesses of device memory.  Device memory is handed to the
 * program in the guarded range, which is never mapped (arena.c), so host
 * code that reads or writes it faults, as on a GPU.  This handler says
 * why before the program dies of that fault:
 *
 *   simt: host code read byte 0 of a cudaMalloc allocation (400 bytes,
 *   made at harness.cu:22) at kernel.cu:9 in solve(); device memory is
 *   only reachable from kernels or cudaMemcpy
 *
 * A signal handler may only call what is async-signal-safe, so it reads
 * the table of allocations without locking (the program is about to die
 * in any case), formats into a buffer of its own, and leaves the source
 * lines to addr2line, run as a child process on the program's file: the
 * faulting instruction (or, when that lies in a library such as libc's
 * memcpy, the first return address into the program) and the allocation's
 * call site.  Host code has line information when built with -g, as the
 * runner builds programs for simt; without it the report names the
 * function, or the address.  Faults elsewhere go to the handler that was
 * there before (the race check of managed memory, a sanitizer's), or end
 * the program as they would have. */
#include "mem/mem.h"

#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

extern char **environ;

/* The program's own file, where it is loaded (its bias and the span of
 * its segments), learnt when the handler is installed. */
static char exe[4096];
static uint64_t exe_bias, exe_lo, exe_hi;
static struct sigaction old_segv;

/* ---- a buffer written without the C library's formatting ---- */

struct line {
	char s[2048];
	size_t n;
};

static void put(struct line *l, const char *s, size_t n)
{
	if (n > sizeof l->s - 1 - l->n)
		n = sizeof l->s - 1 - l->n;
	memcpy(l->s + l->n, s, n);
	l->n += n;
}

static void puts_(struct line *l, const char *s)
{
	put(l, s, strlen(s));
}

static void put_num(struct line *l, uint64_t v, unsigned base)
{
	char d[24];
	int i = (int)sizeof d;

	do {
		d[--i] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (base == 16)
		puts_(l, "0x");
	put(l, d + i, sizeof d - (size_t)i);
}

/* ---- where the program is ---- */

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	int i;

	(void)size;
	(void)data;
	exe_bias = info->dlpi_addr;
	exe_lo = UINT64_MAX;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (exe_bias + ph->p_vaddr < exe_lo)
			exe_lo = exe_bias + ph->p_vaddr;
		if (exe_bias + ph->p_vaddr + ph->p_memsz > exe_hi)
			exe_hi = exe_bias + ph->p_vaddr + ph->p_memsz;
	}
	return 1;       /* the first object is the program */
}

static bool in_exe(uint64_t pc)
{
	return pc - exe_lo < exe_hi - exe_lo;
}

/* ---- addr2line ---- */

/* Runs `addr2line -a -f -C -i -e EXE ADDR...` with its output in a pipe
 * (looked for on PATH), from a process forked by a raw clone (the C
 * library's fork may not be called from a handler).  Returns the bytes
 * read into out (NUL-terminated), 0 when it could not run. */
static size_t addr2line(const uint64_t *addrs, int n, char *out, size_t cap)
{
	char hex[4][24], *argv[12];
	int fd[2], argc = 0, i, st;
	size_t got = 0;
	ssize_t r;
	pid_t pid;

	argv[argc++] = "addr2line";
	argv[argc++] = "-a";
	argv[argc++] = "-f";
	argv[argc++] = "-C";
	argv[argc++] = "-i";
	argv[argc++] = "-e";
	argv[argc++] = exe;
	for (i = 0; i < n && i < 4; i++) {
		struct line l = {.n = 0};

		put_num(&l, addrs[i], 16);
		memcpy(hex[i], l.s, l.n);
		hex[i][l.n] = 0;
		argv[argc++] = hex[i];
	}
	argv[argc] = NULL;
	if (!exe[0] || pipe(fd) != 0)
		return 0;
	pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		const char *path = NULL;
		char file[4200];
		int null = open("/dev/null", O_RDWR);

		dup2(fd[1], 1);
		if (null >= 0)
			dup2(null, 2);
		for (i = 0; environ && environ[i]; i++)
			if (!strncmp(environ[i], "PATH=", 5))
				path = environ[i] + 5;
		if (!path)
			path = "/usr/bin:/bin";
		while (*path) {
			size_t k = strcspn(path, ":");

			if (k && k < sizeof file - 16) {
				memcpy(file, path, k);
				memcpy(file + k, "/addr2line", 11);
				execve(file, argv, environ);
			}
			path += k + (path[k] == ':');
		}
		_exit(127);
	}
	close(fd[1]);
	while (pid > 0 && got + 1 < cap &&
	       (r = read(fd[0], out + got, cap - 1 - got)) > 0)
		got += (size_t)r;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	out[got] = 0;
	return pid > 0 ? got : 0;
}

/* The line after the one starting at s (or the end). */
static const char *next_line(const char *s)
{
	const char *e = strchr(s, '\n');

	return e ? e + 1 : s + strlen(s);
}

/* The length of the line starting at s, without its newline. */
static size_t line_len(const char *s)
{
	return strcspn(s, "\n");
}

/* Whether addr2line's location line s names a source file rather than a
 * header. */
static bool source_file(const char *s)
{
	static const char *const exts[] = { ".cu:", ".cpp:", ".cc:", ".cxx:", ".c:" };
	size_t n = line_len(s), i, k;

	for (i = 0; i < sizeof exts / sizeof exts[0]; i++)
		for (k = 0; k + strlen(exts[i]) <= n; k++)
			if (!memcmp(s + k, exts[i], strlen(exts[i])))
				return true;
	return false;
}

/* Finds, for address number `which` of addr2line's answer, its place:
 * of its chain of inlined frames (pairs of a function and a location,
 * the innermost first), the innermost in a source file rather than a
 * header (a fault inside a helper that the harness's headers inline is
 * the harness's line), else the innermost.  False when there is none. */
static bool find_place(const char *ans, int which, const char **fn,
		       const char **loc)
{
	const char *s;
	int k = -1;

	*fn = *loc = NULL;
	for (s = ans; *s; s = next_line(s)) {
		const char *f = s;

		if (!strncmp(s, "0x", 2)) {
			k++;
			continue;
		}
		s = next_line(s);
		if (!*s)
			break;
		if (k == which && (!*fn || (!source_file(*loc) && source_file(s)))) {
			*fn = f;
			*loc = s;
		}
	}
	return *fn != NULL;
}

/* Writes the file name and line of a location line ("kernel.cu:9");
 * false when addr2line did not know them. */
static bool put_loc(struct line *l, const char *loc)
{
	const char *base = loc, *p;
	size_t n = line_len(loc);

	if (!strncmp(loc, "??", 2))
		return false;
	for (p = loc; p < loc + n; p++)
		if (*p == '/')
			base = p + 1;
	n = strcspn(base, " \n");      /* less " (discriminator N)" */
	if (n > 2 && (!memcmp(base + n - 2, ":0", 2) || !memcmp(base + n - 2, ":?", 2)))
		n -= 2;
	put(l, base, n);
	return true;
}

/* Writes where the faulting instruction (address `which`) lies, as
 * "kernel.cu:9 in solve()", or less when addr2line knew less; false
 * when it knew nothing. */
static bool put_fault_place(struct line *l, const char *ans, int which)
{
	const char *fn, *loc;
	bool line;

	if (!find_place(ans, which, &fn, &loc))
		return false;
	line = put_loc(l, loc);
	if (strncmp(fn, "??", 2)) {
		if (line)
			puts_(l, " in ");
		put(l, fn, strcspn(fn, "(\n"));
		puts_(l, "()");
		return true;
	}
	return line;
}

/* Writes the line of the program that made the allocation: of the
 * addresses first..first+n-1 (the call's return address, then the calls
 * around it), the first whose place is in a source file, else the first
 * with a line at all.  False when none has one. */
static bool put_site(struct line *l, const char *ans, int first, int n)
{
	const char *fn, *loc, *any = NULL;
	int i;

	for (i = first; i < first + n; i++) {
		if (!find_place(ans, i, &fn, &loc) || !strncmp(loc, "??", 2))
			continue;
		if (source_file(loc))
			return put_loc(l, loc);
		if (!any)
			any = loc;
	}
	return any && put_loc(l, any);
}

/* ---- the handler ---- */

/* The faulting instruction of the program: pc itself, or the first
 * return address into the program after it on the stack. */
static uint64_t program_pc(uint64_t pc)
{
	void *frames[64];
	int n, i;
	bool after = false;

	if (in_exe(pc))
		return pc;
	n = backtrace(frames, 64);
	for (i = 0; i < n; i++) {
		uint64_t f = (uint64_t)(uintptr_t)frames[i];

		if (f == pc)
			after = true;
		else if (after && in_exe(f))
			return f - 1;
	}
	return 0;
}

static void report(const struct simt_alloc *al, uint64_t a, int wrote, uint64_t pc)
{
	static char ans[16384];
	struct line l = {.n = 0};
	uint64_t addrs[4];
	int n = 0, at_pc = -1, nsite = 0, k;
	size_t mark;

	pc = program_pc(pc);
	if (pc) {
		at_pc = n;
		addrs[n++] = pc - exe_bias;
	}
	for (k = 0; al && k < 3; k++)
		if (al->site[k] && in_exe(al->site[k])) {
			addrs[n++] = al->site[k] - 1 - exe_bias;
			nsite++;
		}
	if (!n || !addr2line(addrs, n, ans, sizeof ans))
		ans[0] = 0;
	puts_(&l, "simt: host code ");
	puts_(&l, wrote < 0 ? "touched " : wrote ? "wrote " : "read ");
	if (al) {
		puts_(&l, "byte ");
		put_num(&l, a - al->base, 10);
		puts_(&l, " of a ");
		puts_(&l, al->api ? al->api : "device");
		puts_(&l, " allocation (");
		put_num(&l, al->size, 10);
		puts_(&l, " bytes");
		mark = l.n;
		puts_(&l, ", made at ");
		if (!put_site(&l, ans, at_pc + 1, nsite))
			l.n = mark;
		puts_(&l, ")");
	} else {
		puts_(&l, "device memory at ");
		put_num(&l, a, 16);
		puts_(&l, ", outside every allocation (past one's end, or freed)");
	}
	if (pc) {
		mark = l.n;
		puts_(&l, " at ");
		if (!put_fault_place(&l, ans, at_pc)) {
			l.n = mark;
			puts_(&l, " at ");
			put_num(&l, pc, 16);
		}
	}
	puts_(&l, "; device memory is only reachable from kernels or cudaMemcpy\n");
	if (write(2, l.s, l.n) < 0)
		return;
}

static void handler(int sig, siginfo_t *si, void *ctx)
{
	uint64_t a = (uint64_t)(uintptr_t)si->si_addr, pc = 0;
	int wrote = -1;

	if (a - simt_guard.lo >= simt_guard.size) {
		/* not device memory: whatever was there before decides */
		if ((old_segv.sa_flags & SA_SIGINFO) && old_segv.sa_sigaction) {
			old_segv.sa_sigaction(sig, si, ctx);
			return;
		}
		if (!(old_segv.sa_flags & SA_SIGINFO) &&
		    old_segv.sa_handler != SIG_DFL && old_segv.sa_handler != SIG_IGN) {
			old_segv.sa_handler(sig);
			return;
		}
		sigaction(SIGSEGV, &old_segv, NULL);
		return;         /* the access faults again and ends it */
	}
#if defined(__x86_64__)
	wrote = (((ucontext_t *)ctx)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
	pc = (uint64_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	pc = (uint64_t)((ucontext_t *)ctx)->uc_mcontext.pc;
#endif
	report(simt_mem_find(a, 1), a, wrote, pc);
	signal(SIGSEGV, SIG_DFL);
	/* returning runs the access again, which now ends the program by
	 * SIGSEGV, as on a GPU */
}

void simt_guard_install(void)
{
	struct sigaction sa;
	void *prime[2];
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = 0;
	dl_iterate_phdr(first_object, NULL);
	/* backtrace loads the unwinder on its first call, which a handler
	 * must not be the one to do */
	backtrace(prime, 2);
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = handler;
	/* SIGSEGV stays blocked while it runs: a fault of its own ends the
	 * program rather than entering it again */
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
}
