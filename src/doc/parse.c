/* parse.c — md4c callbacks that fill the document model.
 *
 * Every piece of parsing state lives in struct parser, handed to md4c as
 * userdata.  The model is flat: leaf blocks (paragraphs, headings, code,
 * tables, ...) in document order, each naming its innermost container (quote,
 * list, list item); containers name their parents. */
#include "internal.h"

#include "cudalab/util.h"

#include <md4c.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MD_FLAGS                                                              \
	(MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS |         \
	 MD_FLAG_PERMISSIVEAUTOLINKS)

#define CODE_TAB 4

/* Text grows a few times at most (a tab becomes four spaces, a stray byte
 * three), and runs count in 32 bits. */
#define DOC_MAX_INPUT (UINT32_MAX / 8)

struct parser {
	struct doc *doc;
	int box;       /* innermost open container, -1 at top level */
	int leaf;      /* the open leaf block, -1 when none */
	bool implicit; /* the leaf is the text of a tight list item */
	bool in_code;
	size_t code_line; /* where the current code line starts in the text */
	struct doc_style *styles;
	size_t nstyles, scap;
	size_t *link_marks; /* text length where each open link began */
	size_t nlinks, lmcap;
	size_t *img_marks; /* text length after each open "[image: " */
	char **img_srcs;
	size_t nimgs, icap, iscap;
	/* tables */
	bool head;
	int row, col;
	size_t cell_start;
};

static const struct doc_style plain_style = {.role = ROLE_TEXT, .link = -1};

/* ---- containers ---- */

static struct doc_box *box_at(struct doc *doc, int i)
{
	return i >= 0 ? &doc->boxes[i] : NULL;
}

static int push_box(struct parser *p, enum box_kind kind)
{
	struct doc *doc = p->doc;
	int depth = p->box >= 0 ? doc->boxes[p->box].depth + 1 : 0;
	int i = (int)doc->nboxes;

	xgrow((void **)&doc->boxes, &doc->xcap, doc->nboxes + 1, sizeof *doc->boxes);
	doc->boxes[i] = (struct doc_box){
		.kind = kind,
		.parent = p->box,
		.depth = depth,
		.first_block = -1,
	};
	doc->nboxes++;
	p->box = i;
	return i;
}

static void pop_box(struct parser *p)
{
	if (p->box >= 0)
		p->box = p->doc->boxes[p->box].parent;
}

static int unordered_level(struct doc *doc, int box)
{
	int n = 0;

	for (; box >= 0; box = doc->boxes[box].parent)
		if (doc->boxes[box].kind == BOX_LIST && !doc->boxes[box].ordered)
			n++;
	return n;
}

static void enter_list(struct parser *p, bool ordered, void *detail)
{
	int level = unordered_level(p->doc, p->box);
	int i = push_box(p, BOX_LIST);
	struct doc_box *b = &p->doc->boxes[i];

	b->ordered = ordered;
	b->bullet_level = level;
	if (ordered) {
		MD_BLOCK_OL_DETAIL *d = detail;
		b->tight = d->is_tight;
		b->start = d->start;
		b->delim = d->mark_delimiter;
	} else {
		b->tight = ((MD_BLOCK_UL_DETAIL *)detail)->is_tight;
	}
}

static void enter_item(struct parser *p, MD_BLOCK_LI_DETAIL *d)
{
	struct doc_box *list = box_at(p->doc, p->box);
	struct doc_box *item;
	int index = list ? list->nitems++ : 0, i;

	if (list && d->is_task)
		list->has_task = true;
	i = push_box(p, BOX_ITEM);
	item = &p->doc->boxes[i];
	item->index = index;
	if (d->is_task)
		item->task = d->task_mark == ' ' ? ' ' : 'x';
}

int doc_common_box(const struct doc *doc, int a, int b)
{
	while (a >= 0 && b >= 0 && a != b) {
		if (doc->boxes[a].depth >= doc->boxes[b].depth)
			a = doc->boxes[a].parent;
		else
			b = doc->boxes[b].parent;
	}
	return a == b ? a : -1;
}

