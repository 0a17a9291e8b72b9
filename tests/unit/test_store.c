/* test_store.c — the progress store: files and modes, pragmas, every
 * setter and getter, persistence, migrations, concurrent writers, corrupt
 * files and unwritable homes.  Expected values are written out here or read
 * back with plain SQLite, never taken from the store itself. */
#include <criterion/criterion.h>

#include "cudalab/store.h"
#include "cudalab/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *tmp;

static int remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (type == FTW_DP || type == FTW_D)
		return rmdir(path) == 0 ? 0 : -1;
	return unlink(path) == 0 ? 0 : -1;
}

static int restore_mode(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (type == FTW_D || type == FTW_DNR)
		chmod(path, 0700);
	return 0;
}

static void setup(void)
{
	char templ[] = "/tmp/cudalab-store-XXXXXX";

	cr_assert_not_null(mkdtemp(templ));
	tmp = xstrdup(templ);
}

static void teardown(void)
{
	nftw(tmp, restore_mode, 16, FTW_PHYS);
	nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(tmp);
	tmp = NULL;
}

TestSuite(store, .init = setup, .fini = teardown, .timeout = 60);

/* --- shared checks ---------------------------------------------------- */

static char *tpath(const char *rel)
{
	return path_join(tmp, rel);
}

static struct store *open_ok(const char *home)
{
	char *warning = NULL, *err = NULL;
	struct store *st = store_open(home, &warning, &err);

	cr_assert_not_null(st, "store_open(%s): %s", home, err ? err : "?");
	cr_assert_null(warning, "unexpected warning: %s", warning);
	cr_assert_null(err);
	return st;
}

static void write_bytes(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	cr_assert_geq(fd, 0, "open %s: %s", path, strerror(errno));
	cr_assert_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static int exists(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) == 0;
}

static unsigned perm_bits(const char *path)
{
	struct stat sb;

	cr_assert_eq(stat(path, &sb), 0, "stat %s: %s", path, strerror(errno));
	return (unsigned)(sb.st_mode & 07777);
}

static sqlite3 *raw_open(const char *path)
{
	sqlite3 *db = NULL;

	cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
				     NULL), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	return db;
}

static void raw_exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, &msg), SQLITE_OK, "%s: %s", sql,
		     msg ? msg : "?");
}

/* The first column of the first row of sql, as text ("" for no row). */
static char *raw_text(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *q = NULL;
	char *out;

	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK, "%s: %s", sql,
		     sqlite3_errmsg(db));
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
		out = xstrdup((const char *)sqlite3_column_text(q, 0));
	else
		out = xstrdup("");
	sqlite3_finalize(q);
	return out;
}

static long raw_int(sqlite3 *db, const char *sql)
{
	char *t = raw_text(db, sql);
	long v = strtol(t, NULL, 10);

	free(t);
	return v;
}

/* All rows of sql joined with '|' between columns and '\n' between rows. */
static char *raw_dump(sqlite3 *db, const char *sql)
{
	struct strbuf sb;
	sqlite3_stmt *q = NULL;

	sb_init(&sb);
	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(q); i++) {
			const unsigned char *t = sqlite3_column_text(q, i);
			sb_printf(&sb, "%s%s", i ? "|" : "", t ? (const char *)t : "NULL");
		}
		sb_putc(&sb, '\n');
	}
	sqlite3_finalize(q);
	return sb_steal(&sb);
}

static void assert_pragma(struct store *st, const char *name, const char *want)
{
	char *v = NULL;

	cr_assert_eq(store_pragma(st, name, &v), 0, "%s", store_errmsg(st));
	cr_assert_str_eq(v, want, "PRAGMA %s", name);
	free(v);
}

static void assert_item(struct store *st, const char *id, enum item_status want)
{
	enum item_status got = (enum item_status)-1;

	cr_assert_eq(store_item_get(st, id, &got), 0, "%s", store_errmsg(st));
	cr_assert_eq(got, want, "item %s: got %d, want %d", id, (int)got, (int)want);
}

static void add_attempt(struct store *st, const char *ex, const char *status, double ms,
			int64_t at, const char *hash)
{
	struct attempt a = {
		.exercise = (char *)ex,
		.at = at,
		.mode = "check",
		.backend = "simt",
		.status = (char *)status,
		.source_hash = (char *)hash,
		.median_ms = ms,
	};

	cr_assert_eq(store_attempt_add(st, &a), 0, "%s", store_errmsg(st));
	cr_assert_gt(a.id, 0);
}

/* --- files, modes and pragmas ------------------------------------------- */

