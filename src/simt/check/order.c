/* Stream order (order.h explains the model). */
#include "check/order.h"
#include "check/hazard.h"
#include "check/hazard.h"

#include <stdlib.h>
#include <string.h>

struct simt_order_vc {
	uint32_t n;
	uint32_t *c;
	double t;       /* the modelled time, ns (order.h) */
};

struct lane {
	bool legacy, blocking, live;
	int device;
	uint32_t number;
	uint32_t node;              /* a graph node's lane: its index + 1 */
	uint32_t thread;            /* a per-thread default stream's thread */
	uint32_t seq;               /* operations issued to it */
	struct simt_order_vc vc;    /* what its next operation follows */
	/* the bases of its operations first, first + 1, ... not yet seen
	 * done by the host */
	uint32_t first, nb, capb;
	uint32_t *bases;
};

static struct lane *lanes;
static uint32_t nlanes, caplanes;
static int32_t legacy_of[SIMT_MAX_GPUS];
static bool legacy_made;
static uint32_t streams_made, threads_made;
static bool node_lanes_made;
static struct simt_order_vc host;

/* Operations the host has not seen done, in issue order (rising bases):
 * ops[lo] to ops[n - 1]. */
static struct simt_order_op *ops;
static size_t ops_lo, ops_n, ops_cap;

/* The current operation. */
static struct simt_order_vc cur_vc;
static uint32_t cur_lane = UINT32_MAX;
static struct simt_order_op cur_op;

/* One-entry memo of simt_order_unordered per host thread (the threads
 * that run a kernel's blocks look up at once): clocks in (lo, hi] belong
 * to memo_op (NULL: ordered), valid while memo_gen is the generation. */
static uint64_t generation = 1;
static _Thread_local uint64_t memo_gen;
static _Thread_local uint32_t memo_lo, memo_hi;
static _Thread_local const struct simt_order_op *memo_op;

static uint32_t vc_get(const struct simt_order_vc *v, uint32_t i)
{
	return i < v->n ? v->c[i] : 0;
}

static void vc_set(struct simt_order_vc *v, uint32_t i, uint32_t x)
{
	if (i >= v->n) {
		v->c = simt_xrealloc(v->c, (size_t)(i + 1) * sizeof v->c[0]);
		memset(v->c + v->n, 0, (size_t)(i + 1 - v->n) * sizeof v->c[0]);
		v->n = i + 1;
	}
	v->c[i] = x;
}

static void vc_join(struct simt_order_vc *d, const struct simt_order_vc *s)
{
	uint32_t i;

	for (i = s->n; i-- > 0;)
		if (s->c[i] > vc_get(d, i))
			vc_set(d, i, s->c[i]);
	if (s->t > d->t)
		d->t = s->t;
}

static void vc_copy(struct simt_order_vc *d, const struct simt_order_vc *s)
{
	d->c = simt_xrealloc(d->c, (size_t)(s->n ? s->n : 1) * sizeof d->c[0]);
	if (s->n)
		memcpy(d->c, s->c, (size_t)s->n * sizeof d->c[0]);
	d->n = s->n;
	d->t = s->t;
}

static uint32_t lane_add(int device, bool blocking, bool legacy)
{
	struct lane *l;

	if (nlanes == caplanes) {
		caplanes = caplanes ? 2 * caplanes : 16;
		lanes = simt_xrealloc(lanes, caplanes * sizeof *lanes);
	}
	l = &lanes[nlanes];
	memset(l, 0, sizeof *l);
	l->legacy = legacy;
	l->blocking = blocking;
	l->live = true;
	l->device = device;
	l->first = 1;
	vc_copy(&l->vc, &host);
	return nlanes++;
}

uint32_t simt_order_default_lane(int device)
{
	if (!legacy_made) {
		int d;

		for (d = 0; d < SIMT_MAX_GPUS; d++)
			legacy_of[d] = -1;
		legacy_made = true;
	}
	if (legacy_of[device] < 0)
		legacy_of[device] = (int32_t)lane_add(device, true, true);
	return (uint32_t)legacy_of[device];
}

/* A destroyed stream's or graph's lane, taken again once the host has
 * seen all its work done (what follows is ordered after it anyway), or a
 * new one. */
static uint32_t lane_take(int device, bool blocking)
{
	uint32_t i;

	for (i = 0; i < nlanes; i++) {
		struct lane *l = &lanes[i];

		if (!l->live && !l->legacy && l->seq <= vc_get(&host, i)) {
			l->live = true;
			l->blocking = blocking;
			l->device = device;
			l->node = 0;
			l->thread = 0;
			vc_join(&l->vc, &host);
			return i;
		}
	}
	return lane_add(device, blocking, false);
}

