/* test_cli.c — the real binary driven as a user would: JSON shapes, exit
 * codes, persistence across runs, and recovery from a corrupt database.
 * Expected values come from the fixture files, written by hand. */
#include <criterion/criterion.h>

#include <cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudalab/util.h"

#define GOOD CUDALAB_SRCDIR "/tests/fixtures/cli/good"
#define BROKEN CUDALAB_SRCDIR "/tests/fixtures/cli/broken"

struct result {
	int code;
	char *out, *err;
};

static char home[64];

static char *slurp_fd(int fd)
{
	struct strbuf sb;
	char buf[4096];
	ssize_t n;

	sb_init(&sb);
	sb_puts(&sb, "");
	while ((n = read(fd, buf, sizeof buf)) > 0)
		sb_append(&sb, buf, (size_t)n);
	close(fd);
	return sb_steal(&sb);
}

/* Runs the binary with content dir and home set through the environment.
 * stdout and stderr go to temporary files to avoid pipe deadlocks. */
static struct result run(const char *content, const char *first, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	const char *a;
	struct result r;
	char outp[] = "/tmp/cudalab-cli-out-XXXXXX", errp[] = "/tmp/cudalab-cli-err-XXXXXX";
	int ofd = mkstemp(outp), efd = mkstemp(errp), status;
	pid_t pid;

	cr_assert(ofd >= 0 && efd >= 0);
	argv[argc++] = CUDALAB_BIN;
	va_start(ap, first);
	for (a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		dup2(ofd, 1);
		dup2(efd, 2);
		setenv("CUDALAB_HOME", home, 1);
		if (content)
			setenv("CUDALAB_CONTENT", content, 1);
		else
			unsetenv("CUDALAB_CONTENT");
		unsetenv("XDG_DATA_HOME");
		execv(argv[0], argv);
		_exit(127);
	}
	cr_assert(waitpid(pid, &status, 0) == pid);
	cr_assert(WIFEXITED(status), "cudalab died of a signal");
	r.code = WEXITSTATUS(status);
	lseek(ofd, 0, SEEK_SET);
	lseek(efd, 0, SEEK_SET);
	r.out = slurp_fd(ofd);
	r.err = slurp_fd(efd);
	unlink(outp);
	unlink(errp);
	return r;
}

static void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void setup(void)
{
	strcpy(home, "/tmp/cudalab-cli-XXXXXX");
	cr_assert(mkdtemp(home));
}

