/* The time model's parts on inputs whose answers are worked out by hand:
 * the SM simulation on synthetic traces (latency chains, pipe and issue
 * limits, barriers, bandwidth), and the device-file parser. */
#include <criterion/criterion.h>

#include "perf/cache.h"
#include "perf/gpu.h"
#include "perf/resources.h"
#include "perf/sim.h"
#include "base/base.h"


#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A small GPU with round numbers: 4 schedulers, FP32 64 lanes per clock
 * per SM (16 per scheduler: 2 cycles a warp instruction), FMA latency 4,
 * DRAM 1000 cycles away at 8 bytes per clock for the SM. */
static struct simt_gpu test_gpu(void)
{
	struct simt_gpu g;

	memset(&g, 0, sizeof g);
	strcpy(g.id, "test");
	g.sms = 1;
	g.clock_mhz = 1000;
	g.schedulers_per_sm = 4;
	g.tp_fp32 = 64;
	g.lat_fma = 4;
	g.lat_barrier = 10;
	g.lat_l1 = 30;
	g.lat_l2 = 200;
	g.lat_dram = 1000;
	g.lat_shared = 20;
	g.line_bytes = 128;
	g.sector_bytes = 32;
	g.l1_bytes_per_clk = 128;
	return g;
}

enum { T_FMA_INDEP, T_FMA_CHAIN, T_BAR, T_LOAD_CHAIN, T_LOAD, T_EXIT, T_NOPS };

/* Instructions by pc: an FMA writing row 1 from row 2 (independent), an
 * FMA writing row 3 from row 3 (a chain), a barrier, a load writing row 4
 * through row 4 (pointer chasing), a load into row 5 from row 6, exit. */
static void test_code(struct pm_code *c, const struct simt_gpu *g)
{
	static const uint32_t r1 = 1, r2 = 2, r3 = 3, r4 = 4, r5 = 5, r6 = 6;
	int i;

	memset(c, 0, sizeof *c);
	c->n = T_NOPS;
	c->op = calloc(T_NOPS, sizeof *c->op);
	for (i = 0; i < T_NOPS; i++) {
		c->op[i].slots = 1;
		c->op[i].pipe = PM_PIPE_NONE;
	}
	c->op[T_FMA_INDEP].pipe = PM_PIPE_FMA;
	c->op[T_FMA_INDEP].pipe_cyc = (float)(32.0 / (g->tp_fp32 / 4));
	c->op[T_FMA_INDEP].lat = (float)g->lat_fma;
	pm_code_deps(c, &c->op[T_FMA_INDEP], &r1, 1, &r2, 1);
	c->op[T_FMA_CHAIN] = c->op[T_FMA_INDEP];
	pm_code_deps(c, &c->op[T_FMA_CHAIN], &r3, 1, &r3, 1);
	c->op[T_BAR].ctl = PM_CTL_BAR;
	pm_code_deps(c, &c->op[T_BAR], NULL, 0, NULL, 0);
	c->op[T_LOAD_CHAIN].pipe = PM_PIPE_LSU;
	c->op[T_LOAD_CHAIN].pipe_cyc = 4;
	c->op[T_LOAD_CHAIN].mem = PM_MEM_GLD;
	c->op[T_LOAD_CHAIN].lat_kind = PM_STALL_LONG_SB;
	pm_code_deps(c, &c->op[T_LOAD_CHAIN], &r4, 1, &r4, 1);
	c->op[T_LOAD] = c->op[T_LOAD_CHAIN];
	pm_code_deps(c, &c->op[T_LOAD], &r5, 1, &r6, 1);
	c->op[T_EXIT].ctl = PM_CTL_EXIT;
	pm_code_deps(c, &c->op[T_EXIT], NULL, 0, NULL, 0);
}

/* A block of `nwarps` warps, each issuing `n` times instruction `pc`
 * (memory ones with the given L1/L2 misses), then exit. */
