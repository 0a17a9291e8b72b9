/* CUDA graphs and stream capture.  A graph is a list of nodes, each with
 * the nodes it depends on; an executable graph is a private copy of one,
 * with its nodes put in a dependency order once, at instantiation.  simt
 * runs everything synchronously, so launching an executable graph runs
 * its nodes one after another in that order (each node on a lane of the
 * stream order that follows only its dependencies, so that the hazard
 * checker sees what a GPU may run at once), and a capture records the
 * operations issued to its streams as nodes instead of running them, with
 * the dependencies the streams and events imply.
 *
 * This file holds graphs and their nodes; instantiating and running
 * executable graphs is graph_exec.c's. */
#include "runtime/graph_int.h"
#include "check/order.h"
#include "check/hazard.h"

#include <stdlib.h>
#include <string.h>

_Atomic int simt_capture_live;

/* ---- node lists ---- */

void simt_graph_list_add(struct node_list *l, struct CUgraphNode_st *n)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 4;
		l->v = simt_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = n;
}

bool simt_graph_list_has(const struct node_list *l, const struct CUgraphNode_st *n)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i] == n)
			return true;
	return false;
}

void simt_graph_list_add_new(struct node_list *l, struct CUgraphNode_st *n)
{
	if (!simt_graph_list_has(l, n))
		simt_graph_list_add(l, n);
}

static void list_remove(struct node_list *l, const struct CUgraphNode_st *n)
{
	size_t i, j;

	for (i = j = 0; i < l->n; i++)
		if (l->v[i] != n)
			l->v[j++] = l->v[i];
	l->n = j;
}

void simt_graph_list_copy(struct node_list *to, const struct node_list *from)
{
	size_t i;

	to->n = 0;
	for (i = 0; i < from->n; i++)
		simt_graph_list_add(to, from->v[i]);
}

/* ---- handles ---- */

bool simt_graph_ok(const struct CUgraph_st *g)
{
	return g && g->magic == GRAPH_MAGIC;
}

bool graph_node_ok(const struct CUgraphNode_st *n)
{
	return n && n->magic == NODE_MAGIC;
}

bool graph_exec_ok(const struct CUgraphExec_st *x)
{
	return x && x->magic == EXEC_MAGIC;
}

/* ---- node parameters ---- */

static void kernel_free(struct kernel_node *kn)
{
	free(kn->buf);
	free(kn->argv);
	kn->buf = NULL;
	kn->argv = NULL;
}

/* Copies a kernel's arguments, given as an array of pointers to each
 * (args) or as one packed buffer (extra), into kn.  Returns cudaSuccess or
 * the error the runtime gives for the kernel or the arguments. */
cudaError_t simt_graph_kernel_set(struct kernel_node *kn, struct simt_kernel *k,
				  void **args, void **extra)
{
	const struct simt_func *fn;
	const void *packed = NULL;
	size_t packed_size = 0;
	cudaError_t e;
	int i;

	e = simt_kernel_usable(k);
	if (e != cudaSuccess)
		return e;
	fn = &k->mod->funcs[k->func];
	for (i = 0; extra && extra[i] != LAUNCH_PARAM_END; i += 2) {
		if (extra[i] == LAUNCH_PARAM_BUFFER_POINTER)
			packed = extra[i + 1];
		else if (extra[i] == LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1])
			packed_size = *(size_t *)extra[i + 1];
		else
			return cudaErrorInvalidValue;
	}
	if (fn->nparams && !args && (!packed || packed_size < fn->kparam_size))
		return cudaErrorInvalidValue;
	kernel_free(kn);
	kn->k = k;
	kn->buf = simt_xcalloc(1, fn->kparam_size ? fn->kparam_size : 1);
	kn->argv = simt_xcalloc((size_t)fn->nparams + 1, sizeof *kn->argv);
	for (i = 0; i < fn->nparams; i++) {
		uint8_t *at = kn->buf + fn->params[i].offset;

		if (args)
			memcpy(at, args[i], fn->params[i].size);
		else
			memcpy(at, (const uint8_t *)packed + fn->params[i].offset,
			       fn->params[i].size);
		kn->argv[i] = at;
	}
	return cudaSuccess;
}

