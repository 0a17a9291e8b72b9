/* The reading of simt's counters (run_insights): each figure below is
 * worked out by hand from the counters and work figures in the JSON. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/run.h"
#include "cudalab/util.h"

/* A result with the given work object ("" for none) and counter totals. */
static char *result(const char *work, const char *total)
{
	return xasprintf("{\"status\":\"pass\",\"device\":{\"name\":\"simt (H100-like)\","
			 "\"peak_gbps\":3352.3,\"peak_tflops\":{\"fp32\":66.9}}%s%s,"
			 "\"simt\":{\"total\":{%s}}}",
			 *work ? ",\"work\":" : "", work, total);
}

/* The line of lines[0..n) that starts with prefix, or NULL. */
static const char *line(char **lines, size_t n, const char *prefix)
{
	for (size_t i = 0; i < n; i++)
		if (strncmp(lines[i], prefix, strlen(prefix)) == 0)
			return lines[i];
	return NULL;
}

Test(insight, streaming_kernel_moves_each_byte_once)
{
	/* saxpy on 100003 floats, run twice: 75006 sectors of 32 bytes over
	 * two calls is 1200096 bytes per call against 1200036 needed. */
	char *json = result("{\"bytes\":1200036,\"flops\":200006,\"calls\":2}",
			    "\"thread_instructions\":2704090,\"warp_instructions\":84562,"
			    "\"global_load_requests\":3132,\"global_store_requests\":1566,"
			    "\"global_load_sectors\":50004,\"global_store_sectors\":25002,"
			    "\"flops_f32\":400012");
	char **lines;
	size_t n = run_insights(json, &lines);

	cr_assert_str_eq(line(lines, n, "global traffic"),
			 "global traffic: 1.20 MB per call, 1.00x the 1.20 MB the work needs: "
			 "each byte crosses once, so DRAM bandwidth sets the pace");
	/* 200006 / 1200036 = 0.167 FLOP/B; ridge 66.9e12 / 3352.3e9 = 20.0;
	 * 1200036 B / 3352.3 GB/s = 0.358 us; 200006 / 66.9e12 = 0.00299 us. */
	cr_assert_str_eq(line(lines, n, "roofline"),
			 "roofline: 0.17 FLOP per byte of minimum traffic, memory-bound (ridge 20): "
			 "at the device's peaks a call needs at least 0.358 us (0.358 us of DRAM "
			 "transfer, 0.00299 us of FP32 math)");
	cr_assert_not_null(line(lines, n, "32.0 of 32 lanes active"));
	run_insights_free(lines, n);
	free(json);
}

Test(insight, naive_gemm_refetches_its_operands)
{
	/* 64^3 GEMM: minimum 3 * 64 * 64 * 4 = 49152 bytes, 2 * 64^3 = 524288
	 * FLOPs; 100512 sectors in one call = 3216384 bytes, 65.4x. */
	char *json = result("{\"bytes\":49152,\"flops\":524288,\"calls\":1}",
			    "\"global_load_requests\":8192,\"global_store_requests\":128,"
			    "\"global_load_sectors\":100000,\"global_store_sectors\":512,"
			    "\"flops_f32\":524288");
	char **lines;
	size_t n = run_insights(json, &lines);

	cr_assert_str_eq(line(lines, n, "global traffic"),
			 "global traffic: 3.22 MB per call, 65.4x the 49.2 KB the work needs "
			 "(counted before caches): each byte is fetched about 65 times, from the L2 "
			 "when it holds it; what is reused can be kept in shared memory or "
			 "registers");
	/* 524288 / 49152 = 10.67 < 20; 49152 / 3352.3e3 = 0.0147 us;
	 * 524288 / 66.9e6 = 0.00784 us. */
	cr_assert_str_eq(line(lines, n, "roofline"),
			 "roofline: 10.67 FLOP per byte of minimum traffic, memory-bound (ridge 20): "
			 "at the device's peaks a call needs at least 0.0147 us (0.0147 us of DRAM "
			 "transfer, 0.00784 us of FP32 math)");
	run_insights_free(lines, n);
	free(json);
}

