/* Executable graphs: instantiation (a private copy of the graph, its
 * nodes put in a dependency order once, memory nodes placed, lanes of the
 * stream order made), updates, and launching one, which runs its nodes
 * one after another, each on its node's lane (graph.c has the graphs). */
#include "runtime/graph_int.h"
#include "check/order.h"
#include "check/hazard.h"

#include <stdlib.h>
#include <string.h>

/* ---- instantiation ---- */

/* A min-heap of node indices: among the nodes ready to run, the one added
 * first runs first, so a captured graph runs in the order it was issued. */
struct heap {
	size_t *v, n;
};

static void heap_push(struct heap *h, size_t x)
{
	size_t i = h->n++;

	while (i && h->v[(i - 1) / 2] > x) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static size_t heap_pop(struct heap *h)
{
	size_t top = h->v[0], x = h->v[--h->n], i = 0, c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && h->v[c + 1] < h->v[c])
			c++;
		if (h->v[c] >= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	h->v[i] = x;
	return top;
}

/* Puts g's nodes (and those of its child graphs) in an order that
 * respects every dependency.  Returns 0, or -1 when the dependencies form
 * a cycle. */
static int graph_order(struct CUgraph_st *g)
{
	size_t n = g->nodes.n, i, j, k = 0;
	size_t *waiting = simt_xcalloc(n + 1, sizeof *waiting);
	struct node_list *users = simt_xcalloc(n + 1, sizeof *users);
	struct heap h = {simt_xcalloc(n + 1, sizeof(size_t)), 0};
	int rc = 0;

	for (i = 0; i < n; i++) {
		struct CUgraphNode_st *m = g->nodes.v[i];

		waiting[i] = m->deps.n;
		for (j = 0; j < m->deps.n; j++)
			simt_graph_list_add(&users[m->deps.v[j]->index], m);
		if (!m->deps.n)
			heap_push(&h, i);
	}
	free(g->order);
	g->order = simt_xcalloc(n + 1, sizeof *g->order);
	while (h.n) {
		i = heap_pop(&h);
		g->order[k++] = g->nodes.v[i];
		for (j = 0; j < users[i].n; j++)
			if (--waiting[users[i].v[j]->index] == 0)
				heap_push(&h, users[i].v[j]->index);
	}
	if (k != n)
		rc = -1;
	for (i = 0; rc == 0 && i < n; i++) {
		const struct CUgraphNode_st *x = g->nodes.v[i];

		if (x->type == cudaGraphNodeTypeGraph)
			rc = graph_order(x->u.child);
		if (x->type == cudaGraphNodeTypeConditional)
			for (j = 0; rc == 0 && j < x->u.cond.size; j++)
				rc = graph_order(x->u.cond.body[j]);
	}
	for (i = 0; i < n; i++)
		free(users[i].v);
	free(users);
	free(waiting);
	free(h.v);
	return rc;
}

static cudaError_t instantiate(cudaGraphExec_t *out, cudaGraph_t graph,
			       unsigned long long flags,
			       cudaGraphInstantiateResult *result)
{
	struct CUgraphExec_st *x;
	size_t i;

	*result = cudaGraphInstantiateError;
	if (!out || !simt_graph_ok(graph))
		return cudaErrorInvalidValue;
	if (simt_graph_mem_any(graph) &&
	    simt_graph_mem_exec(graph, true) != cudaSuccess)
		return cudaErrorNotSupported;
	x = simt_xcalloc(1, sizeof *x);
	x->magic = EXEC_MAGIC;
	x->flags = flags;
	x->from = graph;
	x->snap = simt_graph_clone(graph);
	if (graph_order(x->snap) != 0) {
		simt_graph_mem_exec(x->snap, false);
		simt_graph_free(x->snap);
		x->magic = 0;
		free(x);
		*result = cudaGraphInstantiateInvalidStructure;
		return cudaErrorInvalidValue;
	}
	x->orig = simt_xcalloc(graph->nodes.n + 1, sizeof *x->orig);
	for (i = 0; i < graph->nodes.n; i++)
		x->orig[i] = graph->nodes.v[i];
	*out = x;
	*result = cudaGraphInstantiateSuccess;
	return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
				 unsigned long long flags)
{
	cudaGraphInstantiateResult r;
	cudaError_t e;

	ENTER();
	e = instantiate(pGraphExec, graph, flags, &r);
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
					  cudaGraph_t graph,
					  unsigned long long flags)
{
	return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec,
					   cudaGraph_t graph,
					   cudaGraphInstantiateParams *instantiateParams)
{
	cudaGraphInstantiateResult r;
	cudaError_t e;

	ENTER();
	if (!instantiateParams)
		return fail(cudaErrorInvalidValue);
	e = instantiate(pGraphExec, graph, instantiateParams->flags, &r);
	instantiateParams->result_out = r;
	instantiateParams->errNode_out = NULL;
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec,
				  unsigned long long *flags)
{
	if (!graph_exec_ok(graphExec) || !flags)
		return fail(cudaErrorInvalidValue);
	*flags = graphExec->flags;
	return cudaSuccess;
}

static void lanes_free(struct CUgraph_st *g);
static void lanes_move(struct CUgraph_st *from, struct CUgraph_st *to);

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
	if (!graph_exec_ok(graphExec))
		return fail(cudaErrorInvalidValue);
	lanes_free(graphExec->snap);
	simt_graph_mem_exec(graphExec->snap, false);
	simt_order_event_free(graphExec->last);
	simt_graph_free(graphExec->snap);
	free(graphExec->orig);
	graphExec->magic = 0;
	free(graphExec);
	return cudaSuccess;
}