static void kernel_dup(struct kernel_node *to, const struct kernel_node *from)
{
	const struct simt_func *fn = &from->k->mod->funcs[from->k->func];
	size_t size = fn->kparam_size ? fn->kparam_size : 1;
	int i;

	*to = *from;
	to->buf = simt_xmalloc(size);
	memcpy(to->buf, from->buf, size);
	to->argv = simt_xcalloc((size_t)fn->nparams + 1, sizeof *to->argv);
	for (i = 0; i < fn->nparams; i++)
		to->argv[i] = to->buf + fn->params[i].offset;
}

static cudaError_t kernel_params(struct kernel_node *kn,
				 const struct cudaKernelNodeParams *p)
{
	struct simt_kernel *k;
	cudaError_t e;

	if (!p)
		return cudaErrorInvalidValue;
	simt_lock();
	k = simt_kernel_of(p->func);
	simt_unlock();
	e = simt_graph_kernel_set(kn, k, p->kernelParams, p->extra);
	if (e != cudaSuccess)
		return e;
	kn->func = p->func;
	kn->grid = p->gridDim;
	kn->block = p->blockDim;
	kn->shmem = p->sharedMemBytes;
	return cudaSuccess;
}

bool simt_graph_kind_ok(enum cudaMemcpyKind kind)
{
	return (int)kind >= 0 && kind <= cudaMemcpyDefault;
}

/* Linear copies only: a copy naming a CUDA array is not supported. */
cudaError_t graph_copy_params(struct copy_node *c,
			      const struct cudaMemcpy3DParms *p)
{
	const struct cudaPitchedPtr *s, *d;

	if (!p)
		return cudaErrorInvalidValue;
	if (p->srcArray || p->dstArray)
		return cudaErrorNotSupported;
	s = &p->srcPtr;
	d = &p->dstPtr;
	if (!simt_graph_kind_ok(p->kind))
		return cudaErrorInvalidMemcpyDirection;
	if (!s->ptr || !d->ptr || p->extent.width > s->pitch ||
	    p->extent.width > d->pitch)
		return cudaErrorInvalidValue;
	c->src = (const char *)s->ptr + (p->srcPos.z * s->ysize + p->srcPos.y) *
		s->pitch + p->srcPos.x;
	c->dst = (char *)d->ptr + (p->dstPos.z * d->ysize + p->dstPos.y) *
		d->pitch + p->dstPos.x;
	c->spitch = s->pitch;
	c->dpitch = d->pitch;
	c->sslice = s->pitch * s->ysize;
	c->dslice = d->pitch * d->ysize;
	c->width = p->extent.width;
	c->height = p->extent.height;
	c->depth = p->extent.depth;
	c->kind = p->kind;
	c->p3 = *p;
	return cudaSuccess;
}

void simt_graph_copy_linear(struct copy_node *c, void *dst, size_t dpitch,
			    const void *src, size_t spitch, size_t width,
			    size_t height, enum cudaMemcpyKind kind)
{
	memset(c, 0, sizeof *c);
	c->dst = dst;
	c->src = src;
	c->dpitch = dpitch;
	c->spitch = spitch;
	c->width = width;
	c->height = height;
	c->depth = 1;
	c->kind = kind;
	c->p3.srcPtr.ptr = (void *)src;
	c->p3.srcPtr.pitch = spitch;
	c->p3.srcPtr.xsize = width;
	c->p3.srcPtr.ysize = height;
	c->p3.dstPtr.ptr = dst;
	c->p3.dstPtr.pitch = dpitch;
	c->p3.dstPtr.xsize = width;
	c->p3.dstPtr.ysize = height;
	c->p3.extent.width = width;
	c->p3.extent.height = height;
	c->p3.extent.depth = 1;
	c->p3.kind = kind;
}