Test(insight, a_tiled_kernel_fetches_some_data_twice)
{
	/* 6359 sectors over 1 call = 203488 bytes against 81408: 2.5x. */
	char *json = result("{\"bytes\":81408,\"flops\":1105920,\"calls\":1}",
			    "\"global_load_requests\":2000,\"global_load_sectors\":6359,"
			    "\"flops_f32\":1105920");
	char **lines;
	size_t n = run_insights(json, &lines);

	cr_assert_str_eq(line(lines, n, "global traffic"),
			 "global traffic: 203.5 KB per call, 2.5x the 81.4 KB the work needs "
			 "(counted before caches): some data is fetched more than once, as when "
			 "blocks share input tiles; the L2 often catches these re-reads, but each "
			 "still costs an L2 access");
	run_insights_free(lines, n);
	free(json);
}

Test(insight, without_work_figures_the_touched_bytes_stand_in)
{
	/* A check run: no work object.  4096 sectors = 131072 bytes touched,
	 * 65536 FLOPs: 0.50 FLOP per byte. */
	char *json = result("", "\"global_load_requests\":1024,\"global_load_sectors\":4096,"
				"\"flops_f32\":65536");
	char **lines;
	size_t n = run_insights(json, &lines);

	cr_assert_null(line(lines, n, "global traffic"));
	cr_assert_null(line(lines, n, "roofline"));
	cr_assert_str_eq(line(lines, n, "arithmetic intensity"),
			 "arithmetic intensity 0.50 FLOP per byte touched: memory-bound (the ridge "
			 "is about 20 FLOP/byte in FP32)");
	run_insights_free(lines, n);
	free(json);
}

Test(insight, a_device_without_known_peaks_gets_no_ridge)
{
	/* A device the harness has no datasheet for: no peaks, so the
	 * intensity (65536 FLOPs over 4096 sectors = 131072 bytes: 0.50) is
	 * given without a verdict borrowed from another GPU. */
	char *json = xstrdup("{\"status\":\"pass\",\"device\":{\"name\":\"Some GPU\"},"
			     "\"simt\":{\"total\":{\"global_load_requests\":1024,"
			     "\"global_load_sectors\":4096,\"flops_f32\":65536}}}");
	char **lines;
	size_t n = run_insights(json, &lines);

	cr_assert_str_eq(line(lines, n, "arithmetic intensity"),
			 "arithmetic intensity 0.50 FLOP per byte touched (no peaks are known "
			 "for this device to place it against)");
	cr_assert_null(line(lines, n, "roofline"));
	run_insights_free(lines, n);
	free(json);
}

Test(insight, a_check_without_counters_or_timing_says_nothing)
{
	char **lines;
	size_t n = run_insights("{\"status\":\"pass\",\"work\":{\"bytes\":1,\"flops\":1}}", &lines);

	cr_assert_eq(n, 0);
	run_insights_free(lines, n);
}

/* A GPU bench: no counters, a timing and derived rates. */
static char *gpu_result(const char *work, const char *timing, const char *derived)
{
	return xasprintf("{\"status\":\"pass\",\"device\":{\"name\":\"NVIDIA H200\","
			 "\"peak_gbps\":4915.2,\"peak_tflops\":{\"fp32\":66.9}},"
			 "\"work\":%s,\"timing\":%s,\"derived\":%s}",
			 work, timing, derived);
}

Test(insight, gpu_memory_bound_work_is_judged_by_bandwidth)
{
	/* 0.17 FLOP/byte is far below the ridge 66.9e3 / 4915.2 = 13.6. */
	char *json = gpu_result("{\"bytes\":805306368,\"flops\":134217728,\"calls\":40}",
				"{\"median_ms\":0.25,\"noise_pct\":0.4}",
				"{\"pct_peak_bw\":65.5,\"pct_peak_flops\":0.8}");
	char **lines;
	size_t n = run_insights(json, &lines);

	cr_assert_eq(n, 1);
	cr_assert_str_eq(lines[0], "65.5% of peak DRAM bandwidth on memory-bound work: good, not at "
				   "the roofline yet (80% or more is reachable): keep more bytes in "
				   "flight with wider loads and more independent loads per thread, and "
				   "make sure each byte crosses once");
	run_insights_free(lines, n);
	free(json);
}

Test(insight, gpu_compute_bound_work_is_judged_by_flops_and_noise_shows)
{
	/* GEMM 4096^3: 2 * 4096^3 / (3 * 4096^2 * 4) = 682.7 FLOP/byte. */
	char *json = gpu_result("{\"bytes\":201326592,\"flops\":137438953472,\"calls\":30}",
				"{\"median_ms\":6.1,\"noise_pct\":3.25,\"batched\":1}",
				"{\"pct_peak_bw\":0.7,\"pct_peak_flops\":33.7}");
	char **lines;
	size_t n = run_insights(json, &lines);

	cr_assert_eq(n, 2);
	cr_assert_str_eq(lines[0], "33.7% of peak FP32 throughput on compute-bound work: the math "
				   "units wait; more outputs per thread or per warp (register blocking) "
				   "raise the math done per byte loaded from shared memory");
	cr_assert_str_eq(lines[1], "timing noise 3.2% (stdev over mean): the GPU may be shared or "
				   "changing clocks; compare medians of several runs");
	run_insights_free(lines, n);
	free(json);
}

