/* The CUDA runtime API on simt: CUDALAB_SIMT_GPUS devices (one by
 * default) with a current device per host thread, synchronous execution
 * (every stream is the null stream; asynchronous calls complete before
 * they return), error reporting with CUDA's sticky/non-sticky rules (a
 * sticky error belongs to the device whose kernel faulted). */
#include "runtime/runtime.h"

#include <stdarg.h>
#include "check/hazard.h"
#include "check/order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STREAM_MAGIC 0x5354524du
#define EVENT_MAGIC 0x45564e54u

/* Streams and events stay on a list while they live, so a program that
 * never destroys them does not look like it leaks (they belong to the
 * device context, which lives until exit). */
struct live {
	struct live *prev, *next;
};

/* What cudaStreamSetAttribute keeps for a stream.  simt has no L2 cache
 * to steer and one way to wait, so the values are remembered and given
 * back, and change nothing else. */
struct stream_attrs {
	struct cudaAccessPolicyWindow window;
	enum cudaSynchronizationPolicy sync;
	cudaLaunchMemSyncDomainMap domain_map;
	cudaLaunchMemSyncDomain domain;
};

struct CUstream_st {
	struct live link;
	uint32_t magic;
	int device;
	unsigned flags;
	int priority;
	struct stream_attrs attrs;
	struct simt_stream_capture *capture;
	uint32_t lane;              /* its lane in the stream order */
	uint32_t number;            /* "stream N" in reports */
};

struct CUevent_st {
	struct live link;
	uint32_t magic;
	int device;
	unsigned flags;
	bool recorded;
	double t;
	struct simt_event_capture *capture;
	struct simt_order_vc *order;   /* what its last record followed */
};

static struct live live_head = {&live_head, &live_head};

static void live_add(struct live *l)
{
	simt_lock();
	l->next = live_head.next;
	l->prev = &live_head;
	live_head.next->prev = l;
	live_head.next = l;
	simt_unlock();
}

static void live_remove(struct live *l)
{
	simt_lock();
	l->prev->next = l->next;
	l->next->prev = l->prev;
	simt_unlock();
}

size_t simt_stack_limit = 1024;
size_t simt_printf_fifo = 1 << 20;
size_t simt_heap_limit = 8 << 20;

static pthread_mutex_t api_lock;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static _Thread_local cudaError_t last_error;
static enum cudaFuncCache cache_config;

/* The devices: how many, each host thread's current one, and per device
 * its sticky error, its flags, and the peers its kernels may access
 * (peer[d][e]: device d reaches device e's memory). */
static int ndevices = 1;
static _Thread_local int current;
/* cudaLimitPersistingL2CacheSize, per device */
static size_t persisting_l2[SIMT_MAX_GPUS];
static cudaError_t sticky[SIMT_MAX_GPUS];
static unsigned device_flags[SIMT_MAX_GPUS];
static bool peer[SIMT_MAX_GPUS][SIMT_MAX_GPUS];

static void init_devices(void)
{
	long n = simt_env_long("CUDALAB_SIMT_GPUS", 1);

	if (n < 1 || n > SIMT_MAX_GPUS) {
		simt_warn("ignoring CUDALAB_SIMT_GPUS=%s: the device count must "
			  "be 1 to %d; using 1", getenv("CUDALAB_SIMT_GPUS"),
			  SIMT_MAX_GPUS);
		n = 1;
	}
	ndevices = (int)n;
}

static void init_lock(void)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&api_lock, &a);
	pthread_mutexattr_destroy(&a);
	init_devices();
	simt_tl_adopt_device();
	simt_counters_init(ndevices);
	simt_hz_init(ndevices);
}

void simt_init(void)
{
	pthread_once(&init_once, init_lock);
}

void simt_lock(void)
{
	simt_init();
	pthread_mutex_lock(&api_lock);
	atomic_fetch_add(&simt_busy, 1);
}

void simt_unlock(void)
{
	atomic_fetch_sub(&simt_busy, 1);
	pthread_mutex_unlock(&api_lock);
}

cudaError_t simt_set_error(cudaError_t e)
{
	if (e != cudaSuccess)
		last_error = e;
	return e;
}

cudaError_t simt_sticky(void)
{
	return sticky[current];
}

void simt_set_sticky(cudaError_t e)
{
	if (sticky[current] == cudaSuccess)
		sticky[current] = e;
	last_error = e;
}

int simt_device_count(void)
{
	simt_init();
	return ndevices;
}

