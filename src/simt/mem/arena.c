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
 * range once with MAP_NORESERVE commits nothing.
 *
 * Device memory is carved upwards from the bottom, the memory the host
 * may touch downwards from the top.  The host never reaches the pages
 * behind device memory (only simt does, after finding the allocation in
 * the table), so they are made usable a window at a time, WINDOW bytes
 * or more with one mprotect, gaps included, and a free only gives the
 * pages back (madvise): a program that allocates and frees thousands of
 * buffers costs no protection change per buffer.  Memory the host may
 * touch keeps pages of its own, made usable with one mprotect each and
 * inaccessible again when freed, so that a host access past its end or
 * after its free faults. */
#include "mem/mem.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#define ARENA_BYTES (4ull << 40)
#define GAP_MIN ((uint64_t)1 << 20)
#define WINDOW ((uint64_t)64 << 20)

struct simt_guard simt_guard;

static uint8_t *arena;          /* the lower half; the upper follows it */
static uint64_t arena_next = GAP_MIN;       /* device memory, upwards */
static uint64_t arena_top = ARENA_BYTES;     /* host-visible, downwards */
static uint64_t window_end = GAP_MIN;        /* device pages usable below */
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
	if (!arena_ready() || n > arena_top - arena_next ||
	    gap > arena_top - arena_next - n) {
		pthread_mutex_unlock(&arena_lock);
		return NULL;
	}
	if (guarded) {
		off = arena_next;
		arena_next += n + gap;
	} else {
		arena_top -= n + gap;
		off = arena_top;
	}
	pthread_mutex_unlock(&arena_lock);
	return arena + off + (guarded ? 0 : ARENA_BYTES);
}

static bool is_guarded(const void *p)
{
	return arena && (const uint8_t *)p >= arena &&
	       (uint64_t)((const uint8_t *)p - arena) < ARENA_BYTES;
}

/* Makes the pages behind device memory usable up to offset end. */
static bool window_cover(uint64_t end)
{
	bool ok = true;

	pthread_mutex_lock(&arena_lock);
	if (end > window_end) {
		uint64_t grow = (end - window_end + WINDOW - 1) / WINDOW * WINDOW;

		if (grow > ARENA_BYTES - window_end)
			grow = ARENA_BYTES - window_end;
		ok = mprotect(arena + ARENA_BYTES + window_end, grow,
			      PROT_READ | PROT_WRITE) == 0;
		if (ok)
			window_end += grow;
	}
	pthread_mutex_unlock(&arena_lock);
	return ok;
}

bool simt_arena_map(void *p, size_t n)
{
	if (is_guarded(p))
		return window_cover((uint64_t)((uint8_t *)p - arena) + n);
	return mprotect(simt_mem_host(p), n, PROT_READ | PROT_WRITE) == 0;
}

void simt_arena_unmap(void *p, size_t n)
{
	void *h = simt_mem_host(p);

	madvise(h, n, MADV_DONTNEED);
	if (!is_guarded(p))
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
