/* The host ABI nvcc's generated code calls: registration of the embedded
 * device code, kernels and variables at program start, and the launch
 * sequence of `kernel<<<grid, block, shmem, stream>>>(args)`.  Also the
 * API calls that take a kernel: cudaLaunchKernel, attributes, occupancy. */
#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct simt_kernel *kernels;
static size_t nkernels, capkernels;
static struct simt_symbol *symbols;
static size_t nsymbols, capsymbols;

struct call_config {
	dim3 grid, block;
	size_t shmem;
	cudaStream_t stream;
};

static _Thread_local struct call_config config_stack[16];
static _Thread_local int config_depth;

static cudaError_t fail(cudaError_t e)
{
	return simt_set_error(e);
}

/* ---- registration ---- */

/* The module's .global and .const variables become memory that kernels
 * and copies may address (also those of a module that failed to load:
 * they stay, as the module does). */
static void track_vars(struct simt_module *mod)
{
	int i;

	for (i = 0; i < mod->nvars; i++) {
		struct simt_var *v = &mod->vars[i];

		if (v->data)
			simt_mem_track(v->data, v->size, MEM_SYMBOL, v->name,
				       v->space == SS_CONST);
	}
}

void **__cudaRegisterFatBinary(void *fatCubin)
{
	struct simt_module *mod;
	const char *ptx, *why;
	size_t len;

	simt_init();
	mod = simt_xcalloc(1, sizeof *mod);
	if (simt_fatbin_ptx(fatCubin, &ptx, &len, &why) != 0) {
		mod->error = simt_xstrdup(why);
		simt_warn("%s", why);
		return (void **)mod;
	}
	if (simt_ptx_load(mod, ptx, len) != 0)
		simt_warn("cannot read this program's PTX: %s", mod->error);
	track_vars(mod);
	return (void **)mod;
}

void __cudaRegisterFatBinaryEnd(void **handle)
{
	(void)handle;
}

void __cudaUnregisterFatBinary(void **handle)
{
	/* Modules stay loaded until the process ends: exit handlers of the
	 * program may still use them. */
	(void)handle;
}

char __cudaInitModule(void **handle)
{
	(void)handle;
	return 1;
}

void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
			    const char *deviceName, int threadLimit, uint3 *tid,
			    uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
	struct simt_module *mod = (struct simt_module *)handle;
	struct simt_kernel *k;

	(void)deviceFun;
	(void)threadLimit;
	(void)tid;
	(void)bid;
	(void)bDim;
	(void)gDim;
	(void)wSize;
	simt_lock();
	if (nkernels == capkernels) {
		capkernels = capkernels ? capkernels * 2 : 16;
		kernels = simt_xrealloc(kernels, capkernels * sizeof *kernels);
	}
	k = &kernels[nkernels++];
	k->host_fun = hostFun;
	k->mod = mod;
	k->device_name = simt_xstrdup(deviceName);
	k->func = mod->error ? -1 : simt_module_find_func(mod, deviceName);
	simt_unlock();
}

static void add_symbol(struct simt_module *mod, const void *host,
		       const char *name, size_t size, bool constant,
		       bool managed)
{
	struct simt_symbol *s;

	simt_lock();
	if (nsymbols == capsymbols) {
		capsymbols = capsymbols ? capsymbols * 2 : 16;
		symbols = simt_xrealloc(symbols, capsymbols * sizeof *symbols);
	}
	s = &symbols[nsymbols++];
	s->host_var = host;
	s->mod = mod;
	s->var = mod->error ? -1 : simt_module_find_var(mod, name);
	s->size = size;
	s->constant = constant;
	s->managed = managed;
	simt_unlock();
}

void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
		       const char *deviceName, int ext, size_t size,
		       int constant, int global)
{
	(void)deviceAddress;
	(void)ext;
	(void)global;
	add_symbol((struct simt_module *)handle, hostVar, deviceName, size,
		   constant != 0, false);
}

/* A __managed__ variable: the host reaches it through *hostVarPtrAddress,
 * which simt points at the variable's storage. */
