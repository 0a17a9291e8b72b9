/* test_doc.c — the document model: wrapping, tables, quizzes, links,
 * anchors, search, highlighting.  Expected values are worked out by hand
 * in the comments beside them. */
#include "cudalab/doc.h"
#include "cudalab/util.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#ifndef CUDALAB_SRCDIR
#define CUDALAB_SRCDIR "."
#endif

/* ---- helpers ---- */

static struct doc *parse(const char *md)
{
	struct doc *doc = doc_parse(md, strlen(md));

	cr_assert_not_null(doc);
	return doc;
}

static char *layout_text(const struct doc_layout *l, bool ansi)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	cr_assert_not_null(f);
	cr_assert_eq(ansi ? doc_render_ansi(l, f) : doc_render_plain(l, f), 0);
	fclose(f);
	return out;
}

/* Plain rendering of md at width, without the closing list of links. */
static char *render(const char *md, int width)
{
	struct doc *doc = parse(md);
	struct doc_layout_opts o = {.width = width, .no_link_list = true};
	struct doc_layout *l = doc_layout_with(doc, &o);
	char *s = layout_text(l, false);

	doc_layout_free(l);
	doc_free(doc);
	return s;
}

static char *repeat(const char *unit, int n)
{
	struct strbuf sb;

	sb_init(&sb);
	for (int i = 0; i < n; i++)
		sb_puts(&sb, unit);
	return sb_steal(&sb);
}

static void expect_render(const char *md, int width, const char *want)
{
	char *got = render(md, width);

	cr_expect_str_eq(got, want, "md:\n%s\nwidth %d, got:\n%s\nwant:\n%s", md,
			 width, got, want);
	free(got);
}

/* The span whose text is exactly s, or NULL. */
static const struct doc_span *find_span(const struct doc_layout *l, const char *s)
{
	size_t n = strlen(s);

	for (int i = 0; i < l->nlines; i++)
		for (int k = 0; k < l->lines[i].nspans; k++) {
			const struct doc_span *sp = &l->lines[i].spans[k];
			if ((size_t)sp->len == n && memcmp(sp->text, s, n) == 0)
				return sp;
		}
	return NULL;
}

/* Display width measured by the C library, apart from the code under test. */
static int libc_width(const char *s, int len)
{
	char *copy = xstrndup(s, (size_t)len);
	size_t n = mbstowcs(NULL, copy, 0);
	wchar_t *w;
	int width;

	cr_assert_neq(n, (size_t)-1, "invalid UTF-8 in output: %s", copy);
	w = xcalloc(n + 1, sizeof *w);
	mbstowcs(w, copy, n + 1);
	width = wcswidth(w, n);
	free(w);
	free(copy);
	return width;
}

static void expect_ref(const struct doc_link_ref *r, int link, int line, int col,
		       int width, bool cont)
{
	cr_expect(r->link == link && r->line == line && r->col == col &&
			  r->width == width && r->cont == cont,
		  "ref {%d, line %d, col %d, width %d, cont %d}, want {%d, %d, %d, %d, %d}",
		  r->link, r->line, r->col, r->width, r->cont, link, line, col, width, cont);
}

static char **golden_inputs(size_t *count)
{
	DIR *d = opendir(CUDALAB_SRCDIR "/tests/golden");
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL) {
		if (!str_ends(e->d_name, ".md"))
			continue;
		xgrow((void **)&names, &cap, n + 1, sizeof *names);
		names[n++] = xasprintf(CUDALAB_SRCDIR "/tests/golden/%s", e->d_name);
	}
	closedir(d);
	*count = n;
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* ---- wrapping ---- */

Test(doc_wrap, words)
{
	/* "alpha beta gamma" is 16 columns; " delta" would make 22 */
	expect_render("alpha beta gamma delta epsilon zeta", 20,
		      "alpha beta gamma\ndelta epsilon zeta\n");
}

Test(doc_wrap, wide_characters_count_two)
{
	cr_expect_eq(doc_text_width("日本語", strlen("日本語")), 6);
	/* 12 characters, 24 columns: 10 fit in 20 columns, 2 remain */
	expect_render("日本語日本語日本語日本語", 20, "日本語日本語日本語日\n本語\n");
	/* at 21 columns the 11th character would end at column 22 */
	expect_render("日本語日本語日本語日本語", 21, "日本語日本語日本語日\n本語\n");
}

Test(doc_wrap, combining_marks_count_zero)
{
	char *word = repeat("e\xCC\x81", 25); /* e + U+0301, 25 times */
	char *first = repeat("e\xCC\x81", 20), *second = repeat("e\xCC\x81", 5);
	char *want = xasprintf("%s\n%s\n", first, second);

	cr_expect_eq(doc_text_width("cafe\xCC\x81", 6), 4);
	expect_render(word, 20, want);
	free(word);
	free(first);
	free(second);
	free(want);
}