/* snap's copy of the program's node `node`, if it is of the given type. */
static struct CUgraphNode_st *exec_node(cudaGraphExec_t x, cudaGraphNode_t node,
					enum cudaGraphNodeType type)
{
	size_t i;

	if (!graph_exec_ok(x) || !graph_node_ok(node))
		return NULL;
	for (i = 0; i < x->snap->nodes.n; i++)
		if (x->orig[i] == node)
			return x->snap->nodes.v[i]->type == type
				? x->snap->nodes.v[i] : NULL;
	return NULL;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
					     cudaGraphNode_t node,
					     const struct cudaKernelNodeParams *pNodeParams)
{
	struct CUgraphNode_st *n = exec_node(hGraphExec, node,
					     cudaGraphNodeTypeKernel);
	cudaError_t e;

	if (!n)
		return fail(cudaErrorInvalidValue);
	e = graph_kernel_replace(&n->u.kernel, pNodeParams);
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec,
					     cudaGraphNode_t node,
					     const struct cudaMemcpy3DParms *pNodeParams)
{
	struct CUgraphNode_st *n = exec_node(hGraphExec, node,
					     cudaGraphNodeTypeMemcpy);
	struct copy_node c;
	cudaError_t e;

	if (!n)
		return fail(cudaErrorInvalidValue);
	e = graph_copy_params(&c, pNodeParams);
	if (e != cudaSuccess)
		return fail(e);
	n->u.copy = c;
	return cudaSuccess;
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec,
					       cudaGraphNode_t node, void *dst,
					       const void *src, size_t count,
					       enum cudaMemcpyKind kind)
{
	struct CUgraphNode_st *n = exec_node(hGraphExec, node,
					     cudaGraphNodeTypeMemcpy);

