/* run.c — `cudalab run [OPTIONS] FILE... [-- ARGS]`: compile any CUDA
 * program for the chosen backend and run it on this terminal, exiting
 * with its code (123 hazard, 124 timeout, 125 compile error, 128+N signal
 * N). */
#include "cudalab/cli.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXIT_HAZARD 123
#define EXIT_TIMEOUT 124
#define EXIT_COMPILE 125

struct run_args {
	const char **sources, **includes, **defines;
	size_t n_sources, n_includes, n_defines;
	char **args; /* after "--" */
	int n_args;
	enum run_backend backend;
	struct cli_backend where;
	int backend_given;
	double timeout_s;
	const char *counters;
	const char *predict; /* --predict DEVICE */
};

static void args_free(struct run_args *a)
{
	free(a->sources);
	free(a->includes);
	free(a->defines);
}

static void add(const char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = s;
}

static int is_source(const char *f)
{
	return str_ends(f, ".cu") || str_ends(f, ".cpp") || str_ends(f, ".cc") ||
	       str_ends(f, ".c");
}

/* "-I DIR" or "-IDIR" (and -D alike); returns 1 when argv[*i] was flag. */
static int short_value(const char *flag, int argc, char **argv, int *i, const char **value)
{
	if (strncmp(argv[*i], flag, 2) != 0)
		return 0;
	if (argv[*i][2]) {
		*value = argv[*i] + 2;
		return 1;
	}
	*value = *i + 1 < argc ? argv[++*i] : NULL;
	return 1;
}

static int long_value(const char *opt, int argc, char **argv, int *i, const char **value)
{
	size_t n = strlen(opt);

	if (strncmp(argv[*i], opt, n) != 0 || (argv[*i][n] && argv[*i][n] != '='))
		return 0;
	*value = argv[*i][n] == '=' ? argv[*i] + n + 1 : *i + 1 < argc ? argv[++*i] : NULL;
	return 1;
}

static int parse_one(struct cli *c, int argc, char **argv, int *i, struct run_args *a)
{
	const char *v = NULL;
	char *end;

	if (long_value("--backend", argc, argv, i, &v)) {
		if (!v || cli_backend_parse(v, &a->where) != 0)
			return cli_usage_error(c, "run: --backend needs auto, gpu, simt, ssh:HOST or "
					       "slurm");
		a->backend = a->where.backend;
		a->backend_given = 1;
	} else if (long_value("--timeout", argc, argv, i, &v)) {
		a->timeout_s = v ? strtod(v, &end) : 0;
		if (!v || !*v || *end || !(a->timeout_s > 0) || !isfinite(a->timeout_s))
			return cli_usage_error(c, "run: --timeout needs a number of seconds > 0");
	} else if (long_value("--counters", argc, argv, i, &v)) {
		if (!v || !*v)
			return cli_usage_error(c, "run: --counters needs a file");
		a->counters = v;
	} else if (long_value("--predict", argc, argv, i, &v)) {
		if (!v || !cli_predict_good(v))
			return cli_usage_error(c, "run: --predict needs a device id (see 'cudalab "
					       "doctor') or off");
		a->predict = v;
	} else if (short_value("-I", argc, argv, i, &v)) {
		if (!v || !*v)
			return cli_usage_error(c, "run: -I needs a directory");
		add(&a->includes, &a->n_includes, v);
	} else if (short_value("-D", argc, argv, i, &v)) {
		if (!v || !*v)
			return cli_usage_error(c, "run: -D needs a macro");
		add(&a->defines, &a->n_defines, v);
	} else if (argv[*i][0] == '-') {
		return cli_usage_error(c, "run: unknown option '%s'", argv[*i]);
	} else if (!is_source(argv[*i])) {
		return cli_usage_error(c, "run: %s: not a .cu, .cpp, .cc or .c file", argv[*i]);
	} else if (access(argv[*i], R_OK) != 0) {
		return cli_usage_error(c, "run: %s: %s", argv[*i], strerror(errno));
	} else {
		add(&a->sources, &a->n_sources, argv[*i]);
	}
	return 0;
}