int simt_current_device(void)
{
	return current;
}

bool simt_peer_enabled(int from, int to)
{
	return from == to || peer[from][to];
}

bool simt_peer_copy_direct(int src, int dst)
{
	return peer[src][dst] || peer[dst][src];
}

/* Set while a copy runs in parts (simt_copy_parts): 1 until its first
 * part between devices is counted, then 2. */
static _Thread_local int copy_parts;

void simt_copy_parts(bool on)
{
	copy_parts = on;
}

void simt_peer_copy_note(const void *dst, const void *src, uint64_t n)
{
	int sd = simt_mem_device(src), dd = simt_mem_device(dst);
	bool first = copy_parts != 2;

	if (sd < 0 || dd < 0 || sd == dd || !n)
		return;
	if (copy_parts)
		copy_parts = 2;
	simt_counters_peer_copy(sd, dd, n, !simt_peer_copy_direct(sd, dd), first);
}

static bool valid_device(int d)
{
	simt_init();
	return d >= 0 && d < ndevices;
}

/* The error an API call that uses the device returns before doing
 * anything: the sticky error of an earlier kernel fault on the current
 * device, if any. */
static cudaError_t enter(void)
{
	simt_init();
	if (sticky[current] != cudaSuccess)
		return simt_set_error(sticky[current]);
	return cudaSuccess;
}

#define ENTER() \
	do { \
		cudaError_t e_ = enter(); \
		if (e_ != cudaSuccess) \
			return e_; \
	} while (0)

static cudaError_t fail(cudaError_t e)
{
	return simt_set_error(e);
}

/* fail() with simt's reason on stderr, for errors a program would
 * otherwise have to guess at. */
__attribute__((format(printf, 2, 3)))
static cudaError_t fail_msg(cudaError_t e, const char *fmt, ...)
{
	struct simt_buf b = {0};
	va_list ap;

	va_start(ap, fmt);
	simt_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	simt_warn("%s", b.s);
	simt_buf_free(&b);
	return fail(e);
}

/* ---- errors ---- */

cudaError_t cudaGetLastError(void)
{
	cudaError_t e = last_error;

	if (sticky[current] != cudaSuccess)
		return sticky[current];
	last_error = cudaSuccess;
	return e;
}

cudaError_t cudaPeekAtLastError(void)
{
	return sticky[current] != cudaSuccess ? sticky[current] : last_error;
}

/* ---- device ---- */

cudaError_t cudaGetDeviceCount(int *count)
{
	simt_init();
	if (!count)
		return fail(cudaErrorInvalidValue);
	*count = ndevices;
	return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
	if (!valid_device(device))
		return fail(cudaErrorInvalidDevice);
	current = device;
	return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
	if (!device)
		return fail(cudaErrorInvalidValue);
	*device = current;
	return cudaSuccess;
}

/* Initialises a device without making it current (there is nothing to
 * initialise on simt). */