/* Blocks are set apart by a blank line, except where a tight list holds
 * them both and every list between them is tight too. */
static bool needs_gap(const struct doc *doc, int prev_box, int box)
{
	int c = doc_common_box(doc, prev_box, box), list;

	if (c < 0 || doc->boxes[c].kind == BOX_QUOTE)
		return true;
	list = doc->boxes[c].kind == BOX_LIST ? c : doc->boxes[c].parent;
	if (list < 0 || !doc->boxes[list].tight)
		return true;
	for (int x = box; x != c; x = doc->boxes[x].parent)
		if (doc->boxes[x].kind == BOX_LIST && !doc->boxes[x].tight)
			return true;
	return false;
}

static bool inside_quote(const struct doc *doc, int box)
{
	for (; box >= 0; box = doc->boxes[box].parent)
		if (doc->boxes[box].kind == BOX_QUOTE)
			return true;
	return false;
}

/* ---- leaf blocks ---- */

static void set_base(struct parser *p, struct doc_style st)
{
	xgrow((void **)&p->styles, &p->scap, 1, sizeof *p->styles);
	p->styles[0] = st;
	p->nstyles = 1;
}

static struct doc_block *new_leaf(struct parser *p, enum block_kind kind)
{
	struct doc *doc = p->doc;
	struct doc_block *b;
	int i = (int)doc->nblocks;

	xgrow((void **)&doc->blocks, &doc->bcap, doc->nblocks + 1, sizeof *doc->blocks);
	b = &doc->blocks[i];
	memset(b, 0, sizeof *b);
	b->kind = kind;
	b->box = p->box;
	b->quiz = -1;
	b->gap = i > 0 && needs_gap(doc, doc->blocks[i - 1].box, p->box);
	for (int x = p->box; x >= 0; x = doc->boxes[x].parent) {
		struct doc_box *c = &doc->boxes[x];
		if (c->kind != BOX_ITEM)
			continue;
		if (c->first_block >= 0)
			break; /* and so have the items around it */
		c->first_block = i;
	}
	doc->nblocks++;
	p->leaf = i;
	p->implicit = false;
	set_base(p, inside_quote(doc, p->box)
			    ? (struct doc_style){.role = ROLE_QUOTE, .link = -1}
			    : plain_style);
	return b;
}

static struct doc_block *leaf(struct parser *p)
{
	return p->leaf >= 0 ? &p->doc->blocks[p->leaf] : NULL;
}

/* Heading text as a table of contents shows it: without link numbers. */
static char *plain_text(const struct doc_text *t)
{
	struct strbuf sb;

	sb_init(&sb);
	for (size_t i = 0; i < t->nruns; i++)
		if (!(t->runs[i].flags & RUN_LINKNUM))
			sb_append(&sb, t->s + t->runs[i].start,
				  t->runs[i].end - t->runs[i].start);
	return sb_steal(&sb);
}

static void drop_final_newline(struct doc_text *t)
{
	if (t->len == 0 || t->s[t->len - 1] != '\n')
		return;
	t->s[--t->len] = '\0';
	if (t->nruns && --t->runs[t->nruns - 1].end == t->runs[t->nruns - 1].start)
		t->nruns--;
}

static void finish_quiz(struct parser *p, struct doc_block *b)
{
	struct doc *doc = p->doc;
	struct doc_quiz_full q;
	char *err;

	if (doc_quiz_parse(b->text.s ? b->text.s : "", b->text.len, &q, &err) != 0) {
		b->error = err;
		return;
	}
	q.pub.block = p->leaf;
	xgrow((void **)&doc->quizzes, &doc->qcap, doc->nquizzes + 1,
	      sizeof *doc->quizzes);
	b->quiz = (int)doc->nquizzes;
	doc->quizzes[doc->nquizzes++] = q;
	b->kind = BLOCK_QUIZ;
}