static int parse(struct cli *c, int argc, char **argv, struct run_args *a)
{
	memset(a, 0, sizeof *a);
	a->backend = BACKEND_AUTO;
	for (int i = 1; i < argc; i++) {
		int rc;

		if (strcmp(argv[i], "--") == 0) {
			a->args = argv + i + 1;
			a->n_args = argc - i - 1;
			break;
		}
		if ((rc = parse_one(c, argc, argv, &i, a)) != 0)
			return rc;
	}
	if (!a->n_sources)
		return cli_usage_error(c, "run: no source file (.cu, .cpp, .cc or .c)");
	return 0;
}

/* The program's argv[0]: the first source's name without its suffix. */
static char *program_name(const char *source)
{
	const char *slash = strrchr(source, '/'), *base = slash ? slash + 1 : source;
	const char *dot = strrchr(base, '.');

	return xstrndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
}

/* After a failed link for simt: the CUDA, cuBLAS and NCCL functions the
 * linker missed are ones simt does not implement; one line names them. */
static void simt_missing(const char *log)
{
	static const char *const libs[] = { "cuda", "cublas", "nccl" };
	static const char mark[] = "undefined reference to `";
	char **names = NULL, *page;
	size_t n = 0;
	const char *s = log;

	while ((s = strstr(s, mark)) != NULL) {
		const char *b = s + sizeof mark - 1, *e = strchr(b, '\'');
		bool ours = false, seen = false;

		s = b;
		if (!e)
			break;
		/* the runtime, cuBLAS(Lt), NCCL and the driver API (cuXxx) */
		for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
			ours |= strncmp(b, libs[i], strlen(libs[i])) == 0;
		ours |= b[0] == 'c' && b[1] == 'u' && b[2] >= 'A' && b[2] <= 'Z';
		for (size_t i = 0; ours && i < n; i++)
			seen |= strlen(names[i]) == (size_t)(e - b) &&
				strncmp(names[i], b, (size_t)(e - b)) == 0;
		if (!ours || seen)
			continue;
		names = xrealloc(names, (n + 1) * sizeof *names);
		names[n++] = xstrndup(b, (size_t)(e - b));
	}
	if (!n)
		return;
	fprintf(stderr, "cudalab: run: simt does not implement ");
	for (size_t i = 0; i < n; i++) {
		fprintf(stderr, "%s%s", i ? ", " : "", names[i]);
		free(names[i]);
	}
	page = cli_doc_path("simt.md");
	fprintf(stderr, " (%s, \"What simt does not do yet\", lists what is missing)\n", page);
	free(page);
	free(names);
}

static int build_and_run(struct cli *c, struct run_args *a, const struct run_probe *probe,
			 enum run_backend b)
{
	struct run_program p = { a->sources, a->n_sources, a->includes, a->n_includes,
				 a->defines, a->n_defines, b };
	char *exe = NULL, *log = NULL, **argv, *hazards = NULL;
	int rc = run_program_build(&p, probe, &exe, &log);
	unsigned long long n_hazards = 0;

	if (rc < 0) {
		rc = cli_error(c, "run: %s", log);
		free(log);
		return rc;
	}
	fputs(log, stderr);
	if (rc > 0 && b == BACKEND_SIMT)
		simt_missing(log);
	free(log);
	if (rc > 0)
		return EXIT_COMPILE;
	argv = xcalloc((size_t)a->n_args + 2, sizeof *argv);
	argv[0] = program_name(a->sources[0]);
	for (int i = 0; i < a->n_args; i++)
		argv[i + 1] = a->args[i];
	fflush(stdout);
	fflush(stderr);
	/* simt writes its hazard reports beside the program */
	if (b == BACKEND_SIMT)
		hazards = xasprintf("%s.hazards.json", exe);
	rc = run_program_exec(exe, argv, a->timeout_s, b == BACKEND_SIMT ? a->counters : NULL,
			      hazards);
	if (hazards)
		n_hazards = run_hazard_total(hazards);
	if (rc < 0) {
		rc = cli_error(c, "run: cannot start the program: %s", strerror(errno));
	} else if (rc == EXIT_TIMEOUT) {
		fprintf(stderr, "%s: run: stopped after %g s (--timeout)\n", c->prog, a->timeout_s);
	} else if (n_hazards) {
		fprintf(stderr, "%s: run: simt reported %llu hazard%s (above); exit status %d "
			"(the program's own was %d)\n", c->prog, n_hazards,
			n_hazards == 1 ? "" : "s", EXIT_HAZARD, rc);
		rc = EXIT_HAZARD;
	}
	if (hazards)
		unlink(hazards);
	free(hazards);
	free(argv[0]);
	free(argv);
	run_program_clean(exe);
	return rc;
}

