/* list.c — `cudalab list [lessons|reading|exercises] [--json]`. */
#include "cudalab/cli.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/content.h"
#include "cudalab/store.h"

enum list_kind { LIST_ALL, LIST_LESSONS, LIST_READING, LIST_EXERCISES };

/* Status lookups tolerate a missing store: everything then reads as new. */
static enum item_status item_status(struct store *st, const char *id)
{
	enum item_status s = ITEM_UNREAD;

	if (st)
		store_item_get(st, id, &s);
	return s;
}

static const char *lesson_status(struct store *st, const char *id)
{
	struct lesson_state ls = { 0, 0, 0 };

	if (st)
		store_lesson_get(st, id, &ls);
	if (ls.completed)
		return "done";
	return ls.opened_at || ls.position ? "started" : "new";
}

static void exercise_state(struct store *st, const char *id, struct exercise_state *es)
{
	es->status = EX_NEW;
	es->best_ms = -1;
	es->attempts = 0;
	es->hints_seen = 0;
	if (st)
		store_exercise_get(st, id, es);
}

static size_t reading_done(struct store *st, const struct lesson *l)
{
	size_t done = 0;

	for (size_t i = 0; i < l->n_reading; i++)
		done += item_status(st, l->reading[i].id) == ITEM_DONE;
	return done;
}

static cJSON *lessons_json(const struct catalog *cat, struct store *st)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; i < cat->n_lessons; i++) {
		const struct lesson *l = &cat->lessons[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "id", l->id);
		cJSON_AddStringToObject(o, "title", l->title);
		cJSON_AddStringToObject(o, "section", l->section);
		cJSON_AddNumberToObject(o, "order", l->order);
		cJSON_AddNumberToObject(o, "minutes", l->minutes);
		cJSON_AddStringToObject(o, "status", lesson_status(st, l->id));
		cJSON_AddNumberToObject(o, "reading_done", (double)reading_done(st, l));
		cJSON_AddNumberToObject(o, "reading_total", (double)l->n_reading);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static cJSON *reading_json(const struct catalog *cat, struct store *st)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; i < cat->n_lessons; i++) {
		const struct lesson *l = &cat->lessons[i];

		for (size_t j = 0; j < l->n_reading; j++) {
			const struct reading_item *r = &l->reading[j];
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "id", r->id);
			cJSON_AddStringToObject(o, "title", r->title);
			if (r->url)
				cJSON_AddStringToObject(o, "url", r->url);
			else
				cJSON_AddNullToObject(o, "url");
			cJSON_AddStringToObject(o, "kind", content_kind_name(r->kind));
			cJSON_AddStringToObject(o, "section", l->section);
			cJSON_AddStringToObject(o, "lesson", l->id);
			cJSON_AddStringToObject(o, "status",
						store_item_status_name(item_status(st, r->id)));
			cJSON_AddItemToArray(arr, o);
		}
	}
	return arr;
}