	if (!n || !dst || !src)
		return fail(cudaErrorInvalidValue);
	if (!simt_graph_kind_ok(kind))
		return fail(cudaErrorInvalidMemcpyDirection);
	simt_graph_copy_linear(&n->u.copy, dst, count, src, count, count, 1, kind);
	return cudaSuccess;
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec,
					     cudaGraphNode_t node,
					     const struct cudaMemsetParams *pNodeParams)
{
	struct CUgraphNode_st *n = exec_node(hGraphExec, node,
					     cudaGraphNodeTypeMemset);
	cudaError_t e;

	if (!n)
		return fail(cudaErrorInvalidValue);
	e = graph_set_params(&n->u.set, pNodeParams);
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec,
					   cudaGraphNode_t node,
					   const struct cudaHostNodeParams *pNodeParams)
{
	struct CUgraphNode_st *n = exec_node(hGraphExec, node,
					     cudaGraphNodeTypeHost);

	if (!n || !pNodeParams || !pNodeParams->fn)
		return fail(cudaErrorInvalidValue);
	n->u.host = *pNodeParams;
	return cudaSuccess;
}

/* Whether a and b have the same nodes (by position and type) with the
 * same dependencies, child graphs included; on a difference, *bad is the
 * node of b and *result says what differs. */
static bool same_shape(const struct CUgraph_st *a, const struct CUgraph_st *b,
		       cudaGraphNode_t *bad,
		       enum cudaGraphExecUpdateResult *result)
{
	size_t i, j;

	*result = cudaGraphExecUpdateErrorTopologyChanged;
	*bad = NULL;
	if (a->nodes.n != b->nodes.n)
		return false;
	for (i = 0; i < a->nodes.n; i++) {
		const struct CUgraphNode_st *x = a->nodes.v[i], *y = b->nodes.v[i];

		*bad = (cudaGraphNode_t)y;
		if (x->deps.n != y->deps.n)
			return false;
		for (j = 0; j < x->deps.n; j++)
			if (!simt_graph_list_has(&y->deps, b->nodes.v[x->deps.v[j]->index]))
				return false;
		if (x->type != y->type) {
			*result = cudaGraphExecUpdateErrorNodeTypeChanged;
			return false;
		}
		if (x->type == cudaGraphNodeTypeGraph &&
		    !same_shape(x->u.child, y->u.child, bad, result))
			return false;
		if (x->type == cudaGraphNodeTypeConditional) {
			unsigned k;

			if (x->u.cond.type != y->u.cond.type ||
			    x->u.cond.size != y->u.cond.size) {
				*result = cudaGraphExecUpdateErrorParametersChanged;
				return false;
			}
			for (k = 0; k < x->u.cond.size; k++)
				if (!same_shape(x->u.cond.body[k], y->u.cond.body[k],
						bad, result))
					return false;
		}
	}
	return true;
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
				cudaGraphExecUpdateResultInfo *resultInfo)
{
	enum cudaGraphExecUpdateResult r;
	struct CUgraph_st *snap;
	cudaGraphNode_t bad;

	ENTER();
	if (resultInfo)
		memset(resultInfo, 0, sizeof *resultInfo);
	if (!graph_exec_ok(hGraphExec) || !simt_graph_ok(hGraph)) {
		if (resultInfo)
			resultInfo->result = cudaGraphExecUpdateError;
		return fail(cudaErrorInvalidValue);
	}
	if (simt_graph_mem_any(hGraphExec->snap) || simt_graph_mem_any(hGraph)) {
		if (resultInfo)
			resultInfo->result = cudaGraphExecUpdateErrorNotSupported;
		return fail(cudaErrorGraphExecUpdateFailure);
	}
	if (!same_shape(hGraphExec->snap, hGraph, &bad, &r)) {
		if (resultInfo) {
			resultInfo->result = r;
			resultInfo->errorNode = bad;
		}
		return fail(cudaErrorGraphExecUpdateFailure);
	}
	snap = simt_graph_clone(hGraph);
	graph_order(snap);
	lanes_move(hGraphExec->snap, snap);
	simt_graph_free(hGraphExec->snap);
	hGraphExec->snap = snap;
	hGraphExec->from = hGraph;
	return cudaSuccess;
}

