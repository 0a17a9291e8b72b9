/* catalog.c — finds the content files under a root, loads each on its own,
 * runs the checks that span files (unique ids and orders, references
 * between lessons and exercises), and answers lookups. */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct loader {
	struct catalog *cat;
	struct lesson_load *ls;
	size_t n_ls, cap_ls;
	struct exercise_load *es;
	size_t n_es, cap_es;
	struct seen_id *ids;
	size_t n_ids, cap_ids;
};

/* Where an id was first defined. */
struct seen_id {
	const char *id;
	const char *file;
	int line;
};

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists the entries of dir that want() accepts, sorted by name.  Returns
 * -1 after a diagnostic when dir cannot be read. */
static int list_dir(struct catalog *cat, const char *dir,
		    int (*want)(const char *dir, const char *name),
		    char ***names, size_t *n)
{
	size_t cap = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	*names = NULL;
	*n = 0;
	if (!d) {
		content_diag(cat, dir, (struct pos){ 0, 0 },
			     "cannot open directory: %s", strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || !want(dir, de->d_name))
			continue;
		xgrow((void **)names, &cap, *n + 1, sizeof **names);
		(*names)[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof **names, cmp_names);
	return 0;
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int has_mode(const char *dir, const char *name, mode_t type)
{
	char *p = path_join(dir, name);
	struct stat st;
	int ok = stat(p, &st) == 0 && (st.st_mode & S_IFMT) == type;

	free(p);
	return ok;
}

static int want_lesson(const char *dir, const char *name)
{
	return str_ends(name, ".md") && has_mode(dir, name, S_IFREG);
}

static int want_exercise(const char *dir, const char *name)
{
	return has_mode(dir, name, S_IFDIR);
}

static void load_lessons(struct loader *ld, const char *root)
{
	char *dir = path_join(root, "lessons");
	char **names;
	size_t i, n;

	if (list_dir(ld->cat, dir, want_lesson, &names, &n) == 0) {
		for (i = 0; i < n; i++) {
			char *path = path_join(dir, names[i]);
			xgrow((void **)&ld->ls, &ld->cap_ls, ld->n_ls + 1,
			      sizeof *ld->ls);
			if (content_parse_lesson(ld->cat, path,
						 &ld->ls[ld->n_ls]) == 0)
				ld->n_ls++;
			free(path);
		}
		free_names(names, n);
	}
	free(dir);
}

static void load_exercises(struct loader *ld, const char *root)
{
	char *dir = path_join(root, "exercises");
	char **names;
	size_t i, n;

	if (list_dir(ld->cat, dir, want_exercise, &names, &n) == 0) {
		for (i = 0; i < n; i++) {
			char *sub = path_join(dir, names[i]);
			xgrow((void **)&ld->es, &ld->cap_es, ld->n_es + 1,
			      sizeof *ld->es);
			if (content_parse_exercise(ld->cat, sub, names[i],
						   &ld->es[ld->n_es]) == 0)
				ld->n_es++;
			free(sub);
		}
		free_names(names, n);
	}
	free(dir);
}

/* Records id as defined at file:p, or reports it as a duplicate and
 * returns -1 when it was defined before. */
static int claim_id(struct loader *ld, const char *id, const char *file,
		    struct pos p)
{
	struct seen_id *s;
	size_t i;

	for (i = 0; i < ld->n_ids; i++) {
		s = &ld->ids[i];
		if (strcmp(s->id, id) == 0) {
			content_diag(ld->cat, file, p,
				     "duplicate id \"%s\" (first defined at %s:%d)",
				     id, s->file, s->line);
			return -1;
		}
	}
	xgrow((void **)&ld->ids, &ld->cap_ids, ld->n_ids + 1, sizeof *ld->ids);
	s = &ld->ids[ld->n_ids++];
	s->id = id;
	s->file = file;
	s->line = p.line;
	return 0;
}

/* Drops the reading items of a lesson whose ids were defined before. */
static void claim_items(struct loader *ld, struct lesson_load *ll)
{
	struct lesson *l = &ll->l;
	size_t i, kept = 0;

	for (i = 0; i < l->n_reading; i++) {
		if (claim_id(ld, l->reading[i].id, l->path, ll->item_pos[i]) != 0) {
			content_free_item(&l->reading[i]);
			continue;
		}
		l->reading[kept] = l->reading[i];
		ll->item_pos[kept] = ll->item_pos[i];
		kept++;
	}
	l->n_reading = kept;
}

static void drop_lesson(struct lesson_load *ll)
{
	content_free_lesson(&ll->l);
	free(ll->item_pos);
	free(ll->ex_pos);
}

/* Ids are unique across lessons, reading items and exercises together;
 * the first definition in load order wins and later ones are dropped. */
static void claim_ids(struct loader *ld)
{
	size_t i, kept = 0;

	for (i = 0; i < ld->n_ls; i++) {
		struct lesson_load *ll = &ld->ls[i];
		if (claim_id(ld, ll->l.id, ll->l.path, ll->id_pos) != 0) {
			drop_lesson(ll);
			continue;
		}
		claim_items(ld, ll);
		ld->ls[kept++] = *ll;
	}
	ld->n_ls = kept;
	for (i = 0, kept = 0; i < ld->n_es; i++) {
		struct exercise_load *el = &ld->es[i];
		if (claim_id(ld, el->e.id, el->e.path, el->id_pos) != 0) {
			content_free_exercise(&el->e);
			continue;
		}
		ld->es[kept++] = *el;
	}
	ld->n_es = kept;
}

static void check_lesson_orders(struct loader *ld)
{
	size_t i, j;

	for (i = 0; i < ld->n_ls; i++) {
		for (j = 0; j < i; j++) {
			if (ld->ls[j].l.order != ld->ls[i].l.order)
				continue;
			content_diag(ld->cat, ld->ls[i].l.path, ld->ls[i].order_pos,
				     "order %d is already used by %s:%d",
				     ld->ls[i].l.order, ld->ls[j].l.path,
				     ld->ls[j].order_pos.line);
			break;
		}
	}
}

static void check_exercise_orders(struct loader *ld)
{
	size_t i, j;

	for (i = 0; i < ld->n_es; i++) {
		for (j = 0; j < i; j++) {
			if (ld->es[j].e.order != ld->es[i].e.order)
				continue;
			content_diag(ld->cat, ld->es[i].e.path, ld->es[i].order_pos,
				     "order %d is already used by %s:%d",
				     ld->es[i].e.order, ld->es[j].e.path,
				     ld->es[j].order_pos.line);
			break;
		}
	}
}

static struct exercise_load *find_exercise(struct loader *ld, const char *id)
{
	size_t i;

	for (i = 0; i < ld->n_es; i++)
		if (strcmp(ld->es[i].e.id, id) == 0)
			return &ld->es[i];
	return NULL;
}

static struct lesson_load *find_lesson(struct loader *ld, const char *id)
{
	size_t i;

	for (i = 0; i < ld->n_ls; i++)
		if (strcmp(ld->ls[i].l.id, id) == 0)
			return &ld->ls[i];
	return NULL;
}

static int lists(const struct lesson *l, const char *ex, size_t before)
{
	size_t i;

	for (i = 0; i < before && i < l->n_exercises; i++)
		if (strcmp(l->exercises[i], ex) == 0)
			return 1;
	return 0;
}

/* Each exercise a lesson lists exists and names that lesson back. */
static void check_lesson_refs(struct loader *ld, struct lesson_load *ll)
{
	const struct lesson *l = &ll->l;
	size_t i;

	for (i = 0; i < l->n_exercises; i++) {
		const char *id = l->exercises[i];
		struct exercise_load *el = find_exercise(ld, id);
		if (lists(l, id, i))
			content_diag(ld->cat, l->path, ll->ex_pos[i],
				     "exercise \"%s\" is listed twice", id);
		else if (!el)
			content_diag(ld->cat, l->path, ll->ex_pos[i],
				     "unknown exercise \"%s\"", id);
		else if (strcmp(el->e.lesson, l->id) != 0)
			content_diag(ld->cat, l->path, ll->ex_pos[i],
				     "exercise \"%s\" belongs to lesson \"%s\", "
				     "not \"%s\" (see %s:%d)",
				     id, el->e.lesson, l->id, el->e.path,
				     el->lesson_pos.line);
	}
}

/* Each exercise's lesson exists and lists it. */
static void check_exercise_ref(struct loader *ld, struct exercise_load *el)
{
	const struct exercise *e = &el->e;
	struct lesson_load *ll = find_lesson(ld, e->lesson);

	if (!ll)
		content_diag(ld->cat, e->path, el->lesson_pos,
			     "unknown lesson \"%s\"", e->lesson);
	else if (!lists(&ll->l, e->id, ll->l.n_exercises))
		content_diag(ld->cat, e->path, el->lesson_pos,
			     "lesson \"%s\" does not list exercise \"%s\" "
			     "in its \"exercises\" (%s)",
			     e->lesson, e->id, ll->l.path);
}

static void check_refs(struct loader *ld)
{
	size_t i;

	for (i = 0; i < ld->n_ls; i++)
		check_lesson_refs(ld, &ld->ls[i]);
	for (i = 0; i < ld->n_es; i++)
		check_exercise_ref(ld, &ld->es[i]);
}

static int cmp_lessons(const void *pa, const void *pb)
{
	const struct lesson *a = pa, *b = pb;

	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return strcmp(a->path, b->path);
}

static int cmp_exercises(const void *pa, const void *pb)
{
	const struct exercise *a = pa, *b = pb;

	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* Lessons of one section together, where the section first appears,
 * each section's lessons in order: a section named again later (a lesson
 * ordered after another section's) joins its first appearance. */
static void group_sections(struct catalog *cat)
{
	struct lesson *out = xcalloc(cat->n_lessons ? cat->n_lessons : 1, sizeof *out);
	bool *taken = xcalloc(cat->n_lessons ? cat->n_lessons : 1, sizeof *taken);
	size_t i, j, k = 0;

	for (i = 0; i < cat->n_lessons; i++) {
		if (taken[i])
			continue;
		for (j = i; j < cat->n_lessons; j++) {
			const char *a = cat->lessons[i].section, *b = cat->lessons[j].section;

			if (!taken[j] && (a == b || (a && b && strcmp(a, b) == 0))) {
				taken[j] = true;
				out[k++] = cat->lessons[j];
			}
		}
	}
	memcpy(cat->lessons, out, cat->n_lessons * sizeof *out);
	free(out);
	free(taken);
}

/* Moves what survived into the catalog, lessons by order within sections
 * (group_sections), exercises by order. */
static void finish(struct loader *ld)
{
	struct catalog *cat = ld->cat;
	size_t i, j;

	cat->lessons = xcalloc(ld->n_ls, sizeof *cat->lessons);
	for (i = 0; i < ld->n_ls; i++) {
		cat->lessons[i] = ld->ls[i].l;
		free(ld->ls[i].item_pos);
		free(ld->ls[i].ex_pos);
	}
	cat->n_lessons = ld->n_ls;
	qsort(cat->lessons, cat->n_lessons, sizeof *cat->lessons, cmp_lessons);
	group_sections(cat);
	for (i = 0; i < cat->n_lessons; i++)
		for (j = 0; j < cat->lessons[i].n_reading; j++)
			cat->lessons[i].reading[j].lesson = i;
	cat->exercises = xcalloc(ld->n_es, sizeof *cat->exercises);
	for (i = 0; i < ld->n_es; i++)
		cat->exercises[i] = ld->es[i].e;
	cat->n_exercises = ld->n_es;
	qsort(cat->exercises, cat->n_exercises, sizeof *cat->exercises,
	      cmp_exercises);
	free(ld->ls);
	free(ld->es);
	free(ld->ids);
}

struct catalog *catalog_load(const char *root)
{
	struct catalog *cat = xcalloc(1, sizeof *cat);
	struct loader ld;

	memset(&ld, 0, sizeof ld);
	ld.cat = cat;
	cat->root = xstrdup(root);
	load_lessons(&ld, root);
	load_exercises(&ld, root);
	claim_ids(&ld);
	check_lesson_orders(&ld);
	check_exercise_orders(&ld);
	check_refs(&ld);
	finish(&ld);
	content_sort_diags(cat);
	return cat;
}

void catalog_free(struct catalog *cat)
{
	size_t i;

	if (!cat)
		return;
	for (i = 0; i < cat->n_lessons; i++)
		content_free_lesson(&cat->lessons[i]);
	free(cat->lessons);
	for (i = 0; i < cat->n_exercises; i++)
		content_free_exercise(&cat->exercises[i]);
	free(cat->exercises);
	for (i = 0; i < cat->n_diags; i++) {
		free(cat->diags[i].file);
		free(cat->diags[i].msg);
	}
	free(cat->diags);
	free(cat->root);
	free(cat);
}

void catalog_each_id(const struct catalog *cat, int kinds,
		     void (*fn)(const char *id, void *ctx), void *ctx)
{
	size_t i, j;

	for (i = 0; i < cat->n_lessons; i++) {
		if (kinds & CAT_LESSON)
			fn(cat->lessons[i].id, ctx);
		for (j = 0; (kinds & CAT_READING) && j < cat->lessons[i].n_reading; j++)
			fn(cat->lessons[i].reading[j].id, ctx);
	}
	for (i = 0; (kinds & CAT_EXERCISE) && i < cat->n_exercises; i++)
		fn(cat->exercises[i].id, ctx);
}

/* The search of catalog_suggest: the nearest id so far within cap. */
struct suggest {
	const char *id, *best;
	size_t cap, dist;
};

static void consider(const char *cand, void *ctx)
{
	struct suggest *s = ctx;
	size_t d = str_distance(s->id, cand, s->cap);

	if (d <= s->cap && d < s->dist) {
		s->dist = d;
		s->best = cand;
	}
}

const char *catalog_suggest(const struct catalog *cat, int kinds, const char *id)
{
	struct suggest s = { id, NULL, str_near_cap(id), SIZE_MAX };

	catalog_each_id(cat, kinds, consider, &s);
	return s.best;
}

const struct lesson *catalog_lesson(const struct catalog *cat, const char *id)
{
	size_t i;

	for (i = 0; i < cat->n_lessons; i++)
		if (strcmp(cat->lessons[i].id, id) == 0)
			return &cat->lessons[i];
	return NULL;
}

const struct exercise *catalog_exercise(const struct catalog *cat,
					const char *id)
{
	size_t i;

	for (i = 0; i < cat->n_exercises; i++)
		if (strcmp(cat->exercises[i].id, id) == 0)
			return &cat->exercises[i];
	return NULL;
}

const struct reading_item *catalog_item(const struct catalog *cat,
					const char *id)
{
	size_t i, j;

	for (i = 0; i < cat->n_lessons; i++)
		for (j = 0; j < cat->lessons[i].n_reading; j++)
			if (strcmp(cat->lessons[i].reading[j].id, id) == 0)
				return &cat->lessons[i].reading[j];
	return NULL;
}

size_t catalog_count_items(const struct catalog *cat)
{
	size_t i, n = 0;

	for (i = 0; i < cat->n_lessons; i++)
		n += cat->lessons[i].n_reading;
	return n;
}

/* Reads path and returns the part from offset on. */
static char *read_body(const char *path, size_t offset, size_t *len)
{
	size_t n;
	char *text = read_file(path, &n);

	if (!text)
		return NULL;
	if (offset > n)
		offset = n;
	memmove(text, text + offset, n - offset + 1);
	if (len)
		*len = n - offset;
	return text;
}

char *catalog_lesson_body(const struct lesson *l, size_t *len)
{
	return read_body(l->path, l->body_offset, len);
}

char *catalog_exercise_body(const struct exercise *e, size_t *len)
{
	return read_body(e->path, e->body_offset, len);
}
