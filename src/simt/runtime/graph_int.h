/* What graph.c (graphs, nodes), graph_exec.c (instantiation, launches)
 * and graph_capture.c (stream capture) share: the objects behind the
 * graph handles and the helpers they build and run graphs with. */
#ifndef SIMT_GRAPH_INT_H
#define SIMT_GRAPH_INT_H

#include "runtime/runtime.h"

struct kernel_node {
	struct simt_kernel *k;
	void *func;
	dim3 grid, block;
	unsigned shmem;
	uint8_t *buf;    /* the arguments, packed as the kernel lays them out */
	void **argv;     /* a pointer into buf for each parameter */
};

/* A copy of depth slices of height rows of width bytes. */
struct copy_node {
	char *dst;
	const char *src;
	size_t dpitch, dslice, spitch, sslice;
	size_t width, height, depth;
	enum cudaMemcpyKind kind;
	struct cudaMemcpy3DParms p3;  /* as given, for GetParams */
};

/* A conditional node: the handle whose value picks a body, and the
 * bodies, graphs the node owns. */
struct cond_node {
	cudaGraphConditionalHandle handle;
	enum cudaGraphConditionalNodeType type;
	unsigned size;
	struct CUgraph_st **body;
};

struct node_list {
	struct CUgraphNode_st **v;
	size_t n, cap;
};

struct CUgraphNode_st {
	uint32_t magic;
	enum cudaGraphNodeType type;
	struct CUgraph_st *graph;
	size_t index;              /* position in graph->nodes */
	struct node_list deps;     /* the nodes this one waits for */
	/* In an executable graph: the node's lane in the stream order,
	 * whether a node that depends on it continues that lane, what the
	 * node has done when it ends (what its dependents follow) and, for a
	 * child graph node, what the child's roots follow. */
	uint32_t lane;
	bool lane_passed;
	struct simt_order_vc *done, *start;
	union {
		struct kernel_node kernel;
		struct copy_node copy;
		struct cudaMemsetParams set;
		struct cudaHostNodeParams host;
		struct CUgraph_st *child;
		struct simt_gmem *mem;   /* memory allocation and free nodes */
		struct cond_node cond;
	} u;
};

struct CUgraph_st {
	uint32_t magic;
	struct node_list nodes;
	/* Execution order, filled when the graph belongs to an executable
	 * graph (which never changes its structure afterwards). */
	struct CUgraphNode_st **order;
	bool lanes;                /* its nodes have lanes */
};

struct CUgraphExec_st {
	uint32_t magic;
	unsigned long long flags;
	/* the graph it was made from (compared, never followed): its
	 * conditional handles reset at each launch */
	const struct CUgraph_st *from;
	struct CUgraph_st *snap;
	/* orig[i]: the node of the instantiated graph that snap's node i
	 * copies, so the program can name the node it knows. */
	struct CUgraphNode_st **orig;
	/* what the last launch's nodes follow and did: the next launch
	 * follows it, as CUDA orders launches of one executable graph */
	struct simt_order_vc *last;
};

struct capture {
	struct capture *next;
	unsigned long long id;
	struct CUgraph_st *graph;
	size_t first_node;         /* nodes before it belong to the program */
	bool own_graph;            /* made by the capture, not given to it */
	struct simt_stream_capture *origin;
	enum cudaStreamCaptureMode mode;
	pthread_t thread;
	bool invalid;
	struct simt_stream_capture **members;
	size_t nmembers;
};

struct simt_stream_capture {
	struct capture *cap;
	struct simt_stream_capture **slot;
	bool blocking;
	struct node_list deps;     /* what the stream's next node waits for */
};

struct simt_event_capture {
	unsigned long long id;     /* the capture it was recorded in */
	struct node_list deps;
};

static inline cudaError_t fail(cudaError_t e)
{
	return simt_set_error(e);
}

static inline cudaError_t enter(void)
{
	simt_init();
	return simt_sticky() != cudaSuccess ? fail(simt_sticky()) : cudaSuccess;
}

#define ENTER() \
	do { \
		cudaError_t e_ = enter(); \
		if (e_ != cudaSuccess) \
			return e_; \
	} while (0)

void simt_graph_copy_linear(struct copy_node *c, void *dst, size_t dpitch,
			    const void *src, size_t spitch, size_t width,
			    size_t height, enum cudaMemcpyKind kind);
