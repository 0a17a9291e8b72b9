/* frontmatter.c — splits a content file into its YAML front matter and its
 * Markdown body, loads the front matter with libyaml, and reads mappings
 * through field tables so that every problem lands on the node at fault. */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Length of the line starting at off, without its line break; *next is
 * where the following line starts (len at the end of the text). */
static size_t line_len(const char *text, size_t len, size_t off, size_t *next)
{
	const char *nl = memchr(text + off, '\n', len - off);
	size_t end = nl ? (size_t)(nl - text) : len;

	*next = nl ? end + 1 : len;
	if (end > off && text[end - 1] == '\r')
		end--;
	return end - off;
}

/* A fence is "---", optionally followed by blanks. */
static int is_fence(const char *line, size_t n)
{
	size_t i;

	if (n < 3 || memcmp(line, "---", 3) != 0)
		return 0;
	for (i = 3; i < n; i++)
		if (line[i] != ' ' && line[i] != '\t')
			return 0;
	return 1;
}

/* Finds the front matter; on success [*fm, *fm_end) is its text and the
 * body fields of src are set.  Returns -1 after a diagnostic. */
static int split(struct source *src, size_t *fm, size_t *fm_end)
{
	struct pos top = { 1, 1 };
	size_t off = 0, next, n;
	int line = 1;

	n = line_len(src->text, src->len, off, &next);
	if (!is_fence(src->text, n)) {
		content_diag(src->cat, src->file, top,
			     "missing front matter: the file must start with a line \"---\"");
		return -1;
	}
	*fm = next;
	src->fm_line = 2;
	while (next < src->len) {
		off = next;
		line++;
		n = line_len(src->text, src->len, off, &next);
		if (is_fence(src->text + off, n)) {
			*fm_end = off;
			src->body_offset = next;
			src->body_line = line + 1;
			return 0;
		}
	}
	content_diag(src->cat, src->file, top,
		     "unterminated front matter: no closing \"---\" line");
	return -1;
}

/* Turns a byte offset into the front matter into a file position. */
static struct pos offset_pos(const struct source *src, const char *fm,
			     size_t off)
{
	struct pos p = { src->fm_line, 1 };
	size_t i;

	for (i = 0; i < off; i++) {
		if (fm[i] == '\n') {
			p.line++;
			p.col = 1;
		} else if (((unsigned char)fm[i] & 0xC0) != 0x80) {
			p.col++;
		}
	}
	return p;
}

static struct pos mark_pos(const struct source *src, yaml_mark_t m)
{
	struct pos p;

	p.line = src->fm_line + (int)m.line;
	p.col = (int)m.column + 1;
	return p;
}

static void yaml_error(struct source *src, const yaml_parser_t *yp,
		       const char *fm)
{
	const char *problem = yp->problem ? yp->problem : "cannot be parsed";
	struct pos p;

	if (yp->error == YAML_READER_ERROR) {
		p = offset_pos(src, fm, yp->problem_offset);
		content_diag(src->cat, src->file, p, "invalid YAML: %s", problem);
		return;
	}
	p = mark_pos(src, yp->problem_mark);
	if (yp->context)
		content_diag(src->cat, src->file, p,
			     "invalid YAML: %s (%s that starts at line %d)",
			     problem, yp->context,
			     mark_pos(src, yp->context_mark).line);
	else
		content_diag(src->cat, src->file, p, "invalid YAML: %s",
			     problem);
}

/* Loads the front matter as one YAML document whose root is a mapping. */
static int load_yaml(struct source *src, size_t fm, size_t fm_end)
{
	const char *text = src->text + fm;
	yaml_parser_t yp;
	yaml_document_t extra;
	yaml_node_t *root;
	int rc = -1;

	yaml_parser_initialize(&yp);
	yaml_parser_set_input_string(&yp, (const unsigned char *)text,
				     fm_end - fm);
	if (!yaml_parser_load(&yp, &src->doc)) {
		yaml_error(src, &yp, text);
		goto done;
	}
	src->have_doc = 1;
	root = yaml_document_get_root_node(&src->doc);
	if (!root) {
		content_diag(src->cat, src->file, (struct pos){ src->fm_line, 1 },
			     "the front matter is empty");
		goto done;
	}
	if (root->type != YAML_MAPPING_NODE) {
		content_diag(src->cat, src->file, content_node_pos(src, root),
			     "the front matter must be a mapping of fields, not %s",
			     root->type == YAML_SEQUENCE_NODE ? "a sequence"
							      : "a scalar");
		goto done;
	}
	if (!yaml_parser_load(&yp, &extra)) {
		yaml_error(src, &yp, text);
		goto done;
	}
	if (yaml_document_get_root_node(&extra)) {
		content_diag(src->cat, src->file,
			     mark_pos(src, extra.start_mark),
			     "the front matter holds more than one YAML document");
		yaml_document_delete(&extra);
		goto done;
	}
	yaml_document_delete(&extra);
	rc = 0;
done:
	yaml_parser_delete(&yp);
	return rc;
}