Test(store, fresh_home_dir_and_file_modes)
{
	char *home = tpath("a/b/home");
	char *db = tpath("a/b/home/progress.db");
	char *wal = tpath("a/b/home/progress.db-wal");
	char *shm = tpath("a/b/home/progress.db-shm");
	struct store *st = open_ok(home);

	cr_assert_str_eq(store_path(st), db);
	cr_assert_eq(perm_bits(home), 0700u);
	cr_assert_eq(perm_bits(db), 0600u);
	cr_assert_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	cr_assert_eq(store_item_set(st, "x", ITEM_DONE), 0);
	/* While open in WAL mode the side files exist; they must not be
	 * readable by others either. */
	cr_assert(exists(wal) && exists(shm));
	cr_assert_eq(perm_bits(wal) & 077u, 0u, "wal mode %o", perm_bits(wal));
	cr_assert_eq(perm_bits(shm) & 077u, 0u, "shm mode %o", perm_bits(shm));
	store_close(st);

	sqlite3 *raw = raw_open(db);
	cr_assert_eq(raw_int(raw, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	sqlite3_close(raw);
	free(home);
	free(db);
	free(wal);
	free(shm);
}

Test(store, pragmas_in_effect)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");
	struct store *st = open_ok(home);
	char *v = NULL;

	assert_pragma(st, "journal_mode", "wal");
	assert_pragma(st, "foreign_keys", "1");
	assert_pragma(st, "synchronous", "1"); /* NORMAL */
	cr_assert_eq(store_pragma(st, "busy_timeout", &v), 0);
	cr_assert_geq(strtol(v, NULL, 10), 1000, "busy_timeout %s", v);
	free(v);
	cr_assert_eq(store_pragma(st, "user_version; DROP TABLE item", &v), -1);
	cr_assert_null(v);
	cr_assert_neq(store_errmsg(st)[0], '\0');
	store_close(st);

	/* WAL is a property of the file; the foreign keys are in the schema. */
	sqlite3 *raw = raw_open(db);
	char *mode = raw_text(raw, "PRAGMA journal_mode");
	cr_assert_str_eq(mode, "wal");
	char *fk = raw_dump(raw, "SELECT \"table\", \"from\", \"to\" FROM "
			   "pragma_foreign_key_list('attempt')");
	cr_assert_str_eq(fk, "exercise|exercise|id\n");
	free(fk);
	fk = raw_dump(raw, "SELECT \"table\", \"from\", \"to\" FROM "
		      "pragma_foreign_key_list('quiz_attempt')");
	cr_assert_str_eq(fk, "lesson|lesson|id\n");
	free(fk);
	free(mode);
	sqlite3_close(raw);
	free(home);
	free(db);
}

/* --- setters and getters ------------------------------------------------- */

Test(store, status_names)
{
	enum item_status s;

	cr_assert_str_eq(store_item_status_name(ITEM_UNREAD), "unread");
	cr_assert_str_eq(store_item_status_name(ITEM_READING), "reading");
	cr_assert_str_eq(store_item_status_name(ITEM_DONE), "done");
	cr_assert_str_eq(store_ex_status_name(EX_NEW), "new");
	cr_assert_str_eq(store_ex_status_name(EX_ATTEMPTED), "attempted");
	cr_assert_str_eq(store_ex_status_name(EX_PASSED), "passed");
	cr_assert_eq(store_item_status_parse("unread", &s), 0);
	cr_assert_eq(s, ITEM_UNREAD);
	cr_assert_eq(store_item_status_parse("reading", &s), 0);
	cr_assert_eq(s, ITEM_READING);
	cr_assert_eq(store_item_status_parse("done", &s), 0);
	cr_assert_eq(s, ITEM_DONE);
	cr_assert_eq(store_item_status_parse("Done", &s), -1);
	cr_assert_eq(store_item_status_parse("", &s), -1);
	cr_assert_eq(store_item_status_parse(NULL, &s), -1);
}

Test(store, item_round_trip)
{
	char *home = tpath("home");
	struct store *st = open_ok(home);

	assert_item(st, "never-seen", ITEM_UNREAD);
	cr_assert_eq(store_item_set(st, "a", ITEM_READING), 0);
	cr_assert_eq(store_item_set(st, "b", ITEM_DONE), 0);
	cr_assert_eq(store_item_set(st, "c", ITEM_UNREAD), 0);
	assert_item(st, "a", ITEM_READING);
	assert_item(st, "b", ITEM_DONE);
	assert_item(st, "c", ITEM_UNREAD);
	cr_assert_eq(store_item_set(st, "a", ITEM_DONE), 0);
	assert_item(st, "a", ITEM_DONE);
	cr_assert_eq(store_item_set(st, "b", ITEM_UNREAD), 0);
	assert_item(st, "b", ITEM_UNREAD);

	cr_assert_eq(store_item_set(st, "a", (enum item_status)7), -1);
	cr_assert_neq(store_errmsg(st)[0], '\0');
	assert_item(st, "a", ITEM_DONE);
	cr_assert_eq(store_item_set(st, NULL, ITEM_DONE), -1);
	cr_assert_eq(store_item_set(st, "", ITEM_DONE), -1);
	store_close(st);

	char *db = tpath("home/progress.db");
	sqlite3 *raw = raw_open(db);
	char *rows = raw_dump(raw, "SELECT id, status FROM item ORDER BY id");
	cr_assert_str_eq(rows, "a|done\nb|unread\nc|unread\n");
	free(rows);
	sqlite3_close(raw);
	free(db);
	free(home);
}

Test(store, lesson_round_trip)
{
	char *home = tpath("home");
	struct store *st = open_ok(home);
	struct lesson_state ls;
	int64_t t0, t1;

	ls.position = 99;
	cr_assert_eq(store_lesson_get(st, "gpu-memory", &ls), 0);
	cr_assert_eq(ls.position, 0);
	cr_assert_eq(ls.completed, 0);
	cr_assert_eq(ls.opened_at, 0);

	t0 = (int64_t)time(NULL);
	cr_assert_eq(store_lesson_set_position(st, "gpu-memory", 42), 0);
	t1 = (int64_t)time(NULL);
	cr_assert_eq(store_lesson_get(st, "gpu-memory", &ls), 0);
	cr_assert_eq(ls.position, 42);
	cr_assert_eq(ls.completed, 0);
	cr_assert(ls.opened_at >= t0 && ls.opened_at <= t1, "opened_at %lld",
		  (long long)ls.opened_at);

	cr_assert_eq(store_lesson_complete(st, "gpu-memory"), 0);
	cr_assert_eq(store_lesson_get(st, "gpu-memory", &ls), 0);
	cr_assert_eq(ls.position, 42);
	cr_assert_eq(ls.completed, 1);

	/* Completion is for good; moving back up keeps it. */
	cr_assert_eq(store_lesson_set_position(st, "gpu-memory", 3), 0);
	cr_assert_eq(store_lesson_get(st, "gpu-memory", &ls), 0);
	cr_assert_eq(ls.position, 3);
	cr_assert_eq(ls.completed, 1);

	/* Completing a lesson never opened creates it at the top. */
	cr_assert_eq(store_lesson_complete(st, "other"), 0);
	cr_assert_eq(store_lesson_get(st, "other", &ls), 0);
	cr_assert_eq(ls.position, 0);
	cr_assert_eq(ls.completed, 1);
	cr_assert_eq(ls.opened_at, 0);

	cr_assert_eq(store_lesson_set_position(st, "gpu-memory", -1), -1);
	cr_assert_eq(store_lesson_get(st, "gpu-memory", &ls), 0);
	cr_assert_eq(ls.position, 3);
	store_close(st);
	free(home);
}

Test(store, hints_count_and_do_not_attempt)
{
	char *home = tpath("home");
	struct store *st = open_ok(home);
	struct exercise_state es;
	int seen = 0;

	cr_assert_eq(store_exercise_get(st, "vector-add", &es), 0);
	cr_assert_eq(es.status, EX_NEW);
	cr_assert_lt(es.best_ms, 0);
	cr_assert_eq(es.attempts, 0);
	cr_assert_eq(es.hints_seen, 0);

	for (int i = 1; i <= 3; i++) {
		cr_assert_eq(store_hint_seen(st, "vector-add", &seen), 0);
		cr_assert_eq(seen, i);
	}
	cr_assert_eq(store_exercise_get(st, "vector-add", &es), 0);
	cr_assert_eq(es.status, EX_NEW);
	cr_assert_eq(es.hints_seen, 3);
	cr_assert_eq(es.attempts, 0);
	cr_assert_lt(es.best_ms, 0);
	store_close(st);
	free(home);
}

Test(store, status_and_best_time)
{
	/* status, median, then the exercise state expected after it. */
	static const struct {
		const char *status;
		double ms;
		enum ex_status want;
		double best;
	} steps[] = {
		{ "compile_error", -1, EX_ATTEMPTED, -1 },
		{ "wrong", 0.9, EX_ATTEMPTED, -1 },   /* a wrong answer's time is no best */
		{ "pass", -1, EX_PASSED, -1 },        /* passed, not timed */
		{ "pass", 2.5, EX_PASSED, 2.5 },
		{ "pass", 3.0, EX_PASSED, 2.5 },      /* slower: best stays */
		{ "wrong", 1.0, EX_PASSED, 2.5 },     /* passed is for good */
		{ "timeout", -1, EX_PASSED, 2.5 },
		{ "pass", 1.5, EX_PASSED, 1.5 },
		{ "pass", 0.0, EX_PASSED, 0.0 },
		{ "runtime_error", -1, EX_PASSED, 0.0 },
	};
	char *home = tpath("home");
	struct store *st = open_ok(home);
	struct exercise_state es;

	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		add_attempt(st, "saxpy", steps[i].status, steps[i].ms, 0, "h");
		cr_assert_eq(store_exercise_get(st, "saxpy", &es), 0);
		cr_assert_eq(es.status, steps[i].want, "step %zu: status %d", i, (int)es.status);
		cr_assert_eq(es.attempts, (int)i + 1);
		if (steps[i].best < 0)
			cr_assert_lt(es.best_ms, 0, "step %zu: best %g", i, es.best_ms);
		else
			cr_assert_float_eq(es.best_ms, steps[i].best, 1e-12, "step %zu", i);
	}
	cr_assert_eq(store_exercise_get(st, "other", &es), 0);
	cr_assert_eq(es.status, EX_NEW);
	store_close(st);
	free(home);
}

