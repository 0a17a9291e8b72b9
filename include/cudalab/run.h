/* run.h — building and running CUDA programs: finding nvcc, choosing a
 * backend (a real GPU or simt), and running child processes by argv. */
#ifndef CUDALAB_RUN_H
#define CUDALAB_RUN_H

#include <stddef.h>

enum run_backend { BACKEND_AUTO, BACKEND_GPU, BACKEND_SIMT };

/* What this machine offers for running CUDA programs. */
struct run_probe {
	char *nvcc;         /* path to nvcc, NULL when not found */
	char *nvcc_version; /* e.g. "13.0, V13.0.88", NULL when unknown */
	int gpu;            /* a usable GPU was found */
	char *gpu_name;     /* its name when known */
	char *why;          /* one line: why the GPU is (not) usable */
	char *simt_lib;     /* path to libcudalab-simt.a, NULL when not found */
};

/* Fills *p; never fails (missing pieces are NULL / 0 with p->why saying so). */
void run_probe(struct run_probe *p);
void run_probe_free(struct run_probe *p);
/* The backend auto resolves to on this machine. */
enum run_backend run_backend_choose(const struct run_probe *p, enum run_backend wanted);
const char *run_backend_name(enum run_backend b);
int run_backend_parse(const char *name, enum run_backend *out);

/* Runs argv (no shell) and captures stdout+stderr, at most cap bytes kept.
 * Returns the wait status, or -1 when the program could not be started. */
int run_capture(char *const argv[], char **out, size_t cap);

#endif
