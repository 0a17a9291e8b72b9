/* home.c — the home screen: tabs for lessons, the reading list and
 * exercises, with overall progress always in the top bar. */
#include "tui_internal.h"

#include <stdlib.h>
#include <string.h>

#include "cudalab/content.h"
#include "cudalab/store.h"
#include "cudalab/util.h"

enum tab { TAB_LESSONS, TAB_READING, TAB_EXERCISES, TAB_COUNT };
_Static_assert(TAB_COUNT == HOME_TABS, "struct home_place has a place per tab");
enum row_kind { ROW_SECTION, ROW_LESSON, ROW_ITEM, ROW_EXERCISE };

struct row {
	enum row_kind kind;
	size_t lesson, index; /* lesson index; item index within it / exercise index */
};

struct home {
	enum tab tab;
	struct row *rows[TAB_COUNT];
	size_t n_rows[TAB_COUNT];
	size_t sel[TAB_COUNT], top[TAB_COUNT];
};

static const char *const tab_names[TAB_COUNT] = { "Lessons", "Reading list", "Exercises" };

static const char *const help_lines[] = {
	"Tab, Shift-Tab, 1 2 3   switch tabs",
	"Up/Down, j/k            move",
	"PgUp/PgDn, g/G          page, first, last",
	"Enter                   open a lesson or exercise; on a reading item, cycle its status",
	"Space                   cycle a reading item: unread -> reading -> done",
	"o                       open the reading item's link in the browser",
	"?                       this help",
	"q                       quit",
	NULL,
};

static void add_row(struct home *h, enum tab tab, struct row r)
{
	size_t cap = h->n_rows[tab];

	h->rows[tab] = xrealloc(h->rows[tab], (cap + 1) * sizeof r);
	h->rows[tab][h->n_rows[tab]++] = r;
}

static void build_rows(struct home *h, const struct catalog *cat)
{
	const char *section = NULL;

	for (size_t i = 0; i < cat->n_lessons; i++) {
		const struct lesson *l = &cat->lessons[i];

		if (!section || strcmp(section, l->section) != 0) {
			section = l->section;
			add_row(h, TAB_LESSONS, (struct row){ ROW_SECTION, i, 0 });
			add_row(h, TAB_READING, (struct row){ ROW_SECTION, i, 0 });
		}
		add_row(h, TAB_LESSONS, (struct row){ ROW_LESSON, i, 0 });
		for (size_t j = 0; j < l->n_reading; j++)
			add_row(h, TAB_READING, (struct row){ ROW_ITEM, i, j });
	}
	for (size_t i = 0; i < cat->n_exercises; i++)
		add_row(h, TAB_EXERCISES, (struct row){ ROW_EXERCISE, 0, i });
}

static int selectable(const struct row *r)
{
	return r->kind != ROW_SECTION;
}

/* Moves the selection by delta rows, skipping section headers. */
static void move_sel(struct home *h, long delta)
{
	size_t n = h->n_rows[h->tab];
	long s = (long)h->sel[h->tab] + delta;
	long step = delta < 0 ? -1 : 1;

	if (n == 0)
		return;
	if (s < 0)
		s = 0;
	if (s >= (long)n)
		s = (long)n - 1;
	while (s >= 0 && s < (long)n && !selectable(&h->rows[h->tab][s]))
		s += step;
	if (s < 0 || s >= (long)n) {
		/* ran off an end: search the other way */
		s = delta < 0 ? 0 : (long)n - 1;
		while (s >= 0 && s < (long)n && !selectable(&h->rows[h->tab][s]))
			s -= step;
	}
	if (s >= 0 && s < (long)n)
		h->sel[h->tab] = (size_t)s;
}

static enum item_status item_status(struct tui *t, const char *id)
{
	enum item_status s = ITEM_UNREAD;

	if (t->cfg->st)
		store_item_get(t->cfg->st, id, &s);
	return s;
}