Test(insight, tensor_core_work_is_measured_against_its_own_peak)
{
	/* FP16 GEMM 4096^3: bytes 2 * 2 * 4096^2 + 4 * 4096^2 = 134217728,
	 * 1024 FLOP/byte, above the FP16 ridge 989.4e3 / 4915.2 = 201. */
	char *json = xasprintf("{\"status\":\"pass\",\"device\":{\"name\":\"NVIDIA H200\","
			       "\"peak_gbps\":4915.2,\"peak_tflops\":{\"fp32\":66.9,"
			       "\"fp16\":989.4}},\"work\":{\"bytes\":134217728,"
			       "\"flops\":137438953472,\"calls\":30,\"peak\":\"fp16\"},"
			       "\"timing\":{\"median_ms\":0.35,\"noise_pct\":0.2},"
			       "\"derived\":{\"pct_peak_bw\":7.8,\"pct_peak_flops\":39.7}}");
	char **lines;
	size_t n = run_insights(json, &lines);

	cr_assert_eq(n, 1);
	cr_assert(strstr(lines[0], "39.7% of peak FP16 tensor throughput on compute-bound work: "
				   "the math units wait") == lines[0]);
	run_insights_free(lines, n);
	free(json);
}

Test(insight, gpu_tiny_calls_are_batched)
{
	char *json = gpu_result("{\"bytes\":12,\"flops\":2,\"calls\":9000}",
				"{\"median_ms\":0.002,\"noise_pct\":1,\"batched\":100}",
				"{\"pct_peak_bw\":0.1,\"pct_peak_flops\":0}");
	char **lines;
	size_t n = run_insights(json, &lines);

	cr_assert_eq(n, 2);
	cr_assert(strstr(lines[0], "0.1% of peak DRAM bandwidth on memory-bound work: far from") ==
		  lines[0]);
	cr_assert_str_eq(lines[1], "a call takes under 10 us, so calls were timed 100 at a time: at "
				   "this size launch overhead and the last wave of blocks weigh as much "
				   "as the kernel's inner loop");
	run_insights_free(lines, n);
	free(json);
}

Test(insight, emulated_timing_is_not_read_as_gpu_time)
{
	char *json = gpu_result("{\"bytes\":12,\"flops\":2,\"calls\":2}",
				"{\"median_ms\":5,\"noise_pct\":40,\"emulated\":true}",
				"{\"pct_peak_bw\":null,\"pct_peak_flops\":null}");
	char **lines;
	size_t n = run_insights(json, &lines);

	cr_assert_eq(n, 0);
	run_insights_free(lines, n);
	free(json);
}

Test(insight, atomics_read_against_the_blocks)
{
	/* 312 atomics from 312 blocks: one per block; 5000 from 100 blocks:
	 * 50.0 per block, which says nothing of one address without simt's
	 * count of lanes that met on one. */
	char *once = result("", "\"atomics\":312,\"blocks\":312,\"warp_instructions\":1000");
	char *many = result("", "\"atomics\":5000,\"blocks\":100,\"warp_instructions\":1000");
	char **lines;
	size_t n = run_insights(once, &lines);

	cr_assert_str_eq(line(lines, n, "atomics"),
			 "atomics: 312 for 312 blocks: at most one per block");
	run_insights_free(lines, n);
	n = run_insights(many, &lines);
	cr_assert_str_eq(line(lines, n, "atomics"), "atomics: 5000, 50.0 per block");
	run_insights_free(lines, n);
	free(once);
	free(many);
}

Test(insight, an_empty_kernel_is_not_praised_for_its_lanes)
{
	/* 12 launches of a kernel that only returns: 96 warp instructions,
	 * every lane "active", no memory touched */
	char *json = result("", "\"launches\":12,\"thread_instructions\":3072,"
				"\"warp_instructions\":96,\"blocks\":12");
	char **lines;
	size_t n = run_insights(json, &lines);

	cr_assert_eq(n, 1);
	cr_assert_str_eq(lines[0], "the kernels read and wrote no memory at all (96 warp "
				   "instructions in all): nothing they did can be seen");
	cr_assert_null(line(lines, n, "32.0 of 32 lanes"));
	run_insights_free(lines, n);
	free(json);
}

