/* tui.c — the event loop: one current screen, a history of locations for
 * back and forward, and the helpers the screens share. */
#include "tui_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wchar.h>

#include "cudalab/util.h"

#define HISTORY_MAX 64

struct history {
	struct location loc[HISTORY_MAX];
	int n, at; /* entries, index of the current one */
};

void tui_flash(struct tui *t, const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	sb_init(&sb);
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	free(t->flash);
	t->flash = sb_steal(&sb);
}

void tui_go(struct tui *t, const struct screen *s, const char *arg)
{
	free(t->next.arg);
	t->next.screen = s;
	t->next.arg = arg ? xstrdup(arg) : NULL;
}

void tui_status(struct tui *t, const char *hint)
{
	int y = t->rows - 1;

	term_fill_line(y, t->flash ? UI_WARN : UI_STATUS);
	if (t->flash) {
		term_role_on(UI_STATUS);
		term_put(y, 1, t->flash, t->cols - 2);
		term_role_off(UI_STATUS);
		free(t->flash);
		t->flash = NULL;
		return;
	}
	term_role_on(UI_STATUS);
	term_put(y, 1, hint, t->cols - 2);
	term_role_off(UI_STATUS);
}

int tui_display_width(const char *s)
{
	mbstate_t ps;
	int w = 0;

	memset(&ps, 0, sizeof ps);
	while (*s) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, MB_CUR_MAX, &ps);
		int cw;

		if (n == (size_t)-1 || n == (size_t)-2) {
			memset(&ps, 0, sizeof ps);
			n = 1;
			wc = L'?';
		}
		if (n == 0)
			break;
		cw = wcwidth(wc);
		w += cw > 0 ? cw : 0;
		s += n;
	}
	return w;
}

/* Starts the opener detached from the terminal; never through a shell. */
static int spawn_quiet(const char *prog, const char *url)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		setsid();
		execlp(prog, prog, url, (char *)NULL);
		_exit(127);
	}
	/* xdg-open returns quickly; a browser started directly is not waited for */
	for (int i = 0; i < 20; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? -1 : 0;
		if (r < 0 && errno != EINTR)
			return -1;
		napms(25);
	}
	return 0;
}

int tui_open_url(struct tui *t, const char *url)
{
	const char *browser = getenv("BROWSER");

	(void)t;
	if (browser && *browser && spawn_quiet(browser, url) == 0)
		return 0;
	return spawn_quiet("xdg-open", url);
}

void tui_help(struct tui *t, const char *title, const char *const *lines)
{
	int ch;

	do {
		erase();
		term_fill_line(0, UI_TITLE);
		term_role_on(UI_TITLE);
		term_put(0, 1, title, t->cols - 2);
		term_role_off(UI_TITLE);
		for (int i = 0; lines[i] && i + 2 < t->rows - 1; i++)
			term_put(i + 2, 2, lines[i], t->cols - 3);
		tui_status(t, "press any key to go back");
		refresh();
		ch = getch();
		if (ch == KEY_RESIZE)
			getmaxyx(stdscr, t->rows, t->cols);
	} while ((ch == KEY_RESIZE || ch == ERR) && !term_interrupted());
}

static void location_free(struct location *l)
{
	free(l->arg);
	l->arg = NULL;
	l->screen = NULL;
}

/* Makes loc the current entry, dropping any forward entries. */
static void history_push(struct history *h, struct location loc)
{
	for (int i = h->at + 1; i < h->n; i++)
		location_free(&h->loc[i]);
	h->n = h->at + 1;
	if (h->n == HISTORY_MAX) {
		location_free(&h->loc[0]);
		memmove(&h->loc[0], &h->loc[1], sizeof h->loc[0] * (HISTORY_MAX - 1));
		h->n--;
	}
	h->loc[h->n] = loc;
	h->at = h->n++;
}

static void history_free(struct history *h)
{
	for (int i = 0; i < h->n; i++)
		location_free(&h->loc[i]);
	h->n = 0;
}

/* Opens the screen for the current history entry; on failure steps back. */
static void *open_current(struct tui *t, struct history *h)
{
	void *state;

	while (!(state = h->loc[h->at].screen->enter(t, h->loc[h->at].arg))) {
		if (h->at == 0)
			return NULL;
		for (int i = h->at; i < h->n; i++)
			location_free(&h->loc[i]);
		h->n = h->at;
		h->at--;
	}
	return state;
}

int tui_main(const struct tui_config *cfg)
{
	struct tui t;
	struct history h;
	const struct screen *cur;
	void *state;
	int flags = TUI_REDRAW;

	memset(&t, 0, sizeof t);
	memset(&h, 0, sizeof h);
	t.cfg = cfg;
	if (term_start(&t) != 0)
		return 2;
	if (cfg->warning)
		tui_flash(&t, "%s", cfg->warning);
	history_push(&h, (struct location){ &home_screen, NULL });
	if (cfg->start && str_starts(cfg->start, "exercise:"))
		history_push(&h, (struct location){ &exercise_screen,
						    xstrdup(cfg->start + strlen("exercise:")) });
	else if (cfg->start)
		history_push(&h, (struct location){ &reader_screen, xstrdup(cfg->start) });
	state = open_current(&t, &h);
	cur = h.loc[h.at].screen;
	while (state && !term_interrupted()) {
		int ch;

		if (flags & TUI_REDRAW)
			cur->draw(&t, state);
		ch = getch();
		if (ch == ERR)
			continue;
		if (ch == KEY_RESIZE) {
			getmaxyx(stdscr, t.rows, t.cols);
			if (cur->resize)
				cur->resize(&t, state);
			flags = TUI_REDRAW;
			continue;
		}
		flags = cur->key(&t, state, ch);
		if (flags & TUI_QUIT)
			break;
		if ((flags & TUI_FORWARD) && h.at + 1 >= h.n) {
			tui_flash(&t, "nothing to go forward to");
			flags = TUI_REDRAW;
		}
		if (flags & (TUI_BACK | TUI_FORWARD | TUI_NAVIGATE)) {
			cur->leave(&t, state);
			if ((flags & TUI_NAVIGATE) && t.next.screen) {
				history_push(&h, t.next);
				t.next.screen = NULL;
				t.next.arg = NULL;
			} else if (flags & TUI_FORWARD) {
				h.at++;
			} else {
				if (h.at == 0)
					break;
				h.at--;
			}
			state = open_current(&t, &h);
			cur = state ? h.loc[h.at].screen : NULL;
			flags = TUI_REDRAW;
		}
	}
	if (state && cur)
		cur->leave(&t, state);
	term_end();
	history_free(&h);
	free(t.flash);
	free(t.next.arg);
	return 0;
}