static void *home_enter(struct tui *t, const char *arg)
{
	struct home *h = xcalloc(1, sizeof *h);

	(void)arg;
	build_rows(h, t->cfg->cat);
	for (int tab = 0; tab < TAB_COUNT; tab++) {
		h->tab = (enum tab)tab;
		move_sel(h, 0);
	}
	h->tab = TAB_LESSONS;
	if (t->home.saved) {
		/* the same place as when the learner left: the rows are those of
		 * the same catalog, so the indices still hold */
		h->tab = (enum tab)t->home.tab;
		for (int tab = 0; tab < TAB_COUNT; tab++) {
			if (t->home.sel[tab] < h->n_rows[tab])
				h->sel[tab] = t->home.sel[tab];
			if (t->home.top[tab] < h->n_rows[tab])
				h->top[tab] = t->home.top[tab];
		}
	}
	return h;
}

static void home_leave(struct tui *t, void *state)
{
	struct home *h = state;

	t->home.saved = 1;
	t->home.tab = (int)h->tab;
	memcpy(t->home.sel, h->sel, sizeof h->sel);
	memcpy(t->home.top, h->top, sizeof h->top);
	for (int i = 0; i < TAB_COUNT; i++)
		free(h->rows[i]);
	free(h);
}

struct totals {
	size_t lessons_done, lessons, items_done, items, passed, exercises;
};

static void totals(struct tui *t, struct totals *tot)
{
	const struct catalog *cat = t->cfg->cat;

	memset(tot, 0, sizeof *tot);
	for (size_t i = 0; i < cat->n_lessons; i++) {
		struct lesson_state ls = { 0, 0, 0 };

		if (t->cfg->st)
			store_lesson_get(t->cfg->st, cat->lessons[i].id, &ls);
		tot->lessons_done += ls.completed != 0;
		for (size_t j = 0; j < cat->lessons[i].n_reading; j++)
			tot->items_done += item_status(t, cat->lessons[i].reading[j].id) == ITEM_DONE;
		tot->items += cat->lessons[i].n_reading;
	}
	tot->lessons = cat->n_lessons;
	for (size_t i = 0; i < cat->n_exercises; i++) {
		struct exercise_state es = { EX_NEW, -1, 0, 0 };

		if (t->cfg->st)
			store_exercise_get(t->cfg->st, cat->exercises[i].id, &es);
		tot->passed += es.status == EX_PASSED;
	}
	tot->exercises = cat->n_exercises;
}

/* Draws a bar of width cells filled done/total. */
static void draw_bar(int y, int x, int width, size_t done, size_t total)
{
	int fill = total ? (int)(done * (size_t)width / total) : 0;

	move(y, x);
	term_role_on(UI_BAR_FILL);
	for (int i = 0; i < fill; i++)
		addstr(term_glyph(GLYPH_BAR_FILL));
	term_role_off(UI_BAR_FILL);
	term_role_on(UI_BAR_EMPTY);
	for (int i = fill; i < width; i++)
		addstr(term_glyph(GLYPH_BAR_EMPTY));
	term_role_off(UI_BAR_EMPTY);
}

static void draw_top(struct tui *t, struct home *h)
{
	int x = 1;

	term_fill_line(0, UI_TITLE);
	term_role_on(UI_TITLE);
	x += term_put(0, x, "cudalab", t->cols - x);
	term_role_off(UI_TITLE);
	x += 2;
	for (int i = 0; i < TAB_COUNT && x < t->cols; i++) {
		char label[32];
		enum ui_role role = i == (int)h->tab ? UI_TAB_ON : UI_TAB;

		snprintf(label, sizeof label, " %d %s ", i + 1, tab_names[i]);
		term_role_on(role);
		x += term_put(0, x, label, t->cols - x);
		term_role_off(role);
		x += 1;
	}
}

/* The overall line: a bar over everything there is to do, weighted
 * equally, then the three counts. */
