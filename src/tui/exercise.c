/* exercise.c — the exercise screen: the statement, the learner's file,
 * check and bench with a live progress line, the verdict and timing, hints,
 * the solution beside the learner's code after a pass, and the history of
 * attempts as a sparkline.  Its argument is the exercise id. */
#include "tui_internal.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cudalab/content.h"
#include "cudalab/doc.h"
#include "cudalab/run.h"
#include "cudalab/store.h"
#include "cudalab/util.h"

#define HISTORY 40

/* One line of the results pane. */
struct rline {
	char *text;
	enum ui_role role;
};

struct exscreen {
	const struct exercise *ex;
	char *file;   /* the learner's copy */
	char *text;   /* the statement */
	struct doc *doc;
	struct doc_layout *lay;
	int top;      /* first statement line shown */
	struct rline *res;
	int nres, res_top;
	double hist[HISTORY]; /* median ms of passing timed attempts, oldest first */
	int nhist;
	char verdicts[HISTORY + 1]; /* recent attempts, oldest first: '+' pass, 'x' not */
	int full_results; /* results pane takes the whole body */
	struct rline *hint; /* the hints shown, above the verdict */
	int nhint;
	char *output;       /* the last run's stdout and stderr, for 'o' */
	int verdict;        /* the results hold a verdict */
	const struct exercise *next; /* offered after a pass */
};

static const char *const help_lines[] = {
	"e                  edit your file in $VISUAL / $EDITOR (vi when unset)",
	"c                  check: compile, run every case, give the verdict",
	"b                  bench: check, then time the kernel (on a GPU: many samples)",
	"Esc, Ctrl-C        while a check runs: cancel it",
	"h                  show the next hint (above the verdict); H hides the hints",
	"o                  the whole output (stdout, stderr) of the last run",
	"s                  after a pass: your code beside the solution (d: as a diff)",
	"n                  after a pass: the next exercise",
	"v                  results pane: full screen / split",
	"Up/Down, j/k       scroll the statement (the results when full screen)",
	"PgUp/PgDn, g/G     page, top, end",
	"?                  this help",
	"q                  back",
	NULL,
};

static void results_clear(struct exscreen *x)
{
	for (int i = 0; i < x->nres; i++)
		free(x->res[i].text);
	free(x->res);
	x->res = NULL;
	x->nres = x->res_top = 0;
	x->verdict = 0;
}

static void hints_clear(struct exscreen *x)
{
	for (int i = 0; i < x->nhint; i++)
		free(x->hint[i].text);
	free(x->hint);
	x->hint = NULL;
	x->nhint = 0;
}

static void hint_add(struct exscreen *x, enum ui_role role, const char *text)
{
	x->hint = xrealloc(x->hint, (size_t)(x->nhint + 1) * sizeof *x->hint);
	x->hint[x->nhint].text = xstrdup(text);
	x->hint[x->nhint].role = role;
	x->nhint++;
}

/* The results pane: the hints shown, a rule, then the verdict. */
static int pane_count(const struct exscreen *x)
{
	return x->nhint ? x->nhint + 1 + x->nres : x->nres;
}

static const struct rline *pane_line(const struct exscreen *x, int i)
{
	static const struct rline rule = { "──", UI_RULE };

	if (x->nhint) {
		if (i < x->nhint)
			return &x->hint[i];
		if (i == x->nhint)
			return &rule;
		i -= x->nhint + 1;
	}
	return &x->res[i];
}

static void results_add(struct exscreen *x, enum ui_role role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void results_add(struct exscreen *x, enum ui_role role, const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	sb_init(&sb);
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	x->res = xrealloc(x->res, (size_t)(x->nres + 1) * sizeof *x->res);
	x->res[x->nres].text = sb_steal(&sb);
	x->res[x->nres].role = role;
	x->nres++;
}

/* Adds text split at newlines, each line in role, at most max lines. */
static void results_add_block(struct exscreen *x, enum ui_role role, const char *text, int max)
{
	const char *p = text;

	for (int n = 0; p && *p && n < max; n++) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		results_add(x, role, "  %.*s", len, p);
		p = nl ? nl + 1 : NULL;
	}
}

static void load_history(struct tui *t, struct exscreen *x)
{
	struct attempt *a = NULL;
	size_t n = 0;

	x->nhist = 0;
	x->verdicts[0] = '\0';
	if (!t->cfg->st || store_attempts(t->cfg->st, x->ex->id, HISTORY, &a, &n) != 0)
		return;
	/* newest first from the store; the history reads oldest first */
	for (size_t i = n, v = 0; i-- > 0;) {
		int pass = strcmp(a[i].status, "pass") == 0;

		x->verdicts[v++] = pass ? '+' : 'x';
		x->verdicts[v] = '\0';
		if (a[i].median_ms >= 0 && pass)
			x->hist[x->nhist++] = a[i].median_ms;
	}
	store_attempts_free(a, n);
}

static void show_last_verdict(struct tui *t, struct exscreen *x);

static void *exercise_enter(struct tui *t, const char *arg)
{
	struct exscreen *x;
	size_t len;
	int created = 0;

	if (!arg || !catalog_exercise(t->cfg->cat, arg)) {
		tui_flash(t, "no exercise '%s'", arg ? arg : "");
		return NULL;
	}
	x = xcalloc(1, sizeof *x);
	x->ex = catalog_exercise(t->cfg->cat, arg);
	x->text = catalog_exercise_body(x->ex, &len);
	if (!x->text || !(x->doc = doc_parse(x->text, len))) {
		tui_flash(t, "cannot read %s", x->ex->path);
		free(x->text);
		free(x);
		return NULL;
	}
	if (run_work_copy(t->cfg->home, x->ex, &x->file, &created) != 0) {
		tui_flash(t, "cannot make your copy under %s/work: %s", t->cfg->home, strerror(errno));
		x->file = NULL;
	}
	x->lay = doc_layout(x->doc, t->cols - 2 > 100 ? 100 : t->cols - 2);
	load_history(t, x);
	show_last_verdict(t, x);
	if (created)
		results_add(x, UI_DIM, "It is new: a copy of the starter.");
	if (x->nres == 0)
		results_add(x, UI_DIM, "e: edit it   c: check   b: bench   h: hint   ?: keys");
	return x;
}

static void exercise_leave(struct tui *t, void *state)
{
	struct exscreen *x = state;

	(void)t;
	results_clear(x);
	hints_clear(x);
	free(x->output);
	doc_layout_free(x->lay);
	doc_free(x->doc);
	free(x->text);
	free(x->file);
	free(x);
}

