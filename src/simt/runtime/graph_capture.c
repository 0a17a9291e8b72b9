/* Stream capture: while a stream is being captured, the operations
 * issued to it (and to the streams that join it through events) become
 * nodes of a graph instead of running, with the dependencies the streams
 * and events imply; cudaStreamEndCapture hands the graph back. */
#include "runtime/graph_int.h"

#include <stdlib.h>
#include <string.h>

static struct capture *captures;
static unsigned long long next_capture_id = 1;
static _Thread_local enum cudaStreamCaptureMode thread_mode;

bool simt_graph_capturing(const struct CUgraph_st *g)
{
	const struct capture *c;

	for (c = captures; c; c = c->next)
		if (c->graph == g)
			return true;
	return false;
}

/* ---- capture ---- */

static bool is_legacy(cudaStream_t s)
{
	return (uintptr_t)s <= 1;
}

static void invalidate(struct capture *c)
{
	c->invalid = true;
}

/* Whether blocking streams are capturing, which work on the legacy stream
 * would have to wait for; their captures are invalidated when `spoil`. */
static bool blocking_captures(bool spoil)
{
	struct capture *c;
	bool any = false;
	size_t i;

	for (c = captures; c; c = c->next)
		for (i = 0; i < c->nmembers; i++)
			if (c->members[i]->blocking) {
				if (spoil)
					invalidate(c);
				any = true;
				break;
			}
	return any;
}

/* The capture member of stream s when s is capturing; NULL with *err set
 * when the operation must fail, NULL with cudaSuccess when it runs now.
 * Called with the lock held, while captures exist. */
struct simt_stream_capture *simt_graph_member_of(cudaStream_t s, cudaError_t *err)
{
	struct simt_stream_capture **slot;
	bool blocking;

	*err = cudaSuccess;
	slot = simt_stream_capture_slot(s, &blocking);
	if (!slot) {
		if (is_legacy(s) && blocking_captures(true))
			*err = cudaErrorStreamCaptureImplicit;
		return NULL;
	}
	if (!*slot)
		return NULL;
	if ((*slot)->cap->invalid) {
		*err = cudaErrorStreamCaptureInvalidated;
		return NULL;
	}
	return *slot;
}

/* Makes n the next node of m's stream: it waits for the stream's
 * dependencies and becomes the only one. */
void simt_graph_record(struct simt_stream_capture *m, struct CUgraphNode_st *n)
{
	simt_graph_list_copy(&n->deps, &m->deps);
	m->deps.n = 0;
	simt_graph_list_add(&m->deps, n);
}

/* The common path of the hooks: finds where stream s's operation goes and,
 * when it is recorded, adds a node of `type` that fill() completes.  fill
 * returns cudaSuccess or the error that refuses the operation (which then
 * invalidates the capture). */
typedef cudaError_t (*fill_fn)(struct CUgraphNode_st *n, const void *arg);

static bool capture_op(cudaStream_t s, enum cudaGraphNodeType type,
		       fill_fn fill, const void *arg, cudaError_t *err)
{
	struct simt_stream_capture *m;
	struct CUgraphNode_st *n;
	cudaError_t e;

	simt_lock();
	if (simt_sticky() != cudaSuccess) {
		simt_unlock();
		*err = fail(simt_sticky());
		return true;
	}
	m = simt_graph_member_of(s, &e);
	if (m) {
		n = simt_graph_node_add(m->cap->graph, type, NULL, 0);
		e = fill ? fill(n, arg) : cudaSuccess;
		if (e == cudaSuccess) {
			simt_graph_record(m, n);
		} else {
			simt_graph_drop_last(m->cap->graph);
			invalidate(m->cap);
		}
	}
	simt_unlock();
	*err = e == cudaSuccess ? e : fail(e);
	return m || e != cudaSuccess;
}

struct kernel_arg {
	struct simt_kernel *k;
	dim3 grid, block;
	void **args;
	size_t shmem;
};