static void draw_overall(struct tui *t, const struct totals *tot)
{
	size_t done = tot->lessons_done + tot->items_done + tot->passed;
	size_t all = tot->lessons + tot->items + tot->exercises;
	char text[128];
	int width, tw;

	snprintf(text, sizeof text, " %3zu%%  lessons %zu/%zu  reading %zu/%zu  exercises %zu/%zu",
		 all ? done * 100 / all : 0, tot->lessons_done, tot->lessons, tot->items_done,
		 tot->items, tot->passed, tot->exercises);
	tw = tui_display_width(text);
	move(1, 0);
	clrtoeol();
	term_put(1, 1, "Overall", 8);
	width = t->cols - 10 - tw - 1;
	if (width > 40)
		width = 40;
	if (width < 4) {
		term_put(1, 9, text, t->cols - 10);
		return;
	}
	draw_bar(1, 9, width, done, all);
	term_put(1, 9 + width, text, t->cols - 9 - width);
}

/* Digits of the most reading items a lesson has. */
static int count_width(const struct tui *t)
{
	size_t most = 0;
	int w = 1;

	for (size_t i = 0; i < t->cfg->cat->n_lessons; i++)
		if (t->cfg->cat->lessons[i].n_reading > most)
			most = t->cfg->cat->lessons[i].n_reading;
	for (; most >= 10; most /= 10)
		w++;
	return w;
}

static void draw_lesson_row(struct tui *t, int y, const struct lesson *l, int selected)
{
	struct lesson_state ls = { 0, 0, 0 };
	size_t done = 0;
	char tail[48], progress[64] = "";
	int barw = 10, tailw, titlew, progw = 0;

	if (t->cfg->st)
		store_lesson_get(t->cfg->st, l->id, &ls);
	for (size_t j = 0; j < l->n_reading; j++)
		done += item_status(t, l->reading[j].id) == ITEM_DONE;
	/* counts as wide as the widest, so that every row's bar starts in
	 * one column */
	snprintf(tail, sizeof tail, " %*zu/%-*zu  %3d min", count_width(t), done, count_width(t),
		 l->n_reading, l->minutes);
	tailw = tui_display_width(tail);
	/* a lesson begun: how far, beside its title */
	if (!ls.completed)
		lesson_progress_of(t, l->id, progress, sizeof progress);
	if (*progress)
		progw = tui_display_width(progress) + 2;
	titlew = t->cols - 6 - barw - tailw - 2 - progw;
	if (selected)
		term_fill_line(y, UI_SELECTED);
	term_role_on(ls.completed ? UI_DONE : UI_DIM);
	term_put(y, 2, ls.completed ? term_glyph(GLYPH_CHECK)
				    : ls.position || ls.opened_at ? term_glyph(GLYPH_DOT) : " ",
		 1);
	term_role_off(ls.completed ? UI_DONE : UI_DIM);
	if (selected)
		term_role_on(UI_SELECTED);
	if (titlew > 4)
		term_put_cut(y, 4, l->title, titlew);
	if (selected)
		term_role_off(UI_SELECTED);
	if (titlew > 4 && progw) {
		term_role_on(selected ? UI_SELECTED : UI_PROGRESS);
		term_put(y, t->cols - barw - tailw - 1 - progw, progress, progw - 2);
		term_role_off(selected ? UI_SELECTED : UI_PROGRESS);
	}
	if (titlew > 4) {
		draw_bar(y, t->cols - barw - tailw - 1, barw, done, l->n_reading);
		if (selected)
			term_role_on(UI_SELECTED);
		term_put(y, t->cols - tailw - 1, tail, tailw);
		if (selected)
			term_role_off(UI_SELECTED);
	}
}

