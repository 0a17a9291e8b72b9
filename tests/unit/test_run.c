/* test_run.c — the runner's pure parts: hashing, nvcc argv construction,
 * compiler-log reading, and the child-process limits.  Expected values
 * are written out by hand (FNV-1a's published test vectors, nvcc's and
 * gcc's documented message formats). */
#include <criterion/criterion.h>

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cudalab/run.h"
#include "cudalab/util.h"

static uint64_t fnv(const char *s)
{
	return run_fnv1a64(RUN_FNV_INIT, s, strlen(s));
}

Test(run, fnv1a64_published_vectors)
{
	cr_expect_eq(fnv(""), UINT64_C(0xcbf29ce484222325));
	cr_expect_eq(fnv("a"), UINT64_C(0xaf63dc4c8601ec8c));
	cr_expect_eq(fnv("foobar"), UINT64_C(0x85944171f73967e8));
}

Test(run, fnv1a64_streams_like_one_call)
{
	uint64_t h = run_fnv1a64(RUN_FNV_INIT, "foo", 3);

	h = run_fnv1a64(h, "bar", 3);
	cr_expect_eq(h, UINT64_C(0x85944171f73967e8));
	cr_expect_neq(fnv("foobar"), fnv("foobaz"));
}

Test(run, hash_hex_is_16_lowercase_digits)
{
	char hex[17];

	run_hash_hex(UINT64_C(0x0123456789abcdef), hex);
	cr_expect_str_eq(hex, "0123456789abcdef");
	run_hash_hex(UINT64_C(0xf), hex);
	cr_expect_str_eq(hex, "000000000000000f");
}

static void expect_argv(char **got, const char *const *want)
{
	size_t i = 0;

	for (; want[i]; i++) {
		cr_assert(got[i], "argv ends early, before \"%s\"", want[i]);
		cr_expect_str_eq(got[i], want[i], "argv[%zu]", i);
	}
	cr_expect_null(got[i], "argv has more: \"%s\"", got[i] ? got[i] : "");
}

Test(run, nvcc_argv_gpu)
{
	const char *inc[] = { "/c/include", "/c/exercises/sq" };
	const char *src[] = { "/b/harness.cu", "/b/kernel.cu" };
	struct run_nvcc n = { .nvcc = "/cuda/bin/nvcc", .backend = BACKEND_GPU,
			      .gpu_arch = "sm_90", .includes = inc, .n_includes = 2,
			      .sources = src, .n_sources = 2, .output = "/b/prog",
			      .optimize = 1 };
	const char *want[] = { "/cuda/bin/nvcc", "-O2", "-lineinfo", "-arch=sm_90",
			       "-I/c/include", "-I/c/exercises/sq", "-o", "/b/prog",
			       "/b/harness.cu", "/b/kernel.cu", NULL };
	char **argv = run_nvcc_argv(&n);

	expect_argv(argv, want);
	run_argv_free(argv);
}

Test(run, nvcc_argv_gpu_without_known_arch_is_native)
{
	const char *src[] = { "x.cu" };
	const char *def[] = { "N=4", "FAST" };
	struct run_nvcc n = { .nvcc = "nvcc", .backend = BACKEND_GPU, .defines = def,
			      .n_defines = 2, .sources = src, .n_sources = 1, .output = "x" };
	const char *want[] = { "nvcc", "-lineinfo", "-arch=native", "-DN=4", "-DFAST",
			       "-o", "x", "x.cu", NULL };
	char **argv = run_nvcc_argv(&n);

	expect_argv(argv, want);
	run_argv_free(argv);
}

Test(run, nvcc_argv_simt_links_the_library_last)
{
	const char *src[] = { "a.cu", "b.c" };
	struct run_nvcc n = { .nvcc = "nvcc", .backend = BACKEND_SIMT,
			      .simt_lib = "/opt/cl/libcudalab-simt.a", .sources = src,
			      .n_sources = 2, .output = "p" };
	const char *want[] = { "nvcc", "--no-compress", "-lineinfo", "-cudart", "none",
			       "-arch=compute_80", "-code=compute_80", "-o", "p", "a.cu", "b.c",
			       "-L/opt/cl", "-lcudalab-simt", "-lpthread", "-lm", NULL };
	char **argv = run_nvcc_argv(&n);

	expect_argv(argv, want);
	run_argv_free(argv);
}