Test(store, attempt_fields_order_and_limits)
{
	char *home = tpath("home");
	struct store *st = open_ok(home);
	struct attempt *list = NULL;
	struct attempt a = {
		.exercise = "reduce",
		.mode = "bench",
		.backend = "gpu",
		.status = "pass",
		.source_hash = "0123abcd",
		.median_ms = 0.41,
		.result_json = "{\"schema\":1,\"status\":\"pass\"}",
	};
	size_t n = 99;
	int64_t t0, t1, ids[6];

	t0 = (int64_t)time(NULL);
	cr_assert_eq(store_attempt_add(st, &a), 0, "%s", store_errmsg(st));
	t1 = (int64_t)time(NULL);
	cr_assert_gt(a.id, 0);
	cr_assert(a.at >= t0 && a.at <= t1);
	ids[0] = a.id;

	/* Explicit times, out of order, with a tie at 300. */
	static const int64_t at[] = { 100, 300, 200, 300, 50 };
	for (int i = 0; i < 5; i++) {
		struct attempt b = {
			.exercise = "reduce", .at = at[i], .mode = "check",
			.backend = "simt", .status = "wrong", .median_ms = -1,
		};
		cr_assert_eq(store_attempt_add(st, &b), 0);
		cr_assert_eq(b.at, at[i]);
		cr_assert_gt(b.id, ids[i]);
		ids[i + 1] = b.id;
	}
	add_attempt(st, "elsewhere", "pass", 1, 1000, "x");

	cr_assert_eq(store_attempts(st, "reduce", 100, &list, &n), 0);
	cr_assert_eq(n, 6u);
	/* Newest first: now, then 300 (the later id first), 300, 200, 100, 50. */
	const int64_t want_ids[] = { ids[0], ids[4], ids[2], ids[3], ids[1], ids[5] };
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(list[i].id, want_ids[i], "position %zu", i);

	cr_assert_str_eq(list[0].exercise, "reduce");
	cr_assert_eq(list[0].at, a.at);
	cr_assert_str_eq(list[0].mode, "bench");
	cr_assert_str_eq(list[0].backend, "gpu");
	cr_assert_str_eq(list[0].status, "pass");
	cr_assert_str_eq(list[0].source_hash, "0123abcd");
	cr_assert_float_eq(list[0].median_ms, 0.41, 1e-12);
	cr_assert_str_eq(list[0].result_json, "{\"schema\":1,\"status\":\"pass\"}");
	cr_assert_eq(list[1].at, 300);
	cr_assert_str_eq(list[1].mode, "check");
	cr_assert_str_eq(list[1].backend, "simt");
	cr_assert_str_eq(list[1].status, "wrong");
	cr_assert_null(list[1].source_hash);
	cr_assert_lt(list[1].median_ms, 0);
	cr_assert_null(list[1].result_json);
	store_attempts_free(list, n);

	cr_assert_eq(store_attempts(st, "reduce", 3, &list, &n), 0);
	cr_assert_eq(n, 3u);
	cr_assert_eq(list[0].id, ids[0]);
	cr_assert_eq(list[2].id, ids[2]);
	store_attempts_free(list, n);

	cr_assert_eq(store_attempts(st, "reduce", 0, &list, &n), 0);
	cr_assert_eq(n, 0u);
	cr_assert_null(list);
	cr_assert_eq(store_attempts(st, "nothing-here", 10, &list, &n), 0);
	cr_assert_eq(n, 0u);
	store_attempts_free(list, n);

	/* An incomplete attempt is refused and leaves no trace. */
	struct attempt bad = { .exercise = "reduce", .mode = "check", .backend = "gpu" };
	cr_assert_eq(store_attempt_add(st, &bad), -1);
	cr_assert_neq(store_errmsg(st)[0], '\0');
	struct exercise_state es;
	cr_assert_eq(store_exercise_get(st, "reduce", &es), 0);
	cr_assert_eq(es.attempts, 6);
	cr_assert_eq(es.status, EX_PASSED);
	cr_assert_float_eq(es.best_ms, 0.41, 1e-12);
	store_close(st);
	free(home);
}

/* The answers of one quiz, with every field first set to garbage. */
static struct quiz_answers answers_of(struct store *st, const char *lesson, int quiz,
				      const char *question)
{
	struct quiz_answers a;

	memset(&a, 0x5a, sizeof a);
	cr_assert_eq(store_quiz_answers(st, lesson, quiz, question, &a), 0, "%s",
		     store_errmsg(st));
	return a;
}

static void assert_answers(struct quiz_answers a, int count, uint64_t first, int first_correct,
			   uint64_t latest, int latest_correct)
{
	cr_assert_eq(a.count, count);
	cr_assert_eq(a.first, first, "first %#llx", (unsigned long long)a.first);
	cr_assert_eq(a.first_correct, first_correct);
	cr_assert_eq(a.latest, latest, "latest %#llx", (unsigned long long)a.latest);
	cr_assert_eq(a.latest_correct, latest_correct);
}

#define BIT(c) (UINT64_C(1) << (c))

Test(store, quiz_first_answer_counts)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");
	struct store *st = open_ok(home);

	assert_answers(answers_of(st, "gpu-memory", 0, "Q0"), 0, 0, 0, 0, 0);
	cr_assert_eq(store_quiz_submit(st, "gpu-memory", 0, "Q0", BIT(2), 1), 0);
	cr_assert_eq(store_quiz_submit(st, "gpu-memory", 1, "Q1", BIT(0), 0), 0);
	cr_assert_eq(store_quiz_submit(st, "other", 0, "Q0", BIT(3), 0), 0);
	assert_answers(answers_of(st, "gpu-memory", 0, "Q0"), 1, BIT(2), 1, BIT(2), 1);
	assert_answers(answers_of(st, "gpu-memory", 1, "Q1"), 1, BIT(0), 0, BIT(0), 0);
	assert_answers(answers_of(st, "other", 0, "Q0"), 1, BIT(3), 0, BIT(3), 0);
	assert_answers(answers_of(st, "other", 1, "Q1"), 0, 0, 0, 0, 0);

	/* Later answers are kept beside the first, never in its place; any
	 * non-zero counts as correct. */
	cr_assert_eq(store_quiz_submit(st, "gpu-memory", 0, "Q0", BIT(1), 0), 0);
	assert_answers(answers_of(st, "gpu-memory", 0, "Q0"), 2, BIT(2), 1, BIT(1), 0);
	cr_assert_eq(store_quiz_submit(st, "gpu-memory", 0, "Q0", BIT(0), 7), 0);
	assert_answers(answers_of(st, "gpu-memory", 0, "Q0"), 3, BIT(2), 1, BIT(0), 1);

	cr_assert_eq(store_quiz_submit(st, "gpu-memory", -1, "Q0", BIT(0), 0), -1);
	cr_assert_not_null(strstr(store_errmsg(st), "negative quiz index"), "%s", store_errmsg(st));
	cr_assert_eq(store_quiz_submit(st, "gpu-memory", 0, "Q0", 0, 0), -1);
	cr_assert_not_null(strstr(store_errmsg(st), "no choice"), "%s", store_errmsg(st));
	cr_assert_eq(store_quiz_submit(st, "", 0, "Q0", BIT(0), 0), -1);
	assert_answers(answers_of(st, "gpu-memory", 0, "Q0"), 3, BIT(2), 1, BIT(0), 1);

	/* The lesson changed: another question now sits at index 0, and the
	 * answers given to the old one are not shown on it.  A NULL question
	 * skips the comparison. */
	assert_answers(answers_of(st, "gpu-memory", 0, "A new question"), 0, 0, 0, 0, 0);
	assert_answers(answers_of(st, "gpu-memory", 0, NULL), 3, BIT(2), 1, BIT(0), 1);
	cr_assert_eq(store_quiz_submit(st, "gpu-memory", 0, "A new question", BIT(1), 0), 0);
	assert_answers(answers_of(st, "gpu-memory", 0, "A new question"), 1, BIT(1), 0, BIT(1), 0);
	assert_answers(answers_of(st, "gpu-memory", 0, "Q0"), 3, BIT(2), 1, BIT(0), 1);
	store_close(st);

	/* Every answer is a row, in the order given, choices 0-based. */
	sqlite3 *raw = raw_open(db);
	char *rows = raw_dump(raw, "SELECT lesson, quiz, question, choices, correct"
			      " FROM quiz_attempt ORDER BY id");
	cr_assert_str_eq(rows, "gpu-memory|0|Q0|2|1\n"
			       "gpu-memory|1|Q1|0|0\n"
			       "other|0|Q0|3|0\n"
			       "gpu-memory|0|Q0|1|0\n"
			       "gpu-memory|0|Q0|0|1\n"
			       "gpu-memory|0|A new question|1|0\n");
	free(rows);
	sqlite3_close(raw);
	free(db);
	free(home);
}

