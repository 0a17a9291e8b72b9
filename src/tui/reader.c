/* reader.c — the lesson reader: a laid-out document painted by role, with
 * search, a table of contents, links, quizzes, the lesson's reading items,
 * and the place saved in the store.  Its argument is "lesson:ID" or
 * "exercise:ID" (an exercise's statement).
 *
 * A lesson is complete by the rule in store.h, not by reaching its end: the
 * reader keeps which blocks have been on screen and the time spent, adds
 * them to the store when it leaves, and completes the lesson on the first
 * screen that shows its end with the rule met. */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cudalab/content.h"
#include "cudalab/doc.h"
#include "cudalab/store.h"
#include "cudalab/util.h"

#define MAX_WIDTH 100 /* reading measure: wider terminals get margins */
/* A pause between two keys longer than this counts as this much reading:
 * a lesson left open overnight is not a lesson read. */
#define IDLE_CAP_SECONDS 120.0
#define PACE_ENV "CUDALAB_READ_PACE"

struct reader {
	const struct lesson *lesson;     /* NULL for an exercise */
	const struct exercise *exercise; /* NULL for a lesson */
	char *title;
	char *text;
	struct doc *doc;
	struct doc_layout *lay;
	struct doc_quiz_state *quizzes; /* per quiz: ticked and answered */
	int nquiz;
	int quiz_focus; /* the quiz ] or [ (or a digit) moved to, or -1 */
	bool quiz_moved_on; /* it was answered: the digits go to the next one */
	int top;      /* first line shown */
	int margin;   /* left margin in columns */
	int focus;    /* index into lay->refs of the focused link, or -1 */
	char *query;
	struct doc_match *matches;
	int nmatches, match; /* current match index */
	bool searched;       /* the last key was a search key */
	int completed;
	/* how far through it the learner is (lessons only save it) */
	int nblocks;
	char *viewed;       /* per block: '1' once all its lines were on screen */
	int *block_unseen;  /* per block: its lines in this layout not yet seen */
	unsigned char *seen; /* per line of this layout: it was on screen */
	double seconds;     /* spent on the lesson, all visits */
	int64_t saved;      /* of those, whole seconds already in the store */
	struct timespec tick; /* when seconds was last brought up to date */
	int pace;           /* seconds per screenful the completion rule asks */
};

static const char *const help_lines[] = {
	"Up/Down, j/k, wheel     scroll a line",
	"PgUp/PgDn, Space, b     scroll a page",
	"g / G                   top / end",
	"t                       table of contents",
	"/  n  N                 search, next match, previous match",
	"Tab / Shift-Tab         next / previous link;  Enter follows it",
	"] / [                   next / previous quiz: the one digits answer",
	"1-9                     answer the marked quiz (the status line names it),",
	"                        then the next one on screen; on a choose-all quiz",
	"                        they tick choices, Enter submits",
	"r                       this lesson's reading items (Space cycles status, o opens)",
	"x                       this lesson's exercises",
	"Left / Right, h / l     back / forward through what you opened",
	"?                       this help",
	"q                       back to where you came from",
	NULL,
};

static int body_rows(const struct tui *t)
{
	return t->rows - 2;
}

static enum ui_role ui_for(enum doc_role role)
{
	switch (role) {
	case ROLE_H1:
		return UI_H1;
	case ROLE_H2:
		return UI_H2;
	case ROLE_H3:
	case ROLE_H4:
		return UI_H3;
	case ROLE_CODE:
		return UI_CODE;
	case ROLE_CODE_FRAME:
	case ROLE_RULE:
	case ROLE_TABLE:
	case ROLE_MARKER:
		return UI_RULE;
	case ROLE_LINK:
	case ROLE_IMAGE:
		return UI_LINK;
	case ROLE_QUOTE:
		return UI_QUOTE;
	case ROLE_KEYWORD:
		return UI_KEYWORD;
	case ROLE_TYPE:
		return UI_TYPE;
	case ROLE_BUILTIN:
		return UI_PREPROC;
	case ROLE_STRING:
		return UI_STRING;
	case ROLE_COMMENT:
		return UI_COMMENT;
	case ROLE_NUMBER:
		return UI_NUMBER;
	case ROLE_PREPROC:
		return UI_PREPROC;
	case ROLE_QUIZ:
		return UI_QUIZ;
	case ROLE_QUIZ_RIGHT:
		return UI_DONE;
	case ROLE_QUIZ_WRONG:
	case ROLE_ERROR:
		return UI_WARN;
	case ROLE_TABLE_HEAD:
	case ROLE_STRONG:
		return UI_SECTION;
	default:
		return UI_TEXT;
	}
}

static attr_t span_attr(const struct doc_span *sp)
{
	attr_t a = term_attr(ui_for(sp->role));

	if (sp->attrs & ATTR_BOLD)
		a |= A_BOLD;
	if (sp->attrs & ATTR_ITALIC)
		a |= A_ITALIC;
	if (sp->attrs & ATTR_UNDERLINE)
		a |= A_UNDERLINE;
	if (sp->attrs & ATTR_DIM)
		a |= A_DIM;
	return a;
}

/* Where the reader stands, as one integer for the store: the anchor of the
 * top line, so the place survives a different terminal width. */
static int encode_position(struct doc_anchor a)
{
	int off = a.offset + 1;

	if (off < 0)
		off = 0;
	if (off > 0xFFFF)
		off = 0xFFFF;
	return a.block * 0x10000 + off + 1;
}

static struct doc_anchor decode_position(int pos)
{
	struct doc_anchor a = { 0, -1 };

	if (pos <= 0)
		return a;
	pos -= 1;
	a.block = pos / 0x10000;
	a.offset = pos % 0x10000 - 1;
	return a;
}

static void clear_search(struct reader *r)
{
	free(r->matches);
	r->matches = NULL;
	r->nmatches = 0;
	r->match = 0;
}

static void run_search(struct reader *r)
{
	clear_search(r);
	if (r->query && *r->query)
		r->nmatches = doc_search(r->lay, r->query, &r->matches);
}

static int clamp_top(const struct tui *t, const struct reader *r, int top)
{
	int max = r->lay->nlines - body_rows(t);

	if (top > max)
		top = max;
	return top < 0 ? 0 : top;
}

