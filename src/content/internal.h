/* internal.h — what the files of src/content share with each other and with
 * nothing else: one parsed source file, positions, and the field tables the
 * front matter is read through. */
#ifndef CUDALAB_CONTENT_INTERNAL_H
#define CUDALAB_CONTENT_INTERNAL_H

#include "cudalab/content.h"
#include "cudalab/util.h"

#include <yaml.h>

/* A 1-based position in a file; line 0 when there is none. */
struct pos {
	int line, col;
};

/* One content file split into front matter and body, with the front matter
 * loaded as a YAML document. */
struct source {
	struct catalog *cat; /* where diagnostics go */
	const char *file;    /* path as shown in diagnostics */
	char *text;
	size_t len;
	int fm_line;        /* file line of the first front matter line */
	size_t body_offset; /* first byte after the closing "---" line */
	int body_line;
	yaml_document_t doc;
	int have_doc;
};

/* Appends a diagnostic at p in file. */
void content_diag(struct catalog *cat, const char *file, struct pos p,
		  const char *fmt, ...) UTIL_PRINTF(4, 5);
/* Sorts the catalog's diagnostics by file, line and column, keeping the
 * order in which equal positions were reported. */
void content_sort_diags(struct catalog *cat);

/* Reads file and loads its front matter.  Returns 0 when the YAML root is
 * a mapping; otherwise -1 after one diagnostic.  source_close releases it
 * either way. */
int content_source_open(struct source *src, struct catalog *cat,
			const char *file);
void content_source_close(struct source *src);

/* The file position of a node. */
struct pos content_node_pos(const struct source *src, const yaml_node_t *node);
yaml_node_t *content_root(struct source *src);

enum field_type { FIELD_STRING, FIELD_INT, FIELD_SEQ };

struct field {
	const char *name;
	enum field_type type;
	int required;
};

/* The most fields any mapping of ours has. */
#define CONTENT_MAX_FIELDS 8

/* Looks up spec's keys in map and stores their value nodes in vals (NULL
 * where absent; YAML null counts as absent).  Unknown and repeated keys and
 * values of the wrong type are reported; a missing required field is
 * reported at the mapping, naming what (e.g. "lesson").  Returns 0 when
 * every required field is present with the right type, else -1. */
int content_fields(struct source *src, yaml_node_t *map,
		   const struct field *spec, size_t n, const char *what,
		   yaml_node_t **vals);

/* The text of a scalar node, NUL-terminated, in a fresh allocation. */
char *content_scalar(const yaml_node_t *node);
/* The value of a scalar that content_fields accepted as FIELD_INT. */
int content_int(const yaml_node_t *node);
/* Number of entries of a sequence node, and the i-th one. */
size_t content_seq_len(const yaml_node_t *seq);
yaml_node_t *content_seq_at(struct source *src, const yaml_node_t *seq,
			    size_t i);

/* Whether s is a lowercase slug: [a-z0-9]+(-[a-z0-9]+)*. */
int content_is_slug(const char *s);
/* Checks an http(s) URL strictly; returns NULL when it is well-formed,
 * else a message saying what is wrong, which the caller frees. */
char *content_url_problem(const char *url);

/* A lesson or exercise as loaded, with the positions the catalog-wide
 * checks point at. */
struct lesson_load {
	struct lesson l;
	struct pos id_pos, order_pos;
	struct pos *item_pos; /* of each reading item's id */
	struct pos *ex_pos;   /* of each entry of "exercises" */
};

struct exercise_load {
	struct exercise e;
	struct pos id_pos, order_pos, lesson_pos;
};

/* Parse one lesson file / one exercise directory (dir, named name).
 * Return 0 and fill *out, or -1 when the file is left out; either way every
 * problem found is a diagnostic in cat. */
int content_parse_lesson(struct catalog *cat, const char *path,
			 struct lesson_load *out);
int content_parse_exercise(struct catalog *cat, const char *dir,
			   const char *name, struct exercise_load *out);
void content_free_lesson(struct lesson *l);
void content_free_exercise(struct exercise *e);
void content_free_item(struct reading_item *it);

#endif
