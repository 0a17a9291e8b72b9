/* layout.c — the document model laid out into lines of styled spans.
 *
 * Every line is built left to right into one text arena: first the prefix
 * of the containers around the block (quote bars, list markers or their
 * hanging indent), then the block's own content.  Lines never end in
 * spaces and are never wider than the layout width; each records an anchor
 * (block, offset) so a reader can find the same place at another width. */
#include "internal.h"

#include "cudalab/util.h"

#include <stdlib.h>
#include <string.h>

/* Content keeps at least this many columns however deep the nesting. */
#define MIN_CONTENT 10

static const char *const bullets[] = {"•", "◦", "‣"};
/* headings from level 3 on: a mark of their own per level */
static const char *const heading_marks[] = {"▸ ", "▹ ", "› ", "· "};

struct line_rec {
	size_t off, len;
	size_t first_span, nspans;
	int width;
	struct doc_anchor anchor;
	int quiz, choice;
};

/* A first-line prefix and the hanging indent under it, of equal width. */
struct indent {
	const char *first, *rest;
	int width;
	unsigned char role, attrs;
};

/* The layout being built. */
struct lb {
	const struct doc *doc;
	const struct doc_layout_opts *opts;
	int W; /* the layout width */
	struct strbuf arena;
	struct doc_span *spans; /* text is set when the arena is final */
	size_t *span_off;       /* where each span's text starts in the arena */
	size_t nspans, scap;
	struct line_rec *lines;
	size_t nlines, lcap;
	struct doc_link_ref *refs;
	size_t nrefs, rcap;
	struct doc_heading *heads;
	size_t nheads, hcap;
	int col;       /* display column on the open line */
	int last_link; /* link of the last content put, for doc_link_ref.cont */
	/* the block being laid out */
	int block;
	int *chain; /* its containers, outermost first */
	size_t nchain, ccap;
	int cw; /* content width inside them */
	bool first_pending;
	int quiz, choice;
	struct doc_ranges ranges; /* scratch for wrapped lines */
	const struct doc_text *run_text; /* the text last put, and the run */
	size_t run_index;                /* its last piece came from */
	struct doc_ranges *cellr; /* scratch for table cells */
	int *colw, *nat, *minw, *cell_link;
	size_t ncell;
};

/* ---- building lines ---- */

static void lb_line_open(struct lb *lb, struct doc_anchor a)
{
	xgrow((void **)&lb->lines, &lb->lcap, lb->nlines + 1, sizeof *lb->lines);
	lb->lines[lb->nlines++] = (struct line_rec){
		.off = lb->arena.len,
		.first_span = lb->nspans,
		.anchor = a,
		.quiz = lb->quiz,
		.choice = lb->choice,
	};
	lb->col = 0;
}

static void add_ref(struct lb *lb, int link, int w)
{
	struct doc_link_ref *last = lb->nrefs ? &lb->refs[lb->nrefs - 1] : NULL;
	int line = (int)lb->nlines - 1;

	if (last && last->link == link && last->line == line &&
	    last->col + last->width == lb->col) {
		last->width += w;
		return;
	}
	xgrow((void **)&lb->refs, &lb->rcap, lb->nrefs + 1, sizeof *lb->refs);
	lb->refs[lb->nrefs++] = (struct doc_link_ref){
		.link = link,
		.line = line,
		.col = lb->col,
		.width = w,
		.cont = lb->last_link == link,
	};
}

static struct doc_span *new_span(struct lb *lb)
{
	if (lb->nspans == lb->scap) {
		xgrow((void **)&lb->spans, &lb->scap, lb->nspans + 1, sizeof *lb->spans);
		lb->span_off = xrealloc(lb->span_off, lb->scap * sizeof *lb->span_off);
	}
	lb->span_off[lb->nspans] = lb->arena.len;
	return &lb->spans[lb->nspans++];
}

static void lb_put(struct lb *lb, const char *s, size_t n, int w, int role,
		   unsigned attrs, int link)
{
	const struct line_rec *ln = &lb->lines[lb->nlines - 1];
	struct doc_span *last = lb->nspans > ln->first_span ? &lb->spans[lb->nspans - 1] : NULL;

	if (n == 0)
		return;
	if (last && last->role == (enum doc_role)role && last->attrs == attrs &&
	    last->link == link) {
		last->len += (int)n;
		last->width += w;
	} else {
		*new_span(lb) = (struct doc_span){
			.len = (int)n,
			.col = lb->col,
			.width = w,
			.role = (enum doc_role)role,
			.attrs = attrs,
			.link = link,
		};
	}
	sb_append(&lb->arena, s, n);
	if (link >= 0)
		add_ref(lb, link, w);
	lb->col += w;
}