/* The block a line belongs to, or -1 for lines of no block of the text
 * (the list of link targets at the end). */
static int line_block(const struct reader *r, int line)
{
	int b = r->lay->lines[line].anchor.block;

	return b >= 0 && b < r->nblocks ? b : -1;
}

/* A block counts as viewed once every one of its lines has been on
 * screen; this counts, for a new layout, the lines each block still needs.
 * Blocks viewed before stay viewed. */
static void count_unseen(struct reader *r)
{
	free(r->seen);
	r->seen = xcalloc((size_t)(r->lay->nlines > 0 ? r->lay->nlines : 1), 1);
	memset(r->block_unseen, 0, (size_t)(r->nblocks > 0 ? r->nblocks : 1) * sizeof *r->block_unseen);
	for (int i = 0; i < r->lay->nlines; i++) {
		int b = line_block(r, i);

		if (b >= 0)
			r->block_unseen[b]++;
	}
}

/* Lays the document out for the current width, keeping the top line's
 * place when there was a layout before. */
static void relayout(struct tui *t, struct reader *r)
{
	struct doc_layout_opts opts;
	struct doc_anchor keep = { 0, -1 };
	int width = t->cols - 2, had = r->lay != NULL;

	if (had) {
		if (r->lay->nlines > 0)
			keep = r->lay->lines[r->top < r->lay->nlines ? r->top : r->lay->nlines - 1].anchor;
		doc_layout_free(r->lay);
	}
	if (width > MAX_WIDTH)
		width = MAX_WIDTH;
	r->margin = (t->cols - width) / 2;
	memset(&opts, 0, sizeof opts);
	opts.width = width;
	opts.quizzes = r->quizzes;
	opts.nquizzes = r->nquiz;
	r->lay = doc_layout_with(r->doc, &opts);
	if (had)
		r->top = doc_line_for_anchor(r->lay, keep);
	r->top = clamp_top(t, r, r->top);
	r->focus = -1;
	run_search(r);
	count_unseen(r);
}

static int open_lesson(struct tui *t, struct reader *r, const char *id)
{
	size_t len;

	r->lesson = catalog_lesson(t->cfg->cat, id);
	if (!r->lesson) {
		tui_flash(t, "no lesson '%s'", id);
		return -1;
	}
	r->title = xstrdup(r->lesson->title);
	r->text = catalog_lesson_body(r->lesson, &len);
	if (!r->text) {
		tui_flash(t, "cannot read %s", r->lesson->path);
		return -1;
	}
	r->doc = doc_parse(r->text, len);
	return r->doc ? 0 : -1;
}

static int open_exercise(struct tui *t, struct reader *r, const char *id)
{
	size_t len;

	r->exercise = catalog_exercise(t->cfg->cat, id);
	if (!r->exercise) {
		tui_flash(t, "no exercise '%s'", id);
		return -1;
	}
	r->title = xasprintf("Exercise: %s", r->exercise->title);
	r->text = catalog_exercise_body(r->exercise, &len);
	if (!r->text) {
		tui_flash(t, "cannot read %s", r->exercise->path);
		return -1;
	}
	r->doc = doc_parse(r->text, len);
	return r->doc ? 0 : -1;
}

static void reader_free(struct reader *r)
{
	if (r->lay)
		doc_layout_free(r->lay);
	if (r->doc)
		doc_free(r->doc);
	free(r->text);
	free(r->title);
	free(r->quizzes);
	free(r->query);
	free(r->matches);
	free(r->viewed);
	free(r->block_unseen);
	free(r->seen);
	free(r);
}

static void load_answers(struct tui *t, struct reader *r)
{
	r->nquiz = doc_quiz_count(r->doc);
	r->quizzes = xcalloc((size_t)(r->nquiz ? r->nquiz : 1), sizeof *r->quizzes);
	for (int q = 0; q < r->nquiz && r->lesson && t->cfg->st; q++) {
		struct quiz_answers a;
		struct doc_quiz_state *s = &r->quizzes[q];

		if (store_quiz_answers(t->cfg->st, r->lesson->id, q, doc_quiz_get(r->doc, q)->question,
				       &a) != 0) {
			tui_flash(t, "%s", store_errmsg(t->cfg->st));
			continue;
		}
		s->answers = a.count;
		s->first = a.first;
		s->first_right = a.first_correct;
		s->latest = a.latest;
		s->latest_right = a.latest_correct;
	}
}

/* The completion rule's seconds per screenful: CUDALAB_READ_PACE, or the
 * default when it is unset or not a whole number in range (said so). */
static int read_pace(struct tui *t)
{
	const char *v = getenv(PACE_ENV);
	char *end;
	long pace;

	if (!v || !*v)
		return LESSON_PACE_DEFAULT;
	pace = strtol(v, &end, 10);
	if (*end != '\0' || pace < 0 || pace > LESSON_PACE_MAX) {
		tui_flash(t, "%s=%s: expected whole seconds from 0 to %d; using %d", PACE_ENV, v,
			  LESSON_PACE_MAX, LESSON_PACE_DEFAULT);
		return LESSON_PACE_DEFAULT;
	}
	return (int)pace;
}

/* The blocks viewed and the time spent on earlier visits.  A lesson edited
 * since keeps the marks of the blocks that are still there by number. */
static void load_reading(struct tui *t, struct reader *r)
{
	struct lesson_reading lr;

	r->nblocks = doc_block_count(r->doc);
	r->viewed = xmalloc((size_t)r->nblocks + 1);
	memset(r->viewed, '0', (size_t)r->nblocks);
	r->viewed[r->nblocks] = '\0';
	r->block_unseen = xcalloc((size_t)(r->nblocks > 0 ? r->nblocks : 1), sizeof *r->block_unseen);
	clock_gettime(CLOCK_MONOTONIC, &r->tick);
	r->pace = read_pace(t);
	if (!r->lesson || !t->cfg->st)
		return;
	if (store_lesson_reading_get(t->cfg->st, r->lesson->id, &lr) == 0) {
		for (int b = 0; b < r->nblocks && lr.viewed[b]; b++)
			r->viewed[b] = lr.viewed[b];
		r->seconds = (double)lr.seconds;
		r->saved = lr.seconds;
	} else {
		tui_flash(t, "%s", store_errmsg(t->cfg->st));
	}
	store_lesson_reading_free(&lr);
}