cudaError_t cudaInitDevice(int device, unsigned deviceFlags, unsigned flags)
{
	(void)deviceFlags;
	(void)flags;
	return valid_device(device) ? cudaSuccess : fail(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	if (!prop)
		return fail(cudaErrorInvalidValue);
	if (!valid_device(device))
		return fail(cudaErrorInvalidDevice);
	simt_device_prop(device, prop);
	return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device)
{
	return cudaGetDeviceProperties(prop, device);
}

static int attribute(enum cudaDeviceAttr attr, int device, bool *known)
{
	const struct simt_device *d = simt_device();
	struct cudaDeviceProp prop;
	const struct cudaDeviceProp *p = &prop;

	simt_device_prop(device, &prop);

	*known = true;
	switch (attr) {
	case cudaDevAttrMaxThreadsPerBlock: return p->maxThreadsPerBlock;
	case cudaDevAttrMaxBlockDimX: return p->maxThreadsDim[0];
	case cudaDevAttrMaxBlockDimY: return p->maxThreadsDim[1];
	case cudaDevAttrMaxBlockDimZ: return p->maxThreadsDim[2];
	case cudaDevAttrMaxGridDimX: return p->maxGridSize[0];
	case cudaDevAttrMaxGridDimY: return p->maxGridSize[1];
	case cudaDevAttrMaxGridDimZ: return p->maxGridSize[2];
	case cudaDevAttrMaxSharedMemoryPerBlock: return (int)p->sharedMemPerBlock;
	case cudaDevAttrTotalConstantMemory: return (int)p->totalConstMem;
	case cudaDevAttrWarpSize: return p->warpSize;
	case cudaDevAttrMaxPitch: return (int)p->memPitch;
	case cudaDevAttrMaxRegistersPerBlock: return p->regsPerBlock;
	case cudaDevAttrClockRate: return d->clock_khz;
	case cudaDevAttrTextureAlignment: return (int)p->textureAlignment;
	case cudaDevAttrGpuOverlap: return 1;
	case cudaDevAttrMultiProcessorCount: return p->multiProcessorCount;
	case cudaDevAttrKernelExecTimeout: return 0;
	case cudaDevAttrIntegrated: return p->integrated;
	case cudaDevAttrCanMapHostMemory: return p->canMapHostMemory;
	case cudaDevAttrComputeMode: return 0;
	case cudaDevAttrConcurrentKernels: return p->concurrentKernels;
	case cudaDevAttrEccEnabled: return p->ECCEnabled;
	case cudaDevAttrPciBusId: return p->pciBusID;
	case cudaDevAttrPciDeviceId: return p->pciDeviceID;
	case cudaDevAttrTccDriver: return 0;
	case cudaDevAttrMemoryClockRate: return d->memory_clock_khz;
	case cudaDevAttrGlobalMemoryBusWidth: return p->memoryBusWidth;
	case cudaDevAttrL2CacheSize: return p->l2CacheSize;
	case cudaDevAttrMaxThreadsPerMultiProcessor:
		return p->maxThreadsPerMultiProcessor;
	case cudaDevAttrAsyncEngineCount: return p->asyncEngineCount;
	case cudaDevAttrUnifiedAddressing: return p->unifiedAddressing;
	case cudaDevAttrPciDomainId: return p->pciDomainID;
	case cudaDevAttrComputeCapabilityMajor: return p->major;
	case cudaDevAttrComputeCapabilityMinor: return p->minor;
	case cudaDevAttrStreamPrioritiesSupported:
		return p->streamPrioritiesSupported;
	case cudaDevAttrGlobalL1CacheSupported: return p->globalL1CacheSupported;
	case cudaDevAttrLocalL1CacheSupported: return p->localL1CacheSupported;
	case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
		return (int)p->sharedMemPerMultiprocessor;
	case cudaDevAttrMaxRegistersPerMultiprocessor:
		return p->regsPerMultiprocessor;
	case cudaDevAttrManagedMemory: return p->managedMemory;
	case cudaDevAttrIsMultiGpuBoard: return 0;
	case cudaDevAttrMultiGpuBoardGroupID: return 0;
	case cudaDevAttrHostNativeAtomicSupported:
		return p->hostNativeAtomicSupported;
	case cudaDevAttrSingleToDoublePrecisionPerfRatio: return 2;
	case cudaDevAttrPageableMemoryAccess: return p->pageableMemoryAccess;
	case cudaDevAttrConcurrentManagedAccess: return p->concurrentManagedAccess;
	case cudaDevAttrComputePreemptionSupported:
		return p->computePreemptionSupported;
	case cudaDevAttrCanUseHostPointerForRegisteredMem: return 1;
	case cudaDevAttrCooperativeLaunch: return p->cooperativeLaunch;
	case cudaDevAttrMaxSharedMemoryPerBlockOptin:
		return (int)p->sharedMemPerBlockOptin;
	case cudaDevAttrHostRegisterSupported: return p->hostRegisterSupported;
	case cudaDevAttrMaxBlocksPerMultiprocessor:
		return p->maxBlocksPerMultiProcessor;
	case cudaDevAttrMaxPersistingL2CacheSize:
		return p->persistingL2CacheMaxSize;
	case cudaDevAttrMaxAccessPolicyWindowSize:
		return p->accessPolicyMaxWindowSize;
	case cudaDevAttrReservedSharedMemoryPerBlock:
		return (int)p->reservedSharedMemPerBlock;
	case cudaDevAttrMemoryPoolsSupported: return p->memoryPoolsSupported;
	case cudaDevAttrClusterLaunch: return p->clusterLaunch;
	default:
		*known = (int)attr > 0 && (int)attr < 150;
		return 0;
	}
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
				   int device)
{
	bool known;

	if (!value)
		return fail(cudaErrorInvalidValue);
	if (!valid_device(device))
		return fail(cudaErrorInvalidDevice);
	*value = attribute(attr, device, &known);
	return known ? cudaSuccess : fail(cudaErrorInvalidValue);
}

/* Every device has the same properties, so the first one matches best. */
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
	if (!device || !prop)
		return fail(cudaErrorInvalidValue);
	*device = 0;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
	struct cudaDeviceProp p;

	if (!pciBusId || len <= 0)
		return fail(cudaErrorInvalidValue);
	if (!valid_device(device))
		return fail(cudaErrorInvalidDevice);
	simt_device_prop(device, &p);
	snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.0", p.pciDomainID,
		 p.pciBusID, p.pciDeviceID);
	return cudaSuccess;
}

