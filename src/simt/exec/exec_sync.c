/* Warp-synchronous instructions and barriers: lanes waiting for the
 * members a .sync mask names, shfl, vote, match, elect, redux,
 * bar.warp.sync, block barriers (bar.sync, bar.red, bar.arrive) and the
 * barrier-misuse checks at each. */
#include "exec/exec.h"

#include "exec/hooks.h"
#include "exec/lanes.h"

static uint32_t sync_mask_of(const struct simt_module *mod,
			     const struct warp *w, uint32_t pc, unsigned lane)
{
	const struct simt_insn *in = &mod->code[pc];
	struct simt_opnd o;
	const uint64_t *row;

	switch (in->op) {
	case OP_BAR_WARP:
		o = in->o[0];
		break;
	case OP_ELECT:
		o = in->o[2];
		break;
	default:
		o = in->o[5];
		break;
	}
	if (o.kind == OK_NONE)
		return 0;
	if (o.kind == OK_IMM)
		row = mod->consts + (size_t)o.idx * 32;
	else if (o.kind == OK_SREG)
		row = w->sregs + (size_t)o.idx * 32;
	else
		row = w->regs + ((size_t)w->frames[w->lane_fi[lane]].row_base +
				 o.idx) * 32;
	return (uint32_t)row[lane];
}

/* The lanes of `lanes` that can run the .sync instruction at `pc` now:
 * the largest subset in which every lane's running members are all in the
 * subset.  Each lane waits only for the lanes its own mask names, and
 * lanes with different masks may run the instruction together. */
static uint32_t sync_ready_lanes(const struct simt_module *mod,
				 const struct warp *w, uint32_t pc,
				 uint32_t lanes)
{
	uint32_t live = w->exist & ~w->exited, need[32], prev;

	FOR_LANES(lanes, need[l] = sync_mask_of(mod, w, pc, l) & live);
	do {
		prev = lanes;
		FOR_LANES(prev, if (need[l] & ~lanes) lanes &= ~(1u << l));
	} while (lanes != prev);
	return lanes;
}

/* Lanes waiting at any bar.warp.sync: unlike the other .sync
 * instructions, lanes may meet at different bar.warp.sync instructions. */
static uint32_t waiting_warp_bar(const struct simt_module *mod,
				 const struct warp *w)
{
	uint32_t lanes = 0;

	FOR_LANES(w->sync_wait, if (mod->code[w->lane_pc[l]].op == OP_BAR_WARP)
					lanes |= 1u << l);
	return lanes;
}

/* Completes bar.warp.sync for waiting lanes: they go past it. */
static void release_warp_bar(struct warp *w, uint32_t lanes)
{
	w->synced++;
	FOR_LANES(lanes, w->lane_pc[l]++);
	w->sync_wait &= ~lanes;
}

/* Tells the checker that bar.warp.sync completed for `run` (lanes at
 * w->pc) and `past` (lanes released at their own bar.warp.sync, now one
 * past it).  A lane is ordered with the lanes its own mask names and no
 * others, so lanes that meet with different masks (two half-warps, each
 * naming its own half) are ordered as one group per mask. */
void simt_warp_bar_order(struct block_ctx *bc, const struct simt_module *mod,
			 const struct warp *w, uint32_t run, uint32_t past)
{
	uint32_t mask[32], lanes = run | past;

	FOR_LANES(run, mask[l] = sync_mask_of(mod, w, w->pc, l));
	FOR_LANES(past, mask[l] = sync_mask_of(mod, w, w->lane_pc[l] - 1, l));
	while (lanes) {
		uint32_t m = mask[__builtin_ctz(lanes)], group = 0;

		FOR_LANES(lanes, if (mask[l] == m) group |= 1u << l);
		simt_hz_warp_sync(bc, w, group);
		lanes &= ~group;
	}
}

/* Lets lanes waiting at a warp-synchronous instruction go on once every
 * lane their member mask names has arrived or exited. */