/* The same, on the far side of ssh or srun: the output comes back as the
 * program runs, and the exit status is the far side's. */
static int run_remote(struct cli *c, struct run_args *a)
{
	struct run_program p = { a->sources, a->n_sources, a->includes, a->n_includes,
				 a->defines, a->n_defines, a->backend };
	struct run_remote remote;
	struct run_request req;
	char *why = NULL;
	int rc, status = 0;

	if ((rc = cli_remote_setup(c, &a->where, &remote)) != 0)
		return rc;
	if (a->counters)
		cli_warn(c, "run: --counters stays on the far side with a remote backend");
	memset(&req, 0, sizeof req);
	req.backend = a->backend;
	req.remote = &remote;
	req.timeout_s = a->timeout_s;
	fflush(stdout);
	if (run_remote_program(&req, &p, a->args, a->n_args, &status, &why) != 0) {
		rc = cli_error(c, "run: %s", why);
		free(why);
		return rc;
	}
	return status;
}

/* --predict: simt's time model predicts each launch for that GPU and
 * says so on stderr (the program inherits the environment). */
static int predict_setup(struct cli *c, const struct run_args *a, enum run_backend b)
{
	char *name = NULL, *why = NULL, *path;
	int rc = 0;

	if (!a->predict)
		return 0;
	if (strcmp(a->predict, "off") == 0) {
		unsetenv("CUDALAB_SIMT_PREDICT");
		return 0;
	}
	if (b != BACKEND_SIMT) {
		cli_warn(c, "run: --predict is for the simt backend; on a GPU the time is measured");
		return 0;
	}
	if (run_device_find(c->content, a->predict, &name, &why) != 0) {
		rc = cli_usage_error(c, "run: --predict: %s", why);
	} else {
		path = run_devices_path(c->content);
		setenv("CUDALAB_SIMT_PREDICT", a->predict, 1);
		setenv("CUDALAB_SIMT_DEVICES", path, 1);
		free(path);
	}
	free(name);
	free(why);
	return rc;
}

int cli_run(struct cli *c, int argc, char **argv)
{
	struct run_args a;
	struct run_probe probe;
	enum run_backend b;
	char *cache, *why = NULL;
	int rc;

	if ((rc = parse(c, argc, argv, &a)) != 0) {
		args_free(&a);
		return rc;
	}
	if (!a.backend_given && (rc = cli_default_backend(c, &a.where)) != 0) {
		args_free(&a);
		return rc;
	}
	a.backend = a.where.backend;
	if (a.backend == BACKEND_SSH || a.backend == BACKEND_SLURM) {
		rc = run_remote(c, &a);
		args_free(&a);
		return rc;
	}
	cache = path_join(c->home, "cache");
	run_probe_cached(&probe, cache);
	b = run_backend_choose(&probe, a.backend);
	if (run_backend_ready(&probe, b, &why) != 0) {
		rc = cli_error(c, "run: %s", why);
	} else {
		if (a.counters && b != BACKEND_SIMT)
			cli_warn(c, "run: --counters is for the simt backend; the gpu backend "
				    "writes none");
		if ((rc = predict_setup(c, &a, b)) == 0)
			rc = build_and_run(c, &a, &probe, b);
	}
	free(why);
	free(cache);
	run_probe_free(&probe);
	args_free(&a);
	return rc;
}