static void teardown(void)
{
	nftw(home, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(cli, .init = setup, .fini = teardown);

/* Asserts that o has exactly the keys given, in any order. */
static void assert_keys(const cJSON *o, const char *const *keys, int n)
{
	int count = 0;
	const cJSON *it;

	cr_assert(cJSON_IsObject(o));
	cJSON_ArrayForEach(it, o) count++;
	cr_assert_eq(count, n, "object has %d keys, expected %d", count, n);
	for (int i = 0; i < n; i++)
		cr_assert(cJSON_HasObjectItem(o, keys[i]), "missing key %s", keys[i]);
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	cr_assert(cJSON_IsString(v), "%s is not a string", key);
	return v->valuestring;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	cr_assert(cJSON_IsNumber(v), "%s is not a number", key);
	return v->valuedouble;
}

Test(cli, version_and_help)
{
	struct result r = run(GOOD, "--version", NULL);

	cr_assert_eq(r.code, 0);
	cr_assert(str_starts(r.out, "cudalab "));
	result_free(&r);
	r = run(GOOD, "--help", NULL);
	cr_assert_eq(r.code, 0);
	for (const char *const *v = (const char *const[]){ "list", "mark", "progress", "validate",
							    "doctor", NULL };
	     *v; v++)
		cr_assert(strstr(r.out, *v), "help does not mention %s", *v);
	result_free(&r);
	r = run(GOOD, "mark", "--help", NULL);
	cr_assert_eq(r.code, 0);
	cr_assert(str_starts(r.out, "usage: cudalab mark ITEM"));
	result_free(&r);
}

Test(cli, usage_errors_exit_2_with_one_line)
{
	static const char *const cases[][4] = {
		{ "frobnicate", NULL },
		{ "list", "bogus", NULL },
		{ "list", "--bogus", NULL },
		{ "mark", NULL },
		{ "mark", "a1", "finished", NULL },
		{ "mark", "no-such-item", "done", NULL },
		{ "progress", "extra", NULL },
		{ "--home", NULL },
		{ "--bogus", NULL },
	};
	static const char *const named[] = { "frobnicate", "bogus", "--bogus", "mark", "finished",
					     "no-such-item", "extra", "--home", "--bogus" };

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct result r = run(GOOD, cases[i][0], cases[i][1], cases[i][2], cases[i][3]);

		cr_assert_eq(r.code, 2, "case %zu exited %d", i, r.code);
		cr_assert_eq(count_lines(r.err), 1, "case %zu: stderr is '%s'", i, r.err);
		cr_assert(strstr(r.err, named[i]), "case %zu: '%s' does not name %s", i, r.err,
			  named[i]);
		cr_assert_str_empty(r.out);
		result_free(&r);
	}
}

Test(cli, a_mistyped_verb_or_kind_gets_a_suggestion)
{
	struct result r = run(GOOD, "chekc", "ex-one", NULL);

	cr_expect_eq(r.code, 2);
	cr_expect(strstr(r.err, "unknown verb 'chekc' (did you mean 'check'?"), "%s", r.err);
	result_free(&r);
	r = run(GOOD, "list", "exercise", NULL);
	cr_expect_eq(r.code, 2);
	cr_expect(strstr(r.err, "unknown kind 'exercise' (did you mean 'exercises'?"), "%s", r.err);
	result_free(&r);
	/* nothing near: no guess */
	r = run(GOOD, "zzzzzzzz", NULL);
	cr_expect_eq(r.code, 2);
	cr_expect(!strstr(r.err, "did you mean"), "%s", r.err);
	result_free(&r);
}

Test(cli, errors_read_like_usage_errors)
{
	/* "cudalab: check: ...", never "cudalab: error: check: ..." */
	struct result r = run(GOOD, "check", "ex-one", "--file", "/nonexistent/k.cu", NULL);

	cr_expect_eq(r.code, 2);
	cr_expect(str_starts(r.err, "cudalab: check: cannot read /nonexistent/k.cu"), "%s", r.err);
	result_free(&r);
	r = run(GOOD, "check", "ex-onf", NULL);
	cr_expect(str_starts(r.err, "cudalab: check: no exercise 'ex-onf' (did you mean 'ex-one'?"),
		  "%s", r.err);
	result_free(&r);
}

Test(cli, list_lessons_json_shape)
{
	static const char *const keys[] = { "id",	   "title",  "section",	     "order",
					    "minutes", "status", "reading_done", "reading_total" };
	struct result r = run(GOOD, "list", "lessons", "--json", NULL);
	cJSON *root = cJSON_Parse(r.out), *first, *second;

	cr_assert_eq(r.code, 0, "stderr: %s", r.err);
	cr_assert(cJSON_IsArray(root));
	cr_assert_eq(cJSON_GetArraySize(root), 2);
	first = cJSON_GetArrayItem(root, 0);
	second = cJSON_GetArrayItem(root, 1);
	assert_keys(first, keys, 8);
	assert_keys(second, keys, 8);
	cr_assert_str_eq(str(first, "id"), "first");
	cr_assert_str_eq(str(first, "title"), "The first lesson");
	cr_assert_str_eq(str(first, "section"), "Alpha");
	cr_assert_eq(num(first, "order"), 10);
	cr_assert_eq(num(first, "minutes"), 15);
	cr_assert_str_eq(str(first, "status"), "new");
	cr_assert_eq(num(first, "reading_done"), 0);
	cr_assert_eq(num(first, "reading_total"), 2);
	cr_assert_str_eq(str(second, "id"), "second");
	cr_assert_eq(num(second, "reading_total"), 1);
	cJSON_Delete(root);
	result_free(&r);
}

Test(cli, list_reading_json_shape)
{
	static const char *const keys[] = { "id", "title", "url", "kind", "section", "lesson", "status" };
	struct result r = run(GOOD, "list", "reading", "--json", NULL);
	cJSON *root = cJSON_Parse(r.out), *a1, *a2, *b1;

	cr_assert_eq(r.code, 0);
	cr_assert_eq(cJSON_GetArraySize(root), 3);
	a1 = cJSON_GetArrayItem(root, 0);
	a2 = cJSON_GetArrayItem(root, 1);
	b1 = cJSON_GetArrayItem(root, 2);
	for (int i = 0; i < 3; i++)
		assert_keys(cJSON_GetArrayItem(root, i), keys, 7);
	cr_assert_str_eq(str(a1, "id"), "a1");
	cr_assert_str_eq(str(a1, "title"), "Item one: with a colon");
	cr_assert_str_eq(str(a1, "url"), "https://example.com/one");
	cr_assert_str_eq(str(a1, "kind"), "article");
	cr_assert_str_eq(str(a1, "section"), "Alpha");
	cr_assert_str_eq(str(a1, "lesson"), "first");
	cr_assert_str_eq(str(a1, "status"), "unread");
	cr_assert_str_eq(str(a2, "id"), "a2");
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(a2, "url")), "an item without URL has url null");
	cr_assert_str_eq(str(a2, "kind"), "paper");
	cr_assert_str_eq(str(b1, "url"), "https://example.org/three?x=1");
	cr_assert_str_eq(str(b1, "lesson"), "second");
	cr_assert_str_eq(str(b1, "section"), "Beta");
	cJSON_Delete(root);
	result_free(&r);
}