static void lb_put_str(struct lb *lb, const char *s, int role, unsigned attrs)
{
	size_t n = strlen(s);

	lb_put(lb, s, n, doc_text_width(s, n), role, attrs, -1);
}

static void lb_put_repeat(struct lb *lb, const char *unit, int count, int role)
{
	size_t n = strlen(unit), k;
	int w = doc_text_width(unit, n);
	char buf[240];

	while (count > 0) {
		for (k = 0; k < (size_t)count && (k + 1) * n <= sizeof buf; k++)
			memcpy(buf + k * n, unit, n);
		lb_put(lb, buf, k * n, (int)k * w, role, 0, -1);
		count -= (int)k;
	}
}

static void lb_put_spaces(struct lb *lb, int count)
{
	lb_put_repeat(lb, " ", count, ROLE_TEXT);
}

/* The run holding byte s of t: usually the one the last put ended in or
 * just after it, as lines are put in order. */
static size_t run_for(struct lb *lb, const struct doc_text *t, size_t s)
{
	size_t r = lb->run_index;

	if (t == lb->run_text && r < t->nruns && t->runs[r].start <= s) {
		for (int step = 0; step < 8; step++, r++)
			if (r + 1 == t->nruns || t->runs[r + 1].start > s)
				return r;
	}
	return doc_text_run_at(t, s);
}

/* Puts t[s,e) as content, one span per run it crosses. */
static void lb_put_range(struct lb *lb, const struct doc_text *t, size_t s, size_t e)
{
	size_t r;

	if (s >= e)
		return;
	for (r = run_for(lb, t, s); s < e && r < t->nruns; r++) {
		const struct doc_run *run = &t->runs[r];
		size_t to = run->end < e ? run->end : e;
		if (to <= s)
			continue;
		lb_put(lb, t->s + s, to - s, doc_text_width(t->s + s, to - s),
		       run->role, run->attrs, run->link);
		lb->last_link = run->link;
		lb->run_text = t;
		lb->run_index = r;
		s = to;
	}
}

/* Drops trailing spaces (and any link piece they end) and seals the line. */
static void lb_line_end(struct lb *lb)
{
	struct line_rec *ln = &lb->lines[lb->nlines - 1];
	int line = (int)lb->nlines - 1;

	while (lb->nspans > ln->first_span) {
		struct doc_span *sp = &lb->spans[lb->nspans - 1];
		size_t off = lb->span_off[lb->nspans - 1];
		while (sp->len > 0 && lb->arena.s[off + (size_t)sp->len - 1] == ' ') {
			sp->len--;
			sp->width--;
		}
		if (sp->len > 0)
			break;
		lb->nspans--;
	}
	if (lb->nspans > ln->first_span) {
		const struct doc_span *sp = &lb->spans[lb->nspans - 1];
		lb->arena.len = lb->span_off[lb->nspans - 1] + (size_t)sp->len;
		ln->width = sp->col + sp->width;
	} else {
		lb->arena.len = ln->off;
		ln->width = 0;
	}
	for (size_t i = lb->nrefs; i > 0 && lb->refs[i - 1].line == line; i--) {
		struct doc_link_ref *r = &lb->refs[i - 1];
		if (r->col + r->width > ln->width)
			r->width = ln->width > r->col ? ln->width - r->col : 0;
	}
	ln->len = lb->arena.len - ln->off;
	ln->nspans = lb->nspans - ln->first_span;
}

/* ---- container prefixes ---- */