/* ---- running ---- */

/* The stream a graph is being launched into: its nodes are issued as
 * operations of their own lanes in the stream order (order.h). */
static _Thread_local cudaStream_t launch_stream;

static cudaError_t run_kernel(const struct kernel_node *kn)
{
	struct simt_launch_req req = {0};
	cudaError_t e;

	req.mod = kn->k->mod;
	req.fn = &kn->k->mod->funcs[kn->k->func];
	req.grid = kn->grid;
	req.block = kn->block;
	req.dyn_shared = kn->shmem;
	req.args = kn->argv;
	req.stream = launch_stream;
	simt_lock();
	e = simt_launch(&req);
	simt_unlock();
	return e;
}

static cudaError_t run_copy(const struct copy_node *c)
{
	struct simt_issue how = {launch_stream, true, "a graph's memcpy node"};
	cudaError_t e = cudaSuccess;
	size_t z;

	simt_copy_parts(true);
	for (z = 0; e == cudaSuccess && z < c->depth; z++)
		e = simt_copy2d(c->dst + z * c->dslice, c->dpitch,
				c->src + z * c->sslice, c->spitch, c->width,
				c->height, c->kind, &how);
	simt_copy_parts(false);
	return e;
}

/* A memset of 2- or 4-byte elements, or of bytes. */
static cudaError_t run_set(const struct cudaMemsetParams *p)
{
	struct simt_issue how = {launch_stream, true, "a graph's memset node"};
	size_t row = p->width * p->elementSize, pitch, r, i;
	uint32_t lane;

	pitch = p->height > 1 ? p->pitch : row;
	if (p->elementSize == 1)
		return simt_set2d(p->dst, pitch, (int)p->value, row, p->height, &how);
	if (!row || !p->height)
		return cudaSuccess;
	simt_lock();
	if (!simt_mem_find((uint64_t)(uintptr_t)p->dst,
			   pitch * (p->height - 1) + row)) {
		simt_unlock();
		return cudaErrorInvalidValue;
	}
	lane = simt_stream_lane(launch_stream);
	simt_hz_op_begin(lane, false, how.api);
	for (r = 0; r < p->height; r++) {
		char *at = (char *)p->dst + r * pitch;
		char *h = simt_mem_host(at);

		simt_hz_op_range(at, row, true);
		for (i = 0; i < p->width; i++) {
			if (p->elementSize == 2) {
				uint16_t v = (uint16_t)p->value;

				memcpy(h + 2 * i, &v, 2);
			} else {
				memcpy(h + 4 * i, &p->value, 4);
			}
		}
		simt_mem_written(at, row);
	}
	simt_hz_op_end(lane);
	simt_unlock();
	return cudaSuccess;
}

/* Gives each node of g (and of its child graphs) a lane: a node goes on
 * with the lane of its first dependency that no other node has taken, so
 * a chain of nodes (a captured stream) is one lane, and the roots of a
 * child graph with the child node's; the others get lanes of their own.
 * simt_lock held. */
static void lanes_give(struct CUgraph_st *g, struct CUgraphNode_st *parent,
		       int device)
{
	size_t i, j;

	for (i = 0; i < g->nodes.n; i++) {
		struct CUgraphNode_st *n = g->order[i], *from = NULL;

		for (j = 0; j < n->deps.n && !from; j++)
			if (!n->deps.v[j]->lane_passed)
				from = n->deps.v[j];
		if (!n->deps.n && parent && !parent->lane_passed)
			from = parent;
		if (from) {
			n->lane = from->lane;
			from->lane_passed = true;
		} else {
			n->lane = simt_order_node_lane(device);
		}
		if (n->type == cudaGraphNodeTypeGraph)
			lanes_give(n->u.child, n, device);
		if (n->type == cudaGraphNodeTypeConditional) {
			unsigned b;

			/* a body's roots go on after the node, as a child's */
			for (b = 0; b < n->u.cond.size; b++) {
				n->lane_passed = false;
				lanes_give(n->u.cond.body[b], n, device);
			}
		}
	}
	g->lanes = true;
}

