/* Shadow memory of allocations: the records of every 4-byte granule of
 * global memory and the line records over them, the bits of device memory
 * written, and a pool of large shadows kept for reuse. */
#include "check/hz_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Shadows and bit maps of at least this size are mapped, so that pages
 * no kernel touches cost nothing. */
#define MAP_MIN (1u << 20)

/* Fresh mappings up to this size are filled at once (one write fault per
 * huge page, and no copy-on-write of the zero page with the TLB
 * shootdowns it costs when a kernel reads a page before writing it). */
#define POPULATE_MAX ((size_t)256 << 20)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Zeroed memory; when mapped, the bytes from `fill` on are filled at once
 * (see POPULATE_MAX). */
static void *zeroed_from(size_t bytes, size_t fill)
{
	void *p;

	if (bytes < MAP_MIN)
		return simt_xcalloc(1, bytes);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		simt_warn("cannot map %zu bytes for hazard checking", bytes);
		abort();
	}
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE);
#endif
	fill &= ~(size_t)4095;
	if (fill < bytes && bytes - fill <= POPULATE_MAX)
		madvise((char *)p + fill, bytes - fill, MADV_POPULATE_WRITE); /* a hint: may fail */
	return p;
}

static void *zeroed(size_t bytes)
{
	return zeroed_from(bytes, 0);
}

static void unzeroed(void *p, size_t bytes)
{
	if (!p)
		return;
	if (bytes < MAP_MIN)
		free(p);
	else
		munmap(p, bytes);
}

/* Shadows of freed allocations, kept for the next allocation of about
 * the same size: records of earlier launches read as stale (their clock
 * is at most the launch's base), so a shadow needs no clearing to be
 * reused, and its pages are already there.  Emptied when the clocks start
 * again (simt_hz_launch_begin). */
#define POOL_SLOTS 16
#define POOL_MAX ((size_t)1 << 30)
static struct pooled {
	void *p;
	size_t bytes;
	uint32_t clk;   /* every record in it is at most this clock */
} pool[POOL_SLOTS];
static size_t pool_bytes;
bool hz_pool_off;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static void *pool_take(size_t bytes, size_t *cap)
{
	int i, best = -1;
	void *p = NULL;

	/* a shadow whose records could still be taken for another stream's
	 * unordered work (order.h) is not handed out */
	uint32_t done = simt_order_retired();

	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < POOL_SLOTS && !hz_pool_off; i++)
		if (pool[i].p && pool[i].bytes >= bytes && pool[i].bytes / 4 <= bytes &&
		    pool[i].clk <= done &&
		    (best < 0 || pool[i].bytes < pool[best].bytes))
			best = i;
	if (best >= 0) {
		p = pool[best].p;
		*cap = pool[best].bytes;
		pool_bytes -= pool[best].bytes;
		pool[best].p = NULL;
	}
	pthread_mutex_unlock(&pool_lock);
	return p;
}

static bool pool_put(void *p, size_t bytes)
{
	int i;
	bool kept = false;

	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < POOL_SLOTS && !hz_pool_off && !kept; i++)
		if (!pool[i].p && pool_bytes + bytes <= POOL_MAX) {
			pool[i].p = p;
			pool[i].bytes = bytes;
			pool[i].clk = hz_clock_base;
			pool_bytes += bytes;
			kept = true;
		}
	pthread_mutex_unlock(&pool_lock);
	return kept;
}

void hz_pool_flush(void)
{
	int i;

	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < POOL_SLOTS; i++)
		if (pool[i].p)
			munmap(pool[i].p, pool[i].bytes);
	memset(pool, 0, sizeof pool);
	pool_bytes = 0;
	pthread_mutex_unlock(&pool_lock);
}

/* A global shadow's size in bytes (see line_count): whole huge pages when
 * mapped, so that pooled shadows fit allocations of nearby sizes. */
static size_t shadow_bytes(uint64_t size)
{
	size_t b = (size_t)line_count(size) *
		   (LINE_GRAN * sizeof(struct hz_word) + sizeof(struct hz_line));

	return b < MAP_MIN ? b : (b + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
}

struct hz_word *simt_hz_shadow_new(uint64_t size)
{
	size_t bytes = shadow_bytes(size), cap;
	void *p;

	if (bytes >= MAP_MIN && (p = pool_take(bytes, &cap))) {
		if (cap > bytes) {
			/* give back the tail: the free side must see `bytes` */
			munmap((char *)p + bytes, cap - bytes);
		}
		return p;
	}
	/* granule records are written before they are read (see
	 * line_settle), a page at a time as lines need them; the lines are
	 * read first */
	return zeroed_from(bytes, (size_t)line_count(size) * LINE_GRAN *
				  sizeof(struct hz_word));
}

void simt_hz_shadow_free(struct hz_word *sh, uint64_t size)
{
	size_t bytes = shadow_bytes(size);

	if (sh && bytes >= MAP_MIN && pool_put(sh, bytes))
		return;
	unzeroed(sh, bytes);
}

uint8_t *simt_hz_init_new(uint64_t size)
{
	return zeroed((size_t)(size / 8 + 1));
}

void simt_hz_init_free(uint8_t *bits, uint64_t size)
{
	unzeroed(bits, (size_t)(size / 8 + 1));
}

void simt_hz_init_set(uint8_t *bits, uint64_t off, uint64_t n)
{
	uint64_t end = off + n;

	while (off < end && (off & 7))
		bits[off >> 3] |= (uint8_t)(1u << (off & 7)), off++;
	if (end - off >= 8) {
		memset(bits + (off >> 3), 0xff, (size_t)((end - off) >> 3));
		off += (end - off) & ~7ull;
	}
	while (off < end)
		bits[off >> 3] |= (uint8_t)(1u << (off & 7)), off++;
}

void simt_hz_init_copy(uint8_t *dst, uint64_t doff, const uint8_t *src,
		       uint64_t soff, uint64_t n)
{
	uint64_t i = 0;

	while (i < n) {
		uint64_t d = doff + i, s2 = soff + i;
		uint8_t m = (uint8_t)(1u << (d & 7));

		if (!(d & 7) && !(s2 & 7) && n - i >= 8) {
			size_t bytes = (size_t)((n - i) >> 3);

			memmove(dst + (d >> 3), src + (s2 >> 3), bytes);
			i += (uint64_t)bytes * 8;
			continue;
		}
		if (src[s2 >> 3] >> (s2 & 7) & 1)
			dst[d >> 3] |= m;
		else
			dst[d >> 3] &= (uint8_t)~m;
		i++;
	}
}

/* Gives every allocation a fresh shadow (the clocks start again). */
void hz_shadows_reset(void)
{
	struct simt_alloc *al;
	size_t i;

	for (i = 0; (al = simt_mem_entry(i)); i++) {
		if (!al->shadow)
			continue;
		simt_hz_shadow_free(al->shadow, al->size);
		al->shadow = simt_hz_shadow_new(al->size);
	}
}