static void finish_leaf(struct parser *p)
{
	struct doc_block *b = leaf(p);

	if (!b)
		return;
	if (b->kind == BLOCK_HEADING)
		b->plain = plain_text(&b->text);
	if (b->kind == BLOCK_CODE || b->kind == BLOCK_HTML)
		drop_final_newline(&b->text);
	if (b->kind == BLOCK_CODE && b->lang && strcmp(b->lang, "quiz") == 0)
		finish_quiz(p, b);
	if (b->kind == BLOCK_CODE)
		doc_highlight(&b->text, b->lang);
	p->leaf = -1;
	p->implicit = false;
	p->in_code = false;
}

static void close_implicit(struct parser *p)
{
	if (p->implicit)
		finish_leaf(p);
}

/* Text of a tight list item arrives without a paragraph around it. */
static void ensure_leaf(struct parser *p)
{
	if (p->leaf >= 0)
		return;
	new_leaf(p, BLOCK_PARA);
	p->implicit = true;
}

/* An attribute (link target, image source, code language) as a clean,
 * NUL-terminated string. */
static char *attr_string(const MD_ATTRIBUTE *a)
{
	struct doc_text t = {0};
	char ent[8];

	for (unsigned i = 0; a->substr_offsets && a->substr_offsets[i] < a->size; i++) {
		const char *s = a->text + a->substr_offsets[i];
		size_t n = a->substr_offsets[i + 1] - a->substr_offsets[i];
		size_t k;
		if (a->substr_types[i] == MD_TEXT_ENTITY && (k = doc_entity_decode(s, n, ent)))
			doc_text_add_clean(&t, ent, k, plain_style, false);
		else if (a->substr_types[i] == MD_TEXT_NULLCHAR)
			doc_text_add(&t, "\xEF\xBF\xBD", 3, plain_style, 0);
		else
			doc_text_add_clean(&t, s, n, plain_style, false);
	}
	free(t.runs);
	return t.s ? t.s : xstrdup("");
}

static void enter_code(struct parser *p, MD_BLOCK_CODE_DETAIL *d)
{
	struct doc_block *b = new_leaf(p, BLOCK_CODE);

	b->lang = d->lang.size ? attr_string(&d->lang) : NULL;
	set_base(p, (struct doc_style){.role = ROLE_CODE, .link = -1});
	p->in_code = true;
	p->code_line = 0;
}

static void enter_table(struct parser *p, MD_BLOCK_TABLE_DETAIL *d)
{
	struct doc_block *b = new_leaf(p, BLOCK_TABLE);
	struct doc_table *t = xcalloc(1, sizeof *t);

	t->ncols = (int)d->col_count;
	t->nhead = (int)d->head_row_count;
	t->nrows = (int)(d->head_row_count + d->body_row_count);
	t->align = xcalloc((size_t)t->ncols, 1);
	t->cells = xcalloc((size_t)t->nrows * (size_t)t->ncols, sizeof *t->cells);
	b->table = t;
	p->row = -1;
}

static void enter_cell(struct parser *p, bool head, MD_BLOCK_TD_DETAIL *d)
{
	struct doc_block *b = leaf(p);
	struct doc_table *t = b ? b->table : NULL;

	if (!t)
		return;
	p->col++;
	if (p->row == 0 && p->col < t->ncols)
		t->align[p->col] = d->align == MD_ALIGN_CENTER  ? 1
				   : d->align == MD_ALIGN_RIGHT ? 2
								: 0;
	p->cell_start = b->text.len;
	set_base(p, head ? (struct doc_style){.role = ROLE_TABLE_HEAD,
					      .attrs = ATTR_BOLD, .link = -1}
			 : plain_style);
}

static void leave_cell(struct parser *p)
{
	struct doc_block *b = leaf(p);
	struct doc_table *t = b ? b->table : NULL;

	if (!t || p->row < 0 || p->row >= t->nrows || p->col >= t->ncols)
		return;
	t->cells[p->row * t->ncols + p->col] =
		(struct doc_cell){.start = p->cell_start, .end = b->text.len};
}