static void draw_item_row(struct tui *t, int y, const struct reading_item *r, int selected)
{
	enum item_status s = item_status(t, r->id);
	enum glyph g = s == ITEM_DONE ? GLYPH_DONE : s == ITEM_READING ? GLYPH_READING : GLYPH_UNREAD;
	enum ui_role gr = s == ITEM_DONE ? UI_DONE : s == ITEM_READING ? UI_PROGRESS : UI_DIM;
	int x = 2, used;

	if (selected)
		term_fill_line(y, UI_SELECTED);
	term_role_on(gr);
	x += term_put(y, x, term_glyph(g), 3) + 1;
	term_role_off(gr);
	if (selected)
		term_role_on(UI_SELECTED);
	used = term_put_cut(y, x, r->title, t->cols - x - 1);
	if (selected)
		term_role_off(UI_SELECTED);
	x += used + 2;
	if (r->url && x + 10 < t->cols) {
		term_role_on(selected ? UI_SELECTED : UI_DIM);
		term_put(y, x, r->url, t->cols - x - 1);
		term_role_off(selected ? UI_SELECTED : UI_DIM);
	}
}

static void draw_exercise_row(struct tui *t, int y, const struct exercise *e, int selected)
{
	struct exercise_state es = { EX_NEW, -1, 0, 0 };
	char tail[64];
	int tailw, idw, room, used;

	if (t->cfg->st)
		store_exercise_get(t->cfg->st, e->id, &es);
	if (es.best_ms >= 0)
		snprintf(tail, sizeof tail, "%-9s best %.3f ms  difficulty %d", store_ex_status_name(es.status),
			 es.best_ms, e->difficulty);
	else
		snprintf(tail, sizeof tail, "%-9s  difficulty %d", store_ex_status_name(es.status),
			 e->difficulty);
	tailw = tui_display_width(tail);
	if (selected)
		term_fill_line(y, UI_SELECTED);
	term_role_on(es.status == EX_PASSED ? UI_DONE : UI_DIM);
	term_put(y, 2, es.status == EX_PASSED ? term_glyph(GLYPH_CHECK) : " ", 1);
	term_role_off(es.status == EX_PASSED ? UI_DONE : UI_DIM);
	if (selected)
		term_role_on(UI_SELECTED);
	/* the title, then the id the command line takes, when there is room */
	idw = tui_display_width(e->id);
	room = t->cols - tailw - 7;
	if (room - idw - 2 < 16)
		idw = -2;
	used = term_put_cut(y, 4, e->title, room - idw - 2);
	if (idw > 0) {
		if (!selected)
			term_role_on(UI_DIM);
		term_put(y, 4 + used + 2, e->id, idw);
		if (!selected)
			term_role_off(UI_DIM);
	}
	term_put(y, t->cols - tailw - 1, tail, tailw);
	if (selected)
		term_role_off(UI_SELECTED);
}

/* The selected reading item, or NULL on a section row. */
static const struct reading_item *selected_item(struct tui *t, struct home *h)
{
	const struct row *r;

	if (h->n_rows[TAB_READING] == 0)
		return NULL;
	r = &h->rows[TAB_READING][h->sel[TAB_READING]];
	return r->kind == ROW_ITEM ? &t->cfg->cat->lessons[r->lesson].reading[r->index] : NULL;
}

#define DETAIL_URL 2 /* rows at most for an item's link */

/* Rows at most for an item's note: half of what the list would have, so
 * that a note of a few sentences shows whole at 80x24. */
static int note_rows(const struct tui *t)
{
	int rows = (t->rows - 8) / 2;

	return rows < 2 ? 2 : rows;
}

/* Rows the selected item's note and link take under the list, with the
 * rule above them: the whole note, wrapped, as far as note_rows. */
static int detail_rows(struct tui *t, struct home *h)
{
	const struct reading_item *it = selected_item(t, h);
	const char *url = it && it->url ? it->url : "(no link: find it by its title)";

	if (h->tab != TAB_READING)
		return 0;
	if (!it)
		return 3;
	return 1 + term_put_wrapped(-1, 1, it->note ? it->note : "", t->cols - 2, note_rows(t)) +
	       term_put_wrapped(-1, 1, url, t->cols - 2, DETAIL_URL);
}