void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
			      char *deviceAddress, const char *deviceName,
			      int ext, size_t size, int constant, int global)
{
	struct simt_module *mod = (struct simt_module *)handle;
	int vi;

	(void)deviceAddress;
	(void)ext;
	(void)global;
	add_symbol(mod, hostVarPtrAddress, deviceName, size, constant != 0, true);
	vi = mod->error ? -1 : simt_module_find_var(mod, deviceName);
	if (vi >= 0 && hostVarPtrAddress)
		*hostVarPtrAddress = mod->vars[vi].data;
}

struct simt_kernel *simt_kernel_of(const void *host_fun)
{
	size_t i;

	for (i = 0; i < nkernels; i++)
		if (kernels[i].host_fun == host_fun)
			return &kernels[i];
	return NULL;
}

struct simt_symbol *simt_symbol_of(const void *host_var)
{
	size_t i;

	for (i = 0; i < nsymbols; i++)
		if (symbols[i].host_var == host_var)
			return &symbols[i];
	return NULL;
}

/* ---- launching ---- */

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
				     size_t sharedMem, cudaStream_t stream)
{
	struct call_config *c;

	if (config_depth >= 16)
		return 1;
	c = &config_stack[config_depth++];
	c->grid = gridDim;
	c->block = blockDim;
	c->shmem = sharedMem;
	c->stream = stream;
	return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
				       size_t *sharedMem, void *stream)
{
	struct call_config *c;

	if (config_depth == 0)
		return fail(cudaErrorMissingConfiguration);
	c = &config_stack[--config_depth];
	*gridDim = c->grid;
	*blockDim = c->block;
	*sharedMem = c->shmem;
	*(cudaStream_t *)stream = c->stream;
	return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
	struct simt_kernel *k;

	simt_lock();
	k = simt_kernel_of(hostFun);
	simt_unlock();
	if (!k)
		return fail(cudaErrorInvalidDeviceFunction);
	*kernel = (cudaKernel_t)(void *)k;
	return cudaSuccess;
}

static cudaError_t module_error(struct simt_kernel *k)
{
	static const struct simt_module *told[32];
	static int ntold;
	char name[512];
	int i;

	simt_lock();
	for (i = 0; i < ntold; i++)
		if (told[i] == k->mod)
			break;
	if (i == ntold) {
		if (ntold < 32)
			told[ntold++] = k->mod;
		simt_warn("cannot launch %s: %s",
			  simt_demangle(k->device_name, name, sizeof name),
			  k->mod->error ? k->mod->error
					: "kernel not found in the PTX");
	}
	simt_unlock();
	return cudaErrorNoKernelImageForDevice;
}

/* Kernels run on the current device, into a stream of that device. */
static cudaError_t launch(struct simt_kernel *k, dim3 grid, dim3 block,
			  void **args, size_t shmem, cudaStream_t stream,
			  bool cooperative)
{
	struct simt_launch_req req = {0};
	cudaError_t e;

	simt_init();
	if (simt_sticky() != cudaSuccess)
		return fail(simt_sticky());
	if (!k)
		return fail(cudaErrorInvalidDeviceFunction);
	if (!simt_stream_valid(stream) ||
	    simt_stream_device(stream) != simt_current_device())
		return fail(cudaErrorInvalidResourceHandle);
	if (k->func < 0)
		return fail(module_error(k));
	req.mod = k->mod;
	req.fn = &k->mod->funcs[k->func];
	req.grid = grid;
	req.block = block;
	req.dyn_shared = shmem;
	req.args = args;
	req.cooperative = cooperative;
	req.stream = stream;
	simt_lock();
	e = simt_launch(&req);
	simt_unlock();
	return e == cudaSuccess ? cudaSuccess : fail(e);
}

cudaError_t simt_kernel_usable(struct simt_kernel *k)
{
	if (!k)
		return cudaErrorInvalidDeviceFunction;
	return k->func < 0 ? module_error(k) : cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim,
			       dim3 blockDim, void **args, size_t sharedMem,
			       cudaStream_t stream)
{
	cudaError_t e;

	if (simt_capture_live &&
	    simt_capture_kernel((struct simt_kernel *)(void *)kernel, gridDim,
				blockDim, args, sharedMem, stream, &e))
		return e;
	return launch((struct simt_kernel *)(void *)kernel, gridDim, blockDim,
		      args, sharedMem, stream, false);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
				    dim3 blockDim, void **args,
				    size_t sharedMem, cudaStream_t stream)
{
	return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem,
				  stream ? stream : (cudaStream_t)2);
}