cudaError_t graph_set_params(struct cudaMemsetParams *to,
			     const struct cudaMemsetParams *p)
{
	if (!p || !p->dst)
		return cudaErrorInvalidValue;
	if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
		return cudaErrorInvalidValue;
	if (p->height > 1 && p->pitch < p->width * p->elementSize)
		return cudaErrorInvalidValue;
	*to = *p;
	return cudaSuccess;
}

/* ---- graphs and nodes ---- */

struct CUgraph_st *simt_graph_new(void)
{
	struct CUgraph_st *g = simt_xcalloc(1, sizeof *g);

	g->magic = GRAPH_MAGIC;
	return g;
}

static void node_free(struct CUgraphNode_st *n)
{
	if (n->type == cudaGraphNodeTypeKernel)
		kernel_free(&n->u.kernel);
	else if (n->type == cudaGraphNodeTypeGraph)
		simt_graph_free(n->u.child);
	else if (n->type == cudaGraphNodeTypeConditional)
		simt_graph_cond_free(&n->u.cond);
	else if ((n->type == cudaGraphNodeTypeMemAlloc ||
		  n->type == cudaGraphNodeTypeMemFree) && n->u.mem)
		simt_graph_mem_unref(n);
	free(n->deps.v);
	n->magic = 0;
	free(n);
}

void simt_graph_free(struct CUgraph_st *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->nodes.n; i++)
		node_free(g->nodes.v[i]);
	free(g->nodes.v);
	free(g->order);
	g->magic = 0;
	free(g);
}

/* Checks the dependency array of a new node of g. */
cudaError_t simt_graph_deps_ok(const struct CUgraph_st *g,
			       const cudaGraphNode_t *deps, size_t n)
{
	size_t i, j;

	if (n && !deps)
		return cudaErrorInvalidValue;
	for (i = 0; i < n; i++) {
		if (!graph_node_ok(deps[i]) || deps[i]->graph != g)
			return cudaErrorInvalidValue;
		for (j = 0; j < i; j++)
			if (deps[j] == deps[i])
				return cudaErrorInvalidValue;
	}
	return cudaSuccess;
}

struct CUgraphNode_st *simt_graph_node_add(struct CUgraph_st *g,
					   enum cudaGraphNodeType type,
					   const cudaGraphNode_t *deps, size_t ndeps)
{
	struct CUgraphNode_st *n = simt_xcalloc(1, sizeof *n);
	size_t i;

	n->magic = NODE_MAGIC;
	n->type = type;
	n->graph = g;
	n->index = g->nodes.n;
	for (i = 0; i < ndeps; i++)
		simt_graph_list_add(&n->deps, deps[i]);
	simt_graph_list_add(&g->nodes, n);
	return n;
}

/* Copies node parameters, duplicating what a node owns. */
static void params_dup(struct CUgraphNode_st *to,
		       const struct CUgraphNode_st *from)
{
	if (from->type == cudaGraphNodeTypeKernel)
		kernel_dup(&to->u.kernel, &from->u.kernel);
	else if (from->type == cudaGraphNodeTypeGraph)
		to->u.child = simt_graph_clone(from->u.child);
	else if (from->type == cudaGraphNodeTypeConditional)
		simt_graph_cond_dup(&to->u.cond, &from->u.cond);
	else
		to->u = from->u;
	/* an executable graph's copy of a memory node shares its allocation */
	if (from->type == cudaGraphNodeTypeMemAlloc ||
	    from->type == cudaGraphNodeTypeMemFree) {
		simt_lock();
		simt_graph_mem_ref(from);
		simt_unlock();
	}
}

struct CUgraph_st *simt_graph_clone(const struct CUgraph_st *g)
{
	struct CUgraph_st *c = simt_graph_new();
	size_t i, j;

