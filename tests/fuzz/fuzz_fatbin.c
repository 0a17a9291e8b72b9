/* fuzz_fatbin.c — the fatbinary nvcc embeds in a program (the bytes of its
 * .nv_fatbin section): simt_fatbin_find_ptx on exactly those bytes, and
 * simt_fatbin_ptx through the wrapper __cudaRegisterFatBinary is handed,
 * then the PTX found through the loader. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The wrapper nvcc emits in .nvFatBinSegment. */
struct wrapper {
	int magic;
	int version;
	const unsigned long long *data;
	void *unused;
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* exactly size bytes, 8-aligned as in the section */
	unsigned long long *fb = malloc(size ? size : 1);
	struct wrapper w = { 0x466243b1, 1, fb, NULL };
	struct simt_module mod;
	const char *ptx, *why;
	size_t len;
	uint64_t declared;

	memcpy(fb, data, size);
	memset(&mod, 0, sizeof mod);
	if (simt_fatbin_find_ptx(fb, size, &ptx, &len, &why) == 0)
		(void)simt_ptx_load(&mod, ptx, len);
	simt_module_free(&mod);

	/* The wrapper carries no size: the fatbinary's header is all there is
	 * to go by, so only a header lying within the input is handed over
	 * that way (in a program, nvcc wrote it with the section). */
	if (size >= 16) {
		uint16_t hsize;

		memcpy(&hsize, data + 6, 2);
		memcpy(&declared, data + 8, 8);
		if (declared <= size && hsize <= size - declared &&
		    simt_fatbin_ptx(&w, &ptx, &len, &why) == 0) {
			memset(&mod, 0, sizeof mod);
			(void)simt_ptx_load(&mod, ptx, len);
			simt_module_free(&mod);
		}
	}
	free(fb);
	return 0;
}