static void exercise_resize(struct tui *t, void *state)
{
	struct exscreen *x = state;
	struct doc_anchor keep = x->lay->nlines ? x->lay->lines[x->top].anchor
						: (struct doc_anchor){ 0, -1 };

	doc_layout_free(x->lay);
	x->lay = doc_layout(x->doc, t->cols - 2 > 100 ? 100 : t->cols - 2);
	x->top = doc_line_for_anchor(x->lay, keep);
}

/* Rows of the results pane (the statement gets the rest): what its lines
 * take wrapped, up to half the body, or two thirds after a check, so
 * that the verdict and what explains it show at 80x24. */
static int results_rows(const struct tui *t, const struct exscreen *x)
{
	int body = t->rows - 4; /* title, file line, history line, status */
	int cap = x->verdict ? body * 2 / 3 : body / 2, want = 1;

	if (x->full_results)
		return body;
	for (int i = x->res_top; i < pane_count(x) && want <= cap; i++)
		want += term_put_wrapped(-1, 1, pane_line(x, i)->text, t->cols - 2, cap);
	if (want > cap)
		want = cap;
	return want < 3 ? 3 : want;
}

static void paint_doc_line(struct tui *t, int y, int margin, const struct doc_line *ln)
{
	for (int s = 0; s < ln->nspans; s++) {
		const struct doc_span *sp = &ln->spans[s];
		char *piece = xstrndup(sp->text, (size_t)sp->len);
		attr_t a = term_attr(sp->role == ROLE_CODE || sp->role == ROLE_STRING ? UI_CODE
				     : sp->role == ROLE_H1 ? UI_H1
				     : sp->role == ROLE_H2 ? UI_H2
				     : sp->role == ROLE_LINK ? UI_LINK
				     : sp->role == ROLE_KEYWORD ? UI_KEYWORD
				     : sp->role == ROLE_COMMENT ? UI_COMMENT
				     : sp->role == ROLE_TYPE ? UI_TYPE
				     : sp->role == ROLE_NUMBER ? UI_NUMBER
				     : sp->role == ROLE_CODE_FRAME || sp->role == ROLE_TABLE ? UI_RULE
											 : UI_TEXT);

		if (sp->attrs & ATTR_BOLD)
			a |= A_BOLD;
		if (sp->attrs & ATTR_ITALIC)
			a |= A_ITALIC;
		attron(a);
		term_put(y, margin + sp->col, piece, t->cols - margin - sp->col);
		attroff(a);
		free(piece);
	}
}

/* A sparkline of passing medians: lower is better, so the bars show time. */
static void draw_history(struct tui *t, struct exscreen *x, int y)
{
	static const char *const bars[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	struct exercise_state es = { EX_NEW, -1, 0, 0 };
	double lo = INFINITY, hi = 0;
	char head[96];
	int col;

	if (t->cfg->st)
		store_exercise_get(t->cfg->st, x->ex->id, &es);
	if (es.best_ms >= 0)
		snprintf(head, sizeof head, "%s · %d attempt%s · best %.4g ms  ",
			 store_ex_status_name(es.status), es.attempts, es.attempts == 1 ? "" : "s",
			 es.best_ms);
	else
		snprintf(head, sizeof head, "%s · %d attempt%s  ", store_ex_status_name(es.status),
			 es.attempts, es.attempts == 1 ? "" : "s");
	move(y, 0);
	clrtoeol();
	attron(term_attr(es.status == EX_PASSED ? UI_DONE : UI_DIM));
	col = 1 + term_put(y, 1, head, t->cols - 2);
	attroff(term_attr(es.status == EX_PASSED ? UI_DONE : UI_DIM));
	/* one mark per recent attempt: pass or not */
	for (const char *v = x->verdicts; *v && col < t->cols - 12; v++, col++) {
		enum ui_role role = *v == '+' ? UI_DONE : UI_WARN;

		attron(term_attr(role));
		term_put(y, col, *v == '+' ? term_glyph(GLYPH_CHECK) : "x", 1);
		attroff(term_attr(role));
	}
	col += 2;
	if (x->nhist == 0)
		return;
	for (int i = 0; i < x->nhist; i++) {
		lo = fmin(lo, x->hist[i]);
		hi = fmax(hi, x->hist[i]);
	}
	term_put(y, col, "times: ", t->cols - col);
	col += 7;
	for (int i = 0; i < x->nhist && col < t->cols - 1; i++, col++) {
		int level = hi > lo ? (int)((x->hist[i] - lo) / (hi - lo) * 7.0 + 0.5) : 3;

		attron(term_attr(UI_PROGRESS));
		term_put(y, col, term_glyph(GLYPH_BAR_FILL)[0] == '#' ? "#" : bars[level], 1);
		attroff(term_attr(UI_PROGRESS));
	}
}

#define FILE_LABEL "Your file: "

static void draw_file(struct tui *t, struct exscreen *x, int y)
{
	move(y, 0);
	clrtoeol();
	attron(term_attr(UI_DIM));
	term_put(y, 1, FILE_LABEL, t->cols - 2);
	attroff(term_attr(UI_DIM));
	attron(term_attr(UI_LINK));
	term_put(y, 1 + (int)strlen(FILE_LABEL), x->file ? x->file : "(none)",
		 t->cols - 2 - (int)strlen(FILE_LABEL));
	attroff(term_attr(UI_LINK));
}

/* Terminals known to understand OSC 8 hyperlinks, outside multiplexers,
 * which may not pass them through. */
static int hyperlinks(void)
{
	const char *prog = getenv("TERM_PROGRAM");

	if (getenv("TMUX") || getenv("STY"))
		return 0;
	return getenv("VTE_VERSION") || getenv("KITTY_WINDOW_ID") || getenv("WT_SESSION") ||
	       (prog && (strcmp(prog, "iTerm.app") == 0 || strcmp(prog, "WezTerm") == 0 ||
			 strcmp(prog, "vscode") == 0));
}

/* Rewrites the file path, already painted by curses, as an OSC 8 link to
 * file://PATH, so a click opens it; the text on screen stays the same. */
static void link_file(struct tui *t, struct exscreen *x, int y)
{
	int col = 1 + (int)strlen(FILE_LABEL);

	if (!x->file || !hyperlinks() || tui_display_width(x->file) > t->cols - 2 - col)
		return;
	printf("\033[%d;%dH\033]8;;file://%s\033\\%s\033]8;;\033\\", y + 1, col + 1, x->file,
	       x->file);
	fflush(stdout);
	move(y, col);
	refresh();
}

static void exercise_draw(struct tui *t, void *state)
{
	struct exscreen *x = state;
	int rrows, srows, margin = 1;
	char title[256];

	if (term_too_small(t, 12, 44))
		return;
	erase();
	rrows = results_rows(t, x);
	srows = t->rows - 4 - rrows;
	snprintf(title, sizeof title, "Exercise: %s  (%s, difficulty %d)", x->ex->title, x->ex->id,
		 x->ex->difficulty);
	term_fill_line(0, UI_TITLE);
	attron(term_attr(UI_TITLE));
	term_put_cut(0, 1, title, t->cols - 2);
	attroff(term_attr(UI_TITLE));
	if (x->top > x->lay->nlines - 1)
		x->top = x->lay->nlines > 0 ? x->lay->nlines - 1 : 0;
	for (int i = 0; i < srows && x->top + i < x->lay->nlines; i++)
		paint_doc_line(t, i + 1, margin, &x->lay->lines[x->top + i]);
	draw_file(t, x, srows + 1);
	draw_history(t, x, srows + 2);
	for (int xx = 0; xx < t->cols; xx++)
		mvaddstr(srows + 3, xx, term_glyph(GLYPH_HLINE));
	for (int i = x->res_top, y = srows + 4, end = srows + 3 + rrows; i < pane_count(x) &&
	     y < end; i++) {
		const struct rline *ln = pane_line(x, i);

		attron(term_attr(ln->role));
		y += term_put_wrapped(y, 1, ln->text, t->cols - 2, end - y);
		attroff(term_attr(ln->role));
	}
	if (t->cols >= 100)
		tui_status(t, x->next ? "n: next exercise  e: edit  c: check  b: bench  h: hint  "
					"s: solution  o: output  v: results  q: back"
				      : "e: edit  c: check  b: bench  h: hint  s: solution  o: output  "
					"v: all the results  ?: keys  q: back");
	else
		tui_status(t, x->next ? "n:next e:edit c:check b:bench h:hint s:solution o:output "
					"v:results q:back"
				      : "e:edit c:check b:bench h:hint s:solution o:output v:results "
					"?:keys q:back");
	refresh();
	link_file(t, x, srows + 1);
}

static const char *verdict_text(enum run_status s)
{
	switch (s) {
	case RUN_PASS:
		return "PASS";
	case RUN_WRONG:
		return "WRONG ANSWER";
	case RUN_COMPILE_ERROR:
		return "COMPILE ERROR";
	case RUN_RUNTIME_ERROR:
		return "RUNTIME ERROR";
	case RUN_HAZARD:
		return "HAZARD";
	default:
		return "TIMEOUT";
	}
}

/* Line `line` (from 1) of text, blanks trimmed, into out; 0 if absent. */
static int source_line(const char *text, long line, char *out, size_t size)
{
	const char *p = text, *end;

	for (long i = 1; p && i < line; i++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p || line < 1)
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	end = strchr(p, '\n');
	if (!end)
		end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	snprintf(out, size, "%.*s", (int)(end - p), p);
	return 1;
}

/* The learner's code at line, under the place that names it; once, as a
 * second access on the line just shown adds nothing. */
static void show_code(struct exscreen *x, const char *source, int line, int *shown)
{
	char code[160];

	if (!source || line == *shown || !source_line(source, line, code, sizeof code))
		return;
	results_add(x, UI_CODE, "      %d | %s", line, code);
	*shown = line;
}

/* "block (1,0,0) thread (0,0,0)" from a site's arrays. */
static void coords(const cJSON *site, int v[6])
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(site, "block");
	const cJSON *th = cJSON_GetObjectItemCaseSensitive(site, "thread");

	for (int i = 0; i < 3; i++) {
		v[i] = cJSON_GetArrayItem(b, i) ? cJSON_GetArrayItem(b, i)->valueint : 0;
		v[3 + i] = cJSON_GetArrayItem(th, i) ? cJSON_GetArrayItem(th, i)->valueint : 0;
	}
}