	for (i = 0; i < g->nodes.n; i++)
		params_dup(simt_graph_node_add(c, g->nodes.v[i]->type, NULL, 0),
			   g->nodes.v[i]);
	/* a node may depend on one added after it */
	for (i = 0; i < g->nodes.n; i++) {
		const struct CUgraphNode_st *n = g->nodes.v[i];

		for (j = 0; j < n->deps.n; j++)
			simt_graph_list_add(&c->nodes.v[i]->deps,
					    c->nodes.v[n->deps.v[j]->index]);
	}
	return c;
}

/* Adds a node of the given type; the caller fills its parameters. */
static cudaError_t add_node(cudaGraphNode_t *out, cudaGraph_t g,
			    const cudaGraphNode_t *deps, size_t ndeps,
			    enum cudaGraphNodeType type,
			    struct CUgraphNode_st **n)
{
	cudaError_t e;

	if (!out || !simt_graph_ok(g))
		return cudaErrorInvalidValue;
	e = simt_graph_deps_ok(g, deps, ndeps);
	if (e != cudaSuccess)
		return e;
	*n = simt_graph_node_add(g, type, deps, ndeps);
	*out = *n;
	return cudaSuccess;
}

void simt_graph_drop_last(cudaGraph_t g)
{
	node_free(g->nodes.v[--g->nodes.n]);
}

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
	ENTER();
	if (!pGraph || flags)
		return fail(cudaErrorInvalidValue);
	*pGraph = simt_graph_new();
	return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
	if (!simt_graph_ok(graph))
		return fail(cudaErrorInvalidValue);
	simt_lock();
	if (simt_graph_capturing(graph)) {
		simt_unlock();
		return fail(cudaErrorIllegalState);
	}
	simt_graph_free(graph);
	simt_unlock();
	return cudaSuccess;
}

/* What CUDA does not allow with a graph that has memory nodes. */
static cudaError_t mem_refused(const char *fn, const char *what)
{
	simt_warn("%s: a graph with memory allocation or free nodes cannot be %s",
		  fn, what);
	return fail(cudaErrorNotSupported);
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
	ENTER();
	if (!pGraphClone || !simt_graph_ok(originalGraph))
		return fail(cudaErrorInvalidValue);
	if (simt_graph_mem_any(originalGraph))
		return mem_refused("cudaGraphClone", "cloned");
	*pGraphClone = simt_graph_clone(originalGraph);
	return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaKernelNodeParams *pNodeParams)
{
	struct CUgraphNode_st *n;
	cudaError_t e;

	ENTER();
	if (!pNodeParams)
		return fail(cudaErrorInvalidValue);
	e = add_node(pGraphNode, graph, pDependencies, numDependencies,
		     cudaGraphNodeTypeKernel, &n);
	if (e == cudaSuccess) {
		e = kernel_params(&n->u.kernel, pNodeParams);
		if (e != cudaSuccess)
			simt_graph_drop_last(graph);
	}
	return e == cudaSuccess ? e : fail(e);
}

static cudaError_t node_of_type(cudaGraphNode_t node,
				enum cudaGraphNodeType type)
{
	if (!graph_node_ok(node))
		return cudaErrorInvalidValue;
	return node->type == type ? cudaSuccess : cudaErrorInvalidValue;
}

static void kernel_get(const struct kernel_node *kn,
		       struct cudaKernelNodeParams *p)
{
	p->func = kn->func;
	p->gridDim = kn->grid;
	p->blockDim = kn->block;
	p->sharedMemBytes = kn->shmem;
	p->kernelParams = kn->argv;
	p->extra = NULL;
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
					 struct cudaKernelNodeParams *pNodeParams)
{
	cudaError_t e = node_of_type(node, cudaGraphNodeTypeKernel);

