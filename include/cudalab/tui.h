/* tui.h — the ncurses lab: home screen, lesson reader, navigation. */
#ifndef CUDALAB_TUI_H
#define CUDALAB_TUI_H

struct catalog;
struct store;

#include "cudalab/run.h"

struct tui_config {
	struct catalog *cat;
	struct store *st; /* may be NULL: statuses then read as new and are not saved */
	const char *content_dir;
	const char *home;     /* CUDALAB_HOME: learner copies and the build cache */
	const char *warning; /* shown on the home screen when not NULL */
	const char *start;   /* "lesson:ID" or "exercise:ID" to open first, or NULL for home */
	enum run_backend backend;          /* for checks: the config's backend, else auto */
	const struct run_remote *remote;   /* for BACKEND_SSH and BACKEND_SLURM */
	const char *predict; /* the device a bench on simt is predicted for, or NULL */
	/* When set, called before each check for the backend as the config
	 * has it then (an edit takes effect without a restart): 0 with
	 * *backend, *remote and *origin set (origin: "the backend X is set in
	 * FILE" when the config sets one, else NULL; valid until the next
	 * call), or -1 with *error naming the config file and line (caller
	 * frees). */
	int (*settings)(void *ctx, enum run_backend *backend, const struct run_remote **remote,
			const char **origin, char **error);
	void *settings_ctx;
};

/* Runs the lab until the learner quits.  Returns 0, or 2 after printing a
 * one-line error when there is no usable terminal. */
int tui_main(const struct tui_config *cfg);

#endif