Test(store, quiz_answer_of_several_choices)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");
	struct store *st = open_ok(home);
	uint64_t set = BIT(0) | BIT(2) | BIT(63);
	struct quiz_answers a;

	cr_assert_eq(store_quiz_submit(st, "l", 3, "Which?", BIT(0) | BIT(2), 0), 0);
	cr_assert_eq(store_quiz_submit(st, "l", 3, "Which?", set, 1), 0);
	assert_answers(answers_of(st, "l", 3, "Which?"), 2, BIT(0) | BIT(2), 0, set, 1);
	store_close(st);

	sqlite3 *raw = raw_open(db);
	char *rows = raw_dump(raw, "SELECT choices FROM quiz_attempt ORDER BY id");
	cr_assert_str_eq(rows, "0,2\n0,2,63\n");
	free(rows);
	/* What no cudalab writes is reported, not guessed at. */
	raw_exec(raw, "INSERT INTO quiz_attempt (lesson, quiz, choices, correct, at)"
		 " VALUES ('l', 4, '64', 0, 1)");
	sqlite3_close(raw);
	st = open_ok(home);
	cr_assert_eq(store_quiz_answers(st, "l", 4, NULL, &a), -1);
	cr_assert_not_null(strstr(store_errmsg(st), "unreadable answer '64'"), "%s",
			   store_errmsg(st));
	cr_assert_eq(a.count, 0);
	cr_assert_eq(a.first, 0);
	assert_answers(answers_of(st, "l", 3, "Which?"), 2, BIT(0) | BIT(2), 0, set, 1);
	store_close(st);
	free(db);
	free(home);
}

static void assert_reading(struct store *st, const char *lesson, const char *viewed,
			   int64_t seconds, int percent, int quizzes, int answered)
{
	struct lesson_reading r;

	memset(&r, 0x5a, sizeof r);
	cr_assert_eq(store_lesson_reading_get(st, lesson, &r), 0, "%s", store_errmsg(st));
	cr_assert_str_eq(r.viewed, viewed);
	cr_assert_eq(r.seconds, seconds, "seconds %lld", (long long)r.seconds);
	cr_assert_eq(r.read_percent, percent);
	cr_assert_eq(r.quizzes, quizzes);
	cr_assert_eq(r.quizzes_answered, answered);
	store_lesson_reading_free(&r);
}

Test(store, lesson_reading_adds_up)
{
	char *home = tpath("home");
	struct store *st = open_ok(home);
	struct lesson_reading v = { .viewed = "0110", .seconds = 40, .read_percent = 50,
				    .quizzes = 3, .quizzes_answered = 1 };
	struct lesson_state ls;

	assert_reading(st, "intro", "", 0, 0, 0, 0);
	cr_assert_eq(store_lesson_reading_add(st, "intro", &v), 0, "%s", store_errmsg(st));
	assert_reading(st, "intro", "0110", 40, 50, 3, 1);

	/* Time adds up; a block once viewed stays viewed, whatever the
	 * length of the next visit's record; the summary is the latest. */
	v = (struct lesson_reading){ .viewed = "100001", .seconds = 25, .read_percent = 45,
				     .quizzes = 3, .quizzes_answered = 2 };
	cr_assert_eq(store_lesson_reading_add(st, "intro", &v), 0, "%s", store_errmsg(st));
	assert_reading(st, "intro", "111001", 65, 45, 3, 2);
	v = (struct lesson_reading){ .viewed = "01", .seconds = 0, .read_percent = 100 };
	cr_assert_eq(store_lesson_reading_add(st, "intro", &v), 0, "%s", store_errmsg(st));
	assert_reading(st, "intro", "111001", 65, 100, 0, 0);
	v.viewed = NULL;
	cr_assert_eq(store_lesson_reading_add(st, "intro", &v), 0, "%s", store_errmsg(st));
	assert_reading(st, "intro", "111001", 65, 100, 0, 0);

	/* Recording a visit neither completes the lesson nor moves it. */
	cr_assert_eq(store_lesson_set_position(st, "intro", 9), 0);
	cr_assert_eq(store_lesson_reading_add(st, "intro", &v), 0);
	cr_assert_eq(store_lesson_get(st, "intro", &ls), 0);
	cr_assert_eq(ls.completed, 0);
	cr_assert_eq(ls.position, 9);

	/* Bad values are refused and change nothing. */
	static const struct lesson_reading bad[] = {
		{ .viewed = "01x", .seconds = 5 },
		{ .viewed = "", .seconds = -1 },
		{ .viewed = "", .read_percent = 101 },
		{ .viewed = "", .read_percent = -1 },
		{ .viewed = "", .quizzes = 2, .quizzes_answered = 3 },
		{ .viewed = "", .quizzes = -1 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_assert_eq(store_lesson_reading_add(st, "intro", &bad[i]), -1, "bad %zu", i);
		cr_assert_neq(store_errmsg(st)[0], '\0');
		assert_reading(st, "intro", "111001", 65, 100, 0, 0);
	}
	cr_assert_eq(store_lesson_reading_add(st, "", &v), -1);
	store_close(st);

	st = open_ok(home);
	assert_reading(st, "intro", "111001", 65, 100, 0, 0);
	store_close(st);
	free(home);
}

Test(store, persists_across_reopen)
{
	char *home = tpath("home");
	struct store *st = open_ok(home);
	struct lesson_state ls;
	struct exercise_state es;
	struct attempt *list;
	size_t n;
	int seen;

	cr_assert_eq(store_item_set(st, "dettmers", ITEM_DONE), 0);
	cr_assert_eq(store_item_set(st, "flash", ITEM_READING), 0);
	cr_assert_eq(store_lesson_set_position(st, "intro", 17), 0);
	cr_assert_eq(store_lesson_complete(st, "intro"), 0);
	cr_assert_eq(store_hint_seen(st, "saxpy", &seen), 0);
	add_attempt(st, "saxpy", "pass", 0.75, 1234, "beef");
	cr_assert_eq(store_quiz_submit(st, "intro", 4, "Why?", BIT(1), 1), 0);
	cr_assert_eq(store_quiz_submit(st, "intro", 4, "Why?", BIT(0), 0), 0);
	store_close(st);

	st = open_ok(home);
	assert_item(st, "dettmers", ITEM_DONE);
	assert_item(st, "flash", ITEM_READING);
	cr_assert_eq(store_lesson_get(st, "intro", &ls), 0);
	cr_assert_eq(ls.position, 17);
	cr_assert_eq(ls.completed, 1);
	cr_assert_gt(ls.opened_at, 0);
	cr_assert_eq(store_exercise_get(st, "saxpy", &es), 0);
	cr_assert_eq(es.status, EX_PASSED);
	cr_assert_float_eq(es.best_ms, 0.75, 1e-12);
	cr_assert_eq(es.attempts, 1);
	cr_assert_eq(es.hints_seen, 1);
	cr_assert_eq(store_attempts(st, "saxpy", 10, &list, &n), 0);
	cr_assert_eq(n, 1u);
	cr_assert_eq(list[0].at, 1234);
	cr_assert_str_eq(list[0].source_hash, "beef");
	store_attempts_free(list, n);
	assert_answers(answers_of(st, "intro", 4, "Why?"), 2, BIT(1), 1, BIT(0), 0);
	store_close(st);
	free(home);
}

/* --- migrations ------------------------------------------------------- */

static void assert_tables(const char *db)
{
	sqlite3 *raw = raw_open(db);
	char *names = raw_dump(raw, "SELECT name FROM sqlite_master WHERE type = 'table'"
			       " AND name IN ('item', 'lesson', 'exercise', 'attempt',"
			       " 'quiz_answer', 'quiz_attempt') ORDER BY name");

	cr_assert_str_eq(names, "attempt\nexercise\nitem\nlesson\nquiz_attempt\n");
	cr_assert_eq(raw_int(raw, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	free(names);
	sqlite3_close(raw);
}

Test(store, migrates_empty_file)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");

	cr_assert_eq(mkdir(home, 0700), 0);
	write_bytes(db, "", 0, 0600);
	struct store *st = open_ok(home);
	cr_assert_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	cr_assert_eq(store_item_set(st, "x", ITEM_DONE), 0);
	assert_item(st, "x", ITEM_DONE);
	store_close(st);
	assert_tables(db);
	free(db);
	free(home);
}

Test(store, migrates_version_0_database)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");

	cr_assert_eq(mkdir(home, 0700), 0);
	sqlite3 *raw = raw_open(db);
	raw_exec(raw, "CREATE TABLE unrelated (x TEXT); INSERT INTO unrelated VALUES ('kept');");
	cr_assert_eq(raw_int(raw, "PRAGMA user_version"), 0);
	sqlite3_close(raw);

	struct store *st = open_ok(home);
	cr_assert_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	add_attempt(st, "e", "pass", 2, 0, "h");
	store_close(st);
	assert_tables(db);
	raw = raw_open(db);
	char *kept = raw_text(raw, "SELECT x FROM unrelated");
	cr_assert_str_eq(kept, "kept");
	free(kept);
	sqlite3_close(raw);
	free(db);
	free(home);
}

Test(store, failed_migration_step_leaves_nothing_behind)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");
	char *warning = NULL, *err = NULL;

	/* A table in the way of the step's last CREATE makes the step fail
	 * after its first tables were made; none of them may remain. */
	cr_assert_eq(mkdir(home, 0700), 0);
	sqlite3 *raw = raw_open(db);
	raw_exec(raw, "CREATE TABLE quiz_answer (x);");
	sqlite3_close(raw);

	cr_assert_null(store_open(home, &warning, &err));
	cr_assert_null(warning);
	cr_assert_not_null(err);
	cr_assert_not_null(strstr(err, "quiz_answer"), "%s", err);
	free(err);

	raw = raw_open(db);
	char *names = raw_dump(raw, "SELECT name FROM sqlite_master ORDER BY name");
	cr_assert_str_eq(names, "quiz_answer\n");
	cr_assert_eq(raw_int(raw, "PRAGMA user_version"), 0);
	free(names);
	sqlite3_close(raw);
	free(db);
	free(home);
}