	if (e != cudaSuccess || !pNodeParams)
		return fail(cudaErrorInvalidValue);
	kernel_get(&node->u.kernel, pNodeParams);
	return cudaSuccess;
}

/* Replaces a kernel node's parameters; the node keeps its old ones when
 * the new ones are refused.  The arguments may point into the node's own
 * buffer (as GetParams hands them out), so they are copied first. */
cudaError_t graph_kernel_replace(struct kernel_node *kn,
				 const struct cudaKernelNodeParams *p)
{
	struct kernel_node fresh;
	cudaError_t e;

	if (!p)
		return cudaErrorInvalidValue;
	memset(&fresh, 0, sizeof fresh);
	e = kernel_params(&fresh, p);
	if (e != cudaSuccess)
		return e;
	kernel_free(kn);
	*kn = fresh;
	return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
					 const struct cudaKernelNodeParams *pNodeParams)
{
	cudaError_t e = node_of_type(node, cudaGraphNodeTypeKernel);

	if (e == cudaSuccess)
		e = graph_kernel_replace(&node->u.kernel, pNodeParams);
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaMemcpy3DParms *pCopyParams)
{
	struct copy_node c;
	struct CUgraphNode_st *n;
	cudaError_t e;

	ENTER();
	e = graph_copy_params(&c, pCopyParams);
	if (e == cudaSuccess)
		e = add_node(pGraphNode, graph, pDependencies, numDependencies,
			     cudaGraphNodeTypeMemcpy, &n);
	if (e != cudaSuccess)
		return fail(e);
	n->u.copy = c;
	return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode,
				     cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     size_t numDependencies, void *dst,
				     const void *src, size_t count,
				     enum cudaMemcpyKind kind)
{
	struct CUgraphNode_st *n;
	cudaError_t e;

	ENTER();
	if (!simt_graph_kind_ok(kind))
		return fail(cudaErrorInvalidMemcpyDirection);
	if (!dst || !src)
		return fail(cudaErrorInvalidValue);
	e = add_node(pGraphNode, graph, pDependencies, numDependencies,
		     cudaGraphNodeTypeMemcpy, &n);
	if (e != cudaSuccess)
		return fail(e);
	simt_graph_copy_linear(&n->u.copy, dst, count, src, count, count, 1, kind);
	return cudaSuccess;
}

/* The storage of a __device__/__constant__ variable, with offset..count
 * inside it, or NULL. */
static void *symbol_at(const void *symbol, size_t offset, size_t count)
{
	struct simt_symbol *sym;
	struct simt_var *v;

	simt_lock();
	sym = simt_symbol_of(symbol);
	simt_unlock();
	if (!sym || !sym->mod || sym->var < 0)
		return NULL;
	v = &sym->mod->vars[sym->var];
	if (offset > v->size || count > v->size - offset)
		return NULL;
	return v->data + offset;
}

static cudaError_t add_symbol_copy(cudaGraphNode_t *out, cudaGraph_t g,
				   const cudaGraphNode_t *deps, size_t ndeps,
				   void *dst, const void *src, size_t count,
				   enum cudaMemcpyKind kind)
{
	struct CUgraphNode_st *n;
	cudaError_t e;

	if (!dst || !src)
		return fail(cudaErrorInvalidSymbol);
	if (!simt_graph_kind_ok(kind))
		return fail(cudaErrorInvalidMemcpyDirection);
	e = add_node(out, g, deps, ndeps, cudaGraphNodeTypeMemcpy, &n);
	if (e != cudaSuccess)
		return fail(e);
	simt_graph_copy_linear(&n->u.copy, dst, count, src, count, count, 1, kind);
	return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode,
					   cudaGraph_t graph,
					   const cudaGraphNode_t *pDependencies,
					   size_t numDependencies,
					   const void *symbol, const void *src,
					   size_t count, size_t offset,
					   enum cudaMemcpyKind kind)
{
	ENTER();
	return add_symbol_copy(pGraphNode, graph, pDependencies,
			       numDependencies, symbol_at(symbol, offset, count),
			       src, count, kind);
}

cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode,
					     cudaGraph_t graph,
					     const cudaGraphNode_t *pDependencies,
					     size_t numDependencies, void *dst,
					     const void *symbol, size_t count,
					     size_t offset,
					     enum cudaMemcpyKind kind)
{
	ENTER();
	return add_symbol_copy(pGraphNode, graph, pDependencies,
			       numDependencies, dst,
			       symbol_at(symbol, offset, count), count, kind);
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
					 struct cudaMemcpy3DParms *pNodeParams)
{
	if (node_of_type(node, cudaGraphNodeTypeMemcpy) != cudaSuccess ||
	    !pNodeParams)
		return fail(cudaErrorInvalidValue);
	*pNodeParams = node->u.copy.p3;
	return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
					 const struct cudaMemcpy3DParms *pNodeParams)
{
	struct copy_node c;
	cudaError_t e = node_of_type(node, cudaGraphNodeTypeMemcpy);

	if (e == cudaSuccess)
		e = graph_copy_params(&c, pNodeParams);
	if (e != cudaSuccess)
		return fail(e);
	node->u.copy = c;
	return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst,
					   const void *src, size_t count,
					   enum cudaMemcpyKind kind)
{
	if (node_of_type(node, cudaGraphNodeTypeMemcpy) != cudaSuccess ||
	    !dst || !src)
		return fail(cudaErrorInvalidValue);
	if (!simt_graph_kind_ok(kind))
		return fail(cudaErrorInvalidMemcpyDirection);
	simt_graph_copy_linear(&node->u.copy, dst, count, src, count, count, 1, kind);
	return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaMemsetParams *pMemsetParams)
{
	struct cudaMemsetParams p;
	struct CUgraphNode_st *n;
	cudaError_t e;

	ENTER();
	e = graph_set_params(&p, pMemsetParams);
	if (e == cudaSuccess)
		e = add_node(pGraphNode, graph, pDependencies, numDependencies,
			     cudaGraphNodeTypeMemset, &n);
	if (e != cudaSuccess)
		return fail(e);
	n->u.set = p;
	return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
					 struct cudaMemsetParams *pNodeParams)
{
	if (node_of_type(node, cudaGraphNodeTypeMemset) != cudaSuccess ||
	    !pNodeParams)
		return fail(cudaErrorInvalidValue);
	*pNodeParams = node->u.set;
	return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
					 const struct cudaMemsetParams *pNodeParams)
{
	cudaError_t e = node_of_type(node, cudaGraphNodeTypeMemset);

	if (e == cudaSuccess)
		e = graph_set_params(&node->u.set, pNodeParams);
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode,
				 cudaGraph_t graph,
				 const cudaGraphNode_t *pDependencies,
				 size_t numDependencies,
				 const struct cudaHostNodeParams *pNodeParams)
{
	struct CUgraphNode_st *n;
	cudaError_t e;

	ENTER();
	if (!pNodeParams || !pNodeParams->fn)
		return fail(cudaErrorInvalidValue);
	e = add_node(pGraphNode, graph, pDependencies, numDependencies,
		     cudaGraphNodeTypeHost, &n);
	if (e != cudaSuccess)
		return fail(e);
	n->u.host = *pNodeParams;
	return cudaSuccess;
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node,
				       struct cudaHostNodeParams *pNodeParams)
{
	if (node_of_type(node, cudaGraphNodeTypeHost) != cudaSuccess ||
	    !pNodeParams)
		return fail(cudaErrorInvalidValue);
	*pNodeParams = node->u.host;
	return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
				       const struct cudaHostNodeParams *pNodeParams)
{
	if (node_of_type(node, cudaGraphNodeTypeHost) != cudaSuccess ||
	    !pNodeParams || !pNodeParams->fn)
		return fail(cudaErrorInvalidValue);
	node->u.host = *pNodeParams;
	return cudaSuccess;
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode,
				       cudaGraph_t graph,
				       const cudaGraphNode_t *pDependencies,
				       size_t numDependencies,
				       cudaGraph_t childGraph)
{
	struct CUgraphNode_st *n;
	cudaError_t e;

	ENTER();
	if (!simt_graph_ok(childGraph) || childGraph == graph)
		return fail(cudaErrorInvalidValue);
	if (simt_graph_mem_any(childGraph))
		return mem_refused("cudaGraphAddChildGraphNode", "a child graph");
	e = add_node(pGraphNode, graph, pDependencies, numDependencies,
		     cudaGraphNodeTypeGraph, &n);
	if (e != cudaSuccess)
		return fail(e);
	n->u.child = simt_graph_clone(childGraph);
	return cudaSuccess;
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node,
					    cudaGraph_t *pGraph)
{
	if (node_of_type(node, cudaGraphNodeTypeGraph) != cudaSuccess ||
	    !pGraph)
		return fail(cudaErrorInvalidValue);
	*pGraph = node->u.child;
	return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode,
				  cudaGraph_t graph,
				  const cudaGraphNode_t *pDependencies,
				  size_t numDependencies)
{
	struct CUgraphNode_st *n;
	cudaError_t e;

	ENTER();
	e = add_node(pGraphNode, graph, pDependencies, numDependencies,
		     cudaGraphNodeTypeEmpty, &n);
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node,
				 enum cudaGraphNodeType *pType)
{
	if (!graph_node_ok(node) || !pType)
		return fail(cudaErrorInvalidValue);
	*pType = node->type;
	return cudaSuccess;
}

