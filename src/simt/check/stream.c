/* Copies and memsets issued to streams, checked against the work of other
 * streams that is not ordered before them (see order.h), and what
 * hostsync.c asks about the records of managed and pinned memory. */
#include "check/hz_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	/* the allocation and bytes of the range being checked */
	const struct simt_alloc *al;
	uint64_t n;
} xop = {.cached = -1};

void simt_hz_op_begin(uint32_t lane, bool host_waits, const char *api)
{
	struct simt_order_op what = {0};

	if (!simt_hz_enabled())
		return;
	hz_clocks_check();
	what.name = api;
	xop.base = hz_clock_base;
	xop.fence = simt_order_begin(lane, hz_clock_base, &what);
	xop.record = !host_waits && simt_order_streams();
	xop.host_waits = host_waits;
	xop.cached = -1;
	xop.pending = 0;
	xop.on = true;
}

static void op_flush(void)
{
	if (xop.cached >= 0 && xop.pending) {
		pthread_mutex_lock(&hz_report_lock);
		hz_reports[xop.cached].count += xop.pending;
		pthread_mutex_unlock(&hz_report_lock);
		simt_counters_add_hazards(xop.pending);
	}
	xop.pending = 0;
}

/* Record r, of an earlier operation, met by the current copy or memset
 * (write: it writes the bytes) at byte off of xop.al, the first both
 * touch. */
static void copy_race(const struct hz_rec *r, bool r_write, bool write,
		      uint64_t off)
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
	hz_key_other(&k, op, r, r_write);
	k.site[1] = hz_api_site(me->name);
	k.acc[1] = write ? AC_WRITE : AC_READ;
	k.nsites = 2;
	k.xs[1] = hz_xsite_of(me);
	hz_key_place_alloc(&k, xop.al, off);
	k.bytes[1] = (uint32_t)(xop.n < UINT32_MAX ? xop.n : UINT32_MAX);
	if (xop.cached >= 0 && hz_same_key(&hz_reports[xop.cached], &k)) {
		xop.pending++;
		return;
	}
	op_flush();
	xop.cached = hz_report_outside(&k, hz_xop_message, &fresh);
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
		copy_race(&h, w, write, lo);
		return;
	}
	for (g = lo / 4; g * 4 < hi; g++) {
		const struct hz_rec *r = w ? &fw[g % LINE_GRAN].w : &fw[g % LINE_GRAN].r;
		uint8_t m = r->mask & bytes_mask(g, lo, hi);

		if (r->clk > xop.fence && r->clk <= xop.base && m)
			copy_race(r, w, write, g * 4 + (uint64_t)__builtin_ctz(m));
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
	xop.al = al;
	xop.n = n;
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
	hz_clock_base = xop.base + 2;
	if (xop.host_waits)
		simt_order_host_lane(lane);
	simt_hs_op_done(xop.base, xop.base + 1, xop.host_waits);
	fflush(stdout);
	pthread_mutex_lock(&hz_report_lock);
	for (i = 0; i < hz_nreports; i++) {
		struct hz_report *r = &hz_reports[i];

		if (r->xop && !r->xs[1].mod && !r->shown) {
			fprintf(stderr, "simt: %s\n  in %s: %llu time%s\n", r->msg,
				r->xs[1].name, (unsigned long long)r->count,
				r->count == 1 ? "" : "s");
			r->shown = r->count;
		}
	}
	pthread_mutex_unlock(&hz_report_lock);
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
	hz_xsite_text(&b, r, 0);
	simt_buf_printf(&b, " and a host %s of %s", hz_acc_words[r->acc[1]], r->xs[1].name);
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
	hz_key_other(&k, op, r, r_write);
	k.why = WHY_HOST;
	k.site[1] = hz_api_site(host_write ? "host write" : "host read");
	k.acc[1] = host_write ? AC_WRITE : AC_READ;
	k.nsites = 2;
	k.xs[1] = (struct xsite){NULL, what, UINT32_MAX, -1, 0, 0};
	i = hz_report_outside(&k, host_message, &fresh);
	if (fresh) {
		pthread_mutex_lock(&hz_report_lock);
		/* the name was the text above, made for this report's message */
		hz_reports[i].xs[1].name = "the host";
		hz_reports[i].shown = 1;
		pthread_mutex_unlock(&hz_report_lock);
		/* stderr only: the fault may have come in the middle of the
		 * program's own use of stdout */
		fprintf(stderr, "simt: %s\n  in host code: 1 time\n", hz_reports[i].msg);
	}
}