Test(doc_wrap, long_word_broken_by_character)
{
	char *a45 = repeat("a", 45), *a18 = repeat("a", 18), *a20 = repeat("a", 20);
	char *md = xasprintf("x %s", a45);
	char *want = xasprintf("x %s\n%s\naaaaaaa\n", a18, a20);

	/* 2 + 18 fill the first line, 20 the next, 7 are left */
	expect_render(md, 20, want);
	free(a45);
	free(a18);
	free(a20);
	free(md);
	free(want);
}

Test(doc_wrap, url_broken_by_character_and_listed)
{
	struct doc *doc = parse("see https://example.com/abcdefghijklmnopqrstuvwxyz0123456789");
	struct doc_layout *l = doc_layout(doc, 20);
	char *got = layout_text(l, false);

	/* the URL is 56 characters; "see " leaves 16 for its start; the
	 * link list indents by 4, leaving 16 per line */
	cr_expect_str_eq(got, "see https://example.\n"
			      "com/abcdefghijklmnop\n"
			      "qrstuvwxyz0123456789\n"
			      "[1]\n"
			      "\n"
			      "Links\n"
			      "─────\n"
			      "[1] https://example.\n"
			      "    com/abcdefghijkl\n"
			      "    mnopqrstuvwxyz01\n"
			      "    23456789\n");
	/* one link, laid out in four pieces; all but the first continue it */
	cr_assert_eq(l->nrefs, 4);
	expect_ref(&l->refs[0], 0, 0, 4, 16, false);
	expect_ref(&l->refs[1], 0, 1, 0, 20, true);
	expect_ref(&l->refs[2], 0, 2, 0, 20, true);
	expect_ref(&l->refs[3], 0, 3, 0, 3, true);
	free(got);
	doc_layout_free(l);
	doc_free(doc);
}

Test(doc_wrap, width_is_raised_to_the_minimum)
{
	struct doc *doc = parse("one two three four five six seven");
	struct doc_layout *l = doc_layout(doc, 5);

	cr_expect_eq(l->width, 20);
	cr_assert_eq(l->nlines, 2);
	cr_expect_eq(l->lines[0].width, 18); /* "one two three four" */
	doc_layout_free(l);
	doc_free(doc);
}

Test(doc_wrap, never_wider_than_the_width)
{
	size_t n;
	char **names = golden_inputs(&n);

	cr_assert(setlocale(LC_CTYPE, "C.UTF-8"));
	cr_assert_geq(n, 9);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		char *md = read_file(names[i], &len);
		struct doc *doc = doc_parse(md, len);
		for (int w = 20; w <= 120; w++) {
			struct doc_layout *l = doc_layout(doc, w);
			for (int k = 0; k < l->nlines; k++) {
				const struct doc_line *ln = &l->lines[k];
				int measured = libc_width(ln->text, ln->len);
				cr_assert_leq(measured, w, "%s at %d, line %d: %.*s", names[i],
					      w, k, ln->len, ln->text);
				cr_assert_eq(measured, ln->width, "%s line %d", names[i], k);
				cr_assert(ln->len == 0 || ln->text[ln->len - 1] != ' ');
			}
			doc_layout_free(l);
		}
		doc_free(doc);
		free(md);
	}
	free_names(names, n);
}

Test(doc_wrap, spans_tile_their_line)
{
	size_t n;
	char **names = golden_inputs(&n);

	for (size_t i = 0; i < n; i++) {
		size_t len;
		char *md = read_file(names[i], &len);
		struct doc *doc = doc_parse(md, len);
		struct doc_layout *l = doc_layout(doc, 37);
		for (int k = 0; k < l->nlines; k++) {
			const struct doc_line *ln = &l->lines[k];
			int off = 0, col = 0;
			for (int s = 0; s < ln->nspans; s++) {
				cr_assert_eq(ln->spans[s].text, ln->text + off);
				cr_assert_eq(ln->spans[s].col, col);
				off += ln->spans[s].len;
				col += ln->spans[s].width;
			}
			cr_assert_eq(off, ln->len);
			cr_assert_eq(col, ln->width);
			if (k > 0) {
				struct doc_anchor a = l->lines[k - 1].anchor, b = ln->anchor;
				cr_assert(a.block < b.block || (a.block == b.block && a.offset <= b.offset),
					  "%s: anchors go back at line %d", names[i], k);
			}
		}
		doc_layout_free(l);
		doc_free(doc);
		free(md);
	}
	free_names(names, n);
}

