/* Hazard checking: races by happens-before in shared and global memory,
 * barrier misuse and uninitialized reads (hazard.h explains the model).
 *
 * What orders two accesses, following the PTX memory model:
 *   - program order within a thread;
 *   - bar.sync / barrier.sync / bar.red (every thread that arrives, and
 *     bar.arrive's producers, is ordered before every waiter; a thread
 *     that has exited counts as arrived, as on the hardware);
 *   - bar.warp.sync among the lanes of its mask;
 *   - mbarrier phases: arrivals before the phase completes are ordered
 *     before a wait that sees it complete;
 *   - release/acquire: st.release, atom.release/.acq_rel, or a fence
 *     followed by a strong write (atomic, volatile or relaxed), against
 *     ld.acquire, atom.acquire/.acq_rel, or a strong read followed by a
 *     fence.  A __syncthreads() after a strong read completes the acquire
 *     as a fence would (the CUDA samples' last-block reductions rely on
 *     it);
 *   - cp.async writes land at the copying thread's cp.async.wait_group /
 *     wait_all (or its cp.async.mbarrier.arrive);
 *   - kernel boundaries: a launch sees everything before it.
 * Two strong accesses (atomics, volatile, relaxed/acquire/release) never
 * race with each other when their scopes cover both threads; a plain
 * write of the value memory already holds never races.
 *
 * Concurrency: a block runs on one host thread, so shared-memory state
 * needs no locks.  Global shadow words are read and written as 16-byte
 * records, each copied whole; the release/acquire state of global
 * addresses lives in a locked table.  Clocks grow across launches, so a
 * record from an earlier launch is recognised by its clock alone. */
#include "check/hazard.h"
#include "exec/lanes.h"
#include "check/order.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Record flags. */
enum {
	HZR_STRONG = 1,   /* atomic, volatile, relaxed, acquire or release */
	HZR_CTA = 2,      /* ... at CTA scope only */
	HZR_ATOMIC = 4,   /* a read-modify-write */
	HZR_ASYNC = 8,    /* a cp.async write not yet waited for */
	HZR_COLL = 16,    /* one value stored by several lanes of one instruction */
	HZR_LINE = 32,    /* a line record standing for all its granules */
	HZR_XOP = 64,     /* made by a copy or memset, not by a kernel */
};

/* A line of global memory: 32 granules, 128 bytes from the start of its
 * allocation.  Its three records say how to read the granules' write,
 * read and second read records (see "the line layer"). */
#define LINE_BYTES 128u
#define LINE_GRAN 32u
struct hz_line {
	struct hz_rec w, r, r2;
};

/* The records of a granule or a line, by kind. */
enum { RK_W, RK_R, RK_R2 };

static inline struct hz_rec *rec_of(struct hz_word *wd, int k)
{
	return k == RK_W ? &wd->w : k == RK_R ? &wd->r : &wd->r2;
}

/* Kinds of reports. */
enum { HK_RACE, HK_BARRIER, HK_UNINIT };
/* Access words of a report site. */
enum { AC_READ, AC_WRITE, AC_ATOMIC, AC_ASYNC, AC_NONE };
/* Spaces of a report. */
enum { SP_NONE, SP_GLOBAL, SP_SHARED, SP_REG, SP_LOCAL };

/* The per-access paths are inlined into the warp loop; reporting is
 * kept out of it. */
#define HOT static inline __attribute__((always_inline))
#define COLD __attribute__((noinline, cold))

#define MAX_REPORTS 256
#define CACHE_REPORTS 16
#define ASYNC_MAX 4096
#define NOT_WAITED UINT32_MAX

/* ---- vector clocks ---- */

/* What is known of the clocks of one block's threads. */
struct hz_vc {
	atomic_uint refs;
	uint32_t n;
	uint32_t c[];
};

struct hz_ent {
	uint32_t block;
	struct hz_vc *vc;
};

/* What is known of other blocks, sorted by block.  Immutable once made. */
struct hz_gvc {
	atomic_uint refs;
	uint32_t n;
	struct hz_ent e[];
};

/* Knowledge being gathered: a private vector (owned until published)
 * and other-block knowledge. */
struct hz_acc {
	struct hz_vc *vc;
	struct hz_vc *last;   /* last snapshot joined (held), to skip repeats */
	struct hz_gvc *xk;
};

static struct hz_vc *vc_ref(struct hz_vc *v)
{
	if (v)
		atomic_fetch_add_explicit(&v->refs, 1, memory_order_relaxed);
	return v;
}

static void vc_unref(struct hz_vc *v)
{
	if (v && atomic_fetch_sub_explicit(&v->refs, 1, memory_order_acq_rel) == 1)
		free(v);
}

/* Drops k references at once. */
static void vc_unref_n(struct hz_vc *v, uint32_t k)
{
	if (v && atomic_fetch_sub_explicit(&v->refs, k, memory_order_acq_rel) == k)
		free(v);
}

static struct hz_vc *vc_new(uint32_t n)
{
	struct hz_vc *v = simt_xmalloc(sizeof *v + (size_t)n * sizeof v->c[0]);

	atomic_init(&v->refs, 1);
	v->n = n;
	return v;
}

static struct hz_vc *vc_copy(const struct hz_vc *s)
{
	struct hz_vc *v = vc_new(s->n);

	memcpy(v->c, s->c, (size_t)s->n * sizeof s->c[0]);
	return v;
}

static void vc_max_into(struct hz_vc *d, const struct hz_vc *s)
{
	uint32_t i, n = d->n < s->n ? d->n : s->n;

	for (i = 0; i < n; i++)
		d->c[i] = s->c[i] > d->c[i] ? s->c[i] : d->c[i];
}

static bool vc_covers(const struct hz_vc *a, const struct hz_vc *b)
{
	uint32_t i, n = a->n < b->n ? a->n : b->n;

	if (a == b)
		return true;
	for (i = 0; i < n; i++)
		if (b->c[i] > a->c[i])
			return false;
	return true;
}

static struct hz_gvc *gvc_ref(struct hz_gvc *g)
{
	if (g)
		atomic_fetch_add_explicit(&g->refs, 1, memory_order_relaxed);
	return g;
}

static void gvc_unref(struct hz_gvc *g)
{
	uint32_t i;

	if (!g || atomic_fetch_sub_explicit(&g->refs, 1, memory_order_acq_rel) != 1)
		return;
	for (i = 0; i < g->n; i++)
		vc_unref(g->e[i].vc);
	free(g);
}

static struct hz_gvc *gvc_new(uint32_t n)
{
	struct hz_gvc *g = simt_xmalloc(sizeof *g + (size_t)n * sizeof g->e[0]);

	atomic_init(&g->refs, 1);
	g->n = 0;
	return g;
}

static const struct hz_vc *gvc_find(const struct hz_gvc *g, uint32_t block)
{
	uint32_t lo = 0, hi;

	if (!g)
		return NULL;
	hi = g->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (g->e[mid].block < block)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n && g->e[lo].block == block ? g->e[lo].vc : NULL;
}

/* Whether a already knows everything b knows, leaving out block `skip`. */
static bool gvc_covers(const struct hz_gvc *a, const struct hz_gvc *b,
		       uint32_t skip, bool use_skip)
{
	uint32_t i;

	if (!b || a == b)
		return true;
	for (i = 0; i < b->n; i++) {
		const struct hz_vc *x;

		if (use_skip && b->e[i].block == skip)
			continue;
		x = gvc_find(a, b->e[i].block);
		if (!x || !vc_covers(x, b->e[i].vc))
			return false;
	}
	return true;
}

/* a joined with b (both may be NULL), leaving out block `skip` of b when
 * use_skip.  Returns a new reference. */
static struct hz_gvc *gvc_join(struct hz_gvc *a, const struct hz_gvc *b,
			       uint32_t skip, bool use_skip)
{
	struct hz_gvc *g;
	uint32_t i = 0, j = 0;

	if (!a && !b)
		return NULL;
	if (!b || (a && gvc_covers(a, b, skip, use_skip)))
		return gvc_ref(a);
	g = gvc_new((a ? a->n : 0) + b->n);
	while ((a && i < a->n) || j < b->n) {
		struct hz_ent e;

		if (j < b->n && use_skip && b->e[j].block == skip) {
			j++;
			continue;
		}
		if (!a || i >= a->n || (j < b->n && b->e[j].block < a->e[i].block)) {
			e.block = b->e[j].block;
			e.vc = vc_ref(b->e[j++].vc);
		} else if (j >= b->n || a->e[i].block < b->e[j].block) {
			e.block = a->e[i].block;
			e.vc = vc_ref(a->e[i++].vc);
		} else {
			e.block = a->e[i].block;
			if (vc_covers(a->e[i].vc, b->e[j].vc)) {
				e.vc = vc_ref(a->e[i].vc);
			} else if (vc_covers(b->e[j].vc, a->e[i].vc)) {
				e.vc = vc_ref(b->e[j].vc);
			} else {
				e.vc = vc_copy(a->e[i].vc);
				vc_max_into(e.vc, b->e[j].vc);
			}
			i++;
			j++;
		}
		g->e[g->n++] = e;
	}
	if (g->n == 0) {
		free(g);
		return NULL;
	}
	return g;
}

/* ---- process-wide state ---- */

static bool checks_on;
static char *report_path;
/* Clocks of the current launch are above base; every clock of earlier
 * launches is at most base. */
static uint32_t clock_base = 1;
static atomic_uint clock_max;
static uint64_t launch_number;
static uint32_t schedule_seed;
/* The number of devices (simt_hz_init): a report names the device of a
 * default stream only when there are several. */
static int ndevices = 1;

struct hz_report {
	int kind, space;
	const struct simt_module *mod;
	const char *kernel;
	uint32_t pc[2];
	uint32_t site[2];   /* source line (or instruction) of each access */
	uint8_t acc[2];
	uint8_t why;
	int nsites;
	uint32_t block[2][3], thread[2][3];
	uint64_t count;
	uint64_t shown;     /* count when it was printed, at its first launch's end */
	uint64_t launch;
	char *msg;
	/* A race between operations of two streams: what each site is (a
	 * kernel's module and name, or an API call's name with no module)
	 * and its stream; `other` is the identity of the first site's
	 * operation for deduplication (its module or API name). */
	bool xop;
	const void *other;
	struct xsite {
		const struct simt_module *mod;
		const char *name;
		uint32_t stream;
		int device;
		uint32_t node;      /* a graph node's index + 1, else 0 */
	} xs[2];
};

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hz_report reports[MAX_REPORTS];
static int nreports;
static uint64_t dropped;

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static void setup(void);
static void at_exit(void);

bool simt_hz_enabled(void)
{
	pthread_once(&setup_once, setup);
	return checks_on;
}

/* ---- shadow memory of allocations ---- */

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
static bool pool_off;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static void *pool_take(size_t bytes, size_t *cap)
{
	int i, best = -1;
	void *p = NULL;

	/* a shadow whose records could still be taken for another stream's
	 * unordered work (order.h) is not handed out */
	uint32_t done = simt_order_retired();

	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < POOL_SLOTS && !pool_off; i++)
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
	for (i = 0; i < POOL_SLOTS && !pool_off && !kept; i++)
		if (!pool[i].p && pool_bytes + bytes <= POOL_MAX) {
			pool[i].p = p;
			pool[i].bytes = bytes;
			pool[i].clk = clock_base;
			pool_bytes += bytes;
			kept = true;
		}
	pthread_mutex_unlock(&pool_lock);
	return kept;
}

static void pool_flush(void)
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

/* A global shadow: the records of every granule, a line of 32 granules
 * (128 bytes) after another, then one struct hz_line per line (see "the
 * line layer").  Its size in bytes: whole huge pages when mapped, so that
 * pooled shadows fit allocations of nearby sizes. */
static uint64_t line_count(uint64_t size)
{
	return (size + LINE_BYTES - 1) / LINE_BYTES;
}

static struct hz_line *lines_of(struct hz_word *sh, uint64_t size)
{
	return (struct hz_line *)(void *)(sh + line_count(size) * LINE_GRAN);
}

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
static void shadows_reset(void)
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

/* ---- per-block state ---- */

/* Why a barrier-misuse report was made (part of its identity). */
enum { WHY_DIVERGENT = 1, WHY_NOT_MEMBER, WHY_NEVER, WHY_EXITED_SRC,
       WHY_SAME_INSN, WHY_NOT_WAITED, WHY_STREAMS, WHY_HOST, WHY_ASYNC_AGAIN,
       WHY_LOST_UPDATE };

struct hz_async {
	uint32_t off;
	uint16_t n;
	uint32_t group;
};

/* What each access needs of a thread, kept small. */
struct hz_thread {
	uint32_t clk;
	uint32_t fence_clk;       /* clock at the last fence, 0: none */
	struct hz_vc *snap;       /* knowledge of this block */
	struct hz_gvc *xk;        /* knowledge of other blocks */
	struct hz_gvc *pend;      /* strong reads not yet completed by a fence */
};

/* The rest: what the thread knew at its last fence, and its cp.async
 * copies not yet waited for. */
struct hz_cold {
	struct hz_vc *fence_snap;
	struct hz_gvc *fence_xk;
	uint32_t fence_row[32];
	bool fence_row_on;
	/* The granule of the thread's last strong load that was not an
	 * atomic, its block and the thread's clock then: a strong store to
	 * it completes a read-modify-write of two steps. */
	const struct hz_word *sld;
	uint32_t sld_block, sld_clk;
	/* cp.async copies not yet waited for */
	uint32_t committed;
	uint32_t nasync, capasync;
	struct hz_async *async;
};

/* A shared-memory location used for release/acquire within the block, or
 * an mbarrier object. */
struct hz_sync {
	uint32_t off;
	bool used;
	struct hz_gvc *know;      /* what releases to it published */
	struct hz_acc cur;        /* mbarrier: arrivals in the current phase */
	struct hz_gvc *done[2];   /* mbarrier: completed phases by parity */
};

struct hz_cached {
	int idx;
	uint64_t pending;
};


struct hz_block {
	struct hz_quiet q;        /* first: the interpreter reads it inline */
	/* in a quiet interval: the snapshot and other-block knowledge that
	 * every live thread holds (none has a strong read pending) */
	struct hz_vc *q_snap;
	struct hz_gvc *q_xk;
	bool released;            /* block_release has left nothing held */
	bool same_snap;           /* every thread holds the snapshot it began
				   * with (none has had another) */
	uint32_t n, nwarps;
	uint32_t block;
	struct hz_thread *t;
	struct hz_cold *c;
	uint32_t *L;              /* per warp: 32 x 32 lane knowledge */
	bool *Lon;
	uint32_t *wclk;           /* per warp: the clock all its threads are
				   * at, 0: not known (see line_clock) */
	struct hz_word *ssh;      /* shared shadow, one word per 4 bytes */
	size_t ssh_cap;
	uint8_t *sinit;           /* shared bytes written by this block */
	size_t sinit_cap;
	uint8_t *linit;           /* local bytes written by their thread */
	size_t linit_cap;
	uint32_t init_limit;      /* bytes below it are checked for init */
	struct hz_acc bars[NBARRIERS];
	struct hz_acc exited;
	struct hz_sync *sync;
	uint32_t nsync, capsync;
	/* one-entry memo of acquiring joins */
	struct hz_vc *memo_a, *memo_b, *memo_r;
	struct hz_cached cache[CACHE_REPORTS];
	int ncache;
	bool global_ok;           /* global checks possible for this launch */
	/* global records with clocks above fence, up to the launch's base,
	 * come from operations of other streams that may not be ordered
	 * before this launch (see order.h): they go to the full check */
	uint32_t fence;
	/* clocks in (ok_lo, ok_hi] are of one such operation found ordered
	 * before this launch after all (empty when equal) */
	uint32_t ok_lo, ok_hi;
	/* Shared reads between full barriers (see "quiet intervals"; the
	 * log is in q): the lanes' offsets of logged reads not in a line,
	 * and per warp the lanes that have arrived at a barrier since the
	 * interval began. */
	uint32_t (*soff)[32];
	uint32_t nsoff;
	uint32_t *arrived;
	/* Some thread holds more than a snapshot (xk, pend, a fence, cp.async
	 * state): block_release must look at each. */
	bool cold;
	/* per warp: lanes exited but not yet joined into `exited` */
	uint32_t *exit_pend;
	bool any_exit_pend;
	/* some shared granule holds a second read of this block (until
	 * then the shared write paths need not look at r2) */
	bool sr2;
};

/* Whether clock c is of the operation of another stream that this
 * block last found ordered before its launch (hb->ok_lo, ok_hi). */
static inline bool ok_clock(const struct hz_block *hb, uint32_t c)
{
	return c - hb->ok_lo - 1 < hb->ok_hi - hb->ok_lo;
}

static void quiet_begin(struct hz_block *hb);
static void quiet_end(struct hz_block *hb, uint32_t base);

static void slog_clear(struct hz_block *hb)
{
	hb->q.n = 0;
	hb->nsoff = 0;
}

/* Whether a copy started by cp.async is still outstanding in the block. */
static bool async_pending(const struct hz_block *hb)
{
	uint32_t i;

	if (!hb->cold)  /* no thread has had a copy in flight */
		return false;
	for (i = 0; i < hb->n; i++)
		if (hb->c[i].nasync)
			return true;
	return false;
}

/* ---- the global release/acquire table ---- */

#define SYNC_BUCKETS 4096

struct gsync {
	struct gsync *next;
	uint64_t addr;
	struct hz_gvc *know;
};

static struct {
	atomic_flag lock;
	struct gsync *_Atomic head;
} gtable[SYNC_BUCKETS];

/* Whether any entry was made since the table was last cleared: most
 * launches make none, and clearing walks every bucket. */
static atomic_bool gtable_used;

static unsigned bucket_of(uint64_t a)
{
	return (unsigned)((a >> 2) * 0x9E3779B97F4A7C15ull >> 52) & (SYNC_BUCKETS - 1);
}

static void bucket_lock(unsigned b)
{
	while (atomic_flag_test_and_set_explicit(&gtable[b].lock, memory_order_acquire))
		;
}

static void bucket_unlock(unsigned b)
{
	atomic_flag_clear_explicit(&gtable[b].lock, memory_order_release);
}

/* The entry of address a, made when `make`; call with the bucket locked. */
static struct gsync *gsync_get(unsigned b, uint64_t a, bool make)
{
	struct gsync *s;

	for (s = atomic_load_explicit(&gtable[b].head, memory_order_acquire); s;
	     s = s->next)
		if (s->addr == a)
			return s;
	if (!make)
		return NULL;
	s = simt_xcalloc(1, sizeof *s);
	atomic_store_explicit(&gtable_used, true, memory_order_relaxed);
	s->addr = a;
	s->next = atomic_load_explicit(&gtable[b].head, memory_order_relaxed);
	atomic_store_explicit(&gtable[b].head, s, memory_order_release);
	return s;
}

static void gtable_clear(void)
{
	unsigned b;

	if (!atomic_exchange(&gtable_used, false))
		return;
	for (b = 0; b < SYNC_BUCKETS; b++) {
		struct gsync *s = atomic_load(&gtable[b].head), *next;

		for (; s; s = next) {
			next = s->next;
			gvc_unref(s->know);
			free(s);
		}
		atomic_store(&gtable[b].head, NULL);
	}
}

/* ---- reports ---- */

static const char *const acc_words[] = {"read", "write", "atomic",
					"cp.async write", ""};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static bool site_file(const struct simt_module *mod, uint32_t pc,
		      const char **file, uint32_t *line)
{
	const struct simt_insn *in = &mod->code[pc];

	if (in->src_file == UINT16_MAX || (int)in->src_file >= mod->nfiles ||
	    !in->src_line)
		return false;
	*file = base_name(mod->files[in->src_file].path);
	*line = in->src_line;
	return true;
}

/* "at file.cu:12" or "at PTX line 40". */
static void site_where(struct simt_buf *b, const struct simt_module *mod,
		       uint32_t pc)
{
	const char *file;
	uint32_t line;

	if (site_file(mod, pc, &file, &line))
		simt_buf_printf(b, "at %s:%u", file, line);
	else
		simt_buf_printf(b, "at PTX line %u", mod->code[pc].ptx_line);
}

