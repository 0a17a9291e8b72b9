/* The CUDA runtime API on simt: one device, synchronous execution (every
 * stream is the null stream; asynchronous calls complete before they
 * return), error reporting with CUDA's sticky/non-sticky rules. */
#include "simt_int.h"
#include "hazard.h"

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

struct CUstream_st {
	struct live link;
	uint32_t magic;
	unsigned flags;
	int priority;
	struct simt_stream_capture *capture;
};

struct CUevent_st {
	struct live link;
	uint32_t magic;
	unsigned flags;
	bool recorded;
	double t;
	struct simt_event_capture *capture;
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
static cudaError_t sticky;
static enum cudaFuncCache cache_config;
static unsigned device_flags;

static void init_lock(void)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&api_lock, &a);
	pthread_mutexattr_destroy(&a);
	simt_counters_init();
	simt_hz_init();
}

void simt_init(void)
{
	pthread_once(&init_once, init_lock);
}

void simt_lock(void)
{
	simt_init();
	pthread_mutex_lock(&api_lock);
}

void simt_unlock(void)
{
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
	return sticky;
}

void simt_set_sticky(cudaError_t e)
{
	if (sticky == cudaSuccess)
		sticky = e;
	last_error = e;
}

/* The error an API call that uses the device returns before doing
 * anything: the sticky error of an earlier kernel fault, if any. */
static cudaError_t enter(void)
{
	simt_init();
	if (sticky != cudaSuccess)
		return simt_set_error(sticky);
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

/* ---- errors ---- */

cudaError_t cudaGetLastError(void)
{
	cudaError_t e = last_error;

	if (sticky != cudaSuccess)
		return sticky;
	last_error = cudaSuccess;
	return e;
}

cudaError_t cudaPeekAtLastError(void)
{
	return sticky != cudaSuccess ? sticky : last_error;
}

/* ---- device ---- */

cudaError_t cudaGetDeviceCount(int *count)
{
	simt_init();
	if (!count)
		return fail(cudaErrorInvalidValue);
	*count = 1;
	return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
	simt_init();
	return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDevice(int *device)
{
	if (!device)
		return fail(cudaErrorInvalidValue);
	*device = 0;
	return cudaSuccess;
}

cudaError_t cudaInitDevice(int device, unsigned deviceFlags, unsigned flags)
{
	(void)deviceFlags;
	(void)flags;
	return cudaSetDevice(device);
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	if (!prop)
		return fail(cudaErrorInvalidValue);
	if (device != 0)
		return fail(cudaErrorInvalidDevice);
	*prop = simt_device()->prop;
	return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device)
{
	return cudaGetDeviceProperties(prop, device);
}

static int attribute(enum cudaDeviceAttr attr, bool *known)
{
	const struct simt_device *d = simt_device();
	const struct cudaDeviceProp *p = &d->prop;

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
	if (device != 0)
		return fail(cudaErrorInvalidDevice);
	*value = attribute(attr, &known);
	return known ? cudaSuccess : fail(cudaErrorInvalidValue);
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
	if (!device || !prop)
		return fail(cudaErrorInvalidValue);
	*device = 0;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
	if (!pciBusId || len <= 0)
		return fail(cudaErrorInvalidValue);
	if (device != 0)
		return fail(cudaErrorInvalidDevice);
	strncpy(pciBusId, "0000:01:00.0", (size_t)len);
	pciBusId[len - 1] = 0;
	return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
	ENTER();
	if (simt_capture_live)
		return simt_capture_sync(NULL, true);
	return cudaSuccess;
}

cudaError_t cudaDeviceReset(void)
{
	simt_lock();
	simt_mem_reset();
	sticky = cudaSuccess;
	last_error = cudaSuccess;
	simt_unlock();
	return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned flags)
{
	device_flags = flags;
	return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
	if (!flags)
		return fail(cudaErrorInvalidValue);
	*flags = device_flags;
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
	case cudaLimitPersistingL2CacheSize:
		return cudaSuccess;
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
	case cudaLimitPersistingL2CacheSize: *value = 0; break;
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

cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer)
{
	if (!can)
		return fail(cudaErrorInvalidValue);
	if (device != 0 || peer != 0)
		return fail(cudaErrorInvalidDevice);
	*can = 0;
	return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags)
{
	(void)flags;
	return fail(peer == 0 ? cudaErrorInvalidValue : cudaErrorInvalidDevice);
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
	s->flags = flags;
	s->priority = priority;
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
	return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
	if (!priority || !stream_ok(stream))
		return fail(cudaErrorInvalidValue);
	*priority = (uintptr_t)stream <= 2 ? 0 : stream->priority;
	return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned *flags)
{
	if (!flags || !stream_ok(stream))
		return fail(cudaErrorInvalidValue);
	*flags = (uintptr_t)stream <= 2 ? 0 : stream->flags;
	return cudaSuccess;
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
	if (simt_capture_event_record(event, stream, &e))
		return e;
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
	return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
	return cudaEventSynchronize(event);
}

/* Elapsed emulation time between two recorded events. */
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
	ENTER();
	if (!ms)
		return fail(cudaErrorInvalidValue);
	if (!start || !end || start->magic != EVENT_MAGIC ||
	    end->magic != EVENT_MAGIC || (start->flags & 2) || (end->flags & 2))
		return fail(cudaErrorInvalidResourceHandle);
	if (!start->recorded || !end->recorded)
		return fail(cudaErrorInvalidResourceHandle);
	*ms = (float)((end->t - start->t) * 1000.0);
	return cudaSuccess;
}