/* Brings the time spent up to now, counting a long pause as IDLE_CAP. */
static void tick(struct reader *r)
{
	struct timespec now;
	double dt;

	clock_gettime(CLOCK_MONOTONIC, &now);
	dt = (double)(now.tv_sec - r->tick.tv_sec) + (now.tv_nsec - r->tick.tv_nsec) / 1e9;
	r->tick = now;
	if (dt > 0)
		r->seconds += dt < IDLE_CAP_SECONDS ? dt : IDLE_CAP_SECONDS;
}

static void *reader_enter(struct tui *t, const char *arg)
{
	struct reader *r = xcalloc(1, sizeof *r);
	int rc;

	r->focus = -1;
	r->quiz_focus = -1;
	if (arg && str_starts(arg, "lesson:"))
		rc = open_lesson(t, r, arg + strlen("lesson:"));
	else if (arg && str_starts(arg, "exercise:"))
		rc = open_exercise(t, r, arg + strlen("exercise:"));
	else {
		tui_flash(t, "cannot open '%s'", arg ? arg : "");
		rc = -1;
	}
	if (rc != 0) {
		reader_free(r);
		return NULL;
	}
	load_answers(t, r);
	load_reading(t, r);
	relayout(t, r);
	if (r->lesson && t->cfg->st) {
		struct lesson_state ls = { 0, 0, 0 };

		store_lesson_get(t->cfg->st, r->lesson->id, &ls);
		r->completed = ls.completed;
		r->top = clamp_top(t, r, doc_line_for_anchor(r->lay, decode_position(ls.position)));
	}
	return r;
}

static void save_position(struct tui *t, struct reader *r)
{
	if (!r->lesson || !t->cfg->st || r->lay->nlines == 0)
		return;
	store_lesson_set_position(t->cfg->st, r->lesson->id,
				  encode_position(r->lay->lines[r->top].anchor));
}

/* The lines of the text (the link list left out), and of those the lines
 * of blocks viewed. */
static void count_viewed(const struct reader *r, int *total, int *viewed)
{
	*total = *viewed = 0;
	for (int i = 0; i < r->lay->nlines; i++) {
		int b = line_block(r, i);

		if (b < 0)
			continue;
		++*total;
		*viewed += r->viewed[b] == '1';
	}
}

static int quizzes_answered(const struct reader *r)
{
	int n = 0;

	for (int q = 0; q < r->nquiz; q++)
		n += r->quizzes[q].answers > 0;
	return n;
}

/* Adds this visit's blocks and time to the store; the seconds already
 * saved are not added twice. */
static void save_reading(struct tui *t, struct reader *r)
{
	struct lesson_reading lr;
	int total, viewed;

	if (!r->lesson || !t->cfg->st)
		return;
	count_viewed(r, &total, &viewed);
	lr.viewed = r->viewed;
	lr.seconds = (int64_t)r->seconds - r->saved;
	if (lr.seconds < 0)
		lr.seconds = 0;
	lr.read_percent = lesson_percent(viewed, total);
	lr.quizzes = r->nquiz;
	lr.quizzes_answered = quizzes_answered(r);
	if (store_lesson_reading_add(t->cfg->st, r->lesson->id, &lr) == 0)
		r->saved += lr.seconds;
	else
		tui_flash(t, "could not save your reading: %s", store_errmsg(t->cfg->st));
}

static void reader_leave(struct tui *t, void *state)
{
	struct reader *r = state;

	tick(r);
	save_reading(t, r);
	save_position(t, r);
	reader_free(r);
}

static void paint_line(struct tui *t, const struct reader *r, int y, const struct doc_line *ln)
{
	for (int s = 0; s < ln->nspans; s++) {
		const struct doc_span *sp = &ln->spans[s];
		char *piece = xstrndup(sp->text, (size_t)sp->len);
		attr_t a = span_attr(sp);

		attron(a);
		term_put(y, r->margin + sp->col, piece, t->cols - r->margin - sp->col);
		attroff(a);
		free(piece);
	}
}

/* One past the last line on screen. */
static int screen_end(const struct tui *t, const struct reader *r)
{
	int end = r->top + body_rows(t);

	return end < r->lay->nlines ? end : r->lay->nlines;
}

static bool quiz_on_screen(const struct tui *t, const struct reader *r, int q)
{
	for (int i = r->top; i < screen_end(t, r); i++)
		if (r->lay->lines[i].quiz == q)
			return true;
	return false;
}

static bool starts_quiz(const struct reader *r, int line)
{
	int q = r->lay->lines[line].quiz;

	return q >= 0 && (line == 0 || r->lay->lines[line - 1].quiz != q);
}

/* The first quiz after q whose question is on screen, or -1. */
static int next_on_screen(const struct tui *t, const struct reader *r, int q)
{
	for (int i = r->top; i < screen_end(t, r); i++)
		if (starts_quiz(r, i) && r->lay->lines[i].quiz > q)
			return r->lay->lines[i].quiz;
	return -1;
}

/* The quiz digits answer: the focused one while it is on screen (the next
 * one on screen once it is answered), else the first quiz whose question
 * is on screen, else the first with any line on screen; -1 when no quiz
 * is.  Never one out of sight. */
static int target_quiz(const struct tui *t, const struct reader *r)
{
	int partial = -1;

	if (r->quiz_focus >= 0 && quiz_on_screen(t, r, r->quiz_focus)) {
		int next = r->quiz_moved_on ? next_on_screen(t, r, r->quiz_focus) : -1;

		return next >= 0 ? next : r->quiz_focus;
	}
	for (int i = r->top; i < screen_end(t, r); i++) {
		if (starts_quiz(r, i))
			return r->lay->lines[i].quiz;
		if (partial < 0)
			partial = r->lay->lines[i].quiz;
	}
	return partial;
}

/* Marks the question of the quiz digits answer, unless a link has the
 * focus (Enter then follows the link). */
