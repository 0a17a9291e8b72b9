/* render.c — printing a layout (plain or with ANSI styles), searching it,
 * and the names of roles. */
#include "internal.h"

#include "cudalab/util.h"

#include <stdlib.h>
#include <string.h>

static const char *const role_names[ROLE__COUNT] = {
	[ROLE_TEXT] = "text",	      [ROLE_H1] = "h1",
	[ROLE_H2] = "h2",	      [ROLE_H3] = "h3",
	[ROLE_H4] = "h4",	      [ROLE_EMPH] = "emph",
	[ROLE_STRONG] = "strong",     [ROLE_STRIKE] = "strike",
	[ROLE_CODE] = "code",	      [ROLE_CODE_FRAME] = "code-frame",
	[ROLE_LINK] = "link",	      [ROLE_IMAGE] = "image",
	[ROLE_QUOTE] = "quote",	      [ROLE_MARKER] = "marker",
	[ROLE_KEYWORD] = "keyword",   [ROLE_TYPE] = "type",
	[ROLE_BUILTIN] = "builtin",   [ROLE_STRING] = "string",
	[ROLE_COMMENT] = "comment",   [ROLE_NUMBER] = "number",
	[ROLE_PREPROC] = "preproc",   [ROLE_RULE] = "rule",
	[ROLE_TABLE] = "table",	      [ROLE_TABLE_HEAD] = "table-head",
	[ROLE_QUIZ] = "quiz",	      [ROLE_QUIZ_RIGHT] = "quiz-right",
	[ROLE_QUIZ_WRONG] = "quiz-wrong", [ROLE_HTML] = "html",
	[ROLE_ERROR] = "error",
};

const char *doc_role_name(enum doc_role role)
{
	return role >= 0 && role < ROLE__COUNT ? role_names[role] : "text";
}

/* SGR colour parameters per role for doc_render_ansi ("" = default). */
static const char *const role_sgr[ROLE__COUNT] = {
	[ROLE_TEXT] = "",	  [ROLE_H1] = "35",	    [ROLE_H2] = "36",
	[ROLE_H3] = "34",	  [ROLE_H4] = "34",	    [ROLE_EMPH] = "",
	[ROLE_STRONG] = "",	  [ROLE_STRIKE] = "",	    [ROLE_CODE] = "33",
	[ROLE_CODE_FRAME] = "90", [ROLE_LINK] = "34",	    [ROLE_IMAGE] = "35",
	[ROLE_QUOTE] = "90",	  [ROLE_MARKER] = "36",	    [ROLE_KEYWORD] = "35",
	[ROLE_TYPE] = "36",	  [ROLE_BUILTIN] = "94",    [ROLE_STRING] = "32",
	[ROLE_COMMENT] = "90",	  [ROLE_NUMBER] = "31",	    [ROLE_PREPROC] = "95",
	[ROLE_RULE] = "90",	  [ROLE_TABLE] = "90",	    [ROLE_TABLE_HEAD] = "",
	[ROLE_QUIZ] = "33",	  [ROLE_QUIZ_RIGHT] = "32", [ROLE_QUIZ_WRONG] = "31",
	[ROLE_HTML] = "90",	  [ROLE_ERROR] = "31",
};