static struct pm_btrace *block_of(uint32_t nwarps, uint32_t pc, uint32_t n,
				  uint16_t l1miss, uint16_t l2miss)
{
	(void)l1miss;
	(void)l2miss;
	struct pm_btrace *b = calloc(1, sizeof *b);
	uint32_t i, k;

	b->nwarps = nwarps;
	b->w = calloc(nwarps, sizeof *b->w);
	for (i = 0; i < nwarps; i++) {
		for (k = 0; k < n; k++) {
			struct pm_mref r = { .pc = pc, .sectors = 4, .waves = 1 };

			pm_wtrace_run(&b->w[i], pc, 1);
			if (pc == T_LOAD || pc == T_LOAD_CHAIN)
				pm_wtrace_mem(&b->w[i], &r);
		}
		pm_wtrace_run(&b->w[i], T_EXIT, 1);
		b->insns += b->w[i].insns;
	}
	return b;
}

static double simulate(struct pm_btrace *b, const struct simt_gpu *g,
		       uint64_t queue, uint32_t resident, double dram,
		       struct pm_sim_out *out)
{
	struct pm_code c;
	struct pm_btrace *tr[1] = { b };
	struct pm_sim_in in = {
		.g = g, .code = &c, .traces = tr, .ntraces = 1, .queue = queue,
		.resident = resident, .l2_bytes_per_clk = 64,
		.dram_bytes_per_clk = dram,
	};

	test_code(&c, g);
	simt_sim_run(&in, out);
	pm_code_free(&c);
	pm_btrace_free(b);
	return out->cycles;
}

Test(perf_sim, dependent_chain_runs_at_the_latency)
{
	struct simt_gpu g = test_gpu();
	struct pm_sim_out out;
	/* 1000 FMAs each waiting for the last: 4 cycles apiece */
	double c = simulate(block_of(1, T_FMA_CHAIN, 1000, 0, 0), &g, 1, 1, 8, &out);

	cr_expect(fabs(c - 4000) < 10, "cycles %.1f, want about 4000", c);
	cr_expect(out.stall[PM_STALL_WAIT] > 2900, "wait stalls %.0f", out.stall[PM_STALL_WAIT]);
}

Test(perf_sim, independent_fmas_fill_the_pipe)
{
	struct simt_gpu g = test_gpu();
	struct pm_sim_out out;
	/* 32 warps, 8 a scheduler, 1000 independent FMAs each: the FP32
	 * pipe takes 2 cycles a warp instruction, so 8 * 1000 * 2 */
	double c = simulate(block_of(32, T_FMA_INDEP, 1000, 0, 0), &g, 1, 1, 8, &out);

	cr_expect(fabs(c - 16000) < 50, "cycles %.1f, want about 16000", c);
	cr_expect(fabs(out.pipe_busy[PM_PIPE_FMA] / (4 * c) - 1) < 0.01,
		  "FMA pipe busy %.3f of the time", out.pipe_busy[PM_PIPE_FMA] / (4 * c));
}

Test(perf_sim, twice_the_fp32_lanes_makes_it_issue_bound)
{
	struct simt_gpu g = test_gpu();
	struct pm_sim_out out;
	double c;

	g.tp_fp32 = 128;    /* one cycle a warp instruction: issue-bound */
	c = simulate(block_of(32, T_FMA_INDEP, 1000, 0, 0), &g, 1, 1, 8, &out);
	cr_expect(fabs(c - 8000) < 50, "cycles %.1f, want about 8000", c);
}

Test(perf_sim, pointer_chasing_pays_dram_latency_each_time)
{
	struct simt_gpu g = test_gpu();
	struct pm_sim_out out;
	/* 100 dependent loads, each missing L1 and L2 */
	double c = simulate(block_of(1, T_LOAD_CHAIN, 100, 4, 4), &g, 1, 1, 8, &out);

	cr_expect(c > 100 * 1000 && c < 100 * 1030, "cycles %.1f, want about 100000", c);
	cr_expect(out.stall[PM_STALL_LONG_SB] > 0.9 * 4 * c * 0.24,
		  "long scoreboard stalls %.0f of %.0f", out.stall[PM_STALL_LONG_SB], 4 * c);
}