/* Accepts the forms CUDA documents: domain:bus:device.function,
 * domain:bus:device and bus:device.function, in hexadecimal. */
cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
	unsigned dom = 0, bus, dev, fn = 0;
	char tail;
	int d;

	if (!device || !pciBusId)
		return fail(cudaErrorInvalidValue);
	if (sscanf(pciBusId, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) != 4 &&
	    sscanf(pciBusId, "%x:%x:%x%c", &dom, &bus, &dev, &tail) != 3 &&
	    (dom = 0, sscanf(pciBusId, "%x:%x.%x%c", &bus, &dev, &fn, &tail) != 3))
		return fail(cudaErrorInvalidValue);
	for (d = 0; d < simt_device_count(); d++) {
		struct cudaDeviceProp p;

		simt_device_prop(d, &p);
		if (dom == (unsigned)p.pciDomainID && bus == (unsigned)p.pciBusID &&
		    dev == (unsigned)p.pciDeviceID && fn == 0) {
			*device = d;
			return cudaSuccess;
		}
	}
	return fail(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceSynchronize(void)
{
	ENTER();
	if (simt_capture_live)
		return simt_capture_sync(NULL, true);
	simt_lock();
	simt_order_host_device(current);
	simt_pool_settle();
	simt_unlock();
	return cudaSuccess;
}

static void destroy_streams_events(int device);

/* Resets the current device only: its allocations, streams and events go,
 * its sticky error clears, and peer access to and from it ends. */
cudaError_t cudaDeviceReset(void)
{
	int d = current, e;

	simt_lock();
	sticky[d] = cudaSuccess;
	simt_mem_reset(d);
	simt_pool_reset(d);
	destroy_streams_events(d);
	device_flags[d] = 0;
	for (e = 0; e < SIMT_MAX_GPUS; e++)
		peer[d][e] = peer[e][d] = false;
	last_error = cudaSuccess;
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned flags)
{
	simt_init();
	device_flags[current] = flags;
	return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
	if (!flags)
		return fail(cudaErrorInvalidValue);
	*flags = device_flags[current];
	return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
	ENTER();
	switch (limit) {
	case cudaLimitStackSize:
		simt_stack_limit = value;
		return cudaSuccess;
	case cudaLimitPrintfFifoSize:
		simt_printf_fifo = value;
		return cudaSuccess;
	case cudaLimitMallocHeapSize:
		simt_heap_limit = value;
		return cudaSuccess;
	case cudaLimitDevRuntimeSyncDepth:
	case cudaLimitDevRuntimePendingLaunchCount:
	case cudaLimitMaxL2FetchGranularity:
		return cudaSuccess;
	case cudaLimitPersistingL2CacheSize: {
		struct cudaDeviceProp prop;

		/* set aside up to the device's maximum, as the driver does */
		simt_device_prop(current, &prop);
		persisting_l2[current] = value < (size_t)prop.persistingL2CacheMaxSize
					 ? value : (size_t)prop.persistingL2CacheMaxSize;
		return cudaSuccess;
	}
	default:
		return fail(cudaErrorUnsupportedLimit);
	}
}

cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit)
{
	if (!value)
		return fail(cudaErrorInvalidValue);
	switch (limit) {
	case cudaLimitStackSize: *value = simt_stack_limit; break;
	case cudaLimitPrintfFifoSize: *value = simt_printf_fifo; break;
	case cudaLimitMallocHeapSize: *value = simt_heap_limit; break;
	case cudaLimitDevRuntimeSyncDepth: *value = 2; break;
	case cudaLimitDevRuntimePendingLaunchCount: *value = 2048; break;
	case cudaLimitMaxL2FetchGranularity: *value = 64; break;
	case cudaLimitPersistingL2CacheSize: *value = persisting_l2[current]; break;
	default: return fail(cudaErrorUnsupportedLimit);
	}
	return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config)
{
	cache_config = config;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config)
{
	if (!config)
		return fail(cudaErrorInvalidValue);
	*config = cache_config;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
	if (least)
		*least = 0;
	if (greatest)
		*greatest = -5;
	return cudaSuccess;
}