static void paint_quiz_focus(struct tui *t, const struct reader *r)
{
	int q = r->focus < 0 ? target_quiz(t, r) : -1;
	int rows = body_rows(t);

	for (int i = 0; q >= 0 && i < r->lay->nlines; i++) {
		const struct doc_line *ln = &r->lay->lines[i];
		int y = i - r->top + 1;

		if (ln->quiz != q || ln->choice >= 0)
			continue;
		if (ln->anchor.offset != 0) /* past the question: explanation, answers */
			break;
		if (y >= 1 && y <= rows)
			mvchgat(y, r->margin, ln->width, term_attr(UI_LINK_ON), 0, NULL);
	}
}

/* Overlays search matches, the focused link and the quiz digits answer on
 * the painted lines. */
static void paint_overlays(struct tui *t, const struct reader *r)
{
	int rows = body_rows(t);

	for (int i = 0; i < r->nmatches; i++) {
		const struct doc_match *m = &r->matches[i];
		int y = m->line - r->top + 1, y2 = m->end_line - r->top + 1;
		int end = m->end_line == m->line ? m->col_end : r->lay->lines[m->line].width;
		enum ui_role role = i == r->match ? UI_SELECTED : UI_MATCH;

		if (y >= 1 && y <= rows)
			mvchgat(y, r->margin + m->col_start, end - m->col_start, term_attr(role), 0,
				NULL);
		/* the part on the next line, for a match over a wrap */
		if (m->end_line != m->line && y2 >= 1 && y2 <= rows)
			mvchgat(y2, r->margin + m->end_col_start, m->col_end - m->end_col_start,
				term_attr(role), 0, NULL);
	}
	paint_quiz_focus(t, r);
	if (r->focus >= 0) {
		int link = r->lay->refs[r->focus].link;

		for (int i = r->focus; i < r->lay->nrefs; i++) {
			const struct doc_link_ref *ref = &r->lay->refs[i];
			int y = ref->line - r->top + 1;

			if (ref->link != link || (i > r->focus && !ref->cont))
				break;
			if (y >= 1 && y <= rows)
				mvchgat(y, r->margin + ref->col, ref->width, term_attr(UI_LINK_ON), 0,
					NULL);
		}
	}
}

void lesson_progress_text(char *buf, size_t size, int read_percent, int quizzes, int answered)
{
	if (quizzes > 0)
		snprintf(buf, size, "read %d%% %s quizzes %d/%d", read_percent, term_glyph(GLYPH_DOT),
			 answered, quizzes);
	else
		snprintf(buf, size, "read %d%%", read_percent);
}

void lesson_progress_of(struct tui *t, const char *lesson, char *buf, size_t size)
{
	struct lesson_reading lr;

	buf[0] = '\0';
	if (!t->cfg->st)
		return;
	if (store_lesson_reading_get(t->cfg->st, lesson, &lr) == 0 &&
	    (lr.seconds > 0 || lr.read_percent > 0))
		lesson_progress_text(buf, size, lr.read_percent, lr.quizzes, lr.quizzes_answered);
	store_lesson_reading_free(&lr);
}

/* What the completion rule is given about this lesson right now. */
static void lesson_facts(const struct tui *t, const struct reader *r, struct lesson_facts *f)
{
	memset(f, 0, sizeof *f);
	count_viewed(r, &f->total_lines, &f->viewed_lines);
	f->screen_rows = body_rows(t);
	f->quizzes = r->nquiz;
	f->quizzes_answered = quizzes_answered(r);
	f->seconds = (int64_t)r->seconds;
	f->pace = r->pace;
	f->at_end = r->top + body_rows(t) >= r->lay->nlines;
}

static void draw_title(struct tui *t, const struct reader *r)
{
	char right[96], progress[64] = "";
	int pct, rw;
	int last = r->top + body_rows(t);

	if (last > r->lay->nlines)
		last = r->lay->nlines;
	pct = r->lay->nlines ? last * 100 / r->lay->nlines : 100;
	if (r->lesson) {
		struct lesson_facts f;

		lesson_facts(t, r, &f);
		lesson_progress_text(progress, sizeof progress,
				     lesson_percent(f.viewed_lines, f.total_lines), f.quizzes,
				     f.quizzes_answered);
	}
	snprintf(right, sizeof right, "%s  %s %d%%", progress,
		 r->completed ? term_glyph(GLYPH_CHECK) : " ", pct);
	rw = tui_display_width(right);
	if (rw > t->cols / 2) { /* a narrow window: the place only */
		snprintf(right, sizeof right, "%s %d%%", r->completed ? term_glyph(GLYPH_CHECK) : " ",
			 pct);
		rw = tui_display_width(right);
	}
	term_fill_line(0, UI_TITLE);
	term_role_on(UI_TITLE);
	/* two blanks at least between the title and the place */
	term_put_cut(0, 1, r->title, t->cols - rw - 4);
	term_put(0, t->cols - rw - 1, right, rw);
	term_role_off(UI_TITLE);
}

/* "1,3": a set of choices in the numbers the screen shows. */
static void choice_list(char *buf, size_t size, uint64_t set)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < DOC_QUIZ_CHOICES && used < size; c++)
		if (set >> c & 1)
			used += (size_t)snprintf(buf + used, size - used, "%s%d", used ? "," : "", c + 1);
}

/* Names the quiz digits answer and what they do to it. */
static void quiz_hint(char *hint, size_t size, const struct reader *r, int q)
{
	const struct doc_quiz *quiz = doc_quiz_get(r->doc, q);
	const struct doc_quiz_state *s = &r->quizzes[q];
	int n = quiz->nchoices < 9 ? quiz->nchoices : 9;
	char ticked[64];

	if (doc_quiz_is_multi(quiz) && s->picked) {
		choice_list(ticked, sizeof ticked, s->picked);
		snprintf(hint, size, "quiz %d: ticked %s  1-%d: tick  Enter: submit  ]/[: quizzes",
			 q + 1, ticked, n);
	} else if (doc_quiz_is_multi(quiz)) {
		snprintf(hint, size, "quiz %d, all that apply: 1-%d tick, Enter submits  ]/[: quizzes",
			 q + 1, n);
	} else {
		snprintf(hint, size, "quiz %d: press 1-%d to %s  ]/[: quizzes  ?: keys", q + 1, n,
			 s->answers ? "answer again (the first answer counts)" : "answer");
	}
}

