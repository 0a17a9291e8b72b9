/* The C view of the CUDA runtime interface that simt implements.
 *
 * Programs built with `nvcc -cudart none` call these symbols; simt defines
 * them.  The layouts (field order and types) follow the CUDA 13 runtime so a
 * program compiled against the toolkit headers and linked with simt sees the
 * same structures.  Only what simt needs is declared; enum values are the
 * toolkit's. */
#ifndef SIMT_CUDART_H
#define SIMT_CUDART_H

#include <stddef.h>

typedef enum cudaError {
	cudaSuccess = 0,
	cudaErrorInvalidValue = 1,
	cudaErrorMemoryAllocation = 2,
	cudaErrorInitializationError = 3,
	cudaErrorInvalidConfiguration = 9,
	cudaErrorInvalidPitchValue = 12,
	cudaErrorInvalidSymbol = 13,
	cudaErrorInvalidHostPointer = 16,
	cudaErrorInvalidDevicePointer = 17,
	cudaErrorInvalidTexture = 18,
	cudaErrorInvalidChannelDescriptor = 20,
	cudaErrorInvalidMemcpyDirection = 21,
	cudaErrorMissingConfiguration = 52,
	cudaErrorInvalidDeviceFunction = 98,
	cudaErrorNoDevice = 100,
	cudaErrorInvalidDevice = 101,
	cudaErrorInvalidKernelImage = 200,
	cudaErrorNoKernelImageForDevice = 209,
	cudaErrorUnsupportedLimit = 215,
	cudaErrorInvalidPtx = 218,
	cudaErrorInvalidResourceHandle = 400,
	cudaErrorIllegalState = 401,
	cudaErrorLossyQuery = 402,
	cudaErrorSymbolNotFound = 500,
	cudaErrorNotReady = 600,
	cudaErrorIllegalAddress = 700,
	cudaErrorLaunchOutOfResources = 701,
	cudaErrorLaunchTimeout = 702,
	cudaErrorPeerAccessAlreadyEnabled = 704,
	cudaErrorPeerAccessNotEnabled = 705,
	cudaErrorAssert = 710,
	cudaErrorHostMemoryAlreadyRegistered = 712,
	cudaErrorHostMemoryNotRegistered = 713,
	cudaErrorHardwareStackError = 714,
	cudaErrorIllegalInstruction = 715,
	cudaErrorMisalignedAddress = 716,
	cudaErrorInvalidAddressSpace = 717,
	cudaErrorLaunchFailure = 719,
	cudaErrorCooperativeLaunchTooLarge = 720,
	cudaErrorNotPermitted = 800,
	cudaErrorNotSupported = 801,
	cudaErrorStreamCaptureUnsupported = 900,
	cudaErrorStreamCaptureInvalidated = 901,
	cudaErrorStreamCaptureMerge = 902,
	cudaErrorStreamCaptureUnmatched = 903,
	cudaErrorStreamCaptureUnjoined = 904,
	cudaErrorStreamCaptureIsolation = 905,
	cudaErrorStreamCaptureImplicit = 906,
	cudaErrorCapturedEvent = 907,
	cudaErrorStreamCaptureWrongThread = 908,
	cudaErrorGraphExecUpdateFailure = 910,
	cudaErrorUnknown = 999,
} cudaError_t;

typedef struct dim3 {
	unsigned int x, y, z;
} dim3;

typedef struct uint3 {
	unsigned int x, y, z;
} uint3;

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUfunc_st *cudaFunction_t;

enum cudaMemcpyKind {
	cudaMemcpyHostToHost = 0,
	cudaMemcpyHostToDevice = 1,
	cudaMemcpyDeviceToHost = 2,
	cudaMemcpyDeviceToDevice = 3,
	cudaMemcpyDefault = 4,
};

enum cudaMemoryType {
	cudaMemoryTypeUnregistered = 0,
	cudaMemoryTypeHost = 1,
	cudaMemoryTypeDevice = 2,
	cudaMemoryTypeManaged = 3,
};

enum cudaLimit {
	cudaLimitStackSize = 0,
	cudaLimitPrintfFifoSize = 1,
	cudaLimitMallocHeapSize = 2,
	cudaLimitDevRuntimeSyncDepth = 3,
	cudaLimitDevRuntimePendingLaunchCount = 4,
	cudaLimitMaxL2FetchGranularity = 5,
	cudaLimitPersistingL2CacheSize = 6,
};

enum cudaFuncAttribute {
	cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
	cudaFuncAttributePreferredSharedMemoryCarveout = 9,
	cudaFuncAttributeClusterDimMustBeSet = 10,
	cudaFuncAttributeRequiredClusterWidth = 11,
	cudaFuncAttributeRequiredClusterHeight = 12,
	cudaFuncAttributeRequiredClusterDepth = 13,
	cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
	cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
};