uint32_t simt_order_lane_new(int device, bool blocking, uint32_t *number)
{
	uint32_t i = lane_take(device, blocking);

	*number = ++streams_made;
	lanes[i].number = *number;
	return i;
}

uint32_t simt_order_per_thread_lane(int device)
{
	uint32_t i = lane_add(device, true, false);

	lanes[i].thread = ++threads_made;
	return i;
}

uint32_t simt_order_node_lane(int device)
{
	node_lanes_made = true;
	/* not blocking: the legacy default stream's rules reach a graph's
	 * nodes through the lane of the stream it is launched into */
	return lane_take(device, false);
}

void simt_order_node_label(uint32_t lane, uint32_t stream_lane, uint32_t node)
{
	struct lane *l = &lanes[lane];
	const struct lane *s = &lanes[stream_lane];

	l->device = s->device;
	l->number = s->legacy ? 0 : s->number;
	l->thread = s->thread;
	l->node = node;
}

void simt_order_lane_free(uint32_t lane)
{
	if (lane < nlanes)
		lanes[lane].live = false;
}

int simt_order_lane_device(uint32_t lane)
{
	return lanes[lane].device;
}

bool simt_order_streams(void)
{
	return streams_made > 0 || threads_made > 0 || node_lanes_made;
}

/* CUDA's implicit rules: the legacy default stream waits for the
 * blocking streams of its device, and they wait for it.  A destroyed
 * stream's work still counts (its work completes). */
static void implicit(uint32_t lane)
{
	struct lane *L = &lanes[lane];
	uint32_t m;

	if (L->legacy) {
		for (m = 0; m < nlanes; m++)
			if (m != lane && !lanes[m].legacy && lanes[m].blocking &&
			    lanes[m].device == L->device)
				vc_join(&L->vc, &lanes[m].vc);
	} else if (L->blocking && legacy_made && legacy_of[L->device] >= 0) {
		vc_join(&L->vc, &lanes[legacy_of[L->device]].vc);
	}
}

/* Drops what the host has seen done: those operations are ordered before
 * everything still to come. */
static void trim(void)
{
	uint32_t m;

	generation++;
	while (ops_lo < ops_n &&
	       vc_get(&host, ops[ops_lo].lane) >= ops[ops_lo].seq)
		ops_lo++;
	if (ops_lo == ops_n) {
		ops_lo = ops_n = 0;
	} else if (ops_lo > 1024 && ops_lo * 2 > ops_n) {
		memmove(ops, ops + ops_lo, (ops_n - ops_lo) * sizeof *ops);
		ops_n -= ops_lo;
		ops_lo = 0;
	}
	for (m = 0; m < nlanes; m++) {
		struct lane *l = &lanes[m];
		uint32_t done = vc_get(&host, m), k;

		if (done < l->first || !l->nb)
			continue;
		k = done - l->first + 1 < l->nb ? done - l->first + 1 : l->nb;
		memmove(l->bases, l->bases + k, (l->nb - k) * sizeof l->bases[0]);
		l->nb -= k;
		l->first += k;
	}
}

uint32_t simt_order_begin(uint32_t lane, uint32_t base,
			  const struct simt_order_op *what)
{
	struct lane *L = &lanes[lane];
	uint32_t fence = base, m;

	implicit(lane);
	vc_join(&L->vc, &host);
	L->seq++;
	vc_set(&L->vc, lane, L->seq);
	vc_copy(&cur_vc, &L->vc);
	cur_lane = lane;
	if (L->nb == L->capb) {
		L->capb = L->capb ? 2 * L->capb : 16;
		L->bases = simt_xrealloc(L->bases, L->capb * sizeof L->bases[0]);
	}
	if (!L->nb)
		L->first = L->seq;
	L->bases[L->nb++] = base;
	if (ops_n == ops_cap) {
		ops_cap = ops_cap ? 2 * ops_cap : 64;
		ops = simt_xrealloc(ops, ops_cap * sizeof *ops);
	}
	cur_op = *what;
	cur_op.base = base;
	cur_op.lane = lane;
	cur_op.seq = L->seq;
	cur_op.stream = L->legacy ? 0 : L->number;
	cur_op.node = L->node;
	cur_op.thread = L->thread;
	cur_op.device = L->device;
	ops[ops_n++] = cur_op;
	trim();
	/* the oldest operation of another lane that this one does not
	 * follow bounds the clocks that need looking up */
	for (m = 0; m < nlanes; m++) {
		const struct lane *l = &lanes[m];
		uint32_t u = vc_get(&cur_vc, m) + 1;

		if (m == lane || u > l->seq || u < l->first || u - l->first >= l->nb)
			continue;
		if (l->bases[u - l->first] < fence)
			fence = l->bases[u - l->first];
	}
	return fence;
}

