/* test_predict.c — the runner's side of simt's time model: finding the
 * device files, matching the names GPUs report to them, and reading
 * simt's per-launch report.  Expected values are written out by hand from
 * the fixtures (tests/fixtures/predict) and the names nvidia-smi prints. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cudalab/run.h"
#include "cudalab/util.h"

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert(f, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

/* content dir with devices/{b,a}.gpu, and a second directory that
 * CUDALAB_SIMT_DEVICES puts first, holding another a.gpu and c.gpu */
static char *make_dirs(char **extra)
{
	char tmpl[] = "/tmp/cudalab-predict.XXXXXX", *root = mkdtemp(tmpl), *p;

	cr_assert(root);
	root = xstrdup(root);
	p = xasprintf("%s/content/devices", root);
	cr_assert_eq(mkdir_p(p, 0755), 0);
	free(p);
	p = xasprintf("%s/extra", root);
	cr_assert_eq(mkdir_p(p, 0755), 0);
	*extra = p;
	p = xasprintf("%s/content/devices/b.gpu", root);
	put(p, "# B\nname = Bee GPU 20GB  [src]\n");
	free(p);
	p = xasprintf("%s/content/devices/a.gpu", root);
	put(p, "name = Shipped A  [src]\n");
	free(p);
	p = xasprintf("%s/content/devices/.hidden.gpu", root);
	put(p, "name = hidden\n");
	free(p);
	p = xasprintf("%s/extra/a.gpu", root);
	put(p, "  name=Own A\n");
	free(p);
	p = xasprintf("%s/extra/c.gpu", root);
	put(p, "arch = sm_90\n");
	free(p);
	return root;
}

Test(predict, devices_listed_once_first_directory_wins)
{
	char *extra, *root = make_dirs(&extra), *content = xasprintf("%s/content", root);
	char **names, **ids;

	setenv("CUDALAB_SIMT_DEVICES", extra, 1);
	ids = run_devices_list(content, &names);
	cr_assert_str_eq(ids[0], "a");
	cr_assert_str_eq(names[0], "Own A");
	cr_assert_str_eq(ids[1], "b");
	cr_assert_str_eq(names[1], "Bee GPU 20GB");
	cr_assert_str_eq(ids[2], "c");
	cr_assert_str_eq(names[2], "c", "a file without a name line goes by its id");
	cr_assert_null(ids[3]);
	run_argv_free(ids);
	run_argv_free(names);
	unsetenv("CUDALAB_SIMT_DEVICES");
	ids = run_devices_list(content, NULL);
	cr_assert_str_eq(ids[0], "a");
	cr_assert_str_eq(ids[1], "b");
	cr_assert_null(ids[2]);
	run_argv_free(ids);
	free(content);
	free(extra);
	free(root);
}

Test(predict, unknown_device_names_the_known_ones)
{
	char *extra, *root = make_dirs(&extra), *content = xasprintf("%s/content", root);
	char *name = NULL, *why = NULL;

	unsetenv("CUDALAB_SIMT_DEVICES");
	cr_assert_eq(run_device_find(content, "b", &name, &why), 0);
	cr_assert_str_eq(name, "Bee GPU 20GB");
	free(name);
	cr_assert_eq(run_device_find(content, "bb", &name, &why), -1);
	cr_assert_null(name);
	cr_assert_str_eq(why, "unknown device 'bb' (did you mean b?); known: a b");
	free(why);
	free(content);
	content = xasprintf("%s/nowhere", root);
	cr_assert_eq(run_device_find(content, "a", &name, &why), -1);
	cr_assert(strstr(why, "no device files found (looked in ") && strstr(why, "nowhere/devices"),
		  "%s", why);
	free(why);
	free(content);
	free(extra);
	free(root);
}

/* The names GPUs report (nvidia-smi, cudaGetDeviceProperties) against the
 * device files shipped in devices/. */
