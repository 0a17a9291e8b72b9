/* internal.h — what the files of src/doc share with each other and with no
 * one else.  Names here carry the doc_ prefix of the module; nothing outside
 * src/doc includes this file. */
#ifndef CUDALAB_DOC_INTERNAL_H
#define CUDALAB_DOC_INTERNAL_H

#include "cudalab/doc.h"

#include <stdint.h>

/* ---- styled text (text.c) ---- */

struct doc_style {
	unsigned char role;
	unsigned char attrs;
	int link;
};

enum { RUN_LINKNUM = 1 }; /* the [N] after a link text */

/* Runs cover the text end to end, in order, without gaps.  Offsets fit 32
 * bits: doc_parse refuses input that could grow past them. */
struct doc_run {
	uint32_t start, end;
	unsigned char role, attrs, flags;
	int link;
};

struct doc_text {
	char *s;
	size_t len, cap;
	struct doc_run *runs;
	size_t nruns, runcap;
};

void doc_text_free(struct doc_text *t);
/* Appends bytes as they are (the caller vouches for them). */
void doc_text_add(struct doc_text *t, const char *s, size_t n,
		  struct doc_style st, unsigned flags);
/* Appends untrusted bytes: invalid UTF-8 and control characters become
 * U+FFFD, CR is dropped, tabs become spaces, and newlines stay only when
 * keep_newlines is set (else they become spaces). */
void doc_text_add_clean(struct doc_text *t, const char *s, size_t n,
			struct doc_style st, bool keep_newlines);
/* Replaces the runs with one run of st over the whole text. */
void doc_text_restyle(struct doc_text *t, struct doc_style st);
/* Index of the run holding byte pos (pos < len), by binary search. */
size_t doc_text_run_at(const struct doc_text *t, size_t pos);

/* Decodes one character of s[0..len); invalid or truncated sequences give
 * U+FFFD and advance by one byte. */
uint32_t doc_utf8_decode(const char *s, size_t len, size_t *adv);
size_t doc_utf8_encode(uint32_t cp, char out[4]);

/* doc_utf8_decode with ASCII and the common two- and three-byte forms
 * (U+0080..U+07FF, U+1000..U+CFFF, which cannot be overlong or
 * surrogates) decoded in line. */
static inline uint32_t doc_decode(const char *s, size_t len, size_t *adv)
{
	const unsigned char *u = (const unsigned char *)s;

	if (u[0] < 0x80) {
		*adv = 1;
		return u[0];
	}
	if (u[0] >= 0xE1 && u[0] <= 0xEC && len >= 3 &&
	    (u[1] & 0xC0) == 0x80 && (u[2] & 0xC0) == 0x80) {
		*adv = 3;
		return ((uint32_t)(u[0] & 0x0F) << 12) |
		       ((uint32_t)(u[1] & 0x3F) << 6) | (u[2] & 0x3F);
	}
	if (u[0] >= 0xC2 && u[0] <= 0xDF && len >= 2 && (u[1] & 0xC0) == 0x80) {
		*adv = 2;
		return ((uint32_t)(u[0] & 0x1F) << 6) | (u[1] & 0x3F);
	}
	return doc_utf8_decode(s, len, adv);
}
int doc_cp_width(uint32_t cp);
uint32_t doc_cp_lower(uint32_t cp);
/* End of the character cluster at pos (a character with the zero-width
 * marks after it), its width in *w. */
size_t doc_cluster(const char *s, size_t pos, size_t end, int *w);

/* doc_cluster with the common case, a printable ASCII character not
 * followed by a combining mark, kept out of line. */
static inline size_t doc_next(const char *s, size_t pos, size_t end, int *w)
{
	unsigned char c = (unsigned char)s[pos];

	if (c >= 0x20 && c < 0x7F &&
	    (pos + 1 == end || (unsigned char)s[pos + 1] < 0x80)) {
		*w = 1;
		return pos + 1;
	}
	return doc_cluster(s, pos, end, w);
}