static void coords_of(const struct launch_state *L, uint64_t block,
		      uint32_t tid, uint32_t bc3[3], uint32_t tc3[3])
{
	bc3[0] = (uint32_t)(block % L->grid.x);
	bc3[1] = (uint32_t)((block / L->grid.x) % L->grid.y);
	bc3[2] = (uint32_t)(block / ((uint64_t)L->grid.x * L->grid.y));
	tc3[0] = tid % L->block.x;
	tc3[1] = (tid / L->block.x) % L->block.y;
	tc3[2] = tid / (L->block.x * L->block.y);
}

static const char *space_word(int space)
{
	return space == SP_SHARED ? "shared" : space == SP_REG ? "register"
	     : space == SP_LOCAL ? "local" : "global";
}

static void site_text(struct simt_buf *b, const struct hz_report *r, int i)
{
	simt_buf_printf(b, "%s %s ", space_word(r->space), acc_words[r->acc[i]]);
	site_where(b, r->mod, r->pc[i]);
	simt_buf_printf(b, " by block (%u,%u,%u) thread (%u,%u,%u)",
			r->block[i][0], r->block[i][1], r->block[i][2],
			r->thread[i][0], r->thread[i][1], r->thread[i][2]);
}

static char *race_message(const struct hz_report *r)
{
	struct simt_buf b = {0};

	simt_buf_printf(&b, r->why == WHY_LOST_UPDATE ? "race: lost update: " : "race: ");
	site_text(&b, r, 0);
	simt_buf_printf(&b, " and ");
	site_text(&b, r, 1);
	if (r->why == WHY_SAME_INSN)
		simt_buf_printf(&b, ", in one instruction with different values");
	else if (r->why == WHY_NOT_WAITED)
		simt_buf_printf(&b, ", the copy was not waited for "
				"(cp.async.wait_group or wait_all, then a barrier)");
	else if (r->why == WHY_LOST_UPDATE)
		simt_buf_printf(&b, ", the second the store of a load-then-store "
				"(volatile or relaxed) that nothing orders after the first: "
				"the first store can fall between its load and its store "
				"and be lost; an atomic (atomicAdd, atomicMax, atomicCAS) "
				"does the whole step at once");
	else if (r->why == WHY_ASYNC_AGAIN)
		simt_buf_printf(&b, ", two asynchronous copies of one thread to "
				"the same bytes in flight at once (wait for the first "
				"one, cp.async.wait_group or the pipeline's "
				"consumer_wait, before its buffer is reused)");
	else
		simt_buf_printf(&b, ", no synchronization orders them");
	return b.s;
}

/* ---- races between streams ---- */

static void stream_text(struct simt_buf *b, const struct xsite *x)
{
	if (x->node)
		simt_buf_printf(b, "in graph node %u launched on ", x->node - 1);
	else
		simt_buf_printf(b, "on ");
	if (x->stream)
		simt_buf_printf(b, "stream %u", x->stream);
	else if (x->device > 0 || ndevices > 1)
		simt_buf_printf(b, "the default stream of device %d", x->device);
	else
		simt_buf_printf(b, "the default stream");
}

static void xsite_text(struct simt_buf *b, const struct hz_report *r, int i)
{
	const struct xsite *x = &r->xs[i];
	char name[512];

	simt_buf_printf(b, "%s %s ", space_word(r->space), acc_words[r->acc[i]]);
	if (x->mod) {
		site_where(b, x->mod, r->pc[i]);
		simt_buf_printf(b, " by block (%u,%u,%u) thread (%u,%u,%u) of %s",
				r->block[i][0], r->block[i][1], r->block[i][2],
				r->thread[i][0], r->thread[i][1], r->thread[i][2],
				simt_demangle(x->name, name, sizeof name));
	} else {
		simt_buf_printf(b, "by %s", x->name);
	}
	simt_buf_printf(b, " ");
	stream_text(b, x);
}

static char *xop_message(const struct hz_report *r)
{
	struct simt_buf b = {0};

	simt_buf_printf(&b, "race: ");
	xsite_text(&b, r, 0);
	simt_buf_printf(&b, " and ");
	xsite_text(&b, r, 1);
	if (r->xs[0].node && r->xs[1].node)
		simt_buf_printf(&b, ", in branches of a graph with no path of "
				"dependencies between them");
	else if (r->xs[0].node || r->xs[1].node)
		simt_buf_printf(&b, ", with no dependency, event or "
				"synchronization between them");
	else
		simt_buf_printf(&b, ", in different streams with no event or "
				"synchronization between them");
	return b.s;
}

/* Reports are one per kind and pair of source lines (or instructions,
 * without line information) and accesses. */
static bool same_key(const struct hz_report *a, const struct hz_report *b)
{
	return a->kind == b->kind && a->space == b->space && a->mod == b->mod &&
	       a->other == b->other && a->why == b->why && a->site[0] == b->site[0] &&
	       a->site[1] == b->site[1] && a->acc[0] == b->acc[0] &&
	       a->acc[1] == b->acc[1];
}

/* Finds or adds the report; returns its index or -1 (dropped).  `msg`,
 * when not NULL, is the message of a new report (taken over). */
static int report_slot(const struct hz_report *key, char **msg)
{
	int i;

	for (i = 0; i < nreports; i++) {
		const struct hz_report *r = &reports[i];

		if (same_key(r, key))
			return i;
	}
	if (nreports == MAX_REPORTS) {
		dropped++;
		return -1;
	}
	reports[nreports] = *key;
	reports[nreports].count = 0;
	reports[nreports].launch = launch_number;
	reports[nreports].msg = *msg;
	*msg = NULL;
	return nreports++;
}

/* Counts one occurrence of a hazard met outside any kernel (by a copy,
 * memset or library call, or by the host), making its message only the
 * first time.  Returns the report's index (-1: dropped); *fresh says
 * whether this made it. */
static int report_outside(const struct hz_report *k,
			  char *(*make)(const struct hz_report *), bool *fresh)
{
	char *msg;
	int i, n;

	pthread_mutex_lock(&report_lock);
	n = nreports;
	for (i = 0; i < n && !same_key(&reports[i], k); i++)
		;
	*fresh = false;
	if (i == n) {
		msg = make(k);
		i = report_slot(k, &msg);
		free(msg);
		*fresh = i >= 0;
	}
	if (i >= 0)
		reports[i].count++;
	pthread_mutex_unlock(&report_lock);
	simt_counters_add_hazards(1);
	return i;
}

static void flush_cache(struct hz_block *hb)
{
	int i;

	if (!hb->ncache)
		return;
	pthread_mutex_lock(&report_lock);
	for (i = 0; i < hb->ncache; i++)
		reports[hb->cache[i].idx].count += hb->cache[i].pending;
	pthread_mutex_unlock(&report_lock);
	hb->ncache = 0;
}

/* Counts one more occurrence of a hazard that this block has met before
 * (the pair of sites is its identity, in a canonical order that this
 * puts the key in); false, with nothing counted, when it is new here. */
static bool report_again(struct block_ctx *bc, struct hz_report *key)
{
	struct hz_block *hb = bc->hz;
	int i;

	/* the unordered pair of sites is the identity (of two streams'
	 * operations: the earlier one first) */
	if (key->nsites == 2 && !key->xop && (key->site[0] > key->site[1] ||
				 (key->site[0] == key->site[1] &&
				  key->acc[0] > key->acc[1]))) {
		uint32_t t3[3], pc = key->pc[0], site = key->site[0];
		uint8_t acc = key->acc[0];

		key->pc[0] = key->pc[1];
		key->pc[1] = pc;
		key->site[0] = key->site[1];
		key->site[1] = site;
		key->acc[0] = key->acc[1];
		key->acc[1] = acc;
		memcpy(t3, key->block[0], sizeof t3);
		memcpy(key->block[0], key->block[1], sizeof t3);
		memcpy(key->block[1], t3, sizeof t3);
		memcpy(t3, key->thread[0], sizeof t3);
		memcpy(key->thread[0], key->thread[1], sizeof t3);
		memcpy(key->thread[1], t3, sizeof t3);
	}
	for (i = 0; i < hb->ncache; i++) {
		const struct hz_report *r = &reports[hb->cache[i].idx];

		if (same_key(r, key)) {
			hb->cache[i].pending++;
			bc->counts.hazards++;
			return true;
		}
	}
	return false;
}

/* Counts one occurrence of a hazard; the message is made only the first
 * time the pair of sites is seen.  A caller whose text costs something
 * to make asks report_again first. */
static void report(struct block_ctx *bc, struct hz_report *key,
		   char *(*make)(const struct hz_report *), const char *text)
{
	struct hz_block *hb = bc->hz;
	char *msg;
	int idx;

	if (report_again(bc, key))
		return;
	bc->counts.hazards++;
	msg = make ? make(key) : simt_xstrdup(text);
	pthread_mutex_lock(&report_lock);
	idx = report_slot(key, &msg);
	if (idx >= 0 && hb->ncache < CACHE_REPORTS) {
		hb->cache[hb->ncache].idx = idx;
		hb->cache[hb->ncache++].pending = 1;
	} else if (idx >= 0) {
		reports[idx].count++;
	}
	pthread_mutex_unlock(&report_lock);
	free(msg);
}

static void key_init(struct hz_report *k, const struct block_ctx *bc, int kind,
		     int space)
{
	memset(k, 0, sizeof *k);
	k->kind = kind;
	k->space = space;
	k->mod = bc->L->mod;
	k->kernel = bc->L->fn->name;
}

static void key_site(struct hz_report *k, int i, const struct block_ctx *bc,
		     uint64_t block, uint32_t tid, uint32_t pc, int acc)
{
	const struct simt_insn *in = &bc->L->mod->code[pc];

	coords_of(bc->L, block, tid, k->block[i], k->thread[i]);
	k->pc[i] = pc;
	k->site[i] = in->src_line && in->src_file != UINT16_MAX
		? (uint32_t)(in->src_file + 1) << 20 | (in->src_line & 0xfffff)
		: 0x80000000u | pc;
	k->acc[i] = (uint8_t)acc;
	if (k->nsites < i + 1)
		k->nsites = i + 1;
}

static int acc_of_rec(const struct hz_rec *r, bool write);

/* The site code of an API call (a copy or memset). */
static uint32_t api_site(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return 0xC0000000u | (h & 0x3fffffffu);
}

/* Site 0 of a race between streams: the access recorded in r by
 * operation op. */
static void key_other(struct hz_report *k, const struct simt_order_op *op,
		      const struct hz_rec *r, bool r_write)
{
	k->xop = true;
	k->why = WHY_STREAMS;
	k->xs[0] = (struct xsite){op->mod, op->name, op->stream, op->device,
				  op->node};
	k->other = op->mod ? (const void *)op->mod : (const void *)op->name;
	k->acc[0] = (uint8_t)acc_of_rec(r, r_write);
	if (op->mod && !(r->flags & HZR_XOP)) {
		const struct simt_insn *in = &op->mod->code[r->pc];
		uint64_t bx = op->grid[0], by = op->grid[1];
		uint32_t tx = op->block[0], ty = op->block[1];

		k->pc[0] = r->pc;
		k->site[0] = in->src_line && in->src_file != UINT16_MAX
			? (uint32_t)(in->src_file + 1) << 20 | (in->src_line & 0xfffff)
			: 0x80000000u | r->pc;
		k->block[0][0] = (uint32_t)(r->block % bx);
		k->block[0][1] = (uint32_t)(r->block / bx % by);
		k->block[0][2] = (uint32_t)(r->block / (bx * by));
		k->thread[0][0] = r->tid % tx;
		k->thread[0][1] = r->tid / tx % ty;
		k->thread[0][2] = r->tid / (tx * ty);
	} else {
		k->xs[0].mod = NULL;
		k->site[0] = api_site(op->name);
	}
	if (k->nsites < 1)
		k->nsites = 1;
}

/* ---- launches and blocks ---- */

static void setup(void)
{
	const char *p = getenv("CUDALAB_SIMT_CHECKS");
	const char *h = getenv("CUDALAB_SIMT_HAZARDS");

	checks_on = !(p && strcmp(p, "0") == 0);
	schedule_seed = (uint32_t)simt_env_long("CUDALAB_SIMT_SCHEDULE", 0);
	if (h && *h)
		report_path = simt_xstrdup(h);
	atexit(at_exit);
}

uint32_t simt_hz_schedule(void)
{
	pthread_once(&setup_once, setup);
	return schedule_seed;
}

/* Whether instruction `in` writes register row `row` of its frame. */
static bool writes_row(const struct simt_insn *in, uint32_t row)
{
	return in->op != OP_ST && in->op != OP_BRA && in->o[0].kind == OK_REG &&
	       in->o[0].idx == row;
}

/* Marks the plain loads that seed a compare-and-swap loop (old = *p;
 * do { ... } while ((old = atomicCAS(p, assumed, ...)) != assumed), the
 * CUDA Programming Guide's way to build atomics): a load whose value,
 * directly or through moves, is the compare operand of an atom.cas a few
 * instructions on.  The value read is only a guess the CAS checks, so
 * the load counts as a relaxed one, which does not race with atomics. */
static void mark_cas_seeds(struct simt_module *mod)
{
	uint32_t i, j, k;

	for (i = 0; i < mod->ncode; i++) {
		struct simt_insn *ld = &mod->code[i];
		uint32_t rows[8], nrows = 1;

		if (ld->op != OP_LD || (ld->sem & MSEM_STRONG) || ld->vec != 1 ||
		    ld->o[0].kind != OK_REG || ld->am == AM_PARAM ||
		    ld->am == AM_KPARAM || ld->am == AM_LOCVAR)
			continue;
		rows[0] = ld->o[0].idx;
		for (j = i + 1; j < mod->ncode && j <= i + 48 && nrows; j++) {
			const struct simt_insn *in = &mod->code[j];
			bool held = false;

			if (in->op == OP_RET || in->op == OP_EXIT || in->op == OP_CALL)
				break;
			if (in->op == OP_ATOM && in->sub == SUB_CAS &&
			    in->o[1].kind == OK_REG) {
				for (k = 0; k < nrows; k++)
					held |= in->o[1].idx == rows[k];
				if (held) {
					ld->sem |= MSEM_STRONG;
					break;
				}
			}
			if (in->op == OP_MOV && in->o[1].kind == OK_REG) {
				for (k = 0; k < nrows; k++)
					held |= in->o[1].idx == rows[k];
				if (held && nrows < 8 && in->o[0].kind == OK_REG) {
					rows[nrows++] = in->o[0].idx;
					continue;
				}
			}
			for (k = 0; k < nrows; k++)
				if (writes_row(in, rows[k]))
					rows[k--] = rows[--nrows];
		}
	}
	mod->hz_marked = true;
}

/* Before clocks run out, every record of earlier operations is made to
 * read as old: the shadows start afresh, pooled ones included, and the
 * stream order forgets what is outstanding. */
static void clocks_check(void)
{
	if (clock_base <= 0xC0000000u)
		return;
	pool_flush();
	pool_off = true;
	shadows_reset();
	pool_off = false;
	clock_base = 1;
	simt_order_reset();
}

void simt_hz_launch_begin(struct launch_state *L)
{
	struct simt_order_op what = {0};

	L->hz = checks_on;
	if (!L->hz)
		return;
	if (!L->mod->hz_marked)
		mark_cas_seeds(L->mod);
	clocks_check();
	what.mod = L->mod;
	what.name = L->fn->name;
	what.grid[0] = L->grid.x;
	what.grid[1] = L->grid.y;
	what.grid[2] = L->grid.z;
	what.block[0] = L->block.x;
	what.block[1] = L->block.y;
	what.block[2] = L->block.z;
	L->hz_fence = simt_order_begin(L->lane, clock_base, &what);
	L->hz_base = clock_base;
	atomic_store(&clock_max, clock_base);
	L->hz_global = L->nblocks <= UINT32_MAX && L->nthreads <= 1024;
	launch_number++;
}

static void print_new_reports(const struct launch_state *L)
{
	int i;
	char name[512];

	pthread_mutex_lock(&report_lock);
	for (i = 0; i < nreports; i++) {
		const struct hz_report *r = &reports[i];

		if (r->launch != launch_number || r->kernel != L->fn->name)
			continue;
		fprintf(stderr, "simt: %s\n  in %s: %llu time%s\n", r->msg,
			simt_demangle(r->kernel, name, sizeof name),
			(unsigned long long)r->count, r->count == 1 ? "" : "s");
		reports[i].shown = r->count;
	}
	pthread_mutex_unlock(&report_lock);
}

void simt_hz_launch_end(struct launch_state *L)
{
	uint32_t m;

	if (!L->hz)
		return;
	m = atomic_load(&clock_max);
	clock_base = m + 1;
	if (L->hz_global)
		simt_hs_op_done(L->hz_base, m, false);
	gtable_clear();
	fflush(stdout);
	print_new_reports(L);
	fflush(stderr);
}

static void acc_clear(struct hz_acc *a)
{
	if (a->vc)
		vc_unref(a->vc);
	vc_unref(a->last);
	gvc_unref(a->xk);
	memset(a, 0, sizeof *a);
}

/* The snapshots of the block's threads let go of: threads side by side
 * mostly share one (all of them after a barrier), so each run of equal
 * ones drops its references in one atomic operation. */
static void release_snaps(struct hz_block *hb)
{
	uint32_t i = 0, k;

	if (hb->same_snap && hb->n) {
		vc_unref_n(hb->t[0].snap, hb->n);
		for (i = 0; i < hb->n; i++)
			hb->t[i].snap = NULL;
		hb->same_snap = false;
		return;
	}
	while (i < hb->n) {
		struct hz_vc *v = hb->t[i].snap;

		for (k = 0; i < hb->n && hb->t[i].snap == v; i++, k++)
			hb->t[i].snap = NULL;
		vc_unref_n(v, k);
	}
}

/* What a thread holds besides its snapshot (release_snaps). */
static void thread_clear(struct hz_thread *t, struct hz_cold *c)
{
	if (t->xk || t->pend) {
		gvc_unref(t->xk);
		gvc_unref(t->pend);
		t->xk = t->pend = NULL;
	}
	if (t->fence_clk) {
		vc_unref(c->fence_snap);
		gvc_unref(c->fence_xk);
		c->fence_snap = NULL;
		c->fence_xk = NULL;
		c->fence_row_on = false;
		t->fence_clk = 0;
	}
	c->committed = 0;
	c->nasync = 0;
}

static void sync_clear(struct hz_block *hb)
{
	uint32_t i;

	for (i = 0; i < hb->capsync; i++) {
		struct hz_sync *s = &hb->sync[i];

		if (!s->used)
			continue;
		gvc_unref(s->know);
		acc_clear(&s->cur);
		gvc_unref(s->done[0]);
		gvc_unref(s->done[1]);
		memset(s, 0, sizeof *s);
	}
	hb->nsync = 0;
}

static void memo_clear(struct hz_block *hb)
{
	vc_unref(hb->memo_a);
	vc_unref(hb->memo_b);
	vc_unref(hb->memo_r);
	hb->memo_a = hb->memo_b = hb->memo_r = NULL;
}

static void block_release(struct hz_block *hb)
{
	uint32_t i;

	if (hb->released)
		return;
	release_snaps(hb);
	if (hb->cold) {
		for (i = 0; i < hb->n; i++)
			thread_clear(&hb->t[i], &hb->c[i]);
		hb->cold = false;
	}
	if (hb->any_exit_pend) {
		memset(hb->exit_pend, 0, hb->nwarps * sizeof *hb->exit_pend);
		hb->any_exit_pend = false;
	}
	for (i = 0; i < NBARRIERS; i++)
		acc_clear(&hb->bars[i]);
	acc_clear(&hb->exited);
	sync_clear(hb);
	memo_clear(hb);
	hb->released = true;
}