static cudaError_t fill_kernel(struct CUgraphNode_st *n, const void *arg)
{
	const struct kernel_arg *a = arg;
	struct kernel_node *kn = &n->u.kernel;
	cudaError_t e;

	e = simt_graph_kernel_set(kn, a->k, a->args, NULL);
	if (e != cudaSuccess)
		return e;
	kn->func = (void *)a->k->host_fun;
	kn->grid = a->grid;
	kn->block = a->block;
	kn->shmem = (unsigned)a->shmem;
	return cudaSuccess;
}

bool simt_capture_kernel(struct simt_kernel *k, dim3 grid, dim3 block,
			 void **args, size_t shmem, cudaStream_t s,
			 cudaError_t *err)
{
	struct kernel_arg a = {k, grid, block, args, shmem};

	return capture_op(s, cudaGraphNodeTypeKernel, fill_kernel, &a, err);
}

static cudaError_t fill_copy(struct CUgraphNode_st *n, const void *arg)
{
	const struct copy_node *c = arg;

	if (!simt_graph_kind_ok(c->kind))
		return cudaErrorInvalidMemcpyDirection;
	if (c->width > c->dpitch || c->width > c->spitch)
		return cudaErrorInvalidPitchValue;
	simt_graph_copy_linear(&n->u.copy, c->dst, c->dpitch, c->src, c->spitch, c->width,
			       c->height, c->kind);
	return cudaSuccess;
}

bool simt_capture_copy(void *dst, size_t dpitch, const void *src,
		       size_t spitch, size_t width, size_t height,
		       enum cudaMemcpyKind kind, cudaStream_t s,
		       cudaError_t *err)
{
	struct copy_node c;

	simt_graph_copy_linear(&c, dst, dpitch, src, spitch, width, height, kind);
	return capture_op(s, cudaGraphNodeTypeMemcpy, fill_copy, &c, err);
}

static cudaError_t fill_set(struct CUgraphNode_st *n, const void *arg)
{
	const struct cudaMemsetParams *p = arg;

	if (p->width > p->pitch)
		return cudaErrorInvalidPitchValue;
	n->u.set = *p;
	return cudaSuccess;
}

bool simt_capture_set(void *dst, size_t pitch, int value, size_t width,
		      size_t height, cudaStream_t s, cudaError_t *err)
{
	struct cudaMemsetParams p = {dst, pitch, (unsigned char)value, 1, width,
				     height};

	return capture_op(s, cudaGraphNodeTypeMemset, fill_set, &p, err);
}

static cudaError_t fill_host(struct CUgraphNode_st *n, const void *arg)
{
	n->u.host = *(const struct cudaHostNodeParams *)arg;
	return cudaSuccess;
}

bool simt_capture_host(cudaHostFn_t fn, void *data, cudaStream_t s,
		       cudaError_t *err)
{
	struct cudaHostNodeParams p = {fn, data};

	return capture_op(s, cudaGraphNodeTypeHost, fill_host, &p, err);
}

static cudaError_t fill_malloc(struct CUgraphNode_st *n, const void *arg)
{
	/* the node's address goes back through the parameters */
	return simt_graph_mem_alloc_fill(n, (struct cudaMemAllocNodeParams *)(uintptr_t)arg);
}

bool simt_capture_malloc(void **ptr, size_t size, int d, cudaStream_t s,
			 cudaError_t *err)
{
	struct cudaMemAllocNodeParams p;
	bool taken;

	memset(&p, 0, sizeof p);
	p.poolProps.allocType = 1;          /* pinned */
	p.poolProps.location.type = 1;      /* a device */
	p.poolProps.location.id = d;
	p.bytesize = size;
	taken = capture_op(s, cudaGraphNodeTypeMemAlloc, fill_malloc, &p, err);
	if (taken && *err == cudaSuccess)
		*ptr = p.dptr;
	return taken;
}

