/* Conditional graph nodes and cudaGraphAddNode.
 *
 * A conditional handle is a value a kernel sets with
 * cudaGraphSetConditional; a conditional node owns one or more body
 * graphs and, when it runs, picks among them by the value: an IF node
 * runs body 0 when it is non-zero (body 1, if there is one, when it is
 * zero), a WHILE node runs body 0 for as long as it is non-zero, a SWITCH
 * node runs body n when it equals n.  simt runs every node to its end
 * before the next starts, so the value a node reads is the one the
 * kernels before it left.
 *
 * Handles live in one table for the process; a handle's number carries a
 * tag in its high bits so that a stray value is recognised.  The value is
 * the handle's own, shared by every executable graph made from its
 * graph (simt launches one graph at a time). */
#include "runtime/graph_int.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(struct cudaGraphNodeParams) == 256,
	       "cudaGraphNodeParams has the toolkit's size");

#define HANDLE_TAG 0xc0d1000000000000ull
#define HANDLE_MASK 0x0000ffffffffffffull

struct cond_handle {
	const struct CUgraph_st *graph;
	unsigned value, dflt;
	bool assign;               /* cudaGraphCondAssignDefault */
};

static pthread_mutex_t cond_mu = PTHREAD_MUTEX_INITIALIZER;
static struct cond_handle *handles;
static size_t nhandles, caphandles;

/* The table entry of handle h, NULL for a value no call made (call with
 * cond_mu held). */
static struct cond_handle *handle_of(cudaGraphConditionalHandle h)
{
	uint64_t i = h & HANDLE_MASK;

	if ((h & ~HANDLE_MASK) != HANDLE_TAG || i == 0 || i > nhandles)
		return NULL;
	return &handles[i - 1];
}

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle,
					     cudaGraph_t graph,
					     unsigned int defaultLaunchValue,
					     unsigned int flags)
{
	struct cond_handle *c;

	ENTER();
	if (!pHandle || !simt_graph_ok(graph) ||
	    (flags & ~(unsigned)cudaGraphCondAssignDefault))
		return fail(cudaErrorInvalidValue);
	pthread_mutex_lock(&cond_mu);
	if (nhandles == caphandles) {
		caphandles = caphandles ? 2 * caphandles : 16;
		handles = simt_xrealloc(handles, caphandles * sizeof *handles);
	}
	c = &handles[nhandles++];
	c->graph = graph;
	c->dflt = defaultLaunchValue;
	c->assign = flags & cudaGraphCondAssignDefault;
	/* without the flag the value is whatever was last set; before any
	 * set, the default */
	c->value = defaultLaunchValue;
	*pHandle = HANDLE_TAG | nhandles;
	pthread_mutex_unlock(&cond_mu);
	return cudaSuccess;
}

void simt_graph_cond_launch(const struct CUgraph_st *g)
{
	size_t i;

	pthread_mutex_lock(&cond_mu);
	for (i = 0; i < nhandles; i++)
		if (handles[i].graph == g && handles[i].assign)
			handles[i].value = handles[i].dflt;
	pthread_mutex_unlock(&cond_mu);
}

/* cudaGraphSetConditional, called by a kernel (exec.c).  False for a
 * value that is no handle. */
bool simt_graph_set_conditional(uint64_t h, uint32_t value)
{
	struct cond_handle *c;

	pthread_mutex_lock(&cond_mu);
	c = handle_of(h);
	if (c)
		c->value = value;
	pthread_mutex_unlock(&cond_mu);
	return c != NULL;
}

static unsigned handle_value(cudaGraphConditionalHandle h)
{
	struct cond_handle *c;
	unsigned v = 0;

	pthread_mutex_lock(&cond_mu);
	c = handle_of(h);
	if (c)
		v = c->value;
	pthread_mutex_unlock(&cond_mu);
	return v;
}

struct CUgraph_st *simt_graph_cond_body(const struct CUgraphNode_st *n,
					unsigned iter)
{
	const struct cond_node *c = &n->u.cond;
	unsigned v = handle_value(c->handle);

	switch (c->type) {
	case cudaGraphCondTypeIf:
		if (iter)
			return NULL;
		return v ? c->body[0] : c->size == 2 ? c->body[1] : NULL;
	case cudaGraphCondTypeWhile:
		return v ? c->body[0] : NULL;
	default:
		return !iter && v < c->size ? c->body[v] : NULL;
	}
}

void simt_graph_cond_dup(struct cond_node *to, const struct cond_node *from)
{
	unsigned b;

	*to = *from;
	to->body = simt_xcalloc(from->size, sizeof *to->body);
	for (b = 0; b < from->size; b++)
		to->body[b] = simt_graph_clone(from->body[b]);
}

void simt_graph_cond_free(struct cond_node *c)
{
	unsigned b;

	for (b = 0; c->body && b < c->size; b++)
		simt_graph_free(c->body[b]);
	free(c->body);
	c->body = NULL;
}

