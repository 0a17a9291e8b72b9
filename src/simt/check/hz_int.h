/* What the files of the hazard checker share (hazard.h explains the model,
 * exec/hooks.h lists the calls the interpreter makes): races by
 * happens-before in shared and global memory, barrier misuse and
 * uninitialized reads.
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
#ifndef SIMT_HZ_INT_H
#define SIMT_HZ_INT_H

#include "check/hazard.h"
#include "check/order.h"
#include "exec/lanes.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

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
 * read and second read records (see "the line layer" in access.c). */
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
		uint32_t thread;    /* a per-thread default stream's host
				     * thread (simt_order_op), else 0 */
	} xs[2];
	/* Where in memory, for a report about shared or global memory
	 * (hz_key_place; `placed` false otherwise): the byte offset into
	 * the variable or allocation, the variable's (mangled) name or
	 * NULL, and per site the parameter of its kernel whose pointer is
	 * the allocation's base (-1: none, or not known) and its access
	 * size (0: not known).  Not part of the identity: the first
	 * occurrence's. */
	bool placed;
	uint64_t offset;
	const char *symbol;
	int param[2];
	uint32_t bytes[2];
};


/* Why a barrier-misuse report was made (part of its identity). */
enum { WHY_DIVERGENT = 1, WHY_NOT_MEMBER, WHY_EXITED_SRC,
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
	/* Shared reads between full barriers (see "quiet intervals" in
	 * access.c; the log is in q): the lanes' offsets of logged reads not
	 * in a line, and per warp the lanes that have arrived at a barrier
	 * since the interval began. */
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
	/* the size of the lane access being checked (for reports) */
	uint32_t at_n;
};


/* Where the allocation last looked up lies, so that the lanes of one
 * instruction look it up once: its base and size, shadow (fine records
 * and lines) and init bits. */
struct where {
	uint64_t lo, size;
	struct hz_word *sh;
	struct hz_line *lines;
	uint8_t *init;
};

/* ---- what the files share ---- */

/* hazard.c: whether checks are on, the report file, the clocks (those of
 * the current launch are above hz_clock_base, every clock of earlier
 * launches is at most it; hz_clock_max is the highest given out), the
 * launches so far, the schedule seed, and the number of devices (a report
 * names the device of a default stream only when there are several). */
extern bool hz_checks_on;
extern char *hz_report_path;
extern uint32_t hz_clock_base;
extern atomic_uint hz_clock_max;
extern uint64_t hz_launch_number;
extern uint32_t hz_schedule_seed;
extern int hz_ndevices;

/* clock.c: vector clocks and the maps of other blocks' clocks, counted
 * by reference (every _ref and _new matched by an _unref); the
 * accumulators of barriers; a thread acquiring what k carries, and
 * publishing what it knows (at its last fence when at_fence). */
struct hz_vc *hz_vc_ref(struct hz_vc *v);
void hz_vc_unref(struct hz_vc *v);
void hz_vc_unref_n(struct hz_vc *v, uint32_t k);
struct hz_vc *hz_vc_new(uint32_t n);
void hz_vc_max_into(struct hz_vc *d, const struct hz_vc *s);
struct hz_gvc *hz_gvc_ref(struct hz_gvc *g);
void hz_gvc_unref(struct hz_gvc *g);
struct hz_gvc *hz_gvc_new(uint32_t n);
const struct hz_vc *hz_gvc_find(const struct hz_gvc *g, uint32_t block);
struct hz_gvc *hz_gvc_join(struct hz_gvc *a, const struct hz_gvc *b,
			   uint32_t skip, bool use_skip);
void hz_acc_add(struct hz_block *hb, struct hz_acc *a, uint32_t tid);
void hz_acquire(struct hz_block *hb, uint32_t tid, const struct hz_gvc *k);
struct hz_gvc *hz_publish(struct hz_block *hb, uint32_t tid, bool at_fence);

/* shadow.c: the pool of large shadows (hz_pool_off: nothing is put in
 * it), emptied, and every allocation's shadow made afresh. */
extern bool hz_pool_off;
void hz_pool_flush(void);
void hz_shadows_reset(void);

/* block.c */
void hz_slog_clear(struct hz_block *hb);
bool hz_async_pending(const struct hz_block *hb);
void hz_clocks_check(void);
void hz_acc_clear(struct hz_acc *a);
void hz_memo_clear(struct hz_block *hb);

