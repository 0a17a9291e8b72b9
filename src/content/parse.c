/* parse.c — reads one lesson or one exercise from its front matter.  The
 * checks here need only the file itself; catalog.c does the ones that need
 * the whole catalog (unique ids and orders, references). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { L_ID, L_TITLE, L_SECTION, L_ORDER, L_MINUTES, L_READING, L_EXERCISES };

static const struct field lesson_fields[] = {
	{ "id", FIELD_STRING, 1 },     { "title", FIELD_STRING, 1 },
	{ "section", FIELD_STRING, 1 }, { "order", FIELD_INT, 1 },
	{ "minutes", FIELD_INT, 1 },   { "reading", FIELD_SEQ, 0 },
	{ "exercises", FIELD_SEQ, 0 },
};

enum { I_ID, I_TITLE, I_KIND, I_URL, I_NOTE };

static const struct field item_fields[] = {
	{ "id", FIELD_STRING, 1 },   { "title", FIELD_STRING, 1 },
	{ "kind", FIELD_STRING, 1 }, { "url", FIELD_STRING, 0 },
	{ "note", FIELD_STRING, 1 },
};

enum { E_ID, E_TITLE, E_LESSON, E_ORDER, E_DIFFICULTY, E_HINTS, E_GPUS, E_TIMELINE };

static const struct field exercise_fields[] = {
	{ "id", FIELD_STRING, 1 },    { "title", FIELD_STRING, 1 },
	{ "lesson", FIELD_STRING, 1 }, { "order", FIELD_INT, 1 },
	{ "difficulty", FIELD_INT, 1 }, { "hints", FIELD_SEQ, 1 },
	{ "gpus", FIELD_INT, 0 },       { "timeline", FIELD_STRING, 0 },
};

/* The most devices an exercise may ask for (simt's CUDALAB_SIMT_GPUS
 * limit). */
#define MAX_GPUS 64

/* The files every exercise directory holds. */
static const char *const exercise_files[] = { "exercise.md", "kernel.cu",
					       "solution.cu", "harness.cu" };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const kind_names[KIND__COUNT] = {
	[KIND_ARTICLE] = "article", [KIND_PAPER] = "paper",
	[KIND_VIDEO] = "video",     [KIND_CODE] = "code",
	[KIND_THREAD] = "thread",   [KIND_BOOK] = "book",
	[KIND_COURSE] = "course",   [KIND_TOOL] = "tool",
	[KIND_DOCS] = "docs",
};

const char *content_kind_name(enum item_kind kind)
{
	if ((unsigned)kind >= KIND__COUNT)
		return "unknown";
	return kind_names[kind];
}

int content_kind_parse(const char *name, enum item_kind *out)
{
	int k;

	for (k = 0; k < KIND__COUNT; k++) {
		if (strcmp(name, kind_names[k]) == 0) {
			*out = (enum item_kind)k;
			return 0;
		}
	}
	return -1;
}

/* Reports an id that is not a slug; returns 0 when it is one. */
static int check_slug(struct source *src, const yaml_node_t *node,
		      const char *id)
{
	if (content_is_slug(id))
		return 0;
	content_diag(src->cat, src->file, content_node_pos(src, node),
		     "invalid id \"%s\": ids are lowercase words joined by "
		     "single hyphens, like gpu-memory",
		     id);
	return -1;
}

static int check_kind(struct source *src, const yaml_node_t *node,
		      enum item_kind *out)
{
	char *name = content_scalar(node);
	struct strbuf all;
	int k;

	if (content_kind_parse(name, out) == 0) {
		free(name);
		return 0;
	}
	sb_init(&all);
	for (k = 0; k < KIND__COUNT; k++)
		sb_printf(&all, "%s%s", k ? ", " : "", kind_names[k]);
	content_diag(src->cat, src->file, content_node_pos(src, node),
		     "unknown kind \"%s\" (expected %s)", name, all.s);
	sb_free(&all);
	free(name);
	return -1;
}

static int check_url(struct source *src, const yaml_node_t *node,
		     const char *url)
{
	char *why = content_url_problem(url);

	if (!why)
		return 0;
	content_diag(src->cat, src->file, content_node_pos(src, node),
		     "malformed URL \"%s\": %s", url, why);
	free(why);
	return -1;
}

void content_free_item(struct reading_item *it)
{
	free(it->id);
	free(it->title);
	free(it->url);
	free(it->note);
}

/* Reads one reading item; -1 drops it (after its diagnostics). */
static int parse_item(struct source *src, yaml_node_t *node,
		      struct reading_item *it, struct pos *id_pos)
{
	yaml_node_t *v[COUNT(item_fields)];
	int rc;

