/* The CUDA runtime API on simt, as its files share it: memory and memory
 * pools, devices, streams and events, the state of the runtime (kernels
 * and variables registered by the program, errors, limits), graphs and
 * stream capture, copies and sets, and launches. */
#ifndef SIMT_RUNTIME_H
#define SIMT_RUNTIME_H

#include "base/device.h"
#include "exec/exec.h"
#include "exec/host.h"
#include "mem/mem.h"
#include "ptx/ptx.h"

#include <pthread.h>

/* ---- memory (memory.c) ---- */

/* Allocates on the calling thread's current device, or on device d. */
void *simt_mem_alloc(size_t size, int kind, unsigned flags);
void *simt_mem_alloc_on(size_t size, int kind, unsigned flags, int d);
int simt_mem_free(void *p, int kind);
/* After an allocation call `api` that returned e with the allocation in
 * *ptr (memapi.c): records the call and `site`, its return address into
 * the program (SIMT_CALLER, taken in the function the program called),
 * for the report of host code touching the memory (mem/guard.c).
 * Returns e. */
cudaError_t simt_mem_made(cudaError_t e, void *const *ptr, const char *api,
			  const void *site);
#define SIMT_CALLER __builtin_return_address(0)
/* Marks allocation p as one of pool's (mempool.c). */
void simt_mem_set_pool(void *p, struct CUmemPoolHandle_st *pool);
/* Puts size bytes at p (mapped by the caller) in the table as device
 * memory of device d belonging to graph allocation g; false when the
 * device has no room. */
bool simt_mem_place(void *p, size_t size, int d, struct simt_gmem *g);
/* graph_mem.c: the allocation of g was freed (by any call). */
void simt_gmem_unmapped(struct simt_gmem *g);
/* Records the call that made graph allocation dptr and its return
 * address, given to the allocation each time it is made
 * (simt_mem_origin); nothing when dptr is none.  simt_lock held. */
void simt_graph_mem_origin(const void *dptr, const char *api, const void *site);

/* ---- memory pools (mempool.c); simt_lock held unless said ---- */

/* An allocation of size bytes was taken from p, or given back. */
void simt_pool_took(struct CUmemPoolHandle_st *p, uint64_t size);
void simt_pool_freed(struct CUmemPoolHandle_st *p, uint64_t size);
/* The access list of a graph allocation on device d, as a pool nobody
 * can name; released with simt_pool_graph_drop. */
struct CUmemPoolHandle_st *simt_pool_graph_new(int d);
void simt_pool_graph_drop(struct CUmemPoolHandle_st *p);
bool simt_pool_graph(const struct CUmemPoolHandle_st *p);
/* Sets the access of device d (cudaMemAccessFlags) to p's memory. */
void simt_pool_access(struct CUmemPoolHandle_st *p, int d, int flags);
/* Whether device d may access p's allocations. */
bool simt_pool_reaches(const struct CUmemPoolHandle_st *p, int d);
bool simt_pool_host(const struct CUmemPoolHandle_st *p);
/* A synchronization: pools over their release threshold shrink. */
void simt_pool_settle(void);
/* Freed bytes device d's pools still hold. */
uint64_t simt_pool_cached(int d);
/* Device d was reset: its pools hold nothing and its current pool is the
 * default one. */
void simt_pool_reset(int d);
/* cudaMallocAsync: from the current pool of the stream's device (no lock
 * held). */
cudaError_t simt_pool_malloc_async(void **ptr, size_t size, cudaStream_t stream);
/* Tracks memory simt did not allocate (module variables, registrations). */
void simt_mem_track(void *p, uint64_t size, int kind, const char *name,
		    bool readonly);
void simt_mem_untrack(void *p);
/* Bytes of device and managed memory allocated on device d. */
uint64_t simt_mem_used(int d);
/* Marks n bytes at p as written outside a kernel (a copy, a memset, a
 * library call such as cuBLAS), so that kernels may read them without an
 * uninitialized-read report.  Memory that is not device memory is
 * ignored. */
void simt_mem_written(const void *p, uint64_t n);
/* The same for a copy of n bytes from src to dst: written where the
 * source was (device memory) or wholly (other memory). */
void simt_mem_copied(void *dst, const void *src, uint64_t n);
/* Frees the device, managed and pinned allocations made on device d
 * (cudaDeviceReset). */
void simt_mem_reset(int d);

/* ---- devices (runtime.c) ---- */