/* A result whose counters list kernels (each "name", then counters) and
 * whose totals are total. */
static char *kernels_result(const char *status, const char *kernels, const char *total)
{
	return xasprintf("{\"status\":\"%s\",\"simt\":{\"kernels\":[%s],\"total\":{%s}}}",
			 status, kernels, total);
}

/* The finding of rule in v[0..n), or NULL. */
static const struct run_insight *finding(const struct run_insight *v, size_t n,
					 const char *rule)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].rule, rule) == 0)
			return &v[i];
	return NULL;
}

/* The advice of every rule that gives any, against the kernel made for it
 * and against a figure just short of it.  Each figure is worked out by
 * hand from the counters below. */
struct rule_case {
	const char *rule;
	const char *counters; /* of one kernel, "naughty" */
	const char *advice;   /* its text; NULL: no advice wanted */
};

static void expect_rule(const struct rule_case *c);

/* expect_rule for each of an array's cases */
#define EXPECT_RULES(cases)                                                   \
	for (size_t i_ = 0; i_ < sizeof(cases) / sizeof(cases)[0]; i_++)     \
		expect_rule(&(cases)[i_])

static void expect_rule(const struct rule_case *c)
{
	char *kernel = xasprintf("{\"name\":\"(anonymous namespace)::naughty<4>(float const*, "
				 "int)\",%s}", c->counters);
	char *json = kernels_result("pass", kernel, c->counters);
	struct run_insight *v;
	size_t n = run_insight_list(json, &v);
	const struct run_insight *f = finding(v, n, c->rule);

	cr_assert_not_null(f, "rule %s said nothing", c->rule);
	if (c->advice) {
		cr_expect(f->advice, "rule %s gave no advice: %s", c->rule, f->text);
		cr_expect_str_eq(f->text, c->advice);
	} else {
		cr_expect(!f->advice, "rule %s advised: %s", c->rule, f->text);
	}
	run_insight_list_free(v, n);
	free(json);
	free(kernel);
}

Test(insight, uncoalesced_advice_only_past_what_contiguous_accesses_touch)
{
	/* 3200 sectors over 100 requests: 32.0, a lane a sector; 1600 over
	 * 100: 16.0, what float4 loads of a contiguous row touch */
	static const struct rule_case cases[] = {
		{ "coalescing", "\"global_load_requests\":100,\"global_load_sectors\":3200,"
				"\"warp_instructions\":1000,\"thread_instructions\":32000",
		  "global loads in naughty<4>: 32.0 sectors per warp request: uncoalesced, every "
		  "lane touches its own 32-byte sector; make neighbouring threads touch "
		  "neighbouring addresses" },
		{ "coalescing", "\"global_load_requests\":100,\"global_load_sectors\":1600,"
				"\"warp_instructions\":1000,\"thread_instructions\":32000",
		  NULL },
		/* 2900 over 100: 29.0, the likes of one row per thread read 16
		 * bytes at a time, its sectors finished by the next request */
		{ "coalescing", "\"global_store_requests\":100,\"global_store_sectors\":2900,"
				"\"warp_instructions\":1000,\"thread_instructions\":32000",
		  NULL },
	};

	EXPECT_RULES(cases);
}

Test(insight, a_float4_kernel_beside_a_scalar_one_is_not_called_scattered)
{
	/* 16 sectors a request in one kernel, 4 in the other: 2000 over 200
	 * in all, 10.0, which neither kernel does */
	char *json = kernels_result(
		"pass",
		"{\"name\":\"wide(float4 const*)\",\"global_load_requests\":100,"
		"\"global_load_sectors\":1600},{\"name\":\"narrow(float const*)\","
		"\"global_load_requests\":100,\"global_load_sectors\":400}",
		"\"global_load_requests\":200,\"global_load_sectors\":2000,"
		"\"warp_instructions\":1000,\"thread_instructions\":32000");
	struct run_insight *v;
	size_t n = run_insight_list(json, &v);
	const struct run_insight *f = finding(v, n, "coalescing");

	cr_assert_not_null(f);
	cr_expect(!f->advice);
	cr_expect_str_eq(f->text, "global loads: 10.0 sectors per warp request (4 for a warp "
				  "reading 4 contiguous bytes a lane, 16 for 16 bytes a lane)");
	run_insight_list_free(v, n);
	free(json);
}