static int enter_block(MD_BLOCKTYPE type, void *detail, void *userdata)
{
	struct parser *p = userdata;

	if (type != MD_BLOCK_DOC && type < MD_BLOCK_THEAD)
		close_implicit(p);
	switch (type) {
	case MD_BLOCK_QUOTE:
		push_box(p, BOX_QUOTE);
		break;
	case MD_BLOCK_UL:
	case MD_BLOCK_OL:
		enter_list(p, type == MD_BLOCK_OL, detail);
		break;
	case MD_BLOCK_LI:
		enter_item(p, detail);
		break;
	case MD_BLOCK_HR:
		new_leaf(p, BLOCK_RULE);
		break;
	case MD_BLOCK_H: {
		unsigned level = ((MD_BLOCK_H_DETAIL *)detail)->level;
		new_leaf(p, BLOCK_HEADING)->level = (int)level;
		set_base(p, (struct doc_style){
				    .role = (unsigned char)(level >= 4 ? ROLE_H4 : ROLE_H1 + level - 1),
				    .attrs = ATTR_BOLD,
				    .link = -1});
		break;
	}
	case MD_BLOCK_CODE:
		enter_code(p, detail);
		break;
	case MD_BLOCK_HTML:
		new_leaf(p, BLOCK_HTML);
		set_base(p, (struct doc_style){.role = ROLE_HTML, .link = -1});
		break;
	case MD_BLOCK_P:
		new_leaf(p, BLOCK_PARA);
		break;
	case MD_BLOCK_TABLE:
		enter_table(p, detail);
		break;
	case MD_BLOCK_THEAD:
	case MD_BLOCK_TBODY:
		p->head = type == MD_BLOCK_THEAD;
		break;
	case MD_BLOCK_TR:
		p->row++;
		p->col = -1;
		break;
	case MD_BLOCK_TH:
	case MD_BLOCK_TD:
		enter_cell(p, type == MD_BLOCK_TH || p->head, detail);
		break;
	default:
		break;
	}
	return 0;
}

static int leave_block(MD_BLOCKTYPE type, void *detail, void *userdata)
{
	struct parser *p = userdata;

	(void)detail;
	switch (type) {
	case MD_BLOCK_QUOTE:
	case MD_BLOCK_UL:
	case MD_BLOCK_OL:
		close_implicit(p);
		pop_box(p);
		break;
	case MD_BLOCK_LI:
		close_implicit(p);
		if (p->doc->boxes[p->box].first_block < 0) {
			new_leaf(p, BLOCK_PARA); /* an empty item still shows */
			finish_leaf(p);
		}
		pop_box(p);
		break;
	case MD_BLOCK_HR:
	case MD_BLOCK_H:
	case MD_BLOCK_CODE:
	case MD_BLOCK_HTML:
	case MD_BLOCK_P:
	case MD_BLOCK_TABLE:
		finish_leaf(p);
		break;
	case MD_BLOCK_TH:
	case MD_BLOCK_TD:
		leave_cell(p);
		break;
	default:
		break;
	}
	return 0;
}

/* ---- spans ---- */

static struct doc_style top_style(const struct parser *p)
{
	return p->nstyles ? p->styles[p->nstyles - 1] : plain_style;
}

static void push_style(struct parser *p, struct doc_style st)
{
	xgrow((void **)&p->styles, &p->scap, p->nstyles + 1, sizeof *p->styles);
	p->styles[p->nstyles++] = st;
}

static void pop_style(struct parser *p)
{
	if (p->nstyles > 1)
		p->nstyles--;
}

static struct doc_text *cur_text(struct parser *p)
{
	ensure_leaf(p);
	return &p->doc->blocks[p->leaf].text;
}

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void rehash_links(struct doc *doc)
{
	size_t cap = doc->hcap ? doc->hcap * 2 : 64;

	free(doc->link_hash);
	doc->link_hash = xmalloc(cap * sizeof *doc->link_hash);
	for (size_t i = 0; i < cap; i++)
		doc->link_hash[i] = -1;
	doc->hcap = cap;
	for (size_t i = 0; i < doc->nlinks; i++) {
		size_t h = hash_str(doc->links[i]) & (cap - 1);
		while (doc->link_hash[h] >= 0)
			h = (h + 1) & (cap - 1);
		doc->link_hash[h] = (int)i;
	}
}