/* Launches func, or records it as a kernel node when `stream` is being
 * captured.  A cooperative kernel is not recorded: simt's graphs replay
 * plain launches only, so capturing one is refused rather than run out of
 * order. */
static cudaError_t launch_func(const void *func, dim3 grid, dim3 block,
			       void **args, size_t shmem, cudaStream_t stream,
			       bool cooperative)
{
	struct simt_kernel *k;
	cudaError_t e;

	simt_lock();
	k = simt_kernel_of(func);
	simt_unlock();
	if (simt_capture_live) {
		enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;

		if (cooperative) {
			if (cudaStreamIsCapturing(stream, &st) == cudaSuccess &&
			    st != cudaStreamCaptureStatusNone)
				return fail(cudaErrorStreamCaptureUnsupported);
		} else if (simt_capture_kernel(k, grid, block, args, shmem,
					       stream, &e)) {
			return e;
		}
	}
	return launch(k, grid, block, args, shmem, stream, cooperative);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
			     void **args, size_t sharedMem, cudaStream_t stream)
{
	return launch_func(func, gridDim, blockDim, args, sharedMem, stream,
			   false);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim,
				  dim3 blockDim, void **args, size_t sharedMem,
				  cudaStream_t stream)
{
	return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem,
				stream ? stream : (cudaStream_t)2);
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
					dim3 blockDim, void **args,
					size_t sharedMem, cudaStream_t stream)
{
	return launch_func(func, gridDim, blockDim, args, sharedMem, stream,
			   true);
}

/* Whether the attributes of a cudaLaunchKernelEx call ask for a
 * cooperative launch (the last cudaLaunchAttributeCooperative wins). */
static bool wants_cooperative(const cudaLaunchConfig_t *config)
{
	bool coop = false;
	unsigned i;

	for (i = 0; config->attrs && i < config->numAttrs; i++)
		if (config->attrs[i].id == cudaLaunchAttributeCooperative) {
			int v;

			memcpy(&v, config->attrs[i].val, sizeof v);
			coop = v != 0;
		}
	return coop;
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
				const void *func, void **args)
{
	if (!config)
		return fail(cudaErrorInvalidValue);
	return launch_func(func, config->gridDim, config->blockDim, args,
			   config->dynamicSmemBytes, config->stream,
			   wants_cooperative(config));
}

/* ---- kernel attributes and occupancy ---- */

static struct simt_func *func_of(const void *func)
{
	struct simt_kernel *k;

	simt_lock();
	k = simt_kernel_of(func);
	simt_unlock();
	if (!k || k->func < 0)
		return NULL;
	return &k->mod->funcs[k->func];
}

/* The PTX target the kernel was compiled for (80 for .target sm_80). */
static int ptx_target_of(const void *func)
{
	struct simt_kernel *k;

	simt_lock();
	k = simt_kernel_of(func);
	simt_unlock();
	return k && k->mod->sm ? k->mod->sm : 0;
}

/* simt does not allocate hardware registers; occupancy figures assume a
 * typical 32 registers per thread. */
#define ASSUMED_REGS 32

