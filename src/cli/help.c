/* help.c — the table of verbs and options, and the help printed from it.
 * The same table drives `cudalab __complete` (complete.c), and the test
 * suite tests/docs checks the man page against what this prints. */
#include "cudalab/cli.h"

#include <stdlib.h>
#include <string.h>

const struct cli_option cli_global_options[] = {
	{ .name = "--home", .arg = "DIR", .value = CLI_DIR,
	  .help = "progress and work files (env CUDALAB_HOME,\n"
		  "default $XDG_DATA_HOME/cudalab)" },
	{ .name = "--content", .arg = "DIR", .value = CLI_DIR,
	  .help = "lessons and exercises (env CUDALAB_CONTENT)" },
	{ .name = "--help", .alias = "-h",
	  .help = "this help; 'cudalab VERB --help' for one verb" },
	{ .name = "--version", .help = "print the version" },
	{ 0 }
};

/* check, bench and watch take the same options but for --json and the
 * default of --timeout. */
#define EX_BACKEND \
	{ .name = "--backend", .arg = "B", .value = CLI_BACKEND, \
	  .help = "auto (a usable GPU, else simt), gpu, simt, ssh:HOST\n" \
		  "(a GPU machine over ssh) or slurm (a job on a cluster)" }
#define EX_FILE { .name = "--file", .arg = "F", .value = CLI_FILE, \
		  .help = "check F instead of your copy" }
#define EX_SEED { .name = "--seed", .arg = "N", .help = "the seed for the harness's inputs" }
#define EX_JSON { .name = "--json", .help = "the harness's result with compile_log, stdout, stderr" }
#define EX_PREDICT(text) { .name = "--predict", .arg = "DEVICE", .value = CLI_DEVICE, .help = text }

static const struct cli_option read_options[] = {
	{ .name = "--plain", .help = "write the rendered lesson to stdout" },
	{ .name = "--width", .arg = "N", .help = "wrap at N columns (default: the terminal's, or 80)" },
	{ 0 }
};
static const struct cli_option json_options[] = {
	{ .name = "--json", .help = "print JSON instead of text" },
	{ 0 }
};
static const struct cli_option check_options[] = {
	EX_BACKEND, EX_FILE,
	{ .name = "--timeout", .arg = "S", .help = "stop the program after S seconds (default 10, simt 60)" },
	EX_SEED, EX_PREDICT("on simt, also predict each kernel's time on GPU\n"
		   "DEVICE (a device file's id, see 'cudalab doctor')"), EX_JSON, { 0 }
};
static const struct cli_option bench_options[] = {
	EX_BACKEND, EX_FILE,
	{ .name = "--timeout", .arg = "S", .help = "stop the program after S seconds (default 60, simt 180)" },
	EX_SEED, EX_PREDICT("the GPU simt predicts the time on: a device\n"
		   "file's id (default h100-sxm, see 'cudalab doctor') or off"), EX_JSON, { 0 }
};
static const struct cli_option watch_options[] = {
	EX_BACKEND, EX_FILE,
	{ .name = "--timeout", .arg = "S", .help = "stop each check after S seconds (default 10, simt 60)" },
	EX_SEED, EX_PREDICT("on simt, also predict each kernel's time on GPU\n"
		   "DEVICE (a device file's id, see 'cudalab doctor')"), { 0 }
};
static const struct cli_option solution_options[] = {
	{ .name = "--force", .help = "show it before a pass" },
	{ 0 }
};
static const struct cli_option run_options[] = {
	{ .name = "--backend", .arg = "B", .value = CLI_BACKEND,
	  .help = "auto, gpu, simt, ssh:HOST or slurm (as for check)" },
	{ .name = "--timeout", .arg = "S", .help = "stop the program after S seconds (default: never)" },
	{ .name = "--counters", .arg = "FILE", .value = CLI_FILE,
	  .help = "on simt, write the counters JSON to FILE" },
	EX_PREDICT("on simt, predict each launch's time on GPU DEVICE\n"
		   "(a device file's id, see 'cudalab doctor')"),
	{ .name = "-I", .arg = "DIR", .value = CLI_DIR, .help = "add DIR to the include path" },
	{ .name = "-D", .arg = "X", .help = "define the macro X (NAME or NAME=VALUE)" },
	{ 0 }
};
static const struct cli_option doctor_options[] = {
	{ .name = "--backend", .arg = "ssh:HOST|slurm", .value = CLI_REMOTE,
	  .help = "ask the far side of a remote backend instead" },
	{ 0 }
};
static const struct cli_option remote_options[] = {
	{ .name = "--protocol", .arg = "N", .required = 1,
	  .help = "the protocol the near side speaks" },
	{ .name = "--doctor", .help = "answer doctor's questions instead of a check" },
	{ 0 }
};