/* Any two distinct devices can access each other's memory, as on one
 * NVLink or PCIe switch; a device is not its own peer. */
cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peerDevice)
{
	if (!can)
		return fail(cudaErrorInvalidValue);
	if (!valid_device(device) || !valid_device(peerDevice))
		return fail(cudaErrorInvalidDevice);
	*can = device != peerDevice;
	return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned flags)
{
	cudaError_t e = cudaSuccess;

	ENTER();
	/* a device is not its own peer (cudaDeviceCanAccessPeer says 0) */
	if (!valid_device(peerDevice) || peerDevice == current)
		return fail(cudaErrorInvalidDevice);
	if (flags != 0)
		return fail(cudaErrorInvalidValue);
	simt_lock();
	if (peer[current][peerDevice])
		e = cudaErrorPeerAccessAlreadyEnabled;
	peer[current][peerDevice] = true;
	simt_unlock();
	return e == cudaSuccess ? cudaSuccess : fail(e);
}

/* The link between two distinct devices: peer access, native atomics and
 * CUDA array access all supported, every link ranked the same (0). */
cudaError_t cudaDeviceGetP2PAttribute(int *value, int attr, int srcDevice,
				      int dstDevice)
{
	if (!value)
		return fail(cudaErrorInvalidValue);
	if (!valid_device(srcDevice) || !valid_device(dstDevice) ||
	    srcDevice == dstDevice)
		return fail(cudaErrorInvalidDevice);
	switch (attr) {
	case 1: /* cudaDevP2PAttrPerformanceRank */
	case 5: /* cudaDevP2PAttrOnlyPartialNativeAtomicSupported */
		*value = 0;
		return cudaSuccess;
	case 2: /* cudaDevP2PAttrAccessSupported */
	case 3: /* cudaDevP2PAttrNativeAtomicSupported */
	case 4: /* cudaDevP2PAttrCudaArrayAccessSupported */
		*value = 1;
		return cudaSuccess;
	default:
		return fail(cudaErrorInvalidValue);
	}
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
	cudaError_t e = cudaSuccess;

	ENTER();
	if (!valid_device(peerDevice))
		return fail(cudaErrorInvalidDevice);
	simt_lock();
	if (!peer[current][peerDevice])
		e = cudaErrorPeerAccessNotEnabled;
	peer[current][peerDevice] = false;
	simt_unlock();
	return e == cudaSuccess ? cudaSuccess : fail(e);
}

cudaError_t cudaDriverGetVersion(int *version)
{
	if (!version)
		return fail(cudaErrorInvalidValue);
	*version = 13000;
	return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version)
{
	if (!version)
		return fail(cudaErrorInvalidValue);
	*version = 13000;
	return cudaSuccess;
}

cudaError_t cudaProfilerStart(void)
{
	return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
	return cudaSuccess;
}

/* ---- streams and events ---- */

static bool stream_ok(cudaStream_t s)
{
	uintptr_t v = (uintptr_t)s;

	return v <= 2 || s->magic == STREAM_MAGIC;
}

bool simt_stream_valid(cudaStream_t s)
{
	return stream_ok(s);
}

int simt_stream_device(cudaStream_t s)
{
	return (uintptr_t)s <= 2 ? current : s->device;
}

/* The stream's lane in the stream order (call with simt_lock held). */
uint32_t simt_stream_lane(cudaStream_t s)
{
	return simt_stream_lane_on(s, current);
}

static _Thread_local cudaStream_t sub_stream;
static _Thread_local uint32_t sub_lane = UINT32_MAX;

void simt_stream_lane_sub(cudaStream_t s, uint32_t lane)
{
	sub_stream = s;
	sub_lane = lane;
}

/* The calling thread's per-thread default stream on each device: its
 * lane + 1, or 0 before the thread first uses it. */
static _Thread_local uint32_t per_thread_lane[SIMT_MAX_GPUS];
/* While set, stream 0 names the per-thread default stream (ptsz.c). */
static _Thread_local bool null_per_thread;

void simt_null_stream_per_thread(bool on)
{
	null_per_thread = on;
}