Test(doc_wrap, ansi_shows_the_same_text)
{
	size_t n;
	char **names = golden_inputs(&n);

	for (size_t i = 0; i < n; i++) {
		size_t len;
		char *md = read_file(names[i], &len);
		struct doc *doc = doc_parse(md, len);
		struct doc_layout *l = doc_layout(doc, 40);
		char *plain = layout_text(l, false), *ansi = layout_text(l, true);
		char *r = ansi, *w = ansi;
		bool styled = false;
		/* drop every ESC [ ... m */
		while (*r) {
			if (r[0] == '\033' && r[1] == '[') {
				r = strchr(r, 'm') + 1;
				styled = true;
			} else {
				*w++ = *r++;
			}
		}
		*w = '\0';
		cr_expect_str_eq(ansi, plain, "%s", names[i]);
		cr_expect(styled, "%s has no styles at all", names[i]);
		free(plain);
		free(ansi);
		doc_layout_free(l);
		doc_free(doc);
		free(md);
	}
	free_names(names, n);
}

Test(doc_wrap, control_characters_and_bad_utf8_are_replaced)
{
	expect_render("a\x1b[31mb\xff" "c", 40, "a\xEF\xBF\xBD[31mb\xEF\xBF\xBD" "c\n");
}

Test(doc_wrap, deep_nesting_keeps_room_for_text)
{
	char *bars = repeat("> ", 30);
	char *md = xasprintf("%sdeep words here", bars);
	struct doc *doc = parse(md);
	struct doc_layout *l = doc_layout(doc, 20);

	cr_assert_gt(l->nlines, 0);
	for (int i = 0; i < l->nlines; i++)
		cr_expect_leq(l->lines[i].width, 20);
	/* ten columns are kept for the text: "deep words" fits */
	cr_expect(strstr(l->lines[0].text, "deep words") != NULL);
	doc_layout_free(l);
	doc_free(doc);
	free(md);
	free(bars);
}

/* ---- blocks ---- */

Test(doc_blocks, headings_differ_by_level)
{
	expect_render("# One\n\n## Two\n\n### Three\n\n#### Four", 40,
		      "One\n═══\n\nTwo\n───\n\n▸ Three\n\n▹ Four\n");
}

Test(doc_blocks, inline_styles)
{
	struct doc *doc = parse("*em* **strong** ~~gone~~ `code`");
	struct doc_layout *l = doc_layout(doc, 40);
	const struct doc_span *sp;

	cr_expect(l->lines[0].len == 23 &&
		  memcmp(l->lines[0].text, "em strong ~~gone~~ code", 23) == 0);
	sp = find_span(l, "em");
	cr_assert_not_null(sp);
	cr_expect(sp->role == ROLE_EMPH && (sp->attrs & ATTR_ITALIC));
	sp = find_span(l, "strong");
	cr_assert_not_null(sp);
	cr_expect(sp->role == ROLE_STRONG && (sp->attrs & ATTR_BOLD));
	sp = find_span(l, "~~gone~~");
	cr_assert_not_null(sp);
	cr_expect(sp->attrs & ATTR_STRIKE);
	sp = find_span(l, "code");
	cr_assert_not_null(sp);
	cr_expect_eq(sp->role, ROLE_CODE);
	doc_layout_free(l);
	doc_free(doc);
}

Test(doc_blocks, list_hanging_indent_and_markers)
{
	/* "• " + 15 columns; " eee" would reach 21 */
	expect_render("- aaa bbb ccc ddd eee fff", 20, "• aaa bbb ccc ddd\n  eee fff\n");
	expect_render("9. nine\n10. ten", 40, " 9. nine\n10. ten\n");
	expect_render("- [x] done\n- [ ] todo", 40, "[x] done\n[ ] todo\n");
	expect_render("- a\n  - b\n    - c\n- d", 40, "• a\n  ◦ b\n    ‣ c\n• d\n");
}

Test(doc_blocks, nested_quotes)
{
	expect_render("> a\n>\n> > b c d e f g h i j k l m n", 20,
		      "│ a\n│\n│ │ b c d e f g h i\n│ │ j k l m n\n");
}

Test(doc_blocks, raw_html_and_images_are_shown)
{
	expect_render("<b>bold</b> text", 40, "<b>bold</b> text\n");
	expect_render("<div>\nblock\n</div>", 40, "<div>\nblock\n</div>\n");
	expect_render("![alt text](pic.png)", 40, "[image: alt text] (pic.png)\n");
}

Test(doc_blocks, thematic_break_spans_the_width)
{
	char *rule = repeat("─", 33);
	char *want = xasprintf("a\n\n%s\n\nb\n", rule);

	expect_render("a\n\n---\n\nb", 33, want);
	free(rule);
	free(want);
}

