/* insight.c — reading simt's counters the way a profiler's expert would:
 * coalescing, bank conflicts, divergence, local memory, atomics, global
 * traffic against the minimum the work needs, and where the work sits on
 * the device's roofline, each as one line that says what it means. */
#include "cudalab/run.h"

#include <cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
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

/* The findings so far: a growing array of struct run_insight. */
struct found {
	struct run_insight *v;
	size_t n;
};

static void add_line(struct found *f, const char *rule, int advice, char *text)
{
	f->v = xrealloc(f->v, (f->n + 1) * sizeof *f->v);
	f->v[f->n++] = (struct run_insight){ rule, advice, text };
}

/* A finding that says what was measured. */
static void note(struct found *f, const char *rule, char *text)
{
	add_line(f, rule, 0, text);
}

/* A finding that asks for a change.  Advice speaks only where the
 * counters allow no other reading: its thresholds, below, are what none
 * of the exercises' reference solutions reaches (the harness suite runs
 * every one of them through these rules and fails on any advice). */
static void advise(struct found *f, const char *rule, char *text)
{
	add_line(f, rule, 1, text);
}

/* A warp request touching this many 32-byte sectors or more has nearly
 * every lane in a sector of its own: contiguous accesses of up to 16
 * bytes a lane touch 17 at most, even misaligned.  Between 4 and 17 the
 * counters cannot tell wide contiguous accesses from scattered narrow
 * ones, and above 17 a lane's sector is often finished by its next
 * request from the cache (one row per thread, read 16 bytes at a time). */
#define UNCOALESCED_SECTORS 30.0
/* Extra bank passes per shared-memory request: every request of the
 * kernel at least 2-way conflicted on average. */
#define CONFLICT_PASSES 1.0
/* Divergence costs the lanes it leaves idle: advice when over a tenth of
 * the branches diverge and warps run under half full on average. */
#define DIVERGENT_SHARE 0.10
#define HALF_WARP 16.0
/* Local accesses per warp instruction: a register array indexed at run
 * time in a loop, not the odd spill of a struct. */
#define LOCAL_SHARE 0.05
/* Lanes of atomics that waited behind another lane of the same warp
 * instruction on the same address, per atomic lane. */
#define ATOMIC_SAME_ADDRESS 0.5

/* A kernel's counters and the short name advice gives it. */
struct kernel {
	const cJSON *c;
	char name[96];
};

/* The kernels of simt's counters; the totals as one kernel without a
 * name when the counters list none. */
static size_t kernels_of(const cJSON *simt, struct kernel **out)
{
	const cJSON *list = item(simt, "kernels"), *k;
	size_t n = 0;

	*out = NULL;
	cJSON_ArrayForEach(k, list) {
		const cJSON *name = item(k, "name");

		*out = xrealloc(*out, (n + 1) * sizeof **out);
		(*out)[n].c = k;
		run_kernel_name(cJSON_IsString(name) ? name->valuestring : "a kernel", (*out)[n].name,
			   sizeof (*out)[n].name);
		n++;
	}
	if (n == 0) {
		*out = xcalloc(1, sizeof **out);
		(*out)[0].c = item(simt, "total");
		snprintf((*out)[0].name, sizeof (*out)[0].name, "the kernel");
		n = 1;
	}
	return n;
}

/* The kernel whose figure (a value of measure) is the highest of those
 * at or over limit, or NULL. */
