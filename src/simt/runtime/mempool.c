/* Memory pools of the stream-ordered allocator.  Every device has a
 * default pool, which is its current pool until cudaDeviceSetMemPool
 * names another; cudaMallocAsync allocates from the current pool of the
 * stream's device, cudaMallocFromPoolAsync from the pool given.  A pool
 * of pinned host memory (location cudaMemLocationTypeHost or HostNuma)
 * gives pinned host allocations.
 *
 * simt allocates every pool allocation as an allocation of its own, so a
 * pool's memory figures are a model of what CUDA's allocator does, kept
 * by the rules it documents: freed memory stays reserved in the pool
 * (and is taken again by the next allocations) until a synchronization
 * finds the pool holding more than its release threshold, or
 * cudaMemPoolTrimTo releases it; the high-water marks follow, and
 * setting one to 0 starts it again at the current figure.
 *
 * Access: a pool's allocations are reachable from the devices its
 * access list names (its own always, read-write); other devices get
 * access with cudaMemPoolSetAccess, not with cudaDeviceEnablePeerAccess,
 * which does not apply to pool memory.  A host pool starts reachable
 * from no device.
 *
 * Exporting pools and pointers to other processes is not supported: those
 * calls return cudaErrorNotSupported with a message. */
#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

#define POOL_MAGIC 0x504f4f4cu

enum {
	ATTR_FOLLOW_EVENTS = 1,
	ATTR_OPPORTUNISTIC = 2,
	ATTR_INTERNAL_DEPS = 3,
	ATTR_RELEASE_THRESHOLD = 4,
	ATTR_RESERVED_CURRENT = 5,
	ATTR_RESERVED_HIGH = 6,
	ATTR_USED_CURRENT = 7,
	ATTR_USED_HIGH = 8,
};

enum { LOC_DEVICE = 1, LOC_HOST = 2, LOC_HOST_NUMA = 3, LOC_HOST_NUMA_CURRENT = 4 };
enum { ACCESS_NONE = 0, ACCESS_READ = 1, ACCESS_READ_WRITE = 3 };
enum { ALLOC_PINNED = 1, ALLOC_MANAGED = 2 };
enum { HANDLE_POSIX_FD = 1, HANDLE_WIN32 = 2, HANDLE_WIN32_KMT = 4, HANDLE_FABRIC = 8 };

struct CUmemPoolHandle_st {
	uint32_t magic;
	bool host;                  /* pinned host memory */
	bool made;                  /* by cudaMemPoolCreate, not a default */
	bool destroyed;             /* by cudaMemPoolDestroy, allocations left */
	bool graph;                 /* the access list of a graph allocation */
	int device;                 /* its device; -1 for a host pool */
	uint64_t max_size;          /* 0: no limit but the device's */
	uint64_t threshold;
	int reuse[3];               /* the three reuse policies */
	uint64_t used, used_high;   /* bytes of live allocations */
	uint64_t cached;            /* freed, still reserved */
	uint64_t reserved_high;
	uint64_t live;              /* allocations not yet freed */
	unsigned char access[SIMT_MAX_GPUS];
};

static struct CUmemPoolHandle_st defaults[SIMT_MAX_GPUS];
static struct CUmemPoolHandle_st *current[SIMT_MAX_GPUS];

static cudaError_t fail(cudaError_t e)
{
	return simt_set_error(e);
}

static void pool_init(struct CUmemPoolHandle_st *p, int device, bool host)
{
	memset(p, 0, sizeof *p);
	p->magic = POOL_MAGIC;
	p->device = device;
	p->host = host;
	p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
	if (device >= 0)
		p->access[device] = ACCESS_READ_WRITE;
}

/* Device d's default pool; simt_lock held. */
static struct CUmemPoolHandle_st *default_pool(int d)
{
	if (defaults[d].magic != POOL_MAGIC)
		pool_init(&defaults[d], d, false);
	return &defaults[d];
}

