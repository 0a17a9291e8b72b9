/* tui_internal.h — what the screens of the lab share: the terminal layer
 * (term.c, the only file that starts and ends curses or owns colours), the
 * screen table, and navigation between locations. */
#ifndef CUDALAB_TUI_INTERNAL_H
#define CUDALAB_TUI_INTERNAL_H

#include <curses.h>
#include <stddef.h>

#include "cudalab/tui.h"

/* Colours by role; term.c maps each to a pair and attributes, with a
 * monochrome scheme for NO_COLOR and terminals without colour. */
enum ui_role {
	UI_TEXT,
	UI_TITLE,     /* top bar */
	UI_TAB,       /* inactive tab */
	UI_TAB_ON,    /* active tab */
	UI_STATUS,    /* bottom bar */
	UI_SELECTED,  /* selected row */
	UI_DIM,       /* secondary text */
	UI_SECTION,   /* section headers in lists */
	UI_DONE,      /* done / passed */
	UI_PROGRESS,  /* reading / attempted */
	UI_BAR_FILL,
	UI_BAR_EMPTY,
	UI_WARN,
	UI_MATCH,     /* search matches */
	UI_LINK_ON,   /* the focused link */
	/* document roles, in the order of enum doc_role's styling needs */
	UI_H1,
	UI_H2,
	UI_H3,
	UI_CODE,
	UI_LINK,
	UI_QUOTE,
	UI_KEYWORD,
	UI_TYPE,
	UI_STRING,
	UI_COMMENT,
	UI_NUMBER,
	UI_PREPROC,
	UI_RULE,
	UI_QUIZ,
	UI_ROLE_COUNT
};

/* Handler results, combinable. */
enum {
	TUI_NONE = 0,
	TUI_REDRAW = 1 << 0,
	TUI_BACK = 1 << 1,    /* leave this screen (quit from home) */
	TUI_QUIT = 1 << 2,
	TUI_NAVIGATE = 1 << 3, /* tui->next was set: go there */
	TUI_FORWARD = 1 << 4   /* forward in the history */
};

struct tui;

/* A screen is a table of functions; its state is its own struct. */
struct screen {
	const char *name;
	/* Returns the screen's state for arg (a lesson id, ...), or NULL with
	 * tui_flash() explaining why it cannot open. */
	void *(*enter)(struct tui *t, const char *arg);
	void (*draw)(struct tui *t, void *state);
	int (*key)(struct tui *t, void *state, int ch);
	void (*resize)(struct tui *t, void *state);
	void (*leave)(struct tui *t, void *state);
};

extern const struct screen home_screen;
extern const struct screen reader_screen;
extern const struct screen exercise_screen;

/* A place in the lab: a screen and its argument. */
struct location {
	const struct screen *screen;
	char *arg;
};

/* Where the home screen was left: its tab and, per tab, the selected and
 * the first row shown, so that coming back from a lesson or an exercise
 * finds the same place. */
#define HOME_TABS 3
struct home_place {
	int saved;
	int tab;
	size_t sel[HOME_TABS], top[HOME_TABS];
};

struct tui {
	const struct tui_config *cfg;
	int rows, cols;
	int mono;
	char *flash;                    /* one-shot message for the status bar */
	struct location next;           /* set by a handler returning TUI_NAVIGATE */
	struct home_place home;         /* kept by home.c across visits */
};

/* Glyphs with an ASCII fallback when the locale is not UTF-8. */
enum glyph {
	GLYPH_BAR_FILL,
	GLYPH_BAR_EMPTY,
	GLYPH_UNREAD,
	GLYPH_READING,
	GLYPH_DONE,
	GLYPH_CHECK,
	GLYPH_DOT,
	GLYPH_HLINE,
	GLYPH_ELLIPSIS,
	GLYPH_COUNT
};

/* term.c */
const char *term_glyph(enum glyph g);
int term_start(struct tui *t);
void term_end(void);
int term_too_small(struct tui *t, int min_rows, int min_cols);
attr_t term_attr(enum ui_role role);
void term_role_on(enum ui_role role);
void term_role_off(enum ui_role role);
/* Prints at most width display columns of s at (y, x); returns columns used. */
int term_put(int y, int x, const char *s, int width);
/* The same, but a string that does not fit ends in an ellipsis. */
int term_put_cut(int y, int x, const char *s, int width);
/* Paints s from row y, column x, wrapped at width columns (at blanks when
 * it can); continuation rows are indented two columns past the line's
 * own indent.  Returns the rows used, at most max; with y < 0 it only
 * counts them. */
int term_put_wrapped(int y, int x, const char *s, int width, int max);
void term_fill_line(int y, enum ui_role role);
int term_interrupted(void);

/* tui.c */
void tui_flash(struct tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tui_go(struct tui *t, const struct screen *s, const char *arg);
/* Draws the bottom status line: the flash message if any, else hint. */
void tui_status(struct tui *t, const char *hint);
/* Opens a URL in the browser (xdg-open or $BROWSER) by fork/exec;
 * returns 0 when started, -1 when no opener exists. */
int tui_open_url(struct tui *t, const char *url);
/* Shows a full-screen list of key bindings until a key is pressed. */
void tui_help(struct tui *t, const char *title, const char *const *lines);
int tui_display_width(const char *s);

/* reader.c: a lesson's progress in words, "read 60% · quizzes 1/3" (no
 * quizzes part for a lesson without any), as the reader's title shows it. */
void lesson_progress_text(char *buf, size_t size, int read_percent, int quizzes, int answered);
/* The same for a lesson from the store, as of its last visit; "" for a
 * lesson never read. */
void lesson_progress_of(struct tui *t, const char *lesson, char *buf, size_t size);

#endif