static int digits(unsigned long long v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static unsigned long long last_number(const struct doc_box *list)
{
	return (unsigned long long)list->start + (unsigned)(list->nitems ? list->nitems - 1 : 0);
}

/* Columns a list gives its items: the widest marker and a space. */
static int marker_width(const struct doc_box *list)
{
	if (!list->ordered)
		return list->has_task ? 4 : 2;
	return digits(last_number(list)) + 2 + (list->has_task ? 4 : 0);
}

static int piece_width(const struct doc *doc, const struct doc_box *box)
{
	if (box->kind == BOX_QUOTE)
		return 2;
	if (box->kind == BOX_ITEM && box->parent >= 0)
		return marker_width(&doc->boxes[box->parent]);
	return 0;
}

static void put_marker(struct lb *lb, const struct doc_box *item,
		       const struct doc_box *list)
{
	char buf[64];
	int n;

	if (!list->ordered && item->task)
		n = snprintf(buf, sizeof buf, "[%c]", item->task);
	else if (!list->ordered)
		n = snprintf(buf, sizeof buf, "%s", bullets[list->bullet_level % 3]);
	else
		n = snprintf(buf, sizeof buf, "%*llu%c%s", digits(last_number(list)),
			     (unsigned long long)list->start + (unsigned)item->index,
			     list->delim ? list->delim : '.',
			     item->task == ' '   ? " [ ]"
			     : item->task == 'x' ? " [x]"
						 : "");
	lb_put(lb, buf, (size_t)n, doc_text_width(buf, (size_t)n), ROLE_MARKER,
	       item->task == 'x' ? ATTR_BOLD : 0, -1);
	lb_put_spaces(lb, marker_width(list) - doc_text_width(buf, (size_t)n));
}

/* The prefix of the first count visible containers; first: the block's
 * first line, where a list item starting with it shows its marker. */
static void put_prefix(struct lb *lb, size_t count, bool first)
{
	const struct doc *doc = lb->doc;

	for (size_t i = 0; i < count && i < lb->nchain; i++) {
		const struct doc_box *box = &doc->boxes[lb->chain[i]];
		if (box->kind == BOX_QUOTE)
			lb_put_str(lb, "│ ", ROLE_QUOTE, 0);
		else if (box->kind == BOX_ITEM && box->parent < 0)
			continue;
		else if (box->kind == BOX_ITEM && first && box->first_block == lb->block)
			put_marker(lb, box, &doc->boxes[box->parent]);
		else if (box->kind == BOX_ITEM)
			lb_put_spaces(lb, piece_width(doc, box));
	}
}

static void lb_line_begin(struct lb *lb, int offset)
{
	lb_line_open(lb, (struct doc_anchor){lb->block, offset});
	put_prefix(lb, lb->nchain, lb->first_pending);
	lb->first_pending = false;
}

/* Collects the containers of block b, outermost first, as many as leave
 * MIN_CONTENT columns, and the content width they leave. */
static void block_context(struct lb *lb, int b)
{
	const struct doc *doc = lb->doc;
	int box = b < (int)doc->nblocks ? doc->blocks[b].box : -1;
	size_t depth = box >= 0 ? (size_t)doc->boxes[box].depth + 1 : 0;
	int used = 0;
	size_t vis = 0;

	xgrow((void **)&lb->chain, &lb->ccap, depth + 1, sizeof *lb->chain);
	for (size_t i = depth; i > 0; i--, box = doc->boxes[box].parent)
		lb->chain[i - 1] = box;
	for (; vis < depth; vis++) {
		int w = piece_width(doc, &doc->boxes[lb->chain[vis]]);
		if (used + w > lb->W - MIN_CONTENT)
			break;
		used += w;
	}
	lb->nchain = vis;
	lb->cw = lb->W - used;
	lb->block = b;
	lb->first_pending = true;
	lb->last_link = -1;
}

/* The blank line before block b: only the containers it shares with the
 * block before it show (a quote bar runs on through its own gaps).  The
 * chain holds one box per depth, so the shared ones are those down to the
 * depth of the deepest common box. */
static void gap_line(struct lb *lb, int prev_box)
{
	const struct doc *doc = lb->doc;
	int inner = lb->nchain ? lb->chain[lb->nchain - 1] : -1;
	int common = doc_common_box(doc, prev_box, inner);
	size_t shared = common >= 0 ? (size_t)doc->boxes[common].depth + 1 : 0;

	lb_line_open(lb, (struct doc_anchor){lb->block, -1});
	put_prefix(lb, shared, false);
	lb_line_end(lb);
}

/* ---- wrapped text ---- */

/* Wraps t[s,e) into the content width less the indent; each line starts
 * with in->first or in->rest (of equal width).  fixed >= 0 gives every line
 * that anchor offset, otherwise a line's anchor is its byte offset. */
static void lb_put_wrapped(struct lb *lb, const struct doc_text *t, size_t s,
			   size_t e, const struct indent *in, int fixed)
{
	int iw = in ? in->width : 0;
	size_t first = lb->ranges.n;

	doc_wrap_words(t->s, s, e, lb->cw - iw, &lb->ranges);
	for (size_t i = first; i < lb->ranges.n; i++) {
		struct doc_range r = lb->ranges.v[i];
		lb_line_begin(lb, fixed >= 0 ? fixed : (int)r.start);
		if (in)
			lb_put_str(lb, i == first ? in->first : in->rest, in->role, in->attrs);
		lb_put_range(lb, t, r.start, r.end);
		lb_line_end(lb);
	}
	lb->ranges.n = first;
}

/* Wraps a string of one style, e.g. a note or a link target. */
static void lb_put_note(struct lb *lb, const char *s, int role, unsigned attrs,
			const struct indent *in, int fixed)
{
	struct doc_text t = {0};
	struct doc_style st = {.role = (unsigned char)role,
			       .attrs = (unsigned char)attrs, .link = -1};

	doc_text_add(&t, s, strlen(s), st, 0);
	lb_put_wrapped(lb, &t, 0, t.len, in, fixed);
	doc_text_free(&t);
}

/* ---- blocks ---- */

static int max_width_since(const struct lb *lb, size_t from)
{
	int w = 0;

	for (size_t i = from; i < lb->nlines; i++)
		if (lb->lines[i].width > w)
			w = lb->lines[i].width;
	return w;
}

static void layout_heading(struct lb *lb, const struct doc_block *b)
{
	int role = b->level >= 4 ? ROLE_H4 : ROLE_H1 + b->level - 1, w;
	size_t from = lb->nlines;
	struct indent in = {.first = heading_marks[b->level >= 3 ? (b->level - 3) & 3 : 0],
			    .rest = "  ", .width = 2, .role = (unsigned char)role,
			    .attrs = ATTR_BOLD};

	xgrow((void **)&lb->heads, &lb->hcap, lb->nheads + 1, sizeof *lb->heads);
	lb->heads[lb->nheads++] = (struct doc_heading){
		.text = b->plain ? b->plain : "", .level = b->level, .line = (int)from};
	if (b->level >= 3) {
		lb_put_wrapped(lb, &b->text, 0, b->text.len, &in, -1);
		return;
	}
	/* levels 1 and 2 are underlined as wide as their text */
	lb_put_wrapped(lb, &b->text, 0, b->text.len, NULL, -1);
	w = max_width_since(lb, from) - (lb->W - lb->cw);
	lb_line_begin(lb, (int)b->text.len);
	lb_put_repeat(lb, b->level == 1 ? "═" : "─", w, role);
	lb_line_end(lb);
}

/* Puts s cut to at most maxw columns, with "…" when cut. */
static void put_clipped(struct lb *lb, const char *s, int maxw, int role)
{
	size_t n = strlen(s), p = 0, q;
	int w, used = 0;

	if (doc_text_width(s, n) <= maxw) {
		lb_put_str(lb, s, role, 0);
		return;
	}
	while (p < n && (q = doc_cluster(s, p, n, &w), used + w <= maxw - 1)) {
		used += w;
		p = q;
	}
	lb_put(lb, s, p, used, role, 0, -1);
	lb_put_str(lb, "…", role, 0);
}

static void code_top(struct lb *lb, const char *label)
{
	lb_line_begin(lb, 0);
	if (!label || !*label) {
		lb_put_str(lb, "┌", ROLE_CODE_FRAME, 0);
		lb_put_repeat(lb, "─", lb->cw - 1, ROLE_CODE_FRAME);
	} else {
		lb_put_str(lb, "┌─ ", ROLE_CODE_FRAME, 0);
		put_clipped(lb, label, lb->cw - 5, ROLE_CODE_FRAME);
		lb_put_str(lb, " ", ROLE_CODE_FRAME, 0);
		lb_put_repeat(lb, "─", lb->W - lb->col, ROLE_CODE_FRAME);
	}
	lb_line_end(lb);
}

/* Code lines are cut, never lost: a line too long for the box continues on
 * the next one behind a ↪ in the gutter. */
static void layout_code(struct lb *lb, const struct doc_block *b)
{
	const struct doc_text *t = &b->text;
	size_t first = lb->ranges.n;

	code_top(lb, b->lang);
	if (t->len > 0)
		doc_wrap_chars(t->s, 0, t->len, lb->cw - 2, &lb->ranges);
	for (size_t i = first; i < lb->ranges.n; i++) {
		struct doc_range r = lb->ranges.v[i];
		lb_line_begin(lb, (int)r.start);
		if (r.cont)
			lb_put_str(lb, "↪ ", ROLE_MARKER, 0);
		else
			lb_put_str(lb, "│ ", ROLE_CODE_FRAME, 0);
		lb_put_range(lb, t, r.start, r.end);
		lb_line_end(lb);
	}
	lb->ranges.n = first;
	lb_line_begin(lb, (int)t->len);
	lb_put_str(lb, "└", ROLE_CODE_FRAME, 0);
	lb_put_repeat(lb, "─", lb->cw - 1, ROLE_CODE_FRAME);
	lb_line_end(lb);
	if (b->error) {
		struct indent in = {.first = "! ", .rest = "  ", .width = 2,
				    .role = ROLE_ERROR, .attrs = ATTR_BOLD};
		lb_put_note(lb, b->error, ROLE_ERROR, 0, &in, (int)t->len);
	}
}

static void layout_rule(struct lb *lb)
{
	lb_line_begin(lb, 0);
	lb_put_repeat(lb, "─", lb->cw, ROLE_RULE);
	lb_line_end(lb);
}

/* Quiz index's state from the options: quizzes[] when given, else the one
 * choice of answers[] as a single answer. */
static struct doc_quiz_state quiz_state(const struct lb *lb, const struct doc_quiz *q, int index)
{
	const struct doc_layout_opts *o = lb->opts;
	struct doc_quiz_state s = {0};
	int a;

	if (o->quizzes) {
		if (index < o->nquizzes)
			s = o->quizzes[index];
		return s;
	}
	a = o->answers && index < o->nanswers ? o->answers[index] : -1;
	if (a >= 0 && a < q->nchoices && a < DOC_QUIZ_CHOICES) {
		s.answers = 1;
		s.first = s.latest = UINT64_C(1) << a;
		s.first_right = s.latest_right = s.first == doc_quiz_right_set(q);
	}
	return s;
}

static bool has_choice(uint64_t set, int c)
{
	return c < DOC_QUIZ_CHOICES && (set >> c & 1);
}

/* "2 (right)" or "1,3 (wrong)": an answer in the numbers the choices show. */
static void put_answer(struct strbuf *sb, uint64_t set, bool right)
{
	const char *sep = "";

	for (int c = 0; c < DOC_QUIZ_CHOICES; c++) {
		if (has_choice(set, c)) {
			sb_printf(sb, "%s%d", sep, c + 1);
			sep = ",";
		}
	}
	sb_printf(sb, " (%s)", right ? "right" : "wrong");
}

/* The answers under an answered quiz: the first counts, and a later one is
 * shown beside it, never in its place. */
static void quiz_answer_line(struct lb *lb, const struct doc_quiz_state *s, int anchor)
{
	struct indent in = {.first = "  ", .rest = "  ", .width = 2, .role = ROLE_MARKER};
	struct strbuf sb;

	sb_init(&sb);
	sb_puts(&sb, s->answers > 1 ? "First answer: " : "Your answer: ");
	put_answer(&sb, s->first, s->first_right);
	if (s->answers > 1) {
		sb_puts(&sb, "; latest: ");
		put_answer(&sb, s->latest, s->latest_right);
	}
	lb_put_note(lb, sb.s, s->first_right ? ROLE_QUIZ_RIGHT : ROLE_QUIZ_WRONG, 0, &in, anchor);
	sb_free(&sb);
}

static void layout_quiz(struct lb *lb, const struct doc_block *b)
{
	const struct doc_quiz_full *q = &lb->doc->quizzes[b->quiz];
	struct doc_quiz_state s = quiz_state(lb, &q->pub, b->quiz);
	bool answered = s.answers > 0, multi = doc_quiz_is_multi(&q->pub);
	char first[48], rest[48];
	struct indent in = {.first = first, .rest = rest, .role = ROLE_QUIZ,
			    .attrs = ATTR_BOLD};

	lb->quiz = b->quiz;
	in.width = snprintf(first, sizeof first, "Quiz %d: ", b->quiz + 1);
	snprintf(rest, sizeof rest, "%*s", in.width, "");
	lb_put_wrapped(lb, &q->qtext, 0, q->qtext.len, &in, 0);
	/* the boxes show what is being ticked, else the latest answer's ticks */
	uint64_t ticked = s.picked || !answered ? s.picked : s.latest;

	for (int i = 0; i < q->pub.nchoices; i++) {
		bool right = q->pub.choices[i].correct, wrong = !right && has_choice(s.latest, i);
		const char *mark = !answered ? "  " : right ? "✓ " : wrong ? "✗ " : "  ";
		const char *box = !multi ? "" : has_choice(ticked, i) ? "[x] " : "[ ] ";

		lb->choice = i;
		snprintf(first, sizeof first, "%s%s%d) ", mark, box, i + 1);
		in.width = doc_text_width(first, strlen(first));
		snprintf(rest, sizeof rest, "%*s", in.width, "");
		in.role = !answered ? ROLE_MARKER : right ? ROLE_QUIZ_RIGHT
				  : wrong ? ROLE_QUIZ_WRONG : ROLE_MARKER;
		lb_put_wrapped(lb, &q->ctext[i], 0, q->ctext[i].len, &in, 1 + i);
	}
	lb->choice = -1;
	if (answered && q->etext.len > 0) {
		struct indent ex = {.first = "  → ", .rest = "    ", .width = 4,
				    .role = ROLE_MARKER};
		lb_put_wrapped(lb, &q->etext, 0, q->etext.len, &ex, 1 + q->pub.nchoices);
	}
	if (answered)
		quiz_answer_line(lb, &s, 2 + q->pub.nchoices);
	lb->quiz = -1;
}

/* ---- tables ---- */

static void cell_bounds(const struct doc_table *t, int r, int c, size_t *s,
			size_t *e)
{
	const struct doc_cell *cell = &t->cells[r * t->ncols + c];

	*s = cell->start;
	*e = cell->end;
}

static void table_scratch(struct lb *lb, size_t n)
{
	if (n <= lb->ncell)
		return;
	lb->cellr = xrealloc(lb->cellr, n * sizeof *lb->cellr);
	for (size_t i = lb->ncell; i < n; i++)
		lb->cellr[i] = (struct doc_ranges){0};
	lb->colw = xrealloc(lb->colw, n * sizeof *lb->colw);
	lb->nat = xrealloc(lb->nat, n * sizeof *lb->nat);
	lb->minw = xrealloc(lb->minw, n * sizeof *lb->minw);
	lb->cell_link = xrealloc(lb->cell_link, n * sizeof *lb->cell_link);
	lb->ncell = n;
}

/* Each column's width on one line (nat) and its widest word (minw). */
static void table_measure(struct lb *lb, const struct doc_block *b)
{
	const struct doc_table *t = b->table;
	size_t s, e;
	int widest, w;

	for (int c = 0; c < t->ncols; c++) {
		lb->nat[c] = lb->minw[c] = 1;
		for (int r = 0; r < t->nrows; r++) {
			cell_bounds(t, r, c, &s, &e);
			w = doc_range_width(b->text.s, s, e, &widest);
			if (w > lb->nat[c])
				lb->nat[c] = w;
			if (widest > lb->minw[c])
				lb->minw[c] = widest;
		}
	}
}

/* Shares avail columns out: natural widths when they fit; otherwise every
 * column gets its widest word (the widest columns cut down first when even
 * that is too much) and what is left goes out in proportion to what each
 * column still lacks. */
static void table_fit(int n, const int *nat, const int *minw, int avail, int *w)
{
	long long sum = 0, lack = 0, extra, given = 0;

	for (int c = 0; c < n; c++)
		sum += nat[c];
	if (sum <= avail) {
		memcpy(w, nat, (size_t)n * sizeof *w);
		return;
	}
	sum = 0;
	for (int c = 0; c < n; c++) {
		w[c] = minw[c];
		sum += w[c];
	}
	while (sum > avail) {
		int widest = 0;
		for (int c = 1; c < n; c++)
			if (w[c] > w[widest])
				widest = c;
		w[widest]--;
		sum--;
	}
	extra = avail - sum;
	for (int c = 0; c < n; c++)
		lack += nat[c] - w[c];
	for (int c = 0; c < n && lack > 0; c++) {
		long long give = extra * (nat[c] - w[c]) / lack;
		w[c] += (int)give;
		given += give;
	}
	for (extra -= given; extra > 0;)
		for (int c = 0; c < n && extra > 0; c++)
			if (w[c] < nat[c]) {
				w[c]++;
				extra--;
			}
}

static void table_border(struct lb *lb, int n, const char *const parts[4],
			 int anchor)
{
	lb_line_begin(lb, anchor);
	lb_put_str(lb, parts[0], ROLE_TABLE, 0);
	for (int c = 0; c < n; c++) {
		lb_put_repeat(lb, parts[1], lb->colw[c] + 2, ROLE_TABLE);
		lb_put_str(lb, c + 1 < n ? parts[2] : parts[3], ROLE_TABLE, 0);
	}
	lb_line_end(lb);
}

/* One piece of a cell, aligned in its column. */
static void table_piece(struct lb *lb, const struct doc_block *b, int c,
			const struct doc_range *r)
{
	int w = lb->colw[c], widest;
	int lw = doc_range_width(b->text.s, r->start, r->end, &widest);
	int left = b->table->align[c] == 2   ? w - lw
		   : b->table->align[c] == 1 ? (w - lw) / 2
					     : 0;

	lb_put_spaces(lb, left);
	lb->last_link = lb->cell_link[c];
	lb_put_range(lb, &b->text, r->start, r->end);
	lb->cell_link[c] = lb->last_link;
	lb_put_spaces(lb, w - lw - left);
}

static void table_row(struct lb *lb, const struct doc_block *b, int r)
{
	const struct doc_table *t = b->table;
	size_t s, e, height = 0;

	for (int c = 0; c < t->ncols; c++) {
		lb->cellr[c].n = 0;
		lb->cell_link[c] = -1;
		cell_bounds(t, r, c, &s, &e);
		doc_wrap_words(b->text.s, s, e, lb->colw[c], &lb->cellr[c]);
		if (lb->cellr[c].n > height)
			height = lb->cellr[c].n;
	}
	for (size_t k = 0; k < height; k++) {
		lb_line_begin(lb, r);
		lb_put_str(lb, "│", ROLE_TABLE, 0);
		for (int c = 0; c < t->ncols; c++) {
			lb_put_spaces(lb, 1);
			if (k < lb->cellr[c].n)
				table_piece(lb, b, c, &lb->cellr[c].v[k]);
			else
				lb_put_spaces(lb, lb->colw[c]);
			lb_put_str(lb, " │", ROLE_TABLE, 0);
		}
		lb_line_end(lb);
	}
}

/* Whether some body cell needs more than one line. */
static bool table_wraps(struct lb *lb, const struct doc_block *b)
{
	const struct doc_table *t = b->table;
	size_t s, e;
	int widest;

	for (int r = t->nhead; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++) {
			cell_bounds(t, r, c, &s, &e);
			if (doc_range_width(b->text.s, s, e, &widest) > lb->colw[c])
				return true;
		}
	return false;
}

/* Too many columns for the width: each row as "header" lines over its
 * indented values, between rules. */
static void table_records(struct lb *lb, const struct doc_block *b)
{
	static const struct indent in = {.first = "  ", .rest = "  ", .width = 2};
	const struct doc_table *t = b->table;
	int first = t->nhead < t->nrows ? t->nhead : 0;
	size_t s, e;

	for (int r = first; r < t->nrows; r++) {
		lb_line_begin(lb, r);
		lb_put_repeat(lb, "─", lb->cw, ROLE_TABLE);
		lb_line_end(lb);
		for (int c = 0; c < t->ncols; c++) {
			if (r != 0) {
				cell_bounds(t, 0, c, &s, &e);
				lb_put_wrapped(lb, &b->text, s, e, NULL, r);
			}
			cell_bounds(t, r, c, &s, &e);
			lb_put_wrapped(lb, &b->text, s, e, &in, r);
		}
	}
	lb_line_begin(lb, t->nrows);
	lb_put_repeat(lb, "─", lb->cw, ROLE_TABLE);
	lb_line_end(lb);
}

/* A box is worth drawing while cutting words costs no more than about a
 * column each; past that, words would be chopped into unreadable bits. */
static bool too_narrow(const int *minw, int n, int avail)
{
	long long sum = 0;

	for (int c = 0; c < n; c++)
		sum += minw[c];
	return sum - avail > n;
}

static void layout_table(struct lb *lb, const struct doc_block *b)
{
	static const char *const top[4] = {"┌", "─", "┬", "┐"};
	static const char *const head[4] = {"╞", "═", "╪", "╡"};
	static const char *const mid[4] = {"├", "─", "┼", "┤"};
	static const char *const bottom[4] = {"└", "─", "┴", "┘"};
	const struct doc_table *t = b->table;
	int n = t->ncols, avail = lb->cw - (3 * n + 1);
	bool rules;

	if (n == 0)
		return;
	table_scratch(lb, (size_t)n);
	table_measure(lb, b);
	if (avail < 2 * n || too_narrow(lb->minw, n, avail)) {
		table_records(lb, b);
		return;
	}
	table_fit(n, lb->nat, lb->minw, avail, lb->colw);
	rules = table_wraps(lb, b);
	table_border(lb, n, top, 0);
	for (int r = 0; r < t->nrows; r++) {
		if (r > 0 && r == t->nhead)
			table_border(lb, n, head, r - 1);
		else if (r > t->nhead && rules)
			table_border(lb, n, mid, r - 1);
		table_row(lb, b, r);
	}
	table_border(lb, n, bottom, t->nrows);
}

static void layout_block(struct lb *lb, int i)
{
	const struct doc_block *b = &lb->doc->blocks[i];

	block_context(lb, i);
	if (b->gap)
		gap_line(lb, lb->doc->blocks[i - 1].box);
	switch (b->kind) {
	case BLOCK_PARA:
	case BLOCK_HTML:
		lb_put_wrapped(lb, &b->text, 0, b->text.len, NULL, -1);
		break;
	case BLOCK_HEADING:
		layout_heading(lb, b);
		break;
	case BLOCK_CODE:
		layout_code(lb, b);
		break;
	case BLOCK_RULE:
		layout_rule(lb);
		break;
	case BLOCK_TABLE:
		layout_table(lb, b);
		break;
	case BLOCK_QUIZ:
		layout_quiz(lb, b);
		break;
	}
}

/* The targets of all links, numbered as in the text. */
static void layout_links(struct lb *lb)
{
	const struct doc *doc = lb->doc;
	char num[24];

	if (doc->nlinks == 0 || lb->opts->no_link_list)
		return;
	block_context(lb, (int)doc->nblocks);
	if (lb->nlines > 0)
		gap_line(lb, -1);
	lb_line_begin(lb, 0);
	lb_put_str(lb, "Links", ROLE_H2, ATTR_BOLD);
	lb_line_end(lb);
	lb_line_begin(lb, 0);
	lb_put_repeat(lb, "─", 5, ROLE_H2);
	lb_line_end(lb);
	for (size_t i = 0; i < doc->nlinks; i++) {
		int n = snprintf(num, sizeof num, "[%zu] ", i + 1);
		char pad[24];
		snprintf(pad, sizeof pad, "%*s", n, "");
		struct indent in = {.first = num, .rest = pad, .width = n, .role = ROLE_LINK};
		lb_put_note(lb, doc->links[i], ROLE_LINK, 0, &in, (int)i + 1);
	}
}

/* ---- the finished layout ---- */

struct store {
	char *text;
	struct doc_span *spans;
	struct doc_line *lines;
	struct doc_link_ref *refs;
	struct doc_heading *heads;
};

static struct doc_layout *finish(struct lb *lb, const struct doc *doc)
{
	struct doc_layout *L = xcalloc(1, sizeof *L);
	struct store *st = xcalloc(1, sizeof *st);

	st->text = sb_steal(&lb->arena);
	st->spans = lb->spans;
	for (size_t i = 0; i < lb->nspans; i++)
		st->spans[i].text = st->text + lb->span_off[i];
	st->lines = xcalloc(lb->nlines, sizeof *st->lines);
	for (size_t i = 0; i < lb->nlines; i++) {
		const struct line_rec *r = &lb->lines[i];
		st->lines[i] = (struct doc_line){
			.text = st->text + r->off, .len = (int)r->len,
			.width = r->width,
			.spans = r->nspans ? st->spans + r->first_span : NULL,
			.nspans = (int)r->nspans, .anchor = r->anchor,
			.quiz = r->quiz, .choice = r->choice};
	}
	st->refs = lb->refs;
	st->heads = lb->heads;
	*L = (struct doc_layout){
		.doc = doc, .width = lb->W,
		.lines = st->lines, .nlines = (int)lb->nlines,
		.refs = st->refs, .nrefs = (int)lb->nrefs,
		.headings = st->heads, .nheadings = (int)lb->nheads,
		.priv = st};
	free(lb->span_off);
	free(lb->lines);
	free(lb->chain);
	free(lb->ranges.v);
	for (size_t i = 0; i < lb->ncell; i++)
		free(lb->cellr[i].v);
	free(lb->cellr);
	free(lb->colw);
	free(lb->nat);
	free(lb->minw);
	free(lb->cell_link);
	return L;
}

struct doc_layout *doc_layout_with(const struct doc *doc,
				   const struct doc_layout_opts *opts)
{
	static const struct doc_layout_opts defaults = {.width = 80};
	struct lb lb = {.doc = doc, .opts = opts ? opts : &defaults,
			.quiz = -1, .choice = -1};

	opts = lb.opts;
	lb.W = opts->width < DOC_MIN_WIDTH   ? DOC_MIN_WIDTH
	       : opts->width > DOC_MAX_WIDTH ? DOC_MAX_WIDTH
					     : opts->width;
	sb_init(&lb.arena);
	for (size_t i = 0; i < doc->nblocks; i++)
		layout_block(&lb, (int)i);
	layout_links(&lb);
	return finish(&lb, doc);
}

struct doc_layout *doc_layout(const struct doc *doc, int width)
{
	struct doc_layout_opts o = {.width = width};

	return doc_layout_with(doc, &o);
}

void doc_layout_free(struct doc_layout *layout)
{
	struct store *st;

	if (!layout)
		return;
	st = layout->priv;
	free(st->text);
	free(st->spans);
	free(st->lines);
	free(st->refs);
	free(st->heads);
	free(st);
	free(layout);
}

static int anchor_cmp(struct doc_anchor a, struct doc_anchor b)
{
	if (a.block != b.block)
		return a.block < b.block ? -1 : 1;
	return a.offset < b.offset ? -1 : a.offset > b.offset;
}

int doc_line_for_anchor(const struct doc_layout *layout, struct doc_anchor a)
{
	int lo = 0, hi = layout->nlines, best;

	/* the last line whose anchor is not after a */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (anchor_cmp(layout->lines[mid].anchor, a) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	best = lo - 1;
	while (best > 0 && anchor_cmp(layout->lines[best - 1].anchor,
				      layout->lines[best].anchor) == 0)
		best--;
	return best;
}