int doc_render_plain(const struct doc_layout *layout, FILE *f)
{
	for (int i = 0; i < layout->nlines; i++) {
		const struct doc_line *ln = &layout->lines[i];
		fwrite(ln->text, 1, (size_t)ln->len, f);
		putc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

/* Writes the SGR sequence for a style, starting from a reset. */
static void put_sgr(FILE *f, enum doc_role role, unsigned attrs)
{
	const char *colour = role >= 0 && role < ROLE__COUNT && role_sgr[role] ? role_sgr[role] : "";

	fputs("\033[0", f);
	if (attrs & ATTR_BOLD)
		fputs(";1", f);
	if (attrs & ATTR_DIM)
		fputs(";2", f);
	if (attrs & ATTR_ITALIC)
		fputs(";3", f);
	if (attrs & ATTR_UNDERLINE)
		fputs(";4", f);
	if (attrs & ATTR_STRIKE)
		fputs(";9", f);
	if (*colour)
		fprintf(f, ";%s", colour);
	putc('m', f);
}

static bool plain_style(enum doc_role role, unsigned attrs)
{
	return attrs == 0 && (role < 0 || role >= ROLE__COUNT || !role_sgr[role] || !*role_sgr[role]);
}

int doc_render_ansi(const struct doc_layout *layout, FILE *f)
{
	for (int i = 0; i < layout->nlines; i++) {
		const struct doc_line *ln = &layout->lines[i];
		bool styled = false;
		enum doc_role role = ROLE_TEXT;
		unsigned attrs = 0;
		for (int k = 0; k < ln->nspans; k++) {
			const struct doc_span *sp = &ln->spans[k];
			bool plain = plain_style(sp->role, sp->attrs);
			if (plain && styled) {
				fputs("\033[0m", f);
				styled = false;
			} else if (!plain && (!styled || sp->role != role || sp->attrs != attrs)) {
				put_sgr(f, sp->role, sp->attrs);
				styled = true;
			}
			role = sp->role;
			attrs = sp->attrs;
			fwrite(sp->text, 1, (size_t)sp->len, f);
		}
		if (styled)
			fputs("\033[0m", f);
		putc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

/* ---- search ---- */

struct cps {
	uint32_t *cp;
	int *col, *w;
	size_t n, cap;
	size_t first;   /* characters of the first line, when two are joined */
	size_t skipped; /* blanks left out at the second line's start */
};

static void cps_push(struct cps *c, uint32_t cp, int col, int w)
{
	if (c->n + 1 > c->cap) {
		size_t cap = c->cap;

		xgrow((void **)&c->cp, &cap, c->n + 1, sizeof *c->cp);
		c->col = xrealloc(c->col, cap * sizeof *c->col);
		c->w = xrealloc(c->w, cap * sizeof *c->w);
		c->cap = cap;
	}
	c->cp[c->n] = cp;
	c->col[c->n] = col;
	c->w[c->n++] = w;
}

/* Appends s, lower-cased, with the columns of its characters; with trim,
 * without the blanks at its start. */
static void decode_lower(struct cps *c, const char *s, size_t len, bool trim)
{
	size_t p = 0, adv;
	int col = 0;

	while (p < len) {
		uint32_t cp = doc_decode(s + p, len - p, &adv);
		int w = doc_cp_width(cp);

		if (trim && cp == ' ' && c->n == c->first)
			c->skipped++;
		else
			cps_push(c, doc_cp_lower(cp), col, w);
		col += w;
		p += adv;
	}
}

static void cps_free(struct cps *c)
{
	free(c->cp);
	free(c->col);
	free(c->w);
}

/* Whether line i + 1 goes on with the text of line i, wrapped: the same
 * paragraph, heading, or part of a quiz (its question, a choice, its
 * explanation).  Code, tables and the like break where their text does. */
static bool wraps_on(const struct doc_layout *l, int i)
{
	const struct doc_line *a = &l->lines[i], *b = &l->lines[i + 1];
	const struct doc_block *blk;

	if (i + 1 >= l->nlines || a->anchor.block != b->anchor.block || a->anchor.block < 0 ||
	    (size_t)a->anchor.block >= l->doc->nblocks)
		return false;
	blk = &l->doc->blocks[a->anchor.block];
	if (blk->kind == BLOCK_QUIZ)
		return a->anchor.offset == b->anchor.offset;
	return blk->kind == BLOCK_PARA || blk->kind == BLOCK_HEADING;
}

/* Line i's characters, and those of line i + 1 after one blank when it
 * goes on with line i's text. */
static void line_chars(const struct doc_layout *l, int i, struct cps *c)
{
	c->n = c->first = c->skipped = 0;
	decode_lower(c, l->lines[i].text, (size_t)l->lines[i].len, false);
	while (c->n > 0 && c->cp[c->n - 1] == ' ')
		c->n--;
	c->first = c->n;
	if (i + 1 < l->nlines && wraps_on(l, i)) {
		cps_push(c, ' ', c->n ? c->col[c->n - 1] + c->w[c->n - 1] : 0, 0);
		c->first = c->n;
		decode_lower(c, l->lines[i + 1].text, (size_t)l->lines[i + 1].len, true);
		c->first--; /* the joining blank belongs to line i */
	}
}

int doc_search(const struct doc_layout *layout, const char *needle,
	       struct doc_match **out)
{
	struct cps nd = {0}, ln = {0};
	struct doc_match *m = NULL;
	size_t nm = 0, cap = 0, from = 0;

	*out = NULL;
	decode_lower(&nd, needle, strlen(needle), false);
	for (int i = 0; nd.n > 0 && i < layout->nlines; i++) {
		size_t k = from;

		line_chars(layout, i, &ln);
		from = 0;
		/* a match starts on line i; it may end on the next */
		for (; k + nd.n <= ln.n && k <= ln.first; k++) {
			size_t e = k + nd.n - 1;

			if (memcmp(ln.cp + k, nd.cp, nd.n * sizeof *nd.cp) != 0)
				continue;
			xgrow((void **)&m, &cap, nm + 1, sizeof *m);
			m[nm++] = (struct doc_match){
				.line = i,
				.col_start = ln.col[k],
				.col_end = ln.col[e] + ln.w[e],
				.end_line = e > ln.first ? i + 1 : i,
				.end_col_start = e > ln.first ? ln.col[ln.first + 1] : ln.col[k],
			};
			if (e > ln.first) {
				/* line i + 1 is searched on from after it */
				from = e - ln.first + ln.skipped;
				break;
			}
			k = e;
		}
	}
	cps_free(&nd);
	cps_free(&ln);
	*out = m;
	return (int)nm;
}