const struct cli_verb cli_verbs[] = {
	{ .name = "read", .args = "LESSON", .options = read_options, .fn = cli_read,
	  .operands = { CLI_LESSON }, .doc = "guide.md",
	  .summary = "read a lesson (--plain: rendered text to stdout)",
	  .help = "Without --plain, opens the lesson in the lab. --plain writes it to stdout:\n"
		  "styled on a terminal, plain text when piped or when NO_COLOR is set, never\n"
		  "wider than N columns (default: the terminal's width, or 80). Quiz answers\n"
		  "stay hidden. LESSON may also be an exercise id, for its statement, or\n"
		  "the path of any Markdown file (with --plain).\n" },
	{ .name = "list", .args = "[lessons|reading|exercises]", .options = json_options,
	  .fn = cli_list, .operands = { CLI_KIND }, .doc = "guide.md",
	  .summary = "list lessons, reading items or exercises with their status",
	  .help = "With no kind, lists all three. --json prints one JSON object per kind.\n" },
	{ .name = "mark", .args = "ITEM (done|reading|unread)", .fn = cli_mark,
	  .operands = { CLI_ITEM, CLI_STATUS }, .doc = "guide.md",
	  .summary = "set a reading item's status",
	  .help = "ITEM is a reading item id, as shown by 'cudalab list reading'.\n" },
	{ .name = "progress", .options = json_options, .fn = cli_progress, .doc = "guide.md",
	  .summary = "how far you are: lessons, reading, exercises", .help = "" },
	{ .name = "check", .args = "EX", .options = check_options, .fn = cli_check,
	  .operands = { CLI_EXERCISE }, .doc = "guide.md",
	  .summary = "build your solution of an exercise and check it",
	  .help = "Builds the exercise's harness with your copy (made from the starter on\n"
		  "first use; its path is printed then), runs it, and prints the verdict:\n"
		  "pass, wrong, hazard, compile_error, runtime_error or timeout. Exit 0 on\n"
		  "a pass. On simt every kernel is checked for races, barrier misuse and\n"
		  "uninitialized reads (a report makes the verdict hazard), and a pass is\n"
		  "run again under a second schedule (block and warp order).\n" },
	{ .name = "bench", .args = "EX", .options = bench_options, .fn = cli_bench,
	  .operands = { CLI_EXERCISE }, .doc = "guide.md",
	  .summary = "check an exercise, then time it",
	  .help = "Like check, then the harness's timing: median, min, noise and the share\n"
		  "of the device's peak. On simt the check is followed by a run at the\n"
		  "GPU's sizes under simt's time model, which predicts the time on a GPU\n"
		  "(--predict, the config's predict; default h100-sxm) and says what\n"
		  "limits each kernel; the counters of the check are shown too.\n" },
	{ .name = "hint", .args = "EX", .fn = cli_hint, .operands = { CLI_EXERCISE },
	  .doc = "guide.md", .summary = "the next hint for an exercise",
	  .help = "Each hint is shown once, in order.\n" },
	{ .name = "solution", .args = "EX", .options = solution_options, .fn = cli_solution,
	  .operands = { CLI_EXERCISE }, .doc = "guide.md",
	  .summary = "the reference solution, once you have passed", .help = "" },
	{ .name = "reset", .args = "EX", .fn = cli_reset, .operands = { CLI_EXERCISE },
	  .doc = "guide.md",
	  .summary = "put the starter back in your copy (the old one is kept as .bak)",
	  .help = "" },
	{ .name = "watch", .args = "EX", .options = watch_options, .fn = cli_watch,
	  .operands = { CLI_EXERCISE }, .doc = "guide.md",
	  .summary = "check again every time you save", .help = "Ctrl-C stops watching.\n" },
	{ .name = "run", .tail = "FILE... [-- ARGS]", .options = run_options, .fn = cli_run,
	  .operands = { CLI_FILE, CLI_FILE }, .doc = "simt.md",
	  .summary = "compile and run any CUDA program (.cu, .cpp, .cc, .c)",
	  .help = "Runs the program on this terminal with ARGS and exits with its code:\n"
		  "124 after --timeout, 125 when it does not compile, 128+N when it died of\n"
		  "signal N, 123 when simt reported a hazard (a race, a barrier error or an\n"
		  "uninitialized read). CUDALAB_SIMT_CHECKS=0 turns the hazard checks off.\n"
		  "Remotely the sources and their headers go to the far side and its output\n"
		  "and exit status come back.\n" },
	{ .name = "validate", .fn = cli_validate, .doc = "contributing.md",
	  .summary = "check all content; prints file:line:col errors, exit 1 if any",
	  .help = "Checks every lesson and exercise: YAML, required fields, unique ids and\n"
		  "orders, kinds, URLs, and lesson/exercise references.\n" },
	{ .name = "doctor", .options = doctor_options, .fn = cli_doctor, .doc = "guide.md",
	  .summary = "what works and what to fix: content, database, nvcc, GPU, terminal",
	  .help = "With --backend, asks the remote side instead: reachable, its cudalab\n"
		  "version, nvcc, GPU name, compute capability and driver.\n" },
	{ .name = "remote", .options = remote_options, .fn = cli_remote, .doc = "remote.md",
	  .summary = "the far side of --backend ssh:HOST and slurm (they start it)",
	  .help = "Reads a check request on stdin and answers on stdout; --backend\n"
		  "ssh:HOST runs it over ssh and --backend slurm under srun. It needs to be\n"
		  "installed where the GPU is (make install PREFIX=~/.local).\n" },
	{ .name = "__complete", .args = "-- WORD...", .fn = cli_complete, .hidden = 1,
	  .summary = "the candidates for the last WORD, one a line (for shell completion)",
	  .help = "WORDs are the words after 'cudalab', the last one being completed\n"
		  "(empty for a new word). A line ':file' or ':dir' asks the shell for\n"
		  "file or directory names.\n" },
};
const unsigned cli_n_verbs = sizeof cli_verbs / sizeof cli_verbs[0];