/* The number of target, adding it when new; takes ownership of target. */
static int intern_link(struct doc *doc, char *target)
{
	size_t h;

	if ((doc->nlinks + 1) * 2 > doc->hcap)
		rehash_links(doc);
	h = hash_str(target) & (doc->hcap - 1);
	for (; doc->link_hash[h] >= 0; h = (h + 1) & (doc->hcap - 1)) {
		int i = doc->link_hash[h];
		if (strcmp(doc->links[i], target) == 0) {
			free(target);
			return i;
		}
	}
	xgrow((void **)&doc->links, &doc->lcap, doc->nlinks + 1, sizeof *doc->links);
	doc->links[doc->nlinks] = target;
	doc->link_hash[h] = (int)doc->nlinks;
	return (int)doc->nlinks++;
}

/* Emphasis recolours plain text only; headings and quotes keep their role
 * and gain the attribute. */
static void push_emphasis(struct parser *p, unsigned char role, unsigned attr)
{
	struct doc_style st = top_style(p);

	if (st.role == ROLE_TEXT)
		st.role = role;
	st.attrs |= (unsigned char)attr;
	push_style(p, st);
}

static void enter_image(struct parser *p, MD_SPAN_IMG_DETAIL *d)
{
	struct doc_text *t = cur_text(p);
	struct doc_style st = top_style(p);

	st.role = ROLE_IMAGE;
	doc_text_add(t, "[image: ", 8, st, 0);
	push_style(p, st);
	xgrow((void **)&p->img_marks, &p->icap, p->nimgs + 1, sizeof *p->img_marks);
	xgrow((void **)&p->img_srcs, &p->iscap, p->nimgs + 1, sizeof *p->img_srcs);
	p->img_marks[p->nimgs] = t->len;
	p->img_srcs[p->nimgs++] = attr_string(&d->src);
}

/* "[image: alt] (src)", or "[image] (src)" when there is no alt text. */
static void leave_image(struct parser *p)
{
	struct doc_text *t = cur_text(p);
	struct doc_style st = top_style(p);
	char *src;

	pop_style(p);
	if (p->nimgs == 0)
		return;
	src = p->img_srcs[--p->nimgs];
	if (t->len == p->img_marks[p->nimgs] && t->nruns &&
	    t->runs[t->nruns - 1].end - t->runs[t->nruns - 1].start >= 2) {
		t->len -= 2; /* the ": " */
		t->runs[t->nruns - 1].end -= 2;
		t->s[t->len] = '\0';
	}
	doc_text_add(t, "]", 1, st, 0);
	if (*src) {
		doc_text_add(t, " (", 2, st, 0);
		doc_text_add(t, src, strlen(src), st, 0);
		doc_text_add(t, ")", 1, st, 0);
	}
	free(src);
}

/* The link's number follows its text; a space keeps it off a text that
 * is itself the address, so the address can be copied whole. */
static void leave_link(struct parser *p)
{
	struct doc_style st = top_style(p);
	struct doc_text *t = cur_text(p);
	const char *target;
	size_t mark, n, tn;
	char num[24];
	int k;

	pop_style(p);
	if (p->nlinks == 0)
		return;
	mark = p->link_marks[--p->nlinks];
	if (st.link < 0)
		return;
	st.attrs &= (unsigned char)~ATTR_UNDERLINE;
	target = p->doc->links[st.link];
	n = t->len - mark;
	tn = strlen(target);
	if (n > 0 && n <= tn && memcmp(target + tn - n, t->s + mark, n) == 0)
		doc_text_add(t, " ", 1, st, RUN_LINKNUM);
	k = snprintf(num, sizeof num, "[%d]", st.link + 1);
	doc_text_add(t, num, (size_t)k, st, RUN_LINKNUM);
}

