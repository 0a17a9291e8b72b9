/* result.h — verdicts (result.c): from what a check's programs did to a
 * status, a summary and the result JSON. */
#ifndef CUDALAB_RUN_RESULT_H
#define CUDALAB_RUN_RESULT_H

#include "common.h"

/* An empty result: nothing run, no figures (NAN). */
void run_result_init(struct run_result *res);

/* Fills res (status, summary, cases, timing...) from one finished run:
 * the checker's result object is the verdict, the worker's end and
 * output explain a failure, and on simt the worker's hazard report
 * (hazards, NULL when it wrote none) must be there, written with the
 * checks on; res->json gets the checker's object plus the runner's keys. */
void run_interpret(const struct run_request *req, struct run_result *res,
		   const struct run_child *worker, const struct run_child *checker,
		   const char *counters, const char *hazards);
/* Fills res's status, summary, timing and figures from a program that
 * ran alone (a predicted bench, lab.predicting()) and wrote its own
 * result: its word, informative only, never a verdict; no JSON. */
void run_interpret_alone(struct run_result *res, const struct run_child *alone);
/* Sets key to text in res->json (and "status" again with "summary"). */
void run_result_note(struct run_result *res, const char *key, const char *text);
/* Fills res for a build that failed. */
void run_interpret_compile(const struct run_request *req, struct run_result *res);
/* Writes res->json from what res holds (for runner-made verdicts) or
 * from harness (the checker's object, consumed). */
struct cJSON;
void run_result_json(struct run_result *res, const struct run_request *req,
		     struct cJSON *harness, struct cJSON *simt);

#endif
