/* The modelled timeline: when the time model is on (CUDALAB_SIMT_PREDICT),
 * every operation issued to a stream gets a start and an end on the named
 * GPU's clock, so that events, cudaEventElapsedTime and the host's waits
 * tell the time the program would take there rather than the time simt
 * took.
 *
 * Streams keep CUDA's order (check/order.h carries the times with the
 * order: a lane cannot start its next operation before what it follows
 * is done, nor before the host has issued it).  Operations of different
 * streams overlap where the hardware would let them: each device has
 * engines, and an operation holds a share of one while it runs.  A
 * kernel holds the part of the GPU's block slots its grid fills (a grid
 * of a full wave or more holds it all, so two such kernels run one after
 * the other), a copy holds its direction's copy engine, which PCIe
 * serves both ways at once.
 *
 * The host: every operation it enqueues costs it launch_host_us (the
 * device file's, else 3 us, the null-kernel launch overhead measured on
 * recent GPUs and drivers: NVIDIA developer forums, "Too much time for
 * kernel launch latency", thread 233645, 2022); it waits where CUDA says
 * it waits (synchronous copies to or from host memory, copies with
 * pageable memory, the synchronize calls); its own computing between
 * calls is not modelled and counts as nothing.
 *
 * The counters "timeline.*" (cudalab_simt_counter, and a "timeline"
 * object in the counters JSON) tell how much of that time kernels and
 * copies of one device shared: per device, how long some kernel of the
 * device ran, how long some copy issued to one of its streams ran, and
 * how long both at once.  A copy counts on the device of its stream, on
 * whose copy engine a GPU runs it, not on the device its bytes leave:
 * rank r's receive on a second stream overlaps rank r's compute, the same
 * receive queued behind that compute does not, whatever the sender was
 * doing meanwhile.  Copies are every cudaMemcpy* that touches device
 * memory (to and from the host, within a device, between devices, direct
 * or staged); memsets are not copies. */
#include "runtime/runtime.h"
#include "check/order.h"
#include "perf/gpu.h"
#include "perf/predict.h"
#include "perf/counters.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOST_US_FALLBACK 3.0

enum engine_kind { ENG_COMPUTE, ENG_H2D, ENG_D2H, ENG_D2D, ENG_PEER, ENG_N };

/* The operations holding an engine: [s, e) with a share of it. */
struct hold {
	double s, e, share;
};

struct engine {
	struct hold *v;
	size_t n, cap;
};

static struct engine engines[SIMT_MAX_GPUS][ENG_N];

/* What the counters tell: per device, the kernels' and the copies' spans
 * still able to meet a later one, the time each kind was busy, and the
 * time both were.  The sums are read from any thread (tally_lock). */
enum busy_kind { BUSY_COMPUTE, BUSY_COPY, BUSY_N };
static struct engine spans[SIMT_MAX_GPUS][BUSY_N];
static double busy_ns[SIMT_MAX_GPUS][BUSY_N], overlap_ns[SIMT_MAX_GPUS];
static pthread_mutex_t tally_lock = PTHREAD_MUTEX_INITIALIZER;

bool simt_tl_on(void)
{
	return simt_predict_gpu() != NULL;
}

void simt_tl_adopt_device(void)
{
	const struct simt_gpu *g = simt_predict_gpu();
	struct simt_device d;
	struct cudaDeviceProp *p = &d.prop;
	static char name[256];
	int bus;

	if (!g)
		return;
	d = *simt_device();
	snprintf(name, sizeof name, "simt (predicting %s)", g->name);
	memset(p->name, 0, sizeof p->name);
	memcpy(p->name, name, strlen(name) < sizeof p->name - 1 ? strlen(name)
	       : sizeof p->name - 1);
	p->major = (int)g->cc;
	p->minor = (int)(g->cc * 10 + 0.5) % 10;
	p->multiProcessorCount = (int)g->sms;
	p->maxThreadsPerMultiProcessor = (int)g->max_threads_per_sm;
	p->maxBlocksPerMultiProcessor = (int)g->max_blocks_per_sm;
	p->maxThreadsPerBlock = (int)g->max_threads_per_block;
	p->regsPerMultiprocessor = (int)g->regs_per_sm;
	p->regsPerBlock = (int)g->regs_per_sm;
	p->sharedMemPerMultiprocessor = (size_t)(g->shared_per_sm_kb * 1024);
	p->sharedMemPerBlockOptin = (size_t)(g->shared_per_block_kb * 1024);
	p->reservedSharedMemPerBlock = (size_t)g->shared_reserved_per_block;
	p->l2CacheSize = (int)(g->l2_kb * 1024);
	if ((size_t)p->persistingL2CacheMaxSize > (size_t)p->l2CacheSize)
		p->persistingL2CacheMaxSize = p->l2CacheSize * 3 / 4;
	p->asyncEngineCount = (int)g->copy_engines;
	p->clusterLaunch = g->arch_num >= 90;
	/* the bus width stays the profile's; the memory clock gives the
	 * datasheet bandwidth with it (2 x clock x width / 8) */
	bus = p->memoryBusWidth > 0 ? p->memoryBusWidth : 4096;
	d.memory_clock_khz = (int)(g->dram_gbps * 1e9 * 8 / (2.0 * bus) / 1e3 + 0.5);
	d.clock_khz = (int)(g->clock_mhz * 1000);
	d.key = g->id;
	simt_device_adopt(&d);
}