Test(doc_blocks, code_lines_continue_with_a_marker)
{
	char *x50 = repeat("x", 50), *x28 = repeat("x", 28), *x22 = repeat("x", 22);
	char *rule = repeat("─", 29);
	char *md = xasprintf("```\n%s\n```", x50);
	char *want = xasprintf("┌%s\n│ %s\n↪ %s\n└%s\n", rule, x28, x22, rule);

	/* 30 columns: the gutter takes 2, so 28 + 22 */
	expect_render(md, 30, want);
	free(x50);
	free(x28);
	free(x22);
	free(rule);
	free(md);
	free(want);
}

Test(doc_blocks, code_is_highlighted)
{
	struct doc *doc = parse(
		"```cuda\n"
		"#include <cstdio>\n"
		"__global__ void k(int *p) { p[threadIdx.x] = 0x10; __syncthreads(); } // done\n"
		"```\n"
		"```py\n"
		"def f(x):  # c\n"
		"    return 'a' + 1.5\n"
		"```\n"
		"```bash\n"
		"echo \"$HOME\" $USER # hi\n"
		"```\n");
	struct doc_layout *l = doc_layout(doc, 120);
	struct {
		const char *text;
		enum doc_role role;
	} want[] = {
		{"#include <cstdio>", ROLE_PREPROC}, {"__global__", ROLE_KEYWORD},
		{"void", ROLE_TYPE},		     {"int", ROLE_TYPE},
		{"threadIdx", ROLE_BUILTIN},	     {"0x10", ROLE_NUMBER},
		{"__syncthreads", ROLE_BUILTIN},     {"// done", ROLE_COMMENT},
		{"def", ROLE_KEYWORD},		     {"# c", ROLE_COMMENT},
		{"return", ROLE_KEYWORD},	     {"'a'", ROLE_STRING},
		{"1.5", ROLE_NUMBER},		     {"echo", ROLE_BUILTIN},
		{"\"$HOME\"", ROLE_STRING},	     {"$USER", ROLE_BUILTIN},
		{"# hi", ROLE_COMMENT},
	};

	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const struct doc_span *sp = find_span(l, want[i].text);
		cr_expect_not_null(sp, "no span \"%s\"", want[i].text);
		if (sp)
			cr_expect_eq(sp->role, want[i].role, "\"%s\" is %s", want[i].text,
				     doc_role_name(sp->role));
	}
	doc_layout_free(l);
	doc_free(doc);
}

/* ---- tables ---- */

Test(doc_table, widths_from_content_and_alignment)
{
	expect_render("| a | bb |\n|---|---:|\n| ccc | d |", 40,
		      "┌─────┬────┐\n"
		      "│ a   │ bb │\n"
		      "╞═════╪════╡\n"
		      "│ ccc │  d │\n"
		      "└─────┴────┘\n");
	/* center: one spare column on each side of "b" */
	expect_render("| left | mid | right |\n|:-----|:---:|------:|\n| a | b | c |",
		      40,
		      "┌──────┬─────┬───────┐\n"
		      "│ left │ mid │ right │\n"
		      "╞══════╪═════╪═══════╡\n"
		      "│ a    │  b  │     c │\n"
		      "└──────┴─────┴───────┘\n");
}

Test(doc_table, cells_wrap_when_too_wide)
{
	/* 30 columns less 7 of borders and padding leave 23; "key" keeps 3
	 * and the second column gets the other 20 */
	expect_render("| k | v |\n|---|---|\n"
		      "| key | one two three four five six seven eight |",
		      30,
		      "┌─────┬──────────────────────┐\n"
		      "│ k   │ v                    │\n"
		      "╞═════╪══════════════════════╡\n"
		      "│ key │ one two three four   │\n"
		      "│     │ five six seven eight │\n"
		      "└─────┴──────────────────────┘\n");
}

Test(doc_table, too_many_columns_become_records)
{
	char *rule = repeat("─", 20);
	char *want = xasprintf("%s\na\n  1\nb\n  2\nc\n  3\nd\n  4\ne\n  5\nf\n  6\n%s\n",
			       rule, rule);

	/* two narrow columns still fit in a box at 20 */
	expect_render("| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |", 20,
		      "┌───┬───┐\n│ a │ b │\n╞═══╪═══╡\n│ 1 │ 2 │\n│ 3 │ 4 │\n└───┴───┘\n");
	/* six columns need 6 * 3 + 1 = 19 columns of borders alone */
	expect_render("| a | b | c | d | e | f |\n"
		      "|---|---|---|---|---|---|\n"
		      "| 1 | 2 | 3 | 4 | 5 | 6 |",
		      20, want);
	free(rule);
	free(want);
}

