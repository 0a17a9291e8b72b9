/* The remote check protocol's request, the config file and --backend
 * values, against requests and files written by hand. */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "cudalab/cli.h"
#include "cudalab/run.h"
#include "cudalab/util.h"

/* A check request's header, as the near side writes it. */
#define NONCE "0123456789abcdef0123456789abcdef"
#define CHECK_HEAD "cudalab-remote 2\nmode check\nexercise a\nseed -1\ntimeout 0\nnonce " NONCE "\n"

static int parse(const char *text, struct run_remote_request *rq, char **error)
{
	return run_remote_request_parse(text, strlen(text), rq, error);
}

Test(remote, request_round_trip_keeps_every_byte)
{
	/* a file holding "end\n" and a NUL must not end the request early */
	static const char odd[] = "x\nend\nfile source/y 3\n\0z";
	struct run_remote_file files[] = {
		{ "exercise/harness.cu", "int main() {}\n", 14 },
		{ "source/kernel.cu", (char *)odd, sizeof odd - 1 },
	};
	struct run_remote_request rq = { .mode = RUN_BENCH, .exercise = "vector-add", .seed = 7,
					 .timeout_s = 2.5, .files = files, .n_files = 2,
					 .nonce = NONCE }, back;
	struct strbuf sb;
	char *error = NULL;

	sb_init(&sb);
	run_remote_request_text(&rq, &sb);
	cr_assert(str_starts(sb.s, "cudalab-remote 2\nmode bench\nexercise vector-add\nseed 7\n"
			     "timeout 2.5\nnonce " NONCE "\nfile exercise/harness.cu 14\nint main() {}\n\n"));
	cr_assert_eq(run_remote_request_parse(sb.s, sb.len, &back, &error), 0, "%s", error);
	cr_expect_eq(back.mode, RUN_BENCH);
	cr_expect_str_eq(back.exercise, "vector-add");
	cr_expect_eq(back.seed, 7);
	cr_expect_eq(back.timeout_s, 2.5);
	cr_assert_eq(back.n_files, 2);
	cr_expect_str_eq(back.files[1].name, "source/kernel.cu");
	cr_assert_eq(back.files[1].len, sizeof odd - 1);
	cr_expect_eq(memcmp(back.files[1].data, odd, sizeof odd - 1), 0);
	run_remote_request_free(&back);
	sb_free(&sb);
}

Test(remote, bad_requests_are_refused_with_a_reason)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "cudalab-remote 1\nend\n", "protocol 1 asked for" },
		{ "hello\n", "does not start with" },
		{ CHECK_HEAD "file ../etc/passwd 1\nx\nend\n", "bad file name \"../etc/passwd\"" },
		{ CHECK_HEAD "file exercise/.hidden 1\nx\nend\n", "bad file name" },
		{ CHECK_HEAD "file source/a/b.cu 1\nx\nend\n", "bad file name" },
		{ CHECK_HEAD "file source/k.cu 10\nabc\nend\n", "are not all there" },
		{ CHECK_HEAD "file source/k.cu 1\na\nfile source/k.cu 1\nb\nend\n", "sent twice" },
		{ "cudalab-remote 2\nmode check\nexercise a\nend\n", "lacks mode, exercise" },
		/* a check request carries a nonce of 32 hex digits, which its result must repeat */
		{ "cudalab-remote 2\nmode check\nexercise a\nseed -1\ntimeout 0\nend\n",
		  "lacks mode, exercise, seed, timeout or nonce" },
		{ "cudalab-remote 2\nmode check\nexercise a\nseed -1\ntimeout 0\nnonce 12ab\nend\n",
		  "bad request line \"nonce 12ab\"" },
		{ "cudalab-remote 2\nmode check\nexercise ../a\nseed -1\ntimeout 0\nnonce " NONCE
		  "\nend\n", "bad request line" },
		{ "cudalab-remote 2\nmode check\nexercise a\nseed -5\ntimeout 0\nnonce " NONCE
		  "\nend\n", "bad request line" },
		{ "cudalab-remote 2\nmode run\nend\n", "a run request takes mode and timeout" },
		{ "cudalab-remote 2\nmode bench\nexercise a\nseed -1\ntimeout 0\nnonce " NONCE "\n"
		  "arg 5000\nx\nend\n", "bad arg of 5000 bytes" },
		{ "cudalab-remote 2\nmode check\n", "ends before" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct run_remote_request rq;
		char *error = NULL;

		cr_expect_eq(parse(bad[i].text, &rq, &error), -1, "request %zu was taken", i);
		cr_expect(error && strstr(error, bad[i].why), "request %zu: '%s', want '%s'", i,
			  error ? error : "(none)", bad[i].why);
		free(error);
	}
}