static void lanes_drop(struct CUgraph_st *g)
{
	size_t i;

	if (!g->lanes)
		return;
	for (i = 0; i < g->nodes.n; i++) {
		struct CUgraphNode_st *n = g->nodes.v[i];

		if (n->type == cudaGraphNodeTypeGraph)
			lanes_drop(n->u.child);
		if (n->type == cudaGraphNodeTypeConditional) {
			unsigned b;

			for (b = 0; b < n->u.cond.size; b++)
				lanes_drop(n->u.cond.body[b]);
		}
		simt_order_lane_free(n->lane);
		simt_order_event_free(n->done);
		simt_order_event_free(n->start);
		n->done = n->start = NULL;
		n->lane_passed = false;
	}
	g->lanes = false;
}

/* An updated executable graph keeps its lanes: the new snapshot has the
 * same nodes and dependencies (same_shape), so a node still depends on
 * the one whose lane it goes on with, and a program that updates its
 * graph every step does not make new lanes every step. */
static void lanes_move(struct CUgraph_st *from, struct CUgraph_st *to)
{
	size_t i;

	if (!from->lanes)
		return;
	for (i = 0; i < from->nodes.n; i++) {
		struct CUgraphNode_st *a = from->nodes.v[i], *b = to->nodes.v[i];

		b->lane = a->lane;
		b->lane_passed = a->lane_passed;
		b->done = a->done;
		b->start = a->start;
		a->done = a->start = NULL;
		if (a->type == cudaGraphNodeTypeGraph)
			lanes_move(a->u.child, b->u.child);
		if (a->type == cudaGraphNodeTypeConditional) {
			unsigned k;

			for (k = 0; k < a->u.cond.size; k++)
				lanes_move(a->u.cond.body[k], b->u.cond.body[k]);
		}
	}
	from->lanes = false;
	to->lanes = true;
}

static void lanes_free(struct CUgraph_st *g)
{
	simt_lock();
	lanes_drop(g);
	simt_unlock();
}

/* Runs g's nodes in their order, each as an operation of its lane that
 * follows what the nodes it depends on had done when they ended (the
 * roots: entry), so that the hazard checker sees branches with no path
 * between them as unordered, as a GPU may run them at once.  label: the
 * node's index + 1 in the launched graph (a child graph's nodes carry
 * their child node's).  Returns the first error; a kernel fault has
 * already been reported and made sticky, and ends the run. */