static struct CUmemPoolHandle_st *current_pool(int d)
{
	return current[d] ? current[d] : default_pool(d);
}

static bool device_ok(int d)
{
	return d >= 0 && d < simt_device_count();
}

/* A pool the program may still use (a default one, or a created one not
 * destroyed); simt_lock held. */
static bool pool_ok(const struct CUmemPoolHandle_st *p)
{
	if (!p)
		return false;
	if ((uintptr_t)p - (uintptr_t)defaults < sizeof defaults)
		return p->magic == POOL_MAGIC;
	return p->magic == POOL_MAGIC && !p->destroyed;
}

/* Takes simt_lock when pool is one the program may use. */
static bool lock_pool(const struct CUmemPoolHandle_st *p)
{
	simt_lock();
	if (pool_ok(p))
		return true;
	simt_unlock();
	return false;
}

static uint64_t reserved(const struct CUmemPoolHandle_st *p)
{
	return p->used + p->cached;
}

static void note_high(struct CUmemPoolHandle_st *p)
{
	if (p->used > p->used_high)
		p->used_high = p->used;
	if (reserved(p) > p->reserved_high)
		p->reserved_high = reserved(p);
}

/* Releases cached memory until the pool holds at most keep bytes (never
 * less than it has in use). */
static void trim(struct CUmemPoolHandle_st *p, uint64_t keep)
{
	uint64_t over;

	if (reserved(p) <= keep)
		return;
	over = reserved(p) - keep;
	p->cached -= over < p->cached ? over : p->cached;
}

static void pool_gone(struct CUmemPoolHandle_st *p)
{
	p->magic = 0;
	free(p);
}

/* ---- for memory.c and the runtime ---- */

void simt_pool_took(struct CUmemPoolHandle_st *p, uint64_t size)
{
	p->cached -= size < p->cached ? size : p->cached;
	p->used += size;
	p->live++;
	note_high(p);
}

void simt_pool_freed(struct CUmemPoolHandle_st *p, uint64_t size)
{
	p->used -= size < p->used ? size : p->used;
	p->cached += size;
	p->live--;
	if (p->destroyed && !p->live)
		pool_gone(p);
}

bool simt_pool_reaches(const struct CUmemPoolHandle_st *p, int d)
{
	return d >= 0 && d < SIMT_MAX_GPUS && p->access[d] != ACCESS_NONE;
}

bool simt_pool_host(const struct CUmemPoolHandle_st *p)
{
	return p->host;
}

struct CUmemPoolHandle_st *simt_pool_graph_new(int d)
{
	struct CUmemPoolHandle_st *p = simt_xcalloc(1, sizeof *p);

	pool_init(p, d, false);
	p->made = p->graph = true;
	return p;
}

void simt_pool_graph_drop(struct CUmemPoolHandle_st *p)
{
	if (p->live)
		p->destroyed = true;
	else
		pool_gone(p);
}

bool simt_pool_graph(const struct CUmemPoolHandle_st *p)
{
	return p->graph;
}

void simt_pool_access(struct CUmemPoolHandle_st *p, int d, int flags)
{
	p->access[d] = (unsigned char)flags;
}

/* A synchronization: pools holding more than their release threshold
 * give the rest back (the default pools and the current ones are the
 * pools simt can name; a created pool not current anywhere keeps its
 * memory until it is trimmed or used again). */
void simt_pool_settle(void)
{
	int d;

	for (d = 0; d < SIMT_MAX_GPUS; d++) {
		if (defaults[d].magic == POOL_MAGIC)
			trim(&defaults[d], defaults[d].threshold);
		if (current[d])
			trim(current[d], current[d]->threshold);
	}
}

void simt_pool_reset(int d)
{
	if (defaults[d].magic == POOL_MAGIC)
		defaults[d].cached = 0;
	if (current[d])
		current[d]->cached = 0;
	current[d] = NULL;
}