void simt_hz_ctx_prepare(struct block_ctx *bc)
{
	struct launch_state *L = bc->L;
	struct hz_block *hb = bc->hz;
	size_t words = L->shared_size / 4 + 2;

	if (!L->hz)
		return;
	if (!hb) {
		hb = bc->hz = simt_xcalloc(1, sizeof *hb);
		hb->capsync = 16;
		hb->sync = simt_xcalloc(hb->capsync, sizeof *hb->sync);
	}
	block_release(hb);
	flush_cache(hb);
	if (hb->n < L->nthreads) {
		uint32_t i;

		for (i = 0; i < hb->n; i++)
			free(hb->c[i].async);
		free(hb->t);
		free(hb->c);
		hb->t = simt_xcalloc(L->nwarps * 32, sizeof *hb->t);
		hb->c = simt_xcalloc(L->nwarps * 32, sizeof *hb->c);
	}
	if (hb->nwarps < L->nwarps) {
		free(hb->L);
		free(hb->Lon);
		free(hb->arrived);
		free(hb->exit_pend);
		free(hb->wclk);
		hb->wclk = simt_xcalloc(L->nwarps, sizeof *hb->wclk);
		hb->L = simt_xmalloc((size_t)L->nwarps * 32 * 32 * sizeof *hb->L);
		hb->Lon = simt_xcalloc(L->nwarps, sizeof *hb->Lon);
		hb->arrived = simt_xcalloc(L->nwarps, sizeof *hb->arrived);
		hb->exit_pend = simt_xcalloc(L->nwarps, sizeof *hb->exit_pend);
	}
	if (!hb->q.log) {
		hb->q.log = simt_xmalloc(SLOG_MAX * sizeof *hb->q.log);
		hb->soff = simt_xmalloc(SLOG_MAX * sizeof *hb->soff);
	}
	hb->q.on = false;
	slog_clear(hb);
	hb->n = L->nthreads;
	hb->nwarps = L->nwarps;
	if (hb->ssh_cap < words) {
		free(hb->ssh);
		hb->ssh = simt_xcalloc(words, sizeof *hb->ssh);
		hb->ssh_cap = words;
	}
	if (hb->sinit_cap < L->shared_size / 8 + 1) {
		free(hb->sinit);
		hb->sinit_cap = L->shared_size / 8 + 1;
		hb->sinit = simt_xcalloc(hb->sinit_cap, 1);
	}
	if (hb->linit_cap < bc->local_cap / 8 + 1) {
		free(hb->linit);
		hb->linit_cap = bc->local_cap / 8 + 1;
		hb->linit = simt_xcalloc(hb->linit_cap, 1);
	}
	/* the reserved region (cooperative_groups' state) is the driver's */
	hb->init_limit = L->reserved ? L->reserved_begin : L->shared_size;
	hb->global_ok = L->hz_global;
}

void simt_hz_block_begin(struct block_ctx *bc)
{
	struct hz_block *hb = bc->hz;
	struct hz_vc *start;
	uint32_t i, base;

	if (!bc->L->hz)
		return;
	block_release(hb);
	base = bc->L->hz_base;
	hb->fence = bc->L->hz_fence;
	hb->ok_lo = hb->ok_hi = 0;
	hb->block = (uint32_t)bc->block;
	start = vc_new(hb->n);
	for (i = 0; i < hb->n; i++)
		start->c[i] = base;
	atomic_store(&start->refs, hb->n);
	for (i = 0; i < hb->n; i++) {
		hb->t[i].clk = base + 1;
		hb->t[i].snap = start;
	}
	for (i = 0; i < hb->nwarps; i++)
		hb->wclk[i] = base + 1;
	hb->q_snap = start;
	hb->q_xk = NULL;
	hb->same_snap = true;
	hb->released = false;
	memset(hb->Lon, 0, hb->nwarps * sizeof *hb->Lon);
	memset(hb->sinit, 0, bc->L->shared_size / 8 + 1);
	memset(hb->linit, 0, (size_t)hb->n * bc->L->local_per_thread / 8 + 1);
	hb->sr2 = false;
	/* no access of this block is recorded yet */
	quiet_begin(hb);
}

void simt_hz_block_end(struct block_ctx *bc)
{
	struct hz_block *hb = bc->hz;
	uint32_t i, m = 0, cur;

	if (!bc->L->hz)
		return;
	for (i = 0; i < hb->n; i++) {
		if (i % 32 == 0 && hb->wclk[i / 32]) {
			/* every thread of the warp is at this clock */
			if (hb->wclk[i / 32] > m)
				m = hb->wclk[i / 32];
			i += 31;
			continue;
		}
		if (hb->t[i].clk > m)
			m = hb->t[i].clk;
	}
	cur = atomic_load(&clock_max);
	while (m > cur && !atomic_compare_exchange_weak(&clock_max, &cur, m))
		;
	flush_cache(hb);
	block_release(hb);
}

/* ---- knowledge of a thread ---- */

static inline uint32_t *lrow(struct hz_block *hb, uint32_t tid)
{
	return hb->L + (size_t)(tid / 32) * 1024 + (tid % 32) * 32;
}

/* What thread `me` knows of thread u of its own block. */
HOT uint32_t knows(struct hz_block *hb, uint32_t me, uint32_t u)
{
	uint32_t v = hb->t[me].snap->c[u];

	if ((me >> 5) == (u >> 5) && hb->Lon[me >> 5]) {
		uint32_t x = lrow(hb, me)[u & 31];

		if (x > v)
			v = x;
	}
	return v;
}

/* Whether the access recorded in r happens before the current one by
 * thread me (r's clock above the launch base, so it is of this launch). */
HOT bool ordered(struct hz_block *hb, uint32_t me,
			   const struct hz_rec *r)
{
	if (r->block == hb->block) {
		if (r->tid == me)
			return !(r->flags & HZR_ASYNC);
		if ((r->flags & HZR_COLL) && (r->tid >> 5) == (me >> 5))
			return true;
		return knows(hb, me, r->tid) >= r->clk;
	}
	{
		const struct hz_vc *v = gvc_find(hb->t[me].xk, r->block);

		return v && v->c[r->tid] >= r->clk;
	}
}

/* The thread's knowledge joined into an accumulator. */
static void acc_add(struct hz_block *hb, struct hz_acc *a, uint32_t tid)
{
	struct hz_thread *t = &hb->t[tid];

	/* usual case: the thread's snapshot is the one joined last and it
	 * knows nothing else, so only its own clock is new */
	if (a->vc && a->last == t->snap && !hb->Lon[tid >> 5] &&
	    (!t->xk || a->xk == t->xk)) {
		if (t->clk > a->vc->c[tid])
			a->vc->c[tid] = t->clk;
		return;
	}
	if (!a->vc) {
		a->vc = vc_copy(t->snap);
		a->last = vc_ref(t->snap);
	} else if (a->last != t->snap) {
		vc_max_into(a->vc, t->snap);
		vc_unref(a->last);
		a->last = vc_ref(t->snap);
	}
	if (t->clk > a->vc->c[tid])
		a->vc->c[tid] = t->clk;
	if (hb->Lon[tid >> 5]) {
		const uint32_t *row = lrow(hb, tid);
		uint32_t j, w0 = tid & ~31u;

		for (j = 0; j < 32 && w0 + j < hb->n; j++)
			if (row[j] > a->vc->c[w0 + j])
				a->vc->c[w0 + j] = row[j];
	}
	if (t->xk && a->xk != t->xk) {
		struct hz_gvc *x = gvc_join(a->xk, t->xk, 0, false);

		gvc_unref(a->xk);
		a->xk = x;
	}
}

/* The thread's snapshot joined with v (memoised: threads that share a
 * snapshot and acquire the same knowledge share the result). */
static void acquire_vc(struct hz_block *hb, uint32_t tid, struct hz_vc *v)
{
	struct hz_thread *t = &hb->t[tid];
	struct hz_vc *r;

	if (!v || vc_covers(t->snap, v))
		return;
	if (hb->memo_a == t->snap && hb->memo_b == v) {
		r = vc_ref(hb->memo_r);
	} else {
		r = vc_copy(t->snap);
		vc_max_into(r, v);
		memo_clear(hb);
		hb->memo_a = vc_ref(t->snap);
		hb->memo_b = vc_ref(v);
		hb->memo_r = vc_ref(r);
	}
	vc_unref(t->snap);
	t->snap = r;
	hb->same_snap = false;
}

/* The thread acquires knowledge k (a map that may hold its own block). */
static void acquire(struct hz_block *hb, uint32_t tid, const struct hz_gvc *k)
{
	struct hz_thread *t = &hb->t[tid];
	const struct hz_vc *own;
	struct hz_gvc *x;

	if (!k)
		return;
	own = gvc_find(k, hb->block);
	if (own)
		acquire_vc(hb, tid, (struct hz_vc *)own);
	if (gvc_covers(t->xk, k, hb->block, true))
		return;
	x = gvc_join(t->xk, k, hb->block, true);
	gvc_unref(t->xk);
	t->xk = x;
	hb->cold = true;
}

/* What the thread knows, as a map including its own block: everything at
 * its current clock, or at its last fence. */
static struct hz_gvc *publish(struct hz_block *hb, uint32_t tid, bool at_fence)
{
	struct hz_thread *t = &hb->t[tid];
	struct hz_cold *c = &hb->c[tid];
	const struct hz_vc *snap = at_fence ? c->fence_snap : t->snap;
	const struct hz_gvc *xk = at_fence ? c->fence_xk : t->xk;
	const uint32_t *row = NULL;
	struct hz_gvc *own, *g;
	struct hz_vc *v = vc_copy(snap);
	uint32_t j, w0 = tid & ~31u;

	v->c[tid] = at_fence ? t->fence_clk : t->clk;
	if (at_fence && c->fence_row_on)
		row = c->fence_row;
	else if (!at_fence && hb->Lon[tid >> 5])
		row = lrow(hb, tid);
	for (j = 0; row && j < 32 && w0 + j < hb->n; j++)
		if (row[j] > v->c[w0 + j] && w0 + j != tid)
			v->c[w0 + j] = row[j];
	own = gvc_new(1);
	own->n = 1;
	own->e[0].block = hb->block;
	own->e[0].vc = v;
	g = gvc_join(own, xk, hb->block, true);
	gvc_unref(own);
	return g;
}

/* Lanes that exit are joined into `exited` when a barrier next needs it
 * (their state no longer changes), most blocks never: their threads all
 * exit at the end. */
void simt_hz_exit(struct block_ctx *bc, const struct warp *w, uint32_t lanes)
{
	struct hz_block *hb = bc->hz;

	if (!hb)
		return;
	hb->exit_pend[w->id] |= lanes;
	hb->any_exit_pend = true;
}

/* The exited lanes not yet in `exited`, joined into it. */
static void join_exits(struct hz_block *hb)
{
	struct hz_acc *a = &hb->exited;
	uint32_t wi;

	if (!hb->any_exit_pend)
		return;
	for (wi = 0; wi < hb->nwarps; wi++) {
		uint32_t lanes = hb->exit_pend[wi];

		hb->exit_pend[wi] = 0;
		while (lanes) {
			uint32_t tid = wi * 32 + (uint32_t)__builtin_ctz(lanes);

			lanes &= lanes - 1;
			acc_add(hb, a, tid);
		}
	}
	hb->any_exit_pend = false;
}

/* ---- barriers ---- */

void simt_hz_bar_arrive(struct block_ctx *bc, const struct warp *w,
			uint32_t lanes, uint32_t id, bool wait)
{
	struct hz_block *hb = bc->hz;
	struct hz_acc *a = &hb->bars[id];
	uint32_t m;

	if (!hb)
		return;
	if (hb->q.on) {
		/* an arrival that goes on changes what the thread knows (no
		 * strong read is pending in a quiet interval: one ends it) */
		if (!wait)
			quiet_end(hb, bc->L->hz_base);
		else
			hb->arrived[w->id] |= lanes;
	}
	/* usual case, as in acc_add, for the whole warp at once: no strong
	 * read pending, every snapshot the one joined last and nothing else
	 * known, so only the clocks are new.  In a quiet interval every live
	 * thread holds q_snap and q_xk, so the lanes need no look. */
	if (a->vc && !hb->Lon[w->id]) {
		struct hz_thread *t0 = &hb->t[w->id * 32];

		if (hb->q.on)
			m = a->last == hb->q_snap && (!hb->q_xk || hb->q_xk == a->xk)
			  ? 0 : lanes;
		else
			for (m = lanes; m; m &= m - 1) {
				const struct hz_thread *t = &t0[__builtin_ctz(m)];

				if (t->pend || t->snap != a->last ||
				    (t->xk && t->xk != a->xk))
					break;
			}
		if (!m) {
			uint32_t *c = a->vc->c + w->id * 32;
			uint32_t u = hb->wclk[w->id], k, w0 = w->id * 32;
			uint32_t nl = hb->n - w0 < 32 ? hb->n - w0 : 32;
			uint32_t all = nl == 32 ? UINT32_MAX : (1u << nl) - 1;

			if (u && lanes == all) {
				/* every thread of the warp, all at clock u */
				for (k = 0; k < nl; k++)
					c[k] = c[k] > u ? c[k] : u;
				for (k = 0; k < nl; k++)
					t0[k].clk = u + 1;
				hb->wclk[w->id] = u + 1;
				return;
			}
			for (m = lanes; m; m &= m - 1) {
				unsigned l = (unsigned)__builtin_ctz(m);

				if (t0[l].clk > c[l])
					c[l] = t0[l].clk;
				t0[l].clk++;
			}
			hb->wclk[w->id] = 0;
			return;
		}
	}
	while (lanes) {
		uint32_t tid = w->id * 32 + (uint32_t)__builtin_ctz(lanes);
		struct hz_thread *t = &hb->t[tid];

		lanes &= lanes - 1;
		/* a strong read before the barrier is acquired here */
		if (t->pend) {
			acquire(hb, tid, t->pend);
			gvc_unref(t->pend);
			t->pend = NULL;
		}
		acc_add(hb, a, tid);
		t->clk++;
	}
	hb->wclk[w->id] = 0;
}

void simt_hz_bar_release(struct block_ctx *bc, uint32_t id)
{
	struct hz_block *hb = bc->hz;
	struct hz_acc *a;
	struct hz_vc *v, *old = NULL;
	uint32_t wi, nold = 0, nnew = 0;
	bool full = true, was_quiet, quiet_all;

	if (!hb)
		return;
	a = &hb->bars[id];
	if (!a->vc)
		return;
	was_quiet = hb->q.on;
	for (wi = 0; wi < bc->nwarps; wi++) {
		const struct warp *w = &bc->warps[wi];
		uint32_t live = w->exist & ~w->exited;

		if ((w->barmask[id] & live) != live)
			full = false;
	}
	if (full)
		slog_clear(hb);  /* the barrier orders the logged reads */
	else
		quiet_end(hb, bc->L->hz_base);
	join_exits(hb);
	if (hb->exited.vc) {
		vc_max_into(a->vc, hb->exited.vc);
		if (hb->exited.xk) {
			struct hz_gvc *x = gvc_join(a->xk, hb->exited.xk, 0, false);

			gvc_unref(a->xk);
			a->xk = x;
		}
	}
	v = a->vc;
	/* every arriving thread takes v: the references counted and dropped
	 * a run of equal snapshots at a time, not one atomic per thread; at
	 * the end of a quiet interval all of them held q_snap and q_xk */
	quiet_all = was_quiet && full && hb->q_xk == a->xk;
	for (wi = 0; quiet_all && wi < bc->nwarps; wi++) {
		const struct warp *w = &bc->warps[wi];
		struct hz_thread *t0 = &hb->t[wi * 32];
		uint32_t lanes = w->barmask[id];

		hb->Lon[wi] = false;
		nnew += popc(lanes);
		for (; lanes; lanes &= lanes - 1)
			t0[__builtin_ctz(lanes)].snap = v;
		hb->same_snap = false;
	}
	if (quiet_all) {
		old = hb->q_snap;
		nold = nnew;
	}
	for (wi = 0; !quiet_all && wi < bc->nwarps; wi++) {
		const struct warp *w = &bc->warps[wi];
		uint32_t lanes = w->barmask[id], live = w->exist & ~w->exited;

		if ((lanes & live) == live)
			hb->Lon[wi] = false;
		while (lanes) {
			struct hz_thread *t = &hb->t[wi * 32 + (uint32_t)__builtin_ctz(lanes)];

			lanes &= lanes - 1;
			if (t->snap != v) {
				if (t->snap != old) {
					vc_unref_n(old, nold);
					old = t->snap;
					nold = 0;
				}
				nold++;
				nnew++;
				t->snap = v;
				hb->same_snap = false;
			}
			if (t->xk != a->xk) {
				gvc_unref(t->xk);
				t->xk = gvc_ref(a->xk);
				hb->cold = true;
			}
		}
	}
	vc_unref_n(old, nold);
	if (nnew)
		atomic_fetch_add_explicit(&v->refs, nnew, memory_order_relaxed);
	/* every live thread arrived and now holds v and a->xk */
	hb->q_snap = v;
	hb->q_xk = a->xk;
	acc_clear(a);
	if (full && !async_pending(hb))
		quiet_begin(hb);
	else
		hb->q.on = false;
}

void simt_hz_warp_sync(struct block_ctx *bc, const struct warp *w,
		       uint32_t lanes)
{
	struct hz_block *hb = bc->hz;
	uint32_t *L, row[32], m, w0 = w->id * 32, j;
	struct hz_vc *snap;
	struct hz_gvc *xk;
	bool same = true;

	if (!hb || !lanes)
		return;
	quiet_end(hb, bc->L->hz_base);
	L = hb->L + (size_t)w->id * 1024;
	if (!hb->Lon[w->id]) {
		memset(L, 0, 1024 * sizeof *L);
		hb->Lon[w->id] = true;
	}
	/* what the lanes know of other warps and blocks: usually one
	 * snapshot they all share */
	snap = hb->t[w0 + (uint32_t)__builtin_ctz(lanes)].snap;
	xk = hb->t[w0 + (uint32_t)__builtin_ctz(lanes)].xk;
	for (m = lanes; m; m &= m - 1) {
		const struct hz_thread *t = &hb->t[w0 + (uint32_t)__builtin_ctz(m)];

		if (t->snap != snap || t->xk != xk)
			same = false;
	}
	if (!same) {
		struct hz_acc a = {0};

		for (m = lanes; m; m &= m - 1)
			acc_add(hb, &a, w0 + (uint32_t)__builtin_ctz(m));
		for (m = lanes; m; m &= m - 1) {
			struct hz_thread *t = &hb->t[w0 + (uint32_t)__builtin_ctz(m)];

			vc_unref(t->snap);
			t->snap = vc_ref(a.vc);
			hb->same_snap = false;
			gvc_unref(t->xk);
			t->xk = gvc_ref(a.xk);
			hb->cold = true;
		}
		acc_clear(&a);
	}
	memset(row, 0, sizeof row);
	for (m = lanes; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		const uint32_t *r = L + l * 32;

		for (j = 0; j < 32; j++)
			row[j] = r[j] > row[j] ? r[j] : row[j];
		if (hb->t[w0 + l].clk > row[l])
			row[l] = hb->t[w0 + l].clk;
	}
	for (m = lanes; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);

		memcpy(L + l * 32, row, sizeof row);
		hb->t[w0 + l].clk++;
	}
	hb->wclk[w->id] = 0;
}

/* ---- mbarrier objects and shared release/acquire locations ---- */

static struct hz_sync *sync_of(struct hz_block *hb, uint32_t off, bool make)
{
	uint32_t i, h = (off >> 2) * 2654435761u;

	for (i = 0; i < hb->capsync; i++) {
		struct hz_sync *s = &hb->sync[(h + i) & (hb->capsync - 1)];

		if (s->used && s->off == off)
			return s;
		if (!s->used) {
			if (!make)
				return NULL;
			if ((hb->nsync + 1) * 2 > hb->capsync)
				break;
			s->used = true;
			s->off = off;
			hb->nsync++;
			return s;
		}
	}
	if (!make)
		return NULL;
	{
		/* grow and rehash */
		struct hz_sync *old = hb->sync;
		uint32_t oldcap = hb->capsync;

		hb->capsync *= 2;
		hb->sync = simt_xcalloc(hb->capsync, sizeof *hb->sync);
		hb->nsync = 0;
		for (i = 0; i < oldcap; i++) {
			struct hz_sync *s;

			if (!old[i].used)
				continue;
			s = sync_of(hb, old[i].off, true);
			*s = old[i];
		}
		free(old);
		return sync_of(hb, off, true);
	}
}

void simt_hz_mbar_init(struct block_ctx *bc, uint32_t off)
{
	struct hz_block *hb = bc->hz;
	struct hz_sync *s;

	if (!hb)
		return;
	quiet_end(hb, bc->L->hz_base);
	s = sync_of(hb, off, true);
	acc_clear(&s->cur);
	gvc_unref(s->done[0]);
	gvc_unref(s->done[1]);
	s->done[0] = s->done[1] = NULL;
}