/* Schema version 1 as released, written out by hand: later versions of the
 * store must keep reading (or migrating) exactly this. */
static const char v1_schema[] =
	"CREATE TABLE item (id TEXT PRIMARY KEY NOT NULL,"
	" status TEXT NOT NULL CHECK (status IN ('unread', 'reading', 'done')),"
	" updated_at INTEGER NOT NULL);"
	"CREATE TABLE lesson (id TEXT PRIMARY KEY NOT NULL,"
	" position INTEGER NOT NULL DEFAULT 0 CHECK (position >= 0),"
	" completed INTEGER NOT NULL DEFAULT 0 CHECK (completed IN (0, 1)),"
	" opened_at INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE exercise (id TEXT PRIMARY KEY NOT NULL,"
	" status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'attempted', 'passed')),"
	" best_ms REAL CHECK (best_ms >= 0),"
	" attempts INTEGER NOT NULL DEFAULT 0,"
	" hints_seen INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE attempt (id INTEGER PRIMARY KEY,"
	" exercise TEXT NOT NULL REFERENCES exercise (id) ON DELETE CASCADE,"
	" at INTEGER NOT NULL, mode TEXT NOT NULL, backend TEXT NOT NULL,"
	" status TEXT NOT NULL, source_hash TEXT,"
	" median_ms REAL CHECK (median_ms >= 0), result_json TEXT);"
	"CREATE INDEX attempt_by_exercise ON attempt (exercise, at, id);"
	"CREATE TABLE quiz_answer ("
	" lesson TEXT NOT NULL REFERENCES lesson (id) ON DELETE CASCADE,"
	" quiz INTEGER NOT NULL CHECK (quiz >= 0),"
	" choice INTEGER NOT NULL CHECK (choice >= 0),"
	" correct INTEGER NOT NULL CHECK (correct IN (0, 1)),"
	" at INTEGER NOT NULL, PRIMARY KEY (lesson, quiz));"
	"PRAGMA user_version = 1;";

static const char v1_rows[] =
	"INSERT INTO item VALUES ('x', 'done', 1700000000);"
	"INSERT INTO item VALUES ('y', 'reading', 1700000001);"
	"INSERT INTO lesson VALUES ('l1', 7, 1, 1700000002);"
	"INSERT INTO exercise VALUES ('e', 'passed', 1.25, 2, 1);"
	"INSERT INTO attempt VALUES (1, 'e', 1700000010, 'check', 'gpu', 'wrong',"
	" 'aa', NULL, NULL);"
	"INSERT INTO attempt VALUES (2, 'e', 1700000020, 'bench', 'gpu', 'pass',"
	" 'bb', 1.25, '{}');"
	"INSERT INTO quiz_answer VALUES ('l1', 0, 2, 1, 1700000030);";