enum cudaFuncCache {
	cudaFuncCachePreferNone = 0,
	cudaFuncCachePreferShared = 1,
	cudaFuncCachePreferL1 = 2,
	cudaFuncCachePreferEqual = 3,
};

/* cudaDeviceAttr values simt answers; the numbering is the toolkit's. */
enum cudaDeviceAttr {
	cudaDevAttrMaxThreadsPerBlock = 1,
	cudaDevAttrMaxBlockDimX = 2,
	cudaDevAttrMaxBlockDimY = 3,
	cudaDevAttrMaxBlockDimZ = 4,
	cudaDevAttrMaxGridDimX = 5,
	cudaDevAttrMaxGridDimY = 6,
	cudaDevAttrMaxGridDimZ = 7,
	cudaDevAttrMaxSharedMemoryPerBlock = 8,
	cudaDevAttrTotalConstantMemory = 9,
	cudaDevAttrWarpSize = 10,
	cudaDevAttrMaxPitch = 11,
	cudaDevAttrMaxRegistersPerBlock = 12,
	cudaDevAttrClockRate = 13,
	cudaDevAttrTextureAlignment = 14,
	cudaDevAttrGpuOverlap = 15,
	cudaDevAttrMultiProcessorCount = 16,
	cudaDevAttrKernelExecTimeout = 17,
	cudaDevAttrIntegrated = 18,
	cudaDevAttrCanMapHostMemory = 19,
	cudaDevAttrComputeMode = 20,
	cudaDevAttrConcurrentKernels = 31,
	cudaDevAttrEccEnabled = 32,
	cudaDevAttrPciBusId = 33,
	cudaDevAttrPciDeviceId = 34,
	cudaDevAttrTccDriver = 35,
	cudaDevAttrMemoryClockRate = 36,
	cudaDevAttrGlobalMemoryBusWidth = 37,
	cudaDevAttrL2CacheSize = 38,
	cudaDevAttrMaxThreadsPerMultiProcessor = 39,
	cudaDevAttrAsyncEngineCount = 40,
	cudaDevAttrUnifiedAddressing = 41,
	cudaDevAttrPciDomainId = 50,
	cudaDevAttrComputeCapabilityMajor = 75,
	cudaDevAttrComputeCapabilityMinor = 76,
	cudaDevAttrStreamPrioritiesSupported = 78,
	cudaDevAttrGlobalL1CacheSupported = 79,
	cudaDevAttrLocalL1CacheSupported = 80,
	cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
	cudaDevAttrMaxRegistersPerMultiprocessor = 82,
	cudaDevAttrManagedMemory = 83,
	cudaDevAttrIsMultiGpuBoard = 84,
	cudaDevAttrMultiGpuBoardGroupID = 85,
	cudaDevAttrHostNativeAtomicSupported = 86,
	cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
	cudaDevAttrPageableMemoryAccess = 88,
	cudaDevAttrConcurrentManagedAccess = 89,
	cudaDevAttrComputePreemptionSupported = 90,
	cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
	cudaDevAttrCooperativeLaunch = 95,
	cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
	cudaDevAttrHostRegisterSupported = 99,
	cudaDevAttrMaxBlocksPerMultiprocessor = 106,
	cudaDevAttrMaxPersistingL2CacheSize = 108,
	cudaDevAttrMaxAccessPolicyWindowSize = 109,
	cudaDevAttrReservedSharedMemoryPerBlock = 111,
	cudaDevAttrMemoryPoolsSupported = 115,
	cudaDevAttrClusterLaunch = 120,
};

typedef struct CUuuid_st {
	char bytes[16];
} cudaUUID_t;

