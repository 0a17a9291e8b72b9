/* store.c — the learner's progress in SQLite: opening the database with
 * safe permissions, schema migrations, recovery from a corrupt file, and the
 * reads and writes declared in store.h.
 *
 * Every write runs inside BEGIN IMMEDIATE ... COMMIT, so the write lock is
 * taken up front and two processes never interleave a read-modify-write.
 * Status names are stored as text so the database reads on its own and does
 * not depend on the order of the C enums. */
#include "cudalab/store.h"
#include "cudalab/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DB_NAME "progress.db"
#define BUSY_TIMEOUT_MS 5000
/* BEGIN IMMEDIATE is retried this many times, each waiting up to
 * BUSY_TIMEOUT_MS, before a write gives up on a busy database. */
#define BEGIN_TRIES 4
/* How long store_open waits for another process to finish opening. */
#define OPEN_WAIT_MS 10000

/* migrations[v] takes a database from user_version v to v + 1.  A released
 * step is never edited; a schema change appends a new one. */
static const char *const migrations[] = {
	/* 0 -> 1: the first schema. */
	"CREATE TABLE item ("
	" id TEXT PRIMARY KEY NOT NULL,"
	" status TEXT NOT NULL CHECK (status IN ('unread', 'reading', 'done')),"
	" updated_at INTEGER NOT NULL);"
	"CREATE TABLE lesson ("
	" id TEXT PRIMARY KEY NOT NULL,"
	" position INTEGER NOT NULL DEFAULT 0 CHECK (position >= 0),"
	" completed INTEGER NOT NULL DEFAULT 0 CHECK (completed IN (0, 1)),"
	" opened_at INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE exercise ("
	" id TEXT PRIMARY KEY NOT NULL,"
	" status TEXT NOT NULL DEFAULT 'new'"
	"  CHECK (status IN ('new', 'attempted', 'passed')),"
	" best_ms REAL CHECK (best_ms >= 0),"
	" attempts INTEGER NOT NULL DEFAULT 0,"
	" hints_seen INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE attempt ("
	" id INTEGER PRIMARY KEY,"
	" exercise TEXT NOT NULL REFERENCES exercise (id) ON DELETE CASCADE,"
	" at INTEGER NOT NULL,"
	" mode TEXT NOT NULL,"
	" backend TEXT NOT NULL,"
	" status TEXT NOT NULL,"
	" source_hash TEXT,"
	" median_ms REAL CHECK (median_ms >= 0),"
	" result_json TEXT);"
	"CREATE INDEX attempt_by_exercise ON attempt (exercise, at, id);"
	"CREATE TABLE quiz_answer ("
	" lesson TEXT NOT NULL REFERENCES lesson (id) ON DELETE CASCADE,"
	" quiz INTEGER NOT NULL CHECK (quiz >= 0),"
	" choice INTEGER NOT NULL CHECK (choice >= 0),"
	" correct INTEGER NOT NULL CHECK (correct IN (0, 1)),"
	" at INTEGER NOT NULL,"
	" PRIMARY KEY (lesson, quiz));",
	/* 1 -> 2: each answer keeps the question it answered, so that an
	 * answer stored at a quiz's index is not shown on a different quiz
	 * after the lesson is edited.  Older answers have none (NULL). */
	"ALTER TABLE quiz_answer ADD COLUMN question TEXT;",
	/* 2 -> 3: every submitted quiz answer is kept, in order, so that the
	 * first one, which is the one that counts, is never replaced by a
	 * later one.  An answer is a set of choices written "0,2" (ascending,
	 * 0-based), for quizzes with several right choices.  Each row of
	 * quiz_answer becomes one attempt, with its lesson made sure of.
	 * Lessons gain what the completion rule reads: the blocks viewed
	 * ('1' per block seen, else '0'), the seconds spent on it, and a
	 * summary for lists (percent read, quizzes and quizzes answered). */
	"CREATE TABLE quiz_attempt ("
	" id INTEGER PRIMARY KEY,"
	" lesson TEXT NOT NULL REFERENCES lesson (id) ON DELETE CASCADE,"
	" quiz INTEGER NOT NULL CHECK (quiz >= 0),"
	" question TEXT,"
	" choices TEXT NOT NULL"
	"  CHECK (choices GLOB '[0-9]*' AND choices NOT GLOB '*[^0-9,]*'),"
	" correct INTEGER NOT NULL CHECK (correct IN (0, 1)),"
	" at INTEGER NOT NULL);"
	"CREATE INDEX quiz_attempt_by_quiz ON quiz_attempt (lesson, quiz, id);"
	"INSERT OR IGNORE INTO lesson (id) SELECT DISTINCT lesson FROM quiz_answer;"
	"INSERT INTO quiz_attempt (lesson, quiz, question, choices, correct, at)"
	" SELECT lesson, quiz, question, CAST(choice AS TEXT), correct, at"
	" FROM quiz_answer ORDER BY at, lesson, quiz;"
	"DROP TABLE quiz_answer;"
	"ALTER TABLE lesson ADD COLUMN viewed TEXT NOT NULL DEFAULT ''"
	" CHECK (viewed NOT GLOB '*[^01]*');"
	"ALTER TABLE lesson ADD COLUMN seconds INTEGER NOT NULL DEFAULT 0"
	" CHECK (seconds >= 0);"
	"ALTER TABLE lesson ADD COLUMN read_percent INTEGER NOT NULL DEFAULT 0"
	" CHECK (read_percent BETWEEN 0 AND 100);"
	"ALTER TABLE lesson ADD COLUMN quizzes INTEGER NOT NULL DEFAULT 0"
	" CHECK (quizzes >= 0);"
	"ALTER TABLE lesson ADD COLUMN quizzes_answered INTEGER NOT NULL DEFAULT 0"
	" CHECK (quizzes_answered >= 0);",
	/* 3 -> 4: a check of some other file than the learner's copy
	 * (cudalab check --file) is a scratch attempt: kept, but apart from
	 * the exercise's history, status and best time. */
	"ALTER TABLE attempt ADD COLUMN scratch INTEGER NOT NULL DEFAULT 0"
	" CHECK (scratch IN (0, 1));",
	/* 4 -> 5: a bench on simt predicts the time on a named GPU (simt's
	 * time model): kept apart from median_ms, which only a GPU measures. */
	"ALTER TABLE attempt ADD COLUMN predicted_ms REAL CHECK (predicted_ms >= 0);"
	"ALTER TABLE attempt ADD COLUMN predicted_device TEXT;",
};

