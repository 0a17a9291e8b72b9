/* build.h — the build stage of a check (build.c): a program from the
 * exercise's harness and a source file, through the cache. */
#ifndef CUDALAB_RUN_BUILD_H
#define CUDALAB_RUN_BUILD_H

#include "common.h"

/* One build of an exercise program: harness + a source file (the
 * learner's, or the reference solution for a checker). */
struct run_build {
	const struct run_probe *probe;
	enum run_backend backend;     /* GPU or SIMT */
	const char *cache;            /* home/cache */
	const char *harness;          /* the exercise's harness.cu */
	const char *source;           /* the learner's file */
	const char *ex_dir;
	const char *include;          /* the directory holding cudalab/lab.h, or NULL */
	const struct run_request *req; /* for progress and cancel */

	char *prog;                   /* the program, when built */
	int cached;
	int failed;                   /* nvcc reported errors, or cudalab refused (see log) */
	char *log;                    /* nvcc's output, paths rewritten */
	char *source_hash;
	double seconds;
	char *error;                  /* an environment problem (return -1) */
	char *note;                   /* a cache entry that was not what was built, or NULL */
};

/* Finds the program in the cache or compiles it there.  Returns 0 (with
 * b->failed telling whether the build failed) or -1 with b->error set. */
int run_build_exercise(struct run_build *b);
void run_build_free(struct run_build *b);

#endif