/* What the lesson still needs, for its last screen. */
static void completion_hint(char *hint, size_t size, const struct lesson_facts *f)
{
	int64_t need = lesson_seconds_needed(f->total_lines, f->screen_rows, f->pace) - f->seconds;
	int pct = lesson_percent(f->viewed_lines, f->total_lines), left = f->quizzes - f->quizzes_answered;
	char joint[16];
	const char *sep = " ";
	struct strbuf sb;

	snprintf(joint, sizeof joint, " %s ", term_glyph(GLYPH_DOT));
	sb_init(&sb);
	sb_puts(&sb, "to complete:");
	if (left > 0) {
		sb_printf(&sb, "%sanswer %d more quiz%s", sep, left, left > 1 ? "zes" : "");
		sep = joint;
	}
	if (pct < LESSON_VIEWED_PERCENT) {
		sb_printf(&sb, "%sread %d%% (now %d%%)", sep, LESSON_VIEWED_PERCENT, pct);
		sep = joint;
	}
	if (need > 0)
		sb_printf(&sb, "%s%lld:%02lld more time", sep, (long long)(need / 60),
			  (long long)(need % 60));
	snprintf(hint, size, "%s", sb.s);
	sb_free(&sb);
}

static void status_hint(struct tui *t, const struct reader *r)
{
	char hint[200];
	int q = target_quiz(t, r);
	bool search = r->query && *r->query && (r->searched || q < 0), needs;
	struct lesson_facts f;

	/* With a quiz on screen, what digits do comes before the search,
	 * except right after a search key; on the last screen, what the
	 * lesson still needs comes before a quiz already answered. */
	lesson_facts(t, r, &f);
	needs = r->lesson && t->cfg->st && !r->completed && f.at_end && !lesson_may_complete(&f);
	if (q >= 0 && needs && r->quizzes[q].answers > 0 && !r->quizzes[q].picked)
		q = -1;
	if (r->focus >= 0)
		snprintf(hint, sizeof hint, "[%d] %s  Enter: follow", r->lay->refs[r->focus].link + 1,
			 doc_link_target(r->doc, r->lay->refs[r->focus].link));
	else if (search && r->nmatches)
		snprintf(hint, sizeof hint, "\"%s\": match %d of %d  n/N: next/previous  ?: keys",
			 r->query, r->match + 1, r->nmatches);
	else if (search)
		snprintf(hint, sizeof hint, "\"%s\": no matches  /: search again  ?: keys", r->query);
	else if (q >= 0)
		quiz_hint(hint, sizeof hint, r, q);
	else if (needs)
		completion_hint(hint, sizeof hint, &f);
	else
		snprintf(hint, sizeof hint, "t: contents  /: search  Tab: links  %s%sq: back  ?: keys",
			 r->lesson && r->lesson->n_reading ? "r: reading  " : "",
			 r->lesson && r->lesson->n_exercises ? "x: exercises  " : "");
	tui_status(t, hint);
}

/* Marks the blocks whose lines are now all on screen, or have been. */
static void mark_viewed(const struct tui *t, struct reader *r)
{
	for (int i = r->top; i < screen_end(t, r); i++) {
		int b = line_block(r, i);

		if (r->seen[i])
			continue;
		r->seen[i] = 1;
		if (b >= 0 && --r->block_unseen[b] == 0)
			r->viewed[b] = '1';
	}
}

/* Completes the lesson when its end is on screen and the rule is met. */
static void maybe_complete(struct tui *t, struct reader *r)
{
	struct lesson_facts f;

	if (r->completed || !r->lesson || !t->cfg->st)
		return;
	lesson_facts(t, r, &f);
	if (!lesson_may_complete(&f))
		return;
	save_reading(t, r);
	if (store_lesson_complete(t->cfg->st, r->lesson->id) == 0) {
		r->completed = 1;
		tui_flash(t, "lesson complete");
	} else {
		tui_flash(t, "could not save: %s", store_errmsg(t->cfg->st));
	}
}

static void reader_draw(struct tui *t, void *state)
{
	struct reader *r = state;
	int rows = body_rows(t);

	if (term_too_small(t, 8, DOC_MIN_WIDTH + 2))
		return;
	tick(r);
	mark_viewed(t, r);
	maybe_complete(t, r);
	erase();
	draw_title(t, r);
	for (int i = 0; i < rows && r->top + i < r->lay->nlines; i++)
		paint_line(t, r, i + 1, &r->lay->lines[r->top + i]);
	paint_overlays(t, r);
	status_hint(t, r);
	refresh();
}

static void reader_resize(struct tui *t, void *state)
{
	if (t->cols >= DOC_MIN_WIDTH + 2)
		relayout(t, state);
}

static void scroll_to(struct tui *t, struct reader *r, int line)
{
	r->top = clamp_top(t, r, line);
}

/* Brings line into view, a few lines from the top when it was off screen. */
static void show_line(struct tui *t, struct reader *r, int line)
{
	if (line < r->top || line >= r->top + body_rows(t))
		scroll_to(t, r, line - body_rows(t) / 3);
}

/* Reads a line of input on the status bar; NULL when cancelled. */
static char *prompt(struct tui *t, const char *label)
{
	struct strbuf sb;
	int ch;

	sb_init(&sb);
	sb_puts(&sb, "");
	curs_set(1);
	for (;;) {
		term_fill_line(t->rows - 1, UI_STATUS);
		term_role_on(UI_STATUS);
		mvaddstr(t->rows - 1, 1, label);
		term_put(t->rows - 1, 1 + (int)strlen(label), sb.s, t->cols - 2 - (int)strlen(label));
		term_role_off(UI_STATUS);
		refresh();
		ch = getch();
		if (term_interrupted() || ch == 27 || ch == 3) {
			sb_free(&sb);
			curs_set(0);
			return NULL;
		}
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			break;
		if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
			/* drop one whole UTF-8 character */
			while (sb.len > 0 && ((unsigned char)sb.s[sb.len - 1] & 0xC0) == 0x80)
				sb.len--;
			if (sb.len > 0)
				sb.len--;
			sb.s[sb.len] = '\0';
		} else if (ch == KEY_RESIZE) {
			getmaxyx(stdscr, t->rows, t->cols);
		} else if (ch >= 0x20 && ch < 0x100 && ch != 0x7f) {
			sb_putc(&sb, (char)ch);
		}
	}
	curs_set(0);
	return sb_steal(&sb);
}