_Static_assert(sizeof migrations / sizeof migrations[0] == STORE_SCHEMA_VERSION,
	       "one migration step per schema version");

/* Statements before S_FIRST_TABLE need no tables and are prepared before
 * the migrations run; the rest after. */
enum stmt {
	S_BEGIN,
	S_COMMIT,
	S_ROLLBACK,
	S_USER_VERSION,
	S_FIRST_TABLE,
	S_ITEM_SET = S_FIRST_TABLE,
	S_ITEM_GET,
	S_LESSON_ENSURE,
	S_LESSON_GET,
	S_LESSON_POSITION,
	S_LESSON_COMPLETE,
	S_EX_ENSURE,
	S_EX_GET,
	S_EX_HINT,
	S_EX_RECORD,
	S_ATTEMPT_ADD,
	S_ATTEMPTS,
	S_READING_GET,
	S_READING_SET,
	S_QUIZ_ADD,
	S_QUIZ_GET,
	S_COUNT
};

static const char *const stmt_sql[S_COUNT] = {
	[S_BEGIN] = "BEGIN IMMEDIATE",
	[S_COMMIT] = "COMMIT",
	[S_ROLLBACK] = "ROLLBACK",
	[S_USER_VERSION] = "PRAGMA user_version",
	[S_ITEM_SET] = "INSERT OR REPLACE INTO item (id, status, updated_at)"
		       " VALUES (?1, ?2, ?3)",
	[S_ITEM_GET] = "SELECT status FROM item WHERE id = ?1",
	[S_LESSON_ENSURE] = "INSERT OR IGNORE INTO lesson (id) VALUES (?1)",
	[S_LESSON_GET] = "SELECT position, completed, opened_at FROM lesson"
			 " WHERE id = ?1",
	[S_LESSON_POSITION] = "UPDATE lesson SET position = ?2, opened_at = ?3"
			      " WHERE id = ?1",
	[S_LESSON_COMPLETE] = "UPDATE lesson SET completed = 1 WHERE id = ?1",
	[S_EX_ENSURE] = "INSERT OR IGNORE INTO exercise (id) VALUES (?1)",
	[S_EX_GET] = "SELECT status, best_ms, attempts, hints_seen FROM exercise"
		     " WHERE id = ?1",
	[S_EX_HINT] = "UPDATE exercise SET hints_seen = hints_seen + 1"
		      " WHERE id = ?1",
	/* ?2 is the attempt's status, ?3 its median (NULL when not timed).
	 * Passed is for good; best_ms only ever moves down, and only for a
	 * timed pass. */
	[S_EX_RECORD] = "UPDATE exercise SET attempts = attempts + 1,"
			" status = CASE WHEN ?2 = 'pass' OR status = 'passed'"
			"  THEN 'passed' ELSE 'attempted' END,"
			" best_ms = CASE WHEN ?2 = 'pass' AND ?3 IS NOT NULL"
			"  AND (best_ms IS NULL OR ?3 < best_ms)"
			"  THEN ?3 ELSE best_ms END"
			" WHERE id = ?1",
	[S_ATTEMPT_ADD] = "INSERT INTO attempt (id, exercise, at, mode, backend,"
			  " status, source_hash, median_ms, result_json, scratch,"
			  " predicted_ms, predicted_device)"
			  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	[S_ATTEMPTS] = "SELECT id, exercise, at, mode, backend, status,"
		       " source_hash, median_ms, result_json, scratch, predicted_ms,"
		       " predicted_device FROM attempt"
		       " WHERE exercise = ?1 AND scratch = ?3"
		       " ORDER BY at DESC, id DESC LIMIT ?2",
	[S_READING_GET] = "SELECT viewed, seconds, read_percent, quizzes,"
			  " quizzes_answered FROM lesson WHERE id = ?1",
	/* ?3 is added: time spent in two processes at once is all kept. */
	[S_READING_SET] = "UPDATE lesson SET viewed = ?2, seconds = seconds + ?3,"
			  " read_percent = ?4, quizzes = ?5, quizzes_answered = ?6"
			  " WHERE id = ?1",
	[S_QUIZ_ADD] = "INSERT INTO quiz_attempt"
		       " (lesson, quiz, question, choices, correct, at)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	/* An answer stored without its question holds for any question, and
	 * a NULL ?3 skips the comparison. */
	[S_QUIZ_GET] = "SELECT choices, correct FROM quiz_attempt"
		       " WHERE lesson = ?1 AND quiz = ?2"
		       " AND (?3 IS NULL OR question IS NULL OR question = ?3)"
		       " ORDER BY id",
};

struct store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *stmt[S_COUNT];
	int bind_failed; /* a bind since the last run/fetch failed */
	char err[1024];
};

/* How an attempt to open the database ended. */
enum open_result { OPEN_OK, OPEN_CORRUPT, OPEN_FAIL };

static const char *const item_names[] = {
	[ITEM_UNREAD] = "unread",
	[ITEM_READING] = "reading",
	[ITEM_DONE] = "done",
};