void simt_wake_sync(struct block_ctx *bc, const struct simt_module *mod,
		      struct warp *w)
{
	uint32_t left = w->sync_wait;

	while (left) {
		unsigned first = (unsigned)__builtin_ctz(left);
		uint32_t pc = w->lane_pc[first], fi = w->lane_fi[first], group = 0;
		uint32_t need;

		FOR_LANES(left, if (w->lane_pc[l] == pc && w->lane_fi[l] == fi)
					group |= 1u << l);
		left &= ~group;
		if (mod->code[pc].op == OP_BAR_WARP) {
			uint32_t bar = waiting_warp_bar(mod, w);

			need = sync_mask_of(mod, w, pc, first) & w->exist &
			       ~w->exited;
			if ((need & ~bar) == 0) {
				release_warp_bar(w, bar);
				if (bc->hz)
					simt_warp_bar_order(bc, mod, w, 0, bar);
			}
			continue;
		}
		w->sync_wait &= ~sync_ready_lanes(mod, w, pc, group);
	}
}

/* ---- warp-synchronous operations ---- */

/* Gathers the lanes a .sync instruction needs.  Returns true if the
 * instruction can run now with w->mask (possibly grown by lanes that were
 * waiting here); false if the group must wait (it has been parked). */
bool simt_warp_sync_ready(const struct simt_module *mod, struct warp *w,
			    uint32_t membermask)
{
	uint32_t need = membermask & w->exist & ~w->exited;
	uint32_t waiting = 0, ready;

	if (mod->code[w->pc].op == OP_BAR_WARP) {
		uint32_t bar = waiting_warp_bar(mod, w);

		if ((need & ~w->mask) == 0)
			return true;
		if ((need & ~(w->mask | bar)) == 0) {
			w->sync_extra |= bar;
			release_warp_bar(w, bar);
			return true;
		}
	} else if (sync_ready_lanes(mod, w, w->pc, w->mask) == w->mask) {
		return true;
	}
	FOR_LANES(w->sync_wait, if (w->lane_pc[l] == w->pc &&
				    w->lane_fi[l] == w->fi)
					waiting |= 1u << l);
	if (mod->code[w->pc].op == OP_BAR_WARP) {
		if ((need & ~(w->mask | waiting)) == 0) {
			w->sync_wait &= ~waiting;
			w->mask |= waiting;
			return true;
		}
	} else if ((ready = sync_ready_lanes(mod, w, w->pc,
					     w->mask | waiting)) != 0) {
		uint32_t stay = w->mask & ~ready;

		w->sync_wait = (w->sync_wait & ~ready) | stay;
		simt_park(w, stay, w->pc);
		w->mask = ready;
		return true;
	}
	simt_park(w, w->mask, w->pc);
	w->sync_wait |= w->mask;
	w->mask = 0;
	return false;
}

void simt_exec_shfl(struct block_ctx *bc, const struct warp *w,
		      const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex)
{
	uint64_t src[32];
	const uint64_t *A = R(in->o[2]), *Bv = R(in->o[3]), *Cv = R(in->o[4]);
	uint64_t *D = R(in->o[0]);
	uint32_t pbits = 0;
	unsigned i;

	for (i = 0; i < 32; i++)
		src[i] = A[i];
	FOR_LANES(ex, {
		uint32_t b = (uint32_t)Bv[l] & 31, c = (uint32_t)Cv[l];
		uint32_t clamp = c & 31, seg = (c >> 8) & 31;
		int32_t maxl = (int32_t)((l & seg) | (clamp & ~seg));
		int32_t minl = (int32_t)(l & seg), j;
		bool ok;

		switch (in->sub) {
		case SUB_UP:
			j = (int32_t)l - (int32_t)b;
			ok = j >= maxl;
			break;
		case SUB_DOWN:
			j = (int32_t)l + (int32_t)b;
			ok = j <= maxl;
			break;
		case SUB_BFLY:
			j = (int32_t)(l ^ b);
			ok = j <= maxl;
			break;
		default:
			j = minl | (int32_t)(b & ~seg);
			ok = j <= maxl;
			break;
		}
		if (!ok)
			j = (int32_t)l;
		else if (bc->hz && !((w->exist & ~w->exited) >> (j & 31) & 1))
			simt_hz_shfl_exited(bc, w, in, l, (unsigned)(j & 31), false);
		else if (bc->hz && !(ex >> (j & 31) & 1))
			simt_hz_shfl_exited(bc, w, in, l, (unsigned)(j & 31), true);
		D[l] = (uint32_t)src[j & 31];
		if (ok)
			pbits |= 1u << l;
	});
	if (in->o[1].kind != OK_NONE)
		pred_set(bases, in->o[1], pbits, ex);
}

