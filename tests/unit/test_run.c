/* test_run.c — the runner's pure parts: hashing, nvcc argv construction,
 * compiler-log reading, and the child-process limits.  Expected values
 * are written out by hand (FNV-1a's published test vectors, nvcc's and
 * gcc's documented message formats). */
#include <criterion/criterion.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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
	const char *want[] = { "nvcc", "--no-compress", "-lineinfo", "-g", "-cudart", "none",
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
	const char *want[] = { "nvcc", "--no-compress", "-lineinfo", "-g", "-cudart", "none",
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
	const char *want[] = { "nvcc", "--no-compress", "-lineinfo", "-g", "-cudart", "none",
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

Test(run, log_errors_name_a_missing_function_once_with_its_declaration)
{
	/* an empty kernel.cu: the linker names solve once per call site, in
	 * functions of the harness no learner wrote */
	const char *log =
		"/usr/bin/ld: /h/harness.cu: in function `lab::Lab::time_gpu<...{lambda()#1}>':\n"
		"tmpxft_1.cpp:(.text+0x138d): undefined reference to `solve(float const*, int)'\n"
		"/usr/bin/ld: tmpxft_1.cpp:(.text+0x1454): undefined reference to `solve(float "
		"const*, int)'\n"
		"tmpxft_1.cpp:(.text+0x16): undefined reference to `lab::helper(int)'\n"
		"collect2: error: ld returned 1 exit status\n";
	/* the declaration over two lines, after a call and a comment naming
	 * solve, and a definition of helper, which is no declaration */
	const char *harness = "// solve(x, n) is the learner's\n"
			      "static int helper(int k) { return k; }\n"
			      "void run(float* x) { solve(x, 1); }\n"
			      "void solve(const float* x,\n"
			      "           int n);\n";
	struct run_compile_error *e;
	size_t n = run_log_errors(log, &e);

	cr_assert_eq(n, 2);
	run_log_missing(e, n, harness);
	cr_expect_str_eq(e[0].message, "your file must define `void solve(const float* x, int "
				       "n)`: the harness calls it, and the linker found no "
				       "definition");
	cr_expect(e[0].missing);
	cr_expect_str_eq(e[1].message, "undefined reference to `lab::helper(int)'");
	cr_expect(!e[1].missing);
	run_compile_errors_free(e, n);
}

Test(run, log_errors_none_in_a_clean_log)
{
	struct run_compile_error *e = NULL;

	cr_expect_eq(run_log_errors("a.cu(3): warning #177-D: unused\n", &e), 0);
	run_compile_errors_free(e, 0);
}

/* A file name with a line break (and quotes) in it, as nvcc prints it:
 * raw, over two lines of the log. */
Test(run, log_errors_file_name_with_a_line_break)
{
	const char *name = "/w/two\nlines \"q\".cu";
	const char *names[] = { name, "/ex/harness.cu" };
	const char *log = "/w/two\nlines \"q\".cu(3): error: identifier \"x\" is undefined\n"
			  "  int y = x;\n"
			  "cudalab: /w/two\nlines \"q\".cu includes /ex/solution.cu, a file of the "
			  "exercise's folder\n";
	struct run_compile_error *e;
	size_t n = run_log_errors_named(log, names, 2, &e);

	cr_assert_eq(n, 2);
	cr_expect_str_eq(e[0].file, name);
	cr_expect_eq(e[0].line, 3);
	cr_expect_str_eq(e[0].message, "identifier \"x\" is undefined");
	cr_expect_null(e[1].file);
	cr_expect_str_eq(e[1].message, "/w/two\nlines \"q\".cu includes /ex/solution.cu, a file of "
				       "the exercise's folder");
	run_compile_errors_free(e, n);
}

/* nvcc -MD -MF writes make's syntax: the target, then the files, escaped
 * blanks, continued lines. */
Test(run, deps_name_every_file_read)
{
	const char *text = "/b/kernel.o : /b/kernel.cu \\\n"
			   "    /usr/include/stdio.h \\\n"
			   "    /home/me/my\\ dir/a$$b.h /x/y.h\n";
	const char *want[] = { "/b/kernel.cu", "/usr/include/stdio.h", "/home/me/my dir/a$b.h",
			       "/x/y.h", NULL };
	char **deps = run_deps_parse(text);

	cr_assert_not_null(deps);
	expect_argv(deps, want);
	run_argv_free(deps);
	deps = run_deps_parse("k.o: k.cu\n");
	cr_assert_not_null(deps);
	cr_expect_str_eq(deps[0], "k.cu");
	cr_expect_null(deps[1]);
	run_argv_free(deps);
	cr_expect_null(run_deps_parse("no rule here\n"));
	cr_expect_null(run_deps_parse(""));
}

Test(run, nvcc_argv_lists_dependencies_when_asked)
{
	const char *src[] = { "/b/kernel.cu" };
	struct run_nvcc n = { .nvcc = "nvcc", .backend = BACKEND_GPU, .gpu_arch = "sm_90",
			      .sources = src, .n_sources = 1, .output = "/b/kernel.o",
			      .compile_only = 1, .deps = "/b/kernel.d" };
	const char *want[] = { "nvcc", "-lineinfo", "-arch=sm_90", "-MD", "-MF", "/b/kernel.d",
			       "-c", "-o", "/b/kernel.o", "/b/kernel.cu", NULL };
	char **argv = run_nvcc_argv(&n);

	expect_argv(argv, want);
	run_argv_free(argv);
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
	cr_expect_str_eq(s, "17 elements never written (summed over the case's seeds)");
	free(s);
	s = run_case_errors(&both);
	cr_expect_str_eq(s, "1 element never written; wrote past the end of the output; "
			    "2 wrong values (summed over the case's seeds): max abs err 0.5  "
			    "max rel err 0.25");
	free(s);
	s = run_case_errors(&old);
	cr_expect_str_eq(s, "max abs err 0.5");
	free(s);
}

Test(run, case_names_get_one_column)
{
	struct run_case cases[] = {
		{ "n=1", "pass", 0, 0, 0, 0, 0 },
		{ "batch=2 channels=16 length=1000 silu=0", "pass", 0, 0, 0, 0, 0 },
		{ "n=17", "pass", 0, 0, 0, 0, 0 },
	};
	struct run_result r;

	memset(&r, 0, sizeof r);
	r.cases = cases;
	r.n_cases = 3;
	/* the longest name is 38 characters */
	cr_expect_eq(run_case_width(&r), 38);
	r.n_cases = 1;
	cr_expect_eq(run_case_width(&r), 3);
	/* past 40 a name pushes its figures along rather than the column */
	cases[0].name = "a case name of more than forty characters in all";
	cr_expect_eq(run_case_width(&r), 40);
}

/* Libraries from #include lines: cuBLAS and cuBLASLt headers ask for
 * -lcublas -lcublasLt, nccl.h for -lnccl, on the GPU backend only. */
Test(run, source_libs_from_includes)
{
	cr_expect_eq(run_source_libs("#include <cublas_v2.h>\nint x;\n"), RUN_LIB_CUBLAS);
	cr_expect_eq(run_source_libs("int x;\n  #  include \"cublasLt.h\"\n"), RUN_LIB_CUBLAS);
	cr_expect_eq(run_source_libs("#include <cublas.h>\n#include <nccl.h>\n"),
		     RUN_LIB_CUBLAS | RUN_LIB_NCCL);
	cr_expect_eq(run_source_libs("#include <cublas_api.h>\n#include <stdio.h>\n"), 0u);
	cr_expect_eq(run_source_libs("// #include <nccl.h>\n#include <ncclx.h>\n"), 0u);
	cr_expect_eq(run_source_libs("#include <cublas_v2.h"), 0u, "unterminated name");
	cr_expect_eq(run_source_libs(""), 0u);
	cr_expect_eq(run_source_libs(NULL), 0u);
}

Test(run, source_file_libs_follow_quoted_includes)
{
	char dir[] = "/tmp/cudalab-libs-XXXXXX";
	cr_assert(mkdtemp(dir));
	char *prog = path_join(dir, "prog.cu"), *common = path_join(dir, "common.h");
	char *sub = path_join(dir, "inc"), *deep = path_join(sub, "deep.h");
	cr_assert(mkdir(sub, 0700) == 0);
	FILE *f = fopen(prog, "w");
	fputs("#include \"common.h\"\n#include \"deep.h\"\n", f);
	fclose(f);
	f = fopen(common, "w");
	fputs("#include <cublas_v2.h>\n", f);
	fclose(f);
	f = fopen(deep, "w");
	fputs("#include <nccl.h>\n", f);
	fclose(f);
	const char *inc[] = { sub };

	/* deep.h is found only through the -I directory */
	cr_expect_eq(run_source_file_libs(prog, NULL, 0), RUN_LIB_CUBLAS);
	cr_expect_eq(run_source_file_libs(prog, inc, 1), RUN_LIB_CUBLAS | RUN_LIB_NCCL);
	cr_expect_eq(run_source_file_libs(common, NULL, 0), RUN_LIB_CUBLAS);
	cr_expect_eq(run_source_file_libs("/nonexistent/x.cu", NULL, 0), 0u);
	/* a file that includes itself ends at the depth limit */
	f = fopen(common, "w");
	fputs("#include \"common.h\"\n#include <cublasLt.h>\n", f);
	fclose(f);
	cr_expect_eq(run_source_file_libs(common, NULL, 0), RUN_LIB_CUBLAS);
	remove(prog);
	remove(common);
	remove(deep);
	rmdir(sub);
	rmdir(dir);
	free(prog);
	free(common);
	free(sub);
	free(deep);
}

Test(run, nvcc_argv_gpu_links_the_libraries_the_sources_need)
{
	const char *src[] = { "mm.cu" };
	struct run_nvcc n = { .nvcc = "nvcc", .backend = BACKEND_GPU, .gpu_arch = "sm_80",
			      .sources = src, .n_sources = 1, .output = "p",
			      .libs = RUN_LIB_CUBLAS | RUN_LIB_NCCL };
	const char *want[] = { "nvcc", "-lineinfo", "-arch=sm_80", "-o", "p", "mm.cu",
			       "-lcublas", "-lcublasLt", "-lnccl", NULL };
	char **argv = run_nvcc_argv(&n);

	expect_argv(argv, want);
	run_argv_free(argv);
	/* simt has both in its own library */
	n.backend = BACKEND_SIMT;
	n.simt_lib = "/l/libcudalab-simt.a";
	const char *want_simt[] = { "nvcc", "--no-compress", "-lineinfo", "-g", "-cudart", "none",
				    "-arch=compute_80", "-code=compute_80", "-o", "p", "mm.cu",
				    "-L/l", "-lcudalab-simt", "-lpthread", "-lm", NULL };
	argv = run_nvcc_argv(&n);
	expect_argv(argv, want_simt);
	run_argv_free(argv);
}

/* --- simt's reports in the learner's terms (explain.c) --------------------- */

Test(explain, kernel_names_lose_namespaces_and_parameters)
{
	char n[64];

	run_kernel_name("add_kernel(float const*, float const*, float*, int)", n, sizeof n);
	cr_expect_str_eq(n, "add_kernel");
	run_kernel_name("(anonymous namespace)::flash_forward<64>(float const*, int)", n, sizeof n);
	cr_expect_str_eq(n, "flash_forward<64>");
	run_kernel_name("ns::inner::kern<ns::T>(int)", n, sizeof n);
	cr_expect_str_eq(n, "kern<ns::T>");
	run_kernel_name("bare", n, sizeof n);
	cr_expect_str_eq(n, "bare");
}

Test(explain, a_fault_is_found_with_its_place)
{
	/* simt's report of an out-of-bounds read, after a line of the
	 * program's own */
	const char *err = "my own line\n"
			  "simt: out-of-bounds global read of 4 bytes, 0 bytes past a 4-byte "
			  "allocation\n"
			  "  in add_kernel(float const*, float const*, float*, int) at kernel.cu:6 "
			  "(PTX line 42), block (0,0,0) thread (1,0,0)\n";
	struct run_fault f;

	cr_assert_eq(run_fault_find(err, &f), 0);
	cr_expect_str_eq(f.message, "out-of-bounds global read of 4 bytes, 0 bytes past a 4-byte "
				    "allocation");
	cr_expect_str_eq(f.kernel, "add_kernel");
	cr_expect_str_eq(f.file, "kernel.cu");
	cr_expect_eq(f.line, 6);
	cr_expect(f.block[0] == 0 && f.thread[0] == 1 && f.thread[1] == 0);
	run_fault_free(&f);
	/* no source line known (PTX only), and no report at all */
	cr_assert_eq(run_fault_find("simt: trap\n  in k(int) (PTX line 9), block (2,0,0) thread "
				    "(3,1,0)\n", &f), 0);
	cr_expect_null(f.file);
	cr_expect_eq(f.line, 0);
	cr_expect(f.block[0] == 2 && f.thread[0] == 3 && f.thread[1] == 1);
	run_fault_free(&f);
	cr_expect_eq(run_fault_find("simt: a warning\nnothing else\n", &f), -1);
	cr_expect_eq(run_fault_find(NULL, &f), -1);
}

/* A learner's file: a reduction racing on *out, one with an unwritten
 * shared element, a 2-D tile, and a read of an unwritten input. */
static const char explain_src[] =
	"#include <cuda_runtime.h>\n"                                    /* 1 */
	"__global__ void sum_kernel(const float* in, float* out, int n)\n" /* 2 */
	"{\n"                                                             /* 3 */
	"    __shared__ float s[256];\n"                                  /* 4 */
	"    float acc = in[threadIdx.x];\n"                              /* 5 */
	"    s[threadIdx.x] = acc;\n"                                     /* 6 */
	"    acc += s[threadIdx.x + 1];\n"                                /* 7 */
	"    *out += acc;\n"                                              /* 8 */
	"}\n"                                                             /* 9 */
	"__global__ void tiles(double* __restrict__ x)\n"                 /* 10 */
	"{\n"                                                             /* 11 */
	"    __shared__ float tile[32][33];\n"                            /* 12 */
	"    double v = x[threadIdx.x];\n"                                /* 13 */
	"    out[3] -= v;\n"                                              /* 14 */
	"}\n"                                                             /* 15 */
	"__global__ void two(float* a)\n"                                 /* 16 */
	"{\n"                                                             /* 17 */
	"    __shared__ float p[32];\n"                                   /* 18 */
	"    __shared__ float q[32];\n"                                   /* 19 */
	"}\n";                                                            /* 20 */

static void words(const char *kind, const char *space, const char *kernel, const char *msg,
		  const struct run_access *a, int n, const char *place, const char *fix)
{
	struct run_hazard_words w;

	run_hazard_words(kind, space, kernel, msg, a, n, explain_src, &w);
	if (place)
		cr_expect_str_eq(w.place, place);
	else
		cr_expect_null(w.place, "place %s", w.place);
	cr_expect_str_eq(w.fix, fix);
	run_hazard_words_free(&w);
}

Test(explain, a_race_between_blocks_on_a_sum_asks_for_an_atomic)
{
	const struct run_access a[] = { { 8, "read", { 1, 0, 0 }, -1, 0 },
					{ 8, "write", { 0, 0, 0 }, -1, 0 } };
	const struct run_access minus[] = { { 14, "write", { 0, 0, 0 }, -1, 0 },
					    { 14, "write", { 5, 0, 0 }, -1, 0 } };

	words("race", "global", "sum_kernel(float const*, float*, int)", "race: ...", a, 2,
	      "out[0]", "fix: atomicAdd(out, acc) at line 8; blocks cannot wait for one another, "
			"so an atomic adds their parts");
	words("race", "global", "tiles(double*)", "race: ...", minus, 2, "out[3]",
	      "fix: atomicAdd(&out[3], -v) at line 14; blocks cannot wait for one another, so an "
	      "atomic adds their parts");
}

Test(explain, a_shared_race_asks_for_a_barrier_between_its_lines)
{
	const struct run_access a[] = { { 7, "read", { 0, 0, 0 }, -1, 0 },
					{ 6, "write", { 0, 0, 0 }, -1, 0 } };
	const struct run_access same[] = { { 6, "write", { 0, 0, 0 }, -1, 0 },
					   { 6, "read", { 0, 0, 0 }, -1, 0 } };

	words("race", "shared", "sum_kernel(float const*, float*, int)", "race: ...", a, 2, NULL,
	      "fix: a __syncthreads() between the write at line 6 and the read at line 7, reached "
	      "by every thread of the block");
	words("race", "shared", "sum_kernel(float const*, float*, int)", "race: ...", same, 2,
	      NULL, "fix: a __syncthreads() between one turn's write at line 6 and the next "
		    "turn's read, reached by every thread of the block");
}

Test(explain, an_unwritten_shared_element_is_named_by_its_array)
{
	const struct run_access a[] = { { 7, "read", { 0, 0, 0 }, -1, 0 } };
	const char *fix = "fix: write every element the block reads, then __syncthreads(), then "
			  "read; shared memory starts with whatever was there before";

	/* float s[256]: byte 1024 is s[256], byte 4 s[1] */
	words("uninitialized", "shared", "sum_kernel(float const*, float*, int)",
	      "uninitialized: shared read of 4 bytes at kernel.cu:7 by block (0,0,0) thread "
	      "(255,0,0): offset 1024 of the block's shared memory, not written by this block",
	      a, 1, "s[256]", fix);
	/* float tile[32][33]: (2 * 33 + 5) * 4 = 284 */
	words("uninitialized", "shared", "tiles(double*)", "... offset 284 of the block's shared "
	      "memory, not written by this block", a, 1, "tile[2][5]", fix);
	/* not a whole element, and a kernel with two arrays: no name */
	words("uninitialized", "shared", "tiles(double*)", "... offset 6 of the block's shared "
	      "memory", a, 1, NULL, fix);
	words("uninitialized", "shared", "two(float*)", "... offset 4 of the block's shared "
	      "memory", a, 1, NULL, fix);
}

Test(explain, an_unwritten_global_element_is_named_by_the_pointer_read)
{
	const struct run_access in[] = { { 5, "read", { 0, 0, 0 }, -1, 0 } };
	const struct run_access x[] = { { 13, "read", { 0, 0, 0 }, -1, 0 } };
	const char *fix = "fix: read only what was written first: the harness fills the inputs, "
			  "and an output holds nothing until a kernel (or cudaMemset) writes it";

	words("uninitialized", "global", "sum_kernel(float const*, float*, int)",
	      "uninitialized: global read of 4 bytes ...: 8 bytes into a 64-byte allocation, "
	      "never written", in, 1, "in[2]", fix);
	/* double: 8 bytes an element */
	words("uninitialized", "global", "tiles(double*)", "...: 8 bytes into a 64-byte "
	      "allocation, never written", x, 1, "x[1]", fix);
}

Test(explain, other_hazards_get_their_usual_fix)
{
	const struct run_access streams[] = { { 8, "write", { 0, 0, 0 }, 1, 0 },
					      { 0, "read", { 0, 0, 0 }, 2, 1 } };
	const struct run_access streams2[] = { { 8, "write", { 0, 0, 0 }, 1, 0 },
					       { 8, "read", { 0, 0, 0 }, 2, 0 } };
	const struct run_access one[] = { { 5, "read", { 0, 0, 0 }, -1, 0 } };

	words("race", "global", "sum_kernel(float const*, float*, int)", "...", streams, 2,
	      "out[0]", "fix: wait for the device (cudaStreamSynchronize or cudaDeviceSynchronize) before "
	      "the host reads or writes that memory, or copy it with cudaMemcpy");
	words("race", "global", "sum_kernel(float const*, float*, int)", "...", streams2, 2,
	      "out[0]", "fix: order the two streams: cudaEventRecord after the first, "
			"cudaStreamWaitEvent before the second (or synchronize in between)");
	words("barrier", NULL, "sum_kernel(float const*, float*, int)", "...", one, 1, NULL,
	      "fix: every thread of the block must reach the same __syncthreads(): move it out "
	      "of the if (or make the condition the same for the whole block)");
	words("uninitialized", "register", "sum_kernel(float const*, float*, int)", "...", one,
	      1, NULL, "fix: give the variable a value before its first use (float sum = 0.0f;)");
}
