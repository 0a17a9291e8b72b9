/* The devices simt reports, all alike.  By default an H100-like part; the environment
 * variable CUDALAB_SIMT_DEVICE=h100|a100|l4|t4 selects another, with that
 * GPU's real limits (so occupancy and launch checks behave as there) and
 * memory figures (so bandwidth arithmetic gives that GPU's peak). */
#include "base/base.h"
#include "base/device.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct profile {
	const char *key;
	const char *name;
	int major, minor;
	int sms;
	int threads_per_sm;
	int blocks_per_sm;
	size_t smem_optin;
	size_t smem_per_sm;
	int l2;
	int bus_width;
	int mem_clock_khz;
	int clock_khz;
	size_t total_mem;
	int persisting_l2;
	bool ecc;
	bool clusters;
};

static const struct profile profiles[] = {
	{"h100", "simt (H100-like)", 9, 0, 132, 2048, 32, 232448, 233472,
	 52428800, 5120, 2619000, 1980000, 85520809984ull, 34603008,
	 true, true},
	{"a100", "simt (A100-like)", 8, 0, 108, 2048, 32, 166912, 167936,
	 41943040, 5120, 1593000, 1410000, 85198045184ull, 31457280,
	 true, false},
	{"l4", "simt (L4-like)", 8, 9, 58, 1536, 24, 101376, 102400, 50331648,
	 192, 6251000, 2040000, 23661313024ull, 33554432, false, false},
	{"t4", "simt (T4-like)", 7, 5, 40, 1024, 16, 65536, 65536, 4194304,
	 256, 5001000, 1590000, 15655829504ull, 0, false, false},
};

static struct simt_device dev;
static pthread_once_t dev_once = PTHREAD_ONCE_INIT;

static void fill(const struct profile *p)
{
	struct cudaDeviceProp *d = &dev.prop;
	int i;

	memset(d, 0, sizeof *d);
	strncpy(d->name, p->name, sizeof d->name - 1);
	for (i = 0; i < 16; i++)
		d->uuid.bytes[i] = (char)(0x51 + i * 7);
	d->totalGlobalMem = p->total_mem;
	d->sharedMemPerBlock = 49152;
	d->regsPerBlock = 65536;
	d->warpSize = 32;
	d->memPitch = 2147483647;
	d->maxThreadsPerBlock = 1024;
	d->maxThreadsDim[0] = 1024;
	d->maxThreadsDim[1] = 1024;
	d->maxThreadsDim[2] = 64;
	d->maxGridSize[0] = 2147483647;
	d->maxGridSize[1] = 65535;
	d->maxGridSize[2] = 65535;
	d->totalConstMem = 65536;
	d->major = p->major;
	d->minor = p->minor;
	d->textureAlignment = 512;
	d->texturePitchAlignment = 32;
	d->multiProcessorCount = p->sms;
	d->canMapHostMemory = 1;
	d->maxTexture1D = 131072;
	d->maxTexture2D[0] = 131072;
	d->maxTexture2D[1] = 65536;
	d->maxTexture3D[0] = d->maxTexture3D[1] = d->maxTexture3D[2] = 16384;
	d->surfaceAlignment = 512;
	d->concurrentKernels = 1;
	d->ECCEnabled = p->ecc;
	d->pciBusID = 1;
	d->asyncEngineCount = 2;
	d->unifiedAddressing = 1;
	d->memoryBusWidth = p->bus_width;
	d->l2CacheSize = p->l2;
	d->persistingL2CacheMaxSize = p->persisting_l2;
	d->maxThreadsPerMultiProcessor = p->threads_per_sm;
	d->streamPrioritiesSupported = 1;
	d->globalL1CacheSupported = 1;
	d->localL1CacheSupported = 1;
	d->sharedMemPerMultiprocessor = p->smem_per_sm;
	d->regsPerMultiprocessor = 65536;
	d->managedMemory = 1;
	d->hostNativeAtomicSupported = 0;
	d->concurrentManagedAccess = 1;
	/* kernels reach the program's own host memory only on a system with
	 * HMM or ATS, which CUDALAB_SIMT_HMM=1 makes simt one of */
	d->pageableMemoryAccess = simt_env_long("CUDALAB_SIMT_HMM", 0) != 0;
	d->computePreemptionSupported = 1;
	d->cooperativeLaunch = 1;
	d->sharedMemPerBlockOptin = p->smem_optin;
	d->maxBlocksPerMultiProcessor = p->blocks_per_sm;
	d->accessPolicyMaxWindowSize = p->persisting_l2 ? 134213632 : 0;
	d->reservedSharedMemPerBlock = 1024;
	d->hostRegisterSupported = 1;
	d->memoryPoolsSupported = 1;
	d->clusterLaunch = p->clusters;
	d->unifiedFunctionPointers = 1;
	d->deviceNumaId = -1;
	d->hostNumaId = -1;
	dev.memory_clock_khz = p->mem_clock_khz;
	dev.clock_khz = p->clock_khz;
	dev.key = p->key;
}

static void init_device(void)
{
	const char *want = getenv("CUDALAB_SIMT_DEVICE");
	size_t i;

	for (i = 0; want && *want && i < sizeof profiles / sizeof profiles[0]; i++) {
		if (strcasecmp(want, profiles[i].key) == 0) {
			fill(&profiles[i]);
			return;
		}
	}
	if (want && *want)
		simt_warn("unknown CUDALAB_SIMT_DEVICE=%s (known: h100 a100 l4 "
			  "t4); using h100", want);
	fill(&profiles[0]);
}

const struct simt_device *simt_device(void)
{
	pthread_once(&dev_once, init_device);
	return &dev;
}

void simt_device_adopt(const struct simt_device *d)
{
	pthread_once(&dev_once, init_device);
	dev = *d;
}

/* Devices differ only in where they sit: each has its own PCI bus (1, 2,
 * ...; what cudaDeviceGetPCIBusId names) and UUID, so programs that tell
 * devices apart by them see distinct ones. */
void simt_device_prop(int d, struct cudaDeviceProp *prop)
{
	*prop = simt_device()->prop;
	prop->pciBusID = d + 1;
	prop->uuid.bytes[15] = (char)(prop->uuid.bytes[15] + d);
}