uint64_t simt_pool_cached(int d)
{
	uint64_t n = defaults[d].magic == POOL_MAGIC ? defaults[d].cached : 0;

	if (current[d])
		n += current[d]->cached;
	return n;
}

/* ---- allocation ---- */

static cudaError_t pool_alloc(void **ptr, size_t size,
			      struct CUmemPoolHandle_st *p, cudaStream_t stream)
{
	void *q;

	if (!ptr)
		return fail(cudaErrorInvalidValue);
	if (simt_sticky() != cudaSuccess)
		return simt_set_error(simt_sticky());
	if (!simt_stream_valid(stream))
		return fail(cudaErrorInvalidResourceHandle);
	if (size == 0) {
		*ptr = NULL;
		return cudaSuccess;
	}
	simt_lock();
	if (!pool_ok(p)) {
		simt_unlock();
		return fail(cudaErrorInvalidValue);
	}
	if (p->max_size && (size > p->max_size || p->used > p->max_size - size)) {
		simt_unlock();
		simt_warn("cudaMallocFromPoolAsync: %zu bytes would take the pool "
			  "past its maxSize of %llu bytes (%llu in use)", size,
			  (unsigned long long)p->max_size,
			  (unsigned long long)p->used);
		return fail(cudaErrorMemoryAllocation);
	}
	q = simt_mem_alloc_on(size, p->host ? MEM_HOST : MEM_DEVICE, 0,
			      p->host ? simt_current_device() : p->device);
	if (!q) {
		simt_unlock();
		*ptr = NULL;
		return fail(cudaErrorMemoryAllocation);
	}
	simt_mem_set_pool(q, p);
	simt_pool_took(p, size);
	simt_unlock();
	*ptr = q;
	return cudaSuccess;
}

cudaError_t simt_pool_malloc_async(void **ptr, size_t size, cudaStream_t stream)
{
	struct CUmemPoolHandle_st *p;
	int d;

	simt_init();
	if (!simt_stream_valid(stream))
		return fail(cudaErrorInvalidResourceHandle);
	d = simt_stream_device(stream);
	simt_lock();
	p = current_pool(d);
	simt_unlock();
	return pool_alloc(ptr, size, p, stream);
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool,
				    cudaStream_t stream)
{
	cudaError_t e;

	int d;

	simt_init();
	if (simt_capture_live && ptr && size && simt_stream_valid(stream)) {
		simt_lock();
		d = pool_ok(pool) && !pool->host ? pool->device : -1;
		simt_unlock();
		if (d < 0)
			return fail(cudaErrorInvalidValue);
		if (simt_capture_malloc(ptr, size, d, stream, &e))
			return simt_mem_made(e, ptr, "cudaMallocFromPoolAsync",
					     SIMT_CALLER);
	}
	return simt_mem_made(pool_alloc(ptr, size, pool, stream), ptr,
			     "cudaMallocFromPoolAsync", SIMT_CALLER);
}

/* ---- pools ---- */