/* A link without a target is only its text. */
static void enter_link(struct parser *p, MD_SPAN_A_DETAIL *d)
{
	struct doc_style st = top_style(p);
	char *target = attr_string(&d->href);

	xgrow((void **)&p->link_marks, &p->lmcap, p->nlinks + 1, sizeof *p->link_marks);
	p->link_marks[p->nlinks++] = cur_text(p)->len;
	if (*target) {
		st.role = ROLE_LINK;
		st.attrs |= ATTR_UNDERLINE;
		st.link = intern_link(p->doc, target);
	} else {
		free(target);
		st.link = -1;
	}
	push_style(p, st);
}

static int enter_span(MD_SPANTYPE type, void *detail, void *userdata)
{
	struct parser *p = userdata;
	struct doc_style st;

	ensure_leaf(p);
	switch (type) {
	case MD_SPAN_EM:
		push_emphasis(p, ROLE_EMPH, ATTR_ITALIC);
		break;
	case MD_SPAN_STRONG:
		push_emphasis(p, ROLE_STRONG, ATTR_BOLD);
		break;
	case MD_SPAN_DEL:
		/* struck text keeps its tildes: plain text would otherwise
		 * state what the author crossed out */
		push_emphasis(p, ROLE_STRIKE, ATTR_STRIKE);
		doc_text_add(cur_text(p), "~~", 2, top_style(p), 0);
		break;
	case MD_SPAN_CODE:
		st = top_style(p);
		st.role = ROLE_CODE;
		push_style(p, st);
		break;
	case MD_SPAN_A:
		enter_link(p, detail);
		break;
	case MD_SPAN_IMG:
		enter_image(p, detail);
		break;
	default:
		push_style(p, top_style(p));
		break;
	}
	return 0;
}

static int leave_span(MD_SPANTYPE type, void *detail, void *userdata)
{
	struct parser *p = userdata;

	(void)detail;
	if (type == MD_SPAN_DEL)
		doc_text_add(cur_text(p), "~~", 2, top_style(p), 0);
	if (type == MD_SPAN_A)
		leave_link(p);
	else if (type == MD_SPAN_IMG)
		leave_image(p);
	else
		pop_style(p);
	return 0;
}

/* ---- text ---- */

/* Code keeps its newlines; tabs go to the next multiple of CODE_TAB
 * columns, counted from where the line starts in the text. */
static void add_code(struct parser *p, const char *s, size_t n)
{
	struct doc_text *t = cur_text(p);
	struct doc_style st = top_style(p);
	static const char spaces[CODE_TAB] = "    ";

	while (n > 0) {
		size_t k = 0;
		while (k < n && s[k] != '\t' && s[k] != '\n')
			k++;
		doc_text_add_clean(t, s, k, st, false);
		if (k == n)
			return;
		if (s[k] == '\n') {
			doc_text_add(t, "\n", 1, st, 0);
			p->code_line = t->len;
		} else {
			int col = doc_text_width(t->s + p->code_line, t->len - p->code_line);
			doc_text_add(t, spaces, (size_t)(CODE_TAB - col % CODE_TAB), st, 0);
		}
		s += k + 1;
		n -= k + 1;
	}
}

static void add_entity(struct parser *p, const char *s, size_t n)
{
	char out[8];
	size_t k = doc_entity_decode(s, n, out);

	if (k)
		doc_text_add_clean(cur_text(p), out, k, top_style(p), false);
	else
		doc_text_add_clean(cur_text(p), s, n, top_style(p), false);
}

static void add_break(struct parser *p)
{
	struct doc_block *b = leaf(p);
	bool hard = b && (b->kind == BLOCK_PARA || b->kind == BLOCK_HTML);

	doc_text_add(cur_text(p), hard ? "\n" : " ", 1, top_style(p), 0);
}

static void add_html(struct parser *p, const char *s, size_t n)
{
	struct doc_block *b = leaf(p);
	struct doc_style st = top_style(p);

	st.role = ROLE_HTML;
	doc_text_add_clean(cur_text(p), s, n, st, b && b->kind == BLOCK_HTML);
}

