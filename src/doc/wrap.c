/* wrap.c — breaking text into lines by display width.
 *
 * Both wrappers work on byte ranges of one text and only ever cut between
 * character clusters, so a UTF-8 sequence or a base character and its
 * combining marks stay together. */
#include "internal.h"

#include "cudalab/util.h"

#include <string.h>

static void push(struct doc_ranges *out, size_t s, size_t e, bool cont)
{
	xgrow((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v);
	out->v[out->n++] = (struct doc_range){.start = s, .end = e, .cont = cont};
}

/* End of the word at pos: up to a space or newline; a wide character is a
 * word of its own, since text written with them may break anywhere. */
static size_t word_end(const char *s, size_t pos, size_t end, int *ww)
{
	size_t p = pos, q;
	int w;

	*ww = 0;
	while (p < end && s[p] != ' ' && s[p] != '\n') {
		q = doc_next(s, p, end, &w);
		if (w >= 2) {
			if (p == pos) {
				*ww = w;
				return q;
			}
			break;
		}
		*ww += w;
		p = q;
	}
	return p;
}

struct wline {
	size_t start, end; /* end: after the last word placed */
	int col;
	bool soft; /* began at a soft break: leading spaces are dropped */
};

static void wline_break(struct doc_ranges *out, struct wline *l, size_t at)
{
	push(out, l->start, l->end, false);
	*l = (struct wline){.start = at, .end = at, .col = 0, .soft = true};
}

/* Places a word wider than what is left, cutting it between clusters. */
static void place_by_char(const char *s, size_t ws, size_t we, int sw,
			  int width, struct wline *l, struct doc_ranges *out)
{
	size_t p = ws, q;
	int w;

	if (l->col == 0)
		l->start = ws; /* leading spaces would only waste the line */
	else if (l->col + sw >= width)
		wline_break(out, l, ws);
	else
		l->col += sw;
	while (p < we) {
		q = doc_next(s, p, we, &w);
		if (l->col + w > width && l->col > 0) {
			l->end = p;
			wline_break(out, l, p);
		}
		l->col += w;
		p = q;
	}
	l->end = we;
}

void doc_wrap_words(const char *s, size_t start, size_t end, int width,
		    struct doc_ranges *out)
{
	struct wline l = {.start = start, .end = start};
	size_t pos = start, sp, ws, we;
	int sw, ww;

	if (start == end) {
		push(out, start, end, false);
		return;
	}
	while (pos < end) {
		if (s[pos] == '\n') {
			push(out, l.start, l.end, false);
			pos++;
			l = (struct wline){.start = pos, .end = pos};
			continue;
		}
		for (sp = pos; pos < end && s[pos] == ' '; pos++)
			;
		sw = (int)(pos - sp);
		if (pos == end || s[pos] == '\n')
			continue;
		ws = pos;
		we = word_end(s, ws, end, &ww);
		pos = we;
		if (l.col == 0 && l.soft) {
			sw = 0;
			l.start = ws;
		}
		if (l.col + sw + ww <= width) {
			l.col += sw + ww;
			l.end = we;
		} else if (ww <= width) {
			if (l.col > 0)
				wline_break(out, &l, ws);
			l.start = ws;
			l.col = ww;
			l.end = we;
		} else {
			place_by_char(s, ws, we, sw, width, &l, out);
		}
	}
	push(out, l.start, l.end, false);
}

/* Whether s[ls,le) is printable ASCII no wider than width, as most code
 * lines are: they need no measuring. */
static bool ascii_fits(const char *s, size_t ls, size_t le, int width)
{
	if (le - ls > (size_t)width)
		return false;
	for (size_t p = ls; p < le; p++)
		if ((unsigned char)s[p] < 0x20 || (unsigned char)s[p] >= 0x7F)
			return false;
	return true;
}

static void wrap_line_chars(const char *s, size_t ls, size_t le, int width,
			    struct doc_ranges *out)
{
	size_t p, q;
	int col = 0, w;
	bool cont = false;

	if (ascii_fits(s, ls, le, width)) {
		push(out, ls, le, false);
		return;
	}
	for (p = ls; p < le; p = q) {
		q = doc_next(s, p, le, &w);
		if (col + w > width && col > 0) {
			push(out, ls, p, cont);
			ls = p;
			col = 0;
			cont = true;
		}
		col += w;
	}
	push(out, ls, le, cont);
}

void doc_wrap_chars(const char *s, size_t start, size_t end, int width,
		    struct doc_ranges *out)
{
	size_t pos = start, le;
	const char *nl;

	for (;;) {
		nl = memchr(s + pos, '\n', end - pos);
		le = nl ? (size_t)(nl - s) : end;
		wrap_line_chars(s, pos, le, width, out);
		if (le == end)
			return;
		pos = le + 1;
	}
}

int doc_range_width(const char *s, size_t start, size_t end, int *widest_word)
{
	size_t p = start, q;
	int w, total = 0, word = 0;

	*widest_word = 0;
	while (p < end) {
		q = doc_next(s, p, end, &w);
		if (s[p] == ' ' || s[p] == '\n' || w >= 2)
			word = 0;
		if (s[p] != ' ' && s[p] != '\n')
			word += w;
		if (word > *widest_word)
			*widest_word = word;
		if (w >= 2)
			word = 0;
		total += w;
		p = q;
	}
	return total;
}
