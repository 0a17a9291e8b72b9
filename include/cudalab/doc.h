/* doc.h — lesson Markdown as a document model, wrapped into lines of styled
 * spans for a given width, and printed as plain or ANSI text.
 *
 *   Markdown --doc_parse--> struct doc (blocks of styled runs, links, quizzes)
 *            --doc_layout--> struct doc_layout (lines of spans, no wider than
 *                            the width) --> doc_render_plain / doc_render_ansi,
 *                            or a screen that paints the spans by role.
 *
 * Nothing here knows about terminals: spans carry a role and attribute flags,
 * and whoever draws them chooses the colours.  A layout points into the text
 * of its document, so the document must outlive every layout made from it. */
#ifndef CUDALAB_DOC_H
#define CUDALAB_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Layouts are never narrower than this; a smaller width is raised to it. */
#define DOC_MIN_WIDTH 20
#define DOC_MAX_WIDTH 1000

/* What a piece of text is; screens map roles to colours. */
enum doc_role {
	ROLE_TEXT,
	ROLE_H1,
	ROLE_H2,
	ROLE_H3,
	ROLE_H4, /* levels 4 to 6 */
	ROLE_EMPH,
	ROLE_STRONG,
	ROLE_STRIKE,
	ROLE_CODE,       /* inline code, and code-block text no lexer claimed */
	ROLE_CODE_FRAME, /* the box around a code block and its language */
	ROLE_LINK,       /* link text and its [N] */
	ROLE_IMAGE,
	ROLE_QUOTE,  /* quote bars and quoted text */
	ROLE_MARKER, /* bullets, item and choice numbers, task boxes, ↪ */
	ROLE_KEYWORD,
	ROLE_TYPE,
	ROLE_BUILTIN, /* threadIdx, __syncthreads, cudaMalloc, len, $VAR ... */
	ROLE_STRING,
	ROLE_COMMENT,
	ROLE_NUMBER,
	ROLE_PREPROC, /* #include, @decorator, a console prompt */
	ROLE_RULE,
	ROLE_TABLE, /* table borders */
	ROLE_TABLE_HEAD,
	ROLE_QUIZ,       /* quiz label, question and choices */
	ROLE_QUIZ_RIGHT, /* shown only once a quiz is answered */
	ROLE_QUIZ_WRONG,
	ROLE_HTML,  /* raw HTML, shown as written */
	ROLE_ERROR, /* notes about malformed content */
	ROLE__COUNT
};

/* Attribute flags of a span, combinable. */
enum {
	ATTR_BOLD = 1 << 0,
	ATTR_ITALIC = 1 << 1,
	ATTR_UNDERLINE = 1 << 2,
	ATTR_STRIKE = 1 << 3,
	ATTR_DIM = 1 << 4,
};

/* ---- the model ---- */

struct doc;

struct doc_quiz_choice {
	const char *text;
	bool correct;
};

/* A well-formed quiz block.  Texts are as written (backticks included);
 * explanation is "" when the block has none. */
struct doc_quiz {
	const char *question;
	const struct doc_quiz_choice *choices;
	int nchoices;
	const char *explanation;
	int block; /* the block it was written as */
};

/* Parses Markdown (GitHub flavour: tables, strikethrough, task lists,
 * autolinks; raw HTML kept as text).  Returns NULL only for input over
 * 512 MiB or when md4c gives up; malformed content is rendered with a
 * visible note instead. */
struct doc *doc_parse(const char *markdown, size_t len);
void doc_free(struct doc *doc);

/* Links are numbered in order of first appearance; one target used twice
 * keeps one number.  Link i is shown as [i+1].  Targets are kept as written
 * (lesson:ID and exercise:ID included). */
int doc_link_count(const struct doc *doc);
const char *doc_link_target(const struct doc *doc, int i);

/* Well-formed quizzes in document order; answers are stored by this index. */
int doc_quiz_count(const struct doc *doc);
const struct doc_quiz *doc_quiz_get(const struct doc *doc, int i);

/* Sets of choices are bit masks: bit c stands for choice c, so only the
 * first DOC_QUIZ_CHOICES choices of a quiz can be picked. */
#define DOC_QUIZ_CHOICES 64

/* The right choices of q as a set.  A quiz with more than one right choice
 * is answered with all of them ("choose all that apply"): an answer is
 * right only when it is exactly this set. */
uint64_t doc_quiz_right_set(const struct doc_quiz *q);
bool doc_quiz_is_multi(const struct doc_quiz *q);

int doc_block_count(const struct doc *doc);

/* Content problems found while parsing (a malformed quiz block), in
 * document order; each is shown in the layout too. */
int doc_problem_count(const struct doc *doc);
const char *doc_problem(const struct doc *doc, int i);

/* ---- the layout ---- */