/* Brings the current match into view; a match in a quiz gives that quiz
 * the digits, as ] would. */
static void show_match(struct tui *t, struct reader *r)
{
	int line = r->matches[r->match].line;

	show_line(t, r, line);
	r->quiz_focus = r->lay->lines[line].quiz;
	r->quiz_moved_on = false;
}

static void search(struct tui *t, struct reader *r)
{
	char *q = prompt(t, "/");

	if (!q)
		return;
	free(r->query);
	r->query = q;
	run_search(r);
	r->match = 0;
	/* start from the first match at or below the top */
	for (int i = 0; i < r->nmatches; i++) {
		if (r->matches[i].line >= r->top) {
			r->match = i;
			break;
		}
	}
	if (r->nmatches)
		show_match(t, r);
}

static void next_match(struct tui *t, struct reader *r, int dir)
{
	if (!r->nmatches) {
		tui_flash(t, r->query ? "no matches" : "no search: press / first");
		return;
	}
	r->match = (r->match + dir + r->nmatches) % r->nmatches;
	show_match(t, r);
}

static void next_link(struct tui *t, struct reader *r, int dir)
{
	int n = r->lay->nrefs, i = r->focus;

	for (int step = 0; step < n; step++) {
		if (i < 0)
			i = dir > 0 ? 0 : n - 1;
		else
			i = (i + dir + n) % n;
		if (!r->lay->refs[i].cont) {
			r->focus = i;
			show_line(t, r, r->lay->refs[i].line);
			return;
		}
	}
	tui_flash(t, "no links here");
}

static int follow_link(struct tui *t, struct reader *r)
{
	const char *target;

	if (r->focus < 0)
		return TUI_NONE;
	target = doc_link_target(r->doc, r->lay->refs[r->focus].link);
	if (str_starts(target, "lesson:")) {
		tui_go(t, &reader_screen, target);
		return TUI_NAVIGATE;
	}
	if (str_starts(target, "exercise:")) {
		tui_go(t, &exercise_screen, target + strlen("exercise:"));
		return TUI_NAVIGATE;
	}
	if (tui_open_url(t, target) != 0)
		tui_flash(t, "no browser (set $BROWSER or install xdg-open): %s", target);
	else
		tui_flash(t, "opened %s", target);
	return TUI_REDRAW;
}

/* The first and last lines of quiz q; -1 when it has none. */
static void quiz_lines(const struct reader *r, int q, int *first, int *last)
{
	*first = *last = -1;
	for (int i = 0; i < r->lay->nlines; i++) {
		if (r->lay->lines[i].quiz != q)
			continue;
		if (*first < 0)
			*first = i;
		*last = i;
	}
}

/* Brings quiz q into view, whole when it fits, and gives it the focus. */
static void focus_quiz(struct tui *t, struct reader *r, int q)
{
	int first, last, rows = body_rows(t), above;

	quiz_lines(r, q, &first, &last);
	r->quiz_focus = q;
	r->quiz_moved_on = false;
	r->focus = -1;
	if (first < 0 || (first >= r->top && last < r->top + rows))
		return;
	above = rows - (last - first + 1);
	scroll_to(t, r, first - (above < rows / 3 ? (above > 0 ? above : 0) : rows / 3));
}

/* ] and [: the next or previous quiz from the one digits answer now, or,
 * with none on screen, the first below (or last above) the screen. */
static void next_quiz(struct tui *t, struct reader *r, int dir)
{
	int from = r->quiz_focus >= 0 && quiz_on_screen(t, r, r->quiz_focus) ? r->quiz_focus
									       : target_quiz(t, r);
	int q = -1;

	if (r->nquiz == 0) {
		tui_flash(t, "no quizzes here");
		return;
	}
	if (from >= 0) {
		q = (from + dir + r->nquiz) % r->nquiz;
	} else {
		for (int i = 0; i < r->lay->nlines; i++) {
			if (!starts_quiz(r, i))
				continue;
			if (dir > 0 && i >= r->top) {
				q = r->lay->lines[i].quiz;
				break;
			}
			if (dir < 0 && i < r->top)
				q = r->lay->lines[i].quiz;
		}
		if (q < 0)
			q = dir > 0 ? 0 : r->nquiz - 1;
	}
	focus_quiz(t, r, q);
}

/* Scrolls down as far as the end of quiz q, where an answer shows its
 * explanation, keeping its question on screen. */
static void reveal_quiz_end(struct tui *t, struct reader *r, int q)
{
	int first, last, rows = body_rows(t);

	quiz_lines(r, q, &first, &last);
	if (last >= r->top + rows)
		scroll_to(t, r, last - rows + 1 < first ? last - rows + 1 : first);
}

/* Records an answer: the first one given is kept as the one that counts,
 * a later one only as the latest. */
static void submit_answer(struct tui *t, struct reader *r, int q, uint64_t choices)
{
	const struct doc_quiz *quiz = doc_quiz_get(r->doc, q);
	struct doc_quiz_state *s = &r->quizzes[q];
	bool right = choices == doc_quiz_right_set(quiz);
	char next[48] = "";

	if (s->answers == 0) {
		s->first = choices;
		s->first_right = right;
	}
	s->latest = choices;
	s->latest_right = right;
	s->answers++;
	s->picked = 0;
	relayout(t, r);
	reveal_quiz_end(t, r, q);
	/* the digits go on to the next quiz on screen, one answer each; ]
	 * and [ still move from this one */
	r->quiz_focus = q;
	r->quiz_moved_on = true;
	if (target_quiz(t, r) != q)
		snprintf(next, sizeof next, "; digits now answer quiz %d", target_quiz(t, r) + 1);
	if (r->lesson && t->cfg->st &&
	    store_quiz_submit(t->cfg->st, r->lesson->id, q, quiz->question, choices, right) != 0)
		tui_flash(t, "could not save the answer: %s", store_errmsg(t->cfg->st));
	else if (s->answers == 1)
		tui_flash(t, "%s%s", right ? "right" : "not quite: see the explanation", next);
	else
		tui_flash(t, "%s; your first answer, %s, is the one that counts%s",
			  right ? "right this time" : "not quite", s->first_right ? "right" : "wrong",
			  next);
}