	memset(it, 0, sizeof *it);
	if (node->type != YAML_MAPPING_NODE) {
		content_diag(src->cat, src->file, content_node_pos(src, node),
			     "a reading item must be a mapping with id, title, "
			     "kind, url and note");
		return -1;
	}
	rc = content_fields(src, node, item_fields, COUNT(item_fields),
			    "reading item", v);
	if (v[I_ID]) {
		it->id = content_scalar(v[I_ID]);
		*id_pos = content_node_pos(src, v[I_ID]);
		rc |= check_slug(src, v[I_ID], it->id);
	}
	if (v[I_KIND])
		rc |= check_kind(src, v[I_KIND], &it->kind);
	if (v[I_URL]) {
		it->url = content_scalar(v[I_URL]);
		rc |= check_url(src, v[I_URL], it->url);
	}
	if (v[I_TITLE])
		it->title = content_scalar(v[I_TITLE]);
	if (v[I_NOTE])
		it->note = content_scalar(v[I_NOTE]);
	it->line = content_node_pos(src, node).line;
	if (rc) {
		content_free_item(it);
		return -1;
	}
	return 0;
}

static void parse_reading(struct source *src, yaml_node_t *seq,
			  struct lesson_load *out)
{
	size_t i, n = content_seq_len(seq);
	struct lesson *l = &out->l;

	l->reading = xcalloc(n, sizeof *l->reading);
	out->item_pos = xcalloc(n, sizeof *out->item_pos);
	for (i = 0; i < n; i++) {
		yaml_node_t *node = content_seq_at(src, seq, i);
		if (parse_item(src, node, &l->reading[l->n_reading],
			       &out->item_pos[l->n_reading]) == 0)
			l->n_reading++;
	}
}

/* Reads a sequence of non-empty strings into *out; entries that are not
 * are reported and skipped.  Returns the number skipped. */
static size_t parse_strings(struct source *src, yaml_node_t *seq,
			    const char *what, char ***out, size_t *n_out,
			    struct pos **pos)
{
	size_t i, n = content_seq_len(seq), bad = 0;

	*out = xcalloc(n, sizeof **out);
	if (pos)
		*pos = xcalloc(n, sizeof **pos);
	for (i = 0; i < n; i++) {
		yaml_node_t *node = content_seq_at(src, seq, i);
		struct pos p = content_node_pos(src, node);
		if (node->type != YAML_SCALAR_NODE ||
		    node->data.scalar.length == 0) {
			content_diag(src->cat, src->file, p,
				     "each entry of \"%s\" must be a non-empty string",
				     what);
			bad++;
			continue;
		}
		if (pos)
			(*pos)[*n_out] = p;
		(*out)[(*n_out)++] = content_scalar(node);
	}
	return bad;
}

void content_free_lesson(struct lesson *l)
{
	size_t i;

	free(l->id);
	free(l->title);
	free(l->section);
	free(l->path);
	for (i = 0; i < l->n_reading; i++)
		content_free_item(&l->reading[i]);
	free(l->reading);
	for (i = 0; i < l->n_exercises; i++)
		free(l->exercises[i]);
	free(l->exercises);
}

static void free_lesson_load(struct lesson_load *ll)
{
	content_free_lesson(&ll->l);
	free(ll->item_pos);
	free(ll->ex_pos);
}

/* Fills the lesson from its fields; -1 when a required one is invalid. */
static int lesson_from_fields(struct source *src, yaml_node_t **v,
			      struct lesson_load *out)
{
	struct lesson *l = &out->l;
	int rc = 0;

	if (v[L_ID]) {
		l->id = content_scalar(v[L_ID]);
		out->id_pos = content_node_pos(src, v[L_ID]);
		rc |= check_slug(src, v[L_ID], l->id);
	}
	if (v[L_TITLE])
		l->title = content_scalar(v[L_TITLE]);
	if (v[L_SECTION])
		l->section = content_scalar(v[L_SECTION]);
	if (v[L_ORDER]) {
		l->order = content_int(v[L_ORDER]);
		out->order_pos = content_node_pos(src, v[L_ORDER]);
	}
	if (v[L_MINUTES]) {
		l->minutes = content_int(v[L_MINUTES]);
		if (l->minutes <= 0) {
			content_diag(src->cat, src->file,
				     content_node_pos(src, v[L_MINUTES]),
				     "\"minutes\" must be greater than 0, got %d",
				     l->minutes);
			rc = -1;
		}
	}
	if (v[L_READING])
		parse_reading(src, v[L_READING], out);
	if (v[L_EXERCISES])
		parse_strings(src, v[L_EXERCISES], "exercises", &l->exercises,
			      &l->n_exercises, &out->ex_pos);
	return rc;
}

int content_parse_lesson(struct catalog *cat, const char *path,
			 struct lesson_load *out)
{
	yaml_node_t *v[COUNT(lesson_fields)];
	struct source src;
	int rc = -1;

	memset(out, 0, sizeof *out);
	out->l.path = xstrdup(path);
	if (content_source_open(&src, cat, out->l.path) != 0)
		goto done;
	rc = content_fields(&src, content_root(&src), lesson_fields,
			    COUNT(lesson_fields), "lesson", v);
	rc |= lesson_from_fields(&src, v, out);
	out->l.body_offset = src.body_offset;
	out->l.body_line = src.body_line;
done:
	content_source_close(&src);
	if (rc)
		free_lesson_load(out);
	return rc ? -1 : 0;
}