/* Whether name is the learner's file: simt's reports give base names. */
static int learner_base(const struct exscreen *x, const char *name)
{
	const char *base = x->file ? strrchr(x->file, '/') : NULL;

	base = base ? base + 1 : x->file;
	return base && name && strcmp(name, base) == 0;
}

static int learner_file(const struct exscreen *x, const cJSON *file)
{
	return cJSON_IsString(file) && learner_base(x, file->valuestring);
}

/* A site of a hazard in the runner's terms, for the words of the fix. */
static void site_access(const struct exscreen *x, const cJSON *site, struct run_access *a)
{
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(site, "line");
	const cJSON *acc = cJSON_GetObjectItemCaseSensitive(site, "access");
	const cJSON *stream = cJSON_GetObjectItemCaseSensitive(site, "stream");
	const cJSON *op = cJSON_GetObjectItemCaseSensitive(site, "operation");
	int v[6];

	coords(site, v);
	memset(a, 0, sizeof *a);
	a->line = cJSON_IsNumber(line) &&
			  learner_file(x, cJSON_GetObjectItemCaseSensitive(site, "file"))
		  ? line->valueint
		  : 0;
	a->access = cJSON_IsString(acc) ? acc->valuestring : NULL;
	memcpy(a->block, v, sizeof a->block);
	a->stream = cJSON_IsNumber(stream) ? stream->valueint : -1;
	/* copies and memsets are operations too, on a stream of their own */
	a->host = cJSON_IsString(op) && strcmp(op->valuestring, "the host") == 0;
}

/* One access of a hazard: what, where, by whom. */
static void show_site(struct exscreen *x, const cJSON *site, const char *space)
{
	const cJSON *file = cJSON_GetObjectItemCaseSensitive(site, "file");
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(site, "line");
	const cJSON *acc = cJSON_GetObjectItemCaseSensitive(site, "access");
	const cJSON *op = cJSON_GetObjectItemCaseSensitive(site, "operation");
	const cJSON *stream = cJSON_GetObjectItemCaseSensitive(site, "stream");
	char where[256] = "an unknown line", on[48] = "";
	int v[6];

	coords(site, v);
	/* a race between streams names each side's stream; a copy or memset
	 * has no line or thread */
	if (cJSON_IsNumber(stream) && stream->valueint > 0)
		snprintf(on, sizeof on, " on stream %d", stream->valueint);
	else if (cJSON_IsNumber(stream))
		snprintf(on, sizeof on, " on the default stream");
	if (cJSON_IsString(op)) {
		results_add(x, UI_WARN, "  %s%s%s by %s%s", space ? space : "",
			    space && cJSON_IsString(acc) ? " " : "",
			    cJSON_IsString(acc) ? acc->valuestring : "", op->valuestring, on);
		return;
	}
	if (cJSON_IsString(file) && cJSON_IsNumber(line))
		snprintf(where, sizeof where, "%s:%d", file->valuestring, line->valueint);
	results_add(x, UI_WARN, "  %s%s%s at %s, block (%d,%d,%d) thread (%d,%d,%d)%s",
		    space ? space : "", space && cJSON_IsString(acc) ? " " : "",
		    cJSON_IsString(acc) ? acc->valuestring : "", where, v[0], v[1], v[2], v[3],
		    v[4], v[5], on);
}

