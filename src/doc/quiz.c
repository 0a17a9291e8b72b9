/* quiz.c — the quiz block format:
 *
 *     ? Question text
 *     - [ ] wrong choice
 *     - [x] right choice
 *     > explanation
 *
 * A line that starts with none of these continues the one before it; blank
 * lines are ignored.  A quiz needs a question, at least one choice and at
 * least one right choice; anything else is reported, never guessed at.
 * Several right choices make a "choose all that apply" quiz. */
#include "internal.h"

#include "cudalab/util.h"

#include <stdlib.h>
#include <string.h>

enum part { PART_NONE, PART_QUESTION, PART_CHOICE, PART_EXPLANATION };

struct qbuild {
	struct strbuf question, explanation;
	struct strbuf *choices;
	bool *correct;
	size_t nchoices, cap, ccap;
	bool has_question;
	enum part last;
};

static void add_words(struct strbuf *sb, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (sb->len)
		sb_putc(sb, ' ');
	sb_append(sb, s, n);
}

/* Recognises "- [ ] ", "- [x] " (also * and + bullets); returns the offset
 * of the choice text, or 0 when the line is not a choice. */
static size_t choice_prefix(const char *s, size_t n, bool *correct)
{
	size_t i = 1;

	if (n < 5 || (s[0] != '-' && s[0] != '*' && s[0] != '+') || s[1] != ' ')
		return 0;
	while (i < n && s[i] == ' ')
		i++;
	if (i + 3 > n || s[i] != '[' || s[i + 2] != ']')
		return 0;
	if (s[i + 1] != ' ' && s[i + 1] != 'x' && s[i + 1] != 'X')
		return 0;
	if (i + 3 < n && s[i + 3] != ' ')
		return 0;
	*correct = s[i + 1] != ' ';
	return i + 3;
}

static void trim(const char **s, size_t *n)
{
	while (*n && **s == ' ') {
		(*s)++;
		(*n)--;
	}
	while (*n && (*s)[*n - 1] == ' ')
		(*n)--;
}

static void add_choice(struct qbuild *b, const char *s, size_t n, bool correct)
{
	xgrow((void **)&b->choices, &b->cap, b->nchoices + 1, sizeof *b->choices);
	xgrow((void **)&b->correct, &b->ccap, b->nchoices + 1, sizeof *b->correct);
	sb_init(&b->choices[b->nchoices]);
	add_words(&b->choices[b->nchoices], s, n);
	b->correct[b->nchoices++] = correct;
}

/* Files one trimmed, non-empty line; -1 when it belongs nowhere. */
static int quiz_line(struct qbuild *b, const char *s, size_t n, char **err)
{
	bool correct = false;
	size_t k;

	if (s[0] == '?') {
		s++, n--;
		trim(&s, &n);
		add_words(&b->question, s, n);
		b->has_question = b->has_question || n > 0;
		b->last = PART_QUESTION;
	} else if ((k = choice_prefix(s, n, &correct)) > 0) {
		s += k, n -= k;
		trim(&s, &n);
		add_choice(b, s, n, correct);
		b->last = PART_CHOICE;
	} else if (s[0] == '>') {
		s++, n--;
		trim(&s, &n);
		add_words(&b->explanation, s, n);
		b->last = PART_EXPLANATION;
	} else if (b->last == PART_QUESTION) {
		add_words(&b->question, s, n);
	} else if (b->last == PART_CHOICE) {
		add_words(&b->choices[b->nchoices - 1], s, n);
	} else if (b->last == PART_EXPLANATION) {
		add_words(&b->explanation, s, n);
	} else {
		*err = xasprintf("quiz: \"%.*s\" comes before the '? question' line",
				 (int)(n > 40 ? 40 : n), s);
		return -1;
	}
	return 0;
}

