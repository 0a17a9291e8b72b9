/* The table of allocations: every range of memory a kernel may address
 * (device, managed, pinned and registered memory, module variables, the
 * parameter buffer), kept sorted by address so that the interpreter can
 * check every access and a fault can name the allocation it missed.  The
 * table changes only while no kernel runs (API calls are serialised), so
 * kernels read it without locking.  Which memory to allocate, and where,
 * is the runtime's business (runtime/memory.c). */
#include "mem/mem.h"

#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FREED_RING 256

static struct simt_alloc *table;
static size_t ntable, captable;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* Recently freed allocations, to recognise use after free. */
static struct simt_alloc freed[FREED_RING];
static size_t nfreed;

/* Index of the first entry with base > a. */
static size_t upper_bound(uint64_t a)
{
	size_t lo = 0, hi = ntable;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (table[mid].base <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void simt_mem_insert(const struct simt_alloc *al)
{
	size_t i;

	pthread_mutex_lock(&table_lock);
	if (ntable == captable) {
		captable = captable ? captable * 2 : 64;
		table = simt_xrealloc(table, captable * sizeof *table);
	}
	i = upper_bound(al->base);
	memmove(&table[i + 1], &table[i], (ntable - i) * sizeof *table);
	table[i] = *al;
	ntable++;
	pthread_mutex_unlock(&table_lock);
}

bool simt_mem_remove(uint64_t base, struct simt_alloc *out)
{
	size_t i;

	pthread_mutex_lock(&table_lock);
	i = upper_bound(base);
	if (i == 0 || table[i - 1].base != base) {
		pthread_mutex_unlock(&table_lock);
		return false;
	}
	i--;
	*out = table[i];
	memmove(&table[i], &table[i + 1], (ntable - i - 1) * sizeof *table);
	ntable--;
	pthread_mutex_unlock(&table_lock);
	return true;
}

struct simt_alloc *simt_mem_entry(size_t i)
{
	return i < ntable ? &table[i] : NULL;
}

const struct simt_alloc *simt_mem_find(uint64_t a, uint64_t n)
{
	size_t i = upper_bound(a);
	const struct simt_alloc *al;

	if (i == 0)
		return NULL;
	al = &table[i - 1];
	if (a - al->base < al->size && al->size - (a - al->base) >= n)
		return al;
	return NULL;
}

int simt_mem_device(const void *p)
{
	const struct simt_alloc *al = simt_mem_find((uint64_t)(uintptr_t)p, 1);

	return al ? al->device : -1;
}

void simt_mem_origin(const void *p, const char *api, const void *site)
{
	struct simt_alloc *al = (struct simt_alloc *)(uintptr_t)
		simt_mem_find((uint64_t)(uintptr_t)p, 1);
	void *frames[16];
	int n, i, k = 0;

	if (!al || al->base != (uint64_t)(uintptr_t)p)
		return;
	al->api = api;
	memset(al->site, 0, sizeof al->site);
	al->site[0] = (uint64_t)(uintptr_t)site;
	n = backtrace(frames, 16);
	for (i = 0; i < n && frames[i] != site; i++)
		;
	for (; i < n && k < 3; i++)
		al->site[k++] = (uint64_t)(uintptr_t)frames[i];
}

void simt_mem_touch(const struct simt_alloc *al, uint32_t base)
{
	if (al->kind == MEM_MANAGED || al->kind == MEM_HOST)
		__atomic_store_n(&((struct simt_alloc *)(uintptr_t)al)->touched, base,
				 __ATOMIC_RELAXED);
}

uint32_t simt_mem_touched(uint64_t base)
{
	const struct simt_alloc *al = simt_mem_find(base, 1);

	return al ? __atomic_load_n(&al->touched, __ATOMIC_RELAXED) : 0;
}

void simt_mem_freed(const struct simt_alloc *al)
{
	freed[nfreed % FREED_RING] = *al;
	nfreed++;
}

const struct simt_alloc *simt_mem_nearest(uint64_t a, uint64_t *freed_size,
					  bool *was_freed)
{
	size_t i;

	*was_freed = false;
	for (i = 0; i < FREED_RING && i < nfreed; i++) {
		const struct simt_alloc *f = &freed[(nfreed - 1 - i) % FREED_RING];

		if (a - f->base < f->size) {
			/* Only if no live allocation reuses the address. */
			if (simt_mem_find(a, 1))
				break;
			*was_freed = true;
			*freed_size = f->size;
			return f;
		}
	}
	i = upper_bound(a);
	return i ? &table[i - 1] : NULL;
}

static const char *kind_word(const struct simt_alloc *al)
{
	switch (al->kind) {
	case MEM_HOST:
		return "pinned host allocation";
	case MEM_MANAGED:
		return "managed allocation";
	case MEM_REGISTERED:
		return "registered host range";
	case MEM_SYMBOL:
		return "variable";
	default:
		return "allocation";
	}
}

void simt_mem_describe_alloc(struct simt_buf *b, const struct simt_alloc *al)
{
	if (al->kind == MEM_SYMBOL && al->name)
		simt_buf_printf(b, "the %llu-byte variable %s",
				(unsigned long long)al->size, al->name);
	else
		simt_buf_printf(b, "a %llu-byte %s", (unsigned long long)al->size,
				kind_word(al));
}

/* The mapping of the process that a lies in, from /proc/self/maps:
 * [*lo, *hi) and whether it may be read and written.  False when a is in
 * none. */
static bool mapping_of(uint64_t a, uint64_t *lo, uint64_t *hi, bool *r, bool *w)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512], perm[8];
	unsigned long long s, e;
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof line, f))
		if (sscanf(line, "%llx-%llx %7s", &s, &e, perm) == 3 && a >= s && a < e) {
			*lo = s;
			*hi = e;
			*r = perm[0] == 'r';
			*w = perm[1] == 'w';
			found = true;
		}
	fclose(f);
	return found;
}

