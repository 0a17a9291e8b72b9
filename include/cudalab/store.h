/* store.h — the learner's progress in SQLite ($CUDALAB_HOME/progress.db).
 *
 * The database holds only state keyed by stable ids; titles and URLs live in
 * the content files.  Every write is one transaction, so two processes
 * writing at once lose nothing.  Functions return 0 on success and -1 on
 * failure, with the reason in store_errmsg(). */
#ifndef CUDALAB_STORE_H
#define CUDALAB_STORE_H

#include <stddef.h>
#include <stdint.h>

#define STORE_SCHEMA_VERSION 2

enum item_status { ITEM_UNREAD, ITEM_READING, ITEM_DONE };

enum ex_status {
	EX_NEW,       /* never attempted */
	EX_ATTEMPTED, /* attempted, never passed */
	EX_PASSED     /* passed at least once */
};

struct store;

struct lesson_state {
	int position;     /* reader's top line; 0 when never opened */
	int completed;    /* reached the end at least once */
	int64_t opened_at; /* unix time of the last open, 0 when never */
};

struct exercise_state {
	enum ex_status status;
	double best_ms; /* best passing median; < 0 when none */
	int attempts;
	int hints_seen;
};

struct attempt {
	int64_t id;
	char *exercise;
	int64_t at;        /* unix time */
	char *mode;        /* "check" or "bench" */
	char *backend;     /* "gpu" or "simt" */
	char *status;      /* pass, wrong, compile_error, runtime_error, timeout */
	char *source_hash; /* hex digest of the learner's source */
	double median_ms;  /* < 0 when not timed */
	char *result_json; /* the full result, may be NULL */
};

/* Opens (creating when needed) home/progress.db: home is made 0700 and the
 * file 0600, pragmas set (WAL, busy_timeout, foreign_keys) and migrations
 * applied.  A file that is not SQLite or fails integrity_check is renamed
 * progress.db.corrupt-<unix time>, a fresh one made, and *warning set to one
 * line saying so (caller frees; NULL otherwise).  Returns NULL with *err set
 * (caller frees) when the store cannot be opened at all. */
struct store *store_open(const char *home, char **warning, char **err);
void store_close(struct store *st);
const char *store_errmsg(const struct store *st);
int store_schema_version(struct store *st);
/* The database file's path; valid until store_close. */
const char *store_path(const struct store *st);
/* Reads one setting of the open connection (PRAGMA name; name is lower-case
 * letters and underscores only) as text into *value, which the caller
 * frees.  For doctor and tests. */
int store_pragma(struct store *st, const char *name, char **value);

int store_item_set(struct store *st, const char *item, enum item_status s);
/* Unknown items are ITEM_UNREAD. */
int store_item_get(struct store *st, const char *item, enum item_status *out);
const char *store_item_status_name(enum item_status s);
int store_item_status_parse(const char *name, enum item_status *out);

int store_lesson_get(struct store *st, const char *lesson, struct lesson_state *out);
/* Also stamps opened_at with the current time: the reader saves its
 * position whenever a lesson is open. */
int store_lesson_set_position(struct store *st, const char *lesson, int position);
int store_lesson_complete(struct store *st, const char *lesson);

int store_exercise_get(struct store *st, const char *ex, struct exercise_state *out);
const char *store_ex_status_name(enum ex_status s);
/* Records that one more hint was shown; returns the new count in *seen. */
int store_hint_seen(struct store *st, const char *ex, int *seen);

/* Appends an attempt (a->id and a->at are filled in when 0) and updates the
 * exercise's status and best time in the same transaction. */
int store_attempt_add(struct store *st, struct attempt *a);
/* Up to max most recent attempts of ex, newest first; free with
 * store_attempts_free. */
int store_attempts(struct store *st, const char *ex, size_t max,
		   struct attempt **out, size_t *n);
void store_attempts_free(struct attempt *a, size_t n);

/* Quiz answers, keyed by lesson and the quiz's index in the lesson; each
 * keeps the question it answered (NULL: none). */
int store_quiz_answer(struct store *st, const char *lesson, int quiz, const char *question,
		      int choice, int correct);
/* *choice = -1 when never answered, or when the answer at that index was
 * given to another question (the lesson changed since).  A NULL question,
 * or an answer stored without one, skips that comparison. */
int store_quiz_get(struct store *st, const char *lesson, int quiz, const char *question,
		   int *choice, int *correct);

#endif
