/* mbarrier objects: the split arrive/wait barriers of sm_80 that
 * cuda::barrier, cuda::pipeline and cooperative_groups::memcpy_async are
 * built on.
 *
 * An object lives in the 8 bytes of shared memory the program gives it,
 * so copying or clearing it behaves as on a GPU as far as the PTX ISA
 * defines (it calls the contents opaque).  simt's encoding:
 *
 *     bits  0-19  expected arrivals per phase (init's count, lowered by
 *                 arrive_drop)
 *     bits 32-51  arrivals still pending in the current phase
 *     bit  62     set by init, cleared by inval: the object is valid
 *     bit  63     parity of the current phase
 *
 * The state token an arrive returns is the object as it was just before
 * the arrive; pending_count reads the pending arrivals out of it and a
 * wait compares its phase bit with the object's.  A phase completes when
 * its pending count reaches zero: the parity flips and the pending count
 * starts again from the expected count.
 *
 * Each block runs on one host thread, so the lanes of a group update an
 * object one after another in lane order, with no atomics.  cp.async
 * copies are synchronous under simt, so the arrive that
 * cp.async.mbarrier.arrive promises for when the thread's copies are done
 * happens at once: with .noinc it is an arrive; without, the pending
 * count goes up by one and straight back down, which changes nothing.
 *
 * A wait that finds its phase incomplete ends the warp's turn, so the
 * warps that will arrive get to run; the scheduler calls the block
 * deadlocked once its warps have only polled, with no object changing,
 * for MBAR_STALL_ROUNDS rounds. */
#include "exec/mbarrier.h"
#include "exec/hooks.h"

#include <string.h>

#define MB_EXPECTED 0xfffffull
#define MB_PEND_SHIFT 32
#define MB_VALID (1ull << 62)
#define MB_PHASE (1ull << 63)
#define MB_MAX_COUNT 0xfffffu

/* Rounds over a block's warps in which every warp only failed mbarrier
 * waits (or stayed blocked) before the block counts as deadlocked.  A
 * loop that polls with a bounded number of tries and then does something
 * else would need this many polls to be cut short by mistake. */
#define MBAR_STALL_ROUNDS 20000

#define ROW(o) (bases[(o).kind] + (size_t)(o).idx * 32)

static uint32_t expected_of(uint64_t v)
{
	return (uint32_t)(v & MB_EXPECTED);
}

static uint32_t pending_of(uint64_t v)
{
	return (uint32_t)((v >> MB_PEND_SHIFT) & MB_EXPECTED);
}

static uint64_t make_obj(uint64_t phase, uint32_t expected, uint32_t pending)
{
	return phase | MB_VALID | expected | (uint64_t)pending << MB_PEND_SHIFT;
}

static const char *kind_name(int sub)
{
	switch (sub) {
	case MB_INIT: return "mbarrier.init";
	case MB_INVAL: return "mbarrier.inval";
	case MB_ARRIVE: return "mbarrier.arrive";
	case MB_ARRIVE_DROP: return "mbarrier.arrive_drop";
	case MB_PENDING: return "mbarrier.pending_count";
	case MB_CP_ARRIVE: case MB_CP_NOINC: return "cp.async.mbarrier.arrive";
	default: return "mbarrier wait";
	}
}

/* The lane's object address before the space is applied. */
static uint64_t lane_addr(const struct simt_insn *in, uint64_t *const *bases,
			  unsigned l)
{
	if (in->am == AM_REG)
		return ROW(in->addr)[l] + (uint64_t)in->imm;
	return (uint64_t)in->imm;
}

/* The object of lane l, checked like any 8-byte shared access; NULL
 * after reporting a fault.  *off receives its shared-memory offset. */
static uint8_t *obj_ptr(struct block_ctx *bc, const struct warp *w,
			unsigned l, const struct simt_insn *in,
			uint64_t *const *bases, uint32_t *off)
{
	uint64_t a = lane_addr(in, bases, l), o = a;
	uint32_t size = bc->L->shared_size;

	if (in->space == SS_GENERIC) {
		if (SIMT_WIN_OF(a) != SIMT_SHARED_WIN) {
			simt_fault(bc, w, (int)l, in, cudaErrorIllegalAddress,
				   "%s on address 0x%llx, which is not in shared "
				   "memory (mbarrier objects live in shared memory)",
				   kind_name(in->sub), (unsigned long long)a);
			return NULL;
		}
		o = a - SIMT_SHARED_WIN;
	}
	if (o & 7) {
		simt_fault(bc, w, (int)l, in, cudaErrorMisalignedAddress,
			   "misaligned shared mbarrier access of 8 bytes at "
			   "address 0x%llx (%s)", (unsigned long long)a,
			   kind_name(in->sub));
		return NULL;
	}
	if (o >= size || size - o < 8) {
		simt_fault(bc, w, (int)l, in, cudaErrorIllegalAddress,
			   "out-of-bounds shared mbarrier access of 8 bytes at "
			   "offset %llu; the block has %u bytes of shared memory",
			   (unsigned long long)o, size);
		return NULL;
	}
	*off = (uint32_t)o;
	return bc->shared + o;
}

static uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void store64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* Checks that lane l's object has been initialised; false after a
 * fault (a GPU's behaviour is undefined there). */
static bool valid_obj(struct block_ctx *bc, const struct warp *w, unsigned l,
		      const struct simt_insn *in, uint64_t v, uint32_t off)
{
	if (v & MB_VALID)
		return true;
	simt_fault(bc, w, (int)l, in, cudaErrorIllegalInstruction,
		   "%s on the mbarrier at shared offset %u, which is not "
		   "initialised (no mbarrier.init, or after mbarrier.inval)",
		   kind_name(in->sub), off);
	return false;
}

/* Lane l arrives `count` times, after lowering the expected count by
 * `drop`.  Returns the object as it was before, or stores nothing and
 * returns false through *ok after a fault. */
static uint64_t arrive(struct block_ctx *bc, const struct warp *w, unsigned l,
		       const struct simt_insn *in, uint8_t *p, uint32_t off,
		       uint32_t count, uint32_t drop, bool *ok)
{
	uint64_t v = load64(p), phase = v & MB_PHASE;
	uint32_t exp = expected_of(v), pend = pending_of(v);

	*ok = false;
	if (!valid_obj(bc, w, l, in, v, off))
		return 0;
	if (count == 0 || count > pend || drop > exp) {
		simt_fault(bc, w, (int)l, in, cudaErrorIllegalInstruction,
			   "%s with a count of %u on the mbarrier at shared "
			   "offset %u, which has %u arrival%s pending of %u "
			   "expected", kind_name(in->sub), count, off, pend,
			   pend == 1 ? "" : "s", exp);
		return 0;
	}
	exp -= drop;
	pend -= count;
	if (pend == 0) {
		if (in->sub2 & MBF_NOCOMPLETE) {
			simt_fault(bc, w, (int)l, in, cudaErrorIllegalInstruction,
				   "%s.noComplete completed the phase of the "
				   "mbarrier at shared offset %u",
				   kind_name(in->sub), off);
			return 0;
		}
		phase ^= MB_PHASE;
		pend = exp;
	}
	/* hazard checks: what the thread did so far is ordered before what
	 * the phase's waiters do once it completes */
	if (bc->hz)
		simt_hz_mbar_arrive(bc, w, l, off, phase != (v & MB_PHASE),
				    (unsigned)(v >> 63));
	store64(p, make_obj(phase, exp, pend));
	bc->mbar_changes++;
	*ok = true;
	return v;
}

static bool exec_init(struct block_ctx *bc, struct warp *w,
		      const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex)
{
	const uint64_t *C = ROW(in->o[1]);

	for (unsigned l = 0; l < 32; l++) {
		uint32_t off, n = (uint32_t)C[l];
		uint8_t *p;

		if (!(ex >> l & 1))
			continue;
		p = obj_ptr(bc, w, l, in, bases, &off);
		if (!p)
			return false;
		if (n == 0 || n > MB_MAX_COUNT) {
			simt_fault(bc, w, (int)l, in, cudaErrorIllegalInstruction,
				   "mbarrier.init with a count of %u; it must be "
				   "1 to %u", n, MB_MAX_COUNT);
			return false;
		}
		store64(p, make_obj(0, n, n));
		bc->mbar_changes++;
		if (bc->hz)
			simt_hz_mbar_init(bc, off);
	}
	return true;
}

static bool exec_arrive(struct block_ctx *bc, struct warp *w,
			const struct simt_insn *in, uint64_t *const *bases,
			uint32_t ex)
{
	const uint64_t *C = ROW(in->o[1]);
	uint64_t *D = ROW(in->o[0]);

	for (unsigned l = 0; l < 32; l++) {
		uint32_t off, n = in->sub2 & MBF_COUNT ? (uint32_t)C[l] : 1;
		uint8_t *p;
		uint64_t old;
		bool ok;

		if (!(ex >> l & 1))
			continue;
		p = obj_ptr(bc, w, l, in, bases, &off);
		if (!p)
			return false;
		if (bc->hz && (in->sub == MB_CP_ARRIVE || in->sub == MB_CP_NOINC))
			simt_hz_async_done(bc, w, l);
		if (in->sub == MB_CP_ARRIVE) {
			/* +1 now, -1 when the (already finished) copies are */
			if (!valid_obj(bc, w, l, in, load64(p), off))
				return false;
			continue;
		}
		old = arrive(bc, w, l, in, p, off, n,
			     in->sub == MB_ARRIVE_DROP ? n : 0, &ok);
		if (!ok)
			return false;
		if (in->sub != MB_CP_NOINC)
			D[l] = old;
	}
	return true;
}

/* Records where a warp's failed wait was, for a deadlock report. */
static void note_spin(struct warp *w, uint32_t pc, uint32_t lanes,
		      uint32_t off)
{
	w->spun = true;
	w->spin_pc = pc;
	w->spin_lanes = lanes;
	w->spin_off = off;
}

/* test_wait and try_wait: true in the lanes whose phase has completed.
 * Returns 1, SIMT_MBAR_YIELD when some lane's has not, or -1. */
static int exec_wait(struct block_ctx *bc, struct warp *w,
		     const struct simt_insn *in, uint64_t *const *bases,
		     uint32_t ex)
{
	const uint64_t *S = ROW(in->o[1]);
	uint64_t *P = ROW(in->o[0]);
	uint32_t done = 0, first_off = 0;
	bool found = false;

	for (unsigned l = 0; l < 32; l++) {
		uint32_t off;
		uint8_t *p;
		uint64_t v;
		bool complete;

		if (!(ex >> l & 1))
			continue;
		p = obj_ptr(bc, w, l, in, bases, &off);
		if (!p)
			return -1;
		v = load64(p);
		if (!valid_obj(bc, w, l, in, v, off))
			return -1;
		if (in->sub == MB_TEST_PARITY)
			complete = ((v >> 63) & 1) != (S[l] & 1);
		else
			complete = ((v ^ S[l]) & MB_PHASE) != 0;
		if (complete) {
			done |= 1u << l;
			if (bc->hz)
				simt_hz_mbar_wait(bc, w, l, off,
						  in->sub == MB_TEST_PARITY
						  ? (unsigned)(S[l] & 1)
						  : (unsigned)(S[l] >> 63));
		} else if (!found) {
			first_off = off;
			found = true;
		}
	}
	P[0] = ((uint32_t)P[0] & ~ex) | (done & ex);
	if (!found)
		return 1;
	note_spin(w, (uint32_t)(in - bc->L->mod->code), ex & ~done, first_off);
	return SIMT_MBAR_YIELD;
}

int simt_mbar_exec(struct block_ctx *bc, struct warp *w,
		   const struct simt_insn *in, uint64_t *const *bases,
		   uint32_t ex)
{
	switch (in->sub) {
	case MB_INIT:
		return exec_init(bc, w, in, bases, ex) ? 1 : -1;
	case MB_INVAL:
		for (unsigned l = 0; l < 32; l++) {
			uint32_t off;
			uint8_t *p;

			if (!(ex >> l & 1))
				continue;
			p = obj_ptr(bc, w, l, in, bases, &off);
			if (!p)
				return -1;
			store64(p, 0);
			bc->mbar_changes++;
		}
		return 1;
	case MB_PENDING: {
		const uint64_t *S = ROW(in->o[1]);
		uint64_t *D = ROW(in->o[0]);

		for (unsigned l = 0; l < 32; l++)
			if (ex >> l & 1)
				D[l] = pending_of(S[l]);
		return 1;
	}
	case MB_TEST_WAIT: case MB_TEST_PARITY:
		return exec_wait(bc, w, in, bases, ex);
	default:
		return exec_arrive(bc, w, in, bases, ex) ? 1 : -1;
	}
}

bool simt_mbar_stalled(struct block_ctx *bc, bool idle)
{
	if (!idle || bc->mbar_changes != bc->mbar_seen) {
		bc->mbar_seen = bc->mbar_changes;
		bc->mbar_idle = 0;
		return false;
	}
	return ++bc->mbar_idle >= MBAR_STALL_ROUNDS;
}

void simt_mbar_describe(struct block_ctx *bc, struct simt_buf *b)
{
	const struct simt_module *mod = bc->L->mod;
	uint32_t wi;

	for (wi = 0; wi < bc->nwarps; wi++) {
		const struct warp *w = &bc->warps[wi];
		uint32_t n = 0, lanes = w->spin_lanes & ~w->exited;
		uint64_t v;

		if (!w->spun || !lanes)
			continue;
		for (; lanes; lanes &= lanes - 1)
			n++;
		v = load64(bc->shared + w->spin_off);
		simt_buf_printf(b, "\n  %u thread%s of warp %u poll%s the mbarrier "
				"at shared offset %u (%u of %u arrivals pending, "
				"phase parity %u) ", n, n == 1 ? "" : "s", wi,
				n == 1 ? "s" : "", w->spin_off, pending_of(v),
				expected_of(v), (unsigned)(v >> 63));
		simt_describe_insn(b, mod, &mod->code[w->spin_pc], w->spin_pc);
	}
}
