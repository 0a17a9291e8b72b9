/* Graph memory nodes: an allocation node gives its allocation an address
 * when it is added (fixed for the graph's lifetime, across instantiations
 * and launches); the memory exists from a run of the allocation node until
 * it is freed: by a free node of the same or another graph, by cudaFree or
 * cudaFreeAsync, or by the next launch of an executable graph instantiated
 * with cudaGraphInstantiateFlagAutoFreeOnLaunch.
 *
 * simt reserves the address range when the node is added (in the arena's
 * guarded range, like all device memory, or a mapping of its own when
 * there is no arena) and, at each run of the node, maps its pages and
 * puts it in the allocation table as fresh device memory (nothing in it
 * initialized, for the hazard checks); freeing gives the pages back and
 * takes it out of the table again, so an access afterwards is reported as
 * one to a freed allocation.  The
 * device's graph memory figures (cudaDeviceGetGraphMemAttribute) model
 * the physical memory CUDA's graph allocator holds: it grows to the most
 * bytes allocated at once and gives back what is not allocated at
 * cudaDeviceGraphMemTrim.  simt runs graphs one after another, so the
 * allocations of graphs on different streams never overlap in time, and
 * do not add up as they may on a GPU.
 *
 * CUDA's restrictions on graphs with memory nodes hold: such a graph is
 * not cloned, used as a child graph, or changed by removing nodes or
 * edges, and only one executable graph of it exists at a time. */
#include "runtime/graph_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct simt_gmem {
	struct simt_gmem *next;
	uint32_t refs;              /* nodes naming it, and 1 while it exists */
	char *base;
	size_t size, span;
	bool arena;                 /* reserved in the arena, else by mmap */
	int device;
	bool live;                  /* allocated: between its node's run and a free */
	uint32_t free_nodes;        /* free nodes naming it */
	bool in_exec;               /* an executable graph holds its node */
	struct cudaMemPoolProps props;
	struct cudaMemAccessDesc *descs;
	size_t ndescs;
	struct CUmemPoolHandle_st *access;
	/* the call that made it and its return address (simt_mem_origin) */
	const char *api;
	const void *site;
};

static struct simt_gmem *gmems;

/* Per device: bytes of graph allocations allocated now, the physical
 * memory the graph allocator holds for them (it grows to the largest
 * amount allocated at once, and shrinks to what is allocated only at
 * cudaDeviceGraphMemTrim), and its high-water mark. */
static struct {
	uint64_t live, held, held_high;
} stat[SIMT_MAX_GPUS];

static void gmem_unref(struct simt_gmem *g)
{
	struct simt_gmem **pp;

	if (--g->refs)
		return;
	for (pp = &gmems; *pp; pp = &(*pp)->next)
		if (*pp == g) {
			*pp = g->next;
			break;
		}
	if (!g->arena)
		munmap(g->base, g->span);
	simt_pool_graph_drop(g->access);
	free(g->descs);
	free(g);
}

void simt_graph_mem_ref(const struct CUgraphNode_st *n)
{
	n->u.mem->refs++;
	if (n->type == cudaGraphNodeTypeMemFree)
		n->u.mem->free_nodes++;
}

void simt_graph_mem_unref(const struct CUgraphNode_st *n)
{
	simt_lock();
	if (n->type == cudaGraphNodeTypeMemFree)
		n->u.mem->free_nodes--;
	gmem_unref(n->u.mem);
	simt_unlock();
}

/* Makes g's pages usable (zeroed when in the arena); false on failure. */
static bool gmem_map(struct simt_gmem *g)
{
	return g->arena ? simt_arena_map(g->base, g->span)
			: mprotect(g->base, g->span, PROT_READ | PROT_WRITE) == 0;
}

static void gmem_unmap(struct simt_gmem *g)
{
	if (g->arena)
		simt_arena_unmap(g->base, g->span);
	else
		mprotect(g->base, g->span, PROT_NONE);
}

void simt_gmem_unmapped(struct simt_gmem *g)
{
	gmem_unmap(g);
	g->live = false;
	stat[g->device].live -= g->size;
	gmem_unref(g);
}