Test(store, version_1_database_migrates_keeping_every_row)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");
	struct lesson_state ls;
	struct exercise_state es;
	struct attempt *list;
	size_t n;

	cr_assert_eq(mkdir(home, 0700), 0);
	sqlite3 *raw = raw_open(db);
	raw_exec(raw, v1_schema);
	raw_exec(raw, v1_rows);
	char *schema_before = raw_dump(raw, "SELECT type, name, sql FROM sqlite_master"
				       " WHERE tbl_name NOT IN ('quiz_answer', 'lesson', 'attempt')"
				       " ORDER BY name");
	sqlite3_close(raw);

	struct store *st = open_ok(home);
	cr_assert_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	assert_item(st, "x", ITEM_DONE);
	assert_item(st, "y", ITEM_READING);
	cr_assert_eq(store_lesson_get(st, "l1", &ls), 0);
	cr_assert_eq(ls.position, 7);
	cr_assert_eq(ls.completed, 1);
	cr_assert_eq(ls.opened_at, 1700000002);
	cr_assert_eq(store_exercise_get(st, "e", &es), 0);
	cr_assert_eq(es.status, EX_PASSED);
	cr_assert_float_eq(es.best_ms, 1.25, 1e-12);
	cr_assert_eq(es.attempts, 2);
	cr_assert_eq(es.hints_seen, 1);
	cr_assert_eq(store_attempts(st, "e", 10, &list, &n), 0);
	cr_assert_eq(n, 2u);
	cr_assert_eq(list[0].id, 2);
	cr_assert_str_eq(list[0].result_json, "{}");
	cr_assert_eq(list[1].id, 1);
	cr_assert_lt(list[1].median_ms, 0);
	store_attempts_free(list, n);
	/* An answer from before questions were kept holds for any question. */
	assert_answers(answers_of(st, "l1", 0, "Whatever is there now"), 1, BIT(2), 1, BIT(2), 1);
	assert_reading(st, "l1", "", 0, 0, 0, 0);
	add_attempt(st, "e", "pass", 1.0, 1700000040, "cc");
	cr_assert_eq(store_exercise_get(st, "e", &es), 0);
	cr_assert_float_eq(es.best_ms, 1.0, 1e-12);
	cr_assert_eq(es.attempts, 3);
	store_close(st);

	/* Only the quiz answers, the lessons and the attempts changed: each
	 * answer is now an attempt, lessons gained their reading record, and
	 * the attempts kept so far are none of them scratch attempts. */
	raw = raw_open(db);
	char *schema_after = raw_dump(raw, "SELECT type, name, sql FROM sqlite_master"
				      " WHERE tbl_name NOT IN ('quiz_attempt', 'lesson', 'attempt')"
				      " ORDER BY name");
	cr_assert_eq(raw_int(raw, "SELECT count(*) FROM attempt WHERE scratch = 0"), 3);
	char *rows = raw_dump(raw, "SELECT lesson, quiz, question, choices, correct, at"
			      " FROM quiz_attempt");
	char *lessons = raw_dump(raw, "SELECT * FROM lesson");
	cr_assert_str_eq(schema_after, schema_before);
	cr_assert_str_eq(rows, "l1|0|NULL|2|1|1700000030\n");
	cr_assert_str_eq(lessons, "l1|7|1|1700000002||0|0|0|0\n");
	cr_assert_eq(raw_int(raw, "SELECT count(*) FROM sqlite_master WHERE name = 'quiz_answer'"),
		     0);
	cr_assert_eq(raw_int(raw, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	sqlite3_close(raw);
	free(schema_before);
	free(schema_after);
	free(rows);
	free(lessons);
	free(db);
	free(home);
}

/* Schema version 2 as released: version 1 with the question an answer
 * answered.  The answer of lesson 'gone' has no lesson row, as a file
 * written without foreign keys could hold. */
static void write_v2(sqlite3 *raw)
{
	raw_exec(raw, v1_schema);
	raw_exec(raw, "ALTER TABLE quiz_answer ADD COLUMN question TEXT;"
		 "PRAGMA user_version = 2;"
		 "INSERT INTO item VALUES ('x', 'done', 1700000000);"
		 "INSERT INTO lesson VALUES ('l1', 7, 1, 1700000002);"
		 "INSERT INTO lesson VALUES ('l2', 3, 0, 1700000003);"
		 "INSERT INTO quiz_answer VALUES ('l2', 1, 1, 0, 1700000050, 'Other?');"
		 "INSERT INTO quiz_answer VALUES ('l1', 0, 2, 1, 1700000030, 'Q?');"
		 "INSERT INTO quiz_answer VALUES ('l1', 3, 0, 0, 1700000040, NULL);"
		 "INSERT INTO quiz_answer VALUES ('gone', 0, 4, 0, 1700000060, 'Lost?');");
}

Test(store, version_2_database_migrates_keeping_every_answer)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");
	struct lesson_state ls;

	cr_assert_eq(mkdir(home, 0700), 0);
	sqlite3 *raw = raw_open(db);
	write_v2(raw);
	sqlite3_close(raw);

	struct store *st = open_ok(home);
	cr_assert_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	assert_item(st, "x", ITEM_DONE);
	cr_assert_eq(store_lesson_get(st, "l1", &ls), 0);
	cr_assert_eq(ls.position, 7);
	cr_assert_eq(ls.completed, 1);
	cr_assert_eq(store_lesson_get(st, "l2", &ls), 0);
	cr_assert_eq(ls.position, 3);
	cr_assert_eq(ls.completed, 0);
	assert_answers(answers_of(st, "l1", 0, "Q?"), 1, BIT(2), 1, BIT(2), 1);
	assert_answers(answers_of(st, "l1", 0, "Another question"), 0, 0, 0, 0, 0);
	assert_answers(answers_of(st, "l1", 3, "Anything"), 1, BIT(0), 0, BIT(0), 0);
	assert_answers(answers_of(st, "l2", 1, "Other?"), 1, BIT(1), 0, BIT(1), 0);
	assert_answers(answers_of(st, "gone", 0, "Lost?"), 1, BIT(4), 0, BIT(4), 0);
	cr_assert_eq(store_lesson_get(st, "gone", &ls), 0);
	cr_assert_eq(ls.completed, 0);
	assert_reading(st, "l2", "", 0, 0, 0, 0);
	/* The migrated answer stays the first; a new one comes after it. */
	cr_assert_eq(store_quiz_submit(st, "l1", 0, "Q?", BIT(1), 0), 0);
	assert_answers(answers_of(st, "l1", 0, "Q?"), 2, BIT(2), 1, BIT(1), 0);
	store_close(st);

	raw = raw_open(db);
	char *rows = raw_dump(raw, "SELECT lesson, quiz, question, choices, correct,"
			      " CASE WHEN at > 1700000060 THEN 'now' ELSE at END"
			      " FROM quiz_attempt ORDER BY id");
	cr_assert_str_eq(rows, "l1|0|Q?|2|1|1700000030\n"
			       "l1|3|NULL|0|0|1700000040\n"
			       "l2|1|Other?|1|0|1700000050\n"
			       "gone|0|Lost?|4|0|1700000060\n"
			       "l1|0|Q?|1|0|now\n");
	char *fk = raw_dump(raw, "PRAGMA foreign_key_check");
	cr_assert_str_eq(fk, "");
	cr_assert_eq(raw_int(raw, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	free(fk);
	free(rows);
	sqlite3_close(raw);
	free(db);
	free(home);
}

Test(store, failed_step_from_version_2_leaves_the_file_as_it_was)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");
	char *warning = NULL, *err = NULL;

	/* A table in the way makes the step fail; the answers, the lessons and
	 * the version stay as they were. */
	cr_assert_eq(mkdir(home, 0700), 0);
	sqlite3 *raw = raw_open(db);
	write_v2(raw);
	raw_exec(raw, "CREATE TABLE quiz_attempt (x);");
	char *before = raw_dump(raw, "SELECT type, name, sql FROM sqlite_master ORDER BY name");
	sqlite3_close(raw);

	cr_assert_null(store_open(home, &warning, &err));
	cr_assert_null(warning);
	cr_assert_not_null(err);
	cr_assert_not_null(strstr(err, "schema version 3"), "%s", err);
	cr_assert_not_null(strstr(err, "quiz_attempt"), "%s", err);
	free(err);

	raw = raw_open(db);
	char *after = raw_dump(raw, "SELECT type, name, sql FROM sqlite_master ORDER BY name");
	char *rows = raw_dump(raw, "SELECT lesson, quiz, choice FROM quiz_answer ORDER BY at");
	cr_assert_str_eq(after, before);
	cr_assert_str_eq(rows, "l1|0|2\nl1|3|0\nl2|1|1\ngone|0|4\n");
	cr_assert_eq(raw_int(raw, "PRAGMA user_version"), 2);
	free(before);
	free(after);
	free(rows);
	sqlite3_close(raw);
	free(db);
	free(home);
}

Test(store, newer_version_is_refused_untouched)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");
	char *wal = tpath("home/progress.db-wal");
	char *warning = NULL, *err = NULL;
	size_t len_before, len_after;

	cr_assert_eq(mkdir(home, 0700), 0);
	sqlite3 *raw = raw_open(db);
	raw_exec(raw, "PRAGMA journal_mode = DELETE; CREATE TABLE future (x);"
		 "PRAGMA user_version = 999;");
	sqlite3_close(raw);
	char *before = read_file(db, &len_before);
	cr_assert_not_null(before);

	struct store *st = store_open(home, &warning, &err);
	cr_assert_null(st);
	cr_assert_null(warning);
	cr_assert_not_null(err);
	cr_assert_not_null(strstr(err, "999"), "%s", err);
	cr_assert_not_null(strstr(err, db), "%s", err);
	cr_assert_null(strchr(err, '\n'));

	char *after = read_file(db, &len_after);
	cr_assert_eq(len_after, len_before);
	cr_assert_eq(memcmp(before, after, len_before), 0);
	cr_assert(!exists(wal));
	free(before);
	free(after);
	free(err);
	free(wal);
	free(db);
	free(home);
}