static int on_text(MD_TEXTTYPE type, const MD_CHAR *s, MD_SIZE n, void *userdata)
{
	struct parser *p = userdata;

	switch (type) {
	case MD_TEXT_NULLCHAR:
		doc_text_add(cur_text(p), "\xEF\xBF\xBD", 3, top_style(p), 0);
		break;
	case MD_TEXT_BR:
		add_break(p);
		break;
	case MD_TEXT_SOFTBR:
		doc_text_add(cur_text(p), " ", 1, top_style(p), 0);
		break;
	case MD_TEXT_ENTITY:
		add_entity(p, s, n);
		break;
	case MD_TEXT_CODE:
		if (p->in_code)
			add_code(p, s, n);
		else
			doc_text_add_clean(cur_text(p), s, n, top_style(p), false);
		break;
	case MD_TEXT_HTML:
		add_html(p, s, n);
		break;
	default:
		doc_text_add_clean(cur_text(p), s, n, top_style(p), false);
		break;
	}
	return 0;
}

/* ---- the document ---- */

static void parser_free(struct parser *p)
{
	while (p->nimgs)
		free(p->img_srcs[--p->nimgs]);
	free(p->img_srcs);
	free(p->img_marks);
	free(p->link_marks);
	free(p->styles);
}

struct doc *doc_parse(const char *markdown, size_t len)
{
	struct doc *doc = xcalloc(1, sizeof *doc);
	struct parser p = {.doc = doc, .box = -1, .leaf = -1};
	MD_PARSER md = {
		.abi_version = 0,
		.flags = MD_FLAGS,
		.enter_block = enter_block,
		.leave_block = leave_block,
		.enter_span = enter_span,
		.leave_span = leave_span,
		.text = on_text,
	};

	if (len > DOC_MAX_INPUT || md_parse(markdown, (MD_SIZE)len, &md, &p) != 0)
		goto fail;
	finish_leaf(&p);
	parser_free(&p);
	return doc;
fail:
	parser_free(&p);
	doc_free(doc);
	return NULL;
}

static void block_free(struct doc_block *b)
{
	doc_text_free(&b->text);
	free(b->lang);
	free(b->error);
	free(b->plain);
	if (b->table) {
		free(b->table->align);
		free(b->table->cells);
		free(b->table);
	}
}

void doc_free(struct doc *doc)
{
	if (!doc)
		return;
	for (size_t i = 0; i < doc->nblocks; i++)
		block_free(&doc->blocks[i]);
	for (size_t i = 0; i < doc->nlinks; i++)
		free(doc->links[i]);
	for (size_t i = 0; i < doc->nquizzes; i++)
		doc_quiz_free(&doc->quizzes[i]);
	free(doc->blocks);
	free(doc->boxes);
	free(doc->links);
	free(doc->link_hash);
	free(doc->quizzes);
	free(doc);
}

int doc_link_count(const struct doc *doc)
{
	return (int)doc->nlinks;
}

const char *doc_link_target(const struct doc *doc, int i)
{
	return i >= 0 && (size_t)i < doc->nlinks ? doc->links[i] : NULL;
}

int doc_quiz_count(const struct doc *doc)
{
	return (int)doc->nquizzes;
}

const struct doc_quiz *doc_quiz_get(const struct doc *doc, int i)
{
	return i >= 0 && (size_t)i < doc->nquizzes ? &doc->quizzes[i].pub : NULL;
}

int doc_block_count(const struct doc *doc)
{
	return (int)doc->nblocks;
}

int doc_problem_count(const struct doc *doc)
{
	int n = 0;

	for (size_t i = 0; i < doc->nblocks; i++)
		n += doc->blocks[i].error != NULL;
	return n;
}

const char *doc_problem(const struct doc *doc, int i)
{
	for (size_t b = 0; b < doc->nblocks; b++) {
		if (doc->blocks[b].error && i-- == 0)
			return doc->blocks[b].error;
	}
	return NULL;
}
