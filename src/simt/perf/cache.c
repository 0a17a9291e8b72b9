/* Sector caches for the time model (see cache.h).  Sets are chosen by a
 * multiplicative hash of the line address, as GPU caches hash addresses
 * across sets and slices, so that power-of-two strides do not all land in
 * one set.  The address hashed is pm_line_key's: the hash mixes every
 * bit, so with the arena's randomised base in it two runs of a program
 * would put its lines in different sets, and predict different times. */
#include "perf/cache.h"
#include "base/base.h"
#include "mem/mem.h"

#include <stdlib.h>
#include <string.h>

#define LINE 128u

void pm_cache_init(struct pm_cache *c, uint64_t bytes, uint32_t ways)
{
	uint64_t lines = bytes / LINE;

	memset(c, 0, sizeof *c);
	if (ways < 1)
		ways = 1;
	if (lines < ways)
		lines = ways;
	c->ways = ways;
	c->sets = (uint32_t)(lines / ways);
	c->tag = simt_xcalloc((size_t)c->sets * ways, sizeof *c->tag);
	c->valid = simt_xcalloc((size_t)c->sets * ways, 1);
	c->dirty = simt_xcalloc((size_t)c->sets * ways, 1);
	c->stamp = simt_xcalloc((size_t)c->sets * ways, sizeof *c->stamp);
}

void pm_cache_free(struct pm_cache *c)
{
	free(c->tag);
	free(c->valid);
	free(c->dirty);
	free(c->stamp);
	memset(c, 0, sizeof *c);
}

void pm_cache_clear(struct pm_cache *c)
{
	size_t n = (size_t)c->sets * c->ways;

	memset(c->tag, 0, n * sizeof *c->tag);
	memset(c->valid, 0, n);
	memset(c->dirty, 0, n);
	memset(c->stamp, 0, n * sizeof *c->stamp);
	c->clock = 0;
	c->evicted_dirty = 0;
}

uint64_t pm_line_key(uint64_t line)
{
	return line - __atomic_load_n(&simt_guard.lo, __ATOMIC_RELAXED) / LINE;
}

static inline uint32_t set_of(const struct pm_cache *c, uint64_t line)
{
	return (uint32_t)(((pm_line_key(line) * 0x9e3779b97f4a7c15ull) >> 32) % c->sets);
}

/* The way holding `line` in its set, or -1; *victim: the way to use if
 * it is not there (an empty one, else the least recently used). */
static int lookup(const struct pm_cache *c, uint64_t line, size_t *base, int *victim)
{
	uint32_t w, oldest = UINT32_MAX;

	*base = (size_t)set_of(c, line) * c->ways;
	*victim = 0;
	for (w = 0; w < c->ways; w++) {
		size_t i = *base + w;

		if (c->tag[i] == line + 1)
			return (int)w;
		if (!c->tag[i]) {
			if (oldest)
				*victim = (int)w;
			oldest = 0;
		} else if (c->stamp[i] < oldest) {
			oldest = c->stamp[i];
			*victim = (int)w;
		}
	}
	return -1;
}

static size_t place(struct pm_cache *c, uint64_t line, size_t base, int victim)
{
	size_t i = base + (size_t)victim;

	c->evicted_dirty += (uint64_t)__builtin_popcount(c->dirty[i]);
	c->tag[i] = line + 1;
	c->valid[i] = 0;
	c->dirty[i] = 0;
	return i;
}

unsigned pm_cache_read(struct pm_cache *c, uint64_t line, unsigned mask)
{
	size_t base, i;
	int victim, w = lookup(c, line, &base, &victim);
	unsigned miss;

	i = w >= 0 ? base + (size_t)w : place(c, line, base, victim);
	miss = mask & ~(unsigned)c->valid[i];
	c->valid[i] |= (uint8_t)mask;
	c->stamp[i] = ++c->clock;
	return miss;
}

unsigned pm_cache_write(struct pm_cache *c, uint64_t line, unsigned mask,
			bool allocate)
{
	size_t base, i;
	int victim, w = lookup(c, line, &base, &victim);
	unsigned fresh;

	if (w < 0 && !allocate)
		return 0;
	i = w >= 0 ? base + (size_t)w : place(c, line, base, victim);
	c->stamp[i] = ++c->clock;
	c->valid[i] |= (uint8_t)mask;
	if (!allocate)
		return 0;
	fresh = mask & ~(unsigned)c->dirty[i];
	c->dirty[i] |= (uint8_t)mask;
	return fresh;
}