bool simt_mem_host_range(uint64_t a, uint64_t n, uint64_t *lo, uint64_t *hi,
			 bool *writable)
{
	const struct simt_alloc *al;
	bool readable;
	size_t i;

	/* without the arena, device memory is host memory too */
	if (!simt_guard.size || simt_arena_has((const void *)(uintptr_t)a) ||
	    simt_mem_find(a, 1) || !mapping_of(a, lo, hi, &readable, writable) ||
	    !readable || *hi - a < n)
		return false;
	/* the pages of an allocation are its own: an access past its end
	 * but in its last page is past the allocation, and the range stops
	 * short of every allocation */
	i = upper_bound(a);
	if (i) {
		al = &table[i - 1];
		if (a - al->base < simt_page_round(al->size))
			return false;
		if (al->base + al->size > *lo)
			*lo = al->base + simt_page_round(al->size);
	}
	if (i < ntable && table[i].base < *hi)
		*hi = table[i].base;
	return *hi - a >= n;
}

/* Whether an allocation may be named as the one an access missed:
 * variables and the parameter buffer only when the access is close. */
static bool candidate(const struct simt_alloc *al, uint64_t dist)
{
	return al->kind != MEM_SYMBOL || dist < 4096;
}

void simt_mem_describe(struct simt_buf *b, uint64_t a, uint64_t n,
		       const char *what)
{
	const struct simt_alloc *below = NULL, *above = NULL, *f;
	uint64_t fsize = 0, dist_below = UINT64_MAX, dist_above = UINT64_MAX, lo, hi;
	bool was_freed, rw;
	size_t i;

	if (a < 65536) {
		simt_buf_printf(b, "invalid %s of %llu bytes at address 0x%llx "
				"(a null pointer%s)", what, (unsigned long long)n,
				(unsigned long long)a, a ? " plus an offset" : "");
		return;
	}
	f = simt_mem_nearest(a, &fsize, &was_freed);
	if (was_freed) {
		simt_buf_printf(b, "invalid %s of %llu bytes, %llu bytes into a "
				"%llu-byte allocation that was already freed",
				what, (unsigned long long)n,
				(unsigned long long)(a - f->base),
				(unsigned long long)fsize);
		return;
	}
	if (simt_mem_host_range(a, 1, &lo, &hi, &rw)) {
		simt_buf_printf(b, "invalid %s of %llu bytes: address 0x%llx is "
				"host memory (not from cudaMalloc, "
				"cudaMallocManaged or cudaHostAlloc), which a "
				"kernel reaches only once it is registered with "
				"cudaHostRegister (or with CUDALAB_SIMT_HMM=1, as "
				"on a system with HMM)", what, (unsigned long long)n,
				(unsigned long long)a);
		return;
	}
	simt_buf_printf(b, "out-of-bounds %s of %llu bytes", what,
			(unsigned long long)n);
	for (i = 0; i < ntable; i++) {
		const struct simt_alloc *al = &table[i];

		if (al->base <= a) {
			uint64_t end = al->base + al->size;
			uint64_t d = a >= end ? a - end : 0;

			if (candidate(al, d) && d <= dist_below) {
				below = al;
				dist_below = d;
			}
		} else if (candidate(al, al->base - a) &&
			   al->base - a < dist_above) {
			above = al;
			dist_above = al->base - a;
		}
	}
	if (below && a - below->base < below->size) {
		simt_buf_printf(b, " at offset %llu, running past the end of ",
				(unsigned long long)(a - below->base));
		simt_mem_describe_alloc(b, below);
		return;
	}
	if (below && dist_below <= dist_above && dist_below < (1ull << 44)) {
		simt_buf_printf(b, ", %llu bytes past ", (unsigned long long)dist_below);
		simt_mem_describe_alloc(b, below);
		return;
	}
	if (above && dist_above < (1ull << 44)) {
		simt_buf_printf(b, ", %llu bytes before ", (unsigned long long)dist_above);
		simt_mem_describe_alloc(b, above);
		return;
	}
	simt_buf_printf(b, " at address 0x%llx, which is not device memory",
			(unsigned long long)a);
}
