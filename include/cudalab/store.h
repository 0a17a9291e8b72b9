/* store.h — the learner's progress in SQLite ($CUDALAB_HOME/progress.db).
 *
 * The database holds only state keyed by stable ids; titles and URLs live in
 * the content files.  Every write is one transaction, so two processes
 * writing at once lose nothing.  Functions return 0 on success and -1 on
 * failure, with the reason in store_errmsg(). */
#ifndef CUDALAB_STORE_H
#define CUDALAB_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STORE_SCHEMA_VERSION 5

enum item_status { ITEM_UNREAD, ITEM_READING, ITEM_DONE };

enum ex_status {
	EX_NEW,       /* never attempted */
	EX_ATTEMPTED, /* attempted, never passed */
	EX_PASSED     /* passed at least once */
};

struct store;

struct lesson_state {
	int position;     /* reader's top line; 0 when never opened */
	int completed;    /* met the completion rule (below) at least once */
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
	char *backend;     /* "gpu", "simt", "ssh:HOST" or "slurm" */
	char *status;      /* pass, wrong, hazard, compile_error, runtime_error, timeout */
	char *source_hash; /* hex digest of the learner's source */
	double median_ms;  /* < 0 when not timed */
	char *result_json; /* the full result, may be NULL */
	int scratch;       /* a check of another file than the learner's copy
			    * (--file): kept apart from the exercise's history,
			    * status and best time */
	double predicted_ms;    /* simt's time model's prediction; < 0 when none */
	char *predicted_device; /* the device id it is for; NULL when none */
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
/* Up to max most recent attempts of ex (not the scratch ones), newest
 * first; free with store_attempts_free. */
int store_attempts(struct store *st, const char *ex, size_t max,
		   struct attempt **out, size_t *n);
/* The scratch attempts of ex, newest first, as store_attempts. */
int store_scratch_attempts(struct store *st, const char *ex, size_t max,
			   struct attempt **out, size_t *n);
void store_attempts_free(struct attempt *a, size_t n);

/* How far the learner is through a lesson, beyond its position: what the
 * reader records on each visit and the completion rule reads. */
struct lesson_reading {
	/* '1' for each block of the lesson the learner has had on screen in
	 * full, '0' for the others; "" when none.  Owned by the struct. */
	char *viewed;
	int64_t seconds;      /* time spent reading it, all visits together */
	int read_percent;     /* share of its lines viewed, 0-100 */
	int quizzes;          /* quizzes in the lesson, as last counted */
	int quizzes_answered; /* of those, answered at least once */
};

/* The lesson's record; all zero and viewed "" when never read.  Free with
 * store_lesson_reading_free. */
int store_lesson_reading_get(struct store *st, const char *lesson, struct lesson_reading *out);
/* Adds a visit, in one transaction: visit->seconds is added to the time
 * already spent, visit->viewed is merged with the blocks already viewed (a
 * block once viewed stays viewed; the longer string sets the length), and
 * the summary is replaced.  Invalid values (negative numbers, a percent
 * over 100, more quizzes answered than there are, viewed with a character
 * other than '0' and '1') are refused and nothing is written. */
int store_lesson_reading_add(struct store *st, const char *lesson,
			     const struct lesson_reading *visit);
void store_lesson_reading_free(struct lesson_reading *r);

/* Quiz answers, keyed by lesson and the quiz's index in the lesson; each
 * keeps the question it answered (NULL: none).  An answer is a set of
 * choices, bit c of the mask standing for choice c, so only the first
 * STORE_QUIZ_CHOICES choices can be picked; a quiz with one right choice is
 * answered with one bit.  Every answer is kept: the first one counts, the
 * later ones are shown beside it and never replace it. */
#define STORE_QUIZ_CHOICES 64

struct quiz_answers {
	int count;          /* answers given; 0: never answered */
	uint64_t first;     /* the first answer's choices; 0 when none */
	int first_correct;
	uint64_t latest;    /* the latest answer's; the first when only one */
	int latest_correct;
};

int store_quiz_submit(struct store *st, const char *lesson, int quiz, const char *question,
		      uint64_t choices, int correct);
/* Only answers given to this question count: a lesson edited since may
 * have put another question at that index.  A NULL question, or an answer
 * stored without one, skips that comparison. */
int store_quiz_answers(struct store *st, const char *lesson, int quiz, const char *question,
		       struct quiz_answers *out);

/* ---- when a lesson is complete ----
 *
 * Reaching the end of a lesson is not enough.  It is complete when, with
 * its end on screen, the learner has had at least LESSON_VIEWED_PERCENT of
 * its lines on screen, has answered every quiz in it, and has spent at
 * least `pace` seconds per screenful of it on it (never more than
 * LESSON_MAX_SECONDS in all; pace 0 asks no time). */
#define LESSON_VIEWED_PERCENT 80
#define LESSON_PACE_DEFAULT 20
#define LESSON_PACE_MAX 600
#define LESSON_MAX_SECONDS 600

struct lesson_facts {
	int total_lines;  /* the lesson's lines as laid out now */
	int viewed_lines; /* of those, lines of blocks viewed */
	int screen_rows;  /* lines one screen shows */
	int quizzes, quizzes_answered;
	int64_t seconds;  /* time spent on it, all visits together */
	int pace;         /* seconds asked per screenful, 0 to LESSON_PACE_MAX */
	bool at_end;      /* its last line is on screen */
};

/* Seconds the rule asks of a lesson of that many lines. */
int64_t lesson_seconds_needed(int total_lines, int screen_rows, int pace);
/* part of whole in whole percent, rounded down; 100 when whole is 0. */
int lesson_percent(int part, int whole);
bool lesson_may_complete(const struct lesson_facts *f);

#endif