/* The selected reading item's note and URL, under the list, wrapped. */
static void draw_detail(struct tui *t, struct home *h, int y)
{
	const struct reading_item *it = selected_item(t, h);

	if (!it)
		return;
	for (int x = 0; x < t->cols; x++)
		mvaddstr(y, x, term_glyph(GLYPH_HLINE));
	y += 1 + term_put_wrapped(y + 1, 1, it->note ? it->note : "", t->cols - 2, note_rows(t));
	term_role_on(UI_LINK);
	term_put_wrapped(y, 1, it->url ? it->url : "(no link: find it by its title)", t->cols - 2,
			 DETAIL_URL);
	term_role_off(UI_LINK);
}

/* Keeps the selection on screen in a list area of height rows. */
static void scroll_into_view(struct home *h, size_t height)
{
	size_t *top = &h->top[h->tab], sel = h->sel[h->tab];

	if (sel < *top)
		*top = sel > 0 && h->rows[h->tab][sel - 1].kind == ROW_SECTION ? sel - 1 : sel;
	if (sel >= *top + height)
		*top = sel - height + 1;
}

static void home_draw(struct tui *t, void *state)
{
	struct home *h = state;
	const struct catalog *cat = t->cfg->cat;
	struct totals tot;
	int list_top = 3, detail = detail_rows(t, h);
	int height = t->rows - list_top - 1 - detail;

	if (term_too_small(t, 12, 44))
		return;
	erase();
	totals(t, &tot);
	draw_top(t, h);
	draw_overall(t, &tot);
	if (h->n_rows[h->tab] == 0) {
		term_put(list_top, 2,
			 h->tab == TAB_EXERCISES ? "No exercises in this content yet."
						 : "Nothing here: no lessons loaded (see 'cudalab validate').",
			 t->cols - 3);
	}
	scroll_into_view(h, (size_t)height);
	for (int i = 0; i < height; i++) {
		size_t ri = h->top[h->tab] + (size_t)i;
		const struct row *r;
		int y = list_top + i, sel;

		if (ri >= h->n_rows[h->tab])
			break;
		r = &h->rows[h->tab][ri];
		sel = ri == h->sel[h->tab];
		switch (r->kind) {
		case ROW_SECTION:
			term_role_on(UI_SECTION);
			term_put(y, 1, cat->lessons[r->lesson].section, t->cols - 2);
			term_role_off(UI_SECTION);
			break;
		case ROW_LESSON:
			draw_lesson_row(t, y, &cat->lessons[r->lesson], sel);
			break;
		case ROW_ITEM:
			draw_item_row(t, y, &cat->lessons[r->lesson].reading[r->index], sel);
			break;
		case ROW_EXERCISE:
			draw_exercise_row(t, y, &cat->exercises[r->index], sel);
			break;
		}
	}
	if (detail)
		draw_detail(t, h, t->rows - 1 - detail);
	tui_status(t, h->tab == TAB_READING
			      ? "space: cycle status  o: open link  tab: next tab  ?: keys  q: quit"
			      : "enter: open  tab: next tab  ?: keys  q: quit");
	refresh();
}

static void cycle_item(struct tui *t, const struct reading_item *it)
{
	enum item_status s = item_status(t, it->id);
	enum item_status next = s == ITEM_UNREAD ? ITEM_READING : s == ITEM_READING ? ITEM_DONE : ITEM_UNREAD;

	if (!t->cfg->st) {
		tui_flash(t, "progress is not being saved (the database could not be opened)");
		return;
	}
	if (store_item_set(t->cfg->st, it->id, next) != 0)
		tui_flash(t, "could not save: %s", store_errmsg(t->cfg->st));
}