static const char *quiz_problem(const struct qbuild *b)
{
	size_t right = 0;

	if (!b->has_question)
		return "quiz: no question (a line starting with '?')";
	if (b->nchoices == 0)
		return "quiz: no choices (lines '- [ ] wrong' and '- [x] right')";
	for (size_t i = 0; i < b->nchoices; i++)
		right += b->correct[i];
	if (right == 0)
		return "quiz: no choice is marked right (write '- [x]')";
	return NULL;
}

/* Fills t from s, with `code` spans in ROLE_CODE and the rest in base. */
static void styled(struct doc_text *t, const char *s, struct doc_style base)
{
	struct doc_style code = {.role = ROLE_CODE, .link = -1};
	const char *open, *close;

	while ((open = strchr(s, '`')) && (close = strchr(open + 1, '`'))) {
		doc_text_add(t, s, (size_t)(open - s), base, 0);
		doc_text_add(t, open + 1, (size_t)(close - open - 1), code, 0);
		s = close + 1;
	}
	doc_text_add(t, s, strlen(s), base, 0);
}

static void quiz_fill(struct qbuild *b, struct doc_quiz_full *q)
{
	struct doc_style qs = {.role = ROLE_QUIZ, .attrs = ATTR_BOLD, .link = -1};
	struct doc_style cs = {.role = ROLE_QUIZ, .link = -1};
	struct doc_style es = {.role = ROLE_TEXT, .link = -1};

	memset(q, 0, sizeof *q);
	q->question = sb_steal(&b->question);
	q->explanation = sb_steal(&b->explanation);
	q->choices = xcalloc(b->nchoices, sizeof *q->choices);
	q->ctext = xcalloc(b->nchoices, sizeof *q->ctext);
	for (size_t i = 0; i < b->nchoices; i++) {
		q->choices[i].text = sb_steal(&b->choices[i]);
		q->choices[i].correct = b->correct[i];
		styled(&q->ctext[i], q->choices[i].text, cs);
	}
	styled(&q->qtext, q->question, qs);
	styled(&q->etext, q->explanation, es);
	q->pub.question = q->question;
	q->pub.explanation = q->explanation;
	q->pub.choices = q->choices;
	q->pub.nchoices = (int)b->nchoices;
}

static void qbuild_free(struct qbuild *b)
{
	sb_free(&b->question);
	sb_free(&b->explanation);
	for (size_t i = 0; i < b->nchoices; i++)
		sb_free(&b->choices[i]);
	free(b->choices);
	free(b->correct);
}

int doc_quiz_parse(const char *src, size_t len, struct doc_quiz_full *q,
		   char **err)
{
	struct qbuild b = {.last = PART_NONE};
	const char *line = src, *end = src + len, *nl, *s;
	const char *problem;
	size_t n;

	*err = NULL;
	for (; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		s = line;
		n = (size_t)(nl - line);
		trim(&s, &n);
		if (n > 0 && quiz_line(&b, s, n, err) != 0)
			goto fail;
	}
	problem = quiz_problem(&b);
	if (problem) {
		*err = xstrdup(problem);
		goto fail;
	}
	quiz_fill(&b, q);
	qbuild_free(&b);
	return 0;
fail:
	qbuild_free(&b);
	return -1;
}

void doc_quiz_free(struct doc_quiz_full *q)
{
	for (int i = 0; i < q->pub.nchoices; i++) {
		free((char *)q->choices[i].text);
		doc_text_free(&q->ctext[i]);
	}
	free(q->choices);
	free(q->ctext);
	free(q->question);
	free(q->explanation);
	doc_text_free(&q->qtext);
	doc_text_free(&q->etext);
}

uint64_t doc_quiz_right_set(const struct doc_quiz *q)
{
	uint64_t set = 0;

	for (int i = 0; i < q->nchoices && i < DOC_QUIZ_CHOICES; i++)
		if (q->choices[i].correct)
			set |= UINT64_C(1) << i;
	return set;
}

bool doc_quiz_is_multi(const struct doc_quiz *q)
{
	int right = 0;

	for (int i = 0; i < q->nchoices; i++)
		right += q->choices[i].correct;
	return right > 1;
}