Test(predict, reported_gpu_names_match_their_device_files)
{
	static const char *const cases[][2] = {
		{ "NVIDIA H100 80GB HBM3", "h100-sxm" },
		{ "NVIDIA H100 PCIe", "h100-pcie" },
		{ "NVIDIA A100-SXM4-80GB", "a100-sxm" },
		{ "NVIDIA GeForce RTX 4090", "rtx4090" },
		{ "NVIDIA GeForce RTX 3090", "rtx3090" },
		{ "NVIDIA RTX A6000", "rtx-a6000" },
		{ "Tesla T4", "t4" },
		{ "NVIDIA L4", "l4" },
		{ "Tesla V100-SXM2-32GB", "v100-sxm2" },
		{ "NVIDIA H200", NULL },
		{ "NVIDIA A100-PCIE-40GB", NULL }, /* no A100 PCIe file */
		{ "Quadro", NULL },
	};

	unsetenv("CUDALAB_SIMT_DEVICES");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *id = run_device_match(".", cases[i][0]);

		if (cases[i][1])
			cr_expect(id && strcmp(id, cases[i][1]) == 0, "%s -> %s, not %s",
				  cases[i][0], id ? id : "(none)", cases[i][1]);
		else
			cr_expect_null(id, "%s -> %s, not none", cases[i][0], id);
		free(id);
	}
}

Test(predict, launches_merge_by_kernel_longest_first)
{
	struct run_prediction p;
	char **lines;
	size_t n;

	memset(&p, 0, sizeof p);
	p.device = xstrdup("h100-sxm");
	p.name = xstrdup("NVIDIA H100 SXM5 80GB");
	p.ms = 0.0535;
	p.gbps = p.pct_peak_bw = p.tflops = p.pct_peak_flops = NAN;
	cr_assert_eq(run_prediction_read("tests/fixtures/predict/launches.jsonl", &p), 0);
	cr_assert_eq(p.total_launches, 4, "a line that is not JSON is no launch");
	cr_assert_eq(p.n_launches, 3);
	cr_expect_str_eq(p.launches[0].kernel, "reduce");
	cr_expect_float_eq(p.launches[0].us, 30.25, 1e-9);
	cr_expect_str_eq(p.launches[1].kernel, "scale");
	cr_expect_float_eq(p.launches[1].us, 22.5, 1e-9, "two launches of scale add up");
	cr_expect_eq(p.launches[1].blocks, 200);
	cr_expect_str_eq(p.launches[1].limits, "limited by DRAM bandwidth: 91% of peak");
	cr_expect_str_eq(p.launches[2].kernel, "tiny");
	cr_expect_null(p.launches[2].limits);
	cr_expect(p.sampled, "reduce ran 512 of 4096 blocks");
	n = run_prediction_lines(&p, &lines);
	cr_assert_geq(n, 6);
	cr_expect_str_eq(lines[0], "predicted on NVIDIA H100 SXM5 80GB (h100-sxm): 53.5 us, a model "
				   "estimate, not a measurement");
	cr_expect_str_eq(lines[1], "  reduce: 30.2 us (a sample of its blocks ran)");
	cr_expect_str_eq(lines[2], "    limited by latency (no unit above 60%): issue slots 20%");
	cr_expect_str_eq(lines[3], "    scheduler cycles: waiting at a barrier 50%");
	cr_expect_str_eq(lines[4], "  scale: 22.5 us");
	run_insights_free(lines, n);
	cr_expect_eq(run_prediction_read("tests/fixtures/predict/none.jsonl", &p), -1);
	run_prediction_free(&p);
}

Test(predict, prediction_error_is_one_line)
{
	struct run_prediction p;
	char **lines;
	size_t n;

	memset(&p, 0, sizeof p);
	p.device = xstrdup("t4");
	p.name = xstrdup("NVIDIA T4");
	p.error = xstrdup("no kernel was launched");
	n = run_prediction_lines(&p, &lines);
	cr_assert_eq(n, 1);
	cr_expect_str_eq(lines[0], "no prediction for NVIDIA T4 (t4): no kernel was launched");
	run_insights_free(lines, n);
	run_prediction_free(&p);
	cr_expect_eq(run_prediction_lines(NULL, &lines), 0);
}