void content_free_exercise(struct exercise *e)
{
	size_t i;

	free(e->id);
	free(e->title);
	free(e->lesson);
	free(e->dir);
	free(e->path);
	for (i = 0; i < e->n_hints; i++)
		free(e->hints[i]);
	free(e->hints);
}

static int parse_hints(struct source *src, yaml_node_t *seq,
		       struct exercise *e)
{
	if (parse_strings(src, seq, "hints", &e->hints, &e->n_hints, NULL))
		return -1;
	if (e->n_hints > 0)
		return 0;
	content_diag(src->cat, src->file, content_node_pos(src, seq),
		     "\"hints\" needs at least one hint");
	return -1;
}

static int exercise_from_fields(struct source *src, yaml_node_t **v,
				const char *name, struct exercise_load *out)
{
	struct exercise *e = &out->e;
	int rc = 0;

	if (v[E_ID]) {
		e->id = content_scalar(v[E_ID]);
		out->id_pos = content_node_pos(src, v[E_ID]);
		rc |= check_slug(src, v[E_ID], e->id);
		if (rc == 0 && strcmp(e->id, name) != 0) {
			content_diag(src->cat, src->file, out->id_pos,
				     "id \"%s\" differs from the directory name \"%s\"",
				     e->id, name);
			rc = -1;
		}
	}
	if (v[E_TITLE])
		e->title = content_scalar(v[E_TITLE]);
	if (v[E_LESSON]) {
		e->lesson = content_scalar(v[E_LESSON]);
		out->lesson_pos = content_node_pos(src, v[E_LESSON]);
	}
	if (v[E_ORDER]) {
		e->order = content_int(v[E_ORDER]);
		out->order_pos = content_node_pos(src, v[E_ORDER]);
	}
	if (v[E_DIFFICULTY]) {
		e->difficulty = content_int(v[E_DIFFICULTY]);
		if (e->difficulty < 1 || e->difficulty > 5) {
			content_diag(src->cat, src->file,
				     content_node_pos(src, v[E_DIFFICULTY]),
				     "\"difficulty\" must be 1 to 5, got %d",
				     e->difficulty);
			rc = -1;
		}
	}
	if (v[E_HINTS])
		rc |= parse_hints(src, v[E_HINTS], e);
	e->gpus = 1;
	if (v[E_GPUS]) {
		e->gpus = content_int(v[E_GPUS]);
		if (e->gpus < 1 || e->gpus > MAX_GPUS) {
			content_diag(src->cat, src->file, content_node_pos(src, v[E_GPUS]),
				     "\"gpus\" must be 1 to %d, got %d", MAX_GPUS, e->gpus);
			rc = -1;
		}
	}
	if (v[E_TIMELINE]) {
		char *t = content_scalar(v[E_TIMELINE]);

		e->timeline = strcmp(t, "true") == 0;
		if (!e->timeline && strcmp(t, "false") != 0) {
			content_diag(src->cat, src->file, content_node_pos(src, v[E_TIMELINE]),
				     "\"timeline\" must be true or false, got \"%s\"", t);
			rc = -1;
		}
		free(t);
	}
	return rc;
}

/* Reports each of the exercise's files that is missing; 0 when
 * exercise.md itself is there. */
static int check_files(struct catalog *cat, const char *dir)
{
	struct stat st;
	int rc = 0;
	size_t i;

	for (i = 0; i < COUNT(exercise_files); i++) {
		char *p = path_join(dir, exercise_files[i]);
		if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
			content_diag(cat, p, (struct pos){ 0, 0 },
				     "file is missing (every exercise has exercise.md, "
				     "kernel.cu, solution.cu and harness.cu)");
			if (i == 0)
				rc = -1;
		}
		free(p);
	}
	return rc;
}

int content_parse_exercise(struct catalog *cat, const char *dir,
			   const char *name, struct exercise_load *out)
{
	yaml_node_t *v[COUNT(exercise_fields)];
	struct source src;
	int rc = -1;

	memset(out, 0, sizeof *out);
	memset(&src, 0, sizeof src);
	out->e.dir = xstrdup(dir);
	out->e.path = path_join(dir, exercise_files[0]);
	if (check_files(cat, dir) != 0)
		goto done;
	if (content_source_open(&src, cat, out->e.path) != 0)
		goto done;
	rc = content_fields(&src, content_root(&src), exercise_fields,
			    COUNT(exercise_fields), "exercise", v);
	rc |= exercise_from_fields(&src, v, name, out);
	out->e.body_offset = src.body_offset;
	out->e.body_line = src.body_line;
done:
	content_source_close(&src);
	if (rc)
		content_free_exercise(&out->e);
	return rc ? -1 : 0;
}