/* ---- quizzes ---- */

static const char good_quiz[] =
	"Intro\n\n"
	"```quiz\n"
	"? What bounds a 1 GiB vector add on an H100?\n"
	"- [ ] FP32 throughput\n"
	"- [x] DRAM bandwidth\n"
	"> 12 bytes move for every FLOP.\n"
	"```\n";

Test(doc_quiz, parsed_into_the_model)
{
	struct doc *doc = parse(good_quiz);
	const struct doc_quiz *q;

	cr_assert_eq(doc_quiz_count(doc), 1);
	q = doc_quiz_get(doc, 0);
	cr_expect_str_eq(q->question, "What bounds a 1 GiB vector add on an H100?");
	cr_assert_eq(q->nchoices, 2);
	cr_expect_str_eq(q->choices[0].text, "FP32 throughput");
	cr_expect(!q->choices[0].correct);
	cr_expect_str_eq(q->choices[1].text, "DRAM bandwidth");
	cr_expect(q->choices[1].correct);
	cr_expect_str_eq(q->explanation, "12 bytes move for every FLOP.");
	cr_expect_eq(q->block, 1);
	cr_expect_null(doc_quiz_get(doc, 1));
	doc_free(doc);
}

Test(doc_quiz, plain_output_hides_the_answer)
{
	struct doc *doc = parse(good_quiz);
	struct doc_layout *l = doc_layout(doc, 80);
	char *got = layout_text(l, false);

	cr_expect_str_eq(got, "Intro\n\n"
			      "Quiz 1: What bounds a 1 GiB vector add on an H100?\n"
			      "  1) FP32 throughput\n"
			      "  2) DRAM bandwidth\n");
	/* lines know their quiz and choice */
	cr_expect(l->lines[2].quiz == 0 && l->lines[2].choice == -1);
	cr_expect(l->lines[3].quiz == 0 && l->lines[3].choice == 0);
	cr_expect(l->lines[4].quiz == 0 && l->lines[4].choice == 1);
	cr_expect(l->lines[0].quiz == -1);
	free(got);
	doc_layout_free(l);
	doc_free(doc);
}

Test(doc_quiz, answered_quiz_shows_marks_and_explanation)
{
	struct doc *doc = parse(good_quiz);
	int answers[] = {0};
	struct doc_layout_opts o = {.width = 80, .answers = answers, .nanswers = 1};
	struct doc_layout *l = doc_layout_with(doc, &o);
	char *got = layout_text(l, false);

	cr_expect_str_eq(got, "Intro\n\n"
			      "Quiz 1: What bounds a 1 GiB vector add on an H100?\n"
			      "✗ 1) FP32 throughput\n"
			      "✓ 2) DRAM bandwidth\n"
			      "  → 12 bytes move for every FLOP.\n"
			      "  Your answer: 1 (wrong)\n");
	free(got);
	doc_layout_free(l);
	doc_free(doc);
}

static const char choose_all[] =
	"```quiz\n"
	"? Which move fewer bytes?\n"
	"- [x] fusion\n"
	"- [ ] more threads\n"
	"- [x] a smaller type\n"
	"> Only fewer bytes help.\n"
	"```\n";

Test(doc_quiz, right_set_and_choose_all)
{
	struct doc *one = parse(good_quiz), *all = parse(choose_all);

	cr_expect_eq(doc_quiz_right_set(doc_quiz_get(one, 0)), 0x2u);
	cr_expect(!doc_quiz_is_multi(doc_quiz_get(one, 0)));
	cr_expect_eq(doc_quiz_right_set(doc_quiz_get(all, 0)), 0x5u);
	cr_expect(doc_quiz_is_multi(doc_quiz_get(all, 0)));
	doc_free(one);
	doc_free(all);
}

static char *quiz_text(const char *md, const struct doc_quiz_state *s)
{
	struct doc *doc = parse(md);
	struct doc_layout_opts o = {.width = 80, .quizzes = s, .nquizzes = 1};
	struct doc_layout *l = doc_layout_with(doc, &o);
	char *got = layout_text(l, false);

	doc_layout_free(l);
	doc_free(doc);
	return got;
}

Test(doc_quiz, choose_all_shows_ticks_and_hides_the_answer)
{
	struct doc_quiz_state s = {.picked = 0x4};
	char *got = quiz_text(choose_all, &s);

	cr_expect_str_eq(got, "Quiz 1: Which move fewer bytes?\n"
			      "  [ ] 1) fusion\n"
			      "  [ ] 2) more threads\n"
			      "  [x] 3) a smaller type\n");
	free(got);
}