/* report.c: the table of reports (under hz_report_lock), the words and
 * sites reports are written with, and a report's making: its identity
 * (hz_key_init, _site, _other), and hz_report, which counts a repeat
 * (hz_report_again) or records and prints a new one; hz_report_outside
 * does it for reports outside kernels. */
extern pthread_mutex_t hz_report_lock;
extern struct hz_report hz_reports[MAX_REPORTS];
extern int hz_nreports;
extern const char *const hz_acc_words[];
void hz_site_where(struct simt_buf *b, const struct simt_module *mod,
		   uint32_t pc);
const char *hz_space_word(int space);
char *hz_race_message(const struct hz_report *r);
void hz_xsite_text(struct simt_buf *b, const struct hz_report *r, int i);
char *hz_xop_message(const struct hz_report *r);
bool hz_same_key(const struct hz_report *a, const struct hz_report *b);
int hz_report_outside(const struct hz_report *k,
		      char *(*make)(const struct hz_report *), bool *fresh);
void hz_flush_cache(struct hz_block *hb);
bool hz_report_again(struct block_ctx *bc, struct hz_report *key);
void hz_report(struct block_ctx *bc, struct hz_report *key,
	       char *(*make)(const struct hz_report *), const char *text);
void hz_key_init(struct hz_report *k, const struct block_ctx *bc, int kind,
		 int space);
void hz_key_site(struct hz_report *k, int i, const struct block_ctx *bc,
		 uint64_t block, uint32_t tid, uint32_t pc, int acc);
uint32_t hz_api_site(const char *name);
void hz_key_other(struct hz_report *k, const struct simt_order_op *op,
		  const struct hz_rec *r, bool r_write);
struct simt_alloc;
void hz_key_place(struct hz_report *k, const struct block_ctx *bc,
		  const uint8_t *p);
void hz_key_place_alloc(struct hz_report *k, const struct simt_alloc *al,
			uint64_t off);
uint32_t hz_insn_bytes(const struct simt_module *mod, uint32_t pc, int acc);
/* The site of operation op as a race between streams names it. */
struct xsite hz_xsite_of(const struct simt_order_op *op);
void hz_print_new_reports(const struct launch_state *L);
void hz_at_exit(void);

/* sync.c: the release/acquire table of global locations, emptied at the
 * end of a launch, and the release and acquire sides of a strong access. */
void hz_gtable_clear(void);
void hz_sync_strong(struct hz_block *hb, uint32_t tid,
		    const struct simt_insn *in, bool shared, uint64_t key,
		    int kind, bool after);

/* access.c */
int hz_acc_of_rec(const struct hz_rec *r, bool write);
void hz_report_race(struct block_ctx *bc, int space, const struct hz_rec *r,
		    bool r_write, uint32_t tid, uint32_t pc, int acc, int why,
		    const uint8_t *at);
void hz_line_expand(const struct hz_rec *h, struct hz_word *fw, int k);
void hz_quiet_begin(struct hz_block *hb);
void hz_quiet_end(struct hz_block *hb, uint32_t base);

/* ---- the per-access primitives, inlined wherever they are used ---- */

/* Whether clock c is of the operation of another stream that this
 * block last found ordered before its launch (hb->ok_lo, ok_hi). */
static inline bool ok_clock(const struct hz_block *hb, uint32_t c)
{
	return c - hb->ok_lo - 1 < hb->ok_hi - hb->ok_lo;
}


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
		const struct hz_vc *v = hz_gvc_find(hb->t[me].xk, r->block);

		return v && v->c[r->tid] >= r->clk;
	}
}


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


/* Granule g's record, when line record h stands for it. */
static inline uint32_t line_tid(const struct hz_rec *h, uint32_t g)
{
	return h->tid + (g >> (h->mask >> 1));
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
		hz_line_expand(&h, fw, k);
		if (h.clk > base || !mark)
			mark = h.clk;
	}
	rec_put(hp, 0, mark, 0, 0, 0, 0);
}

/* A global shadow: the records of every granule, a line of 32 granules
 * (128 bytes) after another, then one struct hz_line per line (see "the
 * line layer" in access.c). */
static inline uint64_t line_count(uint64_t size)
{
	return (size + LINE_BYTES - 1) / LINE_BYTES;
}

static inline struct hz_line *lines_of(struct hz_word *sh, uint64_t size)
{
	return (struct hz_line *)(void *)(sh + line_count(size) * LINE_GRAN);
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

#endif