/* What a report's message adds to the accesses shown above it: a race's
 * reason ("no synchronization orders them"); an uninitialized read's
 * clause after its place, or, the element being named, what follows. */
static const char *reason(const char *msg, const char *kind, int named)
{
	const char *r = strcmp(kind, "race") == 0 ? strrchr(msg, ',') : strstr(msg, "): ");

	if (!r)
		return msg;
	r += strcmp(kind, "race") == 0 ? 2 : 3;
	if (named && strstr(r, ", "))
		r = strstr(r, ", ") + 2; /* "offset 4 of ..., not written by this block" */
	return r;
}

/* One hazard report: its kind and the element it is about, its space,
 * kernel and count; the accesses with the learner's lines; the reason;
 * and the usual fix. */
static void show_hazard(struct exscreen *x, const cJSON *h, const char *source)
{
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(h, "kind");
	const cJSON *space = cJSON_GetObjectItemCaseSensitive(h, "space");
	const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(h, "kernel");
	const cJSON *count = cJSON_GetObjectItemCaseSensitive(h, "count");
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(h, "message");
	const cJSON *sites = cJSON_GetObjectItemCaseSensitive(h, "sites"), *site;
	const char *sp = cJSON_IsString(space) ? space->valuestring : NULL;
	const char *k = cJSON_IsString(kind) ? kind->valuestring : "hazard";
	struct run_access acc[2];
	struct run_hazard_words w;
	char in_space[48] = "", name[128] = "a kernel";
	int n = 0, shown = 0;

	/* a register is no memory */
	if (sp && strcmp(sp, "register") == 0)
		snprintf(in_space, sizeof in_space, " in a register");
	else if (sp)
		snprintf(in_space, sizeof in_space, " in %s memory", sp);
	if (cJSON_IsString(kernel))
		run_kernel_name(kernel->valuestring, name, sizeof name);
	cJSON_ArrayForEach(site, sites)
		if (n < 2)
			site_access(x, site, &acc[n++]);
	run_hazard_words(k, sp, cJSON_IsString(kernel) ? kernel->valuestring : NULL,
			 cJSON_IsString(msg) ? msg->valuestring : NULL, acc, n, source, &w);
	results_add(x, UI_WARN, "%s%s%s%s in %s, %d time%s",
		    strcmp(k, "uninitialized") == 0 ? "uninitialized read" : k,
		    !w.place ? "" : strcmp(k, "race") == 0 ? " on " : " of ",
		    w.place ? w.place : "", in_space, name,
		    cJSON_IsNumber(count) ? count->valueint : 1,
		    cJSON_IsNumber(count) && count->valueint == 1 ? "" : "s");
	cJSON_ArrayForEach(site, sites) {
		const cJSON *file = cJSON_GetObjectItemCaseSensitive(site, "file");
		const cJSON *line = cJSON_GetObjectItemCaseSensitive(site, "line");

		show_site(x, site, sp);
		if (learner_file(x, file) && cJSON_IsNumber(line))
			show_code(x, source, line->valueint, &shown);
	}
	if (cJSON_IsString(msg) && (strcmp(k, "race") != 0 || cJSON_GetArraySize(sites) == 2))
		results_add(x, UI_DIM, "  %s", reason(msg->valuestring, k, w.place != NULL));
	if (w.fix)
		results_add(x, UI_QUIZ, "  %s", w.fix);
	run_hazard_words_free(&w);
}

/* simt's hazard reports, from the result JSON: the first `first` of them,
 * or those after it when first is negative (-1: from the second on). */
static void show_hazards(struct exscreen *x, const struct run_result *r, int first)
{
	cJSON *j = cJSON_Parse(r->json);
	const cJSON *hz = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(j, "simt"), "hazards");
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(hz, "hazards"), *h;
	char *source = x->file ? read_file(x->file, NULL) : NULL;
	int i = 0, from = first < 0 ? -first : 0, to = first < 0 ? 7 : first;

	cJSON_ArrayForEach(h, list) {
		if (i >= from && i < to)
			show_hazard(x, h, source);
		else if (i == to && first < 0)
			results_add(x, UI_DIM, "  ... and more (all of them: cudalab check --json)");
		i++;
	}
	free(source);
	cJSON_Delete(j);
}

/* Where simt stopped a kernel, from its report on stderr, with the
 * learner's line. */
static void show_fault(struct exscreen *x, const struct run_result *r)
{
	struct run_fault f;
	char *source;
	int shown = 0;

	if (run_fault_find(r->err, &f) != 0)
		return;
	source = x->file ? read_file(x->file, NULL) : NULL;
	results_add(x, UI_WARN, "  %s", f.message);
	if (f.file)
		results_add(x, UI_WARN, "  in %s at %s:%d, block (%d,%d,%d) thread (%d,%d,%d)",
			    f.kernel, f.file, f.line, f.block[0], f.block[1], f.block[2],
			    f.thread[0], f.thread[1], f.thread[2]);
	else
		results_add(x, UI_WARN, "  in %s, block (%d,%d,%d) thread (%d,%d,%d)", f.kernel,
			    f.block[0], f.block[1], f.block[2], f.thread[0], f.thread[1],
			    f.thread[2]);
	if (learner_base(x, f.file))
		show_code(x, source, f.line, &shown);
	free(source);
	run_fault_free(&f);
}

/* The lines the compiler printed under an error at file:line: the code
 * and a caret under where it went wrong, tabs expanded. */
static void show_caret(struct exscreen *x, const char *log, const char *file, int line)
{
	char *a = xasprintf("%s(%d): ", file, line), *b = xasprintf("%s:%d:", file, line);
	const char *p = log ? strstr(log, a) : NULL;

	if (!p && log)
		p = strstr(log, b);
	for (int n = 0; p && n < 3;) {
		const char *nl = strchr(p, '\n');
		size_t len;
		char *ln;

		if (!nl)
			break;
		p = nl + 1;
		len = strcspn(p, "\n");
		/* the context ends at a blank line or the next message */
		if (len == 0 || memmem(p, len, ": error", 7) || memmem(p, len, ": warning", 9))
			break;
		ln = str_expand_tabs(p, len, 8);
		results_add(x, UI_CODE, "    %s", ln);
		free(ln);
		n++;
	}
	free(a);
	free(b);
}