Test(doc_quiz, first_answer_shown_beside_the_latest)
{
	/* first: 1 alone (wrong); latest: 1 and 2 (wrong, 2 marked); 3 ticked */
	struct doc_quiz_state s = {.picked = 0x4, .answers = 2, .first = 0x1, .first_right = false,
				   .latest = 0x3, .latest_right = false};
	char *got = quiz_text(choose_all, &s);

	cr_expect_str_eq(got, "Quiz 1: Which move fewer bytes?\n"
			      "✓ [ ] 1) fusion\n"
			      "✗ [ ] 2) more threads\n"
			      "✓ [x] 3) a smaller type\n"
			      "  → Only fewer bytes help.\n"
			      "  First answer: 1 (wrong); latest: 1,2 (wrong)\n");
	free(got);

	/* submitted, nothing ticked since: the boxes keep the answer's ticks */
	s = (struct doc_quiz_state){.answers = 1, .first = 0x5, .first_right = true,
				    .latest = 0x5, .latest_right = true};
	got = quiz_text(choose_all, &s);
	cr_expect_str_eq(got, "Quiz 1: Which move fewer bytes?\n"
			      "✓ [x] 1) fusion\n"
			      "  [ ] 2) more threads\n"
			      "✓ [x] 3) a smaller type\n"
			      "  → Only fewer bytes help.\n"
			      "  Your answer: 1,3 (right)\n");
	free(got);

	/* a one-answer quiz: the first answer right, a later one wrong */
	s = (struct doc_quiz_state){.answers = 3, .first = 0x2, .first_right = true,
				    .latest = 0x1, .latest_right = false};
	got = quiz_text(good_quiz, &s);
	cr_expect_str_eq(got, "Intro\n\n"
			      "Quiz 1: What bounds a 1 GiB vector add on an H100?\n"
			      "✗ 1) FP32 throughput\n"
			      "✓ 2) DRAM bandwidth\n"
			      "  → 12 bytes move for every FLOP.\n"
			      "  First answer: 2 (right); latest: 1 (wrong)\n");
	free(got);
}

Test(doc_quiz, answer_line_coloured_by_the_first_answer)
{
	struct doc *doc = parse(good_quiz);
	struct doc_quiz_state s = {.answers = 2, .first = 0x1, .latest = 0x2, .latest_right = true};
	struct doc_layout_opts o = {.width = 80, .quizzes = &s, .nquizzes = 1};
	struct doc_layout *l = doc_layout_with(doc, &o);
	const struct doc_span *sp = find_span(l, "First answer: 1 (wrong); latest: 2 (right)");
	const struct doc_line *last = &l->lines[l->nlines - 1];

	cr_assert_not_null(sp);
	cr_expect_eq(sp->role, ROLE_QUIZ_WRONG);
	/* the answer line belongs to its quiz, after its explanation */
	cr_expect_eq(last->quiz, 0);
	cr_expect_eq(last->choice, -1);
	cr_expect_gt(last->anchor.offset, l->lines[l->nlines - 2].anchor.offset);
	doc_layout_free(l);
	doc_free(doc);
}

Test(doc_quiz, malformed_quizzes_are_code_with_a_note)
{
	static const char *const bad[] = {
		"```quiz\n- [x] yes\n- [ ] no\n```",
		"```quiz\n? Question\n> why\n```",
		"```quiz\n? Question\n- [ ] a\n- [ ] b\n```",
		"```quiz\n```",
	};
	static const char *const note[] = {
		"! quiz: no question",
		"! quiz: no choices",
		"! quiz: no choice is marked right",
		"! quiz: no question",
	};

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct doc *doc = parse(bad[i]);
		char *got = render(bad[i], 60);
		cr_expect_eq(doc_quiz_count(doc), 0, "%s", bad[i]);
		cr_expect(strncmp(got, "┌─ quiz ", strlen("┌─ quiz ")) == 0, "%s", got);
		cr_expect(strstr(got, note[i]) != NULL, "%s", got);
		free(got);
		doc_free(doc);
	}
}

Test(doc_quiz, indexed_in_document_order)
{
	struct doc *doc = parse("```quiz\n? bad\n```\n\n```quiz\n? A\n- [x] a\n```\n\n"
				"```quiz\n? B\n- [ ] b\n- [X] c\n```");

	cr_assert_eq(doc_quiz_count(doc), 2);
	cr_expect_str_eq(doc_quiz_get(doc, 0)->question, "A");
	cr_expect_eq(doc_quiz_get(doc, 0)->block, 1);
	cr_expect_str_eq(doc_quiz_get(doc, 1)->question, "B");
	cr_expect(doc_quiz_get(doc, 1)->choices[1].correct);
	doc_free(doc);
}