static const char *const ex_names[] = {
	[EX_NEW] = "new",
	[EX_ATTEMPTED] = "attempted",
	[EX_PASSED] = "passed",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void set_err(struct store *st, const char *fmt, ...) UTIL_PRINTF(2, 3);

static void set_err(struct store *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->err, sizeof st->err, fmt, ap);
	va_end(ap);
}

/* Records the connection's last error, naming the database. */
static void db_err(struct store *st, const char *doing)
{
	set_err(st, "%s %s: %s", doing, st->path, sqlite3_errmsg(st->db));
}

static int is_corrupt(int rc)
{
	rc &= 0xff;
	return rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT;
}

static int64_t now(void)
{
	return (int64_t)time(NULL);
}

/* --- statements ------------------------------------------------------- */

static int prepare_range(struct store *st, int from, int to)
{
	for (int i = from; i < to; i++) {
		if (sqlite3_prepare_v3(st->db, stmt_sql[i], -1,
				       SQLITE_PREPARE_PERSISTENT, &st->stmt[i],
				       NULL) != SQLITE_OK) {
			db_err(st, "cannot prepare statements for");
			return -1;
		}
	}
	return 0;
}

static void finalize_all(struct store *st)
{
	for (int i = 0; i < S_COUNT; i++) {
		sqlite3_finalize(st->stmt[i]);
		st->stmt[i] = NULL;
	}
}

static void note_bind(struct store *st, int rc)
{
	if (rc != SQLITE_OK)
		st->bind_failed = 1;
}

/* Text is bound without a copy: every statement is reset and its bindings
 * cleared before the public function that bound it returns. */
static void bind_text(struct store *st, enum stmt s, int i, const char *v)
{
	note_bind(st, v ? sqlite3_bind_text(st->stmt[s], i, v, -1, SQLITE_STATIC)
			: sqlite3_bind_null(st->stmt[s], i));
}

static void bind_int(struct store *st, enum stmt s, int i, int64_t v)
{
	note_bind(st, sqlite3_bind_int64(st->stmt[s], i, v));
}

/* Binds a time in milliseconds; a negative one means "not timed". */
static void bind_ms(struct store *st, enum stmt s, int i, double ms)
{
	note_bind(st, ms >= 0 ? sqlite3_bind_double(st->stmt[s], i, ms)
			      : sqlite3_bind_null(st->stmt[s], i));
}

static void finish(struct store *st, enum stmt s)
{
	sqlite3_reset(st->stmt[s]);
	sqlite3_clear_bindings(st->stmt[s]);
	st->bind_failed = 0;
}

/* Steps s once.  Returns 1 on a row (read it, then call finish), 0 when
 * there is none and -1 on error; both of those have already finished s. */
static int fetch(struct store *st, enum stmt s)
{
	int rc;

	if (st->bind_failed) {
		set_err(st, "cannot bind values for %s: out of memory or range",
			st->path);
		finish(st, s);
		return -1;
	}
	rc = sqlite3_step(st->stmt[s]);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc != SQLITE_DONE)
		db_err(st, "cannot use progress database");
	finish(st, s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Runs a statement that returns no rows; 0 or -1. */
static int run(struct store *st, enum stmt s)
{
	int rc = fetch(st, s);

	if (rc > 0)
		finish(st, s);
	return rc < 0 ? -1 : 0;
}

static char *column_dup(sqlite3_stmt *q, int col)
{
	const unsigned char *t = sqlite3_column_text(q, col);

	return t ? xstrdup((const char *)t) : NULL;
}

static double column_ms(sqlite3_stmt *q, int col)
{
	if (sqlite3_column_type(q, col) == SQLITE_NULL)
		return -1;
	return sqlite3_column_double(q, col);
}

/* --- transactions ----------------------------------------------------- */

static int tx_begin(struct store *st)
{
	for (int i = 0; i < BEGIN_TRIES; i++) {
		int rc = sqlite3_step(st->stmt[S_BEGIN]);

		if (rc == SQLITE_DONE) {
			sqlite3_reset(st->stmt[S_BEGIN]);
			return 0;
		}
		db_err(st, "cannot start a transaction on progress database");
		sqlite3_reset(st->stmt[S_BEGIN]);
		if ((rc & 0xff) != SQLITE_BUSY)
			break;
	}
	return -1;
}

/* Commits when rc is 0, else rolls back; returns 0 only when the
 * transaction committed.  A failed step's message is kept. */
static int tx_end(struct store *st, int rc)
{
	if (rc == 0 && run(st, S_COMMIT) == 0)
		return 0;
	if (!sqlite3_get_autocommit(st->db)) {
		sqlite3_step(st->stmt[S_ROLLBACK]);
		sqlite3_reset(st->stmt[S_ROLLBACK]);
	}
	return -1;
}

static int read_user_version(struct store *st, int *v)
{
	if (fetch(st, S_USER_VERSION) <= 0)
		return -1;
	*v = sqlite3_column_int(st->stmt[S_USER_VERSION], 0);
	finish(st, S_USER_VERSION);
	return 0;
}

/* --- opening ---------------------------------------------------------- */

/* Runs sql and returns the first column of its first row in *text (caller
 * frees; "" when there is no row).  Returns the SQLite result code so that
 * callers can tell corruption from other failures. */
static int one_value(sqlite3 *db, const char *sql, char **text)
{
	sqlite3_stmt *q = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &q, NULL);

	*text = NULL;
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(q, 0);
		*text = xstrdup(t ? (const char *)t : "");
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		*text = xstrdup("");
		rc = SQLITE_OK;
	}
	sqlite3_finalize(q);
	return rc;
}