uint32_t simt_stream_lane_on(cudaStream_t s, int device)
{
	uintptr_t v = (uintptr_t)s;

	if (sub_lane != UINT32_MAX && s == sub_stream)
		return sub_lane;
	if (v == 2 || (v == 0 && null_per_thread)) {
		if (!per_thread_lane[device])
			per_thread_lane[device] = simt_order_per_thread_lane(device) + 1;
		return per_thread_lane[device] - 1;
	}
	return v <= 1 ? simt_order_default_lane(device) : s->lane;
}

/* The per-thread default stream's capture state is the thread's own. */
static _Thread_local struct simt_stream_capture *per_thread_capture;

struct simt_stream_capture **simt_stream_capture_slot(cudaStream_t s,
						      bool *blocking)
{
	uintptr_t v = (uintptr_t)s;

	*blocking = true;
	if (v <= 1)
		return NULL;
	if (v == 2)
		return &per_thread_capture;
	*blocking = !(s->flags & cudaStreamNonBlocking);
	return &s->capture;
}

struct simt_event_capture **simt_event_capture_slot(cudaEvent_t e)
{
	return &e->capture;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned flags,
					 int priority)
{
	struct CUstream_st *s;

	ENTER();
	if (!stream)
		return fail(cudaErrorInvalidValue);
	s = simt_xcalloc(1, sizeof *s);
	s->magic = STREAM_MAGIC;
	s->device = current;
	s->flags = flags;
	s->priority = priority;
	simt_lock();
	s->lane = simt_order_lane_new(current, !(flags & cudaStreamNonBlocking),
				      &s->number);
	simt_unlock();
	live_add(&s->link);
	*stream = s;
	return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
	return cudaStreamCreateWithPriority(stream, 0, 0);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags)
{
	return cudaStreamCreateWithPriority(stream, flags, 0);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	ENTER();
	if ((uintptr_t)stream <= 2 || stream->magic != STREAM_MAGIC)
		return fail(cudaErrorInvalidResourceHandle);
	simt_capture_stream_gone(&stream->capture);
	simt_lock();
	simt_order_lane_free(stream->lane);
	simt_unlock();
	stream->magic = 0;
	live_remove(&stream->link);
	free(stream);
	return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	ENTER();
	if (!stream_ok(stream))
		return fail(cudaErrorInvalidResourceHandle);
	if (simt_capture_live)
		return simt_capture_sync(stream, false);
	simt_lock();
	simt_order_host_lane(simt_stream_lane(stream));
	simt_pool_settle();
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	return cudaStreamSynchronize(stream);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
				unsigned flags)
{
	cudaError_t e;

	ENTER();
	if (!stream_ok(stream) || !event || event->magic != EVENT_MAGIC)
		return fail(cudaErrorInvalidResourceHandle);
	if (simt_capture_event_wait(stream, event, flags, &e))
		return e;
	simt_lock();
	simt_order_wait_event(simt_stream_lane(stream), event->order);
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
	if (!priority || !stream_ok(stream))
		return fail(cudaErrorInvalidValue);
	*priority = (uintptr_t)stream <= 2 ? 0 : stream->priority;
	return cudaSuccess;
}

/* The attributes of the default streams (legacy and per-thread), per
 * device. */
static struct stream_attrs default_attrs[SIMT_MAX_GPUS][2];

static struct stream_attrs *attrs_of(cudaStream_t stream)
{
	if ((uintptr_t)stream > 2)
		return &stream->attrs;
	return &default_attrs[current][(uintptr_t)stream == 2];
}

/* The attributes of a stream for Set/GetAttribute, or NULL with *e set
 * for a missing value or a stream that is none. */
static struct stream_attrs *attrs_arg(cudaStream_t stream, const void *value,
				      cudaError_t *e)
{
	*e = !value ? fail(cudaErrorInvalidValue)
	   : !stream_ok(stream) ? fail(cudaErrorInvalidResourceHandle)
	   : cudaSuccess;
	return *e == cudaSuccess ? attrs_of(stream) : NULL;
}