Test(run, nvcc_argv_simt_library_with_another_name_goes_by_path)
{
	const char *src[] = { "a.cu" };
	struct run_nvcc n = { .nvcc = "nvcc", .backend = BACKEND_SIMT, .simt_lib = "/t/fake.a",
			      .sources = src, .n_sources = 1, .output = "p" };
	const char *want[] = { "nvcc", "--no-compress", "-lineinfo", "-cudart", "none",
			       "-arch=compute_80", "-code=compute_80", "-o", "p", "a.cu",
			       "/t/fake.a", "-lpthread", "-lm", NULL };
	char **argv = run_nvcc_argv(&n);

	expect_argv(argv, want);
	run_argv_free(argv);
}

Test(run, nvcc_argv_compile_only_links_nothing)
{
	const char *src[] = { "/b/harness.cu" };
	struct run_nvcc n = { .nvcc = "nvcc", .backend = BACKEND_SIMT,
			      .simt_lib = "/l/libcudalab-simt.a", .sources = src, .n_sources = 1,
			      .output = "/b/harness.o", .compile_only = 1 };
	const char *want[] = { "nvcc", "--no-compress", "-lineinfo", "-cudart", "none",
			       "-arch=compute_80", "-code=compute_80", "-c", "-o", "/b/harness.o",
			       "/b/harness.cu", NULL };
	char **argv = run_nvcc_argv(&n);

	expect_argv(argv, want);
	run_argv_free(argv);
}

Test(run, log_rewrite_replaces_every_occurrence_in_order)
{
	const char *from[] = { "/cache/tmp-1/kernel.cu", "/cache/tmp-1/harness.cu", "" };
	const char *to[] = { "/home/me/kernel.cu", "/ex/harness.cu", "never" };
	const char *log = "/cache/tmp-1/kernel.cu(4): error: x\n"
			  "/cache/tmp-1/harness.cu(9): error: y\n"
			  "2 errors detected in the compilation of \"/cache/tmp-1/kernel.cu\".\n";
	char *out = run_log_rewrite(log, from, to, 3);

	cr_expect_str_eq(out, "/home/me/kernel.cu(4): error: x\n"
			      "/ex/harness.cu(9): error: y\n"
			      "2 errors detected in the compilation of \"/home/me/kernel.cu\".\n");
	free(out);
	out = run_log_rewrite(NULL, from, to, 3);
	cr_expect_str_eq(out, "");
	free(out);
}

Test(run, log_errors_nvcc_front_end)
{
	const char *log = "nvcc warning : Cannot find valid GPU for '-arch=native'\n"
			  "/w/sq/kernel.cu(3): error: expected an expression\n"
			  "     int y = x * ;\n"
			  "                 ^\n"
			  "\n"
			  "/w/sq/kernel.cu(5): warning #940-D: missing return statement\n"
			  "/w/d(1)/k.cu(12): catastrophic error: cannot open source file \"a.h\"\n"
			  "2 errors detected in the compilation of \"/w/sq/kernel.cu\".\n";
	struct run_compile_error *e;
	size_t n = run_log_errors(log, &e);

	cr_assert_eq(n, 2);
	cr_expect_str_eq(e[0].file, "/w/sq/kernel.cu");
	cr_expect_eq(e[0].line, 3);
	cr_expect_str_eq(e[0].message, "expected an expression");
	cr_expect_str_eq(e[1].file, "/w/d(1)/k.cu");
	cr_expect_eq(e[1].line, 12);
	cr_expect_str_eq(e[1].message, "cannot open source file \"a.h\"");
	run_compile_errors_free(e, n);
}

Test(run, log_errors_host_compiler_and_linker)
{
	const char *log = "prog.c:7:12: error: 'x' undeclared (first use in this function)\n"
			  "prog.c:9: error: old style\n"
			  "In file included from a.c:1:\n"
			  "b.h:2:10: fatal error: missing.h: No such file or directory\n"
			  "/usr/bin/ld: /tmp/tmpxft_1.o: in function `main':\n"
			  "tmpxft.cudafe1.cpp:(.text+0x2e): undefined reference to `solve(int)'\n"
			  "nvcc fatal   : Unsupported gpu architecture 'compute_5'\n";
	struct run_compile_error *e;
	size_t n = run_log_errors(log, &e);

	cr_assert_eq(n, 5);
	cr_expect_str_eq(e[0].file, "prog.c");
	cr_expect_eq(e[0].line, 7);
	cr_expect_str_eq(e[0].message, "'x' undeclared (first use in this function)");
	cr_expect_str_eq(e[1].file, "prog.c");
	cr_expect_eq(e[1].line, 9);
	cr_expect_str_eq(e[2].file, "b.h");
	cr_expect_eq(e[2].line, 2);
	cr_expect_str_eq(e[2].message, "missing.h: No such file or directory");
	cr_expect_null(e[3].file);
	cr_expect_eq(e[3].line, 0);
	cr_expect_str_eq(e[3].message, "undefined reference to `solve(int)'");
	cr_expect_null(e[4].file);
	cr_expect_str_eq(e[4].message, "Unsupported gpu architecture 'compute_5'");
	run_compile_errors_free(e, n);
}