Test(perf_sim, streaming_loads_are_bound_by_the_dram_share)
{
	struct simt_gpu g = test_gpu();
	struct pm_sim_out out;
	/* 64 warps x 200 independent loads of 4 sectors, all from DRAM:
	 * 64 * 200 * 128 bytes at 8 bytes a cycle, plus one latency */
	double want = 64.0 * 200 * 128 / 8 + 1000;
	double c = simulate(block_of(64, T_LOAD, 200, 4, 4), &g, 1, 1, 8, &out);

	cr_expect(fabs(c / want - 1) < 0.02, "cycles %.1f, want about %.1f", c, want);
	cr_expect(fabs(out.dram_bytes - 64.0 * 200 * 128) < 1, "dram bytes %.0f", out.dram_bytes);
}

Test(perf_sim, blocks_queue_behind_the_resident_ones)
{
	struct simt_gpu g = test_gpu();
	struct pm_sim_out out;
	/* 1 warp a block, chains of 250 FMAs (1000 cycles); 2 resident, 6
	 * blocks: three generations, with 4 schedulers free enough that
	 * the two resident ones never wait on each other */
	double c = simulate(block_of(1, T_FMA_CHAIN, 250, 0, 0), &g, 6, 2, 8, &out);

	cr_expect(fabs(c - 3000) < 20, "cycles %.1f, want about 3000", c);
	cr_expect_eq(out.blocks_simulated, 6);
}

Test(perf_sim, a_long_queue_is_extrapolated_from_the_steady_state)
{
	struct simt_gpu g = test_gpu();
	struct pm_sim_in in;
	struct pm_sim_out full, cut;
	struct pm_code c;
	struct pm_btrace *b = block_of(4, T_FMA_CHAIN, 100, 0, 0), *tr[1] = { b };

	test_code(&c, &g);
	in = (struct pm_sim_in){ .g = &g, .code = &c, .traces = tr, .ntraces = 1,
				 .queue = 400, .resident = 3, .l2_bytes_per_clk = 64,
				 .dram_bytes_per_clk = 8 };
	simt_sim_run(&in, &full);
	in.max_issue = 20000;
	simt_sim_run(&in, &cut);
	cr_expect(cut.extrapolated && !full.extrapolated);
	cr_expect(cut.blocks_simulated < 400);
	cr_expect(fabs(cut.cycles / full.cycles - 1) < 0.02, "extrapolated %.0f, simulated %.0f",
		  cut.cycles, full.cycles);
	pm_code_free(&c);
	pm_btrace_free(b);
}

/* A block whose warp 0 runs 500 chained FMAs before a barrier and warp 1
 * none: warp 1 waits, then both run 100 more. */
Test(perf_sim, a_barrier_holds_the_early_warp)
{
	struct simt_gpu g = test_gpu();
	struct pm_sim_out out;
	struct pm_btrace *b = calloc(1, sizeof *b);
	uint32_t k;

	b->nwarps = 2;
	b->w = calloc(2, sizeof *b->w);
	for (k = 0; k < 500; k++)
		pm_wtrace_run(&b->w[0], T_FMA_CHAIN, 1);
	pm_wtrace_run(&b->w[0], T_BAR, 1);
	pm_wtrace_run(&b->w[1], T_BAR, 1);
	for (k = 0; k < 100; k++) {
		pm_wtrace_run(&b->w[0], T_FMA_CHAIN, 1);
		pm_wtrace_run(&b->w[1], T_FMA_CHAIN, 1);
	}
	pm_wtrace_run(&b->w[0], T_EXIT, 1);
	pm_wtrace_run(&b->w[1], T_EXIT, 1);
	simulate(b, &g, 1, 1, 8, &out);
	/* 500*4 to the barrier, 10 to release, then 100*4 */
	cr_expect(fabs(out.cycles - 2410) < 15, "cycles %.1f, want about 2410", out.cycles);
	cr_expect(out.stall[PM_STALL_BARRIER] > 1900, "barrier stalls %.0f",
		  out.stall[PM_STALL_BARRIER]);
}