static int make_home(struct store *st, const char *home)
{
	struct stat sb;

	if (!home || !*home) {
		set_err(st, "no directory given for the progress database");
		return -1;
	}
	if (mkdir_p(home, 0700) != 0 || stat(home, &sb) != 0) {
		set_err(st, "cannot create directory %s: %s", home, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		set_err(st, "cannot use %s for the progress database: %s", home,
			strerror(ENOTDIR));
		return -1;
	}
	return 0;
}

/* Takes an exclusive lock on the home directory for the length of
 * store_open.  SQLite's busy handler does not cover switching a new
 * database to WAL, and moving a corrupt file aside must not race another
 * process that is creating the fresh one.  Returns the fd to close, or -1. */
static int lock_home(struct store *st, const char *home)
{
	int fd = open(home, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		set_err(st, "cannot open directory %s: %s", home, strerror(errno));
		return -1;
	}
	for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) != 0; waited += 10) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || waited >= OPEN_WAIT_MS) {
			set_err(st, "cannot lock directory %s: %s", home,
				errno == EWOULDBLOCK ? "another process keeps it busy"
						     : strerror(errno));
			close(fd);
			return -1;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	return fd;
}

/* Makes sure the database file exists with mode 0600 before SQLite opens
 * it: SQLite would create it 0644, and it gives the -wal and -shm files the
 * mode of the database file. */