/* How many devices there are (CUDALAB_SIMT_GPUS, default 1). */
int simt_device_count(void);
/* The calling host thread's current device (0 in a new thread). */
int simt_current_device(void);
/* Whether kernels on device `from` may access memory of device `to`
 * (the same device, or peer access enabled). */
bool simt_peer_enabled(int from, int to);
/* Whether a copy between the memories of two distinct devices goes
 * directly, device to device: peer access is enabled between them, in
 * either direction.  Without it CUDA stages the copy through the host. */
bool simt_peer_copy_direct(int src, int dst);
/* A copy of n bytes from src to dst was made (simt_lock held): when the
 * two sides are memory of two different devices, it counts as a peer
 * copy, staged or direct (perf/counters.h).  Between simt_copy_parts(true)
 * and (false), the calls are parts of one copy (the slices of a 3D
 * copy): only the first counts a copy, all count their bytes. */
void simt_peer_copy_note(const void *dst, const void *src, uint64_t n);
void simt_copy_parts(bool on);
/* The device stream s belongs to (the current one for the default
 * streams); s must be a valid handle. */
int simt_stream_device(cudaStream_t s);
/* The stream's lane in the stream order (order.h); simt_lock held. */
uint32_t simt_stream_lane(cudaStream_t s);
/* A host function enqueued on s runs now: the host is taken to know s's
 * work so far done (runtime.c). */
void simt_host_sees(cudaStream_t s);
/* The same, with a default stream taken as device's. */
uint32_t simt_stream_lane_on(cudaStream_t s, int device);
/* While lane is not UINT32_MAX, the calling thread's operations on
 * stream s are issued to lane instead of the stream's (a graph node's). */
void simt_stream_lane_sub(cudaStream_t s, uint32_t lane);
/* While on, the calling thread's stream 0 is its per-thread default
 * stream, as in the synchronous calls of a program built with
 * --default-stream per-thread; off, the legacy one. */
void simt_null_stream_per_thread(bool on);

/* ---- runtime state (runtime.c) ---- */

struct simt_kernel {
	const void *host_fun;
	struct simt_module *mod;
	int func;
	char *device_name;
};

struct simt_symbol {
	const void *host_var;
	struct simt_module *mod;
	int var;
	uint64_t size;
	bool constant;
	bool managed;
};

/* Serialises API calls; kernels run with it held. */
void simt_lock(void);
void simt_unlock(void);
cudaError_t simt_set_error(cudaError_t e);
cudaError_t simt_sticky(void);
void simt_set_sticky(cudaError_t e);
void simt_init(void);
struct simt_kernel *simt_kernel_of(const void *host_fun);
struct simt_symbol *simt_symbol_of(const void *host_var);

/* Capture state of a stream and the dependencies an event carries
 * into a capture; graph.c owns both, runtime.c keeps a slot for each. */
struct simt_stream_capture;
struct simt_event_capture;
/* The capture slot of stream s, or NULL for the legacy stream (handles 0
 * and 1); *blocking tells whether s synchronises with the legacy stream.
 * s must be a valid handle. */
struct simt_stream_capture **simt_stream_capture_slot(cudaStream_t s,
						      bool *blocking);
struct simt_event_capture **simt_event_capture_slot(cudaEvent_t e);
bool simt_stream_valid(cudaStream_t s);

extern size_t simt_stack_limit;
extern size_t simt_printf_fifo;
extern size_t simt_heap_limit;

/* ---- launches (launch.c, abi.c) ---- */

struct simt_launch_req {
	struct simt_module *mod;
	struct simt_func *fn;
	dim3 grid, block;
	size_t dyn_shared;
	void **args;
	/* cudaLaunchCooperativeKernel: every block resident at once, and a
	 * grid workspace for grid-wide synchronisation. */
	bool cooperative;
	cudaStream_t stream;
};

/* Runs a kernel to completion.  Returns cudaSuccess, a launch error (not
 * sticky), or a kernel fault (already reported and made sticky). */
cudaError_t simt_launch(const struct simt_launch_req *req);
/* abi.c: blocks of `f` resident per multiprocessor with `block` threads
 * and `dyn` bytes of dynamic shared memory (the occupancy API's figure). */
int simt_occupancy(const struct simt_func *f, int block, size_t dyn);

/* Whether kernel k can run: cudaSuccess, or the error a launch of it
 * returns (with the same one-time message) (abi.c). */
cudaError_t simt_kernel_usable(struct simt_kernel *k);