static cJSON *exercises_json(const struct catalog *cat, struct store *st)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; i < cat->n_exercises; i++) {
		const struct exercise *e = &cat->exercises[i];
		struct exercise_state es;
		cJSON *o = cJSON_CreateObject();

		exercise_state(st, e->id, &es);
		cJSON_AddStringToObject(o, "id", e->id);
		cJSON_AddStringToObject(o, "title", e->title);
		cJSON_AddStringToObject(o, "lesson", e->lesson);
		cJSON_AddNumberToObject(o, "difficulty", e->difficulty);
		cJSON_AddNumberToObject(o, "gpus", e->gpus);
		cJSON_AddStringToObject(o, "status", store_ex_status_name(es.status));
		if (es.best_ms >= 0)
			cJSON_AddNumberToObject(o, "best_ms", es.best_ms);
		else
			cJSON_AddNullToObject(o, "best_ms");
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static void print_lessons(const struct catalog *cat, struct store *st)
{
	const char *section = NULL;

	printf("Lessons\n");
	for (size_t i = 0; i < cat->n_lessons; i++) {
		const struct lesson *l = &cat->lessons[i];

		if (!section || strcmp(section, l->section) != 0) {
			section = l->section;
			printf("  %s\n", section);
		}
		printf("    %-8s %-28s %s  (%zu/%zu read, %d min)\n", lesson_status(st, l->id),
		       l->id, l->title, reading_done(st, l), l->n_reading, l->minutes);
	}
}

static const char *status_glyph(enum item_status s)
{
	switch (s) {
	case ITEM_DONE:
		return "[x]";
	case ITEM_READING:
		return "[~]";
	default:
		return "[ ]";
	}
}

static void print_reading(const struct catalog *cat, struct store *st)
{
	const char *section = NULL;

	printf("Reading list\n");
	for (size_t i = 0; i < cat->n_lessons; i++) {
		const struct lesson *l = &cat->lessons[i];

		if (!section || strcmp(section, l->section) != 0) {
			section = l->section;
			printf("  %s\n", section);
		}
		for (size_t j = 0; j < l->n_reading; j++) {
			const struct reading_item *r = &l->reading[j];

			printf("    %s %s — %s\n", status_glyph(item_status(st, r->id)), r->id,
			       r->title);
			if (r->url)
				printf("        %s\n", r->url);
		}
	}
}

static void print_exercises(const struct catalog *cat, struct store *st)
{
	printf("Exercises\n");
	if (cat->n_exercises == 0)
		printf("  (none yet)\n");
	for (size_t i = 0; i < cat->n_exercises; i++) {
		const struct exercise *e = &cat->exercises[i];
		struct exercise_state es;

		exercise_state(st, e->id, &es);
		printf("  %-9s %-22s %s  (difficulty %d, lesson %s", store_ex_status_name(es.status),
		       e->id, e->title, e->difficulty, e->lesson);
		if (es.best_ms >= 0)
			printf(", best %.3f ms", es.best_ms);
		printf(")\n");
	}
}

static const char *const kind_names[] = { "lessons", "reading", "exercises" };

static int parse_kind(const char *arg, enum list_kind *kind)
{
	const char *const *names = kind_names;

	for (int i = 0; i < 3; i++) {
		if (strcmp(arg, names[i]) == 0) {
			*kind = (enum list_kind)(i + 1);
			return 0;
		}
	}
	return -1;
}

int cli_list(struct cli *c, int argc, char **argv)
{
	enum list_kind kind = LIST_ALL;
	int json = 0, have_kind = 0;
	struct catalog *cat;
	struct store *st;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (!have_kind && parse_kind(argv[i], &kind) == 0)
			have_kind = 1;
		else if (argv[i][0] == '-')
			return cli_usage_error(c, "list: unknown option '%s'", argv[i]);
		else if (str_nearest(argv[i], kind_names, 3))
			return cli_usage_error(c, "list: unknown kind '%s' (did you mean '%s'? expected "
					       "lessons, reading or exercises)", argv[i],
					       str_nearest(argv[i], kind_names, 3));
		else
			return cli_usage_error(c,
					       "list: unknown kind '%s' (expected lessons, reading or exercises)",
					       argv[i]);
	}
	cat = cli_catalog(c);
	cli_report_content_problems(c);
	st = cli_store(c);
	if (!st)
		cli_warn(c, "statuses unavailable; everything is shown as new");

	if (json) {
		cJSON *root;

		if (kind == LIST_LESSONS)
			root = lessons_json(cat, st);
		else if (kind == LIST_READING)
			root = reading_json(cat, st);
		else if (kind == LIST_EXERCISES)
			root = exercises_json(cat, st);
		else {
			root = cJSON_CreateObject();
			cJSON_AddItemToObject(root, "lessons", lessons_json(cat, st));
			cJSON_AddItemToObject(root, "reading", reading_json(cat, st));
			cJSON_AddItemToObject(root, "exercises", exercises_json(cat, st));
		}
		cli_print_json(root);
		return EXIT_OK;
	}
	if (kind == LIST_ALL || kind == LIST_LESSONS)
		print_lessons(cat, st);
	if (kind == LIST_ALL || kind == LIST_READING)
		print_reading(cat, st);
	if (kind == LIST_ALL || kind == LIST_EXERCISES)
		print_exercises(cat, st);
	return EXIT_OK;
}
