/* Device memory: allocations live in host memory, in the table of
 * allocations (mem/table.c), each with its hazard records, counted against
 * the device it belongs to. */
#include "runtime/runtime.h"
#include "check/hazard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MMAP_MIN (1u << 20)

/* Device, managed and pinned memory is placed in the arena (mem/arena.c):
 * pages of its own, then a gap, never reused, device memory where the
 * host cannot touch it.  When the arena cannot be made or is used up,
 * allocations come from malloc and mmap.  Managed and pinned memory that
 * hostsync.c protects page by page while the checks are on gets mappings
 * of its own instead (changing the protection of pages inside one huge
 * mapping costs far more), each followed by a gap of OWN_GAP bytes that
 * no access may reach, so that an overrun is still told from the host's
 * own memory. */
#define OWN_GAP ((size_t)1 << 16)

/* Device and managed bytes allocated on each device. */
static uint64_t used_bytes[SIMT_MAX_GPUS];

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
	simt_mem_insert(al);
	if (al->kind == MEM_DEVICE || al->kind == MEM_MANAGED)
		used_bytes[al->ctx] += (al->size + 255) / 256 * 256;
}

/* round bytes of zeroed memory of its own (a multiple of the page
 * size), with OWN_GAP inaccessible bytes after it; NULL on failure. */
static void *own_map(size_t round)
{
	uint8_t *p = mmap(NULL, round + OWN_GAP, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p, round, PROT_READ | PROT_WRITE) != 0) {
		munmap(p, round + OWN_GAP);
		return NULL;
	}
	return p;
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
		round = simt_page_round(round);
	p = own ? NULL : simt_arena_take(simt_page_round(round), kind == MEM_DEVICE);
	if (p) {
		al.arena = true;
	} else if (round >= MMAP_MIN || own) {
		p = own_map(simt_page_round(round));
		if (!p)
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

int simt_mem_free(void *p, int kind)
{
	struct simt_alloc al;
	uint64_t base = (uint64_t)(uintptr_t)p;

	if (!simt_mem_remove(base, &al))
		return -1;
	if (al.kind != kind && !(kind == MEM_DEVICE && al.kind == MEM_MANAGED)) {
		simt_mem_insert(&al);
		return -1;
	}
	if (al.kind == MEM_DEVICE || al.kind == MEM_MANAGED)
		used_bytes[al.ctx] -= (al.size + 255) / 256 * 256;
	if (al.pool)
		simt_pool_freed(al.pool, al.size);
	if (al.shadow && (al.kind == MEM_MANAGED || al.kind == MEM_HOST))
		simt_hs_forget(al.base);
	hz_detach(&al);
	simt_mem_freed(&al);
	if (al.gmem) {
		simt_gmem_unmapped(al.gmem);
	} else if (al.arena) {
		/* the pages go back; the addresses stay unusable, never reused */
		simt_arena_unmap(p, simt_page_round((al.size + 255) / 256 * 256));
	} else if (al.mmapped)
		munmap(p, simt_page_round((al.size + 255) / 256 * 256) + OWN_GAP);
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
	simt_mem_insert(&al);
}

void simt_mem_untrack(void *p)
{
	struct simt_alloc al;

	if (simt_mem_remove((uint64_t)(uintptr_t)p, &al))
		hz_detach(&al);
}

void simt_mem_reset(int d)
{
	struct simt_alloc *al;
	size_t i = 0;

	while ((al = simt_mem_entry(i))) {
		if (al->ctx == d && (al->kind == MEM_DEVICE ||
				     al->kind == MEM_MANAGED ||
				     al->kind == MEM_HOST))
			simt_mem_free((void *)(uintptr_t)al->base, al->kind);
		else
			i++;
	}
}

void simt_mem_describe_peer(struct simt_buf *b, const struct simt_alloc *al,
			    uint64_t n, const char *what, int d)
{
	simt_buf_printf(b, "%s of %llu bytes in ", what, (unsigned long long)n);
	simt_mem_describe_alloc(b, al);
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
