/* sandbox.h — the room a program under check runs in (sandbox.c). */
#ifndef CUDALAB_RUN_SANDBOX_H
#define CUDALAB_RUN_SANDBOX_H

#include <stddef.h>
#include <sys/types.h>

/* What the program may see and do.  Everything is best effort: a kernel
 * without unprivileged user namespaces gets what needs none (seccomp, a
 * sweep of the processes left behind), and the report says what held. */
struct run_sandbox {
	const char *const *hide; /* directories shown empty (the exercises, with their solutions) */
	size_t n_hide;
	/* made read-only when the whole file system cannot be (a kernel
	 * without mount_setattr): the home, the content, the harness library */
	const char *const *readonly;
	size_t n_readonly;
	unsigned nproc; /* RLIMIT_NPROC, counted in the program's own user namespace; 0: none */
	const char *program; /* the program's path: a private /tmp is made only when it is not there */
};

/* The sandbox of a check's worker: the exercises' folder (the parent of
 * ex_dir) hidden; the home, the content and the harness library made
 * read-only.  Fills sb from the strings it keeps in paths (free them with
 * run_sandbox_paths_free). */
struct run_sandbox_paths {
	char *hide[1], *readonly[3];
	const char *hide_c[1], *readonly_c[3];
};
void run_sandbox_for_check(struct run_sandbox *sb, struct run_sandbox_paths *paths,
			   const char *ex_dir, const char *home, const char *content,
			   const char *include, const char *program);
void run_sandbox_paths_free(struct run_sandbox_paths *paths);


/* What held, as the sandbox's init and the program report it before the
 * program starts (RUN_SB_*; run.h). */

/* Starts a sandboxed child: an init of cudalab's own, in new user, mount
 * and pid namespaces where the kernel allows it, which forks the program
 * and runs start(ctx) in it once the program is locked down (start must
 * exec or _exit).  report_fd (close-on-exec) receives 8-byte records:
 *   'S' bits   the init's setup (RUN_SB_USERNS, _READONLY, _HIDDEN, ...)
 *   'L' bits   the program's lock-down (RUN_SB_SECCOMP, _NPROC, _CAPS)
 *   'W' status the program's wait status, once it ended
 * (and whatever start writes there itself).  *ns says whether the
 * namespaces were made.  Returns the init's pid, or -1 with errno set.
 * The init ends when the program does, taking every process the program
 * started with it, and ends the program at SIGTERM. */
pid_t run_sandbox_spawn(const struct run_sandbox *sb, int report_fd, void (*start)(void *ctx),
			void *ctx, int *ns);

/* Writes one record to a report descriptor; async-signal-safe. */
void run_sandbox_record(int fd, char tag, int value);

#endif