static void show_compile(struct exscreen *x, const struct run_result *r)
{
	for (size_t i = 0; i < r->n_errors && i < 8; i++) {
		const struct run_compile_error *e = &r->errors[i];
		const char *base = e->file ? strrchr(e->file, '/') : NULL;

		if (e->file && e->line) {
			results_add(x, UI_WARN, "  %s:%d: %s", base ? base + 1 : e->file, e->line,
				    e->message);
			show_caret(x, r->compile_log, e->file, e->line);
		} else {
			results_add(x, UI_WARN, "  %s", e->message);
		}
	}
}

static void show_timing(struct exscreen *x, const struct run_result *r)
{
	const struct run_timing *tm = &r->timing;

	if (tm->samples <= 0)
		return;
	if (r->backend == BACKEND_SIMT ||
	    ((r->backend == BACKEND_SSH || r->backend == BACKEND_SLURM) && !r->remote_gpu)) {
		results_add(x, UI_TEXT, "time: %.3f ms of emulation time (simt), not GPU time",
			    tm->median_ms);
		return;
	}
	results_add(x, UI_TEXT, "median %.4f ms   min %.4f ms   noise %.2f%%   %d samples%s",
		    tm->median_ms, tm->min_ms, tm->noise_pct, tm->samples,
		    tm->l2_flushed ? "   L2 flushed" : "");
	if (!isnan(r->derived.gbps))
		results_add(x, UI_TEXT, "%.1f GB/s = %.1f%% of peak %.0f GB/s%s", r->derived.gbps,
			    r->derived.pct_peak_bw, r->derived.peak_gbps,
			    isnan(r->derived.tflops) ? "" : "");
	if (!isnan(r->derived.tflops) && r->derived.tflops > 0)
		results_add(x, UI_TEXT, "%.3f TFLOP/s", r->derived.tflops);
}

/* The verdict, then what explains it first (the compiler's errors with
 * their lines, where a kernel was stopped, the first hazard, the first
 * mismatch), so that an 80x24 window shows them without scrolling; then
 * the backend, the cases, the other hazards and the counters. */
static void show_result(struct exscreen *x, const struct run_result *r)
{
	enum ui_role vr = r->status == RUN_PASS ? UI_DONE : UI_WARN;

	results_clear(x);
	x->verdict = 1;
	if (r->status == RUN_COMPILE_ERROR)
		results_add(x, vr, "%s  %zu error%s (o: the compiler's whole output)",
			    verdict_text(r->status), r->n_errors, r->n_errors == 1 ? "" : "s");
	else if (r->status == RUN_HAZARD && r->hazard_total > 0)
		results_add(x, vr, "%s  simt found %llu hazard%s", verdict_text(r->status),
			    r->hazard_total, r->hazard_total == 1 ? ":" : "s; the first:");
	else
		results_add(x, vr, "%s  %s", verdict_text(r->status), r->summary ? r->summary : "");
	show_compile(x, r);
	show_fault(x, r);
	show_hazards(x, r, 1);
	if (r->mismatch.case_name)
		results_add(x, UI_WARN, "  first mismatch: case %s, index %lld: expected %s, got %s",
			    r->mismatch.case_name, r->mismatch.index,
			    r->mismatch.expected ? r->mismatch.expected : "?",
			    r->mismatch.got ? r->mismatch.got : "?");
	if (r->mismatch.note)
		results_add(x, UI_WARN, "    %s", r->mismatch.note);
	{
		/* a remote check: where it went, and what ran it there */
		cJSON *j = cJSON_Parse(r->json);
		const cJSON *label = cJSON_GetObjectItemCaseSensitive(j, "backend");
		const cJSON *far = cJSON_GetObjectItemCaseSensitive(j, "remote_backend");

		results_add(x, UI_DIM, "backend %s%s%s%s%s%s",
			    cJSON_IsString(label) ? label->valuestring : run_backend_name(r->backend),
			    cJSON_IsString(far) ? ", on " : "",
			    cJSON_IsString(far) ? far->valuestring : "",
			    r->device ? " · " : "", r->device ? r->device : "",
			    r->cached ? " · build cached" : "");
		cJSON_Delete(j);
	}
	for (size_t i = 0; i < r->n_cases; i++) {
		const struct run_case *c = &r->cases[i];
		char *errs = run_case_errors(c);

		results_add(x, strcmp(c->status, "pass") == 0 ? UI_TEXT : UI_WARN, "  %-6s %-*s  %s",
			    c->status, run_case_width(r), c->name, errs);
		free(errs);
	}
	show_hazards(x, r, -1);
	if (r->nondeterminism)
		results_add(x, UI_WARN, "nondeterminism: %s", r->nondeterminism);
	show_timing(x, r);
	{
		char **lines;
		size_t n = run_prediction_lines(r->prediction, &lines);

		for (size_t i = 0; i < n; i++)
			results_add(x, i ? UI_TEXT : UI_SECTION, "%s", lines[i]);
		run_insights_free(lines, n);
	}
	{
		char **lines;
		size_t n = run_insights(r->json, &lines);

		if (n)
			results_add(x, UI_SECTION, "%s",
				    r->backend == BACKEND_SIMT ? "What simt's counters say:"
							       : "What the timing says:");
		for (size_t i = 0; i < n; i++)
			results_add(x, UI_TEXT, "  %s", lines[i]);
		run_insights_free(lines, n);
		n = run_comm_model(r->json, &lines);
		if (n)
			results_add(x, UI_SECTION, "NCCL communication (modelled):");
		for (size_t i = 0; i < n; i++)
			results_add(x, UI_TEXT, "  %s", lines[i]);
		run_insights_free(lines, n);
	}
	if (r->err && *r->err && r->status != RUN_HAZARD) {
		results_add(x, UI_DIM, "stderr:");
		results_add_block(x, UI_DIM, r->err, 20);
	}
	if (r->out && *r->out) {
		results_add(x, UI_DIM, "stdout:");
		results_add_block(x, UI_DIM, r->out, 20);
	}
	free(x->output);
	if (r->status == RUN_COMPILE_ERROR)
		x->output = xasprintf("compiler output:\n%s", r->compile_log ? r->compile_log : "");
	else
		x->output = xasprintf("%s%s%s%s", r->out && *r->out ? "stdout:\n" : "",
				      r->out ? r->out : "", r->err && *r->err ? "\nstderr:\n" : "",
				      r->err ? r->err : "");
}

/* The exercise after x's in the ladder that is not passed yet (then the
 * first not passed before it), or NULL when every one is passed. */
