/* predict.h — simt's time model in a check (predict.c): the environment
 * that turns it on for a run, and its report put in a run's result. */
#ifndef CUDALAB_RUN_PREDICT_H
#define CUDALAB_RUN_PREDICT_H

#include "common.h"

/* Puts simt's per-launch report (the file path) in res->prediction and
 * the result JSON's "prediction" object. */
void run_prediction_attach(const struct run_request *req, struct run_result *res,
			   const char *path);
/* Moves a predicted bench's prediction and time into res (and its JSON). */
void run_prediction_take(const struct run_request *req, struct run_result *res,
			 struct run_result *predicted);
/* No prediction for req->predict, and why, in res (and its JSON). */
void run_prediction_fail(const struct run_request *req, struct run_result *res, const char *why);
/* The same for a GPU no device file models: the prediction is named by
 * gpu_name, the name the GPU gave itself, with no device id (NULL: as
 * run_prediction_fail). */
void run_prediction_fail_for(const struct run_request *req, struct run_result *res,
			     const char *gpu_name, const char *why);

#endif