static const struct kernel *worst(const struct kernel *k, size_t n,
				  double (*measure)(const cJSON *), double limit, double *value)
{
	const struct kernel *w = NULL;

	for (size_t i = 0; i < n; i++) {
		double v = measure(k[i].c);

		if (v >= limit && (!w || v > *value)) {
			w = &k[i];
			*value = v;
		}
	}
	return w;
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

/* num / den of a kernel's counters, 0 without any den. */
static double ratio(const cJSON *k, const char *num, const char *den)
{
	double d = count(k, den);

	return d > 0 ? count(k, num) / d : 0;
}

static double lanes_active(const cJSON *t)
{
	return ratio(t, "thread_instructions", "warp_instructions");
}

static void lanes(const cJSON *t, struct found *f)
{
	double active = lanes_active(t);

	if (count(t, "warp_instructions") <= 0)
		return;
	note(f, "lanes", xasprintf("%.1f of 32 lanes active per warp instruction%s", active,
				   active < 24 ? ": warps run partly empty (divergence, a block size "
						 "that is not a multiple of 32, or lanes past the end "
						 "of a small input)"
					       : ""));
}

static double load_sectors(const cJSON *k)
{
	return ratio(k, "global_load_sectors", "global_load_requests");
}

static double store_sectors(const cJSON *k)
{
	return ratio(k, "global_store_sectors", "global_store_requests");
}

static void coalescing(const cJSON *t, const struct kernel *k, size_t nk, int store,
		       struct found *f)
{
	const char *what = store ? "stores" : "loads";
	double (*measure)(const cJSON *) = store ? store_sectors : load_sectors;
	double per = measure(t), bad = 0;
	const struct kernel *w = worst(k, nk, measure, UNCOALESCED_SECTORS, &bad);

	if (w) {
		advise(f, "coalescing", xasprintf("global %s in %s: %.1f sectors per warp request: "
						  "uncoalesced, every lane touches its own 32-byte "
						  "sector; make neighbouring threads touch "
						  "neighbouring addresses", what, w->name, bad));
		return;
	}
	if (per <= 0)
		return;
	if (per < 4.5)
		note(f, "coalescing", xasprintf("global %s: %.1f sectors per warp request: "
						"coalesced", what, per));
	else
		note(f, "coalescing", xasprintf("global %s: %.1f sectors per warp request (4 for a "
						"warp reading 4 contiguous bytes a lane, 16 for 16 "
						"bytes a lane)", what, per));
}

static double conflict_passes(const cJSON *k)
{
	double req = count(k, "shared_load_requests") + count(k, "shared_store_requests");

	return req > 0 ? count(k, "shared_bank_conflicts") / req : 0;
}

static void banks(const cJSON *t, const struct kernel *k, size_t nk, struct found *f)
{
	double req = count(t, "shared_load_requests") + count(t, "shared_store_requests");
	double c = count(t, "shared_bank_conflicts"), bad = 0;
	const struct kernel *w = worst(k, nk, conflict_passes, CONFLICT_PASSES, &bad);

	if (w)
		advise(f, "banks", xasprintf("shared memory in %s: %.2f extra bank passes per "
					     "request: pad the tile (e.g. [32][33]) or change the "
					     "index so a warp's lanes hit 32 different banks",
					     w->name, bad));
	else if (req > 0 && c <= 0)
		note(f, "banks", xstrdup("shared memory: no bank conflicts"));
	else if (req > 0)
		note(f, "banks", xasprintf("shared memory: %.2f extra bank passes per request "
					   "(%.0f conflicts)", c / req, c));
}

static double divergent_share(const cJSON *k)
{
	return ratio(k, "divergent_branches", "branches");
}

/* The divergent share of a kernel whose warps run under half full, else 0. */
static double costly_divergence(const cJSON *k)
{
	return lanes_active(k) < HALF_WARP ? divergent_share(k) : 0;
}

static void branches(const cJSON *t, const struct kernel *k, size_t nk, struct found *f)
{
	double b = count(t, "branches"), d = count(t, "divergent_branches"), bad = 0;
	const struct kernel *w = worst(k, nk, costly_divergence, DIVERGENT_SHARE, &bad);

	if (w)
		advise(f, "divergence", xasprintf("%.1f%% of the branches in %s diverged within "
						  "a warp, and its warps ran %.1f of 32 lanes: both "
						  "sides run one after the other; branch on "
						  "warp-uniform values where you can", 100 * bad,
						  w->name, lanes_active(w->c)));
	else if (b > 0 && d > 0)
		note(f, "divergence", xasprintf("%.1f%% of branches diverged within a warp "
						"(%.0f of %.0f)", 100 * d / b, d, b));
}

static double local_share(const cJSON *k)
{
	double wi = count(k, "warp_instructions");

	return wi > 0 ? (count(k, "local_loads") + count(k, "local_stores")) / wi : 0;
}

static void local_memory(const cJSON *t, const struct kernel *k, size_t nk, struct found *f)
{
	double ld = count(t, "local_loads") + count(t, "local_stores"), bad = 0;
	const struct kernel *w = worst(k, nk, local_share, LOCAL_SHARE, &bad);

	if (w)
		advise(f, "local", xasprintf("local memory in %s: %.0f%% of its warp instructions "
					     "are local accesses: an array indexed at run time (or "
					     "spilled registers) lives in slow per-thread DRAM; "
					     "index with constants or keep it small", w->name,
					     100 * bad));
	else if (ld > 0)
		note(f, "local", xasprintf("local memory: %.0f accesses, %.1f%% of the warp "
					   "instructions", ld, 100 * ld / count(t, "warp_instructions")));
}

static double global_same_address(const cJSON *k)
{
	return ratio(k, "global_atomic_conflicts", "global_atomics");
}

static double shared_same_address(const cJSON *k)
{
	return ratio(k, "shared_atomic_conflicts", "shared_atomics");
}

/* Atomics by the space they went to and how many lanes met another on
 * one address, where simt counts them (global_atomics, shared_atomics
 * and their *_conflicts); without those counts, only how many. */
static void atomics(const cJSON *t, const struct kernel *k, size_t nk, struct found *f)
{
	double at = count(t, "atomics"), blocks = count(t, "blocks"), bad = 0;
	double g = count(t, "global_atomics"), sh = count(t, "shared_atomics");
	const struct kernel *w;

	if (at <= 0)
		return;
	if ((w = worst(k, nk, global_same_address, ATOMIC_SAME_ADDRESS, &bad)))
		advise(f, "atomics", xasprintf("global atomics in %s: %.0f%% of the lanes waited "
					       "for another lane of their warp on the same address, "
					       "as atomics to one address serialise; combine in "
					       "registers (warp shuffles) or shared memory first, "
					       "then one atomic per warp or block", w->name,
					       100 * bad));
	else if ((w = worst(k, nk, shared_same_address, ATOMIC_SAME_ADDRESS, &bad)))
		advise(f, "atomics", xasprintf("shared atomics in %s: %.0f%% of the lanes waited "
					       "for another lane of their warp on the same address: "
					       "combine in registers first, or give each warp its "
					       "own copy", w->name, 100 * bad));
	else if (item(t, "global_atomics"))
		note(f, "atomics", xasprintf("atomics: %.0f in shared memory, %.0f in global "
					     "memory (%.1f per block), few lanes of a warp on one "
					     "address", sh, g, blocks > 0 ? g / blocks : g));
	else if (blocks > 0 && at <= blocks)
		note(f, "atomics", xasprintf("atomics: %.0f for %.0f blocks: at most one per "
					     "block", at, blocks));
	else if (blocks > 0)
		note(f, "atomics", xasprintf("atomics: %.0f, %.1f per block", at, at / blocks));
	else
		note(f, "atomics", xasprintf("atomics: %.0f", at));
}

/* Global traffic per call of solve against the minimum the work needs
 * (work.bytes, from the harness).  Sectors count every 32-byte piece a
 * request touched, before any cache: near 1x every byte crosses once;
 * above, data is fetched from global memory again and again. */
static void traffic(const cJSON *root, const cJSON *t, struct found *f)
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
		note(f, "traffic", xasprintf("global traffic: %s per call, %.2fx the %s the work needs: "
				    "each byte crosses once, so DRAM bandwidth sets the pace", a,
				    ratio, b));
	else if (ratio < 4)
		note(f, "traffic", xasprintf("global traffic: %s per call, %.1fx the %s the work needs "
				    "(counted before caches): some data is fetched more than once, "
				    "as when blocks share input tiles; the L2 often catches these "
				    "re-reads, but each still costs an L2 access", a, ratio, b));
	else
		note(f, "traffic", xasprintf("global traffic: %s per call, %.1fx the %s the work "
					     "needs (counted before caches): each byte is fetched "
					     "about %.0f times, from the L2 when it holds it%s", a,
					     ratio, b, ratio,
					     count(t, "shared_load_requests") > 0
						     ? ""
						     : "; what is reused can be kept in shared "
						       "memory or registers"));
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
static void roofline(const cJSON *root, const cJSON *t, struct found *f)
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
		note(f, "roofline", xasprintf("arithmetic intensity %.2f FLOP per byte touched (no peaks "
				    "are known for this device to place it against)", ai));
		return;
	}
	if (!minimum) {
		note(f, "roofline", xasprintf("arithmetic intensity %.2f FLOP per byte touched: %s (the "
				    "ridge is about %.0f FLOP/byte in %s)",
				    ai, ai < ridge ? "memory-bound" : "compute-bound", ridge, kind));
		return;
	}
	mem_us = bytes / (gbps * 1e3);
	math_us = flops / (tf * 1e6);
	note(f, "roofline", xasprintf("roofline: %.2f FLOP per byte of minimum traffic, %s (ridge %.0f): "
			    "at the device's peaks a call needs at least %.3g us (%.3g us of "
			    "DRAM transfer, %.3g us of %s math)",
			    ai, ai < ridge ? "memory-bound" : "compute-bound", ridge,
			    mem_us > math_us ? mem_us : math_us, mem_us, math_us, kind));
}