/* The executing lanes lane l's member mask names (all of them when the
 * instruction has no mask). */
static inline uint32_t lane_members(const uint64_t *M, unsigned l, uint32_t ex)
{
	return M ? ex & (uint32_t)M[l] : ex;
}

/* Each lane votes over the lanes its own member mask names. */
void simt_exec_vote(const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex, const uint64_t *M)
{
	uint32_t p = pred_of(bases, in->o[1]) & ex, r = 0;

	if (in->sub != SUB_ALL && in->sub != SUB_ANY && in->sub != SUB_UNI) {
		uint64_t *D = R(in->o[0]);

		FOR_LANES(ex, D[l] = p & lane_members(M, l, ex));
		return;
	}
	FOR_LANES(ex, {
		uint32_t m = lane_members(M, l, ex), q = p & m;
		bool v = in->sub == SUB_ALL ? q == m
		       : in->sub == SUB_ANY ? q != 0
		       : q == m || q == 0;

		r |= (uint32_t)v << l;
	});
	pred_set(bases, in->o[0], r, ex);
}

/* match.any gives each lane the lanes of its own member mask that hold an
 * equal value; match.all gives each lane its member mask (and a true
 * predicate) when every lane of that mask holds one value, else 0. */
void simt_exec_match(const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex, const uint64_t *M)
{
	const uint64_t *A = R(in->o[2]);
	uint64_t *D = R(in->o[0]);
	bool b64 = simt_type_size(in->type) == 8;
	uint64_t vals[32];
	uint32_t pbits = 0;
	unsigned i;

	for (i = 0; i < 32; i++)
		vals[i] = b64 ? A[i] : (uint32_t)A[i];
	FOR_LANES(ex, {
		uint32_t m = lane_members(M, l, ex), same = 0, others = m;

		while (others) {
			unsigned k = (unsigned)__builtin_ctz(others);

			others &= others - 1;
			if (vals[k] == vals[l])
				same |= 1u << k;
		}
		if (in->sub == SUB_ANY) {
			D[l] = same;
		} else {
			bool all = same == m;

			D[l] = all ? m : 0;
			pbits |= (uint32_t)all << l;
		}
	});
	if (in->sub != SUB_ANY && in->o[1].kind != OK_NONE)
		pred_set(bases, in->o[1], pbits, ex);
}

/* Each lane's leader is the lowest lane of its own member mask; the
 * predicate is true in the lanes that lead their mask. */
void simt_exec_elect(const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex, const uint64_t *M)
{
	uint64_t *D = R(in->o[0]);
	uint32_t leaders = 0;

	FOR_LANES(ex, {
		uint32_t m = lane_members(M, l, ex);
		unsigned leader = m ? (unsigned)__builtin_ctz(m) : 0;

		if (in->o[0].kind != OK_NONE)
			D[l] = leader;
		if (m && leader == l)
			leaders |= 1u << l;
	});
	pred_set(bases, in->o[1], leaders, ex);
}