static cudaError_t fill_free(struct CUgraphNode_st *n, const void *arg)
{
	return simt_graph_mem_free_fill(n, (void *)(uintptr_t)arg);
}

bool simt_capture_free(void *p, cudaStream_t s, cudaError_t *err)
{
	return capture_op(s, cudaGraphNodeTypeMemFree, fill_free, p, err);
}

static cudaError_t fill_refuse(struct CUgraphNode_st *n, const void *arg)
{
	(void)n;
	(void)arg;
	return cudaErrorStreamCaptureUnsupported;
}

bool simt_capture_refuse(cudaStream_t s, cudaError_t *err)
{
	return capture_op(s, cudaGraphNodeTypeEmpty, fill_refuse, NULL, err);
}

/* Where event e was last recorded: in the capture in progress with that
 * id, or outside any (NULL). */
static struct capture *event_capture(cudaEvent_t e)
{
	struct simt_event_capture *ec = *simt_event_capture_slot(e);
	struct capture *c;

	if (!ec)
		return NULL;
	for (c = captures; c; c = c->next)
		if (c->id == ec->id)
			return c;
	return NULL;
}

bool simt_capture_event_record(cudaEvent_t e, cudaStream_t s, cudaError_t *err)
{
	struct simt_event_capture **slot = simt_event_capture_slot(e);
	struct simt_stream_capture *m;

	if (!simt_capture_live && !*slot)
		return false;
	simt_lock();
	m = simt_capture_live ? simt_graph_member_of(s, err) : NULL;
	if (!simt_capture_live)
		*err = cudaSuccess;
	if (m) {
		if (!*slot)
			*slot = simt_xcalloc(1, sizeof **slot);
		(*slot)->id = m->cap->id;
		simt_graph_list_copy(&(*slot)->deps, &m->deps);
	} else if (*err == cudaSuccess) {
		simt_capture_event_gone(slot);
	}
	simt_unlock();
	if (*err != cudaSuccess)
		fail(*err);
	return m || *err != cudaSuccess;
}

static void member_add(struct capture *c, struct simt_stream_capture **slot,
		       bool blocking)
{
	struct simt_stream_capture *m = simt_xcalloc(1, sizeof *m);

	m->cap = c;
	m->slot = slot;
	m->blocking = blocking;
	*slot = m;
	c->members = simt_xrealloc(c->members,
				   (c->nmembers + 1) * sizeof *c->members);
	c->members[c->nmembers++] = m;
}

/* Stream s waits for event e recorded in capture c: s joins c (or, when
 * capturing in c already, adds e's dependencies to its own). */
static cudaError_t join(cudaStream_t s, struct capture *c,
			const struct simt_event_capture *ec)
{
	struct simt_stream_capture **slot;
	bool blocking;
	size_t i;

	slot = simt_stream_capture_slot(s, &blocking);
	if (!slot) {
		invalidate(c);
		return cudaErrorStreamCaptureImplicit;
	}
	if (*slot && (*slot)->cap != c) {
		invalidate(c);
		invalidate((*slot)->cap);
		return cudaErrorStreamCaptureMerge;
	}
	if (!*slot)
		member_add(c, slot, blocking);
	for (i = 0; i < ec->deps.n; i++)
		simt_graph_list_add_new(&(*slot)->deps, ec->deps.v[i]);
	return cudaSuccess;
}