Test(cli, list_exercises_json_shape)
{
	static const char *const keys[] = { "id",     "title",  "lesson", "difficulty",
					    "gpus",   "status", "best_ms" };
	struct result r = run(GOOD, "list", "exercises", "--json", NULL);
	cJSON *root = cJSON_Parse(r.out), *e;

	cr_assert_eq(r.code, 0);
	cr_assert_eq(cJSON_GetArraySize(root), 1);
	e = cJSON_GetArrayItem(root, 0);
	assert_keys(e, keys, 7);
	cr_assert_str_eq(str(e, "id"), "ex-one");
	cr_assert_str_eq(str(e, "title"), "Exercise one");
	cr_assert_str_eq(str(e, "lesson"), "first");
	cr_assert_eq(num(e, "difficulty"), 2);
	cr_assert_eq(num(e, "gpus"), 1);
	cr_assert_str_eq(str(e, "status"), "new");
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(e, "best_ms")));
	cJSON_Delete(root);
	result_free(&r);
}

Test(cli, list_all_json_has_three_arrays)
{
	struct result r = run(GOOD, "list", "--json", NULL);
	cJSON *root = cJSON_Parse(r.out);

	cr_assert_eq(r.code, 0);
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "lessons")), 2);
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "reading")), 3);
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "exercises")), 1);
	cJSON_Delete(root);
	result_free(&r);
}

static void assert_progress(const char *content, const char *home_opt, int reading_done)
{
	struct result r = home_opt ? run(content, "--home", home_opt, "progress", "--json", NULL)
				   : run(content, "progress", "--json", NULL);
	cJSON *root = cJSON_Parse(r.out), *o;

	cr_assert_eq(r.code, 0, "stderr: %s", r.err);
	cr_assert_eq(cJSON_GetArraySize(root), 4);
	o = cJSON_GetObjectItem(root, "lessons");
	assert_keys(o, (const char *const[]){ "done", "total" }, 2);
	cr_assert_eq(num(o, "done"), 0);
	cr_assert_eq(num(o, "total"), 2);
	o = cJSON_GetObjectItem(root, "reading");
	assert_keys(o, (const char *const[]){ "done", "total" }, 2);
	cr_assert_eq(num(o, "done"), reading_done);
	cr_assert_eq(num(o, "total"), 3);
	o = cJSON_GetObjectItem(root, "exercises");
	assert_keys(o, (const char *const[]){ "passed", "total" }, 2);
	cr_assert_eq(num(o, "passed"), 0);
	cr_assert_eq(num(o, "total"), 1);
	/* nothing completed yet: the first lesson and exercise come next */
	o = cJSON_GetObjectItem(root, "next");
	assert_keys(o, (const char *const[]){ "lesson", "exercise" }, 2);
	cr_assert_str_eq(str(o, "lesson"), "first");
	cr_assert_str_eq(str(o, "exercise"), "ex-one");
	cJSON_Delete(root);
	result_free(&r);
}