/* ---- links ---- */

Test(doc_links, numbered_by_first_appearance)
{
	struct doc *doc = parse("[a](http://a.org) [b](lesson:intro) [c](http://a.org)");
	struct doc_layout *l = doc_layout(doc, 40);
	char *got = layout_text(l, false);

	cr_assert_eq(doc_link_count(doc), 2);
	cr_expect_str_eq(doc_link_target(doc, 0), "http://a.org");
	cr_expect_str_eq(doc_link_target(doc, 1), "lesson:intro");
	cr_expect_str_eq(got, "a[1] b[2] c[1]\n"
			      "\n"
			      "Links\n"
			      "─────\n"
			      "[1] http://a.org\n"
			      "[2] lesson:intro\n");
	/* "a[1]" at 0, "b[2]" at 5, "c[1]" at 10, four columns each */
	cr_assert_eq(l->nrefs, 3);
	expect_ref(&l->refs[0], 0, 0, 0, 4, false);
	expect_ref(&l->refs[1], 1, 0, 5, 4, false);
	expect_ref(&l->refs[2], 0, 0, 10, 4, false);
	free(got);
	doc_layout_free(l);
	doc_free(doc);
}

Test(doc_links, exercise_targets_kept_and_empty_targets_dropped)
{
	struct doc *doc = parse("[x](exercise:vector-add) and [y]()");

	cr_assert_eq(doc_link_count(doc), 1);
	cr_expect_str_eq(doc_link_target(doc, 0), "exercise:vector-add");
	doc_free(doc);
	expect_render("[x](exercise:vector-add) and [y]()", 40, "x[1] and y\n");
}

/* ---- anchors, headings, search ---- */

static char *numbered_words(int n)
{
	struct strbuf sb;

	sb_init(&sb);
	for (int i = 1; i <= n; i++)
		sb_printf(&sb, "%sw%02d", i > 1 ? " " : "", i);
	return sb_steal(&sb);
}

Test(doc_anchor, place_survives_relayout)
{
	char *md = numbered_words(60);
	struct doc *doc = parse(md);
	struct doc_layout *w80 = doc_layout(doc, 80), *w40 = doc_layout(doc, 40);

	/* 80 columns hold 20 words (79 columns), 40 hold 10 (39 columns) */
	cr_assert_eq(w80->nlines, 3);
	cr_assert_eq(w40->nlines, 6);
	cr_expect(strncmp(w80->lines[1].text, "w21", 3) == 0);
	cr_expect_eq(doc_line_for_anchor(w40, w80->lines[1].anchor), 2);
	cr_expect(strncmp(w40->lines[2].text, "w21", 3) == 0);
	/* w31 starts line 3 at 40 and sits inside line 1 at 80 */
	cr_expect_eq(doc_line_for_anchor(w80, w40->lines[3].anchor), 1);
	cr_expect_eq(doc_line_for_anchor(w40, w40->lines[5].anchor), 5);
	doc_layout_free(w80);
	doc_layout_free(w40);
	doc_free(doc);
	free(md);
}

Test(doc_anchor, code_and_blocks_map_across_widths)
{
	char *x60 = repeat("x", 60);
	char *md = xasprintf("para\n\n```\n%s\nline two\n```\n\nafter", x60);
	struct doc *doc = parse(md);
	struct doc_layout *w80 = doc_layout(doc, 80), *w40 = doc_layout(doc, 40);

	/* 80: para, gap, top, x60, "line two", bottom, gap, after
	 * 40: para, gap, top, x38, ↪ x22, "line two", bottom, gap, after */
	cr_assert_eq(w80->nlines, 8);
	cr_assert_eq(w40->nlines, 9);
	cr_expect_eq(doc_line_for_anchor(w40, w80->lines[4].anchor), 5);
	cr_expect(w40->lines[5].len == (int)strlen("│ line two") &&
		  memcmp(w40->lines[5].text, "│ line two", strlen("│ line two")) == 0);
	cr_expect_eq(doc_line_for_anchor(w40, w80->lines[2].anchor), 2);
	cr_expect_eq(doc_line_for_anchor(w40, w80->lines[6].anchor), 7);
	cr_expect_eq(doc_line_for_anchor(w40, w80->lines[7].anchor), 8);
	cr_expect_eq(doc_line_for_anchor(w40, (struct doc_anchor){-5, 0}), 0);
	doc_layout_free(w80);
	doc_layout_free(w40);
	doc_free(doc);
	free(md);
	free(x60);
}

