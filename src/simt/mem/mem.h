/* The table of allocations (table.c): every range of memory a kernel may
 * address, found by address.  Entries are put in and taken out by the
 * runtime (runtime/memory.c), which decides what to allocate; kernels,
 * the checks and the runtime look addresses up.  The arena (arena.c) is
 * the address space that memory is placed in, with device memory where
 * the host cannot touch it; guard.c reports a host access there. */
#ifndef SIMT_MEM_H
#define SIMT_MEM_H

#include "base/base.h"

struct hz_word;
struct simt_gmem;
struct CUmemPoolHandle_st;

enum { MEM_DEVICE, MEM_HOST, MEM_MANAGED, MEM_REGISTERED, MEM_SYMBOL };

struct simt_alloc {
	uint64_t base;
	uint64_t size;
	int kind;
	/* The device whose memory this is (device memory only; -1 for
	 * memory every device reaches: pinned, registered, managed,
	 * variables), and the device current when it was allocated (whose
	 * memory figures it counts in and whose reset frees it; -1 for
	 * memory simt did not allocate). */
	int device;
	int ctx;
	bool readonly;
	bool mmapped;
	bool arena;        /* placed in the arena (arena.c) */
	unsigned flags;
	const char *name;  /* symbol name for module variables */
	/* The call that made it ("cudaMalloc"; NULL: not an allocation of
	 * the program's) and the return addresses of that call and of the
	 * two calls around it (0: none), for guard.c's report of a host
	 * access: the call may come from a wrapper, such as the template
	 * cudaMalloc of cuda_runtime.h. */
	const char *api;
	uint64_t site[3];
	/* Hazard checking: the shadow of every 4 bytes (NULL: unchecked)
	 * and, for device memory, a bit per byte written (NULL: all of it
	 * counts as written). */
	struct hz_word *shadow;
	uint8_t *init;
	/* Managed and pinned memory: the base clock of the last launch or
	 * copy that reached it (hostsync.c looks at no other). */
	uint32_t touched;
	/* The memory pool it came from (mempool.c), or NULL. */
	struct CUmemPoolHandle_st *pool;
	/* A graph allocation (graph_mem.c): memory simt_mem_place put in
	 * the table at a fixed address, which freeing gives back to it. */
	struct simt_gmem *gmem;
};

/* Puts a copy of al in the table, or takes out the entry starting at
 * base (into *out; false when there is none).  Only while no kernel
 * runs. */
void simt_mem_insert(const struct simt_alloc *al);
bool simt_mem_remove(uint64_t base, struct simt_alloc *out);
/* The i-th entry in address order, or NULL past the last. */
struct simt_alloc *simt_mem_entry(size_t i);
/* Remembers an allocation that was freed, so that a later access to it
 * is reported as a use after free. */
void simt_mem_freed(const struct simt_alloc *al);

/* The allocation containing [a, a+n), or NULL.  Safe during kernels. */
const struct simt_alloc *simt_mem_find(uint64_t a, uint64_t n);
/* The allocation nearest below a (for messages), or NULL. */
const struct simt_alloc *simt_mem_nearest(uint64_t a, uint64_t *freed_size,
					  bool *was_freed);
/* The device owning the device allocation p points into; -1 for host,
 * managed and registered memory, variables, and unknown addresses. */
int simt_mem_device(const void *p);

/* Marks managed or pinned memory as reached by the operation with clocks
 * above base (any thread). */
void simt_mem_touch(const struct simt_alloc *al, uint32_t base);
/* The mark of the allocation at base, 0 if none. */
uint32_t simt_mem_touched(uint64_t base);

/* Records that allocation p was made by the call `api`, which returns
 * to `site` in the program (the stack above is taken too). */
void simt_mem_origin(const void *p, const char *api, const void *site);

/* Describes an access of n bytes at a that hit no allocation, e.g.
 * "out-of-bounds global write of 4 bytes, 12 bytes past a 1024-byte
 * allocation"; `what` is the space and kind ("global write"). */
void simt_mem_describe(struct simt_buf *b, uint64_t a, uint64_t n,
		       const char *what);
/* Whether the n bytes at a lie in the program's own host memory:
 * readable, outside the arena, every allocation and its pages.  If so,
 * [*lo, *hi) is the stretch of it around a that holds no allocation, and
 * *writable says whether it may be written.  Always false without the
 * arena (device memory is host memory then).  Reads /proc/self/maps: for
 * faults, and for kernels reaching host memory under CUDALAB_SIMT_HMM. */
bool simt_mem_host_range(uint64_t a, uint64_t n, uint64_t *lo, uint64_t *hi,
			 bool *writable);
/* Names allocation al: "the 64-byte variable x", "a 1024-byte allocation". */
void simt_mem_describe_alloc(struct simt_buf *b, const struct simt_alloc *al);

/* ---- the arena (arena.c) ---- */

/* Device memory lives where the host cannot touch it, as on a GPU: the
 * addresses handed to the program lie in a range that is never mapped
 * (the guarded range, [lo, lo + size)), and the pages behind them lie
 * `delta` bytes higher, where simt reaches them.  All zero until the
 * arena exists (or when it cannot be made: then nothing is guarded). */
struct simt_guard {
	uint64_t lo, size, delta;
};
extern struct simt_guard simt_guard;

/* Where simt itself reads and writes the memory the program knows at p:
 * for device memory in the guarded range, its pages behind it; for all
 * other memory, p itself.  A test and an add, cheap enough for every
 * copy and library call; the interpreter keeps the result per
 * allocation in its cache. */
static inline void *simt_mem_host(const void *p)
{
	uint64_t a = (uint64_t)(uintptr_t)p;

	if (a - simt_guard.lo < simt_guard.size)
		a += simt_guard.delta;
	return (void *)(uintptr_t)a;
}

/* The allocation containing [h, h+n) where simt reaches it (the host
 * side of simt_mem_host), or NULL.  Safe during kernels. */
const struct simt_alloc *simt_mem_find_host(const void *h, uint64_t n);

/* n bytes (a multiple of the page size) of zeroed memory with pages of
 * their own, in order and never reused, each followed by a gap that no
 * allocation lies in (the host can touch neither side of it: device
 * memory's addresses are never mapped, the gap after host-visible
 * memory is inaccessible); `guarded`: device memory, handed out in the
 * guarded range.  NULL when the arena cannot be made or is used up. */
void *simt_arena_take(size_t n, bool guarded);
/* Only the address space of such memory; simt_arena_map makes it usable
 * (zeroed), simt_arena_unmap gives its pages back and leaves it
 * unusable again. */
void *simt_arena_reserve(size_t n, bool guarded);
bool simt_arena_map(void *p, size_t n);
void simt_arena_unmap(void *p, size_t n);
/* Whether p lies in the arena (guarded or not, in an allocation or in a
 * gap). */
bool simt_arena_has(const void *p);
/* n rounded up to whole pages. */
size_t simt_page_round(uint64_t n);

/* ---- the host's accesses of device memory (guard.c) ---- */

/* Installs the handler that turns a host access of the guarded range
 * into a report (called when the arena is made). */
void simt_guard_install(void);

#endif