bool simt_capture_event_wait(cudaStream_t s, cudaEvent_t e, unsigned flags,
			     cudaError_t *err)
{
	struct simt_stream_capture *m;
	struct capture *c;

	*err = cudaSuccess;
	if (!simt_capture_live)
		return false;
	simt_lock();
	c = event_capture(e);
	if (c) {
		*err = c->invalid ? cudaErrorStreamCaptureInvalidated
				  : join(s, c, *simt_event_capture_slot(e));
		simt_unlock();
		if (*err != cudaSuccess)
			fail(*err);
		return true;
	}
	m = simt_graph_member_of(s, err);
	if (m && !(flags & cudaEventWaitExternal)) {
		/* waiting for work outside the capture */
		invalidate(m->cap);
		*err = cudaErrorStreamCaptureIsolation;
	} else if (m) {
		simt_graph_record(m, simt_graph_node_add(m->cap->graph, cudaGraphNodeTypeWaitEvent,
							 NULL, 0));
	}
	simt_unlock();
	if (*err != cudaSuccess)
		fail(*err);
	return m || *err != cudaSuccess;
}

/* Whether the calling thread may make potentially unsafe calls; if not,
 * the captures that forbid them are invalidated. */
static bool unsafe_allowed(void)
{
	pthread_t self = pthread_self();
	struct capture *c;
	bool ok = true;

	if (thread_mode == cudaStreamCaptureModeRelaxed)
		return true;
	for (c = captures; c; c = c->next) {
		bool mine = pthread_equal(c->thread, self);

		if ((mine && c->mode != cudaStreamCaptureModeRelaxed) ||
		    (!mine && thread_mode == cudaStreamCaptureModeGlobal &&
		     c->mode == cudaStreamCaptureModeGlobal)) {
			invalidate(c);
			ok = false;
		}
	}
	return ok;
}

