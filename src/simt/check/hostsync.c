/* The host's side of the race check: managed and pinned memory that a
 * kernel or an asynchronous copy has written (or read) stays off limits
 * to the host until it synchronizes with that work.  simt finishes every
 * operation before the call that issued it returns, so a program that
 * reads a kernel's result in managed memory without cudaDeviceSynchronize
 * would always see the right values here and garbage on a GPU.
 *
 * Such memory is given pages of its own (memory.c), and after each
 * operation the pages of what it wrote are protected against any access
 * by the host, those of what it only read against writes.  A host access
 * there faults; the handler looks at the shadow record of the bytes (the
 * granule the fault address lies in): if the operation that made it is
 * one the host has not synchronized with, that is a race, reported like
 * the others.  Either way the page is opened and the access goes on.
 * When the host synchronizes (order.h's host clock moves), what it now
 * knows done is dropped and the protections recomputed.
 *
 * simt itself touches that memory too (the next kernel, a copy): a fault
 * while simt holds its API lock (simt_busy) just opens the allocation,
 * which the end of the operation protects again. */
#include "check/hazard.h"
#include "check/order.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

/* Operations of one lane not yet seen done by the host, as one entry per
 * allocation and lane: the latest that wrote it, the latest that read it
 * (an earlier one of the lane is done when the later is). */
struct pend {
	uint32_t lane;
	uint32_t wseq, rseq;        /* 0: none */
	struct simt_order_op wop, rop;
	uint32_t whi, rhi;          /* the operations' highest clocks */
};

struct tracked {
	uint64_t base, size;        /* page-aligned base; size in bytes */
	int prot;                   /* what the host may do now */
	bool opened;                /* a page of it opened by a fault */
	uint32_t npend, cappend;
	struct pend *pend;
};

static struct tracked *trk;
static size_t ntrk, captrk;
static bool handler_on;
static struct sigaction old_segv;
static size_t page;

atomic_int simt_busy;

static size_t page_size(void)
{
	if (!page) {
		long p = sysconf(_SC_PAGESIZE);

		page = p > 0 ? (size_t)p : 4096;
	}
	return page;
}

static uint64_t span(const struct tracked *t)
{
	return (t->size + page_size() - 1) & ~(uint64_t)(page_size() - 1);
}

static void set_prot(struct tracked *t, int prot)
{
	if (t->prot == prot && !t->opened)
		return;
	mprotect((void *)(uintptr_t)t->base, span(t), prot);
	t->prot = prot;
	t->opened = false;
}

static struct tracked *tracked_at(uint64_t a)
{
	size_t i;

	for (i = 0; i < ntrk; i++)
		if (a - trk[i].base < span(&trk[i]))
			return &trk[i];
	return NULL;
}

static void handler(int sig, siginfo_t *si, void *ctx);

void simt_hs_track(uint64_t base, uint64_t size)
{
	struct tracked *t;

	if (!handler_on) {
		struct sigaction sa;

		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = handler;
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGSEGV, &sa, &old_segv) != 0)
			return;
		handler_on = true;
	}
	if (ntrk == captrk) {
		captrk = captrk ? 2 * captrk : 16;
		trk = simt_xrealloc(trk, captrk * sizeof *trk);
	}
	t = &trk[ntrk++];
	memset(t, 0, sizeof *t);
	t->base = base;
	t->size = size;
	t->prot = PROT_READ | PROT_WRITE;
}

void simt_hs_forget(uint64_t base)
{
	size_t i;

	for (i = 0; i < ntrk; i++)
		if (trk[i].base == base) {
			set_prot(&trk[i], PROT_READ | PROT_WRITE);
			free(trk[i].pend);
			trk[i] = trk[--ntrk];
			return;
		}
}

/* The protection the host's knowledge leaves on t. */
static int wanted(const struct tracked *t)
{
	uint32_t i;
	int prot = PROT_READ | PROT_WRITE;

	for (i = 0; i < t->npend; i++) {
		if (t->pend[i].wseq)
			return PROT_NONE;
		if (t->pend[i].rseq)
			prot = PROT_READ;
	}
	return prot;
}