/* ---- the L1 of the replay: lines on their way are shared ---- */

/* Code for the tests below: pcs 0..3 are load r5 <- r6, fma r7 <- r5,
 * load r8 <- r6, fma r9 <- r8; pc 4 exits. */
static void load_use_code(struct pm_code *c)
{
	static const uint32_t r7 = 7, r8 = 8, r5 = 5, r6 = 6, r9 = 9;
	uint32_t i;

	memset(c, 0, sizeof *c);
	c->n = 5;
	c->op = calloc(5, sizeof *c->op);
	for (i = 0; i < 4; i += 2) {
		c->op[i].pipe = PM_PIPE_LSU;
		c->op[i].pipe_cyc = 1;
		c->op[i].slots = 1;
		c->op[i].mem = PM_MEM_GLD;
		c->op[i].lat_kind = PM_STALL_LONG_SB;
		c->op[i + 1].pipe = PM_PIPE_FMA;
		c->op[i + 1].pipe_cyc = 2;
		c->op[i + 1].slots = 1;
		c->op[i + 1].lat = 4;
	}
	pm_code_deps(c, &c->op[0], &r5, 1, &r6, 1);
	pm_code_deps(c, &c->op[1], &r7, 1, &r5, 1);
	pm_code_deps(c, &c->op[2], &r8, 1, &r6, 1);
	pm_code_deps(c, &c->op[3], &r9, 1, &r8, 1);
	c->op[4].ctl = PM_CTL_EXIT;
	c->op[4].slots = 1;
	pm_code_deps(c, &c->op[4], NULL, 0, NULL, 0);
}

static void run_on(struct pm_code *c, struct pm_btrace *b, const struct simt_gpu *g,
		   struct pm_sim_out *out)
{
	struct pm_btrace *tr[1] = { b };
	struct pm_sim_in in = {
		.g = g, .code = c, .traces = tr, .ntraces = 1, .queue = 1,
		.resident = 1, .l2_bytes_per_clk = 64, .dram_bytes_per_clk = 64,
		.active_sms = 1, .l1_bytes = 32768,
	};

	simt_sim_run(&in, out);
}

/* Two warps load the same line, one right after the other, and use it:
 * the second waits for the first one's miss instead of paying its own,
 * so both are done about one DRAM latency in, and one line came from
 * DRAM. */
Test(perf_sim, a_line_on_its_way_is_waited_for_not_fetched_again)
{
	struct simt_gpu g = test_gpu();
	struct pm_sim_out out;
	struct pm_btrace *b = calloc(1, sizeof *b);
	struct pm_code c;
	uint32_t i;

	load_use_code(&c);
	b->nwarps = 2;
	b->w = calloc(2, sizeof *b->w);
	for (i = 0; i < 2; i++) {
		struct pm_mref r = { .pc = 0, .sectors = 4, .waves = 1, .line0 = 0 };

		pm_wtrace_run(&b->w[i], 0, 2);
		pm_wtrace_mem(&b->w[i], &r);
		pm_wtrace_line(&b->w[i], 1000, 0xf);
		pm_wtrace_run(&b->w[i], 4, 1);
	}
	run_on(&c, b, &g, &out);
	cr_expect(out.cycles > 1000 && out.cycles < 1100, "cycles %.1f", out.cycles);
	cr_expect(fabs(out.dram_bytes - 128) < 1, "dram bytes %.0f, want one line", out.dram_bytes);
	/* both warps' schedulers waited for the line */
	cr_expect(out.stall[PM_STALL_LONG_SB] > 1800, "long scoreboard %.0f: the second warp "
		  "did not wait for the line", out.stall[PM_STALL_LONG_SB]);
	pm_code_free(&c);
	pm_btrace_free(b);
}