void simt_hz_mbar_arrive(struct block_ctx *bc, const struct warp *w,
			 unsigned lane, uint32_t off, bool completed,
			 unsigned parity)
{
	struct hz_block *hb = bc->hz;
	uint32_t tid = w->id * 32 + lane;
	struct hz_sync *s;

	if (!hb)
		return;
	quiet_end(hb, bc->L->hz_base);
	s = sync_of(hb, off, true);
	acc_add(hb, &s->cur, tid);
	hb->t[tid].clk++;
	hb->wclk[tid >> 5] = 0;
	if (completed) {
		struct hz_gvc *g = gvc_new(1), *k;

		g->n = 1;
		g->e[0].block = hb->block;
		g->e[0].vc = s->cur.vc;
		s->cur.vc = NULL;
		k = gvc_join(g, s->cur.xk, 0, false);
		gvc_unref(g);
		gvc_unref(s->done[parity & 1]);
		s->done[parity & 1] = k;
		acc_clear(&s->cur);
	}
}

void simt_hz_mbar_wait(struct block_ctx *bc, const struct warp *w,
		       unsigned lane, uint32_t off, unsigned parity)
{
	struct hz_block *hb = bc->hz;
	struct hz_sync *s;

	if (!hb)
		return;
	quiet_end(hb, bc->L->hz_base);
	s = sync_of(hb, off, false);
	if (s && s->done[parity & 1])
		acquire(hb, w->id * 32 + lane, s->done[parity & 1]);
}

/* ---- fences ---- */

void simt_hz_fence(struct block_ctx *bc, const struct warp *w, uint32_t lanes,
		   const struct simt_insn *in)
{
	struct hz_block *hb = bc->hz;

	if (!hb)
		return;
	quiet_end(hb, bc->L->hz_base);
	while (lanes) {
		uint32_t tid = w->id * 32 + (uint32_t)__builtin_ctz(lanes);
		struct hz_thread *t = &hb->t[tid];

		lanes &= lanes - 1;
		if ((in->sem & MSEM_ACQ) && t->pend) {
			acquire(hb, tid, t->pend);
			gvc_unref(t->pend);
			t->pend = NULL;
		}
		if (in->sem & MSEM_REL) {
			struct hz_cold *c = &hb->c[tid];

			vc_unref(c->fence_snap);
			gvc_unref(c->fence_xk);
			c->fence_snap = vc_ref(t->snap);
			c->fence_xk = gvc_ref(t->xk);
			t->fence_clk = t->clk;
			hb->cold = true;
			c->fence_row_on = hb->Lon[tid >> 5];
			if (c->fence_row_on)
				memcpy(c->fence_row, lrow(hb, tid), sizeof c->fence_row);
			t->clk++;
			hb->wclk[tid >> 5] = 0;
		}
	}
}

/* A strong access's release side on the location whose knowledge is
 * *know: st.release / atom.release publish everything; after a fence,
 * a strong write publishes what the fence saw; a relaxed store without
 * either ends the release sequence. */
static void release_to(struct hz_block *hb, uint32_t tid,
		       const struct simt_insn *in, bool rmw,
		       struct hz_gvc **know)
{
	struct hz_thread *t = &hb->t[tid];
	struct hz_gvc *k = NULL, *j;

	if (in->sem & MSEM_REL) {
		k = publish(hb, tid, false);
		t->clk++;
		hb->wclk[tid >> 5] = 0;
	} else if (t->fence_clk) {
		k = publish(hb, tid, true);
	} else if (!rmw) {
		gvc_unref(*know);
		*know = NULL;
		return;
	} else {
		return;
	}
	if (rmw) {
		j = gvc_join(*know, k, 0, false);
		gvc_unref(k);
		k = j;
	}
	gvc_unref(*know);
	*know = k;
}

/* A strong read's acquire side: at once for ld.acquire / atom.acquire,
 * else kept until the next fence or barrier. */
static void acquire_from(struct hz_block *hb, uint32_t tid,
			 const struct simt_insn *in, const struct hz_gvc *know)
{
	struct hz_thread *t = &hb->t[tid];
	struct hz_gvc *j;

	if (!know)
		return;
	if (in->sem & MSEM_ACQ) {
		acquire(hb, tid, know);
		return;
	}
	if (t->pend == know)
		return;
	j = gvc_join(t->pend, know, 0, false);
	gvc_unref(t->pend);
	t->pend = j;
	hb->cold = true;
}

COLD static void sync_strong(struct hz_block *hb, uint32_t tid,
			const struct simt_insn *in, bool shared, uint64_t key,
			int kind, bool after)
{
	bool rmw = kind == HZ_ATOMIC;
	bool writes = kind != HZ_READ, reads = kind != HZ_WRITE;
	bool rel = writes && !after, acq = reads && (after || kind == HZ_READ);

	if (!rel && !acq)
		return;
	if (shared) {
		struct hz_sync *s;
		bool need = rel && ((in->sem & MSEM_REL) || hb->t[tid].fence_clk);

		s = sync_of(hb, (uint32_t)key & ~3u, need);
		if (!s)
			return;
		if (rel)
			release_to(hb, tid, in, rmw, &s->know);
		if (acq)
			acquire_from(hb, tid, in, s->know);
		return;
	}
	{
		unsigned b;

		key &= ~3ull;
		b = bucket_of(key);
		bool need = rel && ((in->sem & MSEM_REL) || hb->t[tid].fence_clk);
		struct gsync *s;

		/* a location nothing was released to has nothing to acquire
		 * or end: no lock for the common relaxed atomic */
		if (!need && !gsync_get(b, key, false))
			return;
		bucket_lock(b);
		s = gsync_get(b, key, need);
		if (s && rel)
			release_to(hb, tid, in, rmw, &s->know);
		if (s && acq)
			acquire_from(hb, tid, in, s->know);
		bucket_unlock(b);
	}
}

/* ---- memory accesses ---- */

static inline void rec_load(struct hz_rec *dst, const struct hz_rec *src)
{
#if defined(__SSE2__)
	_mm_storeu_si128((__m128i *)(void *)dst,
			 _mm_load_si128((const __m128i *)(const void *)src));
#else
	memcpy(dst, src, sizeof *dst);
#endif
}

static inline void rec_store(struct hz_rec *dst, const struct hz_rec *src)
{
#if defined(__SSE2__)
	_mm_store_si128((__m128i *)(void *)dst,
			_mm_loadu_si128((const __m128i *)(const void *)src));
#else
	memcpy(dst, src, sizeof *dst);
#endif
}

/* Stores a record built in registers: a record assembled field by field
 * in memory and then copied as 16 bytes stalls on store forwarding. */
_Static_assert(offsetof(struct hz_rec, clk) == 4 && offsetof(struct hz_rec, tid) == 8 &&
	       offsetof(struct hz_rec, flags) == 10 && offsetof(struct hz_rec, mask) == 11 &&
	       offsetof(struct hz_rec, pc) == 12 && sizeof(struct hz_rec) == 16,
	       "rec_put builds struct hz_rec in two 64-bit halves");

static inline void rec_put(struct hz_rec *dst, uint32_t block, uint32_t clk,
			   uint32_t tid, uint32_t flags, uint32_t mask,
			   uint32_t pc)
{
#if defined(__SSE2__) && defined(__x86_64__)
	uint64_t lo = block | (uint64_t)clk << 32;
	uint64_t hi = (tid & 0xffffu) | (flags & 0xffu) << 16 | (mask & 0xffu) << 24 |
		      (uint64_t)pc << 32;

	_mm_store_si128((__m128i *)(void *)dst,
			_mm_set_epi64x((long long)hi, (long long)lo));
#else
	struct hz_rec me = {block, clk, (uint16_t)tid, (uint8_t)flags,
			    (uint8_t)mask, pc};

	rec_store(dst, &me);
#endif
}

/* The record of a plain whole-granule access (flags 0, all four bytes). */
static inline void rec_put_plain(struct hz_rec *dst, uint32_t block,
				 uint32_t clk, uint32_t tid, uint32_t pc)
{
	rec_put(dst, block, clk, tid, 0, 0xf, pc);
}

/* Where the allocation last looked up lies, so that the lanes of one
 * instruction look it up once: its base and size, shadow (fine records
 * and lines) and init bits. */
struct where {
	uint64_t lo, size;
	struct hz_word *sh;
	struct hz_line *lines;
	uint8_t *init;
};

/* A granule record of this launch (in shared memory: of this block). */
static inline bool rec_live(const struct hz_rec *r, uint32_t base, bool shared,
			    uint32_t blk)
{
	return r->clk > base && (!shared || r->block == blk);
}

HOT void settle_rec(struct hz_rec *hp, struct hz_word *fw, int k,
		    uint32_t base, uint32_t fence, uint32_t mark);

/* The line record r2 of global granule wd (NULL in shared memory, wh
 * NULL), settled so that the granule's r2 holds the truth.  A read
 * settles it only here, where it is needed (line_settle does it for
 * writes). */
HOT struct hz_rec *second_line(struct hz_block *hb, struct hz_word *wd,
			       const struct where *wh, uint32_t base)
{
	struct hz_rec *h;
	size_t li;

	if (!wh)
		return NULL;
	li = (size_t)(wd - wh->sh) / LINE_GRAN;
	h = &wh->lines[li].r2;
	if (h->flags & HZR_LINE)
		settle_rec(h, &wh->sh[li * LINE_GRAN], RK_R2, base, hb->fence, 0);
	return h;
}

/* A second read record of this launch was written at clock clk (h: its
 * line's r2, NULL in shared memory): the block's shared writes look at
 * r2 from now on, and the line's r2 says a granule of it has one, so that
 * a write of the whole line looks at them (see "the line layer"). */
HOT void second_stored(struct hz_block *hb, struct hz_rec *h, uint32_t clk,
		       uint32_t base, bool shared)
{
	if (shared)
		hb->sr2 = true;
	if (h && h->clk <= base)
		rec_put(h, 0, clk, 0, 0, 0, 0);
}

/* A read, record me, that the first read record r of its granule keeps
 * out: r holds a read by another thread that is not ordered before it.
 * It goes into the second record r2 unless r2 holds a read of another
 * thread still (drop_second empties r2 when a reader is ordered after
 * it); then the two kept are both reads a later write may race with,
 * and a write by either reader is checked against the other.  Returns 1
 * when r2 was written, 0 when it already held me, -1 when me was left
 * out. */
HOT int note_second(struct hz_block *hb, struct hz_word *wd, struct hz_rec *me,
		    const struct where *wh, uint32_t base, bool shared)
{
	struct hz_rec r2, *h = second_line(hb, wd, wh, base);

	rec_load(&r2, &wd->r2);
	if (rec_live(&r2, base, shared, hb->block)) {
		if (r2.block != me->block || r2.tid != me->tid)
			return -1;
		/* as for the first record: bytes merge only at one clock */
		if (r2.clk == me->clk)
			me->mask |= r2.mask;
	}
	if (memcmp(&r2, me, sizeof r2) == 0)
		return 0;
	rec_store(&wd->r2, me);
	second_stored(hb, h, me->clk, base, shared);
	return 1;
}

/* The last lane of a broadcast read (lanes of one instruction reading
 * the same n bytes at wd; fast_reads recorded the first): the second
 * read of each granule that holds none. */
HOT void note_bcast(struct hz_block *hb, struct hz_word *wd, uint32_t n,
		    uint32_t tid, uint32_t pc, const struct where *wh,
		    uint32_t base)
{
	uint32_t g, clk = hb->t[tid].clk;

	for (g = 0; g < n / 4; g++) {
		struct hz_rec *h = second_line(hb, wd + g, wh, base);

		if (rec_live(&wd[g].r2, base, !wh, hb->block))
			continue;
		rec_put_plain(&wd[g].r2, hb->block, clk, tid, pc);
		second_stored(hb, h, clk, base, !wh);
	}
}

/* A read by thread tid that replaces the first record (which is ordered
 * before it) at a clock the record was not made at: the second record,
 * when ordered before the read too, is emptied, so that it can take the
 * next concurrent reader. */
HOT void drop_second(struct hz_block *hb, struct hz_word *wd, uint32_t tid,
		     const struct where *wh, uint32_t base, bool shared)
{
	struct hz_rec *r2;

	second_line(hb, wd, wh, base);
	r2 = &wd->r2;
	if (rec_live(r2, base, shared, hb->block) &&
	    ((r2->block == hb->block && r2->tid == tid) || ordered(hb, tid, r2)))
		r2->clk = 0;
}

/* Whether two strong accesses are morally strong to each other. */
HOT bool both_strong(const struct hz_rec *r, uint8_t flags,
			       uint32_t block)
{
	if (!(r->flags & HZR_STRONG) || !(flags & HZR_STRONG))
		return false;
	return !((r->flags | flags) & HZR_CTA) || r->block == block;
}

static int acc_of_rec(const struct hz_rec *r, bool write)
{
	if (r->flags & HZR_ASYNC)
		return AC_ASYNC;
	if (r->flags & HZR_ATOMIC)
		return AC_ATOMIC;
	return write ? AC_WRITE : AC_READ;
}

COLD static void report_race(struct block_ctx *bc, int space, const struct hz_rec *r,
			bool r_write, uint32_t tid, uint32_t pc, int acc, int why)
{
	struct hz_report k;

	key_init(&k, bc, HK_RACE, space);
	k.why = (uint8_t)why;
	key_site(&k, 0, bc, r->block, r->tid, r->pc, acc_of_rec(r, r_write));
	key_site(&k, 1, bc, bc->block, tid, pc, acc);
	report(bc, &k, race_message, NULL);
}

/* A global record r of an earlier operation that the full check met in
 * a launch: a race if that operation belongs to another stream and is
 * not ordered before this launch (see order.h), unless both accesses are
 * strong at device scope. */
COLD static void stream_race(struct block_ctx *bc, const struct hz_rec *r,
			     bool r_write, uint32_t tid, uint32_t pc, int acc,
			     uint8_t flags)
{
	struct hz_block *hb = bc->hz;
	const struct simt_order_op *op, *me;
	struct hz_report k;
	uint32_t lo, hi;

	op = simt_order_unordered(r->clk, &lo, &hi);
	if (!op) {
		/* later records of that operation take the fast paths */
		hb->ok_lo = lo;
		hb->ok_hi = hi;
		return;
	}
	if (((r->flags & HZR_STRONG) && (flags & HZR_STRONG) &&
		    !((r->flags | flags) & HZR_CTA)))
		return;
	me = simt_order_current();
	key_init(&k, bc, HK_RACE, SP_GLOBAL);
	key_other(&k, op, r, r_write);
	key_site(&k, 1, bc, bc->block, tid, pc, acc);
	k.xs[1] = (struct xsite){bc->L->mod, bc->L->fn->name, me->stream,
				 me->device, me->node};
	report(bc, &k, xop_message, NULL);
}

/* A strong store (volatile or relaxed, not an atomic) by thread tid to
 * granule wd, whose last write w was a strong store of another thread:
 * a lost update when tid loaded the granule with a strong load of this
 * block and launch before it (a load-then-store) and nothing orders w
 * before it.  Both accesses being strong, the memory model calls it no
 * data race, but the two steps let another store fall between them. */
static bool lost_update(struct hz_block *hb, const struct hz_word *wd,
			const struct hz_rec *w, uint32_t tid, uint8_t flags,
			uint8_t mask, uint32_t base)
{
	const struct hz_cold *c = &hb->c[tid];

	return (flags & (HZR_STRONG | HZR_ATOMIC)) == HZR_STRONG &&
	       (w->flags & (HZR_STRONG | HZR_ATOMIC)) == HZR_STRONG &&
	       (w->mask & mask) && (w->block != hb->block || w->tid != tid) &&
	       c->sld == wd && c->sld_block == hb->block && c->sld_clk > base &&
	       both_strong(w, flags, hb->block) && !ordered(hb, tid, w);
}

/* One granule: checks the access against the recorded ones and records
 * it.  `cur` is the current memory content of the bytes written, `val`
 * the new one (writes only). */
HOT void granule(struct block_ctx *bc, struct hz_word *wd, int space,
		    uint32_t tid, uint32_t pc, uint8_t mask, uint8_t flags,
		    int kind, const uint8_t *cur, const uint8_t *val, uint32_t n,
		    const struct where *wh)
{
	struct hz_block *hb = bc->hz;
	uint32_t base = bc->L->hz_base, blk = hb->block;
	bool shared = space == SP_SHARED;
	struct hz_rec w, r, me;
	int acc = kind == HZ_ATOMIC ? AC_ATOMIC : kind == HZ_WRITE ? AC_WRITE : AC_READ;

	rec_load(&w, &wd->w);
	me.block = blk;
	me.clk = hb->t[tid].clk;
	me.tid = (uint16_t)tid;
	me.flags = flags;
	me.mask = mask;
	me.pc = pc;
	/* a record of another block is stale in shared memory */
	if (w.clk <= base) {
		if (!shared && w.clk > hb->fence && (w.mask & mask))
			stream_race(bc, &w, true, tid, pc, acc, flags);
	} else if ((w.mask & mask) && (!shared || w.block == blk) &&
		   !both_strong(&w, flags, blk) && !ordered(hb, tid, &w)) {
		/* rewriting the value memory holds is benign within a block,
		 * whose warps one host thread runs in a fixed order; between
		 * blocks, which run at once on several, what memory holds at
		 * this moment depends on timing, so it is a race as written */
		bool benign = kind == HZ_WRITE && val && !(w.flags & HZR_ASYNC) &&
			      w.block == blk && memcmp(cur, val, n) == 0;

		if (!benign)
			report_race(bc, space, &w, true, tid, pc, acc,
				    (w.flags & HZR_ASYNC) && w.tid == tid &&
				    w.block == blk ? WHY_NOT_WAITED : 0);
	} else if (kind == HZ_WRITE && (!shared || w.block == blk) &&
		   !(val && memcmp(cur, val, n) == 0) &&
		   lost_update(hb, wd, &w, tid, flags, mask, base)) {
		report_race(bc, space, &w, true, tid, pc, acc, WHY_LOST_UPDATE);
	}
	if ((flags & (HZR_STRONG | HZR_ATOMIC)) == HZR_STRONG && kind == HZ_READ) {
		struct hz_cold *c = &hb->c[tid];

		c->sld = wd;
		c->sld_block = blk;
		c->sld_clk = me.clk;
	}
	if (kind == HZ_READ) {
		/* a later read replaces the first record when that is ordered
		 * before it (so it covers it); otherwise the first of
		 * concurrent readers stays and the later one goes to the
		 * second record (note_second) */
		rec_load(&r, &wd->r);
		if (r.clk <= base || (shared && r.block != blk)) {
			rec_store(&wd->r, &me);
		} else if ((r.block == blk && r.tid == tid) || ordered(hb, tid, &r)) {
			/* the record keeps only bytes read at its own thread
			 * and clock: bytes read earlier (by another thread, or
			 * by this one before a barrier) kept under this read's
			 * name and clock would make a later write that is
			 * ordered after that earlier read look like a race
			 * with this one (2-byte elements share a granule) */
			if (r.block == blk && r.tid == tid && r.clk == me.clk)
				me.mask |= r.mask;
			else
				drop_second(hb, wd, tid, wh, base, shared);
			if (memcmp(&r, &me, sizeof r) != 0)
				rec_store(&wd->r, &me);
		} else if (note_second(hb, wd, &me, wh, base, shared) < 0 &&
			   (mask & ~r.mask)) {
			/* both records hold other concurrent readers: bytes
			 * the first does not cover are kept by replacing it */
			rec_store(&wd->r, &me);
		}
		return;
	}
	rec_load(&r, &wd->r);
	if (r.clk <= base) {
		if (!shared && r.clk > hb->fence && (r.mask & mask))
			stream_race(bc, &r, false, tid, pc, acc, flags);
	} else if ((r.mask & mask) && (!shared || r.block == blk) &&
		   !both_strong(&r, flags, blk) && !ordered(hb, tid, &r)) {
		report_race(bc, space, &r, false, tid, pc, acc, 0);
		rec_store(&wd->w, &me);
		return;
	}
	/* the second read, of this launch only: a read of an earlier one
	 * that the first record does not cover is another stream's, which
	 * the first already stands for */
	rec_load(&r, &wd->r2);
	if (rec_live(&r, base, shared, blk) && (r.mask & mask) &&
	    !both_strong(&r, flags, blk) && !ordered(hb, tid, &r))
		report_race(bc, space, &r, false, tid, pc, acc, 0);
	rec_store(&wd->w, &me);
}