const struct simt_order_op *simt_order_current(void)
{
	return &cur_op;
}

const struct simt_order_op *simt_order_unordered(uint32_t clk, uint32_t *rlo,
						 uint32_t *rhi)
{
	size_t lo = ops_lo, hi = ops_n;
	const struct simt_order_op *op;

	if (memo_gen == generation && clk > memo_lo && clk <= memo_hi)
		goto out;
	/* the last operation whose base is below clk */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ops[mid].base < clk)
			lo = mid + 1;
		else
			hi = mid;
	}
	memo_gen = generation;
	if (lo == ops_lo) {
		/* older than anything outstanding */
		memo_lo = 0;
		memo_hi = ops_lo < ops_n ? ops[ops_lo].base : UINT32_MAX;
		memo_op = NULL;
		goto out;
	}
	op = &ops[lo - 1];
	memo_lo = op->base;
	memo_hi = lo < ops_n ? ops[lo].base : UINT32_MAX;
	memo_op = op->lane == cur_lane || vc_get(&cur_vc, op->lane) >= op->seq
		? NULL : op;
out:
	*rlo = memo_lo;
	*rhi = memo_hi;
	return memo_op;
}

uint32_t simt_order_retired(void)
{
	return ops_lo < ops_n ? ops[ops_lo].base : UINT32_MAX;
}

struct simt_order_vc *simt_order_record(struct simt_order_vc *ev, uint32_t lane)
{
	if (!ev)
		ev = simt_xcalloc(1, sizeof *ev);
	implicit(lane);
	vc_join(&lanes[lane].vc, &host);
	vc_copy(ev, &lanes[lane].vc);
	return ev;
}

void simt_order_event_free(struct simt_order_vc *ev)
{
	if (ev) {
		free(ev->c);
		free(ev);
	}
}

void simt_order_wait_event(uint32_t lane, const struct simt_order_vc *ev)
{
	if (ev)
		vc_join(&lanes[lane].vc, ev);
}

void simt_order_follow(uint32_t lane, uint32_t after)
{
	implicit(after);
	vc_join(&lanes[after].vc, &host);
	vc_join(&lanes[lane].vc, &lanes[after].vc);
}

void simt_order_wait_device(uint32_t lane, int device)
{
	uint32_t m;

	for (m = 0; m < nlanes; m++)
		if (m != lane && lanes[m].device == device)
			vc_join(&lanes[lane].vc, &lanes[m].vc);
}

void simt_order_host_lane(uint32_t lane)
{
	implicit(lane);
	vc_join(&host, &lanes[lane].vc);
	trim();
	simt_hs_settle();
}

void simt_order_host_event(const struct simt_order_vc *ev)
{
	if (ev) {
		vc_join(&host, ev);
		trim();
		simt_hs_settle();
	}
}

void simt_order_host_device(int device)
{
	uint32_t m;

	for (m = 0; m < nlanes; m++)
		if (device < 0 || lanes[m].device == device)
			vc_join(&host, &lanes[m].vc);
	trim();
	simt_hs_settle();
}

bool simt_order_host_knows(uint32_t lane, uint32_t seq)
{
	return vc_get(&host, lane) >= seq;
}

void simt_order_reset(void)
{
	uint32_t m;

	for (m = 0; m < nlanes; m++) {
		vc_set(&host, m, lanes[m].seq);
		lanes[m].nb = 0;
		lanes[m].first = lanes[m].seq + 1;
	}
	for (m = 0; m < nlanes; m++)
		vc_join(&lanes[m].vc, &host);
	ops_lo = ops_n = 0;
	generation++;
	simt_hs_settle();
}

/* ---- the modelled timeline ---- */

double simt_order_time_ready(uint32_t lane)
{
	implicit(lane);
	vc_join(&lanes[lane].vc, &host);
	return lanes[lane].vc.t;
}

void simt_order_time_done(uint32_t lane, double t)
{
	if (t > lanes[lane].vc.t)
		lanes[lane].vc.t = t;
}

double simt_order_time_host(void)
{
	return host.t;
}

void simt_order_time_host_at(double t)
{
	if (t > host.t)
		host.t = t;
}

double simt_order_time_event(const struct simt_order_vc *ev)
{
	return ev ? ev->t : 0;
}
