/* judge.h — the judge stage of a check (judge.c): the checker and the
 * worker of each run, and the verdict from what they did. */
#ifndef CUDALAB_RUN_JUDGE_H
#define CUDALAB_RUN_JUDGE_H

#include <stdint.h>

#include "common.h"

struct run_sandbox;

/* The two programs of a check and where they run. */
struct run_judge {
	const struct run_request *req;
	const char *checker;  /* the harness linked with the reference solution */
	const char *worker;   /* the harness linked with the learner's file */
	const char *cache;    /* home/cache: the checker's progress file */
	const char *include;  /* the harness library, for measuring the reference */
	const struct run_probe *probe;
	const struct run_sandbox *sandbox;
};

/* Runs the check's programs and fills res (which has its backend and
 * timeout set): on a GPU once; on simt a check runs under two schedules
 * at once, under a budget of warp instructions per launch (runaway.c); a
 * bench runs once.  Returns 0, or -1 with res->error set when the
 * programs could not run at all (or the check was cancelled). */
int run_judge(const struct run_judge *j, struct run_result *res);

/* A passed bench's prediction (simt's time model for j->req->predict): the
 * worker, built for simt, runs once more at the GPU's sizes
 * (lab.predicting()), alone in its sandbox with no checker, for its outputs
 * are incomplete by design.  What it says of itself (its time, its
 * figures) and simt's report of its launches go to res->prediction, which
 * informs and decides nothing: the verdict stays the checked run's.
 * run_judge does this for a bench on simt.  Returns -1 with res->error
 * when the program could not run at all. */
int run_judge_predict(const struct run_judge *j, struct run_result *res);

#endif