struct cudaDeviceProp {
	char name[256];
	cudaUUID_t uuid;
	char luid[8];
	unsigned int luidDeviceNodeMask;
	size_t totalGlobalMem;
	size_t sharedMemPerBlock;
	int regsPerBlock;
	int warpSize;
	size_t memPitch;
	int maxThreadsPerBlock;
	int maxThreadsDim[3];
	int maxGridSize[3];
	size_t totalConstMem;
	int major;
	int minor;
	size_t textureAlignment;
	size_t texturePitchAlignment;
	int multiProcessorCount;
	int integrated;
	int canMapHostMemory;
	int maxTexture1D;
	int maxTexture1DMipmap;
	int maxTexture2D[2];
	int maxTexture2DMipmap[2];
	int maxTexture2DLinear[3];
	int maxTexture2DGather[2];
	int maxTexture3D[3];
	int maxTexture3DAlt[3];
	int maxTextureCubemap;
	int maxTexture1DLayered[2];
	int maxTexture2DLayered[3];
	int maxTextureCubemapLayered[2];
	int maxSurface1D;
	int maxSurface2D[2];
	int maxSurface3D[3];
	int maxSurface1DLayered[2];
	int maxSurface2DLayered[3];
	int maxSurfaceCubemap;
	int maxSurfaceCubemapLayered[2];
	size_t surfaceAlignment;
	int concurrentKernels;
	int ECCEnabled;
	int pciBusID;
	int pciDeviceID;
	int pciDomainID;
	int tccDriver;
	int asyncEngineCount;
	int unifiedAddressing;
	int memoryBusWidth;
	int l2CacheSize;
	int persistingL2CacheMaxSize;
	int maxThreadsPerMultiProcessor;
	int streamPrioritiesSupported;
	int globalL1CacheSupported;
	int localL1CacheSupported;
	size_t sharedMemPerMultiprocessor;
	int regsPerMultiprocessor;
	int managedMemory;
	int isMultiGpuBoard;
	int multiGpuBoardGroupID;
	int hostNativeAtomicSupported;
	int pageableMemoryAccess;
	int concurrentManagedAccess;
	int computePreemptionSupported;
	int canUseHostPointerForRegisteredMem;
	int cooperativeLaunch;
	size_t sharedMemPerBlockOptin;
	int pageableMemoryAccessUsesHostPageTables;
	int directManagedMemAccessFromHost;
	int maxBlocksPerMultiProcessor;
	int accessPolicyMaxWindowSize;
	size_t reservedSharedMemPerBlock;
	int hostRegisterSupported;
	int sparseCudaArraySupported;
	int hostRegisterReadOnlySupported;
	int timelineSemaphoreInteropSupported;
	int memoryPoolsSupported;
	int gpuDirectRDMASupported;
	unsigned int gpuDirectRDMAFlushWritesOptions;
	int gpuDirectRDMAWritesOrdering;
	unsigned int memoryPoolSupportedHandleTypes;
	int deferredMappingCudaArraySupported;
	int ipcEventSupported;
	int clusterLaunch;
	int unifiedFunctionPointers;
	int deviceNumaConfig;
	int deviceNumaId;
	int mpsEnabled;
	int hostNumaId;
	unsigned int gpuPciDeviceID;
	unsigned int gpuPciSubsystemID;
	int hostNumaMultinodeIpcSupported;
	int reserved[56];
};

_Static_assert(sizeof(struct cudaDeviceProp) == 1008,
	       "cudaDeviceProp must match the CUDA 13 layout");

struct cudaFuncAttributes {
	size_t sharedSizeBytes;
	size_t constSizeBytes;
	size_t localSizeBytes;
	int maxThreadsPerBlock;
	int numRegs;
	int ptxVersion;
	int binaryVersion;
	int cacheModeCA;
	int maxDynamicSharedSizeBytes;
	int preferredShmemCarveout;
	int clusterDimMustBeSet;
	int requiredClusterWidth;
	int requiredClusterHeight;
	int requiredClusterDepth;
	int clusterSchedulingPolicyPreference;
	int nonPortableClusterSizeAllowed;
	int reserved[16];
};

struct cudaPointerAttributes {
	enum cudaMemoryType type;
	int device;
	void *devicePointer;
	void *hostPointer;
	long reserved[8];
};

struct cudaMemLocation {
	int type;
	int id;
};

/* Memory pools (mempool.c), laid out as the toolkit's driver_types.h. */
typedef struct CUmemPoolHandle_st *cudaMemPool_t;

struct cudaMemPoolProps {
	int allocType;
	int handleTypes;
	struct cudaMemLocation location;
	void *win32SecurityAttributes;
	size_t maxSize;
	unsigned short usage;
	unsigned char reserved[54];
};

struct cudaMemAccessDesc {
	struct cudaMemLocation location;
	int flags;
};

struct cudaMemPoolPtrExportData {
	unsigned char reserved[64];
};

struct cudaMemAllocNodeParams {
	struct cudaMemPoolProps poolProps;
	const struct cudaMemAccessDesc *accessDescs;
	size_t accessDescCount;
	size_t bytesize;
	void *dptr;
};

/* The launch attributes of cudaLaunchKernelEx that simt acts on (the
 * attribute's value is an int at the start of val), and those a stream
 * keeps (cudaStreamSetAttribute). */
enum cudaLaunchAttributeID {
	cudaLaunchAttributeAccessPolicyWindow = 1,
	cudaLaunchAttributeCooperative = 2,
	cudaLaunchAttributeSynchronizationPolicy = 3,
	cudaLaunchAttributePriority = 8,
	cudaLaunchAttributeMemSyncDomainMap = 9,
	cudaLaunchAttributeMemSyncDomain = 10,
};

enum cudaAccessProperty {
	cudaAccessPropertyNormal = 0,
	cudaAccessPropertyStreaming = 1,
	cudaAccessPropertyPersisting = 2,
};

struct cudaAccessPolicyWindow {
	void *base_ptr;
	size_t num_bytes;
	float hitRatio;
	enum cudaAccessProperty hitProp;
	enum cudaAccessProperty missProp;
};