/* ---- static scheduling ---- */

/* Two independent loads, each with its use, as one straight-line run
 * whose loads a compiler hoists: they issue back to back and their
 * latencies overlap. */
Test(perf_sim, independent_loads_in_one_run_overlap)
{
	struct simt_gpu g = test_gpu();
	struct pm_sim_out out;
	struct pm_btrace *b = calloc(1, sizeof *b);
	struct pm_code c;
	uint32_t i;

	load_use_code(&c);
	b->nwarps = 1;
	b->w = calloc(1, sizeof *b->w);
	pm_wtrace_run(&b->w[0], 0, 5);
	for (i = 0; i < 4; i += 2) {
		struct pm_mref r = { .pc = i, .sectors = 4, .waves = 1, .line0 = i / 2 };

		pm_wtrace_mem(&b->w[0], &r);
		pm_wtrace_line(&b->w[0], 10 + i, 0xf);
	}
	run_on(&c, b, &g, &out);
	/* in program order the second load would wait for the first FMA:
	 * two DRAM latencies; hoisted, one */
	cr_expect(out.cycles > 1000 && out.cycles < 1200, "cycles %.1f, want one latency",
		  out.cycles);
	pm_code_free(&c);
	pm_btrace_free(b);
}

/* ---- the sector cache ---- */

Test(perf_cache, sectors_miss_once_then_hit_and_lru_evicts)
{
	struct pm_cache c;

	/* 4 lines of 128 bytes, 2 ways: 2 sets */
	pm_cache_init(&c, 512, 2);
	cr_expect_eq(pm_cache_read(&c, 5, 0x3), 0x3u);
	cr_expect_eq(pm_cache_read(&c, 5, 0x6), 0x4u, "only sector 2 is new");
	cr_expect_eq(pm_cache_read(&c, 5, 0x7), 0u);
	pm_cache_free(&c);
	/* one set of 2 ways: a third line evicts the least recently used */
	pm_cache_init(&c, 256, 2);
	pm_cache_read(&c, 1, 0xf);
	pm_cache_read(&c, 2, 0xf);
	pm_cache_read(&c, 1, 0x1);        /* 1 is now the more recent */
	pm_cache_read(&c, 3, 0xf);        /* evicts 2 */
	cr_expect_eq(pm_cache_read(&c, 1, 0xf), 0u, "line 1 was kept");
	cr_expect_eq(pm_cache_read(&c, 2, 0xf), 0xfu, "line 2 was evicted");
	pm_cache_free(&c);
}

Test(perf_cache, writes_count_each_dirty_sector_once_until_written_back)
{
	struct pm_cache c;

	pm_cache_init(&c, 256, 2);
	cr_expect_eq(pm_cache_write(&c, 7, 0x3, true), 0x3u);
	cr_expect_eq(pm_cache_write(&c, 7, 0x3, true), 0u, "already dirty");
	cr_expect_eq(pm_cache_write(&c, 7, 0x4, true), 0x4u);
	pm_cache_read(&c, 8, 0xf);
	pm_cache_read(&c, 9, 0xf);        /* evicts dirty line 7: 3 sectors */
	cr_expect_eq(c.evicted_dirty, 3u);
	cr_expect_eq(pm_cache_write(&c, 7, 0x1, false), 0u, "no allocation");
	pm_cache_free(&c);
}

/* ---- occupancy, by the occupancy calculator's rules ---- */

static struct simt_gpu occ_gpu(void)
{
	struct simt_gpu g;
	static const double co[] = { 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 };