/* A GPU bench against the roofline of its bound: memory-bound work is
 * judged by its share of peak DRAM bandwidth, compute-bound work by its
 * share of peak FP32 throughput. */
static void gpu_roofline(const cJSON *root, struct found *f)
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
			note(f, "gpu_bandwidth", xasprintf("%.1f%% of peak DRAM bandwidth on memory-bound work: at the "
					    "roofline, little is left to gain", p));
		else if (p >= 50)
			advise(f, "gpu_bandwidth", xasprintf("%.1f%% of peak DRAM bandwidth on memory-bound work: good, "
					    "not at the roofline yet (80%% or more is reachable): keep more "
					    "bytes in flight with wider loads and more independent loads "
					    "per thread, and make sure each byte crosses once", p));
		else
			advise(f, "gpu_bandwidth", xasprintf("%.1f%% of peak DRAM bandwidth on memory-bound work: far "
					    "from the roofline: look at coalescing and bytes in flight; "
					    "--backend simt shows the access counters", p));
		return;
	}
	{
		double p = cJSON_IsNumber(fl) ? fl->valuedouble : -1;

		if (p < 0)
			return;
		if (p >= 60)
			note(f, "gpu_flops", xasprintf("%.1f%% of peak %s throughput on compute-bound work: near "
					    "what the SMs can issue", p, kind));
		else if (p >= 25)
			advise(f, "gpu_flops", xasprintf("%.1f%% of peak %s throughput on compute-bound work: the "
					    "math units wait; more outputs per thread or per warp "
					    "(register blocking) raise the math done per byte loaded from "
					    "shared memory", p, kind));
		else
			advise(f, "gpu_flops", xasprintf("%.1f%% of peak %s throughput on compute-bound work: far "
					    "below it, the kernel is limited by memory traffic it need "
					    "not make; reuse operands from shared memory and registers",
					    p, kind));
	}
}