/* Decodes an HTML entity such as "&amp;" or "&#x41;" into out (NUL-ended);
 * returns its length, or 0 when the entity is unknown. */
size_t doc_entity_decode(const char *s, size_t n, char out[8]);

/* ---- syntax colouring (highlight.c) ---- */

/* Restyles a code block's text by the lexer for lang; unknown or NULL lang
 * leaves a single ROLE_CODE run. */
void doc_highlight(struct doc_text *t, const char *lang);

/* ---- the model (parse.c) ---- */

enum block_kind {
	BLOCK_PARA,
	BLOCK_HEADING,
	BLOCK_CODE,
	BLOCK_HTML,
	BLOCK_RULE,
	BLOCK_TABLE,
	BLOCK_QUIZ,
};

enum box_kind { BOX_QUOTE, BOX_LIST, BOX_ITEM };

/* A container: blocks do not nest, they name their innermost box, and
 * boxes name their parent. */
struct doc_box {
	enum box_kind kind;
	int parent;
	int depth; /* boxes above it */
	/* lists */
	bool ordered, tight, has_task;
	char delim;
	unsigned start;
	int nitems;
	int bullet_level; /* unordered lists above this one */
	/* items */
	int index;
	char task; /* 0, ' ' or 'x' */
	int first_block;
};

struct doc_cell {
	size_t start, end; /* in the table block's text */
};

struct doc_table {
	int ncols, nrows, nhead;
	unsigned char *align; /* per column: 0 left, 1 center, 2 right */
	struct doc_cell *cells; /* nrows * ncols */
};

struct doc_quiz_full {
	struct doc_quiz pub;
	char *question, *explanation;
	struct doc_quiz_choice *choices;
	/* the same texts with `code` styled, for layout */
	struct doc_text qtext, etext;
	struct doc_text *ctext;
};

struct doc_block {
	enum block_kind kind;
	int box;   /* innermost container, -1 at top level */
	bool gap;  /* a blank line separates it from the block before */
	int level; /* headings */
	char *lang;
	char *error; /* a malformed quiz, shown under its code */
	char *plain; /* heading text without link numbers */
	int quiz;
	struct doc_text text;
	struct doc_table *table;
};

struct doc {
	struct doc_block *blocks;
	size_t nblocks, bcap;
	struct doc_box *boxes;
	size_t nboxes, xcap;
	char **links;
	size_t nlinks, lcap;
	int *link_hash; /* open addressing over links, -1 empty */
	size_t hcap;
	struct doc_quiz_full *quizzes;
	size_t nquizzes, qcap;
};

/* The deepest box holding both boxes a and b (-1: the top level). */
int doc_common_box(const struct doc *doc, int a, int b);

/* ---- quizzes (quiz.c) ---- */

/* Parses a quiz block's source.  0 and *q filled, or -1 and *err set to a
 * message for the reader (free it). */
int doc_quiz_parse(const char *src, size_t len, struct doc_quiz_full *q,
		   char **err);
void doc_quiz_free(struct doc_quiz_full *q);

/* ---- wrapping (wrap.c) ---- */

struct doc_range {
	size_t start, end;
	bool cont; /* continues the source line of the one before */
};

struct doc_ranges {
	struct doc_range *v;
	size_t n, cap;
};

/* Breaks s[start,end) into lines of at most width columns: at spaces,
 * around wide characters, at newlines, and inside a word only when it is
 * wider than a line.  Spaces at a soft break are dropped.  Empty text gives
 * one empty line.  Appends to out. */
void doc_wrap_words(const char *s, size_t start, size_t end, int width,
		    struct doc_ranges *out);
/* Breaks s[start,end) at newlines and, when a line is too wide, at the
 * last character that fits; pieces after the first of a line have cont. */
void doc_wrap_chars(const char *s, size_t start, size_t end, int width,
		    struct doc_ranges *out);
/* Width of s[start,end) on one line, and of its widest word. */
int doc_range_width(const char *s, size_t start, size_t end, int *widest_word);

#endif