int content_source_open(struct source *src, struct catalog *cat,
			const char *file)
{
	size_t fm, fm_end;

	memset(src, 0, sizeof *src);
	src->cat = cat;
	src->file = file;
	src->text = read_file(file, &src->len);
	if (!src->text) {
		content_diag(cat, file, (struct pos){ 0, 0 },
			     "cannot read: %s", strerror(errno));
		return -1;
	}
	if (split(src, &fm, &fm_end) != 0)
		return -1;
	return load_yaml(src, fm, fm_end);
}

void content_source_close(struct source *src)
{
	if (src->have_doc)
		yaml_document_delete(&src->doc);
	free(src->text);
	memset(src, 0, sizeof *src);
}

struct pos content_node_pos(const struct source *src, const yaml_node_t *node)
{
	return mark_pos(src, node->start_mark);
}

yaml_node_t *content_root(struct source *src)
{
	return yaml_document_get_root_node(&src->doc);
}

char *content_scalar(const yaml_node_t *node)
{
	return xstrndup((const char *)node->data.scalar.value,
			node->data.scalar.length);
}

size_t content_seq_len(const yaml_node_t *seq)
{
	return (size_t)(seq->data.sequence.items.top -
			seq->data.sequence.items.start);
}

yaml_node_t *content_seq_at(struct source *src, const yaml_node_t *seq,
			    size_t i)
{
	return yaml_document_get_node(&src->doc,
				      seq->data.sequence.items.start[i]);
}

static int is_plain(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* YAML's spellings of null, which leave a field without a value. */
static int is_null(const yaml_node_t *n)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
	size_t i;

	if (!is_plain(n))
		return 0;
	for (i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
		if (n->data.scalar.length == strlen(nulls[i]) &&
		    memcmp(n->data.scalar.value, nulls[i],
			   n->data.scalar.length) == 0)
			return 1;
	return 0;
}

static int is_blank(const yaml_node_t *n)
{
	size_t i;

	for (i = 0; i < n->data.scalar.length; i++)
		if (!strchr(" \t\r\n", n->data.scalar.value[i]))
			return 0;
	return 1;
}

/* Parses a plain decimal integer that fits an int. */
static int parse_int(const yaml_node_t *n, int *out)
{
	const char *s = (const char *)n->data.scalar.value;
	size_t i = 0, len = n->data.scalar.length;
	long long v = 0;
	int neg = 0;

	if (!is_plain(n))
		return -1;
	if (i < len && s[i] == '-') {
		neg = 1;
		i++;
	}
	if (i == len)
		return -1;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > (long long)INT_MAX + 1)
			return -1;
	}
	if (neg)
		v = -v;
	if (v > INT_MAX || v < INT_MIN)
		return -1;
	*out = (int)v;
	return 0;
}

int content_int(const yaml_node_t *node)
{
	int v = 0;

	parse_int(node, &v);
	return v;
}

/* A short description of a node's value for messages: its text when it is
 * a scalar, else what it is. */
static char *describe(const yaml_node_t *n)
{
	const int max = 40;
	int len;

	if (n->type == YAML_SEQUENCE_NODE)
		return xstrdup("a sequence");
	if (n->type == YAML_MAPPING_NODE)
		return xstrdup("a mapping");
	len = n->data.scalar.length > (size_t)max ? max
						  : (int)n->data.scalar.length;
	return xasprintf("\"%.*s%s\"%s", len, n->data.scalar.value,
			 n->data.scalar.length > (size_t)max ? "..." : "",
			 is_plain(n) ? "" : " (quoted, so a string)");
}