/* How far the timing itself can be trusted. */
static void gpu_timing(const cJSON *root, struct found *f)
{
	const cJSON *t = item(root, "timing");
	double noise = count(t, "noise_pct"), batched = count(t, "batched");

	if (noise > 2)
		note(f, "gpu_noise", xasprintf("timing noise %.1f%% (stdev over mean): the GPU may be shared "
				    "or changing clocks; compare medians of several runs", noise));
	if (batched > 1)
		note(f, "gpu_batched", xasprintf("a call takes under 10 us, so calls were timed %.0f at a time: "
				    "at this size launch overhead and the last wave of blocks weigh "
				    "as much as the kernel's inner loop", batched));
}

/* Whether the program ran to its end: counters of a run that crashed or
 * was stopped describe only the part before, which may be nothing. */
static int ran_through(const cJSON *root)
{
	const cJSON *st = item(root, "status");

	return !cJSON_IsString(st) || (strcmp(st->valuestring, "runtime_error") != 0 &&
				       strcmp(st->valuestring, "timeout") != 0);
}

static void simt_counters(const cJSON *root, const cJSON *t, struct found *f)
{
	struct kernel *k;
	size_t nk;

	if (idle(t)) {
		/* lanes "active" over a bare return say nothing */
		note(f, "idle", xasprintf("the kernels read and wrote no memory at all (%.0f warp "
					  "instructions in all): nothing they did can be seen",
					  count(t, "warp_instructions")));
		return;
	}
	nk = kernels_of(item(root, "simt"), &k);
	lanes(t, f);
	coalescing(t, k, nk, 0, f);
	coalescing(t, k, nk, 1, f);
	banks(t, k, nk, f);
	branches(t, k, nk, f);
	local_memory(t, k, nk, f);
	atomics(t, k, nk, f);
	traffic(root, t, f);
	roofline(root, t, f);
	free(k);
}

size_t run_insight_list(const char *result_json, struct run_insight **out)
{
	cJSON *j = result_json ? cJSON_Parse(result_json) : NULL;
	const cJSON *t = item(item(j, "simt"), "total");
	struct found f = { NULL, 0 };

	if (cJSON_IsObject(t) && ran_through(j))
		simt_counters(j, t, &f);
	else if (cJSON_IsObject(item(j, "timing")) &&
		 !cJSON_IsTrue(item(item(j, "timing"), "emulated"))) {
		gpu_roofline(j, &f);
		gpu_timing(j, &f);
	}
	cJSON_Delete(j);
	*out = f.v;
	return f.n;
}

void run_insight_list_free(struct run_insight *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}

size_t run_insights(const char *result_json, char ***lines)
{
	struct run_insight *v;
	size_t n = run_insight_list(result_json, &v);

	*lines = n ? xcalloc(n, sizeof **lines) : NULL;
	for (size_t i = 0; i < n; i++) {
		(*lines)[i] = v[i].text;
		v[i].text = NULL;
	}
	run_insight_list_free(v, n);
	return n;
}

static void add(char ***lines, size_t *n, char *line)
{
	*lines = xrealloc(*lines, (*n + 1) * sizeof **lines);
	(*lines)[(*n)++] = line;
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