COLD static void report_uninit(struct block_ctx *bc, const struct warp *w,
			  unsigned lane, const struct simt_insn *in, int space,
			  uint32_t n, uint64_t off, uint64_t size)
{
	struct hz_report k;
	struct simt_buf b = {0};
	uint32_t tid = w->id * 32 + lane;

	key_init(&k, bc, HK_UNINIT, space);
	key_site(&k, 0, bc, bc->block, tid, (uint32_t)(in - bc->L->mod->code),
		 AC_READ);
	if (report_again(bc, &k))
		return;
	simt_buf_printf(&b, "uninitialized: %s read of %u bytes ",
			space_word(space), n);
	site_where(&b, k.mod, k.pc[0]);
	simt_buf_printf(&b, " by block (%u,%u,%u) thread (%u,%u,%u): ",
			k.block[0][0], k.block[0][1], k.block[0][2],
			k.thread[0][0], k.thread[0][1], k.thread[0][2]);
	if (space == SP_SHARED)
		simt_buf_printf(&b, "offset %llu of the block's shared memory, "
				"not written by this block", (unsigned long long)off);
	else if (space == SP_LOCAL)
		simt_buf_printf(&b, "offset %llu of the thread's %llu bytes of "
				"local memory, not written by this thread: an array "
				"indexed at run time lives there, and on a GPU an "
				"element never given a value holds whatever was there "
				"before", (unsigned long long)off,
				(unsigned long long)size);
	else
		simt_buf_printf(&b, "%llu bytes into a %llu-byte allocation, "
				"never written", (unsigned long long)off,
				(unsigned long long)size);
	report(bc, &k, NULL, b.s);
	simt_buf_free(&b);
}

COLD void simt_hz_uninit_reg(struct block_ctx *bc, const struct warp *w,
			     unsigned lane, const struct simt_insn *in,
			     const char *reg)
{
	struct hz_report k;
	struct simt_buf b = {0};

	key_init(&k, bc, HK_UNINIT, SP_REG);
	key_site(&k, 0, bc, bc->block, w->id * 32 + lane,
		 (uint32_t)(in - bc->L->mod->code), AC_READ);
	if (report_again(bc, &k))
		return;
	simt_buf_printf(&b, "uninitialized: register %s read ", reg ? reg : "?");
	site_where(&b, k.mod, k.pc[0]);
	simt_buf_printf(&b, " by block (%u,%u,%u) thread (%u,%u,%u), which nothing "
			"wrote before: a variable used before it was given a value "
			"(a sum without `= 0`?); on a GPU it holds whatever the "
			"hardware register last held",
			k.block[0][0], k.block[0][1], k.block[0][2],
			k.thread[0][0], k.thread[0][1], k.thread[0][2]);
	report(bc, &k, NULL, b.s);
	simt_buf_free(&b);
}

HOT bool bits_all(const uint8_t *bits, uint64_t off, uint32_t n)
{
	uint32_t i;

	if (n == 4 && (off & 3) == 0) {
		uint8_t m = (uint8_t)(0xfu << (off & 4));

		return (bits[off >> 3] & m) == m;
	}
	if ((n == 8 || n == 16) && (off & (n - 1)) == 0)
		return bits[off >> 3] == 0xff && (n == 8 || bits[(off >> 3) + 1] == 0xff);
	for (i = 0; i < n; i++)
		if (!(bits[(off + i) >> 3] & (1u << ((off + i) & 7))))
			return false;
	return true;
}

HOT void bits_or(uint8_t *byte, uint8_t m, bool atomic)
{
	if (atomic)
		__atomic_fetch_or(byte, m, __ATOMIC_RELAXED);
	else
		*byte |= m;
}

HOT void bits_set(uint8_t *bits, uint64_t off, uint32_t n, bool atomic)
{
	uint32_t i;

	if (bits_all(bits, off, n))
		return;
	/* whole granules aligned to their size: a byte of bits at a time */
	if ((n == 4 || n == 8 || n == 16) && (off & (n - 1)) == 0) {
		bits_or(&bits[off >> 3], n == 4 ? (uint8_t)(0xfu << (off & 4)) : 0xff,
			atomic);
		if (n == 16)
			bits_or(&bits[(off >> 3) + 1], 0xff, atomic);
		return;
	}
	for (i = 0; i < n; i++) {
		uint8_t m = (uint8_t)(1u << ((off + i) & 7));

		if (atomic)
			__atomic_fetch_or(&bits[(off + i) >> 3], m, __ATOMIC_RELAXED);
		else
			bits[(off + i) >> 3] |= m;
	}
}

/* Whether none of the n bits from off is set. */
static bool bits_none(const uint8_t *bits, uint64_t off, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (bits[(off + i) >> 3] & (1u << ((off + i) & 7)))
			return false;
	return true;
}

/* A lane's access of local memory, at offset off of the block's local
 * bytes: a read of an element the thread never wrote a byte of is
 * reported, unless nothing uses the value it loads (mod->ld_quiet, see
 * mark_quiet_loads in undef.c).  An element some of whose bytes were
 * written is taken for part of a struct copied whole and let pass. */
static void local_access(struct block_ctx *bc, struct hz_block *hb,
			 const struct warp *w, unsigned lane,
			 const struct simt_insn *in, uint64_t off, uint32_t n,
			 int kind)
{
	const struct simt_module *mod = bc->L->mod;
	uint32_t per = bc->L->local_per_thread, pc = (uint32_t)(in - mod->code);
	uint32_t parts = 1, k;
	uint8_t quiet = 0;

	if (kind != HZ_READ) {
		bits_set(hb->linit, off, n, false);
		return;
	}
	if (in->op == OP_LD && in->vec > 1 && n % in->vec == 0)
		parts = in->vec;
	if (in->op == OP_LD && pc < mod->ncode_quiet)
		quiet = mod->ld_quiet[pc];
	for (k = 0; k < parts; k++) {
		uint32_t size = n / parts;

		if (!(k < 8 && (quiet >> k & 1)) &&
		    bits_none(hb->linit, off + k * size, size)) {
			report_uninit(bc, w, lane, in, SP_LOCAL, size,
				      (off + k * size) % per, per);
			return;
		}
	}
}

/* wh for the allocation that global address a lies in.  False, with wh
 * emptied, for memory without a shadow. */
static bool global_where(struct block_ctx *bc, uint64_t a, struct where *wh)
{
	struct alloc_cache *c = &bc->cache;
	const struct simt_alloc *al;
	int i;

	for (i = 0; i < 4; i++)
		if (a - c->lo[i] < c->size[i]) {
			wh->sh = c->shadow[i];
			wh->init = c->init[i];
			wh->lo = c->lo[i];
			wh->size = c->size[i];
			goto found;
		}
	al = simt_mem_find(a, 1);
	if (!al) {
		wh->sh = NULL;
	} else {
		wh->sh = al->shadow;
		wh->init = al->init;
		wh->lo = al->base;
		wh->size = al->size;
	}
found:
	if (!wh->sh) {
		wh->lo = wh->size = 0;
		return false;
	}
	wh->lines = lines_of(wh->sh, wh->size);
	return true;
}

static uint8_t flags_of(const struct simt_insn *in, int kind)
{
	uint8_t f = 0;

	if (kind == HZ_ATOMIC || (in->sem & MSEM_STRONG))
		f |= HZR_STRONG;
	if (kind == HZ_ATOMIC)
		f |= HZR_ATOMIC;
	if (in->sem & MSEM_CTA)
		f |= HZR_CTA;
	return f;
}


static inline void line_settle(const struct where *wh, uint64_t off,
			       uint32_t n, uint32_t base, uint32_t fence,
			       uint32_t clk, int kind);

/* One lane's access (see simt_hz_access). */
HOT void lane_access(struct block_ctx *bc, struct hz_block *hb,
			       struct where *wh, const struct warp *w,
			       unsigned lane, const struct simt_insn *in,
			       uint32_t pc, uint8_t flags, int kind, uint8_t *p,
			       uint32_t n, const uint8_t *val)
{
	uint32_t tid = w->id * 32 + lane;
	struct hz_word *sh;
	uint8_t *init;
	uint64_t off, size, g, gend;
	int space;
	bool strong = flags & HZR_STRONG;

	if ((uint64_t)(p - bc->shared) < bc->L->shared_size) {
		space = SP_SHARED;
		off = (uint64_t)(p - bc->shared);
		sh = hb->ssh;
		init = hb->sinit;
		size = bc->L->shared_size;
		if (kind != HZ_WRITE && off < hb->init_limit &&
		    !bits_all(init, off, n))
			report_uninit(bc, w, lane, in, SP_SHARED, n, off, size);
		if (kind != HZ_READ)
			bits_set(init, off, n, false);
	} else if ((uint64_t)(p - bc->local) < bc->local_cap) {
		local_access(bc, hb, w, lane, in, (uint64_t)(p - bc->local), n, kind);
		return;
	} else if (!hb->global_ok) {
		return;
	} else {
		uint64_t a = (uint64_t)(uintptr_t)p;

		if (a - wh->lo >= wh->size && !global_where(bc, a, wh))
			return;
		space = SP_GLOBAL;
		sh = wh->sh;
		init = wh->init;
		off = a - wh->lo;
		size = wh->size;
		line_settle(wh, off, n, bc->L->hz_base, hb->fence, hb->t[tid].clk,
			    kind == HZ_READ ? HZ_READ : HZ_WRITE);
		if (init) {
			if (kind != HZ_WRITE && !bits_all(init, off, n))
				report_uninit(bc, w, lane, in, SP_GLOBAL, n, off, size);
			if (kind != HZ_READ)
				bits_set(init, off, n, true);
		}
	}
	if (strong && kind != HZ_READ)
		sync_strong(hb, tid, in, space == SP_SHARED,
			    space == SP_SHARED ? off : (uint64_t)(uintptr_t)p,
			    kind, false);
	g = off >> 2;
	gend = (off + n - 1) >> 2;
	if (g == gend) {
		granule(bc, &sh[g], space, tid, pc,
			(uint8_t)(((1u << n) - 1) << (off & 3)), flags, kind, p, val, n,
			space == SP_GLOBAL ? wh : NULL);
	} else {
		for (; g <= gend; g++) {
			uint64_t lo = g * 4 > off ? g * 4 : off;
			uint64_t hi = g * 4 + 4 < off + n ? g * 4 + 4 : off + n;
			uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo & 3));

			granule(bc, &sh[g], space, tid, pc, mask, flags, kind,
				p + (lo - off), val ? val + (lo - off) : NULL,
				(uint32_t)(hi - lo), space == SP_GLOBAL ? wh : NULL);
		}
	}
	if (strong && kind == HZ_READ)
		sync_strong(hb, tid, in, space == SP_SHARED,
			    space == SP_SHARED ? off : (uint64_t)(uintptr_t)p,
			    kind, true);
}

void simt_hz_access(struct block_ctx *bc, const struct warp *w, unsigned lane,
		    const struct simt_insn *in, uint8_t *p, uint32_t n,
		    int kind, const uint8_t *val)
{
	struct where wh = {0};
	uint8_t flags;

	if (bc->hz->q.on && ((kind != HZ_READ && kind != HZ_WRITE) || flags_of(in, kind) ||
			      (uint64_t)(p - bc->shared) < bc->L->shared_size))
		quiet_end(bc->hz, bc->L->hz_base);
	if (kind == HZ_WRITE_COLL) {
		kind = HZ_WRITE;
		flags = (uint8_t)(flags_of(in, kind) | HZR_COLL);
	} else {
		flags = flags_of(in, kind);
	}
	lane_access(bc, bc->hz, &wh, w, lane, in,
		    (uint32_t)(in - bc->L->mod->code), flags, kind, p, n, val);
}


/* The read record of a granule after a plain whole-granule read by
 * thread tid at clock clk whose write record is ordered before it: the read replaces a record
 * that is stale, ordered before it or of fewer bytes; an earlier read of
 * the whole granule that it does not know of stays. */
HOT void note_read(struct hz_block *hb, struct hz_word *wd, uint32_t clk,
		   uint32_t tid, uint32_t pc, uint32_t base, bool shared,
		   const struct where *wh)
{
	const struct hz_rec *r = &wd->r;
	uint32_t blk = hb->block;

	if (r->clk <= base || (shared && r->block != blk)) {
		rec_put_plain(&wd->r, blk, clk, tid, pc);
	} else if ((r->block == blk && r->tid == tid) || ordered(hb, tid, r)) {
		if (r->clk != clk || r->block != blk || r->tid != tid)
			drop_second(hb, wd, tid, wh, base, shared);
		if (r->clk != clk || r->pc != pc || r->mask != 0xf || r->flags ||
		    r->block != blk || r->tid != tid)
			rec_put_plain(&wd->r, blk, clk, tid, pc);
	} else {
		/* note_second, its usual outcomes first without building the
		 * record: another thread's read kept, or this very read */
		const struct hz_rec *q = &wd->r2;

		second_line(hb, wd, wh, base);
		if (rec_live(q, base, shared, blk)) {
			if (q->block != blk || q->tid != tid) {
				if (r->mask != 0xf)
					rec_put_plain(&wd->r, blk, clk, tid, pc);
				return;
			}
			if (q->clk == clk && q->pc == pc && q->mask == 0xf && !q->flags)
				return;
		}
		{
			struct hz_rec me = {blk, clk, (uint16_t)tid, 0, 0xf, pc};

			if (note_second(hb, wd, &me, wh, base, shared) < 0 &&
			    r->mask != 0xf)
				rec_put_plain(&wd->r, blk, clk, tid, pc);
		}
	}
}

/* The commonest access, a plain aligned 4-byte read of a granule whose
 * write record is stale or ordered before it: only the read record may
 * change.  False when the full check is needed (a possible race). */
HOT bool read4(struct hz_block *hb, struct hz_word *wd, uint32_t tid,
	       uint32_t pc, uint32_t base, const struct where *wh)
{
	bool shared = !wh;
	uint32_t blk = hb->block;
	const struct hz_rec *w = &wd->w;

	if (w->clk > base && (!shared || w->block == blk)) {
		if (w->block != blk || (w->flags & HZR_ASYNC))
			return false;
		if (w->tid != tid && !((w->flags & HZR_COLL) && (w->tid >> 5) == (tid >> 5)) &&
		    knows(hb, tid, w->tid) < w->clk)
			return false;
	} else if (!shared && w->clk > hb->fence && !ok_clock(hb, w->clk)) {
		return false;           /* another stream's, maybe unordered */
	}
	note_read(hb, wd, hb->t[tid].clk, tid, pc, base, shared, wh);
	return true;
}

/* read4 for each granule of an aligned plain read of n bytes (4, 8 or
 * 16).  A granule that needs the full check stops it; those before it
 * are then checked again the full way, which finds them as read4 left
 * them (no race, the read recorded) and changes nothing. */
HOT bool reads4(struct hz_block *hb, struct hz_word *wd, uint32_t n,
		uint32_t tid, uint32_t pc, uint32_t base, const struct where *wh)
{
	uint32_t g;

	for (g = 0; g < n / 4; g++)
		if (!read4(hb, wd + g, tid, pc, base, wh))
			return false;
	return true;
}

/* Whether the record r (of this launch) is ordered before an access by
 * thread tid that is not strong, as far as a fast path can tell: false
 * when the full check is needed. */
HOT bool fast_ordered(struct hz_block *hb, const struct hz_rec *r, uint32_t tid,
		      uint32_t base, bool shared)
{
	if (r->clk <= base)
		return shared || r->clk <= hb->fence || ok_clock(hb, r->clk);
	if (shared && r->block != hb->block)
		return true;
	if (r->block != hb->block || (r->flags & HZR_ASYNC))
		return false;
	return r->tid == tid || ((r->flags & HZR_COLL) && (r->tid >> 5) == (tid >> 5)) ||
	       knows(hb, tid, r->tid) >= r->clk;
}

/* A plain aligned 4-byte write of a granule whose records are stale or
 * ordered before it.  False when the full check is needed. */
HOT bool write4(struct hz_block *hb, struct hz_word *wd, uint32_t tid,
		uint32_t pc, uint32_t base, bool shared)
{
	if (!fast_ordered(hb, &wd->w, tid, base, shared) ||
	    !fast_ordered(hb, &wd->r, tid, base, shared) ||
	    ((!shared || hb->sr2) && rec_live(&wd->r2, base, shared, hb->block) &&
	     !fast_ordered(hb, &wd->r2, tid, base, shared)))
		return false;
	rec_put_plain(&wd->w, hb->block, hb->t[tid].clk, tid, pc);
	return true;
}

/* write4 for each granule of an aligned plain write of n bytes (4, 8 or
 * 16); as in reads4, a granule that needs the full check leaves those
 * before it as the full check would leave them. */
HOT bool writes4_at(struct hz_block *hb, struct hz_word *wd, uint32_t n,
		    uint32_t tid, uint32_t pc, uint32_t base, bool shared)
{
	uint32_t g;

	for (g = 0; g < n / 4; g++)
		if (!write4(hb, wd + g, tid, pc, base, shared))
			return false;
	return true;
}

/* ---- the line layer ----
 *
 * A streaming kernel touches each line of an array with one warp
 * instruction, and its 32 granules' records are 1 KiB of shadow for 128
 * bytes of data: moving them costs more than the kernel's own work.  So
 * each of a line's three records (w for its granules' write records, r
 * and r2 for their first and second read records) is either
 *   - a line record (HZR_LINE): granule g's record is the line record
 *     with thread tid + g / per, where per, the granules of one lane, is
 *     kept in mask (1, 2 or 4); all four bytes, plain.  The granules' own
 *     records are not looked at;
 *   - or not: the granules' records hold the truth, and when the line's
 *     record has a clock of an earlier launch, none of them is of this
 *     launch and none needs reading.  (r2 is marked when a granule's
 *     second read is written, not when the line is read: a line most
 *     kernels write after reading it has none.)
 * A plain access by one run of lanes that covers a whole line, each lane
 * at the same clock, is checked and recorded at the line's level when
 * that settles it (line_access).  Every other access of a line first
 * "settles" it: a line record of this launch is copied out into the 32
 * granules' records, and the line is marked as holding records of this
 * launch (line_settle).
 *
 * Concurrency: as for granules, records are copied whole.  Two blocks
 * that touch one line at once in a program without a race can only both
 * read it (a write of the whole line conflicts with any other access of
 * it), and then what may be lost is a read record, as two concurrent
 * reads of one granule may lose one. */

/* Granule g's record, when line record h stands for it. */
static inline uint32_t line_tid(const struct hz_rec *h, uint32_t g)
{
	return h->tid + (g >> (h->mask >> 1));
}

/* Copies line record h out into the line's granule records fw. */
__attribute__((noinline)) static void line_expand(const struct hz_rec *h,
						  struct hz_word *fw, int k)
{
	uint32_t g;

	for (g = 0; g < LINE_GRAN; g++)
		rec_put(rec_of(&fw[g], k), h->block, h->clk, line_tid(h, g),
			h->flags & ~HZR_LINE, 0xf, h->pc);
}

/* Makes a line's record *hp (w or r) one that leaves the truth to the
 * granule records fw, marked as of this launch when mark (a clock of this
 * launch, above base) is given. */
HOT void settle_rec(struct hz_rec *hp, struct hz_word *fw, int k,
		    uint32_t base, uint32_t fence, uint32_t mark)
{
	struct hz_rec h;

	rec_load(&h, hp);
	if (!(h.flags & HZR_LINE)) {
		if (mark && h.clk <= base)
			rec_put(hp, 0, mark, 0, 0, 0, 0);
		return;
	}
	/* a line record of this launch, or of another stream's operation
	 * that may not be ordered before it, is kept in the granules */
	if (h.clk > fence) {
		line_expand(&h, fw, k);
		if (h.clk > base || !mark)
			mark = h.clk;
	}
	rec_put(hp, 0, mark, 0, 0, 0, 0);
}

/* Settles the lines that n bytes at offset off of an allocation touch,
 * before an access of kind `kind` by a thread at clock clk looks at or
 * changes their granule records. */