static const char *type_name(enum field_type t)
{
	switch (t) {
	case FIELD_STRING:
		return "a string";
	case FIELD_INT:
		return "an integer";
	case FIELD_SEQ:
		return "a sequence";
	}
	return "?";
}

static int type_ok(enum field_type t, const yaml_node_t *n)
{
	int v;

	switch (t) {
	case FIELD_STRING:
		return n->type == YAML_SCALAR_NODE;
	case FIELD_INT:
		return parse_int(n, &v) == 0;
	case FIELD_SEQ:
		return n->type == YAML_SEQUENCE_NODE;
	}
	return 0;
}

static char *field_list(const struct field *spec, size_t n)
{
	struct strbuf sb;
	size_t i;

	sb_init(&sb);
	for (i = 0; i < n; i++)
		sb_printf(&sb, "%s%s", i ? ", " : "", spec[i].name);
	return sb_steal(&sb);
}

static int find_field(const struct field *spec, size_t n,
		      const yaml_node_t *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(spec[i].name) == key->data.scalar.length &&
		    memcmp(spec[i].name, key->data.scalar.value,
			   key->data.scalar.length) == 0)
			return (int)i;
	return -1;
}

enum seen { SEEN_NO, SEEN_NULL, SEEN_BAD, SEEN_OK };

/* Handles one key/value pair of a mapping read through spec. */
static void take_pair(struct source *src, yaml_node_pair_t *pair,
		      const struct field *spec, size_t n, const char *what,
		      yaml_node_t **vals, enum seen *seen, struct pos *key_pos)
{
	yaml_node_t *key = yaml_document_get_node(&src->doc, pair->key);
	yaml_node_t *val = yaml_document_get_node(&src->doc, pair->value);
	struct pos kp = content_node_pos(src, key);
	char *s;
	int i;

	if (key->type != YAML_SCALAR_NODE) {
		content_diag(src->cat, src->file, kp,
			     "the keys of a %s must be plain names", what);
		return;
	}
	i = find_field(spec, n, key);
	if (i < 0) {
		s = field_list(spec, n);
		content_diag(src->cat, src->file, kp,
			     "unknown key \"%.*s\" in %s (expected %s)",
			     (int)key->data.scalar.length, key->data.scalar.value,
			     what, s);
		free(s);
		return;
	}
	if (seen[i] != SEEN_NO) {
		content_diag(src->cat, src->file, kp,
			     "duplicate key \"%s\" (first at line %d)",
			     spec[i].name, key_pos[i].line);
		return;
	}
	key_pos[i] = kp;
	if (is_null(val) ||
	    (spec[i].type == FIELD_STRING && val->type == YAML_SCALAR_NODE &&
	     is_blank(val))) {
		seen[i] = SEEN_NULL;
		return;
	}
	if (!type_ok(spec[i].type, val)) {
		s = describe(val);
		content_diag(src->cat, src->file, content_node_pos(src, val),
			     "\"%s\" must be %s, got %s", spec[i].name,
			     type_name(spec[i].type), s);
		free(s);
		seen[i] = SEEN_BAD;
		return;
	}
	seen[i] = SEEN_OK;
	vals[i] = val;
}

int content_fields(struct source *src, yaml_node_t *map,
		   const struct field *spec, size_t n, const char *what,
		   yaml_node_t **vals)
{
	enum seen seen[CONTENT_MAX_FIELDS];
	struct pos key_pos[CONTENT_MAX_FIELDS];
	yaml_node_pair_t *pair;
	int rc = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		vals[i] = NULL;
		seen[i] = SEEN_NO;
		key_pos[i] = (struct pos){ 0, 0 };
	}
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++)
		take_pair(src, pair, spec, n, what, vals, seen, key_pos);
	for (i = 0; i < n; i++) {
		if (seen[i] == SEEN_NULL && spec[i].required)
			content_diag(src->cat, src->file, key_pos[i],
				     "\"%s\" has no value", spec[i].name);
		else if (seen[i] == SEEN_NO && spec[i].required)
			content_diag(src->cat, src->file,
				     content_node_pos(src, map),
				     "%s is missing required field \"%s\"",
				     what, spec[i].name);
		if (seen[i] != SEEN_OK) {
			vals[i] = NULL;
			if (spec[i].required)
				rc = -1;
		}
	}
	return rc;
}
