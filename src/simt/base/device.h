/* The device simt pretends to be: one profile that every device shares
 * (CUDALAB_SIMT_DEVICE), with the CUDA ABI types it is described in. */
#ifndef SIMT_DEVICE_H
#define SIMT_DEVICE_H

#include "base/cudart.h"

/* The most devices a program may have (CUDALAB_SIMT_GPUS). */
#define SIMT_MAX_GPUS 64

struct simt_device {
	struct cudaDeviceProp prop;
	int memory_clock_khz;
	int clock_khz;
	const char *key;
};
/* The profile every device shares (CUDALAB_SIMT_DEVICE). */
const struct simt_device *simt_device(void);
/* Replaces the profile with *d: the GPU the time model predicts for
 * (runtime/timeline.c), so that programs see its SM count and limits.
 * Called once, before any kernel runs. */
void simt_device_adopt(const struct simt_device *d);
/* The properties of device d: the profile, with d's own PCI location
 * and UUID. */
void simt_device_prop(int d, struct cudaDeviceProp *prop);

#endif