/* Drops what the host now knows done, and protects what is left. */
void simt_hs_settle(void)
{
	size_t i;

	for (i = 0; i < ntrk; i++) {
		struct tracked *t = &trk[i];
		uint32_t k = 0, j;

		for (j = 0; j < t->npend; j++) {
			struct pend *p = &t->pend[j];

			if (p->wseq && simt_order_host_knows(p->lane, p->wseq))
				p->wseq = 0;
			if (p->rseq && simt_order_host_knows(p->lane, p->rseq))
				p->rseq = 0;
			if (p->wseq || p->rseq)
				t->pend[k++] = *p;
		}
		t->npend = k;
		set_prot(t, wanted(t));
	}
}

/* The current operation, with clocks in (lo, hi], is done: what it
 * touched of tracked memory stays pending until the host knows it done
 * (host_waits: it does already). */
void simt_hs_op_done(uint32_t lo, uint32_t hi, bool host_waits)
{
	const struct simt_order_op *op = simt_order_current();
	size_t i;

	for (i = 0; i < ntrk && !host_waits; i++) {
		struct tracked *t = &trk[i];
		struct pend *p = NULL;
		uint32_t j;
		int how;

		/* the line records of memory the operation never reached
		 * need no look */
		if (simt_mem_touched(t->base) != lo ||
		    !(how = simt_hz_touched(t->base, lo, hi)))
			continue;
		for (j = 0; j < t->npend; j++)
			if (t->pend[j].lane == op->lane)
				p = &t->pend[j];
		if (!p) {
			if (t->npend == t->cappend) {
				t->cappend = t->cappend ? 2 * t->cappend : 4;
				t->pend = simt_xrealloc(t->pend, t->cappend * sizeof *t->pend);
			}
			p = &t->pend[t->npend++];
			memset(p, 0, sizeof *p);
			p->lane = op->lane;
		}
		if (how & 2) {
			p->wseq = op->seq;
			p->wop = *op;
			p->whi = hi;
		}
		if (how & 1) {
			p->rseq = op->seq;
			p->rop = *op;
			p->rhi = hi;
		}
	}
	simt_hs_settle();
}

/* Whether the host's access (write or not) of the granule at offset off
 * of t races with a pending operation; reports it if so. */
static void check_access(const struct tracked *t, uint64_t off, bool write)
{
	struct hz_rec r;
	uint32_t j;

	/* a strong device access is one side of a flag (a kernel spinning
	 * on a volatile read until the host writes it, say): the host's
	 * side is taken to be strong too, which simt cannot see */
	if (simt_hz_granule_rec(t->base, off, true, &r) && !simt_hz_rec_strong(&r))
		for (j = 0; j < t->npend; j++) {
			const struct pend *p = &t->pend[j];

			if (p->wseq && r.clk > p->wop.base && r.clk <= p->whi) {
				simt_hz_report_host(&p->wop, &r, true, write, t->base, off);
				return;
			}
		}
	if (!write || !simt_hz_granule_rec(t->base, off, false, &r) ||
	    simt_hz_rec_strong(&r))
		return;
	for (j = 0; j < t->npend; j++) {
		const struct pend *p = &t->pend[j];

		if (p->rseq && r.clk > p->rop.base && r.clk <= p->rhi) {
			simt_hz_report_host(&p->rop, &r, false, write, t->base, off);
			return;
		}
	}
}

static void handler(int sig, siginfo_t *si, void *ctx)
{
	uint64_t a = (uint64_t)(uintptr_t)si->si_addr;
	struct tracked *t = tracked_at(a);
	uint64_t pg;
	bool write = true;

	if (!t || t->prot == (PROT_READ | PROT_WRITE)) {
		/* not ours: whatever was there before decides */
		sigaction(SIGSEGV, &old_segv, NULL);
		handler_on = false;
		if (old_segv.sa_flags & SA_SIGINFO && old_segv.sa_sigaction)
			old_segv.sa_sigaction(sig, si, ctx);
		return;         /* SIG_DFL: the access faults again and ends it */
	}
	if (atomic_load(&simt_busy) > 0) {
		set_prot(t, PROT_READ | PROT_WRITE);
		return;
	}
#if defined(__x86_64__)
	write = (((ucontext_t *)ctx)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#endif
	if (a < t->base + t->size)
		check_access(t, a - t->base, write || t->prot == PROT_READ);
	/* the page is opened for the rest of this wait */
	pg = a & ~(uint64_t)(page_size() - 1);
	mprotect((void *)(uintptr_t)pg, page_size(), PROT_READ | PROT_WRITE);
	t->opened = true;
}
