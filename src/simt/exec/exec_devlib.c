/* What kernels call into the CUDA device library for: printf (vprintf),
 * assert (__assertfail) and the device heap (malloc, free). */
#include "exec/exec.h"

#include "exec/lanes.h"

#include <string.h>

/* ---- device printf and assert ---- */

struct fetch_ctx {
	struct block_ctx *bc;
	struct warp *w;
	unsigned lane;
};

/* Host-readable bytes at generic address a and how many follow, or NULL. */
static const uint8_t *peek(struct block_ctx *bc, struct warp *w, unsigned lane,
			   uint64_t a, size_t *avail)
{
	if (SIMT_WIN_OF(a) == SIMT_LOCAL_WIN) {
		uint64_t off = a - SIMT_LOCAL_WIN;
		uint32_t size = bc->L->local_per_thread;

		if (off >= size)
			return NULL;
		*avail = size - off;
		return bc->local + ((size_t)w->id * 32 + lane) * size + off;
	}
	if (SIMT_WIN_OF(a) == SIMT_SHARED_WIN) {
		uint64_t off = a - SIMT_SHARED_WIN;

		if (off >= bc->L->shared_size)
			return NULL;
		*avail = bc->L->shared_size - off;
		return bc->shared + off;
	}
	{
		const struct simt_alloc *al = simt_mem_find(a, 1);

		if (!al)
			return NULL;
		*avail = al->base + al->size - a;
		return simt_mem_host((const void *)(uintptr_t)a);
	}
}

static const char *fetch_string(void *vctx, uint64_t a)
{
	struct fetch_ctx *c = vctx;
	size_t avail;
	const uint8_t *p = peek(c->bc, c->w, c->lane, a, &avail);

	if (!p || !memchr(p, 0, avail))
		return NULL;
	return (const char *)p;
}

void simt_exec_vprintf(struct block_ctx *bc, struct warp *w,
			 const struct simt_insn *in, uint64_t *const *bases,
			 uint32_t ex)
{
	const uint64_t *F = R(in->o[0]), *A = R(in->o[1]);
	struct launch_state *L = bc->L;

	FOR_LANES(ex, {
		struct fetch_ctx fc = {bc, w, l};
		const char *fmt = fetch_string(&fc, F[l]);
		size_t avail = 0;
		int n;
		const uint8_t *args = A[l] ? peek(bc, w, l, A[l], &avail) : NULL;

		if (!fmt) {
			simt_buf_printf(&bc->out, "<printf: bad format address>\n");
			continue;
		}
		if (bc->out.len + L->out_bytes > L->printf_fifo + 1024) {
			L->out_dropped = true;
			continue;
		}
		n = simt_format_printf(&bc->out, fmt, args, args ? avail : 0,
				       fetch_string, &fc);
		if (in->o[5].kind == OK_REG)
			R(in->o[5])[l] = (uint32_t)n;
	});
}

void simt_exec_assert(struct block_ctx *bc, struct warp *w,
			const struct simt_insn *in, uint64_t *const *bases,
			uint32_t ex)
{
	const uint64_t *M = R(in->o[0]), *Fi = R(in->o[1]), *Li = R(in->o[2]);
	const uint64_t *Fn = R(in->o[3]);
	struct simt_buf b = {0};
	int shown = 0;

	FOR_LANES(ex, {
		struct fetch_ctx fc = {bc, w, l};
		const char *msg = fetch_string(&fc, M[l]);
		const char *file = fetch_string(&fc, Fi[l]);
		const char *fn = fetch_string(&fc, Fn[l]);
		uint32_t tid[3];

		if (shown++ >= 32)
			break;
		simt_thread_coords(bc, w, (int)l, tid);
		simt_buf_printf(&b, "%s:%u: %s: block: [%u,%u,%u], thread: "
				"[%u,%u,%u] Assertion `%s` failed.\n",
				file ? file : "?", (uint32_t)Li[l], fn ? fn : "?",
				bc->ctaid[0], bc->ctaid[1], bc->ctaid[2], tid[0],
				tid[1], tid[2], msg ? msg : "?");
	});
	simt_fault(bc, w, __builtin_ctz(ex), in, cudaErrorAssert, "%s",
		   b.s ? b.s : "");
	simt_buf_free(&b);
}

/* Device malloc: first fit in the launch's heap, under the launch lock. */
uint64_t simt_heap_alloc(struct launch_state *L, uint64_t size)
{
	uint64_t off = 0, need = (size + 15) / 16 * 16 + 16;

	if (!L->heap || size == 0)
		return 0;
	pthread_mutex_lock(&L->lock);
	while (off + need <= L->heap_size) {
		uint64_t hdr;

		memcpy(&hdr, L->heap + off, 8);
		if (hdr == 0) {
			uint64_t rest = L->heap_size - off;

			if (rest >= need) {
				uint64_t used = need | 1;

				memcpy(L->heap + off, &used, 8);
				pthread_mutex_unlock(&L->lock);
				return (uint64_t)(uintptr_t)(L->heap + off + 16);
			}
			break;
		}
		if (!(hdr & 1) && (hdr & ~1ull) >= need) {
			uint64_t used = hdr | 1;

			memcpy(L->heap + off, &used, 8);
			pthread_mutex_unlock(&L->lock);
			return (uint64_t)(uintptr_t)(L->heap + off + 16);
		}
		off += hdr & ~1ull;
	}
	pthread_mutex_unlock(&L->lock);
	return 0;
}

void simt_heap_free(struct launch_state *L, uint64_t p)
{
	uint8_t *q = (uint8_t *)(uintptr_t)p;
	uint64_t hdr;

	if (!L->heap || q < L->heap + 16 || q >= L->heap + L->heap_size)
		return;
	pthread_mutex_lock(&L->lock);
	memcpy(&hdr, q - 16, 8);
	hdr &= ~1ull;
	memcpy(q - 16, &hdr, 8);
	pthread_mutex_unlock(&L->lock);
}