HOT void line_settle(const struct where *wh, uint64_t off, uint32_t n,
		     uint32_t base, uint32_t fence, uint32_t clk, int kind)
{
	uint64_t li = off / LINE_BYTES, le = (off + n - 1) / LINE_BYTES;

	for (; li <= le; li++) {
		struct hz_line *hl = &wh->lines[li];
		struct hz_word *fw = &wh->sh[li * LINE_GRAN];

		settle_rec(&hl->w, fw, RK_W, base, fence, kind != HZ_READ ? clk : 0);
		settle_rec(&hl->r, fw, RK_R, base, fence, kind == HZ_READ ? clk : 0);
		/* marked only when a granule's second read is written; a read
		 * settles it in note_second, if it gets there */
		if (kind != HZ_READ)
			settle_rec(&hl->r2, fw, RK_R2, base, fence, 0);
	}
}

/* How many granules of a line have their record of one kind (line
 * record h, granule records fw) ordered before a plain access by lanes
 * tid0 + g / per (granule g), or of an earlier launch: as granule() and
 * note_read judge them one by one. */
HOT uint32_t line_ordered(struct hz_block *hb, const struct hz_rec *h,
			  struct hz_word *fw, int k, uint32_t tid0,
			  uint32_t per, uint32_t base)
{
	uint32_t g, n = 0, ps = per >> 1;

	/* second reads count in their own launch only (see granule) */
	if (h->clk <= base && k == RK_R2)
		return LINE_GRAN;
	if (h->clk <= base) {
		/* a line record of another stream's operation found ordered
		 * stands for its granules; any other record's granules may be
		 * of several operations */
		return h->clk <= hb->fence ||
		       ((h->flags & HZR_LINE) && ok_clock(hb, h->clk)) ? LINE_GRAN : 0;
	}
	if (!(h->flags & HZR_LINE)) {
		for (g = 0; g < LINE_GRAN; g++) {
			const struct hz_rec *r = rec_of(&fw[g], k);

			n += r->clk <= base ? k == RK_R2 || r->clk <= hb->fence ||
					      ok_clock(hb, r->clk)
					    : ordered(hb, tid0 + (g >> ps), r);
		}
		return n;
	}
	if (h->block == hb->block && h->tid == tid0 && h->mask == per)
		return LINE_GRAN;       /* the same lanes' own accesses */
	if (h->block != hb->block) {
		/* another block's: what the lanes know of it, found once when
		 * they know the same (nothing, most often) */
		const struct hz_gvc *xk = hb->t[tid0].xk;
		const struct hz_vc *v;
		uint32_t j;

		if (!hb->cold)
			return 0;       /* no thread knows anything of another block */
		for (j = 1; j < LINE_GRAN / per && hb->t[tid0 + j].xk == xk; j++)
			;
		if (j == LINE_GRAN / per) {
			if (!(v = gvc_find(xk, h->block)))
				return 0;
			for (g = 0; g < LINE_GRAN; g++)
				n += v->c[line_tid(h, g)] >= h->clk;
			return n;
		}
	}
	for (g = 0; g < LINE_GRAN; g++) {
		struct hz_rec e = *h;

		e.tid = (uint16_t)line_tid(h, g);
		e.flags = 0;
		e.mask = 0xf;
		n += ordered(hb, tid0 + (g >> ps), &e);
	}
	return n;
}

/* Whether the lanes that cover a line are at one clock, clk: known at
 * once while every thread of the warp is (hb->wclk), which holds from the
 * start of a block to a thread's first release, and again once looked
 * at after every thread of the warp has passed a barrier. */
HOT bool line_clock(struct hz_block *hb, uint32_t tid0, uint32_t per,
		    uint32_t clk)
{
	uint32_t k, w0 = tid0 & ~31u, end = hb->n - w0 < 32 ? hb->n - w0 : 32;

	if (hb->wclk[tid0 >> 5] == clk)
		return true;
	for (k = 0; k < end && hb->t[w0 + k].clk == clk; k++)
		;
	if (k == end) {
		hb->wclk[tid0 >> 5] = clk;
		return true;
	}
	for (k = 1; k < LINE_GRAN / per; k++)
		if (hb->t[tid0 + k].clk != clk)
			return false;
	return true;
}

/* A plain read or write of a whole line li by lanes tid0 + g / per
 * (granule g), checked and recorded at the line's level.  False, with
 * nothing changed, when some granule needs the full check (a possible
 * race), or a write's lanes are at different clocks. */
HOT bool line_access(struct hz_block *hb, const struct where *wh, uint64_t li,
		     uint32_t tid0, uint32_t per, uint32_t pc, uint32_t base,
		     int kind)
{
	struct hz_line *hl = &wh->lines[li];
	struct hz_word *fw = &wh->sh[li * LINE_GRAN];
	struct hz_rec w, r, r2;
	uint32_t clk = hb->t[tid0].clk, n, g, blk = hb->block;

	rec_load(&w, &hl->w);
	if (line_ordered(hb, &w, fw, RK_W, tid0, per, base) != LINE_GRAN)
		return false;
	rec_load(&r, &hl->r);
	if (kind != HZ_READ) {
		if (line_ordered(hb, &r, fw, RK_R, tid0, per, base) != LINE_GRAN ||
		    (hl->r2.clk > base &&
		     line_ordered(hb, &hl->r2, fw, RK_R2, tid0, per, base) != LINE_GRAN) ||
		    !line_clock(hb, tid0, per, clk))
			return false;
		rec_put(&hl->w, blk, clk, tid0, HZR_LINE, per, pc);
		return true;
	}
	/* The read record: each earlier read this one is ordered after is
	 * replaced, the others stay (see note_read). */
	n = r.clk <= base ? LINE_GRAN
	    : (r.flags & HZR_LINE) ? line_ordered(hb, &r, fw, RK_R, tid0, per, base)
	    : 0;
	if (n == 0 && (r.flags & HZR_LINE)) {
		/* an unordered read of the line stays; this one becomes the
		 * line's second read when that holds nothing of this launch
		 * or these lanes' own earlier read (as note_second does
		 * granule by granule), and is left out otherwise */
		rec_load(&r2, &hl->r2);
		if ((r2.clk <= base ||
		     ((r2.flags & HZR_LINE) && r2.block == blk && r2.tid == tid0 &&
		      r2.mask == per && (r2.clk != clk || r2.pc != pc))) &&
		    line_clock(hb, tid0, per, clk))
			rec_put(&hl->r2, blk, clk, tid0, HZR_LINE, per, pc);
		return true;
	}
	if (n == LINE_GRAN && line_clock(hb, tid0, per, clk)) {
		if (!(r.flags & HZR_LINE) || r.clk != clk || r.block != blk ||
		    r.tid != tid0 || r.mask != per || r.pc != pc)
			rec_put(&hl->r, blk, clk, tid0, HZR_LINE, per, pc);
		/* a second read of the line that these lanes are ordered
		 * after is dropped, as drop_second does for a granule */
		rec_load(&r2, &hl->r2);
		if ((r2.flags & HZR_LINE) && r2.clk > base &&
		    line_ordered(hb, &r2, fw, RK_R2, tid0, per, base) == LINE_GRAN)
			rec_put(&hl->r2, 0, 0, 0, 0, 0, 0);
		return true;
	}
	settle_rec(&hl->r, fw, RK_R, base, hb->fence, clk);
	settle_rec(&hl->r2, fw, RK_R2, base, hb->fence, 0);
	for (g = 0; g < LINE_GRAN; g++) {
		uint32_t tid = tid0 + g / per;

		note_read(hb, &fw[g], hb->t[tid].clk, tid, pc, base, false, wh);
	}
	return true;
}

/* A plain aligned run of ng granules from offset off of a global
 * allocation, granule g by thread tid0 + g / per: whole lines at the
 * line's level where they can be, the rest granule by granule.  Returns
 * the granules done, from the first (ng: all). */
HOT uint32_t global_run(struct hz_block *hb, const struct where *wh,
			uint64_t off, uint32_t ng, uint32_t per, uint32_t tid0,
			uint32_t pc, uint32_t base, int kind)
{
	uint32_t g = 0;

	while (g < ng) {
		uint64_t goff = off + (uint64_t)g * 4, li = goff / LINE_BYTES;
		uint32_t at = (uint32_t)(goff / 4 % LINE_GRAN), e;

		if (at == 0 && ng - g >= LINE_GRAN && g % per == 0 &&
		    line_access(hb, wh, li, tid0 + g / per, per, pc, base, kind)) {
			g += LINE_GRAN;
			continue;
		}
		e = g + (LINE_GRAN - at < ng - g ? LINE_GRAN - at : ng - g);
		line_settle(wh, goff, 4, base, hb->fence, hb->t[tid0 + g / per].clk,
			    kind);
		for (; g < e; g++)
			if (kind == HZ_READ
			    ? !read4(hb, &wh->sh[off / 4 + g], tid0 + g / per, pc, base, wh)
			    : !write4(hb, &wh->sh[off / 4 + g], tid0 + g / per, pc, base, false))
				return g;
	}
	return g;
}

/* Plain aligned writes of 4, 8 or 16 bytes to distinct words, lane by
 * lane, until one needs the full check; returns the lanes left. */
HOT uint32_t writes4(struct block_ctx *bc, struct hz_block *hb,
			struct where *wh, const struct warp *w, uint32_t lanes,
		     uint8_t *const *ptr, uint32_t n, uint32_t pc)
{
	uint32_t base = bc->L->hz_base;
	uint64_t ssize = bc->L->shared_size;

	while (lanes) {
		unsigned l = (unsigned)__builtin_ctz(lanes);
		uint8_t *p = ptr[l];
		uint64_t off = (uint64_t)(p - bc->shared), a = (uint64_t)(uintptr_t)p;

		if (off < ssize && !(off & 3)) {
			if (!writes4_at(hb, &hb->ssh[off >> 2], n, w->id * 32 + l, pc,
					base, true))
				break;
			bits_set(hb->sinit, off, n, false);
		} else if (off >= ssize && hb->global_ok && !(a & 3) &&
			   (uint64_t)(p - bc->local) >= bc->local_cap &&
			   (a - wh->lo < wh->size || global_where(bc, a, wh))) {
			off = a - wh->lo;
			line_settle(wh, off, n, base, hb->fence,
				    hb->t[w->id * 32 + l].clk, HZ_WRITE);
			if (!writes4_at(hb, &wh->sh[off >> 2], n, w->id * 32 + l, pc,
					base, false))
				break;
			if (wh->init)
				bits_set(wh->init, off, n, true);
		} else {
			break;
		}
		lanes &= lanes - 1;
	}
	return lanes;
}


/* Plain aligned reads of n bytes (4, 8 or 16), lane by lane, until one
 * needs the full check (a new allocation, local memory, an unwritten or
 * racing granule); returns the lanes left. */
HOT uint32_t fast_reads(struct block_ctx *bc, struct hz_block *hb,
			struct where *wh, const struct warp *w, uint32_t lanes,
			uint8_t *const *ptr, uint32_t n, uint32_t pc)
{
	uint32_t base = bc->L->hz_base;
	uint64_t ssize = bc->L->shared_size;
	const struct hz_thread *prev = NULL;
	const uint8_t *prev_p = NULL;
	/* lanes of a warp without __syncwarp knowledge of their own know the
	 * same when they share a snapshot */
	bool same_ok = !hb->Lon[w->id];

	while (lanes) {
		unsigned l = (unsigned)__builtin_ctz(lanes);
		uint8_t *p = ptr[l];
		uint64_t off = (uint64_t)(p - bc->shared), a = (uint64_t)(uintptr_t)p;
		const struct hz_thread *t = &hb->t[w->id * 32 + l];

		uint32_t rest = lanes & (lanes - 1);

		if (p == prev_p && same_ok && t->snap == prev->snap && t->xk == prev->xk) {
			/* a broadcast read: what held for the lane before holds
			 * for this one, and the first record stays.  The last
			 * lane of the run is kept as the second read, so that
			 * a write by the first is checked against it */
			if (!rest || ptr[__builtin_ctz(rest)] != p)
				note_bcast(hb, off < ssize ? &hb->ssh[off >> 2]
							   : &wh->sh[(a - wh->lo) >> 2],
					   n, w->id * 32 + l, pc, off < ssize ? NULL : wh,
					   base);
			lanes = rest;
			continue;
		}
		if (off < ssize && !(off & 3)) {
			if ((off < hb->init_limit && !bits_all(hb->sinit, off, n)) ||
			    !reads4(hb, &hb->ssh[off >> 2], n, w->id * 32 + l, pc, base,
				    NULL))
				break;
		} else if (off >= ssize && hb->global_ok && !(a & 3) &&
			   (uint64_t)(p - bc->local) >= bc->local_cap &&
			   (a - wh->lo < wh->size || global_where(bc, a, wh))) {
			off = a - wh->lo;
			if (wh->init && !bits_all(wh->init, off, n))
				break;
			line_settle(wh, off, n, base, hb->fence, t->clk, HZ_READ);
			if (!reads4(hb, &wh->sh[off >> 2], n, w->id * 32 + l, pc, base,
				    wh))
				break;
		} else {
			break;
		}
		prev = t;
		prev_p = p;
		lanes &= lanes - 1;
	}
	return lanes;
}

/* Sets the n bits from off: whole bytes by a store of all ones (bits are
 * only ever set, so a byte whose every bit is ours cannot lose another
 * thread's), the ends bit by bit. */
static void bits_set_span(uint8_t *bits, uint64_t off, uint64_t n, bool atomic)
{
	uint64_t end = off + n;

	for (; off < end && (off & 7); off++)
		bits_or(&bits[off >> 3], (uint8_t)(1u << (off & 7)), atomic);
	for (; off + 8 <= end && (off & 63); off += 8) {
		if (atomic)
			__atomic_store_n(&bits[off >> 3], 0xff, __ATOMIC_RELAXED);
		else
			bits[off >> 3] = 0xff;
	}
	/* 64 bytes' bits at a time, aligned (the bits start page- or
	 * malloc-aligned) */
	for (; off + 64 <= end; off += 64) {
		uint64_t *q = (uint64_t *)(void *)&bits[off >> 3];

		if (atomic)
			__atomic_store_n(q, UINT64_MAX, __ATOMIC_RELAXED);
		else
			*q = UINT64_MAX;
	}
	for (; off + 8 <= end; off += 8) {
		if (atomic)
			__atomic_store_n(&bits[off >> 3], 0xff, __ATOMIC_RELAXED);
		else
			bits[off >> 3] = 0xff;
	}
	for (; off < end; off++)
		bits_or(&bits[off >> 3], (uint8_t)(1u << (off & 7)), atomic);
}

/* Whether the n bits from off are all set: the partial bytes at the ends
 * by a mask, the whole ones between a word at a time. */
static bool span_all(const uint8_t *bits, uint64_t off, uint64_t n)
{
	uint64_t end = off + n, x;
	uint8_t m;

	if (off & 7) {
		uint64_t stop = (off | 7) + 1 < end ? (off | 7) + 1 : end;

		m = (uint8_t)(((1u << (stop - off)) - 1) << (off & 7));
		if ((bits[off >> 3] & m) != m)
			return false;
		off = stop;
	}
	for (; off + 64 <= end; off += 64) {
		memcpy(&x, bits + (off >> 3), 8);
		if (x != UINT64_MAX)
			return false;
	}
	for (; off + 8 <= end; off += 8)
		if (bits[off >> 3] != 0xff)
			return false;
	if (off < end) {
		m = (uint8_t)((1u << (end - off)) - 1);
		if ((bits[off >> 3] & m) != m)
			return false;
	}
	return true;
}

/* ---- quiet intervals ---- */

/* At the start of a block, and after a barrier that every live thread of
 * the block passed with no cp.async copy outstanding, every shared-memory
 * access recorded so far happens before whatever follows.  Until
 * something else happens (a write, an atomic, a strong access, a fence,
 * __syncwarp, an mbarrier operation, a barrier that does not wait or
 * does not gather the whole block) no thread's clock or knowledge
 * changes except by arriving at a barrier, so a plain shared read cannot
 * race with any write.  Such reads are only logged, a warp instruction
 * at a time.  When the interval ends at the next full barrier, which
 * orders them before everything after it, the log is dropped; when it
 * ends otherwise, the log is replayed into the read records the per-lane
 * check would have left. */

static void quiet_begin(struct hz_block *hb)
{
	hb->q.on = true;
	/* nothing writes shared memory while it lasts, so if every byte has
	 * been written, no read in it needs to look */
	hb->q.all_init = span_all(hb->sinit, 0, hb->init_limit);
	slog_clear(hb);
	memset(hb->arrived, 0, hb->nwarps * sizeof *hb->arrived);
}

/* The logged reads as read records, in the order they were made, each
 * with the clock its thread had then (one less than now for a thread
 * that has since arrived at a barrier). */
/* The clock lane l of logged read e had when it read (one less than
 * now for a thread that has since arrived at a barrier). */
static inline uint32_t slog_clk(const struct hz_block *hb,
				const struct hz_slog *e, uint32_t l)
{
	return hb->t[e->warp * 32u + l].clk - (hb->arrived[e->warp] >> l & 1);
}

static void slog_replay(struct hz_block *hb, uint32_t base)
{
	uint32_t i;

	for (i = 0; i < hb->q.n; i++) {
		const struct hz_slog *e = &hb->q.log[i];
		uint32_t lanes = e->lanes;

		while (lanes) {
			uint32_t l = (uint32_t)__builtin_ctz(lanes), tid = e->warp * 32u + l, g;
			uint32_t off = e->lined ? e->off + l * e->step : hb->soff[e->off][l];
			uint32_t clk = slog_clk(hb, e, l), rest = lanes & (lanes - 1);

			lanes = rest;
			/* inside a broadcast (the lanes before and after it read
			 * the same word at the same clock) a lane leaves no record
			 * its neighbours do not: the first of the run and the last
			 * are recorded, as in fast_reads */
			if (!e->lined && rest && l && (e->lanes >> (l - 1) & 1)) {
				uint32_t n = (uint32_t)__builtin_ctz(rest);

				if (n == l + 1 && hb->soff[e->off][l - 1] == off &&
				    hb->soff[e->off][n] == off &&
				    slog_clk(hb, e, l - 1) == clk && slog_clk(hb, e, n) == clk)
					continue;
			}
			for (g = off >> 2; g < (off + e->n) >> 2; g++)
				note_read(hb, &hb->ssh[g], clk, tid, e->pc, base, true, NULL);
		}
	}
}

/* Ends a quiet interval other than at a full barrier. */
static void quiet_end(struct hz_block *hb, uint32_t base)
{
	if (!hb->q.on)
		return;
	slog_replay(hb, base);
	slog_clear(hb);
	hb->q.on = false;
}

/* Logs a plain read by a whole warp in a quiet interval whose lanes lie
 * in a line, lane l at p0 + l * step: one small record, the span checked
 * at once.  False when it must be checked lane by lane. */
HOT bool quiet_line(struct block_ctx *bc, struct hz_block *hb,
		    const struct warp *w, const uint8_t *p0, uint32_t n,
		    uint32_t step, uint32_t pc)
{
	uint64_t ssize = bc->L->shared_size;
	uint64_t limit = hb->q.all_init ? 0 : hb->init_limit;
	uint64_t off = (uint64_t)(p0 - bc->shared), span = 31ull * step + n;

	if (hb->q.n == SLOG_MAX || (n != 4 && n != 8 && n != 16) ||
	    off >= ssize || ssize - off < span || (off & 3) || (step & 3) ||
	    (off < limit && !bits_all(hb->sinit, off, (uint32_t)span)))
		return false;
	simt_hz_log_put_line(&hb->q, pc, w->id, n, step, (uint32_t)off);
	return true;
}

/* Logs a plain warp read of shared memory in a quiet interval.  True
 * when every lane's address is 4-aligned and inside shared memory and
 * every byte read was written; otherwise the read goes the checked way
 * (which also reports an unwritten byte). */
