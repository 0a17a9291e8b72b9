/* Texture and surface objects as kernels see them: the table of
 * descriptors that a 64-bit handle indexes, which the runtime fills
 * (runtime/texture.c), and the interpreter's tex, txq, suld and sust
 * (decoded by ptx/decode_tex.c), which exec.c runs lane by lane. */
#ifndef SIMT_TEXTURE_H
#define SIMT_TEXTURE_H

#include "exec/exec.h"

/* A channel format: channels, bytes per channel and per element. */
struct format {
	int nch;       /* 1, 2 or 4 */
	int csize;     /* bytes per channel */
	int esize;     /* bytes per element */
	enum cudaChannelFormatKind kind;
};

/* A texture or surface object's descriptor. */
struct texobj {
	int dims;
	bool layered;
	bool fetch_only;   /* linear resource: integer indices, zero outside */
	bool as_float;     /* texels read as floats (float or normalized) */
	bool surface;      /* made by cudaCreateSurfaceObject */
	struct format fmt;
	uint8_t *base;     /* as the program knows it */
	uint8_t *host;     /* where simt reads it (simt_mem_host) */
	uint64_t span;     /* bytes from base the texels occupy */
	size_t w, h, d, layers;
	size_t pitch, slice;
	struct cudaResourceDesc rd;
	struct cudaTextureDesc td;
	bool cube;         /* a cubemap: layers are faces, six per cube */
};

/* The table of descriptors (any thread).  simt_tex_add takes t (allocated
 * with malloc) into the table and returns its handle; handles are never
 * reused, so a fetch through a destroyed one is recognised.
 * simt_tex_remove takes handle h out and frees its descriptor, false if
 * it names no live object of the kind asked for; simt_tex_lookup copies
 * the descriptor of h into *out, false if there is none. */
uint64_t simt_tex_add(struct texobj *t);
bool simt_tex_remove(uint64_t h, bool surface);
bool simt_tex_lookup(uint64_t h, struct texobj *out);

/* Runs an OP_TEX instruction for the lanes in ex.  Returns false after
 * reporting a fault (an unknown or destroyed texture object, or one whose
 * memory was freed). */
bool simt_tex_exec(struct block_ctx *bc, struct warp *w,
		   const struct simt_insn *in, uint64_t *const *bases,
		   uint32_t ex);

#endif