const struct cli_verb *cli_verb_find(const char *name)
{
	for (unsigned i = 0; i < cli_n_verbs; i++)
		if (strcmp(cli_verbs[i].name, name) == 0)
			return &cli_verbs[i];
	return NULL;
}

char *cli_doc_path(const char *page)
{
	char *tree = cli_source_tree(), *path;

	path = tree ? xasprintf("%s/docs/%s", tree, page) : path_join(CUDALAB_DOCDIR, page);
	free(tree);
	return path;
}

/* "--backend B", "-h, --help": an option as --help shows it.  Caller frees. */
static char *option_label(const struct cli_option *o)
{
	return xasprintf("%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
}

/* One line per option, its help in a column; help lines after the first
 * line up under it. */
static void print_options(FILE *out, const struct cli_option *opts)
{
	int width = 0;

	for (const struct cli_option *o = opts; o->name; o++) {
		char *label = option_label(o);

		if ((int)strlen(label) > width)
			width = (int)strlen(label);
		free(label);
	}
	for (const struct cli_option *o = opts; o->name; o++) {
		char *label = option_label(o);
		const char *h = o->help;

		fprintf(out, "  %-*s  ", width, label);
		for (const char *nl; (nl = strchr(h, '\n')); h = nl + 1)
			fprintf(out, "%.*s\n  %-*s  ", (int)(nl - h), h, width, "");
		fprintf(out, "%s\n", h);
		free(label);
	}
}

static void print_synopsis(FILE *out, const struct cli_verb *v)
{
	fprintf(out, "usage: cudalab %s", v->name);
	if (v->args)
		fprintf(out, " %s", v->args);
	for (const struct cli_option *o = v->options; o && o->name; o++)
		fprintf(out, " %s%s%s%s%s", o->required ? "" : "[", o->name, o->arg ? " " : "",
			o->arg ? o->arg : "", o->required ? "" : "]");
	if (v->tail)
		fprintf(out, " %s", v->tail);
	fputc('\n', out);
}

void cli_usage(FILE *out)
{
	static const char *const pages[][2] = {
		{ "guide.md", "lessons, exercises, checks, progress, keys, config" },
		{ "simt.md", "simt: devices, libraries, hazard checks, counters, limits" },
		{ "remote.md", "checks on a GPU over ssh or SLURM" },
		{ "published.md", "published CUDA programs run on simt" },
		{ "contributing.md", "adding lessons, exercises, PTX and runtime calls; tests" },
		{ "architecture.md", "the map of the code" },
	};
	char *dir;

	fprintf(out,
		"usage: cudalab [--home DIR] [--content DIR] [VERB [ARGS]]\n"
		"\n"
		"With no verb, opens the lab.\n"
		"\n"
		"verbs:\n");
	for (unsigned i = 0; i < cli_n_verbs; i++)
		if (!cli_verbs[i].hidden)
			fprintf(out, "  %-10s %s\n", cli_verbs[i].name, cli_verbs[i].summary);
	fprintf(out, "\noptions:\n");
	print_options(out, cli_global_options);
	dir = cli_doc_path("");
	fprintf(out, "\ndocumentation: man cudalab, and in %s\n", dir);
	for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
		fprintf(out, "  %-16s %s\n", pages[i][0], pages[i][1]);
	free(dir);
}

int cli_verb_help(const char *name, FILE *out)
{
	const struct cli_verb *v = cli_verb_find(name);

	if (!v)
		return -1;
	print_synopsis(out, v);
	fprintf(out, "\n%s.\n", v->summary);
	if (*v->help)
		fprintf(out, "\n%s", v->help);
	if (v->options && v->options->name) {
		fprintf(out, "\noptions:\n");
		print_options(out, v->options);
	}
	if (v->doc) {
		char *path = cli_doc_path(v->doc);

		fprintf(out, "\nMore: man cudalab, and %s\n", path);
		free(path);
	}
	return 0;
}