/* Writes up to *count of the n nodes for which `want` holds into out
 * (when out is given); *count becomes the number written, or the number
 * there are when out is NULL. */
static void list_out(struct CUgraphNode_st **v, size_t n,
		     bool (*want)(const struct CUgraphNode_st *),
		     cudaGraphNode_t *out, size_t *count)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (want && !want(v[i]))
			continue;
		if (out && k < *count)
			out[k] = v[i];
		k++;
	}
	if (!out || k < *count)
		*count = k;
}

static bool is_root(const struct CUgraphNode_st *n)
{
	return n->deps.n == 0;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
			      size_t *numNodes)
{
	if (!simt_graph_ok(graph) || !numNodes)
		return fail(cudaErrorInvalidValue);
	list_out(graph->nodes.v, graph->nodes.n, NULL, nodes, numNodes);
	return cudaSuccess;
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph,
				  cudaGraphNode_t *pRootNodes,
				  size_t *pNumRootNodes)
{
	if (!simt_graph_ok(graph) || !pNumRootNodes)
		return fail(cudaErrorInvalidValue);
	list_out(graph->nodes.v, graph->nodes.n, is_root, pRootNodes,
		 pNumRootNodes);
	return cudaSuccess;
}

/* Every edge from -> to of g, in node order; the count when from/to are
 * NULL. */
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
			      cudaGraphNode_t *to, cudaGraphEdgeData *edgeData,
			      size_t *numEdges)
{
	size_t i, j, k = 0;

	if (!simt_graph_ok(graph) || !numEdges || (!from != !to))
		return fail(cudaErrorInvalidValue);
	for (i = 0; i < graph->nodes.n; i++) {
		struct CUgraphNode_st *n = graph->nodes.v[i];

		for (j = 0; j < n->deps.n; j++, k++) {
			if (!from || k >= *numEdges)
				continue;
			from[k] = n->deps.v[j];
			to[k] = n;
			if (edgeData)
				memset(&edgeData[k], 0, sizeof edgeData[k]);
		}
	}
	if (!from || k < *numEdges)
		*numEdges = k;
	return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
					 cudaGraphNode_t *pDependencies,
					 cudaGraphEdgeData *edgeData,
					 size_t *pNumDependencies)
{
	size_t i;

	if (!graph_node_ok(node) || !pNumDependencies)
		return fail(cudaErrorInvalidValue);
	list_out(node->deps.v, node->deps.n, NULL, pDependencies,
		 pNumDependencies);
	for (i = 0; edgeData && pDependencies && i < *pNumDependencies; i++)
		memset(&edgeData[i], 0, sizeof edgeData[i]);
	return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
					   cudaGraphNode_t *pDependentNodes,
					   cudaGraphEdgeData *edgeData,
					   size_t *pNumDependentNodes)
{
	struct node_list out = {0};
	size_t i;

	if (!graph_node_ok(node) || !pNumDependentNodes)
		return fail(cudaErrorInvalidValue);
	for (i = 0; i < node->graph->nodes.n; i++)
		if (simt_graph_list_has(&node->graph->nodes.v[i]->deps, node))
			simt_graph_list_add(&out, node->graph->nodes.v[i]);
	list_out(out.v, out.n, NULL, pDependentNodes, pNumDependentNodes);
	for (i = 0; edgeData && pDependentNodes && i < *pNumDependentNodes; i++)
		memset(&edgeData[i], 0, sizeof edgeData[i]);
	free(out.v);
	return cudaSuccess;
}

