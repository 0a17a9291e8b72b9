/* Device memory: allocations live in host memory and are kept in a table
 * sorted by address, so the interpreter can check every access and a
 * fault can name the allocation it missed.  The table changes only while
 * no kernel runs (API calls are serialised), so kernels read it without
 * locking. */
#include "simt_int.h"
#include "hazard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MMAP_MIN (1u << 20)
#define FREED_RING 256

/* Device, managed and pinned memory is placed in one reserved range of
 * address space, in order and never reused: each allocation has pages of
 * its own, followed by a gap that nothing is mapped in, as large as the
 * allocation and at least GAP_MIN.  An index that runs past the end of
 * one allocation (or before its start) then lands outside every
 * allocation, where the bounds check reports it, instead of inside the
 * next one, where it would corrupt another buffer silently; a pointer
 * used after its free stays outside too.  When the range cannot be
 * reserved or is used up, allocations come from malloc and mmap.
 * Managed and pinned memory that hostsync.c protects page by page while
 * the checks are on gets mappings of its own instead: changing the
 * protection of pages inside one huge mapping costs far more. */
#define ARENA_BYTES (4ull << 40)
#define GAP_MIN ((uint64_t)1 << 20)

static uint8_t *arena;
static uint64_t arena_next = GAP_MIN;
static bool arena_tried;

static struct simt_alloc *table;
static size_t ntable, captable;
/* Device and managed bytes allocated on each device. */
static uint64_t used_bytes[SIMT_MAX_GPUS];
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

static void table_insert(const struct simt_alloc *al)
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

/* Removes the entry starting at base; returns false if there is none. */
static bool table_remove(uint64_t base, struct simt_alloc *out)
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

static uint64_t host_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psize <= 0)
		return 1ull << 34;
	return (uint64_t)pages * (uint64_t)psize / 4 * 3;
}

uint64_t simt_mem_used(int d)
{
	return used_bytes[d];
}

static uint64_t used_total(void)
{
	uint64_t sum = 0;
	int d;

	for (d = 0; d < SIMT_MAX_GPUS; d++)
		sum += used_bytes[d];
	return sum;
}

int simt_mem_device(const void *p)
{
	const struct simt_alloc *al = simt_mem_find((uint64_t)(uintptr_t)p, 1);

	return al ? al->device : -1;
}

bool simt_mem_reachable(const struct simt_alloc *al, int d)
{
	/* a pool's access list decides, not peer access */
	if (al->pool)
		return simt_pool_reaches(al->pool, d);
	return al->device < 0 || simt_peer_enabled(d, al->device);
}

void simt_mem_set_pool(void *p, struct CUmemPoolHandle_st *pool)
{
	struct simt_alloc *al = (struct simt_alloc *)(uintptr_t)
		simt_mem_find((uint64_t)(uintptr_t)p, 1);

	if (al)
		al->pool = pool;
}

/* Gives a new allocation its hazard shadow (what kernels can write) and,
 * for device memory, its record of bytes written. */
static void hz_attach(struct simt_alloc *al)
{
	if (!simt_hz_enabled() || al->readonly)
		return;
	al->shadow = simt_hz_shadow_new(al->size);
	if (al->kind == MEM_DEVICE)
		al->init = simt_hz_init_new(al->size);
}

static void hz_detach(struct simt_alloc *al)
{
	simt_hz_shadow_free(al->shadow, al->size);
	simt_hz_init_free(al->init, al->size);
	al->shadow = NULL;
	al->init = NULL;
}

void *simt_mem_alloc(size_t size, int kind, unsigned flags)
{
	return simt_mem_alloc_on(size, kind, flags, simt_current_device());
}

/* Whether size more bytes of device memory fit on device ctx, and all
 * devices together within what the host can back. */
static bool fits(int ctx, size_t size)
{
	size_t round = (size + 255) / 256 * 256;

	return round >= size && used_bytes[ctx] + round <= simt_device()->prop.totalGlobalMem &&
	       used_total() + round <= host_limit();
}

/* Puts a new allocation in the table, with its hazard records, and counts
 * device and managed memory against its device. */
static void enter(struct simt_alloc *al)
{
	hz_attach(al);
	table_insert(al);
	if (al->kind == MEM_DEVICE || al->kind == MEM_MANAGED)
		used_bytes[al->ctx] += (al->size + 255) / 256 * 256;
}

static size_t page_round(uint64_t n)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);

	return (size_t)((n + pg - 1) / pg * pg);
}

