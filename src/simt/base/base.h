/* simt's small helpers, which every room may use: allocation that aborts
 * on failure, a growable string, messages, the environment, and the
 * floating-point conversions with PTX's rounding modes.  Nothing here
 * knows about PTX, kernels or the CUDA runtime. */
#ifndef SIMT_BASE_H
#define SIMT_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- allocation, strings, messages (sutil.c) ---- */

void *simt_xmalloc(size_t n);
void *simt_xcalloc(size_t n, size_t size);
void *simt_xrealloc(void *p, size_t n);
char *simt_xstrdup(const char *s);
char *simt_xstrndup(const char *s, size_t n);
char *simt_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
double simt_now(void);
/* Prints "simt: " and the message to stderr. */
void simt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
long simt_env_long(const char *name, long dflt);
/* A floating literal given for an integer: truncated toward zero and
 * saturated to int64_t (as cvt.rzi.sat.s64.f64 does), NaN giving 0; as
 * the 64 bits of that integer. */
uint64_t simt_float_literal_bits(double x);

struct simt_buf {
	char *s;
	size_t len, cap;
};
void simt_buf_add(struct simt_buf *b, const char *s, size_t n);
void simt_buf_printf(struct simt_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void simt_buf_vprintf(struct simt_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void simt_buf_free(struct simt_buf *b);

/* ---- names for messages (demangle.c) ---- */

/* Writes the demangled form of `mangled` into buf (n bytes), or the name
 * itself when it is not a mangled function name, and returns buf. */
const char *simt_demangle(const char *mangled, char *buf, size_t n);

/* ---- floating point (fp.c) ---- */

/* Rounding modes, as PTX names them. */
enum { RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNI, RND_RZI,
       RND_RMI, RND_RPI, RND_RNA };

float simt_h2f(uint16_t h);
uint16_t simt_f2h(double x, int rnd);
float simt_bf2f(uint16_t h);
uint16_t simt_f2bf(double x, int rnd);
float simt_round_f32(double x, int rnd);

#endif