Test(run, log_errors_none_in_a_clean_log)
{
	struct run_compile_error *e = NULL;

	cr_expect_eq(run_log_errors("a.cu(3): warning #177-D: unused\n", &e), 0);
	run_compile_errors_free(e, 0);
}

Test(run, names_and_parsing)
{
	enum run_backend b;

	cr_expect_str_eq(run_signal_name(SIGSEGV), "SIGSEGV");
	cr_expect_str_eq(run_signal_name(SIGABRT), "SIGABRT");
	cr_expect_str_eq(run_status_name(RUN_COMPILE_ERROR), "compile_error");
	cr_expect_str_eq(run_status_name(RUN_TIMEOUT), "timeout");
	cr_expect_str_eq(run_status_name(RUN_HAZARD), "hazard");
	cr_expect_eq(run_backend_parse("simt", &b), 0);
	cr_expect_eq(b, BACKEND_SIMT);
	cr_expect_eq(run_backend_parse("cpu", &b), -1);
	cr_expect_eq(run_default_timeout(RUN_CHECK, BACKEND_GPU), 10);
	cr_expect_eq(run_default_timeout(RUN_BENCH, BACKEND_GPU), 60);
}

Test(run, backend_ready_explains_what_is_missing)
{
	struct run_probe p = { 0 };
	char *why;

	cr_expect_eq(run_backend_ready(&p, BACKEND_SIMT, &why), -1);
	cr_expect(strstr(why, "nvcc") != NULL, "%s", why);
	free(why);
	p.nvcc = "nvcc";
	p.why = "no NVIDIA device";
	cr_expect_eq(run_backend_ready(&p, BACKEND_GPU, &why), -1);
	cr_expect(strstr(why, "no NVIDIA device") != NULL, "%s", why);
	free(why);
	cr_expect_eq(run_backend_ready(&p, BACKEND_SIMT, &why), -1);
	cr_expect(strstr(why, "libcudalab-simt.a") != NULL, "%s", why);
	free(why);
	p.gpu = 1;
	cr_expect_eq(run_backend_ready(&p, BACKEND_GPU, &why), 0);
	cr_expect_null(why);
}

/* An exercise needing more GPUs than the machine has: auto runs it on
 * simt and says why, --backend gpu is refused; enough GPUs, one GPU
 * needed, or a count not known leave the choice alone. */
Test(run, backend_for_an_exercise_needing_several_gpus)
{
	struct run_probe p = { .gpu = 1, .gpu_count = 2 };
	enum run_backend b;
	char *why, *note;

	cr_expect_eq(run_backend_for(&p, BACKEND_AUTO, 4, &b, &why, &note), 0);
	cr_expect_eq(b, BACKEND_SIMT);
	cr_expect_null(why);
	cr_assert_not_null(note);
	cr_expect(strstr(note, "needs 4 GPUs and this machine has 2") != NULL, "%s", note);
	free(note);
	cr_expect_eq(run_backend_for(&p, BACKEND_GPU, 4, &b, &why, &note), -1);
	cr_assert_not_null(why);
	cr_expect(strstr(why, "needs 4 GPUs and this machine has 2") != NULL, "%s", why);
	cr_expect(strstr(why, "--backend simt") != NULL, "%s", why);
	cr_expect_null(note);
	free(why);
	cr_expect_eq(run_backend_for(&p, BACKEND_AUTO, 2, &b, &why, &note), 0);
	cr_expect_eq(b, BACKEND_GPU);
	cr_expect_null(note);
	cr_expect_eq(run_backend_for(&p, BACKEND_SIMT, 4, &b, &why, &note), 0);
	cr_expect_eq(b, BACKEND_SIMT);
	cr_expect_null(note);
	p.gpu_count = 0;
	cr_expect_eq(run_backend_for(&p, BACKEND_GPU, 4, &b, &why, &note), 0);
	cr_expect_eq(b, BACKEND_GPU);
	p.gpu = 0;
	cr_expect_eq(run_backend_for(&p, BACKEND_AUTO, 4, &b, &why, &note), 0);
	cr_expect_eq(b, BACKEND_SIMT);
	cr_expect_null(note);
}

/* --- child processes: driven through /bin/sh programs written here ---- */

static void child_sh(struct run_child *c, char **argv, const char *script)
{
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = (char *)script;
	argv[3] = NULL;
	memset(c, 0, sizeof *c);
	c->argv = argv;
	c->cap = 1024;
}