static cudaError_t add_conditional(cudaGraphNode_t *out, cudaGraph_t graph,
				   const cudaGraphNode_t *deps, size_t ndeps,
				   struct cudaConditionalNodeParams *p)
{
	struct CUgraphNode_st *n;
	bool known;
	unsigned b;
	cudaError_t e;

	pthread_mutex_lock(&cond_mu);
	known = handle_of(p->handle) != NULL;
	pthread_mutex_unlock(&cond_mu);
	if (!known) {
		simt_warn("cudaGraphAddNode: %#llx is not a conditional handle "
			  "(make one with cudaGraphConditionalHandleCreate)",
			  (unsigned long long)p->handle);
		return cudaErrorInvalidValue;
	}
	if (p->type > cudaGraphCondTypeSwitch || p->size == 0 ||
	    (p->type == cudaGraphCondTypeWhile && p->size != 1) ||
	    (p->type == cudaGraphCondTypeIf && p->size > 2)) {
		simt_warn("cudaGraphAddNode: a conditional node of type %d cannot "
			  "have %u bodies (a while node has 1, an if node 1 or 2, "
			  "a switch node 1 or more)", (int)p->type, p->size);
		return cudaErrorInvalidValue;
	}
	simt_lock();
	e = simt_graph_deps_ok(graph, deps, ndeps);
	if (e != cudaSuccess) {
		simt_unlock();
		return e;
	}
	n = simt_graph_node_add(graph, cudaGraphNodeTypeConditional, deps, ndeps);
	n->u.cond.handle = p->handle;
	n->u.cond.type = p->type;
	n->u.cond.size = p->size;
	n->u.cond.body = simt_xcalloc(p->size, sizeof *n->u.cond.body);
	for (b = 0; b < p->size; b++)
		n->u.cond.body[b] = simt_graph_new();
	simt_unlock();
	p->phGraph_out = n->u.cond.body;
	*out = n;
	return cudaSuccess;
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
			     const cudaGraphNode_t *pDependencies,
			     const cudaGraphEdgeData *dependencyData,
			     size_t numDependencies,
			     struct cudaGraphNodeParams *p)
{
	size_t i;
	cudaError_t e;

	ENTER();
	if (!pGraphNode || !p || !simt_graph_ok(graph) ||
	    (numDependencies && !pDependencies))
		return fail(cudaErrorInvalidValue);
	for (i = 0; dependencyData && i < numDependencies; i++)
		if (dependencyData[i].type != 0 || dependencyData[i].from_port ||
		    dependencyData[i].to_port) {
			simt_warn("cudaGraphAddNode: only default dependencies "
				  "(type 0, ports 0) are supported by simt");
			return fail(cudaErrorNotSupported);
		}
	switch (p->type) {
	case cudaGraphNodeTypeKernel:
		return cudaGraphAddKernelNode(pGraphNode, graph, pDependencies,
					      numDependencies, &p->u.kernel);
	case cudaGraphNodeTypeMemcpy:
		return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies,
					      numDependencies,
					      &p->u.memcpy.copyParams);
	case cudaGraphNodeTypeMemset:
		return cudaGraphAddMemsetNode(pGraphNode, graph, pDependencies,
					      numDependencies, &p->u.memset);
	case cudaGraphNodeTypeHost:
		return cudaGraphAddHostNode(pGraphNode, graph, pDependencies,
					    numDependencies, &p->u.host);
	case cudaGraphNodeTypeGraph:
		if (p->u.graph.ownership != 0) {
			simt_warn("cudaGraphAddNode: simt clones a child graph into "
				  "its node; moving it in (ownership %d) is not "
				  "supported", p->u.graph.ownership);
			return fail(cudaErrorNotSupported);
		}
		return cudaGraphAddChildGraphNode(pGraphNode, graph, pDependencies,
						  numDependencies, p->u.graph.graph);
	case cudaGraphNodeTypeEmpty:
		return cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies,
					     numDependencies);
	case cudaGraphNodeTypeMemAlloc:
		return cudaGraphAddMemAllocNode(pGraphNode, graph, pDependencies,
						numDependencies, &p->u.alloc);
	case cudaGraphNodeTypeMemFree:
		return cudaGraphAddMemFreeNode(pGraphNode, graph, pDependencies,
					       numDependencies, p->u.free.dptr);
	case cudaGraphNodeTypeConditional:
		e = add_conditional(pGraphNode, graph, pDependencies,
				    numDependencies, &p->u.conditional);
		return e == cudaSuccess ? e : fail(e);
	default:
		simt_warn("cudaGraphAddNode: nodes of type %d (event, external "
			  "semaphore) are not supported by simt", (int)p->type);
		return fail(cudaErrorNotSupported);
	}
}
