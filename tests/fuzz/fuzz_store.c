/* fuzz_store.c — a damaged progress.db: the input is written as
 * home/progress.db and opened with store_open, which must either use it or
 * move it aside and start afresh, never crash; then the reads the lab makes
 * on opening (lesson, exercise, attempts with their result JSON, quiz
 * answers, reading records). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudalab/run.h"
#include "cudalab/store.h"
#include "cudalab/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *home;

static void empty_home(void)
{
	DIR *d = opendir(home);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char *p;

		if (de->d_name[0] == '.')
			continue;
		p = path_join(home, de->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
}

static void remove_home(void)
{
	empty_home();
	rmdir(home);
	free(home);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct store *st;
	char *warning = NULL, *err = NULL, *db;
	FILE *f;

	if (!home) {
		const char *tmp = getenv("TMPDIR");

		home = xasprintf("%s/cudalab-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(home)) {
			perror(home);
			abort();
		}
		atexit(remove_home);
	}
	empty_home();
	db = path_join(home, "progress.db");
	f = fopen(db, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	free(db);

	st = store_open(home, &warning, &err);
	if (st) {
		struct lesson_state ls;
		struct exercise_state es;
		struct lesson_reading lr;
		struct quiz_answers qa;
		struct attempt *a = NULL;
		size_t n = 0;
		enum item_status is;

		(void)store_schema_version(st);
		(void)store_item_get(st, "x", &is);
		(void)store_lesson_get(st, "x", &ls);
		(void)store_exercise_get(st, "x", &es);
		if (store_lesson_reading_get(st, "x", &lr) == 0)
			store_lesson_reading_free(&lr);
		(void)store_quiz_answers(st, "x", 0, "q", &qa);
		if (store_attempts(st, "x", 8, &a, &n) == 0) {
			for (size_t i = 0; i < n; i++) {
				struct run_result res;

				if (a[i].result_json)
					(void)run_result_from_json(a[i].result_json, &res);
				else
					memset(&res, 0, sizeof res);
				run_result_free(&res);
			}
			store_attempts_free(a, n);
		}
		store_close(st);
	}
	free(warning);
	free(err);
	return 0;
}