/* The reduction of A over `lanes` (0 when there are none). */
static uint32_t redux_over(const struct simt_insn *in, const uint64_t *A,
			   uint32_t lanes)
{
	uint32_t acc = 0;
	bool sgn = in->type == ST_S32, first = true;

	FOR_LANES(lanes, {
		uint32_t v = (uint32_t)A[l];

		if (first) {
			acc = v;
			first = false;
			continue;
		}
		switch (in->sub) {
		case SUB_ADD: acc += v; break;
		case SUB_AND: acc &= v; break;
		case SUB_OR: acc |= v; break;
		case SUB_XOR: acc ^= v; break;
		case SUB_MIN:
			acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc)
				  : (v < acc ? v : acc);
			break;
		default:
			acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc)
				  : (v > acc ? v : acc);
			break;
		}
	});
	return acc;
}

/* Each lane reduces over the lanes its own member mask names; lanes with
 * the same mask share one reduction. */
void simt_exec_redux(const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex, const uint64_t *M)
{
	const uint64_t *A = R(in->o[1]);
	uint64_t *D = R(in->o[0]);
	uint32_t todo = ex;

	while (todo) {
		unsigned first = (unsigned)__builtin_ctz(todo);
		uint32_t m = lane_members(M, first, ex), same = 0;
		uint32_t acc = redux_over(in, A, m);

		FOR_LANES(todo, if (lane_members(M, l, ex) == m) {
			D[l] = acc;
			same |= 1u << l;
		});
		todo &= ~same;
	}
}

/* ---- barriers ---- */

/* At a release: the lanes of one warp must have waited at one aligned
 * barrier instruction, not at two different ones. */
static void check_bar_pcs(struct block_ctx *bc, uint32_t id)
{
	const struct simt_module *mod = bc->L->mod;
	uint32_t wi;

	for (wi = 0; wi < bc->L->nwarps; wi++) {
		const struct warp *w = &bc->warps[wi];
		uint32_t lanes = w->barmask[id], first, same = 0, diff;

		if (!lanes)
			continue;
		first = w->lane_pc[__builtin_ctz(lanes)];
		diff = 0;
		FOR_LANES(lanes, diff |= w->lane_pc[l] ^ first);
		if (!diff)
			continue;  /* usual case: all at one barrier */
		FOR_LANES(lanes, if (w->lane_pc[l] == first) same |= 1u << l);
		if (same != lanes && (mod->code[first].sem & MSEM_ALIGNED))
			simt_hz_divergent_bar(bc, w, &mod->code[first], same,
					      lanes & ~same,
					      w->lane_pc[__builtin_ctz(lanes & ~same)]);
	}
}

static void barrier_release(struct block_ctx *bc, uint32_t id)
{
	const struct simt_module *mod = bc->L->mod;
	struct barrier *b = &bc->bars[id];
	uint32_t wi, pc0, diff;

	if (bc->hz) {
		simt_hz_bar_release(bc, id);
		check_bar_pcs(bc, id);
	}
	for (wi = 0; wi < bc->L->nwarps; wi++) {
		struct warp *w = &bc->warps[wi];
		uint32_t lanes = w->barmask[id];

		if (!lanes)
			continue;
		/* usual case: the warp's lanes wait at one plain barrier */
		pc0 = w->lane_pc[__builtin_ctz(lanes)];
		diff = 0;
		FOR_LANES(lanes, diff |= w->lane_pc[l] ^ pc0);
		if (!diff && mod->code[pc0].op != OP_BAR_RED) {
			FOR_LANES(lanes, w->lane_pc[l] = pc0 + 1);
			w->bar_wait &= ~lanes;
			w->barmask[id] = 0;
			continue;
		}
		FOR_LANES(lanes, {
			const struct simt_insn *in = &mod->code[w->lane_pc[l]];

			if (in->op == OP_BAR_RED) {
				uint64_t *fb = w->regs +
					(size_t)w->frames[w->lane_fi[l]].row_base * 32;
				uint64_t v = in->sub == 0 ? b->red_count
					   : in->sub == 1 ? b->red_and : b->red_or;

				if (in->type == ST_PRED) {
					uint64_t *row = fb + (size_t)in->o[0].idx * 32;

					row[0] = ((uint32_t)row[0] & ~(1u << l)) |
						 ((uint32_t)(v != 0) << l);
				} else if (in->o[0].kind == OK_REG) {
					fb[(size_t)in->o[0].idx * 32 + l] = (uint32_t)v;
				}
			}
			w->lane_pc[l]++;
		});
		w->bar_wait &= ~lanes;
		w->barmask[id] = 0;
	}
	b->arrived = 0;
	b->expected = 0;
	b->red_count = 0;
	b->red_and = true;
	b->red_or = false;
}