HOT bool quiet_read(struct block_ctx *bc, struct hz_block *hb,
		    const struct warp *w, uint32_t lanes, uint8_t *const *ptr,
		    uint32_t n, int step, uint32_t pc)
{
	uint64_t ssize = bc->L->shared_size, limit = hb->init_limit;
	const uint8_t *prev = NULL;
	struct hz_slog *e;
	uint32_t m, *offs;

	if (n != 4 && n != 8 && n != 16)
		return false;
	if (hb->q.n == SLOG_MAX) {
		/* the records the log stands for, made now; the interval goes on */
		slog_replay(hb, bc->L->hz_base);
		slog_clear(hb);
	}
	if (step >= 0)  /* only ptr[0] is there */
		return lanes == UINT32_MAX &&
		       quiet_line(bc, hb, w, ptr[0], n, (uint32_t)step, pc);
	e = &hb->q.log[hb->q.n];
	offs = hb->soff[hb->nsoff];
	if (hb->q.all_init)
		limit = 0;
	m = lanes;
	if (lanes == UINT32_MAX && !limit && ssize >= n) {
		/* a whole warp with nothing to look up: one loop without
		 * branches, which the compiler vectorises */
		uint64_t bad = 0, last = ssize - n;
		unsigned l;

		for (l = 0; l < 32; l++) {
			uint64_t off = (uint64_t)(ptr[l] - bc->shared);

			bad |= (uint64_t)(off > last) | (off & 3);
			offs[l] = (uint32_t)off;
		}
		if (bad)
			return false;
		m = 0;
	}
	for (; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint64_t off = (uint64_t)(ptr[l] - bc->shared);

		if (ptr[l] != prev) {
			if (off >= ssize || ssize - off < n || (off & 3) ||
			    (off < limit && !bits_all(hb->sinit, off, n)))
				return false;
			prev = ptr[l];
		}
		offs[l] = (uint32_t)off;
	}
	e->lined = false;
	e->off = hb->nsoff++;
	e->pc = pc;
	e->lanes = lanes;
	e->warp = (uint16_t)w->id;
	e->n = (uint8_t)n;
	hb->q.n++;
	return true;
}

bool simt_hz_quiet_line(struct block_ctx *bc, const struct warp *w,
			const struct simt_insn *in, uint8_t *p0, uint32_t n,
			uint32_t step)
{
	struct hz_block *hb = bc->hz;

	return hb->q.on && !flags_of(in, HZ_READ) &&
	       quiet_line(bc, hb, w, p0, n, step,
			  (uint32_t)(in - bc->L->mod->code));
}

/* Whether any of the lanes' addresses lies in shared memory. */
static bool any_shared(const struct block_ctx *bc, uint32_t lanes,
		       uint8_t *const *ptr)
{
	uint64_t ssize = bc->L->shared_size;
	const uint8_t *s = bc->shared;
	bool any = false;
	unsigned l;

	if (!ssize)
		return false;
	if (lanes == UINT32_MAX) {
		for (l = 0; l < 32; l++)
			any |= (uint64_t)(ptr[l] - s) < ssize;
		return any;
	}
	for (; lanes; lanes &= lanes - 1)
		if ((uint64_t)(ptr[__builtin_ctz(lanes)] - s) < ssize)
			return true;
	return false;
}


/* Whether shared-memory record r leaves a plain access by thread tid
 * free to go on and be recorded: it is stale (an earlier launch, or
 * another block) or the thread's own synchronous access. */
HOT bool rec_free(const struct hz_rec *r, uint32_t blk, uint32_t tid,
		  uint32_t base)
{
	return r->clk <= base || r->block != blk ||
	       (r->tid == tid && !(r->flags & HZR_ASYNC));
}

/* A run of ng granules of shared memory whose records all leave the
 * access free (as a kernel streams through a tile): recorded in one
 * loop, as read4 or write4 would record it granule by granule.  False,
 * with nothing changed, when some granule needs their checks. */
HOT bool own_run(struct hz_block *hb, struct hz_word *wd, uint32_t ng,
		 uint32_t per, uint32_t tid0, uint32_t pc, uint32_t base,
		 int kind)
{
	uint32_t blk = hb->block, g;

	for (g = 0; g < ng; g++)
		if (!rec_free(&wd[g].w, blk, tid0 + g / per, base) ||
		    !rec_free(&wd[g].r, blk, tid0 + g / per, base) ||
		    (kind != HZ_READ && hb->sr2 &&
		     !rec_free(&wd[g].r2, blk, tid0 + g / per, base)))
			return false;
	for (g = 0; g < ng; g++) {
		uint32_t tid = tid0 + g / per;

		rec_put_plain(kind == HZ_READ ? &wd[g].r : &wd[g].w, blk,
			      hb->t[tid].clk, tid, pc);
	}
	return true;
}

/* A coalesced access: the lanes, one unbroken run of them, touch
 * consecutive n-byte pieces of one region (shared memory, or one global
 * allocation with a shadow) from a 4-aligned address.  The region and
 * the initialised bytes are then checked once for the whole run; in
 * shared memory the granules go through own_run or read4/write4 with the
 * lane each belongs to, in global memory through global_run.
 * Returns the lanes left for the other paths: all of them when the
 * access is not of this shape, else those from the first granule that
 * needs the full check (granules of it already done are found again as
 * read4/write4 left them). */
HOT uint32_t run_access(struct block_ctx *bc, struct hz_block *hb,
			struct where *wh, const struct warp *w, uint32_t lanes,
			uint8_t *const *ptr, uint32_t n, int kind, uint32_t pc,
			bool line)
{
	unsigned f, l;
	uint32_t run, cnt, g, ng, per = n / 4, base = bc->L->hz_base, tid0;
	uint8_t *p0;
	uint64_t off, a, len;
	struct hz_word *wd;
	bool shared;

	if (!lanes)
		return 0;
	f = (unsigned)__builtin_ctz(lanes);
	tid0 = w->id * 32 + f;
	p0 = ptr[f];
	off = (uint64_t)(p0 - bc->shared);
	a = (uint64_t)(uintptr_t)p0;
	run = lanes >> f;
	if (run & (run + 1))
		return lanes;           /* not one unbroken run */
	cnt = run == UINT32_MAX ? 32 : (uint32_t)__builtin_ctz(~run);
	if (cnt < 4)
		return lanes;
	for (l = 1; l < cnt && !line; l++)
		if (ptr[f + l] != p0 + (size_t)l * n)
			return lanes;
	len = (uint64_t)cnt * n;
	if (off < bc->L->shared_size) {
		if ((off & 3) || off + len > bc->L->shared_size)
			return lanes;
		shared = true;
		wd = &hb->ssh[off >> 2];
		if (kind == HZ_READ && off < hb->init_limit &&
		    !span_all(hb->sinit, off, len))
			return lanes;
	} else {
		if (!hb->global_ok || (a & 3) ||
		    (uint64_t)(p0 - bc->local) < bc->local_cap ||
		    !(a - wh->lo < wh->size || global_where(bc, a, wh)))
			return lanes;
		off = a - wh->lo;
		if (off + len > wh->size)
			return lanes;
		shared = false;
		wd = NULL;
		if (kind == HZ_READ && wh->init && !span_all(wh->init, off, len))
			return lanes;
	}
	ng = (uint32_t)(len / 4);
	if (!shared) {
		g = global_run(hb, wh, off, ng, per, tid0, pc, base, kind);
	} else if (own_run(hb, wd, ng, per, tid0, pc, base, kind)) {
		g = ng;
	} else if (kind == HZ_READ) {
		for (g = 0; g < ng; g++)
			if (!read4(hb, wd + g, tid0 + g / per, pc, base, NULL))
				break;
	} else {
		for (g = 0; g < ng; g++)
			if (!write4(hb, wd + g, tid0 + g / per, pc, base, shared))
				break;
	}
	/* the lanes fully written are initialised; the rest are marked by
	 * the path that finishes them */
	if (kind != HZ_READ && g / per) {
		if (shared)
			bits_set_span(hb->sinit, off, (uint64_t)(g / per) * n, false);
		else if (wh->init)
			bits_set_span(wh->init, off, (uint64_t)(g / per) * n, true);
	}
	if (g == ng)
		return 0;
	return lanes & ~((1u << (f + g / per)) - 1);
}

/* run_access with the size a constant, so it is compiled for each; when
 * line (a whole warp in a rising run), only ptr[0] is read. */
static uint32_t fast_run(struct block_ctx *bc, struct hz_block *hb,
			 struct where *wh, const struct warp *w,
			 uint32_t lanes, uint8_t *const *ptr, uint32_t n,
			 int kind, uint32_t pc, bool line)
{
	switch (n) {
	case 4: return run_access(bc, hb, wh, w, lanes, ptr, 4, kind, pc, line);
	case 8: return run_access(bc, hb, wh, w, lanes, ptr, 8, kind, pc, line);
	case 16: return run_access(bc, hb, wh, w, lanes, ptr, 16, kind, pc, line);
	default: return lanes;
	}
}

/* The fast paths with the size a constant, so each is compiled for it;
 * the lanes they leave are returned.  `ran`: fast_run has been tried. */
static uint32_t fast_access(struct block_ctx *bc, struct hz_block *hb,
			    struct where *wh, const struct warp *w,
			    uint32_t lanes, uint8_t *const *ptr, uint32_t n,
			    int kind, uint32_t pc, bool line, bool ran)
{
	if (!ran)
		lanes = fast_run(bc, hb, wh, w, lanes, ptr, n, kind, pc, line);
	if (!lanes)
		return 0;
	if (kind == HZ_READ) {
		switch (n) {
		case 4: return fast_reads(bc, hb, wh, w, lanes, ptr, 4, pc);
		case 8: return fast_reads(bc, hb, wh, w, lanes, ptr, 8, pc);
		case 16: return fast_reads(bc, hb, wh, w, lanes, ptr, 16, pc);
		default: return lanes;
		}
	}
	switch (n) {
	case 4: return writes4(bc, hb, wh, w, lanes, ptr, 4, pc);
	case 8: return writes4(bc, hb, wh, w, lanes, ptr, 8, pc);
	case 16: return writes4(bc, hb, wh, w, lanes, ptr, 16, pc);
	default: return lanes;
	}
}

SIMT_LANE_CLONES void
simt_hz_warp_access(struct block_ctx *bc, const struct warp *w,
			 const struct simt_insn *in, uint32_t lanes,
			 uint8_t *const *ptr, uint32_t n, int kind,
			 const uint8_t (*val)[32], uint32_t coll, int step)
{
	struct hz_block *hb = bc->hz;
	struct where wh = {0};
	uint8_t *line[32];
	uint32_t pc = (uint32_t)(in - bc->L->mod->code);
	uint8_t flags = flags_of(in, kind);
	bool fast, ran = false;

	if (!lanes)
		return;
	if (hb->q.on && kind == HZ_READ && !flags &&
	    quiet_read(bc, hb, w, lanes, ptr, n, step, pc))
		return;
	/* plain global accesses leave it quiet: they change no clock and no
	 * shared record (a line lies in shared memory if its start does) */
	if (hb->q.on && ((kind != HZ_READ && kind != HZ_WRITE) || flags ||
			 (step >= 0 ? (uint64_t)(ptr[0] - bc->shared) <
				      bc->L->shared_size
				    : any_shared(bc, lanes, ptr))))
		quiet_end(hb, bc->L->hz_base);
	fast = !flags && (kind == HZ_READ || (kind == HZ_WRITE && !coll));
	if (fast && step == (int)n && lanes == UINT32_MAX) {
		/* a whole warp's rising run: as a run, from ptr[0] alone */
		lanes = fast_run(bc, hb, &wh, w, lanes, ptr, n, kind, pc, true);
		if (!lanes)
			return;
		ran = true;
	}
	if (step >= 0) {
		/* only ptr[0] was made; the others follow from it */
		line[0] = ptr[0];
		line_ptrs(line, (uint32_t)step);
		ptr = line;
	}
	if (fast)
		lanes = fast_access(bc, hb, &wh, w, lanes, ptr, n, kind, pc,
				    step == (int)n && lanes == UINT32_MAX, ran);
	while (lanes) {
		unsigned l = (unsigned)__builtin_ctz(lanes);

		lanes &= lanes - 1;
		lane_access(bc, hb, &wh, w, l, in, pc,
			    (uint8_t)(flags | ((coll >> l & 1) ? HZR_COLL : 0)),
			    kind, ptr[l], n, val ? val[l] : NULL);
	}
}

SIMT_LANE_CLONES uint32_t
simt_hz_write_fast(struct block_ctx *bc, const struct warp *w,
			    const struct simt_insn *in, uint32_t lanes,
			    uint8_t *const *ptr, uint32_t n, bool line)
{
	struct hz_block *hb = bc->hz;
	struct where wh = {0};

	if (flags_of(in, HZ_WRITE))
		return lanes;
	if (hb->q.on && any_shared(bc, lanes, ptr))
		quiet_end(hb, bc->L->hz_base);
	return fast_access(bc, hb, &wh, w, lanes, ptr, n, HZ_WRITE,
			   (uint32_t)(in - bc->L->mod->code), line, false);
}

void simt_hz_atomic_done(struct block_ctx *bc, const struct warp *w,
			 unsigned lane, const struct simt_insn *in, uint8_t *p)
{
	struct hz_block *hb = bc->hz;
	struct where wh;
	bool shared = p >= bc->shared && p < bc->shared + bc->L->shared_size;

	quiet_end(hb, bc->L->hz_base);
	if (!shared && (!hb->global_ok ||
			!global_where(bc, (uint64_t)(uintptr_t)p, &wh)))
		return;
	sync_strong(hb, w->id * 32 + lane, in, shared,
		    shared ? (uint64_t)(p - bc->shared) : (uint64_t)(uintptr_t)p,
		    HZ_ATOMIC, true);
}

void simt_hz_same_address(struct block_ctx *bc, const struct warp *w,
			  const struct simt_insn *in, unsigned first,
			  unsigned other, uint8_t *p)
{
	struct hz_report k;
	uint32_t pc = (uint32_t)(in - bc->L->mod->code);
	int space = p >= bc->shared && p < bc->shared + bc->L->shared_size
		? SP_SHARED : SP_GLOBAL;

	if (p >= bc->local && p < bc->local + bc->local_cap)
		return;
	key_init(&k, bc, HK_RACE, space);
	k.why = WHY_SAME_INSN;
	key_site(&k, 0, bc, bc->block, w->id * 32 + first, pc, AC_WRITE);
	key_site(&k, 1, bc, bc->block, w->id * 32 + other, pc, AC_WRITE);
	report(bc, &k, race_message, NULL);
}

/* ---- cp.async ---- */

void simt_hz_async_copy(struct block_ctx *bc, const struct warp *w,
			unsigned lane, const struct simt_insn *in,
			uint32_t off, uint32_t n)
{
	struct hz_block *hb = bc->hz;
	uint32_t tid = w->id * 32 + lane, pc = (uint32_t)(in - bc->L->mod->code);
	struct hz_cold *t = &hb->c[tid];
	uint32_t g;

	quiet_end(hb, bc->L->hz_base);
	bits_set(hb->sinit, off, n, false);
	for (g = off >> 2; g <= (off + n - 1) >> 2; g++) {
		uint32_t lo = g * 4 > off ? g * 4 : off;
		uint32_t hi = g * 4 + 4 < off + n ? g * 4 + 4 : off + n;
		uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo & 3));
		struct hz_word *wd = &hb->ssh[g];
		struct hz_rec r, me;
		uint32_t base = bc->L->hz_base;

		rec_load(&r, &wd->w);
		if (r.clk > base && r.block == hb->block && (r.mask & mask) &&
		    !ordered(hb, tid, &r))
			report_race(bc, SP_SHARED, &r, true, tid, pc, AC_ASYNC,
				    (r.flags & HZR_ASYNC) && r.tid == tid
				    ? WHY_ASYNC_AGAIN : 0);
		rec_load(&r, &wd->r);
		if (r.clk > base && r.block == hb->block && (r.mask & mask) &&
		    !ordered(hb, tid, &r)) {
			report_race(bc, SP_SHARED, &r, false, tid, pc, AC_ASYNC, 0);
		} else {
			rec_load(&r, &wd->r2);
			if (r.clk > base && r.block == hb->block && (r.mask & mask) &&
			    !ordered(hb, tid, &r))
				report_race(bc, SP_SHARED, &r, false, tid, pc,
					    AC_ASYNC, 0);
		}
		me.block = hb->block;
		me.clk = NOT_WAITED;
		me.tid = (uint16_t)tid;
		me.flags = HZR_ASYNC;
		me.mask = mask;
		me.pc = pc;
		rec_store(&wd->w, &me);
	}
	if (t->nasync == ASYNC_MAX) {
		/* too many copies never waited for: the oldest count as done */
		memmove(t->async, t->async + 1, (ASYNC_MAX - 1) * sizeof *t->async);
		t->nasync--;
	}
	if (t->nasync == t->capasync) {
		t->capasync = t->capasync ? t->capasync * 2 : 16;
		t->async = simt_xrealloc(t->async, t->capasync * sizeof *t->async);
	}
	t->async[t->nasync].off = off;
	t->async[t->nasync].n = (uint16_t)n;
	t->async[t->nasync++].group = t->committed;
	hb->cold = true;
}

void simt_hz_async_commit(struct block_ctx *bc, const struct warp *w,
			  uint32_t lanes)
{
	struct hz_block *hb = bc->hz;

	if (!hb)
		return;
	quiet_end(hb, bc->L->hz_base);
	hb->cold = true;
	for (; lanes; lanes &= lanes - 1)
		hb->c[w->id * 32 + (uint32_t)__builtin_ctz(lanes)].committed++;
}

/* The copies of thread tid in groups below `upto` have landed. */
static void async_land(struct hz_block *hb, uint32_t tid, uint32_t upto)
{
	struct hz_cold *t = &hb->c[tid];
	uint32_t i, k = 0;

	for (i = 0; i < t->nasync; i++) {
		struct hz_async *a = &t->async[i];
		uint32_t g;

		if (a->group >= upto) {
			t->async[k++] = *a;
			continue;
		}
		for (g = a->off >> 2; g <= (a->off + a->n - 1) >> 2; g++) {
			struct hz_rec *r = &hb->ssh[g].w;

			if (r->block == hb->block && r->tid == tid &&
			    (r->flags & HZR_ASYNC)) {
				r->clk = hb->t[tid].clk;
				r->flags &= (uint8_t)~HZR_ASYNC;
			}
		}
	}
	t->nasync = k;
}

void simt_hz_async_wait(struct block_ctx *bc, const struct warp *w,
			uint32_t lanes, uint32_t n, bool all)
{
	struct hz_block *hb = bc->hz;

	if (!hb)
		return;
	quiet_end(hb, bc->L->hz_base);
	for (; lanes; lanes &= lanes - 1) {
		uint32_t tid = w->id * 32 + (uint32_t)__builtin_ctz(lanes);
		struct hz_cold *t = &hb->c[tid];

		if (all)
			async_land(hb, tid, UINT32_MAX);
		else if (t->committed > n)
			async_land(hb, tid, t->committed - n);
	}
}

void simt_hz_async_done(struct block_ctx *bc, const struct warp *w,
			unsigned lane)
{
	if (bc->hz) {
		quiet_end(bc->hz, bc->L->hz_base);
		async_land(bc->hz, w->id * 32 + lane, UINT32_MAX);
	}
}

/* ---- barrier misuse ---- */

static void lane_ranges(struct simt_buf *b, uint32_t m)
{
	bool first = true;

	while (m) {
		unsigned lo = (unsigned)__builtin_ctz(m), hi = lo;

		while (hi + 1 < 32 && (m >> (hi + 1) & 1))
			hi++;
		simt_buf_printf(b, "%s%u", first ? "" : ",", lo);
		if (hi > lo)
			simt_buf_printf(b, "-%u", hi);
		first = false;
		if (hi == 31)
			break;
		m &= ~(uint32_t)(((2ull << hi) - 1));
	}
}

static const char *sync_name(const struct simt_insn *in)
{
	switch (in->op) {
	case OP_BAR_WARP: return "__syncwarp()";
	case OP_SHFL: return "__shfl_sync()";
	case OP_VOTE: return "a warp vote (__ballot_sync/__all_sync/__any_sync)";
	case OP_MATCH: return "__match_sync()";
	case OP_REDUX: return "__reduce_sync()";
	case OP_ELECT: return "elect.sync";
	case OP_TENSOR: return "a warp-wide tensor-core instruction";
	default: return "__syncthreads()";
	}
}

static void barrier_report(struct block_ctx *bc, const struct warp *w,
			   const struct simt_insn *in, unsigned lane, int why,
			   const char *text)
{
	struct hz_report k;

	key_init(&k, bc, HK_BARRIER, SP_NONE);
	k.why = (uint8_t)why;
	key_site(&k, 0, bc, bc->block, w->id * 32 + lane,
		 (uint32_t)(in - bc->L->mod->code), AC_NONE);
	report(bc, &k, NULL, text);
}

