/* content.h — the catalog: lessons (with their reading items) and exercises,
 * loaded from a content directory and validated.
 *
 * Loading never stops at the first problem: a file that cannot be parsed is
 * left out and described in the catalog's diagnostics, and everything else
 * still loads.  Every diagnostic carries file:line:col. */
#ifndef CUDALAB_CONTENT_H
#define CUDALAB_CONTENT_H

#include <stdbool.h>
#include <stddef.h>

enum item_kind {
	KIND_ARTICLE,
	KIND_PAPER,
	KIND_VIDEO,
	KIND_CODE,
	KIND_THREAD,
	KIND_BOOK,
	KIND_COURSE,
	KIND_TOOL,
	KIND_DOCS,
	KIND__COUNT
};

struct reading_item {
	char *id;
	char *title;
	char *url; /* NULL when the reading list gives none */
	char *note;
	enum item_kind kind;
	size_t lesson; /* index of the owning lesson in catalog.lessons */
	int line;      /* line of the item in its lesson file */
};

struct lesson {
	char *id;
	char *title;
	char *section;
	char *path; /* the lesson file */
	int order;
	int minutes;
	struct reading_item *reading;
	size_t n_reading;
	char **exercises; /* ids, as listed in the front matter */
	size_t n_exercises;
	size_t body_offset; /* byte offset of the Markdown body in the file */
	int body_line;      /* 1-based line where the body starts */
};

struct exercise {
	char *id;
	char *title;
	char *lesson; /* id of the lesson it belongs to */
	char *dir;    /* exercises/<id> */
	char *path;   /* exercises/<id>/exercise.md */
	int order;
	int difficulty; /* 1..5 */
	int gpus;       /* devices its program needs: 1..64 ("gpus", default 1) */
	bool timeline;  /* its check reads simt's modelled timeline ("timeline:
			 * true"): simt checks it with the time model on */
	char **hints;
	size_t n_hints;
	size_t body_offset;
	int body_line;
};

struct diag {
	char *file;
	int line, col; /* 1-based; 0 when unknown */
	char *msg;
};

struct catalog {
	char *root;
	struct lesson *lessons; /* sorted by order */
	size_t n_lessons;
	struct exercise *exercises; /* sorted by order */
	size_t n_exercises;
	struct diag *diags; /* in file order */
	size_t n_diags;
};

/* Loads every root/lessons/NAME.md and root/exercises/ID/exercise.md and
 * validates them.  Never returns NULL; problems are in ->diags. */
struct catalog *catalog_load(const char *root);
void catalog_free(struct catalog *cat);

const struct lesson *catalog_lesson(const struct catalog *cat, const char *id);

/* The id of the given kinds closest to id (a typo away: edit distance at
 * most 2, or a third of its length), or NULL. */
enum { CAT_LESSON = 1, CAT_EXERCISE = 2, CAT_READING = 4 };
const char *catalog_suggest(const struct catalog *cat, int kinds, const char *id);
/* Calls fn(id, ctx) for every id of the given kinds: each lesson followed
 * by its reading items, in the catalog's order, then the exercises. */
void catalog_each_id(const struct catalog *cat, int kinds,
		     void (*fn)(const char *id, void *ctx), void *ctx);
const struct exercise *catalog_exercise(const struct catalog *cat, const char *id);
/* Finds a reading item by id anywhere in the catalog, or NULL. */
const struct reading_item *catalog_item(const struct catalog *cat, const char *id);
size_t catalog_count_items(const struct catalog *cat);

/* Reads the Markdown body (after the front matter) of a lesson or exercise;
 * NULL with errno set when the file cannot be read.  Caller frees. */
char *catalog_lesson_body(const struct lesson *l, size_t *len);
char *catalog_exercise_body(const struct exercise *e, size_t *len);

const char *content_kind_name(enum item_kind kind);
/* Returns 0 and sets *out when name is one of the allowed kinds. */
int content_kind_parse(const char *name, enum item_kind *out);

/* Formats a diagnostic as "file:line:col: message". Caller frees. */
char *diag_format(const struct diag *d);

#endif