/* One file may hold at most 4 MiB, even where the whole request is
 * within its own cap of 16 MiB and every byte of the file is there. */
Test(remote, a_file_over_four_mib_is_refused)
{
	static const char head[] = CHECK_HEAD "file source/k.cu 4194305\n";
	size_t size = (4u << 20) + 1, n = sizeof head - 1;
	char *text = malloc(n + size + 5), *error = NULL;
	struct run_remote_request rq;

	cr_assert_not_null(text);
	memcpy(text, head, n);
	memset(text + n, 'x', size);
	memcpy(text + n + size, "\nend\n", 5);
	cr_expect_eq(run_remote_request_parse(text, n + size + 5, &rq, &error), -1,
		     "a file of 4 MiB and a byte was taken");
	cr_expect(error && strstr(error, "4194305 bytes is too large"), "%s",
		  error ? error : "(none)");
	free(error);
	/* a byte less is taken */
	memcpy(text + n - 8, "4194304\n", 8);
	memcpy(text + n + size - 1, "\nend\n", 5);
	cr_expect_eq(run_remote_request_parse(text, n + size + 4, &rq, &error), 0, "%s",
		     error ? error : "");
	run_remote_request_free(&rq);
	free(text);
}

/* An exercise needing several devices sends "gpus N"; one needing one
 * sends nothing (requests read as before), and the far side reads 1. */
Test(remote, request_carries_the_gpus_an_exercise_needs)
{
	struct run_remote_request rq = { .mode = RUN_CHECK, .exercise = "ring", .seed = -1,
					 .gpus = 4, .nonce = NONCE }, back;
	struct strbuf sb;
	char *error = NULL;

	sb_init(&sb);
	run_remote_request_text(&rq, &sb);
	cr_expect(strstr(sb.s, "\ngpus 4\n") != NULL, "%s", sb.s);
	cr_assert_eq(run_remote_request_parse(sb.s, sb.len, &back, &error), 0, "%s", error);
	cr_expect_eq(back.gpus, 4);
	run_remote_request_free(&back);
	sb_free(&sb);

	rq.gpus = 1;
	sb_init(&sb);
	run_remote_request_text(&rq, &sb);
	cr_expect(strstr(sb.s, "gpus") == NULL, "%s", sb.s);
	cr_assert_eq(run_remote_request_parse(sb.s, sb.len, &back, &error), 0, "%s", error);
	cr_expect_eq(back.gpus, 1);
	run_remote_request_free(&back);
	sb_free(&sb);

	cr_expect_eq(parse(CHECK_HEAD "gpus 65\nend\n", &back, &error), -1);
	cr_expect(error && strstr(error, "bad request line \"gpus 65\""), "%s", error);
	free(error);
	cr_expect_eq(parse(CHECK_HEAD "gpus 0\nend\n", &back, &error), -1);
	free(error);
}

/* srun's GPU request grows to what the exercise needs, in the form the
 * configuration uses; forms it cannot read stay as they are. */