/* round bytes (a multiple of the page size) of zeroed memory from the
 * arena, or NULL.  Called with table_lock held. */
static void *arena_take(size_t round)
{
	uint64_t gap = round > GAP_MIN ? page_round(round) : GAP_MIN;
	uint8_t *p;

	if (!arena_tried) {
		void *r = mmap(NULL, ARENA_BYTES, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		arena_tried = true;
		arena = r == MAP_FAILED ? NULL : r;
	}
	if (!arena || round > ARENA_BYTES - arena_next ||
	    gap > ARENA_BYTES - arena_next - round)
		return NULL;
	p = arena + arena_next;
	if (mprotect(p, round, PROT_READ | PROT_WRITE) != 0)
		return NULL;
	arena_next += round + gap;
	return p;
}

static bool in_arena(const void *p)
{
	return arena && (const uint8_t *)p >= arena &&
	       (const uint8_t *)p < arena + ARENA_BYTES;
}

void *simt_mem_alloc_on(size_t size, int kind, unsigned flags, int ctx)
{
	struct simt_alloc al = {0};
	size_t round = (size + 255) / 256 * 256;
	/* memory the host shares gets pages of its own while checks are on,
	 * so that hostsync.c can protect it */
	bool own = (kind == MEM_MANAGED || kind == MEM_HOST) && simt_hz_enabled();
	void *p;

	if (size == 0)
		return NULL;
	if ((kind == MEM_DEVICE || kind == MEM_MANAGED) && !fits(ctx, size))
		return NULL;
	if (own)
		round = (round + 4095) & ~(size_t)4095;
	pthread_mutex_lock(&table_lock);
	p = own ? NULL : arena_take(page_round(round));   /* see ARENA_BYTES */
	pthread_mutex_unlock(&table_lock);
	if (p) {
		al.arena = true;
	} else if (round >= MMAP_MIN || own) {
		p = mmap(NULL, round, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		al.mmapped = true;
	} else {
		p = aligned_alloc(256, round);
		if (!p)
			return NULL;
		memset(p, 0, round);
	}
	al.base = (uint64_t)(uintptr_t)p;
	al.size = size;
	al.kind = kind;
	al.flags = flags;
	al.ctx = ctx;
	al.device = kind == MEM_DEVICE ? ctx : -1;
	enter(&al);
	if (own && al.shadow)
		simt_hs_track(al.base, al.size);
	return p;
}

void simt_mem_hz_reset(void)
{
	size_t i;

	for (i = 0; i < ntable; i++) {
		struct simt_alloc *al = &table[i];

		if (!al->shadow)
			continue;
		simt_hz_shadow_free(al->shadow, al->size);
		al->shadow = simt_hz_shadow_new(al->size);
	}
}

static void remember_freed(const struct simt_alloc *al)
{
	freed[nfreed % FREED_RING] = *al;
	nfreed++;
}

int simt_mem_free(void *p, int kind)
{
	struct simt_alloc al;
	uint64_t base = (uint64_t)(uintptr_t)p;

	if (!table_remove(base, &al))
		return -1;
	if (al.kind != kind && !(kind == MEM_DEVICE && al.kind == MEM_MANAGED)) {
		table_insert(&al);
		return -1;
	}
	if (al.kind == MEM_DEVICE || al.kind == MEM_MANAGED)
		used_bytes[al.ctx] -= (al.size + 255) / 256 * 256;
	if (al.pool)
		simt_pool_freed(al.pool, al.size);
	if (al.shadow && (al.kind == MEM_MANAGED || al.kind == MEM_HOST))
		simt_hs_forget(al.base);
	hz_detach(&al);
	remember_freed(&al);
	if (al.gmem) {
		simt_gmem_unmapped(al.gmem);
	} else if (al.arena && in_arena(p)) {
		/* the pages go back; the addresses stay unmapped, never reused */
		size_t n = page_round((al.size + 255) / 256 * 256);

		madvise(p, n, MADV_DONTNEED);
		mprotect(p, n, PROT_NONE);
	} else if (al.mmapped)
		munmap(p, (al.size + 255) / 256 * 256);
	else
		free(p);
	return 0;
}

bool simt_mem_place(void *p, size_t size, int d, struct simt_gmem *g)
{
	struct simt_alloc al = {0};

	if (!fits(d, size))
		return false;
	al.base = (uint64_t)(uintptr_t)p;
	al.size = size;
	al.kind = MEM_DEVICE;
	al.ctx = d;
	al.device = d;
	al.gmem = g;
	enter(&al);
	return true;
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

void simt_mem_written(const void *p, uint64_t n)
{
	const struct simt_alloc *al;

	if (!n || !(al = simt_mem_find((uint64_t)(uintptr_t)p, n)) || !al->init)
		return;
	simt_hz_init_set(al->init, (uint64_t)(uintptr_t)p - al->base, n);
}

void simt_mem_copied(void *dst, const void *src, uint64_t n)
{
	const struct simt_alloc *d, *s;

	if (!n || !(d = simt_mem_find((uint64_t)(uintptr_t)dst, n)) || !d->init)
		return;
	s = simt_mem_find((uint64_t)(uintptr_t)src, n);
	if (!s || !s->init) {
		simt_hz_init_set(d->init, (uint64_t)(uintptr_t)dst - d->base, n);
		return;
	}
	simt_hz_init_copy(d->init, (uint64_t)(uintptr_t)dst - d->base, s->init,
			  (uint64_t)(uintptr_t)src - s->base, n);
}

void simt_mem_track(void *p, uint64_t size, int kind, const char *name,
		    bool readonly)
{
	struct simt_alloc al = {0};

	if (!p || size == 0)
		return;
	al.base = (uint64_t)(uintptr_t)p;
	al.size = size;
	al.kind = kind;
	al.device = -1;
	al.ctx = -1;
	al.name = name;
	al.readonly = readonly;
	hz_attach(&al);
	table_insert(&al);
}

void simt_mem_untrack(void *p)
{
	struct simt_alloc al;

	if (table_remove((uint64_t)(uintptr_t)p, &al))
		hz_detach(&al);
}

void simt_mem_reset(int d)
{
	size_t i = 0;

	while (i < ntable) {
		struct simt_alloc *al = &table[i];

		if (al->ctx == d && (al->kind == MEM_DEVICE ||
				     al->kind == MEM_MANAGED ||
				     al->kind == MEM_HOST))
			simt_mem_free((void *)(uintptr_t)al->base, al->kind);
		else
			i++;
	}
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

static void describe_alloc(struct simt_buf *b, const struct simt_alloc *al)
{
	if (al->kind == MEM_SYMBOL && al->name)
		simt_buf_printf(b, "the %llu-byte variable %s",
				(unsigned long long)al->size, al->name);
	else
		simt_buf_printf(b, "a %llu-byte %s", (unsigned long long)al->size,
				kind_word(al));
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
	uint64_t fsize = 0, dist_below = UINT64_MAX, dist_above = UINT64_MAX;
	bool was_freed;
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
		describe_alloc(b, below);
		return;
	}
	if (below && dist_below <= dist_above && dist_below < (1ull << 44)) {
		simt_buf_printf(b, ", %llu bytes past ", (unsigned long long)dist_below);
		describe_alloc(b, below);
		return;
	}
	if (above && dist_above < (1ull << 44)) {
		simt_buf_printf(b, ", %llu bytes before ", (unsigned long long)dist_above);
		describe_alloc(b, above);
		return;
	}
	simt_buf_printf(b, " at address 0x%llx, which is not device memory",
			(unsigned long long)a);
}

void simt_mem_describe_peer(struct simt_buf *b, const struct simt_alloc *al,
			    uint64_t n, const char *what, int d)
{
	simt_buf_printf(b, "%s of %llu bytes in ", what, (unsigned long long)n);
	describe_alloc(b, al);
	if (al->pool && simt_pool_graph(al->pool)) {
		simt_buf_printf(b, " of a graph allocation of device %d by a kernel "
				"on device %d, which its allocation node gives no "
				"access (name the device in the node's accessDescs)",
				al->device, d);
		return;
	}
	if (al->pool) {
		if (simt_pool_host(al->pool))
			simt_buf_printf(b, " of a host memory pool");
		else
			simt_buf_printf(b, " of a memory pool of device %d", al->device);
		simt_buf_printf(b, " by a kernel on device %d, which the pool gives "
				"no access (give it with cudaMemPoolSetAccess; "
				"cudaDeviceEnablePeerAccess does not apply to pool "
				"memory)", d);
		return;
	}
	simt_buf_printf(b, " of device %d by a kernel on device %d, which has "
			"no peer access to device %d (enable it with "
			"cudaDeviceEnablePeerAccess(%d, 0) while device %d is "
			"current)", al->device, d, al->device, al->device, d);
}