/* A digit: answers the quiz on a one-answer quiz, ticks or unticks the
 * choice on a choose-all quiz. */
static void quiz_digit(struct tui *t, struct reader *r, int choice)
{
	int q = target_quiz(t, r);
	const struct doc_quiz *quiz;

	if (q < 0) {
		tui_flash(t, r->nquiz ? "no quiz on screen: ] goes to the next one" : "no quizzes here");
		return;
	}
	quiz = doc_quiz_get(r->doc, q);
	if (choice >= quiz->nchoices) {
		tui_flash(t, "quiz %d has %d choices", q + 1, quiz->nchoices);
		return;
	}
	/* the quiz keeps the focus while its choices are ticked, and Enter
	 * now means it rather than a link */
	r->quiz_focus = q;
	r->quiz_moved_on = false;
	r->focus = -1;
	if (!doc_quiz_is_multi(quiz)) {
		submit_answer(t, r, q, UINT64_C(1) << choice);
		return;
	}
	r->quizzes[q].picked ^= UINT64_C(1) << choice;
	relayout(t, r);
}

/* Enter with no link focused: submits the ticked choices. */
static void submit_ticked(struct tui *t, struct reader *r)
{
	int q = target_quiz(t, r);
	const struct doc_quiz *quiz;

	if (q < 0)
		return;
	quiz = doc_quiz_get(r->doc, q);
	if (!doc_quiz_is_multi(quiz))
		tui_flash(t, "quiz %d: press a digit to answer", q + 1);
	else if (r->quizzes[q].picked == 0)
		tui_flash(t, "quiz %d: tick at least one choice with the digits first", q + 1);
	else
		submit_answer(t, r, q, r->quizzes[q].picked);
}

/* A small list overlay: the table of contents or the reading items. */
struct picker {
	const char *title;
	int n, sel, top;
	void (*row)(struct tui *t, void *ud, int i, int y, int selected);
	void *ud;
};

static void picker_draw(struct tui *t, struct picker *p, const char *hint)
{
	int rows = t->rows - 2;

	if (p->sel < p->top)
		p->top = p->sel;
	if (p->sel >= p->top + rows)
		p->top = p->sel - rows + 1;
	erase();
	term_fill_line(0, UI_TITLE);
	term_role_on(UI_TITLE);
	term_put(0, 1, p->title, t->cols - 2);
	term_role_off(UI_TITLE);
	for (int i = 0; i < rows && p->top + i < p->n; i++)
		p->row(t, p->ud, p->top + i, i + 1, p->top + i == p->sel);
	tui_status(t, hint);
	refresh();
}

/* Runs the picker; returns the key that closed it (Enter, Esc, q, ...) with
 * p->sel the selection.  Keys in pass are returned to the caller as well. */
static int picker_run(struct tui *t, struct picker *p, const char *hint, const char *pass)
{
	for (;;) {
		int ch;

		picker_draw(t, p, hint);
		ch = getch();
		if (term_interrupted())
			return 'q';
		switch (ch) {
		case KEY_RESIZE:
			getmaxyx(stdscr, t->rows, t->cols);
			break;
		case KEY_DOWN:
		case 'j':
			if (p->sel + 1 < p->n)
				p->sel++;
			break;
		case KEY_UP:
		case 'k':
			if (p->sel > 0)
				p->sel--;
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
		case 27:
		case 'q':
			return ch;
		default:
			if (ch > 0 && ch < 256 && strchr(pass, ch))
				return ch;
		}
	}
}

static void toc_row(struct tui *t, void *ud, int i, int y, int selected)
{
	const struct doc_heading *h = &((struct reader *)ud)->lay->headings[i];
	int indent = 1 + 2 * (h->level - 1);

	if (selected)
		term_fill_line(y, UI_SELECTED);
	attron(term_attr(selected ? UI_SELECTED : h->level == 1 ? UI_H1 : UI_TEXT));
	term_put(y, indent, h->text, t->cols - indent - 1);
	attroff(term_attr(selected ? UI_SELECTED : h->level == 1 ? UI_H1 : UI_TEXT));
}

static void table_of_contents(struct tui *t, struct reader *r)
{
	struct picker p = { "Contents", r->lay->nheadings, 0, 0, toc_row, r };
	int ch;

	if (p.n == 0) {
		tui_flash(t, "this text has no headings");
		return;
	}
	for (int i = 0; i < p.n; i++)
		if (r->lay->headings[i].line <= r->top)
			p.sel = i;
	ch = picker_run(t, &p, "Enter: jump  Esc: close", "");
	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		scroll_to(t, r, r->lay->headings[p.sel].line);
}

struct items_ud {
	struct tui *t;
	const struct lesson *lesson;
};

static void item_row(struct tui *t, void *ud, int i, int y, int selected)
{
	const struct items_ud *u = ud;
	const struct reading_item *it = &u->lesson->reading[i];
	enum item_status s = ITEM_UNREAD;
	enum ui_role role;

	if (t->cfg->st)
		store_item_get(t->cfg->st, it->id, &s);
	role = s == ITEM_DONE ? UI_DONE : s == ITEM_READING ? UI_PROGRESS : UI_DIM;
	if (selected)
		term_fill_line(y, UI_SELECTED);
	attron(term_attr(role));
	term_put(y, 2, term_glyph(s == ITEM_DONE ? GLYPH_DONE : s == ITEM_READING ? GLYPH_READING
										 : GLYPH_UNREAD),
		 3);
	attroff(term_attr(role));
	attron(term_attr(selected ? UI_SELECTED : UI_TEXT));
	term_put(y, 6, it->title, t->cols - 7);
	attroff(term_attr(selected ? UI_SELECTED : UI_TEXT));
}

