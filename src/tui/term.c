/* term.c — the only place that starts and ends curses and owns colours.
 * SIGINT, SIGTERM and SIGHUP set a flag that the event loop sees (getch is
 * interrupted), and every exit path, atexit included, restores the terminal. */
#include "tui_internal.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "cudalab/doc.h"
#include "cudalab/util.h"

struct role_style {
	short fg, bg;
	attr_t attr;      /* with colours */
	attr_t mono_attr; /* without */
};

static const struct role_style styles[UI_ROLE_COUNT] = {
	[UI_TEXT] = { -1, -1, A_NORMAL, A_NORMAL },
	[UI_TITLE] = { COLOR_BLACK, COLOR_CYAN, A_BOLD, A_REVERSE | A_BOLD },
	[UI_TAB] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[UI_TAB_ON] = { COLOR_WHITE, COLOR_BLUE, A_BOLD, A_BOLD | A_UNDERLINE },
	[UI_STATUS] = { COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE },
	[UI_SELECTED] = { COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE },
	[UI_DIM] = { -1, -1, A_DIM, A_DIM },
	[UI_SECTION] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[UI_DONE] = { COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[UI_PROGRESS] = { COLOR_YELLOW, -1, A_NORMAL, A_NORMAL },
	[UI_BAR_FILL] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
	[UI_BAR_EMPTY] = { -1, -1, A_DIM, A_DIM },
	[UI_WARN] = { COLOR_RED, -1, A_BOLD, A_BOLD },
	[UI_MATCH] = { COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_REVERSE },
	[UI_LINK_ON] = { COLOR_BLACK, COLOR_CYAN, A_UNDERLINE, A_REVERSE | A_UNDERLINE },
	[UI_H1] = { COLOR_MAGENTA, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[UI_H2] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[UI_H3] = { COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[UI_CODE] = { COLOR_YELLOW, -1, A_NORMAL, A_NORMAL },
	[UI_LINK] = { COLOR_CYAN, -1, A_UNDERLINE, A_UNDERLINE },
	[UI_QUOTE] = { COLOR_WHITE, -1, A_DIM, A_DIM },
	[UI_KEYWORD] = { COLOR_MAGENTA, -1, A_BOLD, A_BOLD },
	[UI_TYPE] = { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
	[UI_STRING] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
	[UI_COMMENT] = { COLOR_BLUE, -1, A_DIM, A_DIM },
	[UI_NUMBER] = { COLOR_RED, -1, A_NORMAL, A_NORMAL },
	[UI_PREPROC] = { COLOR_MAGENTA, -1, A_NORMAL, A_NORMAL },
	[UI_RULE] = { -1, -1, A_DIM, A_DIM },
	[UI_QUIZ] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
};

static const char *const glyphs[2][GLYPH_COUNT] = {
	{ "#", ".", "[ ]", "[~]", "[x]", "*", "-", "-", "..." },
	{ "█", "░", "○", "◐", "●", "✓", "·", "─", "…" },
};

static int started;
static int utf8;
static int mono;
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

const char *term_glyph(enum glyph g)
{
	return glyphs[utf8][g];
}

int term_interrupted(void)
{
	return interrupted != 0;
}

void term_end(void)
{
	if (!started)
		return;
	started = 0;
	endwin();
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: getch must return so the loop can leave cleanly */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void init_colors(void)
{
	mono = getenv("NO_COLOR") != NULL || !has_colors();
	if (mono)
		return;
	start_color();
	use_default_colors();
	for (int r = 0; r < UI_ROLE_COUNT; r++)
		init_pair((short)(r + 1), styles[r].fg, styles[r].bg);
}

int term_start(struct tui *t)
{
	const char *term = getenv("TERM");

	if (!isatty(0) || !isatty(1)) {
		fprintf(stderr, "cudalab: not a terminal; to read a lesson anyway use "
				"'cudalab read ID --plain'\n");
		return -1;
	}
	if (!term || !*term || strcmp(term, "dumb") == 0) {
		fprintf(stderr, "cudalab: TERM is %s, which cannot show the lab; use "
				"'cudalab read ID --plain'\n", term && *term ? term : "unset");
		return -1;
	}
	setlocale(LC_ALL, "");
	utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr, "cudalab: TERM=%s is unknown to terminfo; try TERM=xterm-256color "
				"or use 'cudalab read ID --plain'\n", term);
		return -1;
	}
	started = 1;
	atexit(term_end);
	install_signals();
	raw();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	mousemask(BUTTON4_PRESSED | BUTTON5_PRESSED | BUTTON1_CLICKED, NULL);
	init_colors();
	t->mono = mono;
	getmaxyx(stdscr, t->rows, t->cols);
	return 0;
}

attr_t term_attr(enum ui_role role)
{
	if (mono)
		return styles[role].mono_attr;
	return styles[role].attr | COLOR_PAIR(role + 1);
}

void term_role_on(enum ui_role role)
{
	attron(term_attr(role));
}

void term_role_off(enum ui_role role)
{
	attroff(term_attr(role));
}

int term_too_small(struct tui *t, int min_rows, int min_cols)
{
	const char *msg = t->cols >= 18 ? "terminal too small" : "too small";
	char need[64];

	if (t->rows >= min_rows && t->cols >= min_cols)
		return 0;
	erase();
	snprintf(need, sizeof need, "need %dx%d, have %dx%d", min_cols, min_rows, t->cols, t->rows);
	term_put(t->rows / 2 - (t->rows > 1), 0, msg, t->cols);
	if (t->rows > 1)
		term_put(t->rows / 2, 0, need, t->cols);
	refresh();
	return 1;
}

int term_put(int y, int x, const char *s, int width)
{
	mbstate_t ps;
	int used = 0;

	memset(&ps, 0, sizeof ps);
	move(y, x);
	while (*s && used < width) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, MB_CUR_MAX, &ps);
		int w;

		if (n == (size_t)-1 || n == (size_t)-2) {
			memset(&ps, 0, sizeof ps);
			wc = L'?';
			n = 1;
		}
		if (n == 0)
			break;
		w = wcwidth(wc);
		if (w < 0) {
			wc = L'?';
			w = 1;
		}
		if (used + w > width)
			break;
		addnwstr(&wc, 1);
		used += w;
		s += n;
	}
	return used;
}

int term_put_cut(int y, int x, const char *s, int width)
{
	const char *more = term_glyph(GLYPH_ELLIPSIS);
	int mw = tui_display_width(more);

	if (width <= mw || tui_display_width(s) <= width)
		return term_put(y, x, s, width);
	{
		int used = term_put(y, x, s, width - mw);

		return used + term_put(y, x + used, more, mw);
	}
}

/* The length in bytes of the longest start of s (of len bytes) that fits
 * in width columns, ending at a space when one is there to end at. */
static size_t fit(const char *s, size_t len, int width)
{
	size_t best = 0, space = 0;

	for (size_t i = 1; i <= len; i++) {
		if (i < len && ((unsigned char)s[i] & 0xC0) == 0x80)
			continue; /* inside a UTF-8 sequence */
		if (doc_text_width(s, i) > width)
			break;
		best = i;
		if (i < len && s[i] == ' ')
			space = i;
	}
	if (best == len)
		return len;
	return space ? space : best ? best : 1;
}

int term_put_wrapped(int y, int x0, const char *s, int width, int max)
{
	int indent = (int)strspn(s, " ") + 2;
	int rows = 0;

	if (indent > width / 2)
		indent = 0;
	while (rows < max) {
		int left = rows ? indent : 0;
		size_t len = strlen(s), n = fit(s, len, width - left);
		if (y >= 0) {
			char *piece = xstrndup(s, n);

			term_put(y + rows, x0 + left, piece, width - left);
			free(piece);
		}
		rows++;
		s += n;
		while (*s == ' ')
			s++;
		if (!*s)
			break;
	}
	return rows;
}

void term_fill_line(int y, enum ui_role role)
{
	int rows, cols;

	getmaxyx(stdscr, rows, cols);
	(void)rows;
	term_role_on(role);
	mvhline(y, 0, ' ', cols);
	term_role_off(role);
}