static cudaError_t edges_ok(cudaGraph_t graph, const cudaGraphNode_t *from,
			    const cudaGraphNode_t *to, size_t n)
{
	size_t i;

	if (!simt_graph_ok(graph) || (n && (!from || !to)))
		return cudaErrorInvalidValue;
	for (i = 0; i < n; i++)
		if (!graph_node_ok(from[i]) || !graph_node_ok(to[i]) ||
		    from[i]->graph != graph || to[i]->graph != graph ||
		    from[i] == to[i])
			return cudaErrorInvalidValue;
	return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph,
				     const cudaGraphNode_t *from,
				     const cudaGraphNode_t *to,
				     const cudaGraphEdgeData *edgeData,
				     size_t numDependencies)
{
	size_t i;

	(void)edgeData;
	if (edges_ok(graph, from, to, numDependencies) != cudaSuccess)
		return fail(cudaErrorInvalidValue);
	for (i = 0; i < numDependencies; i++)
		if (simt_graph_list_has(&to[i]->deps, from[i]))
			return fail(cudaErrorInvalidValue);
	for (i = 0; i < numDependencies; i++)
		simt_graph_list_add_new(&to[i]->deps, from[i]);
	return cudaSuccess;
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph,
					const cudaGraphNode_t *from,
					const cudaGraphNode_t *to,
					const cudaGraphEdgeData *edgeData,
					size_t numDependencies)
{
	size_t i;

	(void)edgeData;
	if (edges_ok(graph, from, to, numDependencies) != cudaSuccess)
		return fail(cudaErrorInvalidValue);
	if (simt_graph_mem_any(graph))
		return mem_refused("cudaGraphRemoveDependencies", "changed so");
	for (i = 0; i < numDependencies; i++)
		if (!simt_graph_list_has(&to[i]->deps, from[i]))
			return fail(cudaErrorInvalidValue);
	for (i = 0; i < numDependencies; i++)
		list_remove(&to[i]->deps, from[i]);
	return cudaSuccess;
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
	struct CUgraph_st *g;
	size_t i;

	if (!graph_node_ok(node))
		return fail(cudaErrorInvalidValue);
	g = node->graph;
	if (simt_graph_mem_any(g))
		return mem_refused("cudaGraphDestroyNode", "changed so");
	for (i = 0; i < g->nodes.n; i++)
		list_remove(&g->nodes.v[i]->deps, node);
	list_remove(&g->nodes, node);
	for (i = 0; i < g->nodes.n; i++)
		g->nodes.v[i]->index = i;
	node_free(node);
	return cudaSuccess;
}