Test(insight, bank_conflict_advice_from_two_way_on_average)
{
	/* 120 conflicts over 100 requests: 1.20 extra passes; 67 over 100:
	 * 0.67, less than every request 2-way */
	static const struct rule_case cases[] = {
		{ "banks", "\"shared_load_requests\":60,\"shared_store_requests\":40,"
			   "\"shared_bank_conflicts\":120",
		  "shared memory in naughty<4>: 1.20 extra bank passes per request: pad the tile "
		  "(e.g. [32][33]) or change the index so a warp's lanes hit 32 different banks" },
		{ "banks", "\"shared_load_requests\":60,\"shared_store_requests\":40,"
			   "\"shared_bank_conflicts\":67",
		  NULL },
	};

	EXPECT_RULES(cases);
}

Test(insight, divergence_advice_only_where_warps_run_half_empty)
{
	/* 30 of 100 branches diverged; 12000 lanes over 1000 warp
	 * instructions is 12.0 lanes, 24000 is 24.0 */
	static const struct rule_case cases[] = {
		{ "divergence", "\"branches\":100,\"divergent_branches\":30,"
				"\"warp_instructions\":1000,\"thread_instructions\":12000",
		  "30.0% of the branches in naughty<4> diverged within a warp, and its warps ran "
		  "12.0 of 32 lanes: both sides run one after the other; branch on warp-uniform "
		  "values where you can" },
		{ "divergence", "\"branches\":100,\"divergent_branches\":30,"
				"\"warp_instructions\":1000,\"thread_instructions\":24000",
		  NULL },
		/* 8 of 100 diverged at 12 lanes: the idle lanes are not the
		 * branches' doing */
		{ "divergence", "\"branches\":100,\"divergent_branches\":8,"
				"\"warp_instructions\":1000,\"thread_instructions\":12000",
		  NULL },
		/* the lanes rule only ever says what it measured */
		{ "lanes", "\"warp_instructions\":1000,\"thread_instructions\":4000", NULL },
	};

	EXPECT_RULES(cases);
}

Test(insight, local_memory_advice_from_a_twentieth_of_the_instructions)
{
	/* 130 local accesses over 1000 warp instructions: 13%; 12: 1.2% */
	static const struct rule_case cases[] = {
		{ "local", "\"local_loads\":70,\"local_stores\":60,"
			   "\"warp_instructions\":1000,\"thread_instructions\":32000",
		  "local memory in naughty<4>: 13% of its warp instructions are local accesses: an "
		  "array indexed at run time (or spilled registers) lives in slow per-thread DRAM; "
		  "index with constants or keep it small" },
		{ "local", "\"local_loads\":6,\"local_stores\":6,"
			   "\"warp_instructions\":1000,\"thread_instructions\":32000",
		  NULL },
	};

	EXPECT_RULES(cases);
}

Test(insight, same_address_atomics_are_measured_per_space)
{
	/* 4096 global atomics, 3968 of whose lanes waited behind another on
	 * one address (31 of each warp's 32): 97%.  A histogram: 30000
	 * shared atomics with 18000 waiting: 60%.  And one with 600 of
	 * 30000 waiting (2%) and 256 global atomics for 2 blocks. */
	static const struct rule_case cases[] = {
		{ "atomics", "\"atomics\":4096,\"global_atomics\":4096,"
			     "\"global_atomic_conflicts\":3968,\"blocks\":16",
		  "global atomics in naughty<4>: 97% of the lanes waited for another lane of their "
		  "warp on the same address, as atomics to one address serialise; combine in "
		  "registers (warp shuffles) or shared memory first, then one atomic per warp or "
		  "block" },
		{ "atomics", "\"atomics\":30000,\"shared_atomics\":30000,"
			     "\"shared_atomic_conflicts\":18000,\"blocks\":2",
		  "shared atomics in naughty<4>: 60% of the lanes waited for another lane of their "
		  "warp on the same address: combine in registers first, or give each warp its "
		  "own copy" },
		{ "atomics", "\"atomics\":30256,\"shared_atomics\":30000,"
			     "\"shared_atomic_conflicts\":600,\"global_atomics\":256,"
			     "\"global_atomic_conflicts\":0,\"blocks\":2",
		  NULL },
	};
	char *json = kernels_result("pass", "{\"name\":\"hist(int)\",\"atomics\":30256,"
				    "\"shared_atomics\":30000,\"shared_atomic_conflicts\":600,"
				    "\"global_atomics\":256,\"global_atomic_conflicts\":0}",
				    "\"atomics\":30256,\"shared_atomics\":30000,"
				    "\"shared_atomic_conflicts\":600,\"global_atomics\":256,"
				    "\"global_atomic_conflicts\":0,\"blocks\":2");
	char **lines;
	size_t n;

	EXPECT_RULES(cases);
	n = run_insights(json, &lines);
	cr_expect_str_eq(line(lines, n, "atomics"), "atomics: 30000 in shared memory, 256 in "
						   "global memory (128.0 per block), few lanes "
						   "of a warp on one address");
	run_insights_free(lines, n);
	free(json);
}