static const struct exercise *next_exercise(struct tui *t, const struct exscreen *x)
{
	const struct catalog *cat = t->cfg->cat;
	size_t n = cat->n_exercises, at = 0;

	for (size_t i = 0; i < n; i++)
		if (&cat->exercises[i] == x->ex)
			at = i;
	for (size_t k = 1; k < n; k++) {
		const struct exercise *e = &cat->exercises[(at + k) % n];
		struct exercise_state es = { EX_NEW, -1, 0, 0 };

		if (t->cfg->st)
			store_exercise_get(t->cfg->st, e->id, &es);
		if (es.status != EX_PASSED)
			return e;
	}
	return NULL;
}

/* Puts text (taken) at line pos of the results. */
static void results_insert(struct exscreen *x, int pos, enum ui_role role, char *text)
{
	x->res = xrealloc(x->res, (size_t)(x->nres + 1) * sizeof *x->res);
	memmove(&x->res[pos + 1], &x->res[pos], (size_t)(x->nres - pos) * sizeof *x->res);
	x->res[pos].text = text;
	x->res[pos].role = role;
	x->nres++;
}

/* After a pass: the next exercise, offered under the verdict. */
static void offer_next(struct tui *t, struct exscreen *x)
{
	int pos = x->nres > 0;

	x->next = next_exercise(t, x);
	if (x->next)
		results_insert(x, pos, UI_QUIZ, xasprintf("Next: %s (%s) · press n to open it",
							  x->next->title, x->next->id));
	else
		results_insert(x, pos, UI_DONE, xstrdup("That was the last exercise you had "
							"left: every one is passed."));
}

/* Whether the learner's file is still the one an attempt checked: the
 * same FNV-1a digest of its text as the build keeps. */
static int same_file(const struct exscreen *x, const char *hash)
{
	size_t len;
	char *text = x->file ? read_file(x->file, &len) : NULL, hex[17];

	if (!text || !hash)
		return !hash; /* nothing to tell them apart by */
	run_hash_hex(run_fnv1a64(RUN_FNV_INIT, text, len), hex);
	free(text);
	return strcmp(hex, hash) == 0;
}

/* The last attempt's verdict, from the store, under a line saying when;
 * only one line when the file has changed since (an edit elsewhere, a
 * reset), as that verdict is no longer the file's. */
static void show_last_verdict(struct tui *t, struct exscreen *x)
{
	struct attempt *a = NULL;
	struct run_result r;
	size_t n = 0;
	char when[64];
	time_t at;
	struct tm tm;

	if (!t->cfg->st || store_attempts(t->cfg->st, x->ex->id, 1, &a, &n) != 0 || n == 0)
		return;
	at = (time_t)a[0].at;
	strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime_r(&at, &tm));
	if (run_result_from_json(a[0].result_json, &r) != 0) {
		/* nothing to show */
	} else if (!same_file(x, a[0].source_hash)) {
		results_add(x, UI_DIM, "Your file changed since your last %s (%s, %s): c checks "
			    "it as it is now.", a[0].mode, verdict_text(r.status), when);
	} else {
		show_result(x, &r);
		if (r.status == RUN_PASS)
			offer_next(t, x);
		results_insert(x, 0, UI_DIM, xasprintf("Your last %s, %s (c: check again):",
						       a[0].mode, when));
	}
	run_result_free(&r);
	store_attempts_free(a, n);
}

/* A check or bench running in a thread of its own, so that the screen
 * stays alive: the phase it reports, the cancel flag it obeys.  It runs
 * without the store (not thread-safe); the attempt is recorded here. */
struct check_job {
	struct run_request req;
	struct run_result res;
	int rc;
	volatile sig_atomic_t cancel;
	pthread_mutex_t mu;
	char phase[160];
	int done; /* under mu */
};

static void job_progress(void *ctx, const char *phase)
{
	struct check_job *j = ctx;

	pthread_mutex_lock(&j->mu);
	snprintf(j->phase, sizeof j->phase, "%s", phase);
	pthread_mutex_unlock(&j->mu);
}

