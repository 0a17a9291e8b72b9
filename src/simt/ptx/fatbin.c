/* Reading PTX out of the fatbinary that nvcc embeds in a program.
 *
 * The wrapper handed to __cudaRegisterFatBinary holds a magic number and a
 * pointer to the fatbinary: a 16-byte header (magic, version, header size,
 * size of the entries) followed by entries, each with its own header
 * (kind 1 = PTX, 2 = ELF; header size; payload size; the target
 * architecture at 0x1c; flags at 0x28 telling whether the payload is
 * compressed) and its payload. */
#include "ptx/ptx.h"

#include <string.h>

#define WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC 0xBA55ED50u
#define ENTRY_PTX 1
#define FLAG_COMPRESSED_LZ4 0x2000u
#define FLAG_COMPRESSED_ZSTD 0x8000u

struct wrapper {
	int magic;
	int version;
	const unsigned long long *data;
	void *unused;
};

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint16_t rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

int simt_fatbin_find_ptx(const void *fatbin, size_t size, const char **ptx,
			 size_t *len, const char **why)
{
	const uint8_t *fb = fatbin;
	uint64_t off, end, best = 0, best_size = 0;
	uint32_t best_arch = 0;
	bool found = false, compressed = false;

	if (size < 16 || rd32(fb) != FATBIN_MAGIC) {
		*why = "the program's fatbinary has an unknown layout";
		return -1;
	}
	off = rd16(fb + 6);
	end = rd64(fb + 8);
	/* every offset below stays within [0, size]: sizes are compared with
	 * what is left, never added past it */
	if (off < 16 || off > size || end > size - off) {
		*why = "the program's fatbinary is truncated or has an unknown layout";
		return -1;
	}
	end += off;
	while (end - off >= 0x30) {
		const uint8_t *p = fb + off;
		uint16_t kind = rd16(p);
		uint32_t hsize = rd32(p + 4);
		uint64_t psize = rd64(p + 8);
		uint32_t arch = rd32(p + 0x1c);
		uint64_t flags = rd64(p + 0x28);

		if (hsize < 0x30 || hsize > end - off || psize > end - off - hsize)
			break;
		if (kind == ENTRY_PTX) {
			if (flags & (FLAG_COMPRESSED_LZ4 | FLAG_COMPRESSED_ZSTD)) {
				compressed = true;
			} else if (!found || arch > best_arch) {
				found = true;
				best = off + hsize;
				best_size = psize;
				best_arch = arch;
			}
		}
		off += hsize + psize;
	}
	if (!found) {
		*why = compressed
			? "the PTX in this program is compressed; rebuild it with "
			  "`nvcc --no-compress ...` so simt can read it"
			: "this program holds no PTX, only machine code; rebuild it "
			  "with -arch=sm_80 (or -gencode arch=compute_80,code=compute_80) "
			  "and --no-compress";
		return -1;
	}
	*ptx = (const char *)fb + best;
	*len = strnlen(*ptx, (size_t)best_size);
	return 0;
}

int simt_fatbin_ptx(const void *wrapper, const char **ptx, size_t *len,
		    const char **why)
{
	const struct wrapper *w = wrapper;
	const uint8_t *fb;
	uint64_t size;

	if (!w || (uint32_t)w->magic != WRAPPER_MAGIC || !w->data) {
		*why = "the program's device code has an unknown layout";
		return -1;
	}
	/* The wrapper gives no size: the fatbinary's header says how long it
	 * is, and the reader keeps within that. */
	fb = (const uint8_t *)w->data;
	if (rd32(fb) != FATBIN_MAGIC) {
		*why = "the program's fatbinary has an unknown layout";
		return -1;
	}
	size = (uint64_t)rd16(fb + 6) + rd64(fb + 8);
	if (size < rd64(fb + 8)) {
		*why = "the program's fatbinary has an unknown layout";
		return -1;
	}
	return simt_fatbin_find_ptx(fb, (size_t)size, ptx, len, why);
}