Test(remote, slurm_gpus_request)
{
	static const struct {
		const char *configured;
		int gpus;
		const char *want;
	} cases[] = {
		{ "--gpus=1", 1, "--gpus=1" },
		{ "--gpus=1", 4, "--gpus=4" },
		{ "--gpus=8", 4, "--gpus=8" },
		{ "--gpus=a100:1", 2, "--gpus=a100:2" },
		{ "--gres=gpu:1", 3, "--gres=gpu:3" },
		{ "--gres=gpu:h100:2", 4, "--gres=gpu:h100:4" },
		{ "--gres=gpu:h100", 2, "--gres=gpu:h100:2" },
		{ "--gres=gpu", 2, "--gres=gpu:2" },
		{ "--gres=gpu:h100", 1, "--gres=gpu:h100" },
		{ "--gpus-per-node=1", 4, "--gpus-per-node=1" },
		{ "none", 4, "none" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = run_slurm_gpus(cases[i].configured, cases[i].gpus);

		cr_expect_str_eq(got, cases[i].want, "%s for %d GPUs", cases[i].configured,
				 cases[i].gpus);
		free(got);
	}
}

Test(remote, file_names)
{
	cr_expect(run_remote_good_name("include/cudalab/lab.h"));
	cr_expect(run_remote_good_name("exercise/harness.cu"));
	cr_expect(run_remote_good_name("source/my_kernel-2.cu"));
	cr_expect_not(run_remote_good_name("include/other.h"));
	cr_expect_not(run_remote_good_name("exercise/"));
	cr_expect_not(run_remote_good_name("source/a b.cu"));
	cr_expect_not(run_remote_good_name("/etc/passwd"));
	/* the parts of the harness library, one level down and .h only */
	cr_expect(run_remote_good_name("include/cudalab/lab/compare.h"));
	cr_expect(run_remote_good_name("include/cudalab/lab/lab_run-2.h"));
	cr_expect_not(run_remote_good_name("include/cudalab/lab/../lab.h"));
	cr_expect_not(run_remote_good_name("include/cudalab/lab/sub/part.h"));
	cr_expect_not(run_remote_good_name("include/cudalab/lab/.h"));
	cr_expect_not(run_remote_good_name("include/cudalab/lab/part.cu"));
	cr_expect_not(run_remote_good_name("include/cudalab/lab/"));
}

Test(config, keys_values_comments)
{
	struct cli_config cfg;
	char *error = NULL;

	cr_assert_eq(cli_config_parse("# where checks go\n\nbackend = ssh:gpu-box  # mine\n"
				      "slurm_args=--partition=gpu --time=00:10:00\n"
				      "slurm_gpus = --gres=gpu:1\n",
				      "cfg", &cfg, &error), 0, "%s", error);
	cr_expect_str_eq(cfg.backend, "ssh:gpu-box");
	cr_expect_str_eq(cfg.slurm_args, "--partition=gpu --time=00:10:00");
	cr_expect_str_eq(cfg.slurm_gpus, "--gres=gpu:1");
	cr_expect_null(cfg.remote_cudalab);
	cli_config_free(&cfg);
}

Test(config, errors_name_the_file_and_line)
{
	struct cli_config cfg;
	char *error = NULL;

	cr_expect_eq(cli_config_parse("backend = simt\ncolour = blue\n", "/h/config", &cfg, &error),
		     -1);
	cr_expect(error && str_starts(error, "/h/config:2: unknown setting 'colour'"), "%s", error);
	free(error);
	cr_expect_eq(cli_config_parse("\n\nbackend simt\n", "/h/config", &cfg, &error), -1);
	cr_expect(error && str_starts(error, "/h/config:3: expected \"key = value\""), "%s", error);
	free(error);
	cr_expect_eq(cli_config_parse("backend = tpu\n", "/h/config", &cfg, &error), -1);
	cr_expect(error && str_starts(error, "/h/config:1: backend 'tpu' is none of"), "%s", error);
	free(error);
}

Test(config, backend_values)
{
	struct cli_backend b;

	cr_expect_eq(cli_backend_parse("ssh:gpu-box.example.org", &b), 0);
	cr_expect_eq(b.backend, BACKEND_SSH);
	cr_expect_str_eq(b.host, "gpu-box.example.org");
	cr_expect_eq(cli_backend_parse("slurm", &b), 0);
	cr_expect_eq(b.backend, BACKEND_SLURM);
	cr_expect_eq(cli_backend_parse("simt", &b), 0);
	cr_expect_eq(b.backend, BACKEND_SIMT);
	cr_expect_eq(cli_backend_parse("ssh:", &b), -1);
	cr_expect_eq(cli_backend_parse("ssh", &b), -1);
	cr_expect_eq(cli_backend_parse("ssh:-oProxyCommand=x", &b), -1);
	cr_expect_eq(cli_backend_parse("ssh:a;b", &b), -1);
	cr_expect_eq(cli_backend_parse("tpu", &b), -1);
}

Test(remote, run_requests_carry_arguments_and_macros)
{
	char *args[] = { "two words", "line\nbreak", "" }, *defines[] = { "N=4" };
	struct run_remote_file files[] = { { "source/p.cu", "int main() {}\n", 14 } };
	struct run_remote_request rq = { .program = 1, .seed = -1, .timeout_s = 3, .files = files,
					 .n_files = 1, .args = args, .defines = defines,
					 .n_args = 3, .n_defines = 1 };
	struct run_remote_request back;
	struct strbuf sb;
	char *error = NULL;

	sb_init(&sb);
	run_remote_request_text(&rq, &sb);
	cr_assert(str_starts(sb.s, "cudalab-remote 2\nmode run\ntimeout 3\narg 9\ntwo words\n"));
	cr_assert_eq(run_remote_request_parse(sb.s, sb.len, &back, &error), 0, "%s", error);
	cr_expect(back.program);
	cr_assert_eq(back.n_args, 3);
	cr_expect_str_eq(back.args[1], "line\nbreak");
	cr_expect_str_eq(back.args[2], "");
	cr_assert_eq(back.n_defines, 1);
	cr_expect_str_eq(back.defines[0], "N=4");
	run_remote_request_free(&back);
	sb_free(&sb);
	cr_expect_eq(parse(CHECK_HEAD "arg 1\nx\nend\n", &back, &error), -1);
	cr_expect(error && strstr(error, "takes no arg"), "%s", error);
	free(error);
	cr_expect_eq(parse("cudalab-remote 2\nmode run\ntimeout 0\nexercise a\nend\n", &back,
			   &error), -1);
	free(error);
}