/* --- concurrent writers ----------------------------------------------- */

#define WRITES 200

/* One writer process: opens the store when the parent says go, then
 * interleaves reading statuses, hints and attempts on a shared exercise. */
static void writer(const char *home, int k, int go)
{
	char buf;
	char *warning = NULL, *err = NULL;
	struct store *st;

	if (read(go, &buf, 1) != 0)
		_exit(3);
	st = store_open(home, &warning, &err);
	if (!st || warning) {
		fprintf(stderr, "writer %d: %s\n", k, err ? err : warning);
		_exit(1);
	}
	for (int i = 0; i < WRITES; i++) {
		char id[64], hash[64];
		int seen;
		struct attempt a = {
			.exercise = "shared", .mode = "check", .backend = "simt",
			.status = i % 40 == 7 ? "pass" : "wrong",
			.source_hash = hash, .median_ms = 1.0 + k + i / 1000.0,
		};

		snprintf(id, sizeof id, "c%d-item-%d", k, i);
		snprintf(hash, sizeof hash, "c%d-%d", k, i);
		if (store_item_set(st, id, k ? ITEM_READING : ITEM_DONE) != 0 ||
		    store_attempt_add(st, &a) != 0 || store_hint_seen(st, "shared", &seen) != 0) {
			fprintf(stderr, "writer %d, write %d: %s\n", k, i, store_errmsg(st));
			_exit(2);
		}
	}
	store_close(st);
	_exit(0);
}

Test(store, two_concurrent_writers_lose_nothing)
{
	char *home = tpath("race/home");
	int go[2];
	pid_t pid[2];

	cr_assert_eq(pipe(go), 0);
	for (int k = 0; k < 2; k++) {
		pid[k] = fork();
		cr_assert_geq(pid[k], 0);
		if (pid[k] == 0) {
			close(go[1]);
			writer(home, k, go[0]);
		}
	}
	close(go[0]);
	close(go[1]); /* both start now */
	for (int k = 0; k < 2; k++) {
		int status;

		cr_assert_eq(waitpid(pid[k], &status, 0), pid[k]);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			  "writer %d: status %d", k, status);
	}

	struct store *st = open_ok(home);
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < WRITES; i++) {
			char id[64];

			snprintf(id, sizeof id, "c%d-item-%d", k, i);
			assert_item(st, id, k ? ITEM_READING : ITEM_DONE);
		}
	}
	struct exercise_state es;
	cr_assert_eq(store_exercise_get(st, "shared", &es), 0);
	cr_assert_eq(es.attempts, 2 * WRITES);
	cr_assert_eq(es.hints_seen, 2 * WRITES);
	cr_assert_eq(es.status, EX_PASSED);
	cr_assert_float_eq(es.best_ms, 1.007, 1e-9); /* writer 0, write 7 */

	struct attempt *list;
	size_t n;
	char seen[2][WRITES] = { { 0 } };
	cr_assert_eq(store_attempts(st, "shared", 10 * WRITES, &list, &n), 0);
	cr_assert_eq(n, (size_t)(2 * WRITES));
	for (size_t j = 0; j < n; j++) {
		int k, i;

		cr_assert_eq(sscanf(list[j].source_hash, "c%d-%d", &k, &i), 2);
		cr_assert(k >= 0 && k < 2 && i >= 0 && i < WRITES);
		cr_assert_eq(seen[k][i], 0, "attempt %s twice", list[j].source_hash);
		seen[k][i] = 1;
	}
	store_attempts_free(list, n);
	store_close(st);
	free(home);
}

/* --- corrupt files ------------------------------------------------------ */

/* Opens home whose progress.db holds garbage and checks the recovery: one
 * warning line naming both paths, the old bytes kept under the new name,
 * and a working fresh store. */
static void check_recovery(const char *home, const char *bytes, size_t len)
{
	char *db = path_join(home, "progress.db");
	char *warning = NULL, *err = NULL, *moved = NULL;
	int64_t t0, t1;
	int found = 0;

	t0 = (int64_t)time(NULL);
	struct store *st = store_open(home, &warning, &err);
	t1 = (int64_t)time(NULL);
	cr_assert_not_null(st, "%s", err ? err : "?");
	cr_assert_not_null(warning);

	DIR *d = opendir(home);
	struct dirent *e;
	cr_assert_not_null(d);
	while ((e = readdir(d))) {
		long long t;
		int used = 0;

		if (!str_starts(e->d_name, "progress.db.corrupt-") || str_ends(e->d_name, "-wal") ||
		    str_ends(e->d_name, "-shm"))
			continue;
		cr_assert_eq(sscanf(e->d_name, "progress.db.corrupt-%lld%n", &t, &used), 1);
		cr_assert_eq((size_t)used, strlen(e->d_name), "%s", e->d_name);
		cr_assert(t >= t0 && t <= t1);
		moved = path_join(home, e->d_name);
		found++;
	}
	closedir(d);
	cr_assert_eq(found, 1);

	char *want = xasprintf("warning: progress database %s was corrupt; moved to %s "
			       "and started fresh", db, moved);
	cr_assert_str_eq(warning, want);
	size_t got_len;
	char *kept = read_file(moved, &got_len);
	cr_assert_not_null(kept);
	cr_assert_eq(got_len, len);
	cr_assert_eq(memcmp(kept, bytes, len), 0);

	cr_assert_eq(perm_bits(db), 0600u);
	cr_assert_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	assert_item(st, "x", ITEM_UNREAD);
	cr_assert_eq(store_item_set(st, "x", ITEM_DONE), 0);
	assert_item(st, "x", ITEM_DONE);
	store_close(st);

	/* The fresh database is healthy: reopening gives no warning. */
	st = open_ok(home);
	assert_item(st, "x", ITEM_DONE);
	store_close(st);
	free(kept);
	free(want);
	free(moved);
	free(warning);
	free(db);
}

Test(store, garbage_file_is_moved_aside)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");
	char *wal = tpath("home/progress.db-wal");
	unsigned char junk[8192];
	uint32_t x = 12345;

	for (size_t i = 0; i < sizeof junk; i++) {
		x = x * 1103515245u + 12345u;
		junk[i] = (unsigned char)(x >> 16);
	}
	cr_assert_eq(mkdir(home, 0700), 0);
	write_bytes(db, junk, sizeof junk, 0600);
	/* A stale WAL beside the garbage must not get in the way of the
	 * fresh database. */
	write_bytes(wal, junk, 100, 0600);
	check_recovery(home, (const char *)junk, sizeof junk);
	free(wal);
	free(db);
	free(home);
}

Test(store, text_file_is_moved_aside)
{
	static const char text[] = "this is a shopping list, not a database\n";
	char *home = tpath("home");
	char *db = tpath("home/progress.db");

	cr_assert_eq(mkdir(home, 0700), 0);
	write_bytes(db, text, strlen(text), 0600);
	check_recovery(home, text, strlen(text));
	free(db);
	free(home);
}