Test(run, child_result_pipe_is_apart_from_output)
{
	struct run_child c;
	char *argv[4];

	child_sh(&c, argv, "echo out; echo err >&2; "
			   "printf '{\"a\":1}' >/dev/fd/$CUDALAB_RESULT_FD; exit 3");
	c.want_result = 1;
	cr_assert_eq(run_child_exec(&c), 0);
	cr_expect_str_eq(c.out, "out\n");
	cr_expect_str_eq(c.err, "err\n");
	cr_expect_str_eq(c.result, "{\"a\":1}");
	cr_expect(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 3);
	cr_expect_eq(c.timed_out, 0);
	run_child_free(&c);
}

Test(run, child_output_is_capped_and_counted)
{
	struct run_child c;
	char *argv[4];

	/* 300 lines of 10 bytes: 3000 bytes, 1024 kept. */
	child_sh(&c, argv, "i=0; while [ $i -lt 300 ]; do echo 123456789; i=$((i+1)); done");
	cr_assert_eq(run_child_exec(&c), 0);
	cr_expect_eq(c.out_len, 1024);
	cr_expect_eq(c.out_dropped, 3000 - 1024);
	run_child_free(&c);
}

Test(run, child_timeout_kills_the_group)
{
	struct run_child c;
	char *argv[4];

	child_sh(&c, argv, "sleep 30 & sleep 30");
	c.timeout_s = 0.3;
	cr_assert_eq(run_child_exec(&c), 0);
	cr_expect_eq(c.timed_out, 1);
	cr_expect(c.wall_s < 5, "took %.1f s", c.wall_s);
	cr_expect(WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGKILL);
	run_child_free(&c);
}

Test(run, child_leaving_a_process_behind_ends_with_it)
{
	struct run_child c;
	char *argv[4];

	/* No time limit: the background sleep holds stdout open, and only
	 * killing the group when the leader ends gets this back quickly. */
	child_sh(&c, argv, "sleep 30 & echo done");
	cr_assert_eq(run_child_exec(&c), 0);
	cr_expect_str_eq(c.out, "done\n");
	cr_expect_eq(c.timed_out, 0);
	cr_expect(c.wall_s < 10, "took %.1f s", c.wall_s);
	cr_expect(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0);
	run_child_free(&c);
}

Test(run, child_stdin_is_empty_and_merge_joins_streams)
{
	struct run_child c;
	char *argv[4];

	child_sh(&c, argv, "cat; echo a; echo b >&2");
	c.merge = 1;
	cr_assert_eq(run_child_exec(&c), 0);
	cr_expect_str_eq(c.out, "a\nb\n");
	run_child_free(&c);
}

Test(run, child_env_is_added)
{
	struct run_child c;
	char *argv[4];
	const char *env[] = { "CUDALAB_TEST_X=42", NULL };

	child_sh(&c, argv, "echo $CUDALAB_TEST_X");
	c.env = env;
	cr_assert_eq(run_child_exec(&c), 0);
	cr_expect_str_eq(c.out, "42\n");
	run_child_free(&c);
}

Test(run, child_that_cannot_start_fails)
{
	struct run_child c;
	char *argv[] = { "/nonexistent/cudalab-no-such-program", NULL };

	memset(&c, 0, sizeof c);
	c.argv = argv;
	cr_expect_eq(run_child_exec(&c), -1);
	run_child_free(&c);
}

/* The case line says what failed instead of error figures that read as
 * a pass (a case that wrote past its output has every value right). */
Test(run, case_errors_in_words)
{
	struct run_case pass = { "n=1", "pass", 0, 0, 0, 0, 0 };
	struct run_case past = { "n=17", "wrong", 0, 0, 3, 0, 3 };
	struct run_case unwritten = { "n=17", "wrong", NAN, NAN, 17, 17, 0 };
	struct run_case both = { "n=5", "wrong", 0.5, 0.25, 4, 1, 1 };
	struct run_case old = { "n=5", "wrong", 0.5, NAN, -1, -1, 0 };
	char *s;

	s = run_case_errors(&pass);
	cr_expect_str_eq(s, "max abs err 0  max rel err 0");
	free(s);
	s = run_case_errors(&past);
	cr_expect_str_eq(s, "wrote past the end of the output; the values inside are right");
	free(s);
	s = run_case_errors(&unwritten);
	cr_expect_str_eq(s, "17 elements never written");
	free(s);
	s = run_case_errors(&both);
	cr_expect_str_eq(s, "1 element never written; wrote past the end of the output; "
			    "2 wrong values: max abs err 0.5  max rel err 0.25");
	free(s);
	s = run_case_errors(&old);
	cr_expect_str_eq(s, "max abs err 0.5");
	free(s);
}
