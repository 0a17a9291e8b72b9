/* insight.c — reading simt's counters the way a profiler's expert would:
 * coalescing, bank conflicts, divergence, local memory, atomics, global
 * traffic against the minimum the work needs, and where the work sits on
 * the device's roofline, each as one line that says what it means. */
#include "cudalab/run.h"

#include <cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cudalab/util.h"

static double count(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const cJSON *item(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* A byte count for people: 1.2 MB, 640 KB, 96 B. */
static char *bytes_text(double b)
{
	if (b >= 1e9)
		return xasprintf("%.2f GB", b / 1e9);
	if (b >= 1e6)
		return xasprintf("%.2f MB", b / 1e6);
	if (b >= 1e3)
		return xasprintf("%.1f KB", b / 1e3);
	return xasprintf("%.0f B", b);
}

static void add(char ***lines, size_t *n, char *line)
{
	*lines = xrealloc(*lines, (*n + 1) * sizeof **lines);
	(*lines)[(*n)++] = line;
}

/* Whether the kernels launched touched no memory (an empty kernel). */
static int idle(const cJSON *t)
{
	static const char *const keys[] = { "global_load_requests", "global_store_requests",
					    "shared_load_requests", "shared_store_requests",
					    "atomics", "local_loads", "local_stores" };
	double sum = 0;

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		sum += count(t, keys[i]);
	return count(t, "launches") > 0 && sum == 0;
}

static void lanes(const cJSON *t, char ***l, size_t *n)
{
	double ti = count(t, "thread_instructions"), wi = count(t, "warp_instructions");
	double active = wi > 0 ? ti / wi : 0;

	if (wi <= 0)
		return;
	add(l, n, xasprintf("%.1f of 32 lanes active per warp instruction%s", active,
			    active < 24 ? ": warps run partly empty (divergence, a block size that "
					  "is not a multiple of 32, or many lanes past the end)"
					: ""));
}

static void coalescing(const cJSON *t, const char *what, const char *req, const char *sec,
		       char ***l, size_t *n)
{
	double r = count(t, req), s = count(t, sec), per = r > 0 ? s / r : 0;

	if (r <= 0)
		return;
	if (per > 8.5 && per < 15.5)
		add(l, n, xasprintf("global %s: %.1f sectors per warp request, between 4 (a warp "
				    "reading 4 contiguous bytes per lane) and 16 (16 per lane): "
				    "wider loads, or 4-byte ones partly scattered; check how the "
				    "address depends on threadIdx.x", what, per));
	else if (per >= 15.5 && per < 16.5)
		add(l, n, xasprintf("global %s: 16 sectors per warp request: contiguous 16-byte "
				    "accesses (float4), or 4-byte accesses with a stride of 4", what));
	else if (per >= 16.5)
		add(l, n, xasprintf("global %s: %.1f sectors per warp request: uncoalesced, nearly "
				    "every lane touches its own 32-byte sector; make neighbouring "
				    "threads touch neighbouring addresses", what, per));
	else
		add(l, n, xasprintf("global %s: %.1f sectors per warp request: coalesced", what, per));
}

static void banks(const cJSON *t, char ***l, size_t *n)
{
	double req = count(t, "shared_load_requests") + count(t, "shared_store_requests");
	double c = count(t, "shared_bank_conflicts");

	if (req <= 0)
		return;
	if (c <= 0)
		add(l, n, xstrdup("shared memory: no bank conflicts"));
	else
		add(l, n, xasprintf("shared memory: %.2f extra bank passes per request (%.0f conflicts):"
				    " pad the tile (e.g. [32][33]) or change the index so a warp's "
				    "lanes hit 32 different banks", c / req, c));
}

static void branches(const cJSON *t, char ***l, size_t *n)
{
	double b = count(t, "branches"), d = count(t, "divergent_branches");

	if (b <= 0 || d <= 0)
		return;
	add(l, n, xasprintf("%.1f%% of branches diverged within a warp (%.0f of %.0f)%s",
			    100 * d / b, d, b,
			    d / b > 0.1 ? ": both sides run one after the other; branch on "
					  "warp-uniform values where you can"
					: ""));
}

static void local_and_atomics(const cJSON *t, char ***l, size_t *n)
{
	double ld = count(t, "local_loads") + count(t, "local_stores");
	double at = count(t, "atomics"), blocks = count(t, "blocks");

	if (ld > 0)
		add(l, n, xasprintf("local memory: %.0f accesses: an array indexed at run time (or "
				    "spilled registers) lives in slow per-thread DRAM; index with "
				    "constants or keep it small", ld));
	if (at > 0 && blocks > 0 && at <= blocks)
		add(l, n, xasprintf("atomics: %.0f for %.0f blocks: at most one per block, so "
				    "the blocks already combine their values before the atomic",
				    at, blocks));
	else if (at > 0 && blocks > 0)
		add(l, n, xasprintf("atomics: %.0f, %.1f per block: atomics to one address "
				    "serialise on a GPU; combine in registers or shared memory "
				    "first", at, at / blocks));
	else if (at > 0)
		add(l, n, xasprintf("atomics: %.0f: atomics to one address serialise on a GPU; "
				    "combine in registers or shared memory first", at));
}

/* Global traffic per call of solve against the minimum the work needs
 * (work.bytes, from the harness).  Sectors count every 32-byte piece a
 * request touched, before any cache: near 1x every byte crosses once;
 * above, data is fetched from global memory again and again. */
static void traffic(const cJSON *root, const cJSON *t, char ***l, size_t *n)
{
	const cJSON *w = item(root, "work");
	double min = count(w, "bytes"), calls = count(w, "calls");
	double moved, ratio;
	char *a, *b;

	if (min <= 0 || calls <= 0)
		return;
	moved = 32 * (count(t, "global_load_sectors") + count(t, "global_store_sectors")) / calls;
	if (moved <= 0)
		return;
	ratio = moved / min;
	a = bytes_text(moved);
	b = bytes_text(min);
	if (ratio < 1.25)
		add(l, n, xasprintf("global traffic: %s per call, %.2fx the %s the work needs: "
				    "each byte crosses once, so DRAM bandwidth sets the pace", a,
				    ratio, b));
	else if (ratio < 4)
		add(l, n, xasprintf("global traffic: %s per call, %.1fx the %s the work needs "
				    "(counted before caches): some data is fetched more than once, "
				    "as when blocks share input tiles; the L2 often catches these "
				    "re-reads, but each still costs an L2 access", a, ratio, b));
	else
		add(l, n, xasprintf("global traffic: %s per call, %.1fx the %s the work needs "
				    "(counted before caches): the same data is fetched again and "
				    "again; keep what is reused in shared memory or registers", a,
				    ratio, b));
	free(a);
	free(b);
}

/* The peak the work's FLOPs are measured against (work.peak, FP32 when the
 * result names none), its TFLOP/s in *tf (0 when the device's is unknown)
 * and a name for it. */
static const char *work_peak(const cJSON *root, double *tf)
{
	const cJSON *p = item(item(root, "work"), "peak");
	const char *key = cJSON_IsString(p) ? p->valuestring : "fp32";
	static const char *const keys[][2] = {
		{"fp32", "FP32"}, {"fp64", "FP64"}, {"tf32", "TF32 tensor"},
		{"fp16", "FP16 tensor"}, {"bf16", "BF16 tensor"}, {"fp8", "FP8 tensor"},
	};

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(key, keys[i][0]) == 0) {
			*tf = count(item(item(root, "device"), "peak_tflops"), keys[i][0]);
			return keys[i][1];
		}
	*tf = count(item(item(root, "device"), "peak_tflops"), "fp32");
	return "FP32";
}

/* Where the work sits on the device's roofline.  With the harness's
 * work figures the intensity is the algorithm's (minimum bytes), and the
 * floor is the least time the device's peaks allow per call; without them
 * it falls back on the bytes the requests touched. */
static void roofline(const cJSON *root, const cJSON *t, char ***l, size_t *n)
{
	const cJSON *w = item(root, "work"), *dev = item(root, "device");
	double bytes = count(w, "bytes"), flops = count(w, "flops");
	double gbps = count(dev, "peak_gbps"), tf;
	const char *kind = work_peak(root, &tf);
	double ridge = gbps > 0 && tf > 0 ? tf * 1e3 / gbps : 0;
	bool minimum = bytes > 0;
	double ai, mem_us, math_us;

	if (!minimum) {
		bytes = 32 * (count(t, "global_load_sectors") + count(t, "global_store_sectors"));
		flops = count(t, "flops_f32") + count(t, "flops_f64") + count(t, "flops_f16");
	}
	if (bytes <= 0 || flops <= 0)
		return;
	ai = flops / bytes;
	if (ridge <= 0) {
		/* the peaks come from the harness's table of datasheets */
		add(l, n, xasprintf("arithmetic intensity %.2f FLOP per byte touched (no peaks "
				    "are known for this device to place it against)", ai));
		return;
	}
	if (!minimum) {
		add(l, n, xasprintf("arithmetic intensity %.2f FLOP per byte touched: %s (the "
				    "ridge is about %.0f FLOP/byte in %s)",
				    ai, ai < ridge ? "memory-bound" : "compute-bound", ridge, kind));
		return;
	}
	mem_us = bytes / (gbps * 1e3);
	math_us = flops / (tf * 1e6);
	add(l, n, xasprintf("roofline: %.2f FLOP per byte of minimum traffic, %s (ridge %.0f): "
			    "at the device's peaks a call needs at least %.3g us (%.3g us of "
			    "DRAM transfer, %.3g us of %s math)",
			    ai, ai < ridge ? "memory-bound" : "compute-bound", ridge,
			    mem_us > math_us ? mem_us : math_us, mem_us, math_us, kind));
}

/* A GPU bench against the roofline of its bound: memory-bound work is
 * judged by its share of peak DRAM bandwidth, compute-bound work by its
 * share of peak FP32 throughput. */
static void gpu_roofline(const cJSON *root, char ***l, size_t *n)
{
	const cJSON *w = item(root, "work"), *d = item(root, "derived");
	const cJSON *dev = item(root, "device");
	double bytes = count(w, "bytes"), flops = count(w, "flops");
	double gbps = count(dev, "peak_gbps"), tf;
	const char *kind = work_peak(root, &tf);
	double ridge = gbps > 0 && tf > 0 ? tf * 1e3 / gbps : 0;
	const cJSON *bw = item(d, "pct_peak_bw"), *fl = item(d, "pct_peak_flops");

	if (bytes <= 0 || ridge <= 0)
		return;
	if (flops / bytes < ridge) {
		double p = cJSON_IsNumber(bw) ? bw->valuedouble : -1;

		if (p < 0)
			return;
		if (p >= 80)
			add(l, n, xasprintf("%.1f%% of peak DRAM bandwidth on memory-bound work: at the "
					    "roofline, little is left to gain", p));
		else if (p >= 50)
			add(l, n, xasprintf("%.1f%% of peak DRAM bandwidth on memory-bound work: good, "
					    "not at the roofline yet (80%% or more is reachable): keep more "
					    "bytes in flight with wider loads and more independent loads "
					    "per thread, and make sure each byte crosses once", p));
		else
			add(l, n, xasprintf("%.1f%% of peak DRAM bandwidth on memory-bound work: far "
					    "from the roofline: look at coalescing and bytes in flight; "
					    "--backend simt shows the access counters", p));
		return;
	}
	{
		double p = cJSON_IsNumber(fl) ? fl->valuedouble : -1;

		if (p < 0)
			return;
		if (p >= 60)
			add(l, n, xasprintf("%.1f%% of peak %s throughput on compute-bound work: near "
					    "what the SMs can issue", p, kind));
		else if (p >= 25)
			add(l, n, xasprintf("%.1f%% of peak %s throughput on compute-bound work: the "
					    "math units wait; more outputs per thread or per warp "
					    "(register blocking) raise the math done per byte loaded from "
					    "shared memory", p, kind));
		else
			add(l, n, xasprintf("%.1f%% of peak %s throughput on compute-bound work: far "
					    "below it, the kernel is limited by memory traffic it need "
					    "not make; reuse operands from shared memory and registers",
					    p, kind));
	}
}

/* How far the timing itself can be trusted. */
static void gpu_timing(const cJSON *root, char ***l, size_t *n)
{
	const cJSON *t = item(root, "timing");
	double noise = count(t, "noise_pct"), batched = count(t, "batched");

	if (noise > 2)
		add(l, n, xasprintf("timing noise %.1f%% (stdev over mean): the GPU may be shared "
				    "or changing clocks; compare medians of several runs", noise));
	if (batched > 1)
		add(l, n, xasprintf("a call takes under 10 us, so calls were timed %.0f at a time: "
				    "at this size launch overhead and the last wave of blocks weigh "
				    "as much as the kernel's inner loop", batched));
}

size_t run_insights(const char *result_json, char ***lines)
{
	cJSON *j = result_json ? cJSON_Parse(result_json) : NULL;
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(j, "simt"), "total");
	size_t n = 0;

	*lines = NULL;
	if (cJSON_IsObject(t) && idle(t)) {
		/* lanes "active" over a bare return say nothing */
		add(lines, &n, xasprintf("the kernels read and wrote no memory at all (%.0f warp "
					 "instructions in all): nothing they did can be seen",
					 count(t, "warp_instructions")));
	} else if (cJSON_IsObject(t)) {
		lanes(t, lines, &n);
		coalescing(t, "loads", "global_load_requests", "global_load_sectors", lines, &n);
		coalescing(t, "stores", "global_store_requests", "global_store_sectors", lines, &n);
		banks(t, lines, &n);
		branches(t, lines, &n);
		local_and_atomics(t, lines, &n);
		traffic(j, t, lines, &n);
		roofline(j, t, lines, &n);
	} else if (cJSON_IsObject(item(j, "timing")) &&
		   !cJSON_IsTrue(item(item(j, "timing"), "emulated"))) {
		gpu_roofline(j, lines, &n);
		gpu_timing(j, lines, &n);
	}
	cJSON_Delete(j);
	return n;
}