/* The graph allocation whose address p is, or NULL. */
static struct simt_gmem *gmem_at(const void *p)
{
	struct simt_gmem *g;

	for (g = gmems; g; g = g->next)
		if (g->base == p)
			return g;
	return NULL;
}

/* A new allocation as an allocation node's parameters describe it;
 * simt_lock held. */
static cudaError_t gmem_new(const struct cudaMemAllocNodeParams *p,
			    struct simt_gmem **out)
{
	struct simt_gmem *g;
	size_t i, span;
	void *base;
	bool arena = true;
	int d = p->poolProps.location.id;

	if (p->poolProps.allocType != 1 || p->poolProps.location.type != 1 ||
	    d < 0 || d >= simt_device_count() || p->poolProps.handleTypes ||
	    p->bytesize == 0 || (p->accessDescCount && !p->accessDescs) ||
	    p->accessDescCount > (size_t)simt_device_count())
		return cudaErrorInvalidValue;
	for (i = 0; i < p->accessDescCount; i++) {
		const struct cudaMemAccessDesc *a = &p->accessDescs[i];

		if (a->location.type != 1 || a->location.id < 0 ||
		    a->location.id >= simt_device_count() ||
		    (a->flags != 0 && a->flags != 1 && a->flags != 3) ||
		    (a->location.id == d && a->flags != 3))
			return cudaErrorInvalidValue;
	}
	span = simt_page_round(p->bytesize);
	if (span < p->bytesize || p->bytesize > simt_device()->prop.totalGlobalMem)
		return cudaErrorMemoryAllocation;
	base = simt_arena_reserve(span, true);
	if (!base) {
		arena = false;
		base = mmap(NULL, span, PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (base == MAP_FAILED)
			return cudaErrorMemoryAllocation;
	}
	g = simt_xcalloc(1, sizeof *g);
	g->base = base;
	g->arena = arena;
	g->size = p->bytesize;
	g->span = span;
	g->device = d;
	g->props = p->poolProps;
	g->access = simt_pool_graph_new(d);
	if (p->accessDescCount) {
		g->descs = simt_xcalloc(p->accessDescCount, sizeof *g->descs);
		memcpy(g->descs, p->accessDescs, p->accessDescCount * sizeof *g->descs);
		g->ndescs = p->accessDescCount;
		for (i = 0; i < g->ndescs; i++)
			simt_pool_access(g->access, g->descs[i].location.id,
					 g->descs[i].flags);
	}
	g->refs = 1;
	g->next = gmems;
	gmems = g;
	*out = g;
	return cudaSuccess;
}

/* ---- nodes ---- */

cudaError_t simt_graph_mem_alloc_fill(struct CUgraphNode_st *n,
				      struct cudaMemAllocNodeParams *p)
{
	struct simt_gmem *g;
	cudaError_t e = gmem_new(p, &g);

	if (e != cudaSuccess)
		return e;
	n->u.mem = g;
	p->dptr = g->base;
	return cudaSuccess;
}

cudaError_t simt_graph_mem_free_fill(struct CUgraphNode_st *n, void *dptr)
{
	struct simt_gmem *g = gmem_at(dptr);

	/* an address an allocation node returned, freed by one node */
	if (!g || g->free_nodes)
		return cudaErrorInvalidValue;
	g->free_nodes++;
	g->refs++;
	n->u.mem = g;
	return cudaSuccess;
}

void simt_graph_mem_origin(const void *dptr, const char *api, const void *site)
{
	struct simt_gmem *g = gmem_at(dptr);

	if (g) {
		g->api = api;
		g->site = site;
	}
}

bool simt_graph_mem_any(const struct CUgraph_st *g)
{
	size_t i;

	for (i = 0; i < g->nodes.n; i++)
		if (g->nodes.v[i]->type == cudaGraphNodeTypeMemAlloc ||
		    g->nodes.v[i]->type == cudaGraphNodeTypeMemFree)
			return true;
	return false;
}

/* Adds a node of type to graph, which fill() gives its allocation. */
static cudaError_t add_mem_node(cudaGraphNode_t *out, cudaGraph_t graph,
				const cudaGraphNode_t *deps, size_t ndeps,
				enum cudaGraphNodeType type,
				cudaError_t (*fill)(struct CUgraphNode_st *, void *),
				void *arg)
{
	struct CUgraphNode_st *n;
	cudaError_t e;

	simt_init();
	if (!out || !simt_graph_ok(graph))
		return fail(cudaErrorInvalidValue);
	simt_lock();
	e = simt_graph_deps_ok(graph, deps, ndeps);
	if (e == cudaSuccess) {
		n = simt_graph_node_add(graph, type, deps, ndeps);
		e = fill(n, arg);
		if (e == cudaSuccess)
			*out = n;
		else
			simt_graph_drop_last(graph);
	}
	simt_unlock();
	return e == cudaSuccess ? e : fail(e);
}

static cudaError_t fill_alloc(struct CUgraphNode_st *n, void *arg)
{
	return simt_graph_mem_alloc_fill(n, arg);
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     size_t numDependencies,
				     struct cudaMemAllocNodeParams *nodeParams)
{
	cudaError_t e;