Test(store, failed_integrity_check_is_moved_aside)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");
	char *wal = tpath("home/progress.db-wal");
	struct store *st = open_ok(home);

	for (int i = 0; i < 50; i++) {
		char id[32];

		snprintf(id, sizeof id, "item-%d", i);
		cr_assert_eq(store_item_set(st, id, ITEM_DONE), 0);
		add_attempt(st, "e", "pass", i, 0, id);
	}
	store_close(st);
	cr_assert(!exists(wal), "the last close should checkpoint the WAL");

	/* Keep the header page, scribble over every page after it. */
	size_t len;
	char *bytes = read_file(db, &len);
	cr_assert_not_null(bytes);
	unsigned page = ((unsigned char)bytes[16] << 8) | (unsigned char)bytes[17];
	if (page == 1)
		page = 65536;
	cr_assert_geq(len, 2 * (size_t)page, "file of %zu bytes, page %u", len, page);
	for (size_t i = page; i < len; i++)
		bytes[i] = (char)(0xA5 ^ (i * 7));
	write_bytes(db, bytes, len, 0600);

	check_recovery(home, bytes, len);
	free(bytes);
	free(wal);
	free(db);
	free(home);
}

/* --- unwritable homes --------------------------------------------------- */

static void assert_open_fails(const char *home, const char *reason)
{
	char *warning = NULL, *err = NULL;
	struct store *st = store_open(home, &warning, &err);

	cr_assert_null(st);
	cr_assert_null(warning);
	cr_assert_not_null(err);
	cr_assert_not_null(strstr(err, home), "error does not name %s: %s", home, err);
	cr_assert_not_null(strstr(err, reason), "error does not say '%s': %s", reason, err);
	free(err);
}

Test(store, home_under_a_regular_file)
{
	char *file = tpath("plain");
	char *home = tpath("plain/home");

	write_bytes(file, "x", 1, 0600);
	assert_open_fails(home, strerror(ENOTDIR));
	cr_assert_eq(perm_bits(file), 0600u);
	free(home);
	free(file);
}

Test(store, home_is_a_regular_file)
{
	char *home = tpath("plain");

	write_bytes(home, "x", 1, 0600);
	assert_open_fails(home, strerror(ENOTDIR));
	free(home);
}

Test(store, database_path_is_a_directory)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");

	cr_assert_eq(mkdir(home, 0700), 0);
	cr_assert_eq(mkdir(db, 0700), 0);
	assert_open_fails(home, "not a regular file");
	free(db);
	free(home);
}

Test(store, read_only_home)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");

	if (geteuid() == 0) {
		rmdir(tmp); /* a skipped test does not reach the suite's fini */
		cr_skip_test("permission bits do not bind root");
	}
	cr_assert_eq(mkdir(home, 0500), 0);
	assert_open_fails(home, strerror(EACCES));
	cr_assert(!exists(db));

	/* An existing database in a directory that became read-only: WAL
	 * needs to create its side files there. */
	cr_assert_eq(chmod(home, 0700), 0);
	store_close(open_ok(home));
	cr_assert_eq(chmod(home, 0500), 0);
	assert_open_fails(home, db);
	free(db);
	free(home);
}

Test(store, read_only_database_file)
{
	char *home = tpath("home");
	char *db = tpath("home/progress.db");

	if (geteuid() == 0) {
		rmdir(tmp);
		cr_skip_test("permission bits do not bind root");
	}
	store_close(open_ok(home));
	cr_assert_eq(chmod(db, 0400), 0);
	assert_open_fails(home, strerror(EACCES));
	free(db);
	free(home);
}

Test(store, bad_arguments)
{
	char *warning = (char *)"x", *err = NULL;

	cr_assert_null(store_open("", &warning, &err));
	cr_assert_null(warning);
	cr_assert_not_null(err);
	free(err);
	store_close(NULL);
}

/* A check of another file than the learner's copy is kept as a scratch
 * attempt: it is not in the history, and it moves neither the status, the
 * count nor the best time. */
Test(store, scratch_attempts_stay_apart)
{
	char *home = tpath("home");
	struct store *st = open_ok(home);
	struct exercise_state es;
	struct attempt a = { 0 }, *list;
	size_t n;

	add_attempt(st, "e", "wrong", -1, 1700000010, "aa");
	a.exercise = "e";
	a.mode = "bench";
	a.backend = "gpu";
	a.status = "pass";
	a.median_ms = 0.5;
	a.at = 1700000020;
	a.scratch = 1;
	cr_assert_eq(store_attempt_add(st, &a), 0);
	cr_assert_eq(store_exercise_get(st, "e", &es), 0);
	cr_expect_eq(es.status, EX_ATTEMPTED);
	cr_expect_eq(es.attempts, 1);
	cr_expect_lt(es.best_ms, 0);
	cr_assert_eq(store_attempts(st, "e", 10, &list, &n), 0);
	cr_assert_eq(n, 1u);
	cr_expect_str_eq(list[0].status, "wrong");
	cr_expect_eq(list[0].scratch, 0);
	store_attempts_free(list, n);
	cr_assert_eq(store_scratch_attempts(st, "e", 10, &list, &n), 0);
	cr_assert_eq(n, 1u);
	cr_expect_str_eq(list[0].status, "pass");
	cr_expect_eq(list[0].scratch, 1);
	cr_expect_float_eq(list[0].median_ms, 0.5, 1e-12);
	store_attempts_free(list, n);
	store_close(st);
	free(home);
}

/* A bench on simt keeps the time model's prediction apart from the
 * measured median: neither moves the other, and the best time stays a
 * GPU's.  A version 4 database gains the columns empty. */
Test(store, predicted_time_is_kept_apart_from_the_measured_one)
{
	char *home = tpath("home");
	struct store *st = open_ok(home);
	struct exercise_state es;
	struct attempt a = { 0 }, *list;
	sqlite3 *raw;
	char *db;
	size_t n;

	a.exercise = "e";
	a.mode = "bench";
	a.backend = "simt";
	a.status = "pass";
	a.median_ms = -1;
	a.predicted_ms = 0.2472;
	a.predicted_device = "h100-sxm";
	a.at = 1700000030;
	cr_assert_eq(store_attempt_add(st, &a), 0, "%s", store_errmsg(st));
	add_attempt(st, "e", "pass", -1, 1700000020, "aa"); /* no prediction */
	cr_assert_eq(store_attempts(st, "e", 10, &list, &n), 0);
	cr_assert_eq(n, 2u);
	cr_expect_float_eq(list[0].predicted_ms, 0.2472, 1e-12);
	cr_expect_str_eq(list[0].predicted_device, "h100-sxm");
	cr_expect_lt(list[0].median_ms, 0);
	cr_expect_lt(list[1].predicted_ms, 0);
	cr_expect_null(list[1].predicted_device);
	store_attempts_free(list, n);
	cr_assert_eq(store_exercise_get(st, "e", &es), 0);
	cr_expect_lt(es.best_ms, 0, "a prediction is no best time");
	store_close(st);

	/* back to version 4 by hand: the columns go, the rows stay */
	db = tpath("home/progress.db");
	raw = raw_open(db);
	free(db);
	cr_assert_eq(sqlite3_exec(raw, "ALTER TABLE attempt DROP COLUMN predicted_device;"
				  "ALTER TABLE attempt DROP COLUMN predicted_ms;"
				  "PRAGMA user_version = 4;", NULL, NULL, NULL), SQLITE_OK,
		     "%s", sqlite3_errmsg(raw));
	sqlite3_close(raw);
	st = open_ok(home);
	cr_assert_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
	cr_assert_eq(store_attempts(st, "e", 10, &list, &n), 0);
	cr_assert_eq(n, 2u);
	cr_expect_lt(list[0].predicted_ms, 0);
	cr_expect_null(list[0].predicted_device);
	store_attempts_free(list, n);
	store_close(st);
	free(home);
}