Test(insight, a_run_that_crashed_is_not_read_for_what_it_did)
{
	/* the kernel faulted on its first load: nothing was counted, which
	 * says nothing about what it would have read */
	char *json = kernels_result("runtime_error", "{\"name\":\"add_kernel(float const*)\"}",
				    "\"launches\":1,\"thread_instructions\":320,"
				    "\"warp_instructions\":10,\"blocks\":1");
	char **lines;

	cr_expect_eq(run_insights(json, &lines), 0);
	run_insights_free(lines, 0);
	free(json);
}

/* NCCL's communication model, as NCCL on simt writes it: one all-reduce of
 * 1 MiB over 4 ranks, each sending 2 * 3/4 * 1048576 = 1572864 bytes, which
 * take 1572864 / 450e9 = 3.495 us on NVLink 4, / 64e9 = 24.58 us on PCIe 5
 * and / 50e9 = 31.46 us on IB 400; algbw 1048576 / 3.495 us = 300 GB/s,
 * busbw 300 * 2 * 3/4 = 450 GB/s.  Two sends of 1 MB each over PCIe 5 at
 * 1.6 GB/s would be 1.25 ms: the ms form. */
Test(insight, comm_model_is_shown_as_modelled)
{
	const char *json =
		"{\"status\":\"pass\",\"simt\":{\"total\":{\"launches\":1},\"comm_model\":{"
		"\"what\":\"modelled\",\"links\":{\"nvlink4\":450,\"pcie5\":64,\"ib400\":50},"
		"\"collectives\":{\"all_reduce\":{\"calls\":1,\"bytes\":1048576,"
		"\"bytes_sent\":6291456,\"bytes_received\":6291456,\"ranks\":[],"
		"\"nvlink4\":{\"seconds\":3.49525333e-06,\"algbw_GBps\":300,\"busbw_GBps\":450},"
		"\"pcie5\":{\"seconds\":2.4576e-05,\"algbw_GBps\":42.667,\"busbw_GBps\":64},"
		"\"ib400\":{\"seconds\":3.145728e-05,\"algbw_GBps\":33.333,\"busbw_GBps\":50}},"
		"\"send_recv\":{\"calls\":2,\"bytes\":2000000,"
		"\"pcie5\":{\"seconds\":0.00125,\"algbw_GBps\":1.6,\"busbw_GBps\":1.6}}}}}}";
	char **lines;
	size_t n = run_comm_model(json, &lines);

	cr_assert_eq(n, 3);
	cr_assert_str_eq(lines[0], "modelled, not measured: the bytes NCCL's ring algorithm "
				   "moves, over links of NVLink 4 450 GB/s, PCIe 5 64 GB/s, IB 400 "
				   "50 GB/s per direction");
	cr_assert_str_eq(lines[1], "all_reduce: 1 call, 1.05 MB: modelled NVLink 4 3.5 us, "
				   "PCIe 5 24.6 us, IB 400 31.5 us; on NVLink 4 algbw 300 GB/s, "
				   "busbw 450 GB/s");
	cr_assert_str_eq(lines[2], "send_recv: 2 calls, 2.00 MB: modelled PCIe 5 1.25 ms; on "
				   "PCIe 5 algbw 1.6 GB/s, busbw 1.6 GB/s");
	run_insights_free(lines, n);
}

Test(insight, no_comm_model_without_nccl)
{
	char **lines;

	cr_assert_eq(run_comm_model("{\"simt\":{\"total\":{\"launches\":1}}}", &lines), 0);
	cr_assert_null(lines);
	cr_assert_eq(run_comm_model(NULL, &lines), 0);
	cr_assert_eq(run_comm_model("not json", &lines), 0);
}
