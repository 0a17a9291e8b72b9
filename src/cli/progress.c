/* progress.c — `cudalab progress [--json]`: lessons completed, reading
 * items done and exercises passed, out of what the content holds. */
#include "cudalab/cli.h"

#include <cJSON.h>
#include <string.h>

#include "cudalab/content.h"
#include "cudalab/store.h"

struct tally {
	size_t lessons_done, lessons;
	size_t reading_done, reading;
	size_t passed, exercises;
	const struct lesson *next_lesson;     /* the first not completed */
	const struct exercise *next_exercise; /* the first not passed */
};

static void count(const struct catalog *cat, struct store *st, struct tally *t)
{
	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < cat->n_lessons; i++) {
		const struct lesson *l = &cat->lessons[i];
		struct lesson_state ls = { 0, 0, 0 };

		if (st && store_lesson_get(st, l->id, &ls) == 0 && ls.completed)
			t->lessons_done++;
		else if (!t->next_lesson)
			t->next_lesson = l;
		for (size_t j = 0; j < l->n_reading; j++) {
			enum item_status s = ITEM_UNREAD;

			if (st)
				store_item_get(st, l->reading[j].id, &s);
			t->reading_done += s == ITEM_DONE;
		}
		t->reading += l->n_reading;
	}
	t->lessons = cat->n_lessons;
	for (size_t i = 0; i < cat->n_exercises; i++) {
		struct exercise_state es = { EX_NEW, -1, 0, 0 };

		if (st)
			store_exercise_get(st, cat->exercises[i].id, &es);
		t->passed += es.status == EX_PASSED;
		if (es.status != EX_PASSED && !t->next_exercise)
			t->next_exercise = &cat->exercises[i];
	}
	t->exercises = cat->n_exercises;
}

static cJSON *pair(const char *done_key, size_t done, size_t total)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, done_key, (double)done);
	cJSON_AddNumberToObject(o, "total", (double)total);
	return o;
}

static void bar(const char *label, size_t done, size_t total)
{
	int width = 30, filled = total ? (int)(done * (size_t)width / total) : 0;

	printf("%-10s [", label);
	for (int i = 0; i < width; i++)
		fputs(i < filled ? "#" : ".", stdout);
	printf("] %zu/%zu\n", done, total);
}

int cli_progress(struct cli *c, int argc, char **argv)
{
	int json = 0;
	struct tally t;
	struct store *st;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else
			return cli_usage_error(c, "progress: unexpected argument '%s'", argv[i]);
	}
	cli_catalog(c);
	cli_report_content_problems(c);
	st = cli_store(c);
	if (!st)
		return EXIT_USAGE;
	count(c->cat, st, &t);
	if (json) {
		cJSON *root = cJSON_CreateObject(), *next;

		cJSON_AddItemToObject(root, "lessons", pair("done", t.lessons_done, t.lessons));
		cJSON_AddItemToObject(root, "reading", pair("done", t.reading_done, t.reading));
		cJSON_AddItemToObject(root, "exercises", pair("passed", t.passed, t.exercises));
		next = cJSON_AddObjectToObject(root, "next");
		if (t.next_lesson)
			cJSON_AddStringToObject(next, "lesson", t.next_lesson->id);
		else
			cJSON_AddNullToObject(next, "lesson");
		if (t.next_exercise)
			cJSON_AddStringToObject(next, "exercise", t.next_exercise->id);
		else
			cJSON_AddNullToObject(next, "exercise");
		cli_print_json(root);
		return EXIT_OK;
	}
	bar("lessons", t.lessons_done, t.lessons);
	bar("reading", t.reading_done, t.reading);
	bar("exercises", t.passed, t.exercises);
	if (t.next_lesson)
		printf("next up:   lesson %s, \"%s\" (cudalab read %s)\n", t.next_lesson->id,
		       t.next_lesson->title, t.next_lesson->id);
	if (t.next_exercise)
		printf("%s exercise %s, \"%s\" (cudalab check %s)\n",
		       t.next_lesson ? "          " : "next up:  ", t.next_exercise->id,
		       t.next_exercise->title, t.next_exercise->id);
	if (!t.next_lesson && !t.next_exercise)
		printf("next up:   nothing: every lesson completed, every exercise passed\n");
	return EXIT_OK;
}
