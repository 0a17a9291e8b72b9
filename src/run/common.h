/* common.h — what every stage of a check uses (common.c): the request's
 * progress, files read whole, the harness library's place, and a few
 * words.  It includes nothing of the stages, which include it. */
#ifndef CUDALAB_RUN_COMMON_H
#define CUDALAB_RUN_COMMON_H

#include <stddef.h>

#include "cudalab/run.h"

/* Reports a phase to the request's progress callback, if any. */
void run_phase(const struct run_request *req, const char *phase);

/* How many devices the request's exercise needs (front matter "gpus"). */
int run_gpus_needed(const struct run_request *req);

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

/* The last non-empty line of text, at most 200 bytes (caller frees), or
 * NULL. */
char *run_last_line(const char *text);

/* text with every occurrence of from replaced by to (caller frees). */
char *run_replace_all(const char *text, const char *from, const char *to);

#endif