static void reading_items(struct tui *t, struct reader *r)
{
	struct items_ud ud = { t, r->lesson };
	struct picker p = { "Reading for this lesson", 0, 0, 0, item_row, &ud };

	if (!r->lesson || r->lesson->n_reading == 0) {
		tui_flash(t, "no reading items here");
		return;
	}
	p.n = (int)r->lesson->n_reading;
	for (;;) {
		const struct reading_item *it;
		char hint[256];
		int ch;

		it = &r->lesson->reading[p.sel];
		snprintf(hint, sizeof hint, "Space: cycle status  o: open  Esc: close  %s",
			 it->url ? it->url : "(no link)");
		ch = picker_run(t, &p, hint, " o");
		it = &r->lesson->reading[p.sel];
		if (ch == ' ' || ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			enum item_status s = ITEM_UNREAD;

			if (!t->cfg->st)
				continue;
			store_item_get(t->cfg->st, it->id, &s);
			s = s == ITEM_UNREAD ? ITEM_READING : s == ITEM_READING ? ITEM_DONE : ITEM_UNREAD;
			store_item_set(t->cfg->st, it->id, s);
		} else if (ch == 'o') {
			if (it->url && tui_open_url(t, it->url) != 0)
				tui_flash(t, "no browser (set $BROWSER or install xdg-open): %s", it->url);
		} else {
			return;
		}
	}
}

static void exercise_row(struct tui *t, void *ud, int i, int y, int selected)
{
	const struct reader *r = ud;
	const struct exercise *e = catalog_exercise(t->cfg->cat, r->lesson->exercises[i]);
	struct exercise_state es = { EX_NEW, -1, 0, 0 };

	if (e && t->cfg->st)
		store_exercise_get(t->cfg->st, e->id, &es);
	if (selected)
		term_fill_line(y, UI_SELECTED);
	attron(term_attr(es.status == EX_PASSED ? UI_DONE : UI_DIM));
	term_put(y, 2, es.status == EX_PASSED ? term_glyph(GLYPH_CHECK) : " ", 1);
	attroff(term_attr(es.status == EX_PASSED ? UI_DONE : UI_DIM));
	attron(term_attr(selected ? UI_SELECTED : UI_TEXT));
	term_put(y, 4, e ? e->title : r->lesson->exercises[i], t->cols - 5);
	attroff(term_attr(selected ? UI_SELECTED : UI_TEXT));
}

/* The lesson's exercises; Enter opens one. */
static int exercises(struct tui *t, struct reader *r)
{
	struct picker p = { "Exercises for this lesson", 0, 0, 0, exercise_row, r };
	int ch;

	if (!r->lesson || r->lesson->n_exercises == 0) {
		tui_flash(t, "no exercises for this lesson");
		return TUI_REDRAW;
	}
	p.n = (int)r->lesson->n_exercises;
	ch = picker_run(t, &p, "Enter: open  Esc: close", "");
	if (ch != '\n' && ch != '\r' && ch != KEY_ENTER)
		return TUI_REDRAW;
	if (!catalog_exercise(t->cfg->cat, r->lesson->exercises[p.sel])) {
		tui_flash(t, "exercise '%s' is not in the content", r->lesson->exercises[p.sel]);
		return TUI_REDRAW;
	}
	tui_go(t, &exercise_screen, r->lesson->exercises[p.sel]);
	return TUI_NAVIGATE;
}

static int reader_key(struct tui *t, void *state, int ch)
{
	struct reader *r = state;
	int page = body_rows(t) > 2 ? body_rows(t) - 2 : 1;
	MEVENT ev;

	tick(r);
	r->searched = ch == '/' || ch == 'n' || ch == 'N';
	switch (ch) {
	case 'q':
	case 27:
		return TUI_BACK;
	case 3:
		return TUI_QUIT;
	case KEY_LEFT:
	case KEY_BACKSPACE:
	case 'h':
		return TUI_BACK;
	case KEY_RIGHT:
	case 'l':
		return TUI_FORWARD;
	case KEY_DOWN:
	case 'j':
		scroll_to(t, r, r->top + 1);
		break;
	case KEY_UP:
	case 'k':
		scroll_to(t, r, r->top - 1);
		break;
	case KEY_NPAGE:
	case ' ':
		scroll_to(t, r, r->top + page);
		break;
	case KEY_PPAGE:
	case 'b':
		scroll_to(t, r, r->top - page);
		break;
	case 'g':
	case KEY_HOME:
		scroll_to(t, r, 0);
		break;
	case 'G':
	case KEY_END:
		scroll_to(t, r, r->lay->nlines);
		break;
	case KEY_MOUSE:
		if (getmouse(&ev) == OK) {
			if (ev.bstate & BUTTON4_PRESSED)
				scroll_to(t, r, r->top - 3);
			else if (ev.bstate & BUTTON5_PRESSED)
				scroll_to(t, r, r->top + 3);
		}
		break;
	case 't':
		table_of_contents(t, r);
		break;
	case '/':
		search(t, r);
		break;
	case 'n':
		next_match(t, r, 1);
		break;
	case 'N':
		next_match(t, r, -1);
		break;
	case '\t':
		r->quiz_focus = -1;
		next_link(t, r, 1);
		break;
	case KEY_BTAB:
		r->quiz_focus = -1;
		next_link(t, r, -1);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (r->focus >= 0)
			return follow_link(t, r);
		submit_ticked(t, r);
		break;
	case ']':
		next_quiz(t, r, 1);
		break;
	case '[':
		next_quiz(t, r, -1);
		break;
	case 'r':
		reading_items(t, r);
		break;
	case 'x':
		return exercises(t, r);
	case '?':
		tui_help(t, "Reader: keys", help_lines);
		break;
	default:
		if (ch >= '1' && ch <= '9') {
			quiz_digit(t, r, ch - '1');
			break;
		}
		return TUI_NONE;
	}
	return TUI_REDRAW;
}

const struct screen reader_screen = {
	.name = "reader",
	.enter = reader_enter,
	.draw = reader_draw,
	.key = reader_key,
	.resize = reader_resize,
	.leave = reader_leave,
};