static int max_threads_of(const struct simt_func *f)
{
	if (f->maxntid[0])
		return (int)(f->maxntid[0] * f->maxntid[1] * f->maxntid[2]);
	if (f->reqntid[0])
		return (int)(f->reqntid[0] * f->reqntid[1] * f->reqntid[2]);
	return simt_device()->prop.maxThreadsPerBlock;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
				  const void *func)
{
	const struct cudaDeviceProp *p = &simt_device()->prop;
	struct simt_func *f;

	if (!attr)
		return fail(cudaErrorInvalidValue);
	f = func_of(func);
	if (!f)
		return fail(cudaErrorInvalidDeviceFunction);
	memset(attr, 0, sizeof *attr);
	attr->sharedSizeBytes = f->sum_shared;
	attr->constSizeBytes = 0;
	attr->localSizeBytes = f->local_size;
	attr->maxThreadsPerBlock = max_threads_of(f);
	attr->numRegs = ASSUMED_REGS;
	/* As for PTX compiled for the device at load: the PTX's target, and
	 * the device's own architecture for the code that runs. */
	attr->ptxVersion = ptx_target_of(func);
	if (!attr->ptxVersion)
		attr->ptxVersion = p->major * 10 + p->minor;
	attr->binaryVersion = p->major * 10 + p->minor;
	attr->cacheModeCA = 0;
	attr->maxDynamicSharedSizeBytes = f->max_dyn_shared
		? f->max_dyn_shared : (int)(p->sharedMemPerBlock - f->sum_shared);
	attr->preferredShmemCarveout = f->carveout ? f->carveout : -1;
	return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
				 int value)
{
	const struct cudaDeviceProp *p = &simt_device()->prop;
	struct simt_func *f = func_of(func);

	if (!f)
		return fail(cudaErrorInvalidDeviceFunction);
	switch (attr) {
	case cudaFuncAttributeMaxDynamicSharedMemorySize:
		if (value < 0 ||
		    (size_t)value + f->sum_shared > p->sharedMemPerBlockOptin)
			return fail(cudaErrorInvalidValue);
		f->max_dyn_shared = value;
		return cudaSuccess;
	case cudaFuncAttributePreferredSharedMemoryCarveout:
		if (value < -1 || value > 100)
			return fail(cudaErrorInvalidValue);
		f->carveout = value;
		return cudaSuccess;
	default:
		return cudaSuccess;
	}
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config)
{
	(void)config;
	return func_of(func) ? cudaSuccess : fail(cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
	struct simt_func *f = func_of(func);

	if (!name)
		return fail(cudaErrorInvalidValue);
	if (!f)
		return fail(cudaErrorInvalidDeviceFunction);
	*name = f->name;
	return cudaSuccess;
}

/* Resident blocks per SM, limited by threads, warps, blocks, registers
 * (at ASSUMED_REGS per thread) and shared memory. */
int simt_occupancy(const struct simt_func *f, int block, size_t dyn)
{
	const struct cudaDeviceProp *p = &simt_device()->prop;
	int warps = (block + 31) / 32, n;
	size_t smem = f->sum_shared + dyn;

	n = p->maxThreadsPerMultiProcessor / 32 / warps;
	if (n > p->maxBlocksPerMultiProcessor)
		n = p->maxBlocksPerMultiProcessor;
	if (p->regsPerMultiprocessor / (warps * 32 * ASSUMED_REGS) < n)
		n = p->regsPerMultiprocessor / (warps * 32 * ASSUMED_REGS);
	if (smem) {
		size_t per = smem + p->reservedSharedMemPerBlock;
		int s = (int)(p->sharedMemPerMultiprocessor / per);

		if (s < n)
			n = s;
	}
	if (block > max_threads_of(f) || smem > p->sharedMemPerBlockOptin)
		n = 0;
	return n;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
	int *numBlocks, const void *func, int blockSize, size_t dynamicSmem,
	unsigned flags)
{
	struct simt_func *f = func_of(func);

	(void)flags;
	if (!numBlocks || blockSize <= 0)
		return fail(cudaErrorInvalidValue);
	if (!f)
		return fail(cudaErrorInvalidDeviceFunction);
	*numBlocks = simt_occupancy(f, blockSize, dynamicSmem);
	return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
							  const void *func,
							  int blockSize,
							  size_t dynamicSmem)
{
	return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
		numBlocks, func, blockSize, dynamicSmem, 0);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *smem,
						      const void *func,
						      int numBlocks,
						      int blockSize)
{
	const struct cudaDeviceProp *p = &simt_device()->prop;
	struct simt_func *f = func_of(func);
	size_t per;

	(void)blockSize;
	if (!smem || numBlocks <= 0)
		return fail(cudaErrorInvalidValue);
	if (!f)
		return fail(cudaErrorInvalidDeviceFunction);
	per = p->sharedMemPerMultiprocessor / (size_t)numBlocks;
	per = per > p->reservedSharedMemPerBlock + f->sum_shared
		? per - p->reservedSharedMemPerBlock - f->sum_shared : 0;
	if (per > p->sharedMemPerBlockOptin - f->sum_shared)
		per = p->sharedMemPerBlockOptin - f->sum_shared;
	*smem = per;
	return cudaSuccess;
}