Test(cli, mark_survives_restart)
{
	struct result r = run(GOOD, "mark", "a2", "done", NULL);
	cJSON *root, *a2;

	cr_assert_eq(r.code, 0, "stderr: %s", r.err);
	result_free(&r);
	assert_progress(GOOD, NULL, 1);
	r = run(GOOD, "list", "reading", "--json", NULL);
	root = cJSON_Parse(r.out);
	a2 = cJSON_GetArrayItem(root, 1);
	cr_assert_str_eq(str(a2, "status"), "done");
	cr_assert_str_eq(str(cJSON_GetArrayItem(root, 0), "status"), "unread");
	cJSON_Delete(root);
	result_free(&r);
	r = run(GOOD, "mark", "a2", "reading", NULL);
	cr_assert_eq(r.code, 0);
	result_free(&r);
	assert_progress(GOOD, NULL, 0);
}

Test(cli, home_option_beats_environment)
{
	char *other = xasprintf("%s/other", home);
	struct result r = run(GOOD, "--home", other, "mark", "b1", "done", NULL);

	cr_assert_eq(r.code, 0, "stderr: %s", r.err);
	result_free(&r);
	assert_progress(GOOD, other, 1);
	assert_progress(GOOD, NULL, 0);
	free(other);
}

Test(cli, corrupt_database_is_set_aside)
{
	char *db = xasprintf("%s/progress.db", home);
	FILE *f = fopen(db, "w");
	struct result r;
	DIR *d;
	struct dirent *de;
	int found = 0;

	cr_assert(f);
	fputs("this is not an SQLite database, but it is long enough to have a header.\n", f);
	fclose(f);
	r = run(GOOD, "progress", "--json", NULL);
	cr_assert_eq(r.code, 0, "stderr: %s", r.err);
	cr_assert_eq(count_lines(r.err), 1, "one warning line, got '%s'", r.err);
	cr_assert(strstr(r.err, "corrupt"));
	result_free(&r);
	d = opendir(home);
	while ((de = readdir(d)))
		found += str_starts(de->d_name, "progress.db.corrupt-");
	closedir(d);
	cr_assert_eq(found, 1);
	/* and the fresh database works: no warning the second time */
	r = run(GOOD, "mark", "a1", "done", NULL);
	cr_assert_eq(r.code, 0);
	cr_assert_str_empty(r.err);
	result_free(&r);
	assert_progress(GOOD, NULL, 1);
	free(db);
}

Test(cli, validate_good_and_broken)
{
	struct result r = run(GOOD, "validate", NULL);

	cr_assert_eq(r.code, 0, "stdout: %s", r.out);
	result_free(&r);
	r = run(BROKEN, "validate", NULL);
	cr_assert_eq(r.code, 1);
	cr_assert(strstr(r.out, "lessons/20-bad-kind.md:10:11: "), "got: %s", r.out);
	cr_assert(strstr(r.out, "blog"));
	cr_assert(strstr(r.out, "lessons/30-bad-yaml.md:"), "got: %s", r.out);
	cr_assert(!strstr(r.out, "10-ok.md"));
	/* body problems: the dangling link (line 11, col 36) and the quiz (line 14) */
	cr_assert(strstr(r.out, "lessons/40-bad-body.md:11:36: link to lesson:nowhere"), "got: %s",
		  r.out);
	cr_assert(strstr(r.out, "lessons/40-bad-body.md:14:1: "), "got: %s", r.out);
	cr_assert(!strstr(r.out, "lesson:ok,"));
	result_free(&r);
}

