/* The arena: the address space that device memory, and the memory of
 * simt's own that kernels address, is placed in.
 *
 * Allocations are carved in order and never reused: each has pages of
 * its own, followed by a gap that nothing is mapped in, as large as the
 * allocation and at least GAP_MIN.  An index that runs past the end of
 * one allocation (or before its start) then lands outside every
 * allocation, where the bounds check reports it, instead of inside the
 * next one, where it would corrupt another buffer silently; a pointer
 * used after its free stays outside too.
 *
 * The arena is one reservation of twice ARENA_BYTES, in two halves at
 * the same offsets.  The upper half holds the pages.  Device memory is
 * handed to the program at its offset in the lower half, the guarded
 * range, which is never mapped: host code that reads or writes device
 * memory faults there, as it would on a GPU (guard.c says why), while
 * simt reaches the pages ARENA_BYTES higher (simt_mem_host).  No page is
 * mapped twice and no protection changes per operation: a host access
 * costs the fault it would cost anyway, and simt's own accesses a test
 * and an add.  Memory the host may touch (managed, pinned, simt's own)
 * is handed out at its place in the upper half.  Reserving the whole
 * range once with MAP_NORESERVE commits nothing; each allocation makes
 * its own pages usable with one mprotect, and freeing gives them back. */
#include "mem/mem.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#define ARENA_BYTES (4ull << 40)
#define GAP_MIN ((uint64_t)1 << 20)

struct simt_guard simt_guard;

static uint8_t *arena;          /* the lower half; the upper follows it */
static uint64_t arena_next = GAP_MIN;
static bool arena_tried;
static pthread_mutex_t arena_lock = PTHREAD_MUTEX_INITIALIZER;

size_t simt_page_round(uint64_t n)
{
	static uint64_t pg;

	if (!pg) {
		long p = sysconf(_SC_PAGESIZE);

		pg = p > 0 ? (uint64_t)p : 4096;
	}
	return (size_t)((n + pg - 1) / pg * pg);
}

/* Reserves the arena on first use; false when it cannot be.  Called with
 * arena_lock held. */
static bool arena_ready(void)
{
	void *r;

	if (arena_tried)
		return arena != NULL;
	arena_tried = true;
	r = mmap(NULL, 2 * ARENA_BYTES, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		return false;
	arena = r;
	simt_guard_install();
	__atomic_store_n(&simt_guard.delta, ARENA_BYTES, __ATOMIC_RELAXED);
	__atomic_store_n(&simt_guard.lo, (uint64_t)(uintptr_t)arena, __ATOMIC_RELAXED);
	__atomic_store_n(&simt_guard.size, ARENA_BYTES, __ATOMIC_RELEASE);
	return true;
}

void *simt_arena_reserve(size_t n, bool guarded)
{
	uint64_t gap = n > GAP_MIN ? simt_page_round(n) : GAP_MIN, off;

	pthread_mutex_lock(&arena_lock);
	if (!arena_ready() || n > ARENA_BYTES - arena_next ||
	    gap > ARENA_BYTES - arena_next - n) {
		pthread_mutex_unlock(&arena_lock);
		return NULL;
	}
	off = arena_next;
	arena_next += n + gap;
	pthread_mutex_unlock(&arena_lock);
	return arena + off + (guarded ? 0 : ARENA_BYTES);
}

bool simt_arena_map(void *p, size_t n)
{
	return mprotect(simt_mem_host(p), n, PROT_READ | PROT_WRITE) == 0;
}

void simt_arena_unmap(void *p, size_t n)
{
	void *h = simt_mem_host(p);

	madvise(h, n, MADV_DONTNEED);
	mprotect(h, n, PROT_NONE);
}

void *simt_arena_take(size_t n, bool guarded)
{
	void *p = simt_arena_reserve(n, guarded);

	return p && simt_arena_map(p, n) ? p : NULL;
}

bool simt_arena_has(const void *p)
{
	return arena && (const uint8_t *)p >= arena &&
	       (uint64_t)((const uint8_t *)p - arena) < 2 * ARENA_BYTES;
}

const struct simt_alloc *simt_mem_find_host(const void *h, uint64_t n)
{
	uint64_t a = (uint64_t)(uintptr_t)h;
	const struct simt_alloc *al = simt_mem_find(a, n);

	/* pages behind the guarded range belong to the allocation the
	 * program knows ARENA_BYTES lower */
	if (al || !arena || a - ((uint64_t)(uintptr_t)arena + ARENA_BYTES) >= ARENA_BYTES)
		return al;
	return simt_mem_find(a - ARENA_BYTES, n);
}
