/* Stream order: which operations issued to streams (kernels, copies,
 * memsets) happen before which, so that the hazard checker can tell two
 * accesses of global memory made by different operations apart from two
 * that nothing orders.  simt runs every operation to completion when it
 * is issued, so a race between streams would never show in the values;
 * this is what finds it.
 *
 * Each stream is a lane with a vector clock over the lanes: what the
 * next operation issued to it follows.  The host has one too: what it
 * has seen complete (a synchronize, a query that succeeded, a blocking
 * copy).  An operation issued to a lane follows the lane's previous ones,
 * whatever the host knows, and CUDA's implicit rules for the legacy
 * default stream (it waits for blocking streams of its device, and they
 * wait for it); cudaEventRecord takes the lane's clock, and
 * cudaStreamWaitEvent joins it into another lane.  Each host thread's
 * per-thread default stream (cudaStreamPerThread, and stream 0 in a
 * program built with --default-stream per-thread) is a lane of its own,
 * blocking like a stream made by cudaStreamCreate: it waits for the
 * legacy stream and the legacy stream for it, and nothing else.
 *
 * Clocks: the hazard checker gives every operation a range of clocks
 * above its base, bases rising from one operation to the next, so a
 * clock found in a shadow record names the operation that made it
 * (simt_order_find).  Every call here is made with simt_lock held. */
#ifndef SIMT_ORDER_H
#define SIMT_ORDER_H

#include <stdbool.h>
#include <stdint.h>

struct simt_module;
struct simt_order_vc;

/* One operation, as the reports name it. */
struct simt_order_op {
	uint32_t base;             /* its clocks are above base */
	uint32_t lane, seq;
	uint32_t stream;           /* 0: a default stream, else its number */
	uint32_t node;             /* a graph's node: its index + 1, else 0 */
	uint32_t thread;           /* a per-thread default stream: its host
				    * thread's number (1, 2, ... in the order
				    * they first used one), else 0 */
	int device;
	const struct simt_module *mod;   /* kernel: its module, else NULL */
	const char *name;          /* kernel (mangled) or API name */
	uint32_t grid[3], block[3];
};

/* A stream's lane: legacy default stream of device d, or a new one. */
uint32_t simt_order_default_lane(int device);
uint32_t simt_order_lane_new(int device, bool blocking, uint32_t *number);
/* A new lane for the calling host thread's per-thread default stream on
 * device (the caller keeps it: one per thread and device). */
uint32_t simt_order_per_thread_lane(int device);
void simt_order_lane_free(uint32_t lane);
/* The device a lane was made for. */
int simt_order_lane_device(uint32_t lane);
/* A lane for nodes of an executable graph: a launch runs each node as an
 * operation of its node's lane, which follows the lanes of the nodes it
 * depends on (simt_order_follow), so nodes with no path between them are
 * as unordered as two streams.  simt_order_node_label names the stream
 * the graph is launched into and the node (index + 1) for reports. */
uint32_t simt_order_node_lane(int device);
void simt_order_node_label(uint32_t lane, uint32_t stream_lane, uint32_t node);
/* The next operation of lane follows everything issued to `after` so far
 * (and what `after`'s next operation would follow). */
void simt_order_follow(uint32_t lane, uint32_t after);

/* An operation issued to lane, with clocks above base; returns the fence:
 * every operation with clocks at most the fence is ordered before it
 * (the fence is base when nothing else is outstanding).  It stays the
 * current operation until the next call. */
uint32_t simt_order_begin(uint32_t lane, uint32_t base,
			  const struct simt_order_op *what);
/* The operation whose clocks include clk, when it is not ordered before
 * the current one; NULL when it is (or is too old to matter).  Clocks in
 * (*lo, *hi] get the same answer. */
const struct simt_order_op *simt_order_unordered(uint32_t clk, uint32_t *lo,
						 uint32_t *hi);
/* The highest clock such that every record at or below it comes from an
 * operation that is ordered before everything still to be issued. */
uint32_t simt_order_retired(void);
/* Whether more than the legacy default streams exist or have existed
 * (per-thread default streams and graph node lanes count). */
bool simt_order_streams(void);
/* The current operation's description. */
const struct simt_order_op *simt_order_current(void);

/* Events and waits. */
struct simt_order_vc *simt_order_record(struct simt_order_vc *ev, uint32_t lane);
void simt_order_event_free(struct simt_order_vc *ev);
void simt_order_wait_event(uint32_t lane, const struct simt_order_vc *ev);
/* The next operation of lane follows all work issued so far to every
 * stream of device (a synchronous peer copy's rule). */
void simt_order_wait_device(uint32_t lane, int device);
void simt_order_host_lane(uint32_t lane);
void simt_order_host_event(const struct simt_order_vc *ev);
/* The host has seen every lane of device d (-1: of every device). */
void simt_order_host_device(int device);
/* Whether the host has seen operation seq of lane done. */
bool simt_order_host_knows(uint32_t lane, uint32_t seq);
/* Clocks start again (block.c): everything before counts as done. */
void simt_order_reset(void);

/* The modelled timeline (runtime/timeline.c), in nanoseconds.  Every
 * clock above also carries a time: a lane's is when everything its next
 * operation follows is done, the host's is how far the host program has
 * got, an event's is when the work it follows is done.  The joins that
 * order operations carry the times with them (the later one wins), so
 * CUDA's rules, implicit ones included, give the times as they give the
 * order. */
/* When lane's next operation may start: after what it follows and after
 * the host issues it. */
double simt_order_time_ready(uint32_t lane);
/* Lane's last operation ends at t. */
void simt_order_time_done(uint32_t lane, double t);
/* The host's time; the host waits until t. */
double simt_order_time_host(void);
void simt_order_time_host_at(double t);
/* When the work an event follows is done (0: never recorded). */
double simt_order_time_event(const struct simt_order_vc *ev);

#endif