static cudaError_t window_ok(const struct cudaAccessPolicyWindow *w, int device)
{
	struct cudaDeviceProp prop;
	bool hit = w->hitProp == cudaAccessPropertyNormal ||
		   w->hitProp == cudaAccessPropertyStreaming ||
		   w->hitProp == cudaAccessPropertyPersisting;
	bool miss = w->missProp == cudaAccessPropertyNormal ||
		    w->missProp == cudaAccessPropertyStreaming;

	simt_device_prop(device, &prop);
	if (!hit || !miss || !(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f))
		return fail_msg(cudaErrorInvalidValue,
				"cudaStreamSetAttribute: an access policy window needs hitProp "
				"Normal, Streaming or Persisting, missProp Normal or "
				"Streaming, and a hitRatio from 0 to 1");
	if (w->num_bytes > (size_t)prop.accessPolicyMaxWindowSize)
		return fail_msg(cudaErrorInvalidValue,
				"cudaStreamSetAttribute: an access policy window of %zu "
				"bytes is larger than the device's accessPolicyMaxWindowSize "
				"(%d bytes)", w->num_bytes, prop.accessPolicyMaxWindowSize);
	return cudaSuccess;
}

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
				   const cudaStreamAttrValue *value)
{
	struct stream_attrs *a;
	cudaError_t e;

	ENTER();
	if (!(a = attrs_arg(stream, value, &e)))
		return e;
	switch (attr) {
	case cudaStreamAttributeAccessPolicyWindow:
		if ((e = window_ok(&value->accessPolicyWindow,
				   simt_stream_device(stream))) != cudaSuccess)
			return e;
		a->window = value->accessPolicyWindow;
		return cudaSuccess;
	case cudaStreamAttributeSynchronizationPolicy:
		if (value->syncPolicy < cudaSyncPolicyAuto ||
		    value->syncPolicy > cudaSyncPolicyBlockingSync)
			return fail(cudaErrorInvalidValue);
		a->sync = value->syncPolicy;
		return cudaSuccess;
	case cudaStreamAttributeMemSyncDomainMap:
		a->domain_map = value->memSyncDomainMap;
		return cudaSuccess;
	case cudaStreamAttributeMemSyncDomain:
		if (value->memSyncDomain != cudaLaunchMemSyncDomainDefault &&
		    value->memSyncDomain != cudaLaunchMemSyncDomainRemote)
			return fail(cudaErrorInvalidValue);
		a->domain = value->memSyncDomain;
		return cudaSuccess;
	case cudaStreamAttributePriority:
		if ((uintptr_t)stream <= 2)
			return fail(cudaErrorInvalidValue);
		/* clamped to the range, as cudaStreamCreateWithPriority does */
		stream->priority = value->priority < -5 ? -5
				   : value->priority > 0 ? 0 : value->priority;
		return cudaSuccess;
	default:
		return fail_msg(cudaErrorInvalidValue,
				"cudaStreamSetAttribute: attribute %d is not one a stream "
				"has (access policy window, synchronization policy, "
				"priority, memory sync domain and map)", (int)attr);
	}
}

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
				   cudaStreamAttrValue *value)
{
	const struct stream_attrs *a;
	cudaError_t e;

	ENTER();
	if (!(a = attrs_arg(stream, value, &e)))
		return e;
	switch (attr) {
	case cudaStreamAttributeAccessPolicyWindow:
		value->accessPolicyWindow = a->window;
		return cudaSuccess;
	case cudaStreamAttributeSynchronizationPolicy:
		value->syncPolicy = a->sync ? a->sync : cudaSyncPolicyAuto;
		return cudaSuccess;
	case cudaStreamAttributeMemSyncDomainMap:
		value->memSyncDomainMap = a->domain_map;
		return cudaSuccess;
	case cudaStreamAttributeMemSyncDomain:
		value->memSyncDomain = a->domain;
		return cudaSuccess;
	case cudaStreamAttributePriority:
		value->priority = (uintptr_t)stream <= 2 ? 0 : stream->priority;
		return cudaSuccess;
	default:
		return fail_msg(cudaErrorInvalidValue,
				"cudaStreamGetAttribute: attribute %d is not one a stream "
				"has", (int)attr);
	}
}

cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
	ENTER();
	if (!stream_ok(dst) || !stream_ok(src))
		return fail(cudaErrorInvalidResourceHandle);
	*attrs_of(dst) = *attrs_of(src);
	if ((uintptr_t)dst > 2)
		dst->priority = (uintptr_t)src <= 2 ? 0 : src->priority;
	return cudaSuccess;
}

/* simt keeps no lines in a persisting state: nothing to reset. */
cudaError_t cudaCtxResetPersistingL2Cache(void)
{
	ENTER();
	return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned *flags)
{
	if (!flags || !stream_ok(stream))
		return fail(cudaErrorInvalidValue);
	*flags = (uintptr_t)stream <= 2 ? 0 : stream->flags;
	return cudaSuccess;
}

/* The device a stream belongs to (the current one for the default
 * streams). */
