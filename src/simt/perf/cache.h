/* A sector cache: lines of line_bytes split into sectors of sector_bytes,
 * set-associative with LRU replacement (cache.c).  The time model's L1
 * (per block, while a sampled block runs) and L2 (over the misses of all
 * sampled blocks, afterwards) are both one of these. */
#ifndef SIMT_PERF_CACHE_H
#define SIMT_PERF_CACHE_H

#include <stdbool.h>
#include <stdint.h>

struct pm_cache {
	uint32_t sets, ways;
	uint64_t *tag;        /* line address + 1; 0: empty */
	uint8_t *valid;       /* sectors present */
	uint8_t *dirty;       /* sectors written, not yet in DRAM */
	uint32_t *stamp;      /* last use, for LRU */
	uint32_t clock;
	uint64_t evicted_dirty;  /* sectors written back by evictions */
};

/* A cache of `bytes` (at least one line) with `ways` ways of 128-byte
 * lines of four 32-byte sectors. */
void pm_cache_init(struct pm_cache *c, uint64_t bytes, uint32_t ways);

/* What a hash of a line address may use: the line's offset in simt's
 * arena rather than where the arena lies in this run (its base is
 * randomised), so that a program's lines hash alike in every run and the
 * time model predicts the same time. */
uint64_t pm_line_key(uint64_t line);
void pm_cache_free(struct pm_cache *c);
void pm_cache_clear(struct pm_cache *c);

/* Reads sectors `mask` (bit k: sector k) of line `line` (address / 128):
 * returns the sectors that missed, which are then present. */
unsigned pm_cache_read(struct pm_cache *c, uint64_t line, unsigned mask);

/* A write of sectors `mask`.  allocate: the line is made present and the
 * sectors dirty (L2: write-back); returns the sectors that were not
 * dirty before (each will cost one write to DRAM).  Without allocate
 * (L1: write-through) the sectors only stay valid if the line is there. */
unsigned pm_cache_write(struct pm_cache *c, uint64_t line, unsigned mask,
			bool allocate);

#endif