/* ---- the modelled timeline (timeline.c); simt_lock held ---- */

/* Whether operations get modelled times (the time model is on). */
bool simt_tl_on(void);
/* With the time model on, the devices simt reports become the GPU it
 * predicts for (at initialisation). */
void simt_tl_adopt_device(void);
/* A kernel of `us` predicted microseconds ran on lane of device, holding
 * `share` of the GPU's block slots (1: all of them). */
void simt_tl_kernel(uint32_t lane, int device, double us, double share);
/* A copy of `bytes` from src to dst ran on lane; sync: a call the host
 * waits for when it reaches host memory (cudaMemcpy).  A memset. */
void simt_tl_copy(uint32_t lane, void *dst, const void *src, uint64_t bytes,
		  bool sync);
void simt_tl_set(uint32_t lane, void *dst, uint64_t bytes);
/* Milliseconds between two recorded events' modelled times. */
struct simt_order_vc;
double simt_tl_elapsed_ms(const struct simt_order_vc *start,
			  const struct simt_order_vc *end);

/* ---- graphs and stream capture (graph.c) ---- */

/* Number of capture sequences in progress; every hook below is called
 * only while it is non-zero, so code outside a capture pays one load. */
extern _Atomic int simt_capture_live;

/* Hooks of the stream-ordered calls.  Each returns true when the call was
 * taken over (recorded into a capture, or refused because of one) with
 * its result in *err, false when the call should run as usual. */
bool simt_capture_kernel(struct simt_kernel *k, dim3 grid, dim3 block,
			 void **args, size_t shmem, cudaStream_t s,
			 cudaError_t *err);
bool simt_capture_copy(void *dst, size_t dpitch, const void *src,
		       size_t spitch, size_t width, size_t height,
		       enum cudaMemcpyKind kind, cudaStream_t s,
		       cudaError_t *err);
bool simt_capture_set(void *dst, size_t pitch, int value, size_t width,
		      size_t height, cudaStream_t s, cudaError_t *err);
bool simt_capture_host(cudaHostFn_t fn, void *data, cudaStream_t s,
		       cudaError_t *err);
/* Calls that cannot be captured at all (stream callbacks): refused on a
 * capturing stream. */
bool simt_capture_refuse(cudaStream_t s, cudaError_t *err);
/* cudaMallocAsync and cudaFreeAsync on a capturing stream: a memory
 * allocation node (of size bytes on device d; *ptr its address) or a
 * free node. */
bool simt_capture_malloc(void **ptr, size_t size, int d, cudaStream_t s,
			 cudaError_t *err);
bool simt_capture_free(void *p, cudaStream_t s, cudaError_t *err);
bool simt_capture_event_record(cudaEvent_t e, cudaStream_t s,
			       cudaError_t *err);
bool simt_capture_event_wait(cudaStream_t s, cudaEvent_t e, unsigned flags,
			     cudaError_t *err);
/* Checks of calls a capture forbids; each returns cudaSuccess, or the
 * error (already recorded as the last error) after invalidating the
 * captures concerned.  simt_capture_unsafe: a potentially unsafe call
 * (synchronous copies, allocation); `legacy` when it also uses the legacy
 * stream.  simt_capture_sync: synchronising or querying stream s, or the
 * whole device when `device`.  simt_capture_event_use: synchronising or
 * querying event e (one recorded in a capture, or any while a capture
 * forbids potentially unsafe calls). */
cudaError_t simt_capture_unsafe(bool legacy);
cudaError_t simt_capture_sync(cudaStream_t s, bool device);
cudaError_t simt_capture_event_use(cudaEvent_t e);
/* Frees what a destroyed stream or event carried. */
void simt_capture_stream_gone(struct simt_stream_capture **slot);
void simt_capture_event_gone(struct simt_event_capture **slot);

/* How a copy or memset was issued, for the stream order (order.h): its
 * stream, whether the call is asynchronous, and the name reports give. */
struct simt_issue {
	cudaStream_t stream;
	bool async;
	const char *api;
};

/* memapi.c: copies and sets as the runtime calls do them (range checks,
 * no capture handling, no sticky check); used by graph nodes. */
cudaError_t simt_copy2d(void *dst, size_t dpitch, const void *src,
			size_t spitch, size_t width, size_t height,
			enum cudaMemcpyKind kind, const struct simt_issue *how);
cudaError_t simt_set2d(void *dst, size_t pitch, int value, size_t width,
		       size_t height, const struct simt_issue *how);


#endif