cudaError_t cudaStreamGetDevice(cudaStream_t stream, int *device)
{
	if (!device || !stream_ok(stream))
		return fail(cudaErrorInvalidValue);
	*device = simt_stream_device(stream);
	return cudaSuccess;
}

/* A host function enqueued on a stream runs once the stream's work so far
 * is done, and whatever it sets off on the host (often another thread
 * that consumes the results) follows that work.  simt has one host clock,
 * so the whole host is taken to know it: this can hide a race, never make
 * one up. */
void simt_host_sees(cudaStream_t stream)
{
	simt_lock();
	simt_order_host_lane(simt_stream_lane(stream));
	simt_unlock();
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream,
				  cudaStreamCallback_t callback,
				  void *userData, unsigned flags)
{
	cudaError_t e;

	(void)flags;
	ENTER();
	if (!callback || !stream_ok(stream))
		return fail(cudaErrorInvalidValue);
	if (simt_capture_live && simt_capture_refuse(stream, &e))
		return e;
	simt_host_sees(stream);
	callback(stream, cudaSuccess, userData);
	return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
			       void *userData)
{
	cudaError_t e;

	ENTER();
	if (!fn || !stream_ok(stream))
		return fail(cudaErrorInvalidValue);
	if (simt_capture_live && simt_capture_host(fn, userData, stream, &e))
		return e;
	simt_host_sees(stream);
	fn(userData);
	return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags)
{
	struct CUevent_st *e;

	ENTER();
	if (!event)
		return fail(cudaErrorInvalidValue);
	e = simt_xcalloc(1, sizeof *e);
	e->magic = EVENT_MAGIC;
	e->device = current;
	e->flags = flags;
	live_add(&e->link);
	*event = e;
	return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	return cudaEventCreateWithFlags(event, 0);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	ENTER();
	if (!event || event->magic != EVENT_MAGIC)
		return fail(cudaErrorInvalidResourceHandle);
	simt_capture_event_gone(&event->capture);
	simt_lock();
	simt_order_event_free(event->order);
	simt_unlock();
	event->magic = 0;
	live_remove(&event->link);
	free(event);
	return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	cudaError_t e;

	ENTER();
	if (!event || event->magic != EVENT_MAGIC || !stream_ok(stream))
		return fail(cudaErrorInvalidResourceHandle);
	/* an event is recorded only on a stream of its own device */
	if (simt_stream_device(stream) != event->device)
		return fail(cudaErrorInvalidResourceHandle);
	if (simt_capture_event_record(event, stream, &e))
		return e;
	simt_lock();
	event->order = simt_order_record(event->order, simt_stream_lane(stream));
	simt_unlock();
	event->recorded = true;
	event->t = simt_now();
	return cudaSuccess;
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
				     unsigned flags)
{
	(void)flags;
	return cudaEventRecord(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	ENTER();
	if (!event || event->magic != EVENT_MAGIC)
		return fail(cudaErrorInvalidResourceHandle);
	if (simt_capture_live || event->capture)
		return simt_capture_event_use(event);
	simt_lock();
	simt_order_host_event(event->order);
	simt_pool_settle();
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
	return cudaEventSynchronize(event);
}

/* Elapsed time between two recorded events: on the modelled timeline
 * when the time model is on, else emulation time. */
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
	ENTER();
	if (!ms)
		return fail(cudaErrorInvalidValue);
	if (!start || !end || start->magic != EVENT_MAGIC ||
	    end->magic != EVENT_MAGIC || (start->flags & 2) || (end->flags & 2))
		return fail(cudaErrorInvalidResourceHandle);
	if (!start->recorded || !end->recorded || start->device != end->device)
		return fail(cudaErrorInvalidResourceHandle);
	if (simt_tl_on()) {
		simt_lock();
		*ms = (float)simt_tl_elapsed_ms(start->order, end->order);
		simt_unlock();
	} else {
		*ms = (float)((end->t - start->t) * 1000.0);
	}
	return cudaSuccess;
}

/* cudaDeviceReset: the device's streams and events end with it. */
static void destroy_streams_events(int device)
{
	struct live *l = live_head.next;

	while (l != &live_head) {
		struct live *next = l->next;
		struct CUstream_st *s = (struct CUstream_st *)(void *)l;
		struct CUevent_st *e = (struct CUevent_st *)(void *)l;

		if (s->magic == STREAM_MAGIC && s->device == device)
			cudaStreamDestroy(s);
		else if (e->magic == EVENT_MAGIC && e->device == device)
			cudaEventDestroy(e);
		l = next;
	}
}