Test(doc_anchor, headings_for_a_table_of_contents)
{
	struct doc *doc = parse("# A\n\ntext\n\n## B [x](http://x.org)\n\n### C");
	struct doc_layout *l = doc_layout(doc, 40);

	/* lines: A, ═, "", text, "", B x[1], ─, "", ▸ C */
	cr_assert_eq(l->nheadings, 3);
	cr_expect_str_eq(l->headings[0].text, "A");
	cr_expect(l->headings[0].level == 1 && l->headings[0].line == 0);
	cr_expect_str_eq(l->headings[1].text, "B x");
	cr_expect(l->headings[1].level == 2 && l->headings[1].line == 5);
	cr_expect_str_eq(l->headings[2].text, "C");
	cr_expect(l->headings[2].level == 3 && l->headings[2].line == 8);
	doc_layout_free(l);
	doc_free(doc);
}

Test(doc_anchor, empty_document)
{
	struct doc *doc = parse("");
	struct doc_layout *l = doc_layout(doc, 40);

	cr_expect_eq(l->nlines, 0);
	cr_expect_eq(doc_line_for_anchor(l, (struct doc_anchor){0, 0}), 0);
	doc_layout_free(l);
	doc_free(doc);
}

Test(doc_search, case_insensitive_by_display_column)
{
	struct doc *doc = parse("Hello World, hello again\n\n日本語 and 日本\n\nÉCOLE école");
	struct doc_layout *l = doc_layout(doc, 80);
	struct doc_match *m;
	int n;

	n = doc_search(l, "hello", &m);
	cr_assert_eq(n, 2);
	cr_expect(m[0].line == 0 && m[0].col_start == 0 && m[0].col_end == 5);
	cr_expect(m[1].line == 0 && m[1].col_start == 13 && m[1].col_end == 18);
	free(m);
	/* 日本語 takes 6 columns and " and " 5 more */
	n = doc_search(l, "日本", &m);
	cr_assert_eq(n, 2);
	cr_expect(m[0].line == 2 && m[0].col_start == 0 && m[0].col_end == 4);
	cr_expect(m[1].line == 2 && m[1].col_start == 11 && m[1].col_end == 15);
	free(m);
	n = doc_search(l, "École", &m);
	cr_assert_eq(n, 2);
	cr_expect(m[1].line == 4 && m[1].col_start == 6 && m[1].col_end == 11);
	free(m);
	cr_expect_eq(doc_search(l, "", &m), 0);
	cr_expect_null(m);
	cr_expect_eq(doc_search(l, "absent", &m), 0);
	doc_layout_free(l);
	doc_free(doc);
}

Test(doc_search, a_phrase_over_a_wrapped_line_is_found)
{
	/* at 24 columns the paragraph is "Pick one speed-up", "(Choose all
	 * that apply.)", "then stop."; the list item is "• a list item that
	 * wraps", "  onto its next line"; the code "│ int x = a", "│ + b;" */
	struct doc *doc = parse("Pick one speed-up (Choose all that apply.) then stop.\n\n"
				"- a list item that wraps onto its next line\n\n"
				"```\nint x = a\n+ b;\n```\n");
	struct doc_layout *l = doc_layout(doc, 24);
	struct doc_match *m;
	int n;

	cr_assert_eq(l->nlines, 11);
	n = doc_search(l, "speed-up (choose", &m);
	cr_assert_eq(n, 1);
	/* "speed-up" from column 9 of line 0, "(Choose" to column 7 of line 1 */
	cr_expect(m[0].line == 0 && m[0].col_start == 9 && m[0].end_line == 1);
	cr_expect(m[0].end_col_start == 0 && m[0].col_end == 7);
	free(m);
	/* the wrap and the indent read as one blank: "wraps onto" */
	n = doc_search(l, "wraps onto its", &m);
	cr_assert_eq(n, 1);
	cr_expect(m[0].line == 4 && m[0].col_start == 19 && m[0].end_line == 5);
	cr_expect(m[0].end_col_start == 2 && m[0].col_end == 10);
	free(m);
	/* after a match over a wrap, the next line is searched from its end:
	 * "all" once, not again in "(Choose all" */
	n = doc_search(l, "apply.) then", &m);
	cr_assert_eq(n, 1);
	cr_expect(m[0].line == 1 && m[0].end_line == 2 && m[0].col_end == 4);
	free(m);
	n = doc_search(l, "then", &m);
	cr_assert_eq(n, 1);
	cr_expect(m[0].line == 2 && m[0].end_line == 2 && m[0].end_col_start == 0);
	free(m);
	/* code lines are not joined */
	cr_expect_eq(doc_search(l, "a + b", &m), 0);
	cr_expect_eq(doc_search(l, "stop. a", &m), 0);
	doc_layout_free(l);
	doc_free(doc);
}