bool simt_barrier_check(struct block_ctx *bc, uint32_t id)
{
	struct barrier *b = &bc->bars[id];
	uint32_t need = b->expected ? b->expected
				    : bc->L->nthreads - bc->exited_threads;

	if (b->arrived == 0 || b->arrived < need)
		return false;
	barrier_release(bc, id);
	return true;
}

void simt_check_all_barriers(struct block_ctx *bc)
{
	uint32_t id;

	for (id = 0; id < NBARRIERS; id++)
		if (bc->bars[id].arrived)
			simt_barrier_check(bc, id);
}

/* Lanes `ex` arrive at barrier `id`; `wait` parks them until release. */
bool simt_bar_arrive(struct block_ctx *bc, struct warp *w,
		       const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex, bool wait)
{
	unsigned l0 = (unsigned)__builtin_ctz(ex);
	int first = in->op == OP_BAR_RED ? 1 : 0;
	uint32_t id = (uint32_t)R(in->o[first])[l0];
	uint32_t count = in->o[first + 1].kind == OK_NONE
		? 0 : (uint32_t)R(in->o[first + 1])[l0];
	struct barrier *b;

	if (id >= NBARRIERS) {
		simt_fault(bc, w, (int)l0, in, cudaErrorIllegalInstruction,
			   "barrier %u out of range (0..15)", id);
		return false;
	}
	b = &bc->bars[id];
	if (count)
		b->expected = count;
	if (in->op == OP_BAR_RED) {
		uint32_t p = pred_of(bases, in->o[3]) & ex;

		if (b->arrived == 0) {
			b->red_and = true;
			b->red_or = false;
			b->red_count = 0;
		}
		b->red_count += popc(p);
		if (p != ex)
			b->red_and = false;
		if (p)
			b->red_or = true;
	}
	b->arrived += popc(ex);
	bc->counts.barriers++;
	if (bc->hz)
		simt_hz_bar_arrive(bc, w, ex, id, wait);
	if (wait) {
		simt_park(w, ex, w->pc);
		w->barmask[id] |= ex;
		w->bar_wait |= ex;
	}
	simt_barrier_check(bc, id);
	return true;
}

/* Barrier misuse at an aligned barrier (__syncthreads()): lanes of the
 * group whose guard is false skip the barrier the others wait at. */
void simt_check_aligned_bar(struct block_ctx *bc, const struct warp *w,
			      const struct simt_insn *in, uint32_t ex)
{
	uint32_t skip = w->mask & ~ex & w->exist & ~w->exited;

	if (skip && ex)
		simt_hz_divergent_bar(bc, w, in, ex, skip, UINT32_MAX);
}

/* Member masks of a warp-synchronous instruction: the executing lane must
 * be in its own mask.  Lanes the mask names that have exited, before the
 * others arrived or while they waited, are no misuse: CUDA asks only the
 * non-exited lanes a mask names to take part (a warp whose last lanes
 * returned early still reduces with 0xffffffff).  Reading such a lane's
 * value is another matter, which simt_exec_shfl reports. */
void simt_check_members(struct block_ctx *bc, const struct warp *w,
			const struct simt_insn *in, uint32_t ex,
			const uint64_t *M)
{
	FOR_LANES(ex, {
		uint32_t m = (uint32_t)M[l];

		if (!(m >> l & 1)) {
			simt_hz_not_member(bc, w, in, l, m);
			return;
		}
	});
}