static cudaError_t get_pool(cudaMemPool_t *pool, int device, bool dflt)
{
	simt_init();
	if (!device_ok(device))
		return fail(cudaErrorInvalidDevice);
	if (!pool)
		return fail(cudaErrorInvalidValue);
	simt_lock();
	*pool = dflt ? default_pool(device) : current_pool(device);
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device)
{
	return get_pool(pool, device, true);
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device)
{
	return get_pool(pool, device, false);
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool)
{
	bool ok;

	simt_init();
	if (!device_ok(device))
		return fail(cudaErrorInvalidDevice);
	simt_lock();
	ok = pool_ok(pool) && !pool->host && pool->device == device;
	if (ok)
		current[device] = pool == &defaults[device] ? NULL : pool;
	simt_unlock();
	if (!ok && pool_ok(pool))
		simt_warn("cudaDeviceSetMemPool: the pool's memory is %s%d, not "
			  "on device %d", pool->host ? "on the host, not device " : "on device ",
			  pool->host ? device : pool->device, device);
	return ok ? cudaSuccess : fail(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const struct cudaMemPoolProps *props)
{
	struct CUmemPoolHandle_st *p;
	bool host;

	simt_init();
	if (!pool || !props)
		return fail(cudaErrorInvalidValue);
	if (props->allocType == ALLOC_MANAGED) {
		simt_warn("cudaMemPoolCreate: pools of managed memory are not "
			  "supported by simt (use cudaMallocManaged)");
		return fail(cudaErrorNotSupported);
	}
	if (props->allocType != ALLOC_PINNED)
		return fail(cudaErrorInvalidValue);
	switch (props->location.type) {
	case LOC_DEVICE:
		if (!device_ok(props->location.id))
			return fail(cudaErrorInvalidValue);
		host = false;
		break;
	case LOC_HOST:
	case LOC_HOST_NUMA:
		/* host pools are not IPC capable */
		if (props->handleTypes)
			return fail(cudaErrorInvalidValue);
		host = true;
		break;
	default:
		return fail(cudaErrorInvalidValue);
	}
	if (props->handleTypes & ~(HANDLE_POSIX_FD | HANDLE_WIN32 |
				   HANDLE_WIN32_KMT | HANDLE_FABRIC))
		return fail(cudaErrorInvalidValue);
	if (props->handleTypes & (HANDLE_WIN32 | HANDLE_WIN32_KMT)) {
		simt_warn("cudaMemPoolCreate: Windows handle types are not "
			  "supported on this platform");
		return fail(cudaErrorNotSupported);
	}
	p = simt_xcalloc(1, sizeof *p);
	pool_init(p, host ? -1 : props->location.id, host);
	p->made = true;
	p->max_size = props->maxSize;
	simt_lock();
	*pool = p;
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool)
{
	int d;

	simt_init();
	simt_lock();
	if (!pool_ok(pool) || !pool->made) {
		simt_unlock();
		return fail(cudaErrorInvalidValue);
	}
	/* a device whose current pool this was goes back to its default */
	for (d = 0; d < SIMT_MAX_GPUS; d++)
		if (current[d] == pool)
			current[d] = NULL;
	if (pool->live)
		pool->destroyed = true;   /* gone with its last allocation */
	else
		pool_gone(pool);
	simt_unlock();
	return cudaSuccess;
}

static bool u64_attr(int attr)
{
	return attr >= ATTR_RELEASE_THRESHOLD && attr <= ATTR_USED_HIGH;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, int attr, void *value)
{
	cudaError_t e = cudaSuccess;
	uint64_t v = 0;

	simt_init();
	if (!value)
		return fail(cudaErrorInvalidValue);
	if (u64_attr(attr))
		memcpy(&v, value, sizeof v);
	if (!lock_pool(pool))
		return fail(cudaErrorInvalidValue);
	switch (attr) {
	case ATTR_FOLLOW_EVENTS:
	case ATTR_OPPORTUNISTIC:
	case ATTR_INTERNAL_DEPS:
		pool->reuse[attr - 1] = *(const int *)value != 0;
		break;
	case ATTR_RELEASE_THRESHOLD:
		pool->threshold = v;
		break;
	case ATTR_RESERVED_HIGH:
	case ATTR_USED_HIGH:
		/* only a reset (to 0) is allowed */
		if (v)
			e = cudaErrorInvalidValue;
		else if (attr == ATTR_USED_HIGH)
			pool->used_high = pool->used;
		else
			pool->reserved_high = reserved(pool);
		break;
	default:
		e = cudaErrorInvalidValue;
	}
	simt_unlock();
	return e == cudaSuccess ? e : fail(e);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *value)
{
	uint64_t v;

	simt_init();
	if (!value)
		return fail(cudaErrorInvalidValue);
	if (!lock_pool(pool))
		return fail(cudaErrorInvalidValue);
	switch (attr) {
	case ATTR_FOLLOW_EVENTS:
	case ATTR_OPPORTUNISTIC:
	case ATTR_INTERNAL_DEPS:
		*(int *)value = pool->reuse[attr - 1];
		simt_unlock();
		return cudaSuccess;
	case ATTR_RELEASE_THRESHOLD: v = pool->threshold; break;
	case ATTR_RESERVED_CURRENT: v = reserved(pool); break;
	case ATTR_RESERVED_HIGH: v = pool->reserved_high; break;
	case ATTR_USED_CURRENT: v = pool->used; break;
	case ATTR_USED_HIGH: v = pool->used_high; break;
	default:
		simt_unlock();
		return fail(cudaErrorInvalidValue);
	}
	simt_unlock();
	memcpy(value, &v, sizeof v);
	return cudaSuccess;
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t minBytesToKeep)
{
	bool ok;

	simt_init();
	simt_lock();
	ok = pool_ok(pool);
	if (ok)
		trim(pool, minBytesToKeep);
	simt_unlock();
	return ok ? cudaSuccess : fail(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool,
				 const struct cudaMemAccessDesc *descs, size_t count)
{
	size_t i;

	simt_init();
	if (!descs && count)
		return fail(cudaErrorInvalidValue);
	if (!lock_pool(pool))
		return fail(cudaErrorInvalidValue);
	/* all or nothing: every descriptor is checked first */
	for (i = 0; i < count; i++) {
		const struct cudaMemAccessDesc *a = &descs[i];

		if (a->location.type != LOC_DEVICE || !device_ok(a->location.id) ||
		    (a->flags != ACCESS_NONE && a->flags != ACCESS_READ &&
		     a->flags != ACCESS_READ_WRITE) ||
		    (a->location.id == pool->device && a->flags != ACCESS_READ_WRITE)) {
			simt_unlock();
			if (a->location.type == LOC_DEVICE && a->location.id == pool->device)
				simt_warn("cudaMemPoolSetAccess: the pool's own device "
					  "%d always has read-write access", pool->device);
			return fail(cudaErrorInvalidValue);
		}
	}
	for (i = 0; i < count; i++)
		pool->access[descs[i].location.id] = (unsigned char)descs[i].flags;
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaMemPoolGetAccess(int *flags, cudaMemPool_t pool,
				 struct cudaMemLocation *location)
{
	simt_init();
	if (!flags || !location)
		return fail(cudaErrorInvalidValue);
	simt_lock();
	if (!pool_ok(pool) || location->type != LOC_DEVICE ||
	    !device_ok(location->id)) {
		simt_unlock();
		return fail(cudaErrorInvalidValue);
	}
	*flags = pool->access[location->id];
	simt_unlock();
	return cudaSuccess;
}

/* ---- sharing with other processes: not supported ---- */

static cudaError_t no_ipc(const char *fn)
{
	simt_init();
	simt_warn("%s: sharing pools between processes is not supported by simt",
		  fn);
	return fail(cudaErrorNotSupported);
}

cudaError_t cudaMemPoolExportToShareableHandle(void *handle, cudaMemPool_t pool,
					       int type, unsigned flags)
{
	(void)handle, (void)pool, (void)type, (void)flags;
	return no_ipc("cudaMemPoolExportToShareableHandle");
}

cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *pool, void *handle,
						 int type, unsigned flags)
{
	(void)pool, (void)handle, (void)type, (void)flags;
	return no_ipc("cudaMemPoolImportFromShareableHandle");
}

cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *data, void *ptr)
{
	(void)data, (void)ptr;
	return no_ipc("cudaMemPoolExportPointer");
}

cudaError_t cudaMemPoolImportPointer(void **ptr, cudaMemPool_t pool,
				     struct cudaMemPoolPtrExportData *data)
{
	(void)ptr, (void)pool, (void)data;
	return no_ipc("cudaMemPoolImportPointer");
}