static int make_file(struct store *st)
{
	struct stat sb;
	int fd;

	if (stat(st->path, &sb) == 0) {
		if (!S_ISREG(sb.st_mode)) {
			set_err(st, "cannot open progress database %s: not a regular file",
				st->path);
			return -1;
		}
		if ((sb.st_mode & 077) && sb.st_uid == geteuid())
			chmod(st->path, 0600);
		return 0;
	}
	fd = open(st->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 && errno != EEXIST) {
		set_err(st, "cannot create progress database %s: %s", st->path,
			strerror(errno));
		return -1;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

static void close_db(struct store *st)
{
	finalize_all(st);
	sqlite3_close(st->db);
	st->db = NULL;
}

/* Reads the schema version and checks integrity before anything writes to
 * the file, so that a newer database is left exactly as it was. */
static enum open_result check_db(struct store *st)
{
	char *v = NULL;
	int rc = one_value(st->db, "PRAGMA user_version", &v);
	long version;

	if (is_corrupt(rc))
		return OPEN_CORRUPT;
	if (rc != SQLITE_OK)
		goto fail;
	version = strtol(v, NULL, 10);
	free(v);
	if (version > STORE_SCHEMA_VERSION) {
		set_err(st, "progress database %s has schema version %ld, newer than "
			"the %d this cudalab knows; left untouched (update cudalab)",
			st->path, version, STORE_SCHEMA_VERSION);
		return OPEN_FAIL;
	}
	rc = one_value(st->db, "PRAGMA integrity_check(1)", &v);
	if (is_corrupt(rc) || (rc == SQLITE_OK && strcmp(v, "ok") != 0)) {
		free(v);
		return OPEN_CORRUPT;
	}
	free(v);
	if (rc != SQLITE_OK)
		goto fail;
	return OPEN_OK;
fail:
	db_err(st, "cannot open progress database");
	return OPEN_FAIL;
}

static int set_pragmas(struct store *st)
{
	char *mode = NULL;
	int rc = one_value(st->db, "PRAGMA journal_mode = WAL", &mode);

	if (rc != SQLITE_OK) {
		db_err(st, "cannot set WAL mode on");
		return -1;
	}
	if (strcmp(mode, "wal") != 0) {
		set_err(st, "cannot set WAL mode on %s: the journal stays in %s mode",
			st->path, mode);
		free(mode);
		return -1;
	}
	free(mode);
	if (sqlite3_exec(st->db, "PRAGMA synchronous = NORMAL;"
			 "PRAGMA foreign_keys = ON;", NULL, NULL, NULL) != SQLITE_OK) {
		db_err(st, "cannot configure");
		return -1;
	}
	return 0;
}

static int apply_step(struct store *st, int v)
{
	char *bump = xasprintf("PRAGMA user_version = %d", v + 1);
	int rc = sqlite3_exec(st->db, migrations[v], NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_exec(st->db, bump, NULL, NULL, NULL);
	free(bump);
	if (rc != SQLITE_OK) {
		set_err(st, "cannot migrate progress database %s to schema version %d: %s",
			st->path, v + 1, sqlite3_errmsg(st->db));
		return -1;
	}
	return 0;
}

/* Applies the missing steps, one transaction each.  The version is read
 * again inside each transaction, so a process that raced us to a step
 * simply makes us skip it. */
static int migrate(struct store *st)
{
	for (;;) {
		int v, rc;

		if (tx_begin(st) != 0)
			return -1;
		rc = read_user_version(st, &v);
		if (rc == 0 && v > STORE_SCHEMA_VERSION) {
			set_err(st, "progress database %s has schema version %d, newer than "
				"the %d this cudalab knows", st->path, v,
				STORE_SCHEMA_VERSION);
			rc = -1;
		}
		if (rc == 0 && v == STORE_SCHEMA_VERSION)
			return tx_end(st, 0);
		if (rc == 0)
			rc = apply_step(st, v);
		if (tx_end(st, rc) != 0)
			return -1;
	}
}

static enum open_result open_db(struct store *st)
{
	enum open_result r;

	if (make_file(st) != 0)
		return OPEN_FAIL;
	if (sqlite3_open_v2(st->path, &st->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		set_err(st, "cannot open progress database %s: %s", st->path,
			st->db ? sqlite3_errmsg(st->db) : "out of memory");
		return OPEN_FAIL;
	}
	if (sqlite3_db_readonly(st->db, "main") == 1) {
		/* SQLite quietly falls back to read-only; every write would fail. */
		set_err(st, "cannot write progress database %s: %s", st->path,
			access(st->path, W_OK) != 0 ? strerror(errno) : "opened read-only");
		return OPEN_FAIL;
	}
	sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
	r = check_db(st);
	if (r != OPEN_OK)
		return r;
	if (set_pragmas(st) != 0 || prepare_range(st, 0, S_FIRST_TABLE) != 0 ||
	    migrate(st) != 0 || prepare_range(st, S_FIRST_TABLE, S_COUNT) != 0)
		return OPEN_FAIL;
	return OPEN_OK;
}

/* Renames from to to when from exists; 0 also when it does not. */
static int move_if_there(const char *from, const char *to)
{
	if (rename(from, to) == 0 || errno == ENOENT)
		return 0;
	return -1;
}

/* Moves a corrupt database and its -wal and -shm files aside under
 * progress.db.corrupt-<unix time>.  The WAL must not stay behind: SQLite
 * would replay it into the fresh database. */
static int move_aside(struct store *st, char **moved)
{
	static const char *const sides[] = { "-wal", "-shm" };
	char *to = xasprintf("%s.corrupt-%lld", st->path, (long long)now());
	struct stat sb;

	for (int n = 1; lstat(to, &sb) == 0; n++) {
		free(to);
		to = xasprintf("%s.corrupt-%lld.%d", st->path, (long long)now(), n);
	}
	if (rename(st->path, to) != 0) {
		set_err(st, "progress database %s is corrupt and cannot be moved aside: %s",
			st->path, strerror(errno));
		free(to);
		return -1;
	}
	for (size_t i = 0; i < COUNT(sides); i++) {
		char *a = xasprintf("%s%s", st->path, sides[i]);
		char *b = xasprintf("%s%s", to, sides[i]);
		int rc = move_if_there(a, b) == 0 || unlink(a) == 0 ? 0 : -1;

		if (rc != 0)
			set_err(st, "cannot move %s aside: %s", a, strerror(errno));
		free(a);
		free(b);
		if (rc != 0) {
			free(to);
			return -1;
		}
	}
	*moved = to;
	return 0;
}

/* Opens st->path, replacing a corrupt file once.  *moved is set to where
 * the corrupt file went, if it was moved. */
static int open_or_recover(struct store *st, char **moved)
{
	enum open_result r = open_db(st);

	if (r == OPEN_CORRUPT) {
		close_db(st);
		if (move_aside(st, moved) != 0)
			return -1;
		r = open_db(st);
		if (r == OPEN_CORRUPT)
			set_err(st, "fresh progress database %s reads as corrupt", st->path);
	}
	return r == OPEN_OK ? 0 : -1;
}

struct store *store_open(const char *home, char **warning, char **err)
{
	struct store *st = xcalloc(1, sizeof *st);
	char *moved = NULL;
	int lock = -1;

	if (warning)
		*warning = NULL;
	if (err)
		*err = NULL;
	if (make_home(st, home) != 0 || (lock = lock_home(st, home)) < 0)
		goto fail;
	st->path = path_join(home, DB_NAME);
	if (open_or_recover(st, &moved) != 0)
		goto fail;
	close(lock);
	if (moved && warning)
		*warning = xasprintf("warning: progress database %s was corrupt; "
				     "moved to %s and started fresh", st->path, moved);
	free(moved);
	st->err[0] = '\0';
	return st;
fail:
	if (err)
		*err = xstrdup(st->err);
	free(moved);
	store_close(st);
	if (lock >= 0)
		close(lock);
	return NULL;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	close_db(st);
	free(st->path);
	free(st);
}

const char *store_errmsg(const struct store *st)
{
	return st ? st->err : "no progress database";
}

const char *store_path(const struct store *st)
{
	return st->path;
}

int store_schema_version(struct store *st)
{
	int v;

	return read_user_version(st, &v) == 0 ? v : -1;
}

int store_pragma(struct store *st, const char *name, char **value)
{
	char *sql;
	int rc;

	*value = NULL;
	if (!name || !*name || strspn(name, "abcdefghijklmnopqrstuvwxyz_") != strlen(name)) {
		set_err(st, "not a setting name: %s", name ? name : "(null)");
		return -1;
	}
	sql = xasprintf("PRAGMA %s", name);
	rc = one_value(st->db, sql, value);
	free(sql);
	if (rc != SQLITE_OK) {
		db_err(st, "cannot read a setting of");
		return -1;
	}
	return 0;
}

/* --- names ------------------------------------------------------------ */

static int need_id(struct store *st, const char *id, const char *what)
{
	if (id && *id)
		return 0;
	set_err(st, "missing %s id", what);
	return -1;
}

const char *store_item_status_name(enum item_status s)
{
	return (unsigned)s < COUNT(item_names) ? item_names[s] : "unknown";
}

int store_item_status_parse(const char *name, enum item_status *out)
{
	for (size_t i = 0; name && i < COUNT(item_names); i++) {
		if (strcmp(name, item_names[i]) == 0) {
			*out = (enum item_status)i;
			return 0;
		}
	}
	return -1;
}

const char *store_ex_status_name(enum ex_status s)
{
	return (unsigned)s < COUNT(ex_names) ? ex_names[s] : "unknown";
}

static int ex_status_parse(const char *name, enum ex_status *out)
{
	for (size_t i = 0; name && i < COUNT(ex_names); i++) {
		if (strcmp(name, ex_names[i]) == 0) {
			*out = (enum ex_status)i;
			return 0;
		}
	}
	return -1;
}

/* --- reading items ---------------------------------------------------- */

int store_item_set(struct store *st, const char *item, enum item_status s)
{
	int rc;

	if (need_id(st, item, "reading item") != 0)
		return -1;
	if ((unsigned)s >= COUNT(item_names)) {
		set_err(st, "invalid reading status %d for %s", (int)s, item);
		return -1;
	}
	if (tx_begin(st) != 0)
		return -1;
	bind_text(st, S_ITEM_SET, 1, item);
	bind_text(st, S_ITEM_SET, 2, item_names[s]);
	bind_int(st, S_ITEM_SET, 3, now());
	rc = run(st, S_ITEM_SET);
	return tx_end(st, rc);
}

int store_item_get(struct store *st, const char *item, enum item_status *out)
{
	const char *name;
	int rc;

	*out = ITEM_UNREAD;
	if (need_id(st, item, "reading item") != 0)
		return -1;
	bind_text(st, S_ITEM_GET, 1, item);
	rc = fetch(st, S_ITEM_GET);
	if (rc <= 0)
		return rc;
	name = (const char *)sqlite3_column_text(st->stmt[S_ITEM_GET], 0);
	if (store_item_status_parse(name, out) != 0) {
		set_err(st, "reading item %s has unknown status %s in %s", item,
			name ? name : "NULL", st->path);
		rc = -1;
	}
	finish(st, S_ITEM_GET);
	return rc < 0 ? -1 : 0;
}

/* --- lessons ---------------------------------------------------------- */

int store_lesson_get(struct store *st, const char *lesson, struct lesson_state *out)
{
	sqlite3_stmt *q = st->stmt[S_LESSON_GET];
	int rc;

	memset(out, 0, sizeof *out);
	if (need_id(st, lesson, "lesson") != 0)
		return -1;
	bind_text(st, S_LESSON_GET, 1, lesson);
	rc = fetch(st, S_LESSON_GET);
	if (rc <= 0)
		return rc;
	out->position = sqlite3_column_int(q, 0);
	out->completed = sqlite3_column_int(q, 1);
	out->opened_at = sqlite3_column_int64(q, 2);
	finish(st, S_LESSON_GET);
	return 0;
}

/* Runs s, which takes the lesson id as ?1, after making sure the lesson
 * has a row; one transaction.  ?2 and ?3 are bound when pos >= 0. */
static int lesson_write(struct store *st, const char *lesson, enum stmt s, int pos)
{
	int rc;

	if (need_id(st, lesson, "lesson") != 0 || tx_begin(st) != 0)
		return -1;
	bind_text(st, S_LESSON_ENSURE, 1, lesson);
	rc = run(st, S_LESSON_ENSURE);
	if (rc == 0) {
		bind_text(st, s, 1, lesson);
		if (pos >= 0) {
			bind_int(st, s, 2, pos);
			bind_int(st, s, 3, now());
		}
		rc = run(st, s);
	}
	return tx_end(st, rc);
}

int store_lesson_set_position(struct store *st, const char *lesson, int position)
{
	if (position < 0) {
		set_err(st, "invalid position %d for lesson %s", position,
			lesson ? lesson : "(null)");
		return -1;
	}
	return lesson_write(st, lesson, S_LESSON_POSITION, position);
}

int store_lesson_complete(struct store *st, const char *lesson)
{
	return lesson_write(st, lesson, S_LESSON_COMPLETE, -1);
}

/* --- exercises -------------------------------------------------------- */

int store_exercise_get(struct store *st, const char *ex, struct exercise_state *out)
{
	sqlite3_stmt *q = st->stmt[S_EX_GET];
	const char *name;
	int rc;

	out->status = EX_NEW;
	out->best_ms = -1;
	out->attempts = 0;
	out->hints_seen = 0;
	if (need_id(st, ex, "exercise") != 0)
		return -1;
	bind_text(st, S_EX_GET, 1, ex);
	rc = fetch(st, S_EX_GET);
	if (rc <= 0)
		return rc;
	name = (const char *)sqlite3_column_text(q, 0);
	if (ex_status_parse(name, &out->status) != 0) {
		set_err(st, "exercise %s has unknown status %s in %s", ex,
			name ? name : "NULL", st->path);
		rc = -1;
	}
	out->best_ms = column_ms(q, 1);
	out->attempts = sqlite3_column_int(q, 2);
	out->hints_seen = sqlite3_column_int(q, 3);
	finish(st, S_EX_GET);
	return rc < 0 ? -1 : 0;
}

static int ensure_exercise(struct store *st, const char *ex)
{
	bind_text(st, S_EX_ENSURE, 1, ex);
	return run(st, S_EX_ENSURE);
}

int store_hint_seen(struct store *st, const char *ex, int *seen)
{
	int rc;

	if (need_id(st, ex, "exercise") != 0 || tx_begin(st) != 0)
		return -1;
	rc = ensure_exercise(st, ex);
	if (rc == 0) {
		bind_text(st, S_EX_HINT, 1, ex);
		rc = run(st, S_EX_HINT);
	}
	if (rc == 0) {
		bind_text(st, S_EX_GET, 1, ex);
		rc = fetch(st, S_EX_GET) > 0 ? 0 : -1;
		if (rc == 0) {
			*seen = sqlite3_column_int(st->stmt[S_EX_GET], 3);
			finish(st, S_EX_GET);
		}
	}
	return tx_end(st, rc);
}

/* --- attempts --------------------------------------------------------- */

static int attempt_valid(struct store *st, const struct attempt *a)
{
	if (need_id(st, a->exercise, "exercise") != 0)
		return -1;
	if (!a->mode || !*a->mode || !a->backend || !*a->backend || !a->status ||
	    !*a->status) {
		set_err(st, "attempt of %s needs a mode, a backend and a status",
			a->exercise);
		return -1;
	}
	return 0;
}

static int insert_attempt(struct store *st, const struct attempt *a)
{
	const enum stmt s = S_ATTEMPT_ADD;

	if (a->id > 0)
		bind_int(st, s, 1, a->id);
	bind_text(st, s, 2, a->exercise);
	bind_int(st, s, 3, a->at);
	bind_text(st, s, 4, a->mode);
	bind_text(st, s, 5, a->backend);
	bind_text(st, s, 6, a->status);
	bind_text(st, s, 7, a->source_hash);
	bind_ms(st, s, 8, a->median_ms);
	bind_text(st, s, 9, a->result_json);
	bind_int(st, s, 10, a->scratch ? 1 : 0);
	bind_ms(st, s, 11, a->predicted_device ? a->predicted_ms : -1);
	if (a->predicted_device && a->predicted_ms >= 0)
		bind_text(st, s, 12, a->predicted_device);
	return run(st, s);
}

int store_attempt_add(struct store *st, struct attempt *a)
{
	int64_t id = 0;
	int rc;

	if (attempt_valid(st, a) != 0)
		return -1;
	if (a->at == 0)
		a->at = now();
	if (tx_begin(st) != 0)
		return -1;
	rc = ensure_exercise(st, a->exercise);
	if (rc == 0)
		rc = insert_attempt(st, a);
	if (rc == 0)
		id = sqlite3_last_insert_rowid(st->db);
	if (rc == 0 && !a->scratch) {
		bind_text(st, S_EX_RECORD, 1, a->exercise);
		bind_text(st, S_EX_RECORD, 2, a->status);
		bind_ms(st, S_EX_RECORD, 3, a->median_ms);
		rc = run(st, S_EX_RECORD);
	}
	if (tx_end(st, rc) != 0)
		return -1;
	a->id = id;
	return 0;
}

static void attempt_read(sqlite3_stmt *q, struct attempt *a)
{
	a->id = sqlite3_column_int64(q, 0);
	a->exercise = column_dup(q, 1);
	a->at = sqlite3_column_int64(q, 2);
	a->mode = column_dup(q, 3);
	a->backend = column_dup(q, 4);
	a->status = column_dup(q, 5);
	a->source_hash = column_dup(q, 6);
	a->median_ms = column_ms(q, 7);
	a->result_json = column_dup(q, 8);
	a->scratch = sqlite3_column_int(q, 9) != 0;
	a->predicted_ms = column_ms(q, 10);
	a->predicted_device = column_dup(q, 11);
}

static int attempts_query(struct store *st, const char *ex, size_t max, int scratch,
			  struct attempt **out, size_t *n);

int store_attempts(struct store *st, const char *ex, size_t max,
		   struct attempt **out, size_t *n)
{
	return attempts_query(st, ex, max, 0, out, n);
}

int store_scratch_attempts(struct store *st, const char *ex, size_t max,
			   struct attempt **out, size_t *n)
{
	return attempts_query(st, ex, max, 1, out, n);
}

static int attempts_query(struct store *st, const char *ex, size_t max, int scratch,
			  struct attempt **out, size_t *n)
{
	struct attempt *list = NULL;
	size_t len = 0, cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (need_id(st, ex, "exercise") != 0)
		return -1;
	if (max == 0)
		return 0;
	bind_text(st, S_ATTEMPTS, 1, ex);
	bind_int(st, S_ATTEMPTS, 2, max > INT64_MAX ? INT64_MAX : (int64_t)max);
	bind_int(st, S_ATTEMPTS, 3, scratch);
	while ((rc = fetch(st, S_ATTEMPTS)) > 0) {
		xgrow((void **)&list, &cap, len + 1, sizeof *list);
		attempt_read(st->stmt[S_ATTEMPTS], &list[len++]);
	}
	if (rc < 0) {
		store_attempts_free(list, len);
		return -1;
	}
	*out = list;
	*n = len;
	return 0;
}

void store_attempts_free(struct attempt *a, size_t n)
{
	for (size_t i = 0; a && i < n; i++) {
		free(a[i].exercise);
		free(a[i].mode);
		free(a[i].backend);
		free(a[i].status);
		free(a[i].source_hash);
		free(a[i].result_json);
		free(a[i].predicted_device);
	}
	free(a);
}

/* --- reading a lesson ------------------------------------------------- */

static void reading_clear(struct lesson_reading *r)
{
	memset(r, 0, sizeof *r);
	r->viewed = xstrdup("");
}

void store_lesson_reading_free(struct lesson_reading *r)
{
	if (!r)
		return;
	free(r->viewed);
	r->viewed = NULL;
}

int store_lesson_reading_get(struct store *st, const char *lesson, struct lesson_reading *out)
{
	sqlite3_stmt *q = st->stmt[S_READING_GET];
	int rc;

	reading_clear(out);
	if (need_id(st, lesson, "lesson") != 0)
		return -1;
	bind_text(st, S_READING_GET, 1, lesson);
	rc = fetch(st, S_READING_GET);
	if (rc <= 0)
		return rc;
	free(out->viewed);
	out->viewed = column_dup(q, 0);
	if (!out->viewed)
		out->viewed = xstrdup("");
	out->seconds = sqlite3_column_int64(q, 1);
	out->read_percent = sqlite3_column_int(q, 2);
	out->quizzes = sqlite3_column_int(q, 3);
	out->quizzes_answered = sqlite3_column_int(q, 4);
	finish(st, S_READING_GET);
	return 0;
}

static int reading_valid(struct store *st, const char *lesson, const struct lesson_reading *r)
{
	const char *v = r->viewed ? r->viewed : "";

	if (r->seconds < 0 || r->read_percent < 0 || r->read_percent > 100 || r->quizzes < 0 ||
	    r->quizzes_answered < 0 || r->quizzes_answered > r->quizzes) {
		set_err(st, "invalid reading record for lesson %s: %lld s, %d%% read, %d of %d"
			" quizzes answered", lesson, (long long)r->seconds, r->read_percent,
			r->quizzes_answered, r->quizzes);
		return -1;
	}
	if (v[strspn(v, "01")] != '\0') {
		set_err(st, "invalid viewed blocks for lesson %s: only '0' and '1' may appear",
			lesson);
		return -1;
	}
	return 0;
}

/* Block by block, viewed in either; as long as the longer of the two. */
static char *merge_viewed(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la > lb ? la : lb;
	char *out = xcalloc(n + 1, 1);

	for (size_t i = 0; i < n; i++)
		out[i] = (i < la && a[i] == '1') || (i < lb && b[i] == '1') ? '1' : '0';
	return out;
}

/* Reads the stored blocks inside the write transaction, so a visit saved by
 * another process in between is merged, not overwritten. */
static int reading_write(struct store *st, const char *lesson, const struct lesson_reading *visit)
{
	struct lesson_reading had;
	char *merged;
	int rc = store_lesson_reading_get(st, lesson, &had);

	if (rc != 0) {
		store_lesson_reading_free(&had);
		return -1;
	}
	merged = merge_viewed(had.viewed, visit->viewed ? visit->viewed : "");
	store_lesson_reading_free(&had);
	bind_text(st, S_READING_SET, 1, lesson);
	bind_text(st, S_READING_SET, 2, merged);
	bind_int(st, S_READING_SET, 3, visit->seconds);
	bind_int(st, S_READING_SET, 4, visit->read_percent);
	bind_int(st, S_READING_SET, 5, visit->quizzes);
	bind_int(st, S_READING_SET, 6, visit->quizzes_answered);
	rc = run(st, S_READING_SET);
	free(merged);
	return rc;
}

int store_lesson_reading_add(struct store *st, const char *lesson,
			     const struct lesson_reading *visit)
{
	int rc;

	if (need_id(st, lesson, "lesson") != 0 || reading_valid(st, lesson, visit) != 0)
		return -1;
	if (tx_begin(st) != 0)
		return -1;
	bind_text(st, S_LESSON_ENSURE, 1, lesson);
	rc = run(st, S_LESSON_ENSURE);
	if (rc == 0)
		rc = reading_write(st, lesson, visit);
	return tx_end(st, rc);
}

/* --- quizzes ---------------------------------------------------------- */

/* "0,2" for choices 0 and 2: how a set of choices reads in the database. */
static char *choices_text(uint64_t choices)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_puts(&sb, "");
	for (int c = 0; c < STORE_QUIZ_CHOICES; c++)
		if (choices & (UINT64_C(1) << c))
			sb_printf(&sb, "%s%d", sb.len ? "," : "", c);
	return sb_steal(&sb);
}

/* The set written as text; -1 for anything but ascending-or-not numbers
 * below STORE_QUIZ_CHOICES separated by commas. */
static int choices_parse(const char *s, uint64_t *out)
{
	*out = 0;
	if (!s || !*s)
		return -1;
	for (;;) {
		char *end;
		long c;

		if (*s < '0' || *s > '9')
			return -1;
		c = strtol(s, &end, 10);
		if (c >= STORE_QUIZ_CHOICES)
			return -1;
		*out |= UINT64_C(1) << c;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

int store_quiz_submit(struct store *st, const char *lesson, int quiz, const char *question,
		      uint64_t choices, int correct)
{
	char *text;
	int rc;

	if (need_id(st, lesson, "lesson") != 0)
		return -1;
	if (quiz < 0 || choices == 0) {
		set_err(st, "invalid quiz answer for %s: %s", lesson,
			quiz < 0 ? "a negative quiz index" : "no choice picked");
		return -1;
	}
	if (tx_begin(st) != 0)
		return -1;
	text = choices_text(choices);
	bind_text(st, S_LESSON_ENSURE, 1, lesson);
	rc = run(st, S_LESSON_ENSURE);
	if (rc == 0) {
		bind_text(st, S_QUIZ_ADD, 1, lesson);
		bind_int(st, S_QUIZ_ADD, 2, quiz);
		bind_text(st, S_QUIZ_ADD, 3, question);
		bind_text(st, S_QUIZ_ADD, 4, text);
		bind_int(st, S_QUIZ_ADD, 5, correct != 0);
		bind_int(st, S_QUIZ_ADD, 6, now());
		rc = run(st, S_QUIZ_ADD);
	}
	free(text);
	return tx_end(st, rc);
}

int store_quiz_answers(struct store *st, const char *lesson, int quiz, const char *question,
		       struct quiz_answers *out)
{
	sqlite3_stmt *q = st->stmt[S_QUIZ_GET];
	int rc;

	memset(out, 0, sizeof *out);
	if (need_id(st, lesson, "lesson") != 0)
		return -1;
	bind_text(st, S_QUIZ_GET, 1, lesson);
	bind_int(st, S_QUIZ_GET, 2, quiz);
	bind_text(st, S_QUIZ_GET, 3, question);
	while ((rc = fetch(st, S_QUIZ_GET)) > 0) {
		const char *text = (const char *)sqlite3_column_text(q, 0);
		uint64_t choices;

		if (choices_parse(text, &choices) != 0) {
			set_err(st, "quiz %d of lesson %s has an unreadable answer '%s' in %s",
				quiz, lesson, text ? text : "NULL", st->path);
			finish(st, S_QUIZ_GET);
			memset(out, 0, sizeof *out);
			return -1;
		}
		out->latest = choices;
		out->latest_correct = sqlite3_column_int(q, 1) != 0;
		if (out->count++ == 0) {
			out->first = out->latest;
			out->first_correct = out->latest_correct;
		}
	}
	if (rc < 0)
		memset(out, 0, sizeof *out);
	return rc < 0 ? -1 : 0;
}