void simt_hz_divergent_bar(struct block_ctx *bc, const struct warp *w,
			   const struct simt_insn *in, uint32_t arriving,
			   uint32_t others, uint32_t other_pc)
{
	const struct simt_module *mod = bc->L->mod;
	struct simt_buf b = {0};

	simt_buf_printf(&b, "barrier: divergent __syncthreads() ");
	site_where(&b, mod, (uint32_t)(in - mod->code));
	simt_buf_printf(&b, ": in block (%u,%u,%u) lanes ", bc->ctaid[0],
			bc->ctaid[1], bc->ctaid[2]);
	lane_ranges(&b, arriving);
	simt_buf_printf(&b, " of warp %u waited at it while lanes ", w->id);
	lane_ranges(&b, others);
	if (other_pc == UINT32_MAX) {
		simt_buf_printf(&b, " skipped it");
	} else if (other_pc == UINT32_MAX - 1) {
		simt_buf_printf(&b, " exited without reaching it");
	} else {
		simt_buf_printf(&b, " waited at another __syncthreads() ");
		site_where(&b, mod, other_pc);
	}
	simt_buf_printf(&b, " (all threads of a warp must reach the same "
			"__syncthreads() together)");
	barrier_report(bc, w, in, (unsigned)__builtin_ctz(arriving),
		       WHY_DIVERGENT, b.s);
	simt_buf_free(&b);
}

void simt_hz_not_member(struct block_ctx *bc, const struct warp *w,
			const struct simt_insn *in, unsigned lane, uint32_t mask)
{
	const struct simt_module *mod = bc->L->mod;
	struct simt_buf b = {0};

	simt_buf_printf(&b, "barrier: %s ", sync_name(in));
	site_where(&b, mod, (uint32_t)(in - mod->code));
	simt_buf_printf(&b, ": lane %u of warp %u in block (%u,%u,%u) is not in "
			"its own member mask 0x%08x", lane, w->id, bc->ctaid[0],
			bc->ctaid[1], bc->ctaid[2], mask);
	barrier_report(bc, w, in, lane, WHY_NOT_MEMBER, b.s);
	simt_buf_free(&b);
}

void simt_hz_never_reached(struct block_ctx *bc, const struct warp *w,
			   const struct simt_insn *in, unsigned lane,
			   uint32_t mask, uint32_t missing)
{
	const struct simt_module *mod = bc->L->mod;
	struct simt_buf b = {0};

	simt_buf_printf(&b, "barrier: %s ", sync_name(in));
	site_where(&b, mod, (uint32_t)(in - mod->code));
	simt_buf_printf(&b, " with member mask 0x%08x: lanes ", mask);
	lane_ranges(&b, missing);
	simt_buf_printf(&b, " of warp %u in block (%u,%u,%u) never reached it "
			"(they went on and exited)", w->id, bc->ctaid[0],
			bc->ctaid[1], bc->ctaid[2]);
	barrier_report(bc, w, in, lane, WHY_NEVER, b.s);
	simt_buf_free(&b);
}

void simt_hz_shfl_exited(struct block_ctx *bc, const struct warp *w,
			 const struct simt_insn *in, unsigned lane, unsigned src,
			 bool inactive)
{
	const struct simt_module *mod = bc->L->mod;
	struct simt_buf b = {0};
	bool exists = (w->exist >> src) & 1;

	simt_buf_printf(&b, "barrier: __shfl_sync() ");
	site_where(&b, mod, (uint32_t)(in - mod->code));
	simt_buf_printf(&b, ": lane %u of warp %u in block (%u,%u,%u) reads lane "
			"%u, which %s, so the value it gets is undefined", lane,
			w->id, bc->ctaid[0], bc->ctaid[1], bc->ctaid[2], src,
			inactive ? "is not taking part in the shuffle (inactive)"
			: exists ? "has exited"
				 : "does not exist (the block's last warp is partial)");
	barrier_report(bc, w, in, lane, WHY_EXITED_SRC, b.s);
	simt_buf_free(&b);
}

/* ---- the report file and the summary ---- */

/* ---- copies and memsets issued to streams ----
 *
 * They take one clock above their base.  One that may run beside
 * another stream's work looks at the records of what it reads and
 * writes; one that the host does not wait for leaves its own records
 * (block 0, thread 0, HZR_XOP), line records where it covers a line,
 * so that a later kernel or copy of another stream meets them. */
static struct {
	bool on, record, host_waits;
	uint32_t base, fence;
	int cached;         /* report of the last race found, or -1 */
	uint64_t pending;   /* its occurrences not yet counted */
} xop = {.cached = -1};

void simt_hz_op_begin(uint32_t lane, bool host_waits, const char *api)
{
	struct simt_order_op what = {0};

	if (!simt_hz_enabled())
		return;
	clocks_check();
	what.name = api;
	xop.base = clock_base;
	xop.fence = simt_order_begin(lane, clock_base, &what);
	xop.record = !host_waits && simt_order_streams();
	xop.host_waits = host_waits;
	xop.cached = -1;
	xop.pending = 0;
	xop.on = true;
}

static void op_flush(void)
{
	if (xop.cached >= 0 && xop.pending) {
		pthread_mutex_lock(&report_lock);
		reports[xop.cached].count += xop.pending;
		pthread_mutex_unlock(&report_lock);
		simt_counters_add_hazards(xop.pending);
	}
	xop.pending = 0;
}

/* Record r, of an earlier operation, met by the current copy or memset
 * (write: it writes the bytes). */
static void copy_race(const struct hz_rec *r, bool r_write, bool write)
{
	const struct simt_order_op *op, *me;
	struct hz_report k;
	uint32_t lo, hi;
	bool fresh;

	op = simt_order_unordered(r->clk, &lo, &hi);
	if (!op)
		return;
	me = simt_order_current();
	memset(&k, 0, sizeof k);
	k.kind = HK_RACE;
	k.space = SP_GLOBAL;
	k.kernel = op->mod ? op->name : NULL;
	key_other(&k, op, r, r_write);
	k.site[1] = api_site(me->name);
	k.acc[1] = write ? AC_WRITE : AC_READ;
	k.nsites = 2;
	k.xs[1] = (struct xsite){NULL, me->name, me->stream, me->device,
				 me->node};
	if (xop.cached >= 0 && same_key(&reports[xop.cached], &k)) {
		xop.pending++;
		return;
	}
	op_flush();
	xop.cached = report_outside(&k, xop_message, &fresh);
}

/* Granule records g of a line whose bytes [lo, hi) an operation reads or
 * writes. */
static uint8_t bytes_mask(uint64_t g, uint64_t lo, uint64_t hi)
{
	uint64_t a = g * 4 > lo ? g * 4 : lo, b = g * 4 + 4 < hi ? g * 4 + 4 : hi;

	return (uint8_t)(((1u << (b - a)) - 1) << (a & 3));
}

/* Checks a line's write or read record (w) and its granules' against
 * the current operation's access of bytes [lo, hi) of the line. */
static void op_check_rec(const struct hz_rec *hp, const struct hz_word *fw,
			 bool w, uint64_t lo, uint64_t hi, bool write)
{
	struct hz_rec h;
	uint64_t g;

	rec_load(&h, hp);
	if (h.clk <= xop.fence || h.clk > xop.base)
		return;         /* ordered, and so are its granules' records */
	if (h.flags & HZR_LINE) {
		h.tid = (uint16_t)line_tid(&h, (uint32_t)(lo / 4 % LINE_GRAN));
		h.flags &= (uint8_t)~HZR_LINE;
		copy_race(&h, w, write);
		return;
	}
	for (g = lo / 4; g * 4 < hi; g++) {
		const struct hz_rec *r = w ? &fw[g % LINE_GRAN].w : &fw[g % LINE_GRAN].r;

		if (r->clk > xop.fence && r->clk <= xop.base &&
		    (r->mask & bytes_mask(g, lo, hi)))
			copy_race(r, w, write);
	}
}

/* Leaves the current operation's records of its access of bytes [lo, hi)
 * of line li. */
static void op_record(const struct where *wh, uint64_t li, uint64_t lo,
		      uint64_t hi, bool write)
{
	struct hz_line *hl = &wh->lines[li];
	struct hz_word *fw = &wh->sh[li * LINE_GRAN];
	struct hz_rec *hp = write ? &hl->w : &hl->r;
	uint64_t end = (li + 1) * LINE_BYTES < wh->size ? (li + 1) * LINE_BYTES
							 : wh->size, g;
	uint32_t clk = xop.base + 1;

	if (lo == li * LINE_BYTES && hi >= end) {
		rec_put(hp, 0, clk, 0, HZR_LINE | HZR_XOP, 1, 0);
		return;
	}
	settle_rec(hp, fw, write ? RK_W : RK_R, xop.base, xop.fence, clk);
	for (g = lo / 4; g * 4 < hi; g++)
		rec_put(write ? &fw[g % LINE_GRAN].w : &fw[g % LINE_GRAN].r, 0, clk, 0,
			HZR_XOP, bytes_mask(g, lo, hi), 0);
}

void simt_hz_op_range(const void *p, uint64_t n, bool write)
{
	const struct simt_alloc *al;
	struct where wh;
	uint64_t off, end, li;

	bool record;

	if (!xop.on || !n)
		return;
	al = simt_mem_find((uint64_t)(uintptr_t)p, n);
	if (!al || !al->shadow)
		return;
	simt_mem_touch(al, xop.base);
	/* what the host may touch is recorded for hostsync.c's check even
	 * when no stream but the default ones exists */
	record = xop.record || (!xop.host_waits &&
				(al->kind == MEM_MANAGED || al->kind == MEM_HOST));
	if (xop.fence == xop.base && !record)
		return;
	wh.sh = al->shadow;
	wh.lines = lines_of(al->shadow, al->size);
	wh.lo = al->base;
	wh.size = al->size;
	wh.init = NULL;
	off = (uint64_t)(uintptr_t)p - al->base;
	end = off + n;
	for (li = off / LINE_BYTES; li * LINE_BYTES < end; li++) {
		uint64_t lo = li * LINE_BYTES > off ? li * LINE_BYTES : off;
		uint64_t hi = (li + 1) * LINE_BYTES < end ? (li + 1) * LINE_BYTES : end;
		const struct hz_word *fw = &wh.sh[li * LINE_GRAN];

		if (xop.fence < xop.base) {
			op_check_rec(&wh.lines[li].w, fw, true, lo, hi, write);
			if (write)
				op_check_rec(&wh.lines[li].r, fw, false, lo, hi, write);
		}
		if (record)
			op_record(&wh, li, lo, hi, write);
	}
}

void simt_hz_op_end(uint32_t lane)
{
	int i;

	if (!xop.on)
		return;
	op_flush();
	xop.on = false;
	clock_base = xop.base + 2;
	if (xop.host_waits)
		simt_order_host_lane(lane);
	simt_hs_op_done(xop.base, xop.base + 1, xop.host_waits);
	fflush(stdout);
	pthread_mutex_lock(&report_lock);
	for (i = 0; i < nreports; i++) {
		struct hz_report *r = &reports[i];

		if (r->xop && !r->xs[1].mod && !r->shown) {
			fprintf(stderr, "simt: %s\n  in %s: %llu time%s\n", r->msg,
				r->xs[1].name, (unsigned long long)r->count,
				r->count == 1 ? "" : "s");
			r->shown = r->count;
		}
	}
	pthread_mutex_unlock(&report_lock);
	fflush(stderr);
}

/* ---- for hostsync.c ---- */

int simt_hz_touched(uint64_t base, uint32_t lo, uint32_t hi)
{
	const struct simt_alloc *al = simt_mem_find(base, 1);
	const struct hz_line *ln;
	uint64_t i, n;
	int how = 0;

	if (!al || !al->shadow)
		return 0;
	ln = lines_of(al->shadow, al->size);
	n = line_count(al->size);
	/* a line's records carry a clock of the last operation that
	 * touched any of its granules (see settle_rec) */
	for (i = 0; i < n && how != 3; i++) {
		if (ln[i].w.clk > lo && ln[i].w.clk <= hi)
			how |= 2;
		if (ln[i].r.clk > lo && ln[i].r.clk <= hi)
			how |= 1;
	}
	return how;
}

bool simt_hz_rec_strong(const struct hz_rec *r)
{
	return (r->flags & HZR_STRONG) && !(r->flags & HZR_CTA);
}

bool simt_hz_granule_rec(uint64_t base, uint64_t off, bool w, struct hz_rec *out)
{
	const struct simt_alloc *al = simt_mem_find(base, 1);
	struct hz_rec h;

	if (!al || !al->shadow || off >= al->size)
		return false;
	rec_load(&h, w ? &lines_of(al->shadow, al->size)[off / LINE_BYTES].w
		       : &lines_of(al->shadow, al->size)[off / LINE_BYTES].r);
	if (h.flags & HZR_LINE) {
		h.tid = (uint16_t)line_tid(&h, (uint32_t)(off / 4 % LINE_GRAN));
		h.flags &= (uint8_t)~HZR_LINE;
		h.mask = 0xf;
		*out = h;
		return true;
	}
	rec_load(out, w ? &al->shadow[off / 4].w : &al->shadow[off / 4].r);
	return true;
}

static char *host_message(const struct hz_report *r)
{
	struct simt_buf b = {0};

	simt_buf_printf(&b, "race: ");
	xsite_text(&b, r, 0);
	simt_buf_printf(&b, " and a host %s of %s", acc_words[r->acc[1]], r->xs[1].name);
	simt_buf_printf(&b, ", before the host synchronized with that work");
	return b.s;
}

void simt_hz_report_host(const struct simt_order_op *op, const struct hz_rec *r,
			 bool r_write, bool host_write, uint64_t base, uint64_t off)
{
	const struct simt_alloc *al = simt_mem_find(base, 1);
	struct hz_report k;
	char what[160];
	bool fresh;
	int i;

	snprintf(what, sizeof what, "%s memory at byte %llu of a %llu-byte allocation",
		 al && al->kind == MEM_MANAGED ? "managed" : "pinned",
		 (unsigned long long)off, (unsigned long long)(al ? al->size : 0));
	memset(&k, 0, sizeof k);
	k.kind = HK_RACE;
	k.space = SP_GLOBAL;
	k.kernel = op->mod ? op->name : NULL;
	key_other(&k, op, r, r_write);
	k.why = WHY_HOST;
	k.site[1] = api_site(host_write ? "host write" : "host read");
	k.acc[1] = host_write ? AC_WRITE : AC_READ;
	k.nsites = 2;
	k.xs[1] = (struct xsite){NULL, what, UINT32_MAX, -1, 0};
	i = report_outside(&k, host_message, &fresh);
	if (fresh) {
		pthread_mutex_lock(&report_lock);
		/* the name was the text above, made for this report's message */
		reports[i].xs[1].name = "the host";
		reports[i].shown = 1;
		pthread_mutex_unlock(&report_lock);
		/* stderr only: the fault may have come in the middle of the
		 * program's own use of stdout */
		fprintf(stderr, "simt: %s\n  in host code: 1 time\n", reports[i].msg);
	}
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static const char *kind_word(int kind)
{
	return kind == HK_RACE ? "race" : kind == HK_BARRIER ? "barrier"
							     : "uninitialized";
}

static void write_site(FILE *f, const struct hz_report *r, int i)
{
	const struct simt_module *mod = r->xop ? r->xs[i].mod : r->mod;
	const char *file;
	uint32_t line;
	char name[512];

	if (!mod) {
		/* a copy or memset of a race between streams */
		fprintf(f, "{\"file\":null,\"line\":null,\"ptx_line\":null,"
			"\"access\":\"%s\",\"block\":null,\"thread\":null,"
			"\"operation\":", acc_words[r->acc[i]]);
		json_str(f, r->xs[i].name);
		if (r->xs[i].stream == UINT32_MAX)
			fputs(",\"stream\":null,\"device\":null", f);
		else
			fprintf(f, ",\"stream\":%u,\"device\":%d", r->xs[i].stream,
				r->xs[i].device);
		if (r->xs[i].node)
			fprintf(f, ",\"graph_node\":%u", r->xs[i].node - 1);
		fputc('}', f);
		return;
	}
	fputs("{\"file\":", f);
	if (site_file(mod, r->pc[i], &file, &line)) {
		json_str(f, file);
		fprintf(f, ",\"line\":%u", line);
	} else {
		fputs("null,\"line\":null", f);
	}
	fprintf(f, ",\"ptx_line\":%u,\"access\":", mod->code[r->pc[i]].ptx_line);
	if (r->acc[i] == AC_NONE)
		fputs("null", f);
	else
		json_str(f, acc_words[r->acc[i]]);
	fprintf(f, ",\"block\":[%u,%u,%u],\"thread\":[%u,%u,%u]",
		r->block[i][0], r->block[i][1], r->block[i][2], r->thread[i][0],
		r->thread[i][1], r->thread[i][2]);
	if (r->xop) {
		fputs(",\"kernel\":", f);
		json_str(f, simt_demangle(r->xs[i].name, name, sizeof name));
		fprintf(f, ",\"stream\":%u,\"device\":%d", r->xs[i].stream,
			r->xs[i].device);
		if (r->xs[i].node)
			fprintf(f, ",\"graph_node\":%u", r->xs[i].node - 1);
	}
	fputc('}', f);
}

/* Writes the hazard report file (CUDALAB_SIMT_HAZARDS). */
void simt_hazard_report_write(void)
{
	int i, by[3] = {0, 0, 0};
	char name[512];
	FILE *f;

	if (!report_path)
		return;
	f = fopen(report_path, "w");
	if (!f) {
		simt_warn("cannot write the hazard report to %s", report_path);
		return;
	}
	for (i = 0; i < nreports; i++)
		by[reports[i].kind]++;
	fprintf(f, "{\"schema\":1,\"checks\":%s,\"schedule\":%u,\"total\":%llu,"
		"\"races\":%d,\"barriers\":%d,\"uninitialized\":%d,"
		"\"dropped\":%llu,\"hazards\":[", checks_on ? "true" : "false",
		schedule_seed, (unsigned long long)(nreports + dropped), by[HK_RACE],
		by[HK_BARRIER], by[HK_UNINIT], (unsigned long long)dropped);
	for (i = 0; i < nreports; i++) {
		const struct hz_report *r = &reports[i];
		int s;

		fprintf(f, "%s{\"kind\":\"%s\",\"space\":", i ? "," : "",
			kind_word(r->kind));
		if (r->space == SP_NONE)
			fputs("null", f);
		else
			json_str(f, space_word(r->space));
		fputs(",\"kernel\":", f);
		if (r->kernel)
			json_str(f, simt_demangle(r->kernel, name, sizeof name));
		else
			fputs("null", f);
		fprintf(f, ",\"count\":%llu,\"message\":", (unsigned long long)r->count);
		json_str(f, r->msg);
		fputs(",\"sites\":[", f);
		for (s = 0; s < r->nsites; s++) {
			if (s)
				fputc(',', f);
			write_site(f, r, s);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
	fclose(f);
}

static void at_exit(void)
{
	int i, by[3] = {0, 0, 0};
	uint64_t total;

	pthread_mutex_lock(&report_lock);
	for (i = 0; i < nreports; i++)
		by[reports[i].kind]++;
	total = (uint64_t)nreports + dropped;
	fflush(stdout);
	/* a report is printed when the launch that first met it ends; later
	 * launches that meet it again only add to its count */
	for (i = 0; i < nreports; i++) {
		const struct hz_report *r = &reports[i];

		if (r->shown && r->count > r->shown)
			fprintf(stderr, "simt: %s\n  %llu times in all, %llu of them in later "
				"launches\n", r->msg, (unsigned long long)r->count,
				(unsigned long long)(r->count - r->shown));
	}
	if (total) {
		fprintf(stderr, "simt: ERROR SUMMARY: %llu hazard%s (%d race%s, %d "
			"barrier error%s, %d uninitialized read%s)%s\n",
			(unsigned long long)total, total == 1 ? "" : "s", by[HK_RACE],
			by[HK_RACE] == 1 ? "" : "s", by[HK_BARRIER],
			by[HK_BARRIER] == 1 ? "" : "s", by[HK_UNINIT],
			by[HK_UNINIT] == 1 ? "" : "s",
			dropped ? "; the first ones are shown" : "");
	}
	simt_hazard_report_write();
	pthread_mutex_unlock(&report_lock);
}

void simt_hz_init(int devices)
{
	ndevices = devices;
	pthread_once(&setup_once, setup);
}