static void *job_main(void *arg)
{
	struct check_job *j = arg;

	j->rc = run_exercise(&j->req, &j->res);
	pthread_mutex_lock(&j->mu);
	j->done = 1;
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

/* The status line while the job runs: what, where it is, for how long. */
static void paint_progress(struct tui *t, struct check_job *j, double start)
{
	char line[256], phase[160];
	int done;

	pthread_mutex_lock(&j->mu);
	snprintf(phase, sizeof phase, "%s", j->phase);
	done = j->done;
	pthread_mutex_unlock(&j->mu);
	if (done)
		return;
	snprintf(line, sizeof line, "%s: %s · %.1f s   %s",
		 j->req.mode == RUN_BENCH ? "bench" : "check", phase[0] ? phase : "starting",
		 mono_seconds() - start, j->cancel ? "cancelling ..." : "Esc or Ctrl-C: cancel");
	term_fill_line(t->rows - 1, UI_STATUS);
	attron(term_attr(UI_STATUS));
	term_put(t->rows - 1, 1, line, t->cols - 2);
	attroff(term_attr(UI_STATUS));
	refresh();
}

static int job_done(struct check_job *j)
{
	int done;

	pthread_mutex_lock(&j->mu);
	done = j->done;
	pthread_mutex_unlock(&j->mu);
	return done;
}

/* Waits for the job with the screen alive: the progress line ticks, Esc
 * or Ctrl-C (or a signal to the lab) cancels, the window may be resized,
 * and any other key is dropped rather than kept for later. */
static void wait_for_job(struct tui *t, struct exscreen *x, struct check_job *j)
{
	double start = mono_seconds();

	timeout(100);
	while (!job_done(j)) {
		int ch;

		paint_progress(t, j, start);
		ch = getch();
		if (ch == 27 || ch == 3 || term_interrupted())
			j->cancel = 1;
		else if (ch == KEY_RESIZE) {
			getmaxyx(stdscr, t->rows, t->cols);
			exercise_resize(t, x);
			exercise_draw(t, x);
		}
	}
	timeout(-1);
	flushinp();
}

static void run_it(struct tui *t, struct exscreen *x, enum run_mode mode)
{
	struct check_job j;
	pthread_t th;
	const char *origin = NULL;
	char *error = NULL;

	if (!x->file) {
		tui_flash(t, "you have no copy to check (see the path above)");
		return;
	}
	memset(&j, 0, sizeof j);
	j.req.backend = t->cfg->backend;
	j.req.remote = t->cfg->remote;
	if (t->cfg->settings && t->cfg->settings(t->cfg->settings_ctx, &j.req.backend,
						 &j.req.remote, &origin, &error) != 0) {
		results_clear(x);
		results_add(x, UI_WARN, "cannot %s: %s", run_mode_name(mode), error);
		tui_flash(t, "the config has a problem: see above");
		free(error);
		return;
	}
	pthread_mutex_init(&j.mu, NULL);
	j.req.ex = x->ex;
	j.req.source = x->file;
	j.req.home = t->cfg->home;
	j.req.content = t->cfg->content_dir;
	j.req.mode = mode;
	j.req.predict = mode == RUN_BENCH ? t->cfg->predict : NULL;
	j.req.seed = -1;
	j.req.progress = job_progress;
	j.req.progress_ctx = &j;
	j.req.cancel = &j.cancel;
	/* the old verdict goes: what is on screen must be this run's */
	results_clear(x);
	x->next = NULL;
	results_add(x, UI_DIM, "%s running: the phase and time are on the status line; Esc or "
		    "Ctrl-C cancels", mode == RUN_BENCH ? "Bench" : "Check");
	exercise_draw(t, x);
	if (pthread_create(&th, NULL, job_main, &j) != 0) {
		job_main(&j); /* no thread to be had: run it here, blocking */
	} else {
		wait_for_job(t, x, &j);
		pthread_join(th, NULL);
	}
	pthread_mutex_destroy(&j.mu);
	if (j.cancel && j.rc != 0) {
		results_clear(x);
		results_add(x, UI_WARN, "cancelled: the %s was stopped and every process it started "
			    "has ended; nothing was recorded", run_mode_name(mode));
		tui_flash(t, "cancelled");
	} else if (j.rc != 0) {
		results_clear(x);
		results_add(x, UI_WARN, "cannot run: %s%s%s%s",
			    j.res.error ? j.res.error : "unknown problem", origin ? " (" : "",
			    origin ? origin : "", origin ? ")" : "");
	} else {
		j.req.st = t->cfg->st;
		run_record(&j.req, &j.res);
		show_result(x, &j.res);
		if (j.res.backend_note)
			results_add(x, UI_WARN, "%s", j.res.backend_note);
		x->next = NULL;
		if (j.res.status == RUN_PASS && !j.res.not_recorded)
			offer_next(t, x);
		if (j.res.not_recorded)
			tui_flash(t, "%s, but not recorded: %s", verdict_text(j.res.status),
				  j.res.not_recorded);
		else
			tui_flash(t, "%s", verdict_text(j.res.status));
	}
	run_result_free(&j.res);
	load_history(t, x);
}

/* Leaves curses, runs the editor on the learner's file, and comes back. */
static void edit(struct tui *t, struct exscreen *x)
{
	const char *ed = getenv("VISUAL");
	pid_t pid;
	int status;

	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (!ed || !*ed)
		ed = "vi";
	if (!x->file) {
		tui_flash(t, "you have no copy to edit");
		return;
	}
	def_prog_mode();
	endwin();
	pid = fork();
	if (pid == 0) {
		/* through the shell, as git does, so that the variable may hold
		 * options ("vim -u NONE", "code --wait") */
		char *cmd = xasprintf("%s \"$@\"", ed);

		execl("/bin/sh", "sh", "-c", cmd, ed, x->file, (char *)NULL);
		fprintf(stderr, "cudalab: cannot start the editor '%s': %s\n", ed, strerror(errno));
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	reset_prog_mode();
	refresh();
	if (pid < 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 127))
		tui_flash(t, "could not run the editor '%s' (set $VISUAL or $EDITOR)", ed);
	else
		tui_flash(t, "edited %s: press c to check", x->file);
}

/* Shows the hints seen so far and the next one, above the verdict. */
static void hint(struct tui *t, struct exscreen *x)
{
	int seen = 0;
	struct exercise_state es = { EX_NEW, -1, 0, 0 };

	if (x->ex->n_hints == 0) {
		tui_flash(t, "this exercise has no hints");
		return;
	}
	if (t->cfg->st)
		store_exercise_get(t->cfg->st, x->ex->id, &es);
	if ((size_t)es.hints_seen >= x->ex->n_hints) {
		seen = (int)x->ex->n_hints;
		tui_flash(t, "that was the last hint (H hides them)");
	} else if (!t->cfg->st || store_hint_seen(t->cfg->st, x->ex->id, &seen) != 0) {
		seen = es.hints_seen + 1;
	}
	hints_clear(x);
	for (int i = 0; i < seen && (size_t)i < x->ex->n_hints; i++) {
		char *line = xasprintf("hint %d/%zu: %s", i + 1, x->ex->n_hints, x->ex->hints[i]);

		hint_add(x, i + 1 == seen ? UI_QUIZ : UI_DIM, line);
		free(line);
	}
	x->res_top = 0;
}

/* Text split into lines, tabs expanded to 8 columns as compilers and
 * editors show them. */
static char **text_lines(const char *text, long *n)
{
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		xgrow((void **)&v, &cap, (size_t)*n + 1, sizeof *v);
		v[(*n)++] = str_expand_tabs(p, len, 8);
		p = nl ? nl + 1 : p + len;
	}
	return v;
}

/* One line of code from column `left`, in at most width columns. */
static void put_code(int y, int x0, const char *line, int left, int width, enum ui_role role)
{
	int skip = left;

	while (*line && skip > 0) {
		line++;
		while ((*line & 0xC0) == 0x80)
			line++;
		skip--;
	}
	attron(term_attr(role));
	term_put(y, x0, line, width);
	attroff(term_attr(role));
}

/* The scroll keys of the full-screen views; 0 when ch is not one. */
static int scroll_key(struct tui *t, int ch, long *top, int *left, long lines)
{
	long page = t->rows > 3 ? t->rows - 3 : 1;

	switch (ch) {
	case 'j': case KEY_DOWN: *top += 1; break;
	case 'k': case KEY_UP: *top -= 1; break;
	case ' ': case KEY_NPAGE: *top += page; break;
	case KEY_PPAGE: *top -= page; break;
	case 'g': case KEY_HOME: *top = 0; break;
	case 'G': case KEY_END: *top = lines - page; break;
	case 'l': case KEY_RIGHT: *left += 8; break;
	case 'h': case KEY_LEFT: *left = *left > 8 ? *left - 8 : 0; break;
	case '0': *left = 0; break;
	case KEY_RESIZE: getmaxyx(stdscr, t->rows, t->cols); break;
	default: return 0;
	}
	if (*top > lines - 1)
		*top = lines - 1;
	if (*top < 0)
		*top = 0;
	return 1;
}

static enum ui_role diff_role(const char *line)
{
	return line[0] == '+' ? UI_DONE : line[0] == '-' ? UI_WARN : UI_CODE;
}

/* A full-screen view of lines; with diff, each line's first character
 * (' ', '-', '+') sets its colour. */