/* A place in the document that survives relayout: a block and a position in
 * it (a byte offset in its text, or a row or element number; -1 is the blank
 * line before the block).  Line anchors never decrease down a layout. */
struct doc_anchor {
	int block;
	int offset;
};

/* A run of one style inside a line.  text is not NUL-terminated. */
struct doc_span {
	const char *text;
	int len;   /* bytes */
	int col;   /* first display column */
	int width; /* display columns */
	enum doc_role role;
	unsigned attrs; /* ATTR_* */
	int link;       /* link index, or -1 */
};

struct doc_line {
	const char *text; /* the whole line: its spans' text end to end */
	int len;
	int width; /* display columns, never more than the layout width */
	const struct doc_span *spans;
	int nspans;
	struct doc_anchor anchor;
	int quiz;   /* quiz index of a quiz line, else -1 */
	int choice; /* choice index on the lines of a choice, else -1 */
};

/* One piece of a link as laid out.  A link wrapped over lines has one piece
 * per line; every piece after the first has cont set, so cycling through
 * links means visiting the refs without cont. */
struct doc_link_ref {
	int link;
	int line, col, width;
	bool cont;
};

struct doc_heading {
	const char *text; /* plain text, without link numbers */
	int level;        /* 1..6 */
	int line;         /* first line of the heading */
};

struct doc_layout {
	const struct doc *doc;
	int width;
	const struct doc_line *lines;
	int nlines;
	const struct doc_link_ref *refs;
	int nrefs;
	const struct doc_heading *headings;
	int nheadings;
	void *priv; /* storage owned by the layout */
};

/* What a reader knows of one quiz, for its layout. */
struct doc_quiz_state {
	uint64_t picked;   /* ticked, not submitted yet (several right choices) */
	int answers;       /* answers submitted; 0: none, and nothing revealed */
	uint64_t first;    /* the first answer, the one that counts */
	bool first_right;
	uint64_t latest;   /* the latest answer; the first when only one */
	bool latest_right;
};

struct doc_layout_opts {
	int width;
	/* answers[q] is the choice picked for quiz q, or -1.  An answered quiz
	 * shows which choices are right and its explanation.  NULL: none.
	 * Ignored when quizzes is set. */
	const int *answers;
	int nanswers;
	/* quizzes[q], for nquizzes quizzes: what is ticked and answered.  A
	 * quiz with several right choices shows a box per choice, ticked or
	 * not; an answered one shows which choices are right, the wrong ones
	 * of the latest answer, its explanation, and the first and latest
	 * answers.  NULL: none. */
	const struct doc_quiz_state *quizzes;
	int nquizzes;
	/* Leave out the closing "Links" list of targets. */
	bool no_link_list;
};

/* Lays the document out at width columns (raised to DOC_MIN_WIDTH, capped at
 * DOC_MAX_WIDTH), with the list of link targets at the end and no quiz
 * answered.  No line is wider than the width.  Never returns NULL.
 * doc_layout_with takes the options (NULL: 80 columns, the defaults). */
struct doc_layout *doc_layout(const struct doc *doc, int width);
struct doc_layout *doc_layout_with(const struct doc *doc,
				   const struct doc_layout_opts *opts);
void doc_layout_free(struct doc_layout *layout);

/* The line that shows the anchor: the first line of those carrying the
 * greatest anchor not after it.  Use it to keep the reader's place across a
 * resize: doc_line_for_anchor(new, old->lines[top].anchor).  0 when the
 * anchor precedes every line or the layout is empty. */
int doc_line_for_anchor(const struct doc_layout *layout, struct doc_anchor a);

struct doc_match {
	int line;
	int col_start, col_end; /* display columns, end exclusive */
	/* A match that runs on over a wrapped line ends on end_line (line +
	 * 1), from end_col_start to col_end; otherwise end_line is line and
	 * end_col_start col_start. */
	int end_line, end_col_start;
};

/* Every non-overlapping, case-insensitive occurrence of needle, in reading
 * order: within a line, or over the break of a paragraph, heading or quiz
 * text wrapped onto the next line (the break and the next line's indent
 * read as one blank).  Returns the count and sets *out (free it) or NULL
 * when there is none; an empty needle matches nothing. */
int doc_search(const struct doc_layout *layout, const char *needle,
	       struct doc_match **out);

/* Write the layout, one line per text line.  The ANSI form has the same
 * visible text, with SGR sequences per role and attribute.  0 on success,
 * -1 on a write error. */
int doc_render_plain(const struct doc_layout *layout, FILE *f);
int doc_render_ansi(const struct doc_layout *layout, FILE *f);

/* Display columns of UTF-8 text, as the layout counts them: wide characters
 * 2, combining marks 0, invalid bytes 1 each. */
int doc_text_width(const char *s, size_t len);

/* A stable lower-case name for a role ("h1", "keyword", ...), e.g. for
 * colour schemes. */
const char *doc_role_name(enum doc_role role);

#endif