	memset(&g, 0, sizeof g);
	g.schedulers_per_sm = 4;
	g.max_threads_per_sm = 2048;
	g.max_blocks_per_sm = 32;
	g.max_threads_per_block = 1024;
	g.regs_per_sm = 65536;
	g.max_regs_per_thread = 255;
	g.reg_alloc_unit = 256;
	g.shared_per_sm_kb = 228;
	g.shared_per_block_kb = 227;
	g.shared_reserved_per_block = 1024;
	g.shared_alloc_unit = 128;
	g.l1_shared_kb = 256;
	memcpy(g.carveouts_kb, co, sizeof co);
	g.ncarveouts = 10;
	return g;
}

Test(perf_occupancy, limits_by_warps_registers_and_shared_memory)
{
	struct simt_gpu g = occ_gpu();
	struct simt_occ o;

	/* 8 warps a block, 64 warps an SM */
	simt_occ_compute(&g, 256, 32, 0, &o);
	cr_expect_eq(o.blocks, 8);
	cr_expect_str_eq(o.limiter, "warps");
	/* 64 registers: 2048 a warp, 8 warps per sub-partition of 16384 */
	simt_occ_compute(&g, 256, 64, 0, &o);
	cr_expect_eq(o.blocks, 4);
	cr_expect_str_eq(o.limiter, "registers");
	/* 40 registers round to 1280 a warp: 12 warps a sub-partition, 48
	 * an SM, 12 blocks of 4 warps */
	simt_occ_compute(&g, 128, 40, 0, &o);
	cr_expect_eq(o.blocks, 12);
	/* 37 registers are 1184 a warp, allocated as 1280: 12 blocks, not
	 * the 13 that 1184 would allow */
	simt_occ_compute(&g, 128, 37, 0, &o);
	cr_expect_eq(o.blocks, 12);
	/* 48 KiB + the 1 KiB reserve: 4 blocks in 228 KiB */
	simt_occ_compute(&g, 256, 32, 48 * 1024, &o);
	cr_expect_eq(o.blocks, 4);
	cr_expect_str_eq(o.limiter, "shared memory");
	cr_expect_eq(o.smem_alloc, 49 * 1024);
	/* 4 x 49 KiB = 196 KiB, a carveout of its own: 60 KiB of L1 left */
	cr_expect(fabs(o.carveout_kb - 196) < 1e-9 && fabs(o.l1_kb - 60) < 1e-9,
		  "carveout %.0f, L1 %.0f", o.carveout_kb, o.l1_kb);
	/* no shared memory but the reserve: the smallest carveout that
	 * holds 8 KiB of reserves is 8 KiB */
	simt_occ_compute(&g, 256, 32, 0, &o);
	cr_expect(fabs(o.carveout_kb - 8) < 1e-9, "carveout %.0f", o.carveout_kb);
	/* too many threads: cannot launch */
	simt_occ_compute(&g, 2048, 32, 0, &o);
	cr_expect_eq(o.blocks, 0);
}

/* ---- device files ---- */

static const char good_file[] =
	"# a test GPU\n"
	"source a = a document\n"
	"name = Test GPU [a]\n"
	"arch = sm_90 [a, table 1]\n";