static cudaError_t run_graph(const struct CUgraph_st *g,
			     const struct simt_order_vc *entry,
			     uint32_t stream_lane, uint32_t label)
{
	cudaError_t e = cudaSuccess;
	size_t i, j;

	for (i = 0; e == cudaSuccess && i < g->nodes.n; i++) {
		struct CUgraphNode_st *n = g->order[i];
		uint32_t mine = label ? label : (uint32_t)n->index + 1;

		if (simt_sticky() != cudaSuccess)
			break;
		simt_lock();
		if (!n->deps.n)
			simt_order_wait_event(n->lane, entry);
		for (j = 0; j < n->deps.n; j++)
			simt_order_wait_event(n->lane, n->deps.v[j]->done);
		simt_order_node_label(n->lane, stream_lane, mine);
		if (n->type == cudaGraphNodeTypeGraph ||
		    n->type == cudaGraphNodeTypeConditional)
			n->start = simt_order_record(n->start, n->lane);
		simt_unlock();
		simt_stream_lane_sub(launch_stream, n->lane);
		switch (n->type) {
		case cudaGraphNodeTypeKernel:
			e = run_kernel(&n->u.kernel);
			break;
		case cudaGraphNodeTypeMemcpy:
			e = run_copy(&n->u.copy);
			break;
		case cudaGraphNodeTypeMemset:
			e = run_set(&n->u.set);
			break;
		case cudaGraphNodeTypeHost:
			/* like a stream's host function: it follows the nodes
			 * before it, and the host is taken to know them done */
			simt_host_sees(launch_stream);
			n->u.host.fn(n->u.host.userData);
			break;
		case cudaGraphNodeTypeMemAlloc:
		case cudaGraphNodeTypeMemFree:
			e = simt_graph_mem_run(n);
			break;
		case cudaGraphNodeTypeGraph:
			e = run_graph(n->u.child, n->start, stream_lane, mine);
			simt_lock();
			for (j = 0; j < n->u.child->nodes.n; j++)
				simt_order_wait_event(n->lane,
						      n->u.child->nodes.v[j]->done);
			simt_unlock();
			break;
		case cudaGraphNodeTypeConditional: {
			/* the value is read when the node runs, after what it
			 * depends on (simt has run it by then); a while loop's
			 * next run follows everything the last one did */
			const struct CUgraph_st *body;
			unsigned iter;

			for (iter = 0; e == cudaSuccess &&
				       simt_sticky() == cudaSuccess &&
				       (body = simt_graph_cond_body(n, iter)); iter++) {
				e = run_graph(body, n->start, stream_lane, mine);
				simt_lock();
				for (j = 0; j < body->nodes.n; j++)
					simt_order_wait_event(n->lane,
							      body->nodes.v[j]->done);
				n->start = simt_order_record(n->start, n->lane);
				simt_unlock();
			}
			break;
		}
		default:
			break;
		}
		simt_stream_lane_sub(NULL, UINT32_MAX);
		simt_lock();
		n->done = simt_order_record(n->done, n->lane);
		simt_unlock();
	}
	return e;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	struct simt_stream_capture *m;
	struct CUgraph_st *snap;
	uint32_t lane;
	size_t i;
	cudaError_t e;

	ENTER();
	if (!graph_exec_ok(graphExec))
		return fail(cudaErrorInvalidValue);
	if (!simt_stream_valid(stream))
		return fail(cudaErrorInvalidResourceHandle);
	if (simt_capture_live) {
		simt_lock();
		m = simt_graph_member_of(stream, &e);
		if (m) {
			struct CUgraphNode_st *n = simt_graph_node_add(
					   m->cap->graph, cudaGraphNodeTypeGraph, NULL, 0);

			n->u.child = simt_graph_clone(graphExec->snap);
			simt_graph_record(m, n);
		}
		simt_unlock();
		if (m || e != cudaSuccess)
			return e == cudaSuccess ? e : fail(e);
	}
	snap = graphExec->snap;
	/* cudaGraphInstantiateFlagAutoFreeOnLaunch is 1 */
	e = simt_graph_mem_launch(snap, graphExec->flags & 1);
	if (e != cudaSuccess)
		return fail(e);
	simt_graph_cond_launch(graphExec->from);
	simt_lock();
	lane = simt_stream_lane(stream);
	if (!snap->lanes)
		lanes_give(snap, NULL, simt_stream_device(stream));
	simt_order_wait_event(lane, graphExec->last);
	graphExec->last = simt_order_record(graphExec->last, lane);
	simt_unlock();
	launch_stream = stream;
	e = run_graph(snap, graphExec->last, lane, 0);
	launch_stream = NULL;
	/* what follows in the stream follows every node that ran */
	simt_lock();
	for (i = 0; i < snap->nodes.n; i++)
		simt_order_follow(lane, snap->nodes.v[i]->lane);
	graphExec->last = simt_order_record(graphExec->last, lane);
	simt_unlock();
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	ENTER();
	if (!graph_exec_ok(graphExec))
		return fail(cudaErrorInvalidValue);
	return simt_stream_valid(stream) ? cudaSuccess
					 : fail(cudaErrorInvalidResourceHandle);
}