static void pager(struct tui *t, const char *title, char **lines, long n, int diff)
{
	long top = 0;
	int left = 0, ch;

	do {
		erase();
		term_fill_line(0, UI_TITLE);
		attron(term_attr(UI_TITLE));
		term_put(0, 1, title, t->cols - 2);
		attroff(term_attr(UI_TITLE));
		for (int y = 1; y < t->rows - 1 && top + y - 1 < n; y++) {
			const char *ln = lines[top + y - 1];

			put_code(y, 0, ln, left, t->cols, diff ? diff_role(ln) : UI_CODE);
		}
		tui_status(t, "j/k, PgUp/PgDn, g/G: scroll   h/l: left/right   q: back");
		refresh();
		ch = getch();
		scroll_key(t, ch, &top, &left, n);
	} while (ch != 'q' && ch != 27 && ch != 'o' && !term_interrupted());
}

static void show_output(struct tui *t, struct exscreen *x)
{
	char **lines;
	long n;

	if (!x->output || !*x->output) {
		tui_flash(t, x->output ? "the last run printed nothing" : "no run yet: press c");
		return;
	}
	lines = text_lines(x->output, &n);
	pager(t, "Output of the last run", lines, n, 0);
	str_lines_free(lines, n);
}

/* Full screen: the learner's code beside the solution, tabs expanded, with
 * horizontal scrolling; d switches to a unified diff and back. */
static void solution(struct tui *t, struct exscreen *x)
{
	struct exercise_state es = { EX_NEW, -1, 0, 0 };
	char *mine, *path, *theirs, **side[2], **diff = NULL;
	long nside[2], ndiff = 0, top = 0;
	int left = 0, ch, half, as_diff = 0;

	if (t->cfg->st)
		store_exercise_get(t->cfg->st, x->ex->id, &es);
	if (es.status != EX_PASSED) {
		tui_flash(t, "pass the check first (or: cudalab solution %s --force)", x->ex->id);
		return;
	}
	path = path_join(x->ex->dir, "solution.cu");
	theirs = read_file(path, NULL);
	free(path);
	mine = x->file ? read_file(x->file, NULL) : NULL;
	if (!theirs) {
		tui_flash(t, "cannot read the solution");
		free(mine);
		return;
	}
	if (!mine)
		mine = xstrdup("(your file cannot be read)\n");
	side[0] = text_lines(mine, &nside[0]);
	side[1] = text_lines(theirs, &nside[1]);
	{
		char *a = str_expand_tabs(mine, strlen(mine), 8);
		char *b = str_expand_tabs(theirs, strlen(theirs), 8);

		ndiff = diff_lines(a, b, 5000, &diff);
		free(a);
		free(b);
	}
	do {
		long lines = as_diff ? ndiff : (nside[0] > nside[1] ? nside[0] : nside[1]);

		half = (t->cols - 1) / 2;
		erase();
		term_fill_line(0, UI_TITLE);
		attron(term_attr(UI_TITLE));
		if (as_diff) {
			term_put(0, 1, "Your code (-) against the solution (+)", t->cols - 2);
		} else {
			term_put(0, 1, "Your code", half - 1);
			term_put(0, half + 2, "Solution", t->cols - half - 3);
		}
		attroff(term_attr(UI_TITLE));
		for (int y = 1; y < t->rows - 1; y++) {
			long i = top + y - 1;

			if (as_diff) {
				if (i < ndiff)
					put_code(y, 0, diff[i], left, t->cols, diff_role(diff[i]));
				continue;
			}
			if (i < nside[0])
				put_code(y, 0, side[0][i], left, half - 1, UI_CODE);
			if (i < nside[1])
				put_code(y, half + 2, side[1][i], left, t->cols - half - 3, UI_CODE);
			mvaddstr(y, half, "│");
		}
		tui_status(t, as_diff ? "d: side by side   j/k, PgUp/PgDn: scroll   h/l: left/right"
					"   q: back"
				      : "d: as a diff   j/k, PgUp/PgDn: scroll   h/l: left/right   "
					"q: back");
		refresh();
		ch = getch();
		if (ch == 'd') {
			if (ndiff < 0)
				tui_flash(t, "the files are too long to compare here");
			else
				as_diff = !as_diff;
			top = 0;
		} else {
			scroll_key(t, ch, &top, &left, lines);
		}
	} while (ch != 'q' && ch != 27 && !term_interrupted());
	str_lines_free(side[0], nside[0]);
	str_lines_free(side[1], nside[1]);
	if (ndiff > 0)
		str_lines_free(diff, ndiff);
	free(mine);
	free(theirs);
}

static int exercise_key(struct tui *t, void *state, int ch)
{
	struct exscreen *x = state;
	int rrows = results_rows(t, x), srows = t->rows - 4 - rrows;
	int page = srows > 2 ? srows - 1 : 1;
	int *top = x->full_results ? &x->res_top : &x->top;
	int max = x->full_results ? pane_count(x) - 1 : x->lay->nlines - srows;

	switch (ch) {
	case 'q':
	case 27:
	case KEY_LEFT:
		return TUI_BACK;
	case 3:
		return TUI_QUIT;
	case 'e':
		edit(t, x);
		break;
	case 'c':
		run_it(t, x, RUN_CHECK);
		break;
	case 'b':
		run_it(t, x, RUN_BENCH);
		break;
	case 'h':
		hint(t, x);
		break;
	case 's':
		solution(t, x);
		break;
	case 'o':
		show_output(t, x);
		break;
	case 'H':
		hints_clear(x);
		x->res_top = 0;
		break;
	case 'n':
		if (!x->next) {
			tui_flash(t, "n opens the next exercise after a pass");
			break;
		}
		tui_go(t, &exercise_screen, x->next->id);
		return TUI_NAVIGATE;
	case 'v':
		x->full_results = !x->full_results;
		break;
	case KEY_DOWN:
	case 'j':
		*top += 1;
		break;
	case KEY_UP:
	case 'k':
		*top -= 1;
		break;
	case KEY_NPAGE:
	case ' ':
		*top += page;
		break;
	case KEY_PPAGE:
		*top -= page;
		break;
	case 'g':
		*top = 0;
		break;
	case 'G':
		*top = max;
		break;
	case '?':
		tui_help(t, "Exercise: keys", help_lines);
		break;
	default:
		return TUI_NONE;
	}
	if (*top > max)
		*top = max;
	if (*top < 0)
		*top = 0;
	return TUI_REDRAW;
}

const struct screen exercise_screen = {
	.name = "exercise",
	.enter = exercise_enter,
	.draw = exercise_draw,
	.key = exercise_key,
	.resize = exercise_resize,
	.leave = exercise_leave,
};
