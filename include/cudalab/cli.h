/* cli.h — the command-line verbs (cudalab(1), docs/guide.md), one file each under
 * src/cli/.  main() parses the global options and hands the rest here. */
#ifndef CUDALAB_CLI_H
#define CUDALAB_CLI_H

#include <stdio.h>

#include "cudalab/run.h"
#include "cudalab/util.h"

/* Exit codes shared by every verb. */
enum {
	EXIT_OK = 0,     /* success, or the check passed */
	EXIT_FAILED = 1, /* the check did not pass / validation found problems */
	EXIT_USAGE = 2   /* usage, content or environment error */
};

struct catalog;
struct store;

/* What every verb gets: the resolved directories and lazily opened
 * catalog and store. */
/* $CUDALAB_HOME/config (config.c); NULL: not set. */
struct cli_config {
	char *backend, *slurm_args, *slurm_gpus, *remote_cudalab;
	char *predict; /* a device id or "off" */
};

struct cli {
	const char *prog;
	char *home;           /* --home, $CUDALAB_HOME, or the XDG default */
	char *content;        /* --content, $CUDALAB_CONTENT, source tree or DATADIR */
	const char *content_origin; /* how content was chosen, for doctor */
	const char *home_origin;
	struct catalog *cat;
	struct store *st;
	struct cli_config cfg; /* loaded on first use */
	int cfg_loaded;
	char *self;            /* this program's path, for srun */
};

/* A --backend value: the backend, and the host of ssh:HOST. */
struct cli_backend {
	enum run_backend backend;
	char host[256];
};
/* auto, gpu, simt, ssh:HOST or slurm; 0, or -1 when it is none of them. */
int cli_backend_parse(const char *name, struct cli_backend *b);
/* Parses config text (path names it in errors).  0, or -1 with *error
 * naming the file and line (caller frees). */
int cli_config_parse(const char *text, const char *path, struct cli_config *cfg, char **error);
/* Reads home/config (missing: empty), then CUDALAB_SLURM_ARGS. */
int cli_config_load(const char *home, struct cli_config *cfg, char **error);
void cli_config_free(struct cli_config *cfg);
/* The backend the config names, else auto.  0, or the exit code after an
 * error naming the config. */
int cli_default_backend(struct cli *c, struct cli_backend *b);
/* Whether id may name a device file ("h100-sxm") or is "off". */
int cli_predict_good(const char *id);
/* The GPU simt's time model predicts a run of mode for: given (--predict),
 * else for a bench CUDALAB_SIMT_PREDICT, the config's predict, else
 * h100-sxm; "off" and a check without --predict: none (*device NULL).
 * Returns 0 with *device set (caller frees), or the exit code after
 * saying which device is unknown and which are known. */
int cli_predict_device(struct cli *c, const char *given, enum run_mode mode, char **device);
/* The same without a word on stderr: 0, or -1 with *error naming the
 * config file (and line; caller frees).  With reread, the config is read
 * again first, as the lab does before each check. */
int cli_config_backend(struct cli *c, int reread, struct cli_backend *b, char **error);
/* Fills r for a remote backend from b and the config (its strings live
 * in c and b).  0, or the exit code after an error. */
int cli_remote_setup(struct cli *c, const struct cli_backend *b, struct run_remote *r);

/* What a word on the command line is: it decides what `cudalab
 * __complete` offers for an operand or an option's value. */
enum cli_value {
	CLI_NONE,     /* free text: a number, a macro */
	CLI_FILE,
	CLI_DIR,
	CLI_BACKEND,  /* auto, gpu, simt, ssh:HOST, slurm */
	CLI_REMOTE,   /* ssh:HOST, slurm */
	CLI_LESSON,   /* a lesson or exercise id (read) */
	CLI_EXERCISE,
	CLI_ITEM,     /* a reading item id */
	CLI_STATUS,   /* done, reading, unread */
	CLI_KIND,     /* lessons, reading, exercises */
	CLI_DEVICE    /* a device file's id, or off */
};

/* One option of a verb, or a global one.  The table prints --help; the
 * man page and the completion scripts are checked against it. */
struct cli_option {
	const char *name;  /* "--backend", "-I"; NULL ends a list */
	const char *alias; /* a short form ("-h" of --help), or NULL */
	const char *arg;   /* its value in help ("B"); NULL: a flag */
	const char *help;  /* lines after the first are indented under it */
	enum cli_value value;
	int required;      /* shown without brackets in the synopsis */
};

struct cli_verb {
	const char *name;
	const char *args;     /* operands, before the options in the synopsis */
	const char *tail;     /* what follows the options ("FILE... [-- ARGS]") */
	const char *summary;  /* one line */
	const char *help;     /* prose of `cudalab VERB --help` */
	const struct cli_option *options;
	enum cli_value operands[2]; /* the first operand, and every later one */
	const char *doc;      /* the page of docs/ that explains it */
	int hidden;           /* not listed by --help (__complete) */
	int (*fn)(struct cli *c, int argc, char **argv); /* argv[0] is the verb */
};

/* Fills in c's directories from options already parsed into home/content
 * (either may be NULL) and the environment. */
