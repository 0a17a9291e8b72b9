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
};

/* Decodes s into lower-cased characters with their columns. */
static void decode_lower(struct cps *c, const char *s, size_t len)
{
	size_t p = 0, adv;
	int col = 0;

	c->n = 0;
	while (p < len) {
		uint32_t cp = doc_decode(s + p, len - p, &adv);
		if (c->n + 1 > c->cap) {
			size_t cap = c->cap;
			xgrow((void **)&c->cp, &cap, c->n + 1, sizeof *c->cp);
			c->col = xrealloc(c->col, cap * sizeof *c->col);
			c->w = xrealloc(c->w, cap * sizeof *c->w);
			c->cap = cap;
		}
		c->cp[c->n] = doc_cp_lower(cp);
		c->col[c->n] = col;
		c->w[c->n] = doc_cp_width(cp);
		col += c->w[c->n++];
		p += adv;
	}
}

static void cps_free(struct cps *c)
{
	free(c->cp);
	free(c->col);
	free(c->w);
}

int doc_search(const struct doc_layout *layout, const char *needle,
	       struct doc_match **out)
{
	struct cps nd = {0}, ln = {0};
	struct doc_match *m = NULL;
	size_t nm = 0, cap = 0;

	*out = NULL;
	decode_lower(&nd, needle, strlen(needle));
	for (int i = 0; nd.n > 0 && i < layout->nlines; i++) {
		decode_lower(&ln, layout->lines[i].text, (size_t)layout->lines[i].len);
		for (size_t k = 0; k + nd.n <= ln.n;) {
			if (memcmp(ln.cp + k, nd.cp, nd.n * sizeof *nd.cp) != 0) {
				k++;
				continue;
			}
			xgrow((void **)&m, &cap, nm + 1, sizeof *m);
			m[nm++] = (struct doc_match){
				.line = i,
				.col_start = ln.col[k],
				.col_end = ln.col[k + nd.n - 1] + ln.w[k + nd.n - 1],
			};
			k += nd.n;
		}
	}
	cps_free(&nd);
	cps_free(&ln);
	*out = m;
	return (int)nm;
}
