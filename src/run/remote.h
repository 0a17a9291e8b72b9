/* remote.h — the remote transport of a check (remote.c, the near side)
 * and what the far side (serve.c) shares with it. */
#ifndef CUDALAB_RUN_REMOTE_H
#define CUDALAB_RUN_REMOTE_H

#include <sys/types.h>

#include "common.h"

/* A process started with three pipes, in a process group of its own. */
struct run_far {
	pid_t pid;
	int in, out, err;
};
int run_far_start(char *const argv[], struct run_far *f);

/* The check of req run on the far side (BACKEND_SSH, BACKEND_SLURM):
 * the request goes there, the far side builds and judges, and its one
 * result comes back into res.  0, or -1 with res->error. */
int run_remote_exercise(const struct run_request *req, struct run_result *res);

#endif