/* A link key of the model as people write it: "NVLink 4" for nvlink4. */
static const char *link_name(const char *key)
{
	static const char *const names[][2] = { { "nvlink4", "NVLink 4" },
						{ "pcie5", "PCIe 5" },
						{ "ib400", "IB 400" } };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(key, names[i][0]) == 0)
			return names[i][1];
	return key;
}

/* A modelled time: "0.053 us", "1.25 ms", "2.1 s". */
static char *seconds_text(double s)
{
	if (s < 1e-3)
		return xasprintf("%.3g us", s * 1e6);
	if (s < 1)
		return xasprintf("%.3g ms", s * 1e3);
	return xasprintf("%.3g s", s);
}

/* One kind of collective: its calls and bytes, each link's modelled time,
 * and the bandwidths on the first link. */
static char *comm_line(const cJSON *links, const cJSON *kind)
{
	char *bytes = bytes_text(count(kind, "bytes"));
	char *line = xasprintf("%s: %.0f call%s, %s: modelled", kind->string,
			       count(kind, "calls"), count(kind, "calls") == 1 ? "" : "s", bytes);
	const cJSON *link, *first = NULL;

	free(bytes);
	cJSON_ArrayForEach(link, links) {
		const cJSON *m = item(kind, link->string);
		char *t, *next;

		if (!cJSON_IsObject(m))
			continue;
		t = seconds_text(count(m, "seconds"));
		next = xasprintf("%s%s %s %s", line, first ? "," : "", link_name(link->string), t);
		free(t);
		free(line);
		line = next;
		if (!first)
			first = link;
	}
	if (first) {
		const cJSON *m = item(kind, first->string);
		char *next = xasprintf("%s; on %s algbw %.4g GB/s, busbw %.4g GB/s", line,
				       link_name(first->string), count(m, "algbw_GBps"),
				       count(m, "busbw_GBps"));
		free(line);
		line = next;
	}
	return line;
}

size_t run_comm_model(const char *result_json, char ***lines)
{
	cJSON *j = result_json ? cJSON_Parse(result_json) : NULL;
	const cJSON *model = item(item(j, "simt"), "comm_model");
	const cJSON *links = item(model, "links"), *link, *kind;
	size_t n = 0;

	*lines = NULL;
	if (cJSON_IsObject(model) && cJSON_IsObject(links)) {
		char *head = xstrdup("modelled, not measured: the bytes NCCL's ring algorithm moves, "
				     "over links of");

		cJSON_ArrayForEach(link, links) {
			char *next = xasprintf("%s%s %s %.4g GB/s", head,
					       link == links->child ? "" : ",",
					       link_name(link->string), count(links, link->string));
			free(head);
			head = next;
		}
		add(lines, &n, xasprintf("%s per direction", head));
		free(head);
		cJSON_ArrayForEach(kind, item(model, "collectives"))
			if (cJSON_IsObject(kind))
				add(lines, &n, comm_line(links, kind));
	}
	cJSON_Delete(j);
	return n;
}

void run_insights_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}