static const char *const nums[] = {
		"cc = 9.0", "sms = 132", "clock_mhz = 1980", "schedulers_per_sm = 4",
		"max_threads_per_sm = 2048", "max_blocks_per_sm = 32",
		"max_threads_per_block = 1024", "regs_per_sm = 65536",
		"max_regs_per_thread = 255", "reg_alloc_unit = 256",
		"shared_per_sm_kb = 228", "shared_per_block_kb = 227",
		"shared_reserved_per_block = 1024", "shared_alloc_unit = 128",
		"l1_shared_kb = 256", "shared_carveouts_kb = 0 8 16 228", "tp_fp16 = 256",
		"tp_fp32 = 128", "tp_fp64 = 64", "tp_sfu = 16", "tp_int_add = 64",
		"tp_int_mul = 64", "tp_shift = 64", "tp_compare = 64", "tp_logic = 64",
		"tp_bitrev = 16", "tp_popc = 16", "tp_clz = 16", "tp_shfl = 32",
		"tp_redux = 16", "tp_conv = 16", "tp_conv64 = 16", "tp_conv_small = 64",
		"tc_fp16_f32acc = 989", "tc_fp16_f16acc = 989", "tc_bf16 = 989",
		"tc_tf32 = 494", "tc_fp8 = 1979", "tc_int8 = 1979", "tc_fp64 = 67",
		"lat_fma = 4", "lat_alu = 4", "lat_imad = 4", "lat_fp64 = 8",
		"lat_sfu = 18", "lat_conv = 14", "lat_shared = 30",
		"lat_l1 = 32", "lat_l2 = 280", "lat_dram = 622", "lat_tensor = 30",
		"lat_atomic_global = 300", "sector_bytes = 32",
		"line_bytes = 128", "l1_bytes_per_clk = 128", "shared_bytes_per_clk = 128",
		"shared_banks = 32", "l2_kb = 51200", "l2_gbps = 9477", "dram_gbps = 3352",
		"dram_gbps_measured = 3255", "pcie_gbps = 52", "pcie_latency_us = 8",
		"nvlink_gbps = 400", "copy_engines = 3",
};
#define NNUMS (sizeof nums / sizeof nums[0])

static int parse_with(const char *extra, struct simt_gpu *g, struct simt_buf *err)
{
	struct simt_buf b = {0};
	size_t i;
	int r;

	simt_buf_add(&b, good_file, strlen(good_file));
	for (i = 0; i < NNUMS; i++)
		simt_buf_printf(&b, "%s [a]\n", nums[i]);
	simt_buf_add(&b, extra, strlen(extra));
	r = simt_gpu_parse("devices/test.gpu", b.s, b.len, g, err);
	simt_buf_free(&b);
	return r;
}

Test(perf_gpu, a_complete_file_is_read_and_gaps_are_filled)
{
	struct simt_gpu g;
	struct simt_buf err = {0};

	cr_assert_eq(parse_with("", &g, &err), 0, "%s", err.s ? err.s : "");
	cr_expect_str_eq(g.id, "test");
	cr_expect_str_eq(g.name, "Test GPU");
	cr_expect_eq(g.arch_num, 90);
	cr_expect_eq(g.ncarveouts, 4);
	cr_expect(fabs(g.carveouts_kb[3] - 228) < 1e-9);
	/* no shuffle latency given: a shared-memory load's */
	cr_expect(fabs(g.lat_shfl - 30) < 1e-9);
	simt_buf_free(&err);
}

/* The error for a file with `extra` as its last line: `want`, with "#"
 * standing for that line's number. */
static void expect_error(const char *extra, const char *want)
{
	struct simt_gpu g;
	struct simt_buf err = {0};
	char text[256];
	const char *hash = strchr(want, '#');

	/* four lines of good_file, one a number, then extra */
	if (hash)
		snprintf(text, sizeof text, "%.*s%d%s", (int)(hash - want), want,
			 (int)(4 + NNUMS + 1), hash + 1);
	else
		snprintf(text, sizeof text, "%s", want);
	cr_expect_eq(parse_with(extra, &g, &err), -1, "accepted: %s", extra);
	cr_expect(err.s && strstr(err.s, text), "error '%s', want '%s'",
		  err.s ? err.s : "", text);
	simt_buf_free(&err);
}

Test(perf_gpu, every_broken_rule_is_named_with_its_line)
{
	expect_error("lat_shfl = 20\n", "devices/test.gpu:#: 'lat_shfl' cites no source");
	expect_error("lat_shfl = 20 [b]\n", "devices/test.gpu:#: lat_shfl cites 'b'");
	expect_error("sm_count = 3 [a]\n", "devices/test.gpu:#: unknown key 'sm_count'");
	expect_error("sms = 3 [a]\n", "devices/test.gpu:#: sms is already set on line 6");
	expect_error("lat_shfl = 20us [a]\n", "'20us' is not a number for lat_shfl");
	expect_error("lat_shfl = -1 [a]\n", "'-1' is not a number for lat_shfl");
	expect_error("just words\n", "devices/test.gpu:#: expected 'key = value [source]'");
	expect_error("source b = unused\n", "devices/test.gpu:#: source 'b' is declared but never cited");
}

