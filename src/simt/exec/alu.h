/* Per-lane arithmetic shared by the interpreter's slow paths (alu.c). */
#ifndef SIMT_ALU_H
#define SIMT_ALU_H

#include "exec/exec.h"

uint64_t simt_ialu(const struct simt_insn *in, uint64_t a, uint64_t b,
		   uint64_t c, uint64_t d, uint32_t *cf);
uint64_t simt_falu(const struct simt_insn *in, uint64_t a, uint64_t b,
		   uint64_t c);
uint64_t simt_cvt(const struct simt_insn *in, uint64_t a, uint64_t b);
bool simt_compare(int type, int cmp, uint64_t a, uint64_t b, bool ftz);
bool simt_testp(int sub, int type, uint64_t a);
uint64_t simt_read_int(uint64_t v, int type);
float simt_ftz32(float x);
float simt_u2f(uint64_t v);
uint64_t simt_f2u(float f);
double simt_u2d(uint64_t v);
uint64_t simt_d2u(double d);
bool simt_rnd_directed(int rnd);
void simt_rnd_enter(int rnd);
void simt_rnd_leave(void);

#endif