	if (!nodeParams)
		return fail(cudaErrorInvalidValue);
	e = add_mem_node(pGraphNode, graph, pDependencies, numDependencies,
			 cudaGraphNodeTypeMemAlloc, fill_alloc, nodeParams);
	if (e == cudaSuccess) {
		simt_lock();
		simt_graph_mem_origin(nodeParams->dptr, "cudaGraphAddMemAllocNode",
				      __builtin_return_address(0));
		simt_unlock();
	}
	return e;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				    const cudaGraphNode_t *pDependencies,
				    size_t numDependencies, void *dptr)
{
	return add_mem_node(pGraphNode, graph, pDependencies, numDependencies,
			    cudaGraphNodeTypeMemFree, simt_graph_mem_free_fill, dptr);
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
					   struct cudaMemAllocNodeParams *params_out)
{
	const struct simt_gmem *g;

	if (!params_out || !node || node->type != cudaGraphNodeTypeMemAlloc)
		return fail(cudaErrorInvalidValue);
	g = node->u.mem;
	memset(params_out, 0, sizeof *params_out);
	params_out->poolProps = g->props;
	params_out->accessDescs = g->descs;
	params_out->accessDescCount = g->ndescs;
	params_out->bytesize = g->size;
	params_out->dptr = g->base;
	return cudaSuccess;
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
	void *p;