/* The part of the engine the holds overlapping [s, e) take at most. */
static double load_over(const struct engine *en, double s, double e)
{
	double most = 0;
	size_t i, j;

	/* the load is highest at some hold's start inside [s, e), or at s */
	for (i = 0; i <= en->n; i++) {
		double at = i < en->n ? en->v[i].s : s, sum = 0;

		if (at < s)
			at = s;
		if (at >= e)
			continue;
		for (j = 0; j < en->n; j++)
			if (en->v[j].s <= at && en->v[j].e > at)
				sum += en->v[j].share;
		if (sum > most)
			most = sum;
	}
	return most;
}

/* Drops the holds that ended before the host's time: nothing starts
 * before it, so they can no longer meet an operation. */
static void forget_past(struct engine *en)
{
	double host = simt_order_time_host();
	size_t i, k;

	for (i = k = 0; i < en->n; i++)
		if (en->v[i].e > host)
			en->v[k++] = en->v[i];
	en->n = k;
}

static void hold_add(struct engine *en, struct hold h)
{
	if (en->n == en->cap) {
		en->cap = en->cap ? 2 * en->cap : 16;
		en->v = simt_xrealloc(en->v, en->cap * sizeof *en->v);
	}
	en->v[en->n++] = h;
}

/* The earliest start at or after `ready` where the engine has `share`
 * free for dur ns; the operation then holds it. */
static double place(struct engine *en, double ready, double dur, double share)
{
	double start = ready;
	size_t i;

	forget_past(en);
	if (share > 1)
		share = 1;
	for (;;) {
		double next = -1;

		if (dur <= 0 || load_over(en, start, start + dur) + share <= 1 + 1e-9)
			break;
		/* try again when the first hold running past start ends */
		for (i = 0; i < en->n; i++)
			if (en->v[i].e > start && (next < 0 || en->v[i].e < next))
				next = en->v[i].e;
		if (next < 0)
			break;
		start = next;
	}
	if (dur > 0)
		hold_add(en, (struct hold){ start, start + dur, share });
	return start;
}