/* The rules between keys, on the good file with one key changed. */
static void expect_rule(const char *from, const char *to, const char *want)
{
	struct simt_buf b = {0}, err = {0};
	struct simt_gpu g;
	char *text;
	size_t i;

	simt_buf_add(&b, good_file, strlen(good_file));
	for (i = 0; i < NNUMS; i++)
		simt_buf_printf(&b, "%s [a]\n", strcmp(nums[i], from) == 0 ? to : nums[i]);
	text = b.s;
	cr_expect_eq(simt_gpu_parse("devices/test.gpu", text, b.len, &g, &err), -1,
		     "accepted %s", to);
	cr_expect(err.s && strstr(err.s, want), "error '%s', want '%s'", err.s ? err.s : "", want);
	simt_buf_free(&b);
	simt_buf_free(&err);
}

Test(perf_gpu, rules_between_keys_hold)
{
	expect_rule("shared_carveouts_kb = 0 8 16 228", "shared_carveouts_kb = 0 16 8 228",
		    "shared_carveouts_kb must ascend");
	expect_rule("shared_carveouts_kb = 0 8 16 228", "shared_carveouts_kb = 0 8 16 200",
		    "the largest carveout is not shared_per_sm_kb");
	expect_rule("shared_per_block_kb = 227", "shared_per_block_kb = 300",
		    "shared_per_block_kb exceeds shared_per_sm_kb");
	expect_rule("cc = 9.0", "cc = 8.6", "cc 8.6 does not agree with arch sm_90");
}

/* Every device file the lab ships is read without complaint. */
Test(perf_gpu, every_shipped_device_file_loads)
{
	static const char *const ids[] = {
		"h100-sxm", "h100-pcie", "a100-sxm", "rtx-a6000", "rtx3090", "rtx4090",
		"l4", "t4", "v100-sxm2",
	};
	size_t i;

	for (i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		struct simt_buf err = {0};
		struct simt_gpu g;
		char *path = simt_xasprintf("%s/devices/%s.gpu", CUDALAB_SRCDIR, ids[i]);

		cr_expect_eq(simt_gpu_load(path, &g, &err), 0, "%s", err.s ? err.s : path);
		cr_expect_str_eq(g.id, ids[i]);
		free(path);
		simt_buf_free(&err);
	}
}

Test(perf_gpu, a_missing_key_is_named)
{
	struct simt_gpu g;
	struct simt_buf err = {0};
	const char *text = "source a = x\nname = N [a]\n";

	cr_expect_eq(simt_gpu_parse("x.gpu", text, strlen(text), &g, &err), -1);
	cr_expect(err.s && strstr(err.s, "x.gpu: missing key 'arch'"), "%s", err.s ? err.s : "");
	simt_buf_free(&err);
}

Test(perf_gpu, ptxas_reports_are_read)
{
	static const char log[] =
		"ptxas info    : 0 bytes gmem\n"
		"ptxas info    : Compiling entry function '_Z2shPf' for 'sm_80'\n"
		"ptxas info    : Function properties for _Z2shPf\n"
		"    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n"
		"ptxas info    : Used 10 registers, used 1 barriers, 8192 bytes smem, 360 bytes cmem[0]\n";
	struct simt_kres r;

	cr_assert_eq(simt_kres_parse(log, "_Z2shPf", &r), 0);
	cr_expect_eq(r.regs, 10);
	cr_expect_eq(r.barriers, 1);
	cr_expect_eq(r.smem_static, 8192u);
	cr_expect_eq(r.stack, 8u);
	cr_expect_eq(r.spill_stores, 4u);
	cr_expect_eq(r.spill_loads, 12u);
	cr_expect_neq(simt_kres_parse(log, "_Z5otherv", &r), 0);
}
