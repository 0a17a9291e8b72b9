/* fuzz_markdown.c — lesson Markdown through the document model: doc_parse,
 * then doc_layout at several widths (with every quiz unanswered and then
 * answered), search, anchors and both renderings. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

static void exercise_layout(struct doc_layout *l)
{
	struct doc_match *m = NULL;
	struct doc_anchor a = { 0, 0 };

	if (l->nlines > 0)
		a = l->lines[l->nlines / 2].anchor;
	(void)doc_line_for_anchor(l, a);
	(void)doc_search(l, "a", &m);
	free(m);
	(void)doc_search(l, "\xc3\xa9", &m);
	free(m);
	doc_render_plain(l, sink());
	doc_render_ansi(l, sink());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int widths[] = { 10, 40, 80, 200 };
	struct doc *doc = doc_parse((const char *)data, size);
	struct doc_quiz_state *qs;
	struct doc_layout_opts o;
	int nq;

	if (!doc)
		return 0;
	for (int i = 0; i < doc_link_count(doc); i++)
		(void)doc_link_target(doc, i);
	for (int i = 0; i < doc_problem_count(doc); i++)
		(void)doc_problem(doc, i);
	for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
		struct doc_layout *l = doc_layout(doc, widths[w]);

		exercise_layout(l);
		doc_layout_free(l);
	}
	/* every quiz answered: once with its right set, once wrong */
	nq = doc_quiz_count(doc);
	qs = calloc(nq > 0 ? (size_t)nq : 1, sizeof *qs);
	for (int i = 0; i < nq; i++) {
		const struct doc_quiz *q = doc_quiz_get(doc, i);
		uint64_t right = doc_quiz_right_set(q);

		(void)doc_quiz_is_multi(q);
		qs[i].picked = right;
		qs[i].answers = 1 + (i & 1);
		qs[i].first = i & 1 ? ~right : right;
		qs[i].first_right = !(i & 1);
		qs[i].latest = right;
		qs[i].latest_right = true;
	}
	memset(&o, 0, sizeof o);
	o.width = 33;
	o.quizzes = qs;
	o.nquizzes = nq;
	{
		struct doc_layout *l = doc_layout_with(doc, &o);

		exercise_layout(l);
		doc_layout_free(l);
	}
	free(qs);
	doc_free(doc);
	return 0;
}
