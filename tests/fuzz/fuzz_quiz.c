/* fuzz_quiz.c — a quiz block's source: doc_quiz_parse on its own, then the
 * same text as a ```quiz fence through doc_parse and doc_layout, answered
 * and not. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/doc/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char open[] = "```quiz\n", close[] = "\n```\n";
	struct doc_quiz_full q;
	struct doc *doc;
	char *err = NULL, *md;
	size_t n;

	memset(&q, 0, sizeof q);
	if (doc_quiz_parse((const char *)data, size, &q, &err) == 0) {
		(void)doc_quiz_right_set(&q.pub);
		(void)doc_quiz_is_multi(&q.pub);
		doc_quiz_free(&q);
	}
	free(err);

	n = strlen(open) + size + strlen(close);
	md = malloc(n);
	memcpy(md, open, strlen(open));
	memcpy(md + strlen(open), data, size);
	memcpy(md + strlen(open) + size, close, strlen(close));
	doc = doc_parse(md, n);
	if (doc) {
		int nq = doc_quiz_count(doc);
		struct doc_quiz_state *qs = calloc(nq > 0 ? (size_t)nq : 1, sizeof *qs);
		struct doc_layout_opts o = { .width = 40, .quizzes = qs, .nquizzes = nq };
		struct doc_layout *l = doc_layout(doc, 20);

		doc_layout_free(l);
		for (int i = 0; i < nq; i++) {
			const struct doc_quiz *dq = doc_quiz_get(doc, i);

			qs[i].picked = doc_quiz_right_set(dq);
			qs[i].answers = 2;
			qs[i].first = ~qs[i].picked;
			qs[i].latest = qs[i].picked;
			qs[i].latest_right = true;
		}
		l = doc_layout_with(doc, &o);
		doc_layout_free(l);
		free(qs);
		doc_free(doc);
	}
	free(md);
	return 0;
}