enum cudaSynchronizationPolicy {
	cudaSyncPolicyAuto = 1,
	cudaSyncPolicySpin = 2,
	cudaSyncPolicyYield = 3,
	cudaSyncPolicyBlockingSync = 4,
};

typedef enum cudaLaunchMemSyncDomain {
	cudaLaunchMemSyncDomainDefault = 0,
	cudaLaunchMemSyncDomainRemote = 1,
} cudaLaunchMemSyncDomain;

typedef struct cudaLaunchMemSyncDomainMap_st {
	unsigned char default_;
	unsigned char remote;
} cudaLaunchMemSyncDomainMap;

/* The toolkit's union: every member at offset 0, 64 bytes in all. */
typedef union cudaLaunchAttributeValue {
	char pad[64];
	struct cudaAccessPolicyWindow accessPolicyWindow;
	int cooperative;
	enum cudaSynchronizationPolicy syncPolicy;
	int priority;
	cudaLaunchMemSyncDomainMap memSyncDomainMap;
	cudaLaunchMemSyncDomain memSyncDomain;
} cudaLaunchAttributeValue;

#define cudaStreamAttrID enum cudaLaunchAttributeID
#define cudaStreamAttrValue cudaLaunchAttributeValue
#define cudaStreamAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributePriority cudaLaunchAttributePriority
#define cudaStreamAttributeMemSyncDomainMap cudaLaunchAttributeMemSyncDomainMap
#define cudaStreamAttributeMemSyncDomain cudaLaunchAttributeMemSyncDomain

typedef struct cudaLaunchAttribute_st {
	int id;
	char pad[4];
	char val[64];
} cudaLaunchAttribute;

typedef struct cudaLaunchConfig_st {
	dim3 gridDim;
	dim3 blockDim;
	size_t dynamicSmemBytes;
	cudaStream_t stream;
	cudaLaunchAttribute *attrs;
	unsigned int numAttrs;
} cudaLaunchConfig_t;

typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status,
				     void *userData);

/* ---- graphs and stream capture ---- */

typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct cudaArray *cudaArray_t;

#define cudaStreamNonBlocking 0x01
#define cudaEventWaitExternal 0x01
#define cudaStreamAddCaptureDependencies 0x0
#define cudaStreamSetCaptureDependencies 0x1

enum cudaStreamCaptureStatus {
	cudaStreamCaptureStatusNone = 0,
	cudaStreamCaptureStatusActive = 1,
	cudaStreamCaptureStatusInvalidated = 2,
};

enum cudaStreamCaptureMode {
	cudaStreamCaptureModeGlobal = 0,
	cudaStreamCaptureModeThreadLocal = 1,
	cudaStreamCaptureModeRelaxed = 2,
};

enum cudaGraphNodeType {
	cudaGraphNodeTypeKernel = 0x00,
	cudaGraphNodeTypeMemcpy = 0x01,
	cudaGraphNodeTypeMemset = 0x02,
	cudaGraphNodeTypeHost = 0x03,
	cudaGraphNodeTypeGraph = 0x04,
	cudaGraphNodeTypeEmpty = 0x05,
	cudaGraphNodeTypeWaitEvent = 0x06,
	cudaGraphNodeTypeEventRecord = 0x07,
	cudaGraphNodeTypeMemAlloc = 0x0a,
	cudaGraphNodeTypeMemFree = 0x0b,
	cudaGraphNodeTypeConditional = 0x0d,
};

/* Conditional nodes (cudaGraphAddNode): a handle's value, set by a kernel
 * with cudaGraphSetConditional, picks the body graph that runs. */
typedef unsigned long long cudaGraphConditionalHandle;
#define cudaGraphCondAssignDefault 1

enum cudaGraphConditionalNodeType {
	cudaGraphCondTypeIf = 0,
	cudaGraphCondTypeWhile = 1,
	cudaGraphCondTypeSwitch = 2,
};

enum cudaGraphExecUpdateResult {
	cudaGraphExecUpdateSuccess = 0x0,
	cudaGraphExecUpdateError = 0x1,
	cudaGraphExecUpdateErrorTopologyChanged = 0x2,
	cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
	cudaGraphExecUpdateErrorFunctionChanged = 0x4,
	cudaGraphExecUpdateErrorParametersChanged = 0x5,
	cudaGraphExecUpdateErrorNotSupported = 0x6,
};

typedef enum cudaGraphInstantiateResult {
	cudaGraphInstantiateSuccess = 0,
	cudaGraphInstantiateError = 1,
	cudaGraphInstantiateInvalidStructure = 2,
} cudaGraphInstantiateResult;

struct cudaPos {
	size_t x, y, z;
};

struct cudaPitchedPtr {
	void *ptr;
	size_t pitch;
	size_t xsize;
	size_t ysize;
};

struct cudaExtent {
	size_t width, height, depth;
};

