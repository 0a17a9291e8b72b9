/* Shared-memory race detection (CUDALAB_SIMT_RACECHECK=1).
 *
 * Every byte of a block's shared memory remembers the last thread
 * that wrote it and the last that read it (or "several readers"), with the
 * barrier epoch of the access and, for threads of one warp, the number of
 * __syncwarp() calls the warp had made.  An access by another thread in the
 * same epoch with no __syncwarp between them is a hazard: read after write,
 * write after read, or write after write.  Hazards are reported on stderr
 * (the first few per launch) and counted; the kernel goes on, as under a
 * race-checking tool on a GPU. */
#include "exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEVERAL UINT32_MAX
#define MAX_REPORTS 16

void simt_race_block_start(struct block_ctx *bc)
{
	struct launch_state *L = bc->L;
	size_t words = L->shared_size;

	if (bc->shadow_cap < words) {
		free(bc->shadow);
		bc->shadow = simt_xcalloc(words ? words : 1, sizeof *bc->shadow);
		bc->shadow_cap = words;
	}
	memset(bc->shadow, 0, words * sizeof *bc->shadow);
	bc->epoch = 1;
}

/* Whether an earlier access by thread `other` (in the current epoch, with
 * its warp's __syncwarp count `sync`) is ordered before thread `tid`'s. */
static bool ordered(const struct warp *w, uint32_t tid, uint32_t other,
		    uint32_t sync)
{
	if (other == tid)
		return true;
	if (other != SEVERAL && other / 32 == tid / 32)
		return w->synced != sync;
	return false;
}

static void coords(const struct launch_state *L, uint32_t t, uint32_t c[3])
{
	c[0] = t % L->block.x;
	c[1] = (t / L->block.x) % L->block.y;
	c[2] = t / (L->block.x * L->block.y);
}

static const char *const kinds[] = {"read-after-write", "write-after-read",
				     "write-after-write"};

/* Reports the first hazard of each kind at each instruction. */
static void report(struct block_ctx *bc, const struct simt_insn *in,
		   int k, uint64_t off, uint32_t tid, uint32_t other)
{
	struct launch_state *L = bc->L;
	uint32_t key = (uint32_t)(in - L->mod->code) << 2 | (uint32_t)k, i;
	const char *kind = kinds[k];
	struct simt_buf b = {0};
	uint32_t a[3], o[3];
	bool show = true;

	bc->counts.races++;
	pthread_mutex_lock(&L->lock);
	L->races++;
	for (i = 0; i < L->race_reports && i < 32; i++)
		if (L->race_seen[i] == key)
			show = false;
	if (show && L->race_reports < MAX_REPORTS)
		L->race_seen[L->race_reports++] = key;
	else
		show = false;
	pthread_mutex_unlock(&L->lock);
	if (!show)
		return;
	coords(L, tid, a);
	simt_buf_printf(&b, "simt: racecheck: shared-memory %s hazard at offset "
			"%llu ", kind, (unsigned long long)off);
	simt_describe_insn(&b, L->mod, in, (uint32_t)(in - L->mod->code));
	simt_buf_printf(&b, ", block (%u,%u,%u) thread (%u,%u,%u)", bc->ctaid[0],
			bc->ctaid[1], bc->ctaid[2], a[0], a[1], a[2]);
	if (other == SEVERAL) {
		simt_buf_printf(&b, ", against several readers");
	} else {
		coords(L, other, o);
		simt_buf_printf(&b, ", against thread (%u,%u,%u)", o[0], o[1], o[2]);
	}
	simt_buf_printf(&b, " with no barrier between them\n");
	fflush(stdout);
	fputs(b.s, stderr);
	simt_buf_free(&b);
}

void simt_race_access(struct block_ctx *bc, const struct warp *w,
		      unsigned lane, const struct simt_insn *in, uint64_t off,
		      uint32_t n, bool write)
{
	uint32_t tid = w->id * 32 + lane, sync = w->synced, e = bc->epoch;
	uint64_t k, first = off, last = off + n - 1;

	for (k = first; k <= last && k < bc->shadow_cap; k++) {
		struct race_word *s = &bc->shadow[k];

		if (s->w_epoch == e && !ordered(w, tid, s->w_tid, s->w_sync)) {
			report(bc, in, write ? 2 : 0, k, tid, s->w_tid);
			s->w_epoch = 0;
		}
		if (write && s->r_epoch == e &&
		    !ordered(w, tid, s->r_tid, s->r_sync)) {
			report(bc, in, 1, k, tid, s->r_tid);
			s->r_epoch = 0;
		}
		if (write) {
			s->w_tid = tid;
			s->w_epoch = e;
			s->w_sync = sync;
		} else {
			s->r_tid = (s->r_epoch == e && s->r_tid != tid) ? SEVERAL : tid;
			s->r_epoch = e;
			s->r_sync = sync;
		}
	}
}
