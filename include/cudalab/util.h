/* util.h — small helpers shared by the application modules (not by simt,
 * which is a library of its own).  Allocation wrappers abort on failure so
 * callers stay readable. */
#ifndef CUDALAB_UTIL_H
#define CUDALAB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

#if defined(__GNUC__)
#define UTIL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define UTIL_NORETURN __attribute__((noreturn))
#else
#define UTIL_PRINTF(a, b)
#define UTIL_NORETURN
#endif

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) UTIL_PRINTF(1, 2);

/* Grows *items (of *cap elements of size elem) so that it can hold need. */
void xgrow(void **items, size_t *cap, size_t need, size_t elem);

/* A growable NUL-terminated string. */
struct strbuf {
	char *s;
	size_t len, cap;
};
void sb_init(struct strbuf *sb);
void sb_free(struct strbuf *sb);
void sb_putc(struct strbuf *sb, char c);
void sb_append(struct strbuf *sb, const char *s, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...) UTIL_PRINTF(2, 3);
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap) UTIL_PRINTF(2, 0);
/* Returns the string and leaves sb empty; the caller frees it. */
char *sb_steal(struct strbuf *sb);

/* Reads a whole file; returns a NUL-terminated buffer (length in *len when
 * len is not NULL) or NULL with errno set. */
char *read_file(const char *path, size_t *len);

/* Creates path and its missing parents with mode; 0 on success, -1 with errno. */
int mkdir_p(const char *path, mode_t mode);

/* Joins two path parts with one slash; the caller frees the result. */
char *path_join(const char *a, const char *b);

/* Seconds on the monotonic clock (for elapsed times and deadlines). */
double mono_seconds(void);

/* Whether s starts with prefix / ends with suffix. */
int str_starts(const char *s, const char *prefix);
int str_ends(const char *s, const char *suffix);
/* Levenshtein distance of a and b, or more than cap when it exceeds it. */
size_t str_distance(const char *a, const char *b, size_t cap);
/* How far a mistyped word may be from what was meant: a third of its
 * length, at least 2 (a swap of two letters). */
size_t str_near_cap(const char *word);
/* Of names[0..n), the one nearest word within str_near_cap, or NULL: the
 * "did you mean" of a mistyped name. */
const char *str_nearest(const char *word, const char *const *names, size_t n);

/* s with each tab expanded to the next multiple of width columns
 * (counting bytes; code is ASCII where tabs matter).  Caller frees. */
char *str_expand_tabs(const char *s, size_t len, int width);

/* A line diff of text a against text b, as in `diff -u` without the hunk
 * headers: each line of the result starts with ' ' (in both), '-' (only
 * in a) or '+' (only in b), in order.  Lines are split at '\n'; a last
 * line without one counts as a line.  Returns the number of lines put in
 * *out (an array of strings; free with str_lines_free), or -1 when the
 * texts are too long to compare (more than max_lines lines each). */
long diff_lines(const char *a, const char *b, long max_lines, char ***out);
void str_lines_free(char **lines, long n);

#endif