void cli_init(struct cli *c, const char *prog, const char *home, const char *content);
void cli_done(struct cli *c);

/* Runs the verb named argv[0]; argc >= 1.  Returns the process exit code. */
int cli_dispatch(struct cli *c, int argc, char **argv);
/* Runs the TUI (no verb given). */
int cli_tui(struct cli *c);
/* Runs the TUI opened at start ("lesson:ID" or "exercise:ID"). */
int cli_tui_at(struct cli *c, const char *start);
/* `cudalab --help` and `cudalab VERB --help` (help.c), from cli_verbs[]
 * and cli_global_options[]; cli_verb_help returns -1 for no such verb. */
void cli_usage(FILE *out);
int cli_verb_help(const char *verb, FILE *out);
/* The verb named name, hidden ones included, or NULL. */
const struct cli_verb *cli_verb_find(const char *name);
/* The path of a page of the documentation: docs/PAGE of the source tree
 * this binary runs from, else the installed copy.  Caller frees. */
char *cli_doc_path(const char *page);
/* The source tree this binary runs from (build/ inside it), or NULL.
 * Caller frees. */
char *cli_source_tree(void);

/* Reports a usage error as one line on stderr and returns EXIT_USAGE. */
int cli_usage_error(const struct cli *c, const char *fmt, ...) UTIL_PRINTF(2, 3);
/* Reports an environment/content error as one line and returns EXIT_USAGE. */
int cli_error(const struct cli *c, const char *fmt, ...) UTIL_PRINTF(2, 3);
void cli_warn(const struct cli *c, const char *fmt, ...) UTIL_PRINTF(2, 3);

/* Loads the catalog once; diagnostics are kept for the caller to report. */
struct catalog *cli_catalog(struct cli *c);
/* Warns on stderr about content that did not load (one line per problem);
 * returns the number of problems. */
size_t cli_report_content_problems(struct cli *c);
/* "VERB: no WHAT 'id' (did you mean 'x'? see 'cudalab list LIST')", as a
 * usage error (verb may be NULL); kinds are CAT_* to suggest from. */
int cli_unknown_id(struct cli *c, const char *verb, const char *what, const char *id,
		   int kinds, const char *list);
/* Opens the store once; prints its warning (corrupt database) if any.
 * Returns NULL after printing an error when it cannot be opened. */
struct store *cli_store(struct cli *c);

/* Prints root as JSON on stdout and frees it. */
struct cJSON;
void cli_print_json(struct cJSON *root);

/* Whether arg asks for help (-h, --help). */
int cli_is_help(const char *arg);

extern const struct cli_verb cli_verbs[];
extern const unsigned cli_n_verbs;
/* --home, --content, --help, --version: main.c parses them. */
extern const struct cli_option cli_global_options[];

int cli_read(struct cli *c, int argc, char **argv);
int cli_list(struct cli *c, int argc, char **argv);
int cli_mark(struct cli *c, int argc, char **argv);
int cli_progress(struct cli *c, int argc, char **argv);
int cli_validate(struct cli *c, int argc, char **argv);
int cli_doctor(struct cli *c, int argc, char **argv);
int cli_remote(struct cli *c, int argc, char **argv);
int cli_check(struct cli *c, int argc, char **argv);
int cli_bench(struct cli *c, int argc, char **argv);
int cli_hint(struct cli *c, int argc, char **argv);
int cli_solution(struct cli *c, int argc, char **argv);
int cli_reset(struct cli *c, int argc, char **argv);
int cli_watch(struct cli *c, int argc, char **argv);
int cli_run(struct cli *c, int argc, char **argv);
int cli_complete(struct cli *c, int argc, char **argv);

/* What check, bench and watch share (check.c). */
struct exercise;
struct cli_ex_opts {
	const char *verb;         /* check, bench or watch: the errors' prefix */
	const char *exercise;     /* the id given */
	const char *file;         /* --file, NULL for the learner's copy */
	enum run_backend backend;
	struct cli_backend where; /* --backend as given, or the config's */
	int backend_given;
	double timeout_s;         /* 0: the default */
	long seed;                /* -1: the harness's own */
	int json;
	const char *predict;      /* --predict DEVICE, or NULL */
};
/* Parses "EX [--backend B] [--file F] [--timeout S] [--seed N]
 * [--predict DEVICE] [--json]";
 * returns 0, or the exit code after reporting a usage error. */
int cli_ex_parse(struct cli *c, int argc, char **argv, int allow_json, struct cli_ex_opts *o);
/* Looks the exercise up and finds the file to check (the learner's copy,
 * made on first use, or --file).  Returns 0, or the exit code after
 * reporting why not. */
int cli_ex_prepare(struct cli *c, const struct cli_ex_opts *o, const struct exercise **ex,
		   char **file);
/* Checks or times ex once and prints the verdict (text or JSON).
 * Returns the exit code: 0 pass, 1 not pass, 2 environment error. */
int cli_ex_run(struct cli *c, const struct cli_ex_opts *o, const struct exercise *ex,
	       const char *file, enum run_mode mode, const volatile sig_atomic_t *cancel);

#endif