	if (!dptr_out || !node || node->type != cudaGraphNodeTypeMemFree)
		return fail(cudaErrorInvalidValue);
	p = node->u.mem->base;
	memcpy(dptr_out, &p, sizeof p);
	return cudaSuccess;
}

/* ---- running ---- */

cudaError_t simt_graph_mem_run(const struct CUgraphNode_st *n)
{
	struct simt_gmem *g = n->u.mem;
	cudaError_t e = cudaSuccess;

	simt_lock();
	if (n->type == cudaGraphNodeTypeMemAlloc) {
		if (g->live) {
			simt_warn("a graph's allocation node at %p ran while its "
				  "allocation was still allocated", (void *)g->base);
			e = cudaErrorInvalidValue;
		} else if (!gmem_map(g) ||
			   !simt_mem_place(g->base, g->size, g->device, g)) {
			gmem_unmap(g);
			e = cudaErrorMemoryAllocation;
		} else {
			simt_mem_set_pool(g->base, g->access);
			simt_mem_origin(g->base, g->api, g->site);
			simt_pool_took(g->access, g->size);
			g->live = true;
			g->refs++;
			stat[g->device].live += g->size;
			if (stat[g->device].live > stat[g->device].held)
				stat[g->device].held = stat[g->device].live;
			if (stat[g->device].held > stat[g->device].held_high)
				stat[g->device].held_high = stat[g->device].held;
		}
	} else if (!g->live) {
		simt_warn("a graph's free node: the allocation at %p is not "
			  "allocated (freed already, or its allocation node has "
			  "not run)", (void *)g->base);
		e = cudaErrorInvalidValue;
	} else {
		simt_mem_free(g->base, MEM_DEVICE);
	}
	simt_unlock();
	return e;
}

/* Before a launch: every allocation node of g whose allocation is still
 * allocated is freed when auto_free, else the launch is refused. */
cudaError_t simt_graph_mem_launch(const struct CUgraph_st *g, bool auto_free)
{
	cudaError_t e = cudaSuccess;
	size_t i;

	simt_lock();
	for (i = 0; i < g->nodes.n && e == cudaSuccess; i++) {
		struct simt_gmem *m = g->nodes.v[i]->u.mem;

		if (g->nodes.v[i]->type != cudaGraphNodeTypeMemAlloc || !m->live)
			continue;
		if (auto_free) {
			simt_mem_free(m->base, MEM_DEVICE);
			continue;
		}
		simt_warn("cudaGraphLaunch: the graph's allocation at %p from its "
			  "last launch is not freed (free it first, or instantiate "
			  "with cudaGraphInstantiateFlagAutoFreeOnLaunch)",
			  (void *)m->base);
		e = cudaErrorInvalidValue;
	}
	simt_unlock();
	return e;
}

/* Instantiation: only one executable graph of a graph with memory nodes
 * at a time (taking says whether one is made or destroyed). */
cudaError_t simt_graph_mem_exec(const struct CUgraph_st *g, bool taking)
{
	size_t i;

	simt_lock();
	for (i = 0; taking && i < g->nodes.n; i++)
		if (g->nodes.v[i]->type == cudaGraphNodeTypeMemAlloc &&
		    g->nodes.v[i]->u.mem->in_exec) {
			simt_unlock();
			simt_warn("cudaGraphInstantiate: a graph with memory nodes "
				  "has one executable graph at a time");
			return cudaErrorNotSupported;
		}
	for (i = 0; i < g->nodes.n; i++)
		if (g->nodes.v[i]->type == cudaGraphNodeTypeMemAlloc)
			g->nodes.v[i]->u.mem->in_exec = taking;
	simt_unlock();
	return cudaSuccess;
}

/* ---- the device's graph memory ---- */

cudaError_t cudaDeviceGraphMemTrim(int device)
{
	simt_init();
	if (device < 0 || device >= simt_device_count())
		return fail(cudaErrorInvalidDevice);
	simt_lock();
	stat[device].held = stat[device].live;
	simt_unlock();
	return cudaSuccess;
}

/* The arguments of the graph memory attribute calls. */
static cudaError_t attr_args(int device, const void *value)
{
	simt_init();
	if (device < 0 || device >= simt_device_count())
		return cudaErrorInvalidDevice;
	return value ? cudaSuccess : cudaErrorInvalidValue;
}

enum { GM_USED = 0, GM_USED_HIGH = 1, GM_RESERVED = 2, GM_RESERVED_HIGH = 3 };

cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value)
{
	cudaError_t e = attr_args(device, value);
	uint64_t v;

	if (e != cudaSuccess)
		return fail(e);
	simt_lock();
	/* the memory associated with graphs and the allocator's are the
	 * same memory here */
	switch (attr) {
	case GM_USED:
	case GM_RESERVED:
		v = stat[device].held;
		break;
	case GM_USED_HIGH:
	case GM_RESERVED_HIGH:
		v = stat[device].held_high;
		break;
	default:
		simt_unlock();
		return fail(cudaErrorInvalidValue);
	}
	simt_unlock();
	memcpy(value, &v, sizeof v);
	return cudaSuccess;
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value)
{
	cudaError_t e = attr_args(device, value);
	uint64_t v;

	if (e != cudaSuccess)
		return fail(e);
	memcpy(&v, value, sizeof v);
	/* only the high-water marks, and only back to the current figure */
	if ((attr != GM_USED_HIGH && attr != GM_RESERVED_HIGH) || v)
		return fail(cudaErrorInvalidValue);
	simt_lock();
	stat[device].held_high = stat[device].held;
	simt_unlock();
	return cudaSuccess;
}