struct cudaMemcpy3DParms {
	cudaArray_t srcArray;
	struct cudaPos srcPos;
	struct cudaPitchedPtr srcPtr;
	cudaArray_t dstArray;
	struct cudaPos dstPos;
	struct cudaPitchedPtr dstPtr;
	struct cudaExtent extent;
	enum cudaMemcpyKind kind;
};

struct cudaKernelNodeParams {
	void *func;
	dim3 gridDim;
	dim3 blockDim;
	unsigned int sharedMemBytes;
	void **kernelParams;
	void **extra;
};

struct cudaMemsetParams {
	void *dst;
	size_t pitch;
	unsigned int value;
	unsigned int elementSize;
	size_t width;
	size_t height;
};

struct cudaHostNodeParams {
	cudaHostFn_t fn;
	void *userData;
};

struct cudaConditionalNodeParams {
	cudaGraphConditionalHandle handle;
	enum cudaGraphConditionalNodeType type;
	unsigned int size;
	cudaGraph_t *phGraph_out;
};

struct cudaChildGraphNodeParams {
	cudaGraph_t graph;
	int ownership;             /* 0: the graph is cloned into the node */
};

struct cudaMemFreeNodeParams {
	void *dptr;
};

typedef struct cudaGraphEdgeData_st {
	unsigned char from_port;
	unsigned char to_port;
	unsigned char type;
	unsigned char reserved[5];
} cudaGraphEdgeData;

struct cudaMemcpyNodeParams {
	int flags;
	int reserved[3];
	struct cudaMemcpy3DParms copyParams;
};

/* cudaGraphAddNode's parameters: the toolkit's layout, 256 bytes, the
 * kernel, memset, host and allocation members laid out as the older
 * per-type structures. */
struct cudaGraphNodeParams {
	enum cudaGraphNodeType type;
	int reserved0[3];
	union {
		long long reserved1[29];
		struct cudaKernelNodeParams kernel;
		struct cudaMemcpyNodeParams memcpy;
		struct cudaMemsetParams memset;
		struct cudaHostNodeParams host;
		struct cudaChildGraphNodeParams graph;
		struct cudaMemAllocNodeParams alloc;
		struct cudaMemFreeNodeParams free;
		struct cudaConditionalNodeParams conditional;
	} u;
	long long reserved2;
};

cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
			     const cudaGraphNode_t *pDependencies,
			     const cudaGraphEdgeData *dependencyData,
			     size_t numDependencies,
			     struct cudaGraphNodeParams *nodeParams);
cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle,
					     cudaGraph_t graph,
					     unsigned int defaultLaunchValue,
					     unsigned int flags);

typedef struct cudaGraphInstantiateParams_st {
	unsigned long long flags;
	cudaStream_t uploadStream;
	cudaGraphNode_t errNode_out;
	cudaGraphInstantiateResult result_out;
} cudaGraphInstantiateParams;

typedef struct cudaGraphExecUpdateResultInfo_st {
	enum cudaGraphExecUpdateResult result;
	cudaGraphNode_t errorNode;
	cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;

_Static_assert(sizeof(struct cudaKernelNodeParams) == 56,
	       "cudaKernelNodeParams must match the CUDA 13 layout");
_Static_assert(sizeof(struct cudaMemsetParams) == 40,
	       "cudaMemsetParams must match the CUDA 13 layout");
_Static_assert(sizeof(struct cudaMemcpy3DParms) == 160,
	       "cudaMemcpy3DParms must match the CUDA 13 layout");
_Static_assert(sizeof(cudaGraphInstantiateParams) == 32,
	       "cudaGraphInstantiateParams must match the CUDA 13 layout");
_Static_assert(sizeof(cudaGraphExecUpdateResultInfo) == 24,
	       "cudaGraphExecUpdateResultInfo must match the CUDA 13 layout");

/* Host ABI that nvcc-generated code calls. */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
			    const char *deviceName, int threadLimit, uint3 *tid,
			    uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
		       const char *deviceName, int ext, size_t size,
		       int constant, int global);
void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
			      char *deviceAddress, const char *deviceName,
			      int ext, size_t size, int constant, int global);
char __cudaInitModule(void **handle);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
				     size_t sharedMem, cudaStream_t stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
				       size_t *sharedMem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim,
			       dim3 blockDim, void **args, size_t sharedMem,
			       cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
				    dim3 blockDim, void **args,
				    size_t sharedMem, cudaStream_t stream);

/* Runtime API. */
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaInitDevice(int device, unsigned deviceFlags, unsigned flags);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
				   int device);
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaGetDeviceFlags(unsigned *flags);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config);
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer);
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer);
cudaError_t cudaDeviceGetP2PAttribute(int *value, int attr, int srcDevice,
				      int dstDevice);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);

cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned flags);
/* cudaMemAttachGlobal, cudaMemAttachHost, cudaMemAttachSingle */
#define SIMT_MEM_ATTACH_MASK 0x7
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr,
				     size_t length, unsigned flags);
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
			    size_t height);
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaHostGetDevicePointer(void **devPtr, void *host, unsigned flags);
cudaError_t cudaHostGetFlags(unsigned *flags, void *host);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr,
				     const void *ptr);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
		       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
			   int srcDevice, size_t count);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
				int srcDevice, size_t count,
				cudaStream_t stream);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
			 size_t spitch, size_t width, size_t height,
			 enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
			    cudaStream_t stream);
cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
			 size_t height);
cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
			      size_t width, size_t height, cudaStream_t stream);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
			       size_t count, size_t offset,
			       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
				 size_t offset, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
				    size_t count, size_t offset,
				    enum cudaMemcpyKind kind,
				    cudaStream_t stream);
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
				      size_t count, size_t offset,
				      enum cudaMemcpyKind kind,
				      cudaStream_t stream);
cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
				 struct cudaMemLocation location,
				 unsigned flags, cudaStream_t stream);
cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice,
			  struct cudaMemLocation location);
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool,
				    cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool);
cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool,
			      const struct cudaMemPoolProps *props);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, int attr, void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t minBytesToKeep);
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool,
				 const struct cudaMemAccessDesc *descs, size_t count);
cudaError_t cudaMemPoolGetAccess(int *flags, cudaMemPool_t pool,
				 struct cudaMemLocation *location);
cudaError_t cudaMemPoolExportToShareableHandle(void *handle, cudaMemPool_t pool,
					       int type, unsigned flags);
cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *pool, void *handle,
						 int type, unsigned flags);
cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *data, void *ptr);
cudaError_t cudaMemPoolImportPointer(void **ptr, cudaMemPool_t pool,
				     struct cudaMemPoolPtrExportData *data);
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     size_t numDependencies,
				     struct cudaMemAllocNodeParams *nodeParams);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				    const cudaGraphNode_t *pDependencies,
				    size_t numDependencies, void *dptr);
cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
					   struct cudaMemAllocNodeParams *params_out);
cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out);
cudaError_t cudaDeviceGraphMemTrim(int device);
cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value);
cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value);

cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned flags,
					 int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
				unsigned flags);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned *flags);
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
				   const cudaStreamAttrValue *value);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
				   cudaStreamAttrValue *value);
cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src);
cudaError_t cudaCtxResetPersistingL2Cache(void);
cudaError_t cudaStreamGetDevice(cudaStream_t stream, int *device);
cudaError_t cudaStreamAddCallback(cudaStream_t stream,
				  cudaStreamCallback_t callback,
				  void *userData, unsigned flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
			       void *userData);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
				     unsigned flags);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
				 cudaEvent_t end);

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
				  const void *func);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
				 int value);
cudaError_t cudaFuncSetCacheConfig(const void *func,
				   enum cudaFuncCache config);
cudaError_t cudaFuncGetName(const char **name, const void *func);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
							  const void *func,
							  int blockSize,
							  size_t dynamicSmem);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
	int *numBlocks, const void *func, int blockSize, size_t dynamicSmem,
	unsigned flags);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *smem,
						      const void *func,
						      int numBlocks,
						      int blockSize);
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
			     void **args, size_t sharedMem,
			     cudaStream_t stream);
cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim,
				  dim3 blockDim, void **args, size_t sharedMem,
				  cudaStream_t stream);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
					dim3 blockDim, void **args,
					size_t sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
				const void *func, void **args);

cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
				   enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream,
					  cudaGraph_t graph,
					  const cudaGraphNode_t *dependencies,
					  const cudaGraphEdgeData *dependencyData,
					  size_t numDependencies,
					  enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
				  enum cudaStreamCaptureStatus *pCaptureStatus);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
				     enum cudaStreamCaptureStatus *captureStatus_out,
				     unsigned long long *id_out,
				     cudaGraph_t *graph_out,
				     const cudaGraphNode_t **dependencies_out,
				     const cudaGraphEdgeData **edgeData_out,
				     size_t *numDependencies_out);
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
						cudaGraphNode_t *dependencies,
						const cudaGraphEdgeData *dependencyData,
						size_t numDependencies,
						unsigned int flags);
cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
					 struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
					 const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaMemcpy3DParms *pCopyParams);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode,
				     cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     size_t numDependencies, void *dst,
				     const void *src, size_t count,
				     enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode,
					   cudaGraph_t graph,
					   const cudaGraphNode_t *pDependencies,
					   size_t numDependencies,
					   const void *symbol, const void *src,
					   size_t count, size_t offset,
					   enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode,
					     cudaGraph_t graph,
					     const cudaGraphNode_t *pDependencies,
					     size_t numDependencies, void *dst,
					     const void *symbol, size_t count,
					     size_t offset,
					     enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
					 struct cudaMemcpy3DParms *pNodeParams);
cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
					 const struct cudaMemcpy3DParms *pNodeParams);
cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst,
					   const void *src, size_t count,
					   enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaMemsetParams *pMemsetParams);
cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
					 struct cudaMemsetParams *pNodeParams);
cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
					 const struct cudaMemsetParams *pNodeParams);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode,
				 cudaGraph_t graph,
				 const cudaGraphNode_t *pDependencies,
				 size_t numDependencies,
				 const struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node,
				       struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
				       const struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode,
				       cudaGraph_t graph,
				       const cudaGraphNode_t *pDependencies,
				       size_t numDependencies,
				       cudaGraph_t childGraph);
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node,
					    cudaGraph_t *pGraph);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode,
				  cudaGraph_t graph,
				  const cudaGraphNode_t *pDependencies,
				  size_t numDependencies);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node,
				 enum cudaGraphNodeType *pType);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
			      size_t *numNodes);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph,
				  cudaGraphNode_t *pRootNodes,
				  size_t *pNumRootNodes);
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
			      cudaGraphNode_t *to, cudaGraphEdgeData *edgeData,
			      size_t *numEdges);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
					 cudaGraphNode_t *pDependencies,
					 cudaGraphEdgeData *edgeData,
					 size_t *pNumDependencies);
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
					   cudaGraphNode_t *pDependentNodes,
					   cudaGraphEdgeData *edgeData,
					   size_t *pNumDependentNodes);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph,
				     const cudaGraphNode_t *from,
				     const cudaGraphNode_t *to,
				     const cudaGraphEdgeData *edgeData,
				     size_t numDependencies);
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph,
					const cudaGraphNode_t *from,
					const cudaGraphNode_t *to,
					const cudaGraphEdgeData *edgeData,
					size_t numDependencies);
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
				 unsigned long long flags);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
					  cudaGraph_t graph,
					  unsigned long long flags);
cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec,
					   cudaGraph_t graph,
					   cudaGraphInstantiateParams *instantiateParams);
cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec,
				  unsigned long long *flags);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
					     cudaGraphNode_t node,
					     const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec,
					     cudaGraphNode_t node,
					     const struct cudaMemcpy3DParms *pNodeParams);
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec,
					       cudaGraphNode_t node, void *dst,
					       const void *src, size_t count,
					       enum cudaMemcpyKind kind);
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec,
					     cudaGraphNode_t node,
					     const struct cudaMemsetParams *pNodeParams);
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec,
					   cudaGraphNode_t node,
					   const struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
				cudaGraphExecUpdateResultInfo *resultInfo);
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);

/* The same calls as compiled with --default-stream per-thread. */
cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum
                            cudaMemcpyKind kind);
cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t
                              spitch, size_t width, size_t height, enum
                              cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t
                                      count, size_t offset, enum cudaMemcpyKind
                                      kind);
cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t
                                    count, size_t offset, enum cudaMemcpyKind
                                    kind);
cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t
                              width, size_t height);
cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t
                                          stream, unsigned flags);
cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t stream);
cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim,
                                             dim3 blockDim, void **args, size_t
                                             sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void
                                    *userData);
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const
                                     void *func, void **args);
cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t
                                 stream);
cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
					 cudaMemPool_t pool, cudaStream_t stream);
cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct
                                      cudaMemLocation location, unsigned flags,
                                      cudaStream_t stream);
cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
                                   size_t spitch, size_t width, size_t height,
                                   enum cudaMemcpyKind kind, cudaStream_t
                                   stream);
cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum
                                 cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol,
                                           size_t count, size_t offset, enum
                                           cudaMemcpyKind kind, cudaStream_t
                                           stream);
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
                                         size_t count, size_t offset, enum
                                         cudaMemcpyKind kind, cudaStream_t
                                         stream);
cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value,
                                   size_t width, size_t height, cudaStream_t
                                   stream);
cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
                                 cudaStream_t stream);
cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream,
                                       cudaStreamCallback_t callback, void
                                       *userData, unsigned flags);
cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t stream, unsigned *flags);
cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
					const cudaStreamAttrValue *value);
cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
					cudaStreamAttrValue *value);
cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src);
cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t stream, int *device);
cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t stream, int *priority);
cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr,
					  size_t length, unsigned flags);
cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream);
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                     unsigned flags);
cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
					enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream,
					       cudaGraph_t graph,
					       const cudaGraphNode_t *dependencies,
					       const cudaGraphEdgeData *dependencyData,
					       size_t numDependencies,
					       enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
				       enum cudaStreamCaptureStatus *pCaptureStatus);
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
					  enum cudaStreamCaptureStatus *captureStatus_out,
					  unsigned long long *id_out,
					  cudaGraph_t *graph_out,
					  const cudaGraphNode_t **dependencies_out,
					  const cudaGraphEdgeData **edgeData_out,
					  size_t *numDependencies_out);
cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
						     cudaGraphNode_t *dependencies,
						     const cudaGraphEdgeData *dependencyData,
						     size_t numDependencies,
						     unsigned int flags);
cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec,
						cudaGraph_t graph,
						cudaGraphInstantiateParams *instantiateParams);
cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);

/* ---- CUDA arrays and texture objects (texture.c) ---- */

typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef unsigned long long cudaTextureObject_t;

#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08

enum cudaChannelFormatKind {
	cudaChannelFormatKindSigned = 0,
	cudaChannelFormatKindUnsigned = 1,
	cudaChannelFormatKindFloat = 2,
	cudaChannelFormatKindNone = 3,
};

struct cudaChannelFormatDesc {
	int x, y, z, w;
	enum cudaChannelFormatKind f;
};

enum cudaResourceType {
	cudaResourceTypeArray = 0x00,
	cudaResourceTypeMipmappedArray = 0x01,
	cudaResourceTypeLinear = 0x02,
	cudaResourceTypePitch2D = 0x03,
};

struct cudaResourceDesc {
	enum cudaResourceType resType;
	union {
		struct {
			cudaArray_t array;
		} array;
		struct {
			cudaMipmappedArray_t mipmap;
		} mipmap;
		struct {
			void *devPtr;
			struct cudaChannelFormatDesc desc;
			size_t sizeInBytes;
		} linear;
		struct {
			void *devPtr;
			struct cudaChannelFormatDesc desc;
			size_t width;
			size_t height;
			size_t pitchInBytes;
		} pitch2D;
		struct {
			int reserved[32];
		} reserved;
	} res;
	unsigned int flags;
};

/* Only its size matters to simt: a view other than none is refused. */
struct cudaResourceViewDesc {
	int format;
	size_t width, height, depth;
	unsigned int firstMipmapLevel, lastMipmapLevel;
	unsigned int firstLayer, lastLayer;
	unsigned int reserved[16];
};

enum cudaTextureAddressMode {
	cudaAddressModeWrap = 0,
	cudaAddressModeClamp = 1,
	cudaAddressModeMirror = 2,
	cudaAddressModeBorder = 3,
};

enum cudaTextureFilterMode {
	cudaFilterModePoint = 0,
	cudaFilterModeLinear = 1,
};

enum cudaTextureReadMode {
	cudaReadModeElementType = 0,
	cudaReadModeNormalizedFloat = 1,
};

struct cudaTextureDesc {
	enum cudaTextureAddressMode addressMode[3];
	enum cudaTextureFilterMode filterMode;
	enum cudaTextureReadMode readMode;
	int sRGB;
	float borderColor[4];
	int normalizedCoords;
	unsigned int maxAnisotropy;
	enum cudaTextureFilterMode mipmapFilterMode;
	float mipmapLevelBias;
	float minMipmapLevelClamp;
	float maxMipmapLevelClamp;
	int disableTrilinearOptimization;
	int seamlessCubemap;
};

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
						   enum cudaChannelFormatKind f);
cudaError_t cudaMallocArray(cudaArray_t *array,
			    const struct cudaChannelFormatDesc *desc,
			    size_t width, size_t height, unsigned int flags);
cudaError_t cudaMalloc3DArray(cudaArray_t *array,
			      const struct cudaChannelFormatDesc *desc,
			      struct cudaExtent extent, unsigned int flags);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
			     struct cudaExtent *extent, unsigned int *flags,
			     cudaArray_t array);
cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc,
			       cudaArray_const_t array);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset,
				size_t hOffset, const void *src, size_t spitch,
				size_t width, size_t height,
				enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset,
				     size_t hOffset, const void *src,
				     size_t spitch, size_t width, size_t height,
				     enum cudaMemcpyKind kind,
				     cudaStream_t stream);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch,
				  cudaArray_const_t src, size_t wOffset,
				  size_t hOffset, size_t width, size_t height,
				  enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch,
				       cudaArray_const_t src, size_t wOffset,
				       size_t hOffset, size_t width,
				       size_t height, enum cudaMemcpyKind kind,
				       cudaStream_t stream);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
			      const void *src, size_t count,
			      enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src,
				size_t wOffset, size_t hOffset, size_t count,
				enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
			      cudaStream_t stream);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
				    const struct cudaResourceDesc *pResDesc,
				    const struct cudaTextureDesc *pTexDesc,
				    const struct cudaResourceViewDesc *pResViewDesc);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaTextureObject_t texObject);
typedef unsigned long long cudaSurfaceObject_t;
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
				    const struct cudaResourceDesc *pResDesc);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaSurfaceObject_t surfObject);
cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
					    cudaTextureObject_t texObject);

#endif