cudaError_t simt_capture_unsafe(bool legacy)
{
	cudaError_t e = cudaSuccess;

	simt_lock();
	if (!unsafe_allowed())
		e = cudaErrorStreamCaptureUnsupported;
	else if (legacy && blocking_captures(true))
		e = cudaErrorStreamCaptureImplicit;
	simt_unlock();
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t simt_capture_sync(cudaStream_t s, bool device)
{
	struct simt_stream_capture **slot;
	cudaError_t e = cudaSuccess;
	struct capture *c;
	bool blocking;

	simt_lock();
	if (device) {
		for (c = captures; c; c = c->next)
			invalidate(c);
		e = captures ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
	} else {
		slot = simt_stream_capture_slot(s, &blocking);
		if (slot && *slot) {
			invalidate((*slot)->cap);
			e = cudaErrorStreamCaptureUnsupported;
		} else if (!slot && blocking_captures(true)) {
			e = cudaErrorStreamCaptureImplicit;
		} else if (!unsafe_allowed()) {
			e = cudaErrorStreamCaptureUnsupported;
		}
	}
	simt_unlock();
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t simt_capture_event_use(cudaEvent_t e)
{
	cudaError_t err = cudaSuccess;
	struct capture *c;

	simt_lock();
	c = event_capture(e);
	if (c) {
		invalidate(c);
		err = cudaErrorCapturedEvent;
	} else if (captures && !unsafe_allowed()) {
		err = cudaErrorStreamCaptureUnsupported;
	}
	simt_unlock();
	return err == cudaSuccess ? err : fail(err);
}

static void member_free(struct simt_stream_capture *m)
{
	*m->slot = NULL;
	free(m->deps.v);
	free(m);
}

void simt_capture_stream_gone(struct simt_stream_capture **slot)
{
	struct simt_stream_capture *m = *slot;
	struct capture *c;
	size_t i, j;

	if (!m)
		return;
	simt_lock();
	c = m->cap;
	for (i = j = 0; i < c->nmembers; i++)
		if (c->members[i] != m)
			c->members[j++] = c->members[i];
	c->nmembers = j;
	if (c->origin == m) {
		c->origin = NULL;
		invalidate(c);
	}
	member_free(m);
	simt_unlock();
}

void simt_capture_event_gone(struct simt_event_capture **slot)
{
	if (!*slot)
		return;
	free((*slot)->deps.v);
	free(*slot);
	*slot = NULL;
}

static cudaError_t begin(cudaStream_t stream, cudaGraph_t graph,
			 const cudaGraphNode_t *deps, size_t ndeps,
			 enum cudaStreamCaptureMode mode)
{
	struct simt_stream_capture **slot;
	struct capture *c;
	bool blocking;
	size_t i;

	if (!simt_stream_valid(stream))
		return cudaErrorInvalidResourceHandle;
	if ((unsigned)mode > cudaStreamCaptureModeRelaxed)
		return cudaErrorInvalidValue;
	slot = simt_stream_capture_slot(stream, &blocking);
	if (!slot)
		return cudaErrorStreamCaptureUnsupported;
	if (*slot)
		return cudaErrorIllegalState;
	c = simt_xcalloc(1, sizeof *c);
	c->id = next_capture_id++;
	c->graph = graph ? graph : simt_graph_new();
	c->own_graph = !graph;
	c->first_node = c->graph->nodes.n;
	c->mode = mode;
	c->thread = pthread_self();
	member_add(c, slot, blocking);
	c->origin = *slot;
	for (i = 0; i < ndeps; i++)
		simt_graph_list_add_new(&c->origin->deps, deps[i]);
	c->next = captures;
	captures = c;
	simt_capture_live++;
	return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
				   enum cudaStreamCaptureMode mode)
{
	cudaError_t e;

	ENTER();
	simt_lock();
	e = begin(stream, NULL, NULL, 0, mode);
	simt_unlock();
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream,
					  cudaGraph_t graph,
					  const cudaGraphNode_t *dependencies,
					  const cudaGraphEdgeData *dependencyData,
					  size_t numDependencies,
					  enum cudaStreamCaptureMode mode)
{
	cudaError_t e;

	(void)dependencyData;
	ENTER();
	if (!simt_graph_ok(graph))
		return fail(cudaErrorInvalidValue);
	e = simt_graph_deps_ok(graph, dependencies, numDependencies);
	if (e != cudaSuccess)
		return fail(e);
	simt_lock();
	e = begin(stream, graph, dependencies, numDependencies, mode);
	simt_unlock();
	return e == cudaSuccess ? e : fail(e);
}

/* Whether every node the capture added that nothing depends on is among
 * the origin stream's dependencies, i.e. all forked work was joined. */
static bool joined(const struct capture *c)
{
	const struct CUgraph_st *g = c->graph;
	bool *used = simt_xcalloc(g->nodes.n + 1, sizeof *used);
	bool ok = true;
	size_t i, j;

	for (i = 0; i < g->nodes.n; i++)
		for (j = 0; j < g->nodes.v[i]->deps.n; j++)
			used[g->nodes.v[i]->deps.v[j]->index] = true;
	for (i = c->first_node; ok && i < g->nodes.n; i++)
		if (!used[i] && !simt_graph_list_has(&c->origin->deps, g->nodes.v[i]))
			ok = false;
	free(used);
	return ok;
}

/* Takes every stream out of capture c and forgets c. */
static void end(struct capture *c)
{
	struct capture **p;

	while (c->nmembers)
		member_free(c->members[--c->nmembers]);
	free(c->members);
	for (p = &captures; *p != c; p = &(*p)->next)
		;
	*p = c->next;
	simt_capture_live--;
	free(c);
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
	struct simt_stream_capture **slot;
	struct capture *c;
	cudaError_t e = cudaSuccess;
	bool blocking;

	if (!simt_stream_valid(stream))
		return fail(cudaErrorInvalidResourceHandle);
	simt_lock();
	slot = simt_stream_capture_slot(stream, &blocking);
	if (!slot || !*slot) {
		simt_unlock();
		return fail(pGraph ? cudaErrorIllegalState : cudaErrorInvalidValue);
	}
	c = (*slot)->cap;
	/* a capture into the program's own graph (cudaStreamBeginCaptureToGraph)
	 * need not hand it back */
	if (!pGraph && c->own_graph) {
		simt_unlock();
		return fail(cudaErrorInvalidValue);
	}
	if (c->origin != *slot) {
		invalidate(c);
		simt_unlock();
		return fail(cudaErrorStreamCaptureUnmatched);
	}
	if (c->mode != cudaStreamCaptureModeRelaxed &&
	    !pthread_equal(c->thread, pthread_self())) {
		simt_unlock();
		return fail(cudaErrorStreamCaptureWrongThread);
	}
	if (c->invalid)
		e = cudaErrorStreamCaptureInvalidated;
	else if (!joined(c))
		e = cudaErrorStreamCaptureUnjoined;
	if (pGraph)
		*pGraph = e == cudaSuccess ? c->graph : NULL;
	if (e != cudaSuccess && c->own_graph)
		simt_graph_free(c->graph);
	end(c);
	simt_unlock();
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
				  enum cudaStreamCaptureStatus *pCaptureStatus)
{
	return cudaStreamGetCaptureInfo(stream, pCaptureStatus, NULL, NULL,
					NULL, NULL, NULL);
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
				     enum cudaStreamCaptureStatus *captureStatus_out,
				     unsigned long long *id_out,
				     cudaGraph_t *graph_out,
				     const cudaGraphNode_t **dependencies_out,
				     const cudaGraphEdgeData **edgeData_out,
				     size_t *numDependencies_out)
{
	struct simt_stream_capture **slot, *m;
	bool blocking;

	if (!captureStatus_out || (edgeData_out && !dependencies_out))
		return fail(cudaErrorInvalidValue);
	if (!simt_stream_valid(stream))
		return fail(cudaErrorInvalidResourceHandle);
	simt_lock();
	slot = simt_stream_capture_slot(stream, &blocking);
	if (!slot && simt_capture_live && blocking_captures(false)) {
		simt_unlock();
		return fail(cudaErrorStreamCaptureImplicit);
	}
	m = slot ? *slot : NULL;
	*captureStatus_out = !m ? cudaStreamCaptureStatusNone
		: m->cap->invalid ? cudaStreamCaptureStatusInvalidated
				  : cudaStreamCaptureStatusActive;
	if (m && !m->cap->invalid) {
		if (id_out)
			*id_out = m->cap->id;
		if (graph_out)
			*graph_out = m->cap->graph;
		if (dependencies_out)
			*dependencies_out = (const cudaGraphNode_t *)m->deps.v;
		if (edgeData_out)
			*edgeData_out = NULL;
		if (numDependencies_out)
			*numDependencies_out = m->deps.n;
	}
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
						cudaGraphNode_t *dependencies,
						const cudaGraphEdgeData *dependencyData,
						size_t numDependencies,
						unsigned int flags)
{
	struct simt_stream_capture *m;
	cudaError_t e;
	size_t i;

	(void)dependencyData;
	if (flags > cudaStreamSetCaptureDependencies ||
	    (numDependencies && !dependencies))
		return fail(cudaErrorInvalidValue);
	if (!simt_stream_valid(stream))
		return fail(cudaErrorInvalidResourceHandle);
	simt_lock();
	m = simt_capture_live ? simt_graph_member_of(stream, &e) : NULL;
	if (!m) {
		simt_unlock();
		return fail(cudaErrorIllegalState);
	}
	e = simt_graph_deps_ok(m->cap->graph, dependencies, numDependencies);
	if (e == cudaSuccess) {
		if (flags == cudaStreamSetCaptureDependencies)
			m->deps.n = 0;
		for (i = 0; i < numDependencies; i++)
			simt_graph_list_add_new(&m->deps, dependencies[i]);
	}
	simt_unlock();
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaThreadExchangeStreamCaptureMode(
	enum cudaStreamCaptureMode *mode)
{
	enum cudaStreamCaptureMode old = thread_mode;

	if (!mode || (unsigned)*mode > cudaStreamCaptureModeRelaxed)
		return fail(cudaErrorInvalidValue);
	thread_mode = *mode;
	*mode = old;
	return cudaSuccess;
}