Test(cli, list_works_with_what_loaded)
{
	struct result r = run(BROKEN, "list", "lessons", "--json", NULL);
	cJSON *root = cJSON_Parse(r.out);

	cr_assert_eq(r.code, 0);
	/* 10-ok, 20-bad-kind (its bad item dropped) and 40-bad-body load;
	 * 30-bad-yaml does not */
	cr_assert_eq(cJSON_GetArraySize(root), 3);
	cr_assert_str_eq(str(cJSON_GetArrayItem(root, 0), "id"), "ok");
	cr_assert_eq(num(cJSON_GetArrayItem(root, 1), "reading_total"), 0);
	cr_assert(strstr(r.err, "30-bad-yaml.md"), "stderr says what did not load: %s", r.err);
	cJSON_Delete(root);
	result_free(&r);
}

/* The list's URLs that point at a post about a primary source, and the
 * source the lessons give instead. */
static const char *const primary_source[][2] = {
	{ "https://x.com/stasbekman/status/1808287880781127930?s=12",
	  "https://arxiv.org/abs/2406.18820" },
	{ "https://t.co/CQpd11NQPx", "https://www.usenix.org/conference/osdi24/technical-sessions" },
	{ "https://x.com/christopher/status/1811406837675163998?s=46",
	  "https://docs.nvidia.com/cuda/nvmath-python/latest" },
	{ "https://x.com/anyscalecompute/status/1811059148911693906?s=46",
	  "https://docs.vllm.ai/en/v0.5.4/quantization/fp8.html" },
};

/* The URL an item of the lessons has for a URL of the reading list. */
static const char *lesson_url(const char *listed)
{
	for (size_t i = 0; i < sizeof primary_source / sizeof primary_source[0]; i++)
		if (strcmp(listed, primary_source[i][0]) == 0)
			return primary_source[i][1];
	return listed;
}

/* Every URL of the reading list, exactly as the list gives it (less the
 * sentence punctuation around it) or replaced by its primary source
 * (primary_source), is an item's url in the shipped lessons, and there are
 * at least as many items with a url as URLs in the list (one URL that the
 * list gives for two bullets is on two items; items the list names without
 * a URL may have gained one since). */
Test(cli, shipped_lessons_hold_the_whole_reading_list)
{
	char *list = read_file(CUDALAB_SRCDIR "/tests/fixtures/reading-list.txt", NULL);
	struct result r = run(CUDALAB_SRCDIR, "list", "reading", "--json", NULL);
	cJSON *root = cJSON_Parse(r.out), *it;
	int urls = 0;

	cr_assert(list);
	cr_assert_eq(r.code, 0, "stderr: %s", r.err);
	cr_assert(cJSON_IsArray(root));
	for (char *p = strstr(list, "http"); p; p = strstr(p, "http")) {
		size_t n = strcspn(p, " \t\n");
		char *url;
		int hits = 0;

		if (!str_starts(p, "http://") && !str_starts(p, "https://")) {
			p += 4;
			continue;
		}
		while (n && strchr(".,;:)", p[n - 1]))
			n--;
		url = xstrndup(p, n);
		cJSON_ArrayForEach(it, root)
		{
			const cJSON *u = cJSON_GetObjectItem(it, "url");
			hits += cJSON_IsString(u) && strcmp(u->valuestring, lesson_url(url)) == 0;
		}
		cr_expect_geq(hits, 1, "%s is no item's url", lesson_url(url));
		free(url);
		urls++;
		p += n;
	}
	cr_assert_geq(urls, 30);
	{
		int with_url = 0;

		cJSON_ArrayForEach(it, root) with_url += cJSON_IsString(cJSON_GetObjectItem(it, "url"));
		cr_expect_geq(with_url, urls, "%d items have a url, the list has %d URLs", with_url,
			      urls);
	}
	/* items the list names without a URL keep their title */
	for (const char *const *t = (const char *const[]){ "Triton official tutorial", "missing semester",
							    "RingAttention", "StripedAttention",
							    "BurstAttention", "GSPMD", "Mooncake",
							    "ThunderKittens", "Mamba2 code", "TTT", NULL };
	     *t; t++) {
		int hits = 0;

		cJSON_ArrayForEach(it, root) hits += strcasestr(str(it, "title"), *t) != NULL;
		cr_expect_geq(hits, 1, "no item titled like '%s'", *t);
	}
	cJSON_Delete(root);
	result_free(&r);
	free(list);
}