static bool covers(const struct engine *en, double t)
{
	size_t i;

	for (i = 0; i < en->n; i++)
		if (en->v[i].s <= t && t < en->v[i].e)
			return true;
	return false;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Device d was busy with kind k over [s, e): adds the part of it no
 * earlier span of that kind covered to the busy time, and of that part
 * what a span of the other kind covers to the overlap.  Summed over the
 * spans, whatever the order they come in, these are the measures of the
 * union of each kind and of the two unions' intersection. */
static void tally(int d, enum busy_kind k, double s, double e)
{
	struct engine *mine = &spans[d][k], *other = &spans[d][!k];
	double *cut, busy = 0, both = 0;
	size_t n = 0, i, j;

	if (d < 0 || d >= SIMT_MAX_GPUS || e <= s)
		return;
	forget_past(mine);
	forget_past(other);
	/* between two neighbouring cuts, coverage is the same throughout */
	cut = simt_xmalloc((2 * (mine->n + other->n) + 2) * sizeof *cut);
	cut[n++] = s;
	cut[n++] = e;
	for (j = 0; j < 2; j++) {
		const struct engine *en = j ? other : mine;

		for (i = 0; i < en->n; i++) {
			if (en->v[i].s > s && en->v[i].s < e)
				cut[n++] = en->v[i].s;
			if (en->v[i].e > s && en->v[i].e < e)
				cut[n++] = en->v[i].e;
		}
	}
	qsort(cut, n, sizeof *cut, cmp_double);
	for (i = 0; i + 1 < n; i++) {
		double mid = (cut[i] + cut[i + 1]) / 2;

		if (cut[i + 1] <= cut[i] || covers(mine, mid))
			continue;
		busy += cut[i + 1] - cut[i];
		if (covers(other, mid))
			both += cut[i + 1] - cut[i];
	}
	free(cut);
	hold_add(mine, (struct hold){ s, e, 1 });
	pthread_mutex_lock(&tally_lock);
	busy_ns[d][k] += busy;
	overlap_ns[d] += both;
	pthread_mutex_unlock(&tally_lock);
}

static double host_cost_ns(const struct simt_gpu *g)
{
	return (g->launch_host_us > 0 ? g->launch_host_us : HOST_US_FALLBACK) * 1e3;
}

/* Runs an operation of dur ns on lane, holding `share` of device d's
 * engine; returns its end. */
static double run_on(uint32_t lane, int d, enum engine_kind k, double gap,
		     double dur, double share)
{
	const struct simt_gpu *g = simt_predict_gpu();
	double ready, start;

	simt_order_time_host_at(simt_order_time_host() + host_cost_ns(g));
	ready = simt_order_time_ready(lane) + gap;
	start = place(&engines[d][k], ready, dur, share);
	simt_order_time_done(lane, start + dur);
	return start + dur;
}

void simt_tl_kernel(uint32_t lane, int device, double us, double share)
{
	const struct simt_gpu *g = simt_predict_gpu();
	double end;

	if (!g || device < 0 || device >= SIMT_MAX_GPUS)
		return;
	end = run_on(lane, device, ENG_COMPUTE, g->launch_us > 0 ? g->launch_us * 1e3 : 0,
		     us * 1e3, share > 0 ? share : 1);
	tally(device, BUSY_COMPUTE, end - us * 1e3, end);
}

enum path { H2D, D2H, H2D_PAGEABLE, D2H_PAGEABLE, PEER, STAGED, D2D, SET };

/* Where p points: 0 pageable host memory, 1 pinned host memory, 2 device
 * memory (managed memory and module variables count as device memory),
 * with the device in *d (the current one where the memory has none). */
static int side(const void *p, int *d)
{
	const struct simt_alloc *a = simt_mem_find((uint64_t)(uintptr_t)p, 1);

	*d = simt_current_device();
	if (!a)
		return 0;
	if (a->kind == MEM_HOST || a->kind == MEM_REGISTERED)
		return 1;
	if (a->device >= 0)
		*d = a->device;
	return 2;
}

static void transfer(uint32_t lane, int d, enum path path, uint64_t bytes,
		     bool host_waits)
{
	const struct simt_gpu *g = simt_predict_gpu();
	double gbps, lat_us = 0, dur, end;
	enum engine_kind k;

	switch (path) {
	case H2D:
	case D2H:
		gbps = g->pcie_gbps;
		lat_us = g->pcie_latency_us;
		k = path == H2D ? ENG_H2D : ENG_D2H;
		break;
	case H2D_PAGEABLE:
	case D2H_PAGEABLE:
		/* staged through a pinned buffer by the driver, the host
		 * waiting (CUDA's rule for pageable memory) */
		gbps = g->pageable_gbps > 0 ? g->pageable_gbps : g->pcie_gbps;
		lat_us = g->pcie_latency_us;
		k = path == H2D_PAGEABLE ? ENG_H2D : ENG_D2H;
		host_waits = true;
		break;
	case STAGED:
		/* without peer access the driver stages the copy through host
		 * memory: down one device's PCIe link, up the other's */
		gbps = g->pcie_gbps / 2;
		lat_us = 2 * g->pcie_latency_us;
		k = ENG_PEER;
		break;
	case PEER:
		/* NVLink where the product has it, else through PCIe */
		gbps = g->nvlink_gbps > 0 ? g->nvlink_gbps : g->pcie_gbps;
		lat_us = g->nvlink_gbps > 0 && g->nvlink_latency_us > 0
			? g->nvlink_latency_us : g->pcie_latency_us;
		k = ENG_PEER;
		break;
	case D2D:
		/* each byte read and written in the device's DRAM */
		gbps = (g->dram_gbps_measured > 0 ? g->dram_gbps_measured
			: g->dram_gbps) / 2;
		k = ENG_D2D;
		break;
	case SET:
	default:
		gbps = g->dram_gbps_measured > 0 ? g->dram_gbps_measured : g->dram_gbps;
		k = ENG_D2D;
		break;
	}
	dur = lat_us * 1e3 + (gbps > 0 ? (double)bytes / gbps : 0);
	end = run_on(lane, d, k, 0, dur, 1);
	if (path != SET)
		tally(simt_order_lane_device(lane), BUSY_COPY, end - dur, end);
	if (host_waits)
		simt_order_time_host_at(end);
}

void simt_tl_copy(uint32_t lane, void *dst, const void *src, uint64_t bytes,
		  bool sync)
{
	int dd, sd, dk, sk;

	if (!simt_predict_gpu() || !bytes)
		return;
	dk = side(dst, &dd);
	sk = side(src, &sd);
	if (dk == 2 && sk == 2)
		transfer(lane, sd, dd == sd ? D2D
			 : simt_peer_copy_direct(sd, dd) ? PEER
			 : STAGED, bytes, false);
	else if (dk == 2)
		transfer(lane, dd, sk ? H2D : H2D_PAGEABLE, bytes, sync);
	else if (sk == 2)
		transfer(lane, sd, dk ? D2H : D2H_PAGEABLE, bytes, sync);
	/* host to host: the host copies, at no modelled cost */
}

void simt_tl_set(uint32_t lane, void *dst, uint64_t bytes)
{
	int d;

	if (!simt_predict_gpu() || !bytes)
		return;
	side(dst, &d);
	transfer(lane, d, SET, bytes, false);
}

double simt_tl_elapsed_ms(const struct simt_order_vc *start,
			  const struct simt_order_vc *end)
{
	return (simt_order_time_event(end) - simt_order_time_event(start)) / 1e6;
}

/* ---- the counters' part: "timeline.*" ---- */

static const char *const tally_names[] = { "overlap_ns", "copy_busy_ns",
					   "compute_busy_ns" };

/* Figure f (an index of tally_names) of device d, or of every device
 * summed when d < 0, in whole nanoseconds; tally_lock held. */
static unsigned long long tally_figure(int f, int d)
{
	double sum = 0;
	int i;

	for (i = d < 0 ? 0 : d; i < (d < 0 ? SIMT_MAX_GPUS : d + 1); i++)
		sum += f == 0 ? overlap_ns[i]
			: busy_ns[i][f == 1 ? BUSY_COPY : BUSY_COMPUTE];
	return (unsigned long long)(sum + 0.5);
}

/* "timeline.on": 1 when the time model is on, else 0.  The figures,
 * "timeline.NAME" in all or "timeline.NAME.D" for device D, exist only
 * when it is on: no model, no figure, rather than a 0 that would read
 * as "no overlap". */
static int tally_counter(const char *name, unsigned long long *value)
{
	const char *s = name + strlen("timeline.");
	size_t f, n;
	int d = -1;

	if (strcmp(s, "on") == 0) {
		*value = simt_tl_on();
		return 0;
	}
	for (f = 0; f < sizeof tally_names / sizeof tally_names[0]; f++) {
		n = strlen(tally_names[f]);
		if (strncmp(s, tally_names[f], n) == 0 &&
		    (s[n] == '\0' || ((s += n, d = simt_counters_dot_device(&s)) >= 0 &&
				      *s == '\0')))
			break;
	}
	if (f == sizeof tally_names / sizeof tally_names[0] || !simt_tl_on())
		return -1;
	pthread_mutex_lock(&tally_lock);
	*value = tally_figure((int)f, d);
	pthread_mutex_unlock(&tally_lock);
	return 0;
}

static void tally_fields(FILE *f, int d)
{
	size_t i;

	for (i = 0; i < sizeof tally_names / sizeof tally_names[0]; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", tally_names[i],
			tally_figure((int)i, d));
}

/* With the model on: ,"timeline":{FIGURES,"devices":[{FIGURES},...]},
 * one entry per device. */
static void tally_json(FILE *f)
{
	int d, n = simt_device_count();

	if (!simt_tl_on())
		return;
	pthread_mutex_lock(&tally_lock);
	fputs(",\"timeline\":{", f);
	tally_fields(f, -1);
	fputs(",\"devices\":[", f);
	for (d = 0; d < n && d < SIMT_MAX_GPUS; d++) {
		fputs(d ? ",{" : "{", f);
		tally_fields(f, d);
		fputc('}', f);
	}
	fputs("]}", f);
	pthread_mutex_unlock(&tally_lock);
}

__attribute__((constructor)) static void register_counters(void)
{
	simt_counters_section("timeline.", tally_json, tally_counter);
}