static int activate(struct tui *t, struct home *h, int ch)
{
	const struct catalog *cat = t->cfg->cat;
	const struct row *r;
	char *arg;

	if (h->n_rows[h->tab] == 0)
		return TUI_NONE;
	r = &h->rows[h->tab][h->sel[h->tab]];
	switch (r->kind) {
	case ROW_LESSON:
		if (ch == ' ')
			return TUI_NONE;
		arg = xasprintf("lesson:%s", cat->lessons[r->lesson].id);
		tui_go(t, &reader_screen, arg);
		free(arg);
		return TUI_NAVIGATE;
	case ROW_EXERCISE:
		if (ch == ' ')
			return TUI_NONE;
		tui_go(t, &exercise_screen, cat->exercises[r->index].id);
		return TUI_NAVIGATE;
	case ROW_ITEM:
		cycle_item(t, &cat->lessons[r->lesson].reading[r->index]);
		return TUI_REDRAW;
	default:
		return TUI_NONE;
	}
}

static int open_link(struct tui *t, struct home *h)
{
	const struct row *r;
	const struct reading_item *it;

	if (h->tab != TAB_READING || h->n_rows[TAB_READING] == 0)
		return TUI_NONE;
	r = &h->rows[TAB_READING][h->sel[TAB_READING]];
	if (r->kind != ROW_ITEM)
		return TUI_NONE;
	it = &t->cfg->cat->lessons[r->lesson].reading[r->index];
	if (!it->url)
		tui_flash(t, "this item has no link");
	else if (tui_open_url(t, it->url) != 0)
		tui_flash(t, "no browser (set $BROWSER or install xdg-open): %s", it->url);
	else
		tui_flash(t, "opened %s", it->url);
	return TUI_REDRAW;
}

static int home_key(struct tui *t, void *state, int ch)
{
	struct home *h = state;
	long page = t->rows > 8 ? t->rows - 8 : 1;
	MEVENT ev;

	switch (ch) {
	case 'q':
	case 'Q':
	case 3: /* Ctrl-C in raw mode */
		return TUI_QUIT;
	case '\t':
	case KEY_RIGHT:
		h->tab = (enum tab)((h->tab + 1) % TAB_COUNT);
		return TUI_REDRAW;
	case KEY_BTAB:
	case KEY_LEFT:
		h->tab = (enum tab)((h->tab + TAB_COUNT - 1) % TAB_COUNT);
		return TUI_REDRAW;
	case '1':
	case '2':
	case '3':
		h->tab = (enum tab)(ch - '1');
		return TUI_REDRAW;
	case KEY_DOWN:
	case 'j':
		move_sel(h, 1);
		return TUI_REDRAW;
	case KEY_UP:
	case 'k':
		move_sel(h, -1);
		return TUI_REDRAW;
	case KEY_NPAGE:
		move_sel(h, page);
		return TUI_REDRAW;
	case KEY_PPAGE:
		move_sel(h, -page);
		return TUI_REDRAW;
	case 'g':
	case KEY_HOME:
		h->sel[h->tab] = 0;
		move_sel(h, 0);
		return TUI_REDRAW;
	case 'G':
	case KEY_END:
		h->sel[h->tab] = h->n_rows[h->tab] ? h->n_rows[h->tab] - 1 : 0;
		move_sel(h, 0);
		return TUI_REDRAW;
	case KEY_MOUSE:
		if (getmouse(&ev) == OK) {
			if (ev.bstate & BUTTON4_PRESSED)
				move_sel(h, -3);
			else if (ev.bstate & BUTTON5_PRESSED)
				move_sel(h, 3);
		}
		return TUI_REDRAW;
	case '\n':
	case '\r':
	case KEY_ENTER:
	case ' ':
		return activate(t, h, ch);
	case 'o':
		return open_link(t, h);
	case '?':
		tui_help(t, "Home: keys", help_lines);
		return TUI_REDRAW;
	default:
		return TUI_NONE;
	}
}

const struct screen home_screen = {
	.name = "home",
	.enter = home_enter,
	.draw = home_draw,
	.key = home_key,
	.resize = NULL,
	.leave = home_leave,
};
