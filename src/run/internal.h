/* internal.h — what the files of src/run share and nothing else sees. */
#ifndef CUDALAB_RUN_INTERNAL_H
#define CUDALAB_RUN_INTERNAL_H

#include "cudalab/run.h"

/* One build of an exercise program: harness + the learner's file. */
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
	int failed;                   /* nvcc reported errors (see log) */
	char *log;                    /* nvcc's output, paths rewritten */
	char *source_hash;
	double seconds;
	char *error;                  /* an environment problem (return -1) */
};

/* Finds the program in the cache or compiles it there.  Returns 0 (with
 * b->failed telling whether nvcc failed) or -1 with b->error set. */
int run_build_exercise(struct run_build *b);
void run_build_free(struct run_build *b);

/* Removes dir and the plain files in it (the build directories hold no
 * subdirectories). */
void run_remove_dir(const char *dir);

/* read_file, but always NUL-terminated, also for an empty file (len may
 * be NULL).  NULL with errno set when the file cannot be read. */
char *run_read_text(const char *path, size_t *len);

/* The directory that holds cudalab/lab.h for content dir content, or NULL. */
char *run_find_include(const char *content);

/* The files of the harness library under include directory `include`,
 * relative to it: "cudalab/lab.h", then its parts "cudalab/lab/NAME.h" in
 * name order.  NULL-terminated; run_argv_free frees it. */
char **run_lab_files(const char *include);

/* runaway.c: the budget of warp instructions per launch for a check of
 * req's exercise on simt, and the reference's longest launch it comes
 * from.  Returns 0 with both set, 1 when they are not known yet and
 * may_measure is 0, -1 when they cannot be measured (no reference
 * solution, or it does not pass). */
int run_runaway_budget(const struct run_request *req, const struct run_probe *probe,
		       const char *cache, const char *include, int may_measure,
		       uint64_t *budget, uint64_t *reference);
/* The budget while the reference is not measured. */
uint64_t run_runaway_floor(void);
/* Whether simt stopped the run at its budget. */
int run_runaway_stopped(const struct run_result *res);
/* Turns such a run's verdict into a timeout that says where it spun. */
void run_runaway_verdict(struct run_result *res, uint64_t budget, uint64_t reference);

/* The last non-empty line of text, at most 200 bytes (caller frees), or
 * NULL. */
char *run_last_line(const char *text);

/* How many devices the request's exercise needs (front matter "gpus"). */
int run_gpus_needed(const struct run_request *req);

/* Reports a phase to the request's progress callback, if any. */
void run_phase(const struct run_request *req, const char *phase);

/* Fills res (status, summary, cases, timing...) from a finished harness
 * run, and res->json from the harness's object plus the runner's keys. */
struct run_child;
void run_interpret(const struct run_request *req, struct run_result *res,
		   const struct run_child *c, const char *counters, const char *hazards);
/* Sets key to text in res->json (and "status" again with "summary"). */
void run_result_note(struct run_result *res, const char *key, const char *text);
/* Fills res for a build that failed. */
void run_interpret_compile(const struct run_request *req, struct run_result *res);
/* Writes res->json from what res holds (for runner-made verdicts) or
 * from harness (the harness's own object, consumed). */
struct cJSON;
void run_result_json(struct run_result *res, const struct run_request *req,
		     struct cJSON *harness, struct cJSON *simt);

/* predict.c: puts simt's per-launch report (the file path) in
 * res->prediction and the result JSON's "prediction" object. */
void run_prediction_attach(const struct run_request *req, struct run_result *res,
			   const char *path);
/* Moves a predicted bench's prediction and time into res (and its JSON). */
void run_prediction_take(const struct run_request *req, struct run_result *res,
			 struct run_result *predicted);
/* No prediction for req->predict, and why, in res (and its JSON). */
void run_prediction_fail(const struct run_request *req, struct run_result *res, const char *why);

#endif