cudaError_t simt_graph_deps_ok(const struct CUgraph_st *g,
			       const cudaGraphNode_t *deps, size_t n);
void simt_graph_drop_last(cudaGraph_t g);
void simt_graph_free(struct CUgraph_st *g);
struct CUgraph_st *simt_graph_new(void);
bool simt_graph_ok(const struct CUgraph_st *g);
cudaError_t simt_graph_kernel_set(struct kernel_node *kn, struct simt_kernel *k,
				  void **args, void **extra);
bool simt_graph_kind_ok(enum cudaMemcpyKind kind);
void simt_graph_list_add(struct node_list *l, struct CUgraphNode_st *n);
void simt_graph_list_add_new(struct node_list *l, struct CUgraphNode_st *n);
void simt_graph_list_copy(struct node_list *to, const struct node_list *from);
bool simt_graph_list_has(const struct node_list *l, const struct CUgraphNode_st *n);
struct CUgraphNode_st *simt_graph_node_add(struct CUgraph_st *g,
					   enum cudaGraphNodeType type,
					   const cudaGraphNode_t *deps, size_t ndeps);
struct CUgraph_st *simt_graph_clone(const struct CUgraph_st *g);
struct simt_stream_capture *simt_graph_member_of(cudaStream_t s, cudaError_t *err);
void simt_graph_record(struct simt_stream_capture *m, struct CUgraphNode_st *n);
bool simt_graph_capturing(const struct CUgraph_st *g);

/* graph_cond.c: conditional nodes.  The body graph that runs for
 * iteration iter of node n (iter counts the runs of a while loop), or
 * NULL when none does; clone and free follow the node's own. */
struct CUgraph_st *simt_graph_cond_body(const struct CUgraphNode_st *n,
					unsigned iter);
void simt_graph_cond_dup(struct cond_node *to, const struct cond_node *from);
void simt_graph_cond_free(struct cond_node *c);
/* Before a launch of an executable graph made from g: the handles of g
 * that ask for it take their default value. */
void simt_graph_cond_launch(const struct CUgraph_st *g);

/* graph_mem.c: memory allocation and free nodes.  The fills give a new
 * node of the graph its allocation (p->dptr set) or the allocation dptr
 * names; ref/unref follow copies of such nodes. */
cudaError_t simt_graph_mem_alloc_fill(struct CUgraphNode_st *n,
				      struct cudaMemAllocNodeParams *p);
cudaError_t simt_graph_mem_free_fill(struct CUgraphNode_st *n, void *dptr);
void simt_graph_mem_ref(const struct CUgraphNode_st *n);
void simt_graph_mem_unref(const struct CUgraphNode_st *n);
/* Whether g has memory nodes. */
bool simt_graph_mem_any(const struct CUgraph_st *g);
/* Runs an allocation or free node. */
cudaError_t simt_graph_mem_run(const struct CUgraphNode_st *n);
/* Before launching g: allocations of its last launch still allocated are
 * freed (auto_free) or refuse the launch. */
cudaError_t simt_graph_mem_launch(const struct CUgraph_st *g, bool auto_free);
/* An executable graph of g is made (taking) or destroyed. */
cudaError_t simt_graph_mem_exec(const struct CUgraph_st *g, bool taking);

/* ---- shared by graph.c and graph_exec.c ---- */

#define GRAPH_MAGIC 0x47525048u
#define NODE_MAGIC 0x4e4f4445u
#define EXEC_MAGIC 0x47455843u

/* Values of the `extra` launch argument array (the driver API's). */
#define LAUNCH_PARAM_END ((void *)0)
#define LAUNCH_PARAM_BUFFER_POINTER ((void *)1)
#define LAUNCH_PARAM_BUFFER_SIZE ((void *)2)

/* Whether n and x are live handles of a node and an executable graph;
 * a copy node's, memset node's and kernel node's parameters checked and
 * taken from p (cudaSuccess, or the error to return). */
bool graph_node_ok(const struct CUgraphNode_st *n);
bool graph_exec_ok(const struct CUgraphExec_st *x);
cudaError_t graph_copy_params(struct copy_node *c,
			      const struct cudaMemcpy3DParms *p);
cudaError_t graph_set_params(struct cudaMemsetParams *to,
			     const struct cudaMemsetParams *p);
cudaError_t graph_kernel_replace(struct kernel_node *kn,
				 const struct cudaKernelNodeParams *p);

#endif
