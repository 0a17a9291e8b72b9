/* Which instructions ran (ops.c).  With CUDALAB_SIMT_OPS=FILE set, the
 * interpreter marks every instruction of each straight-line run it
 * enters, and at exit the distinct instructions that ran are appended to
 * FILE, one a line: the decoded op (simt_op_name), a tab, and the PTX
 * opcode as the program wrote it (mnemonic and modifiers).  `make
 * coverage` reads it to list what no conformance program runs.  Off (the
 * default), modules carry no marks and the interpreter pays one test per
 * run it enters. */
#ifndef SIMT_OPS_H
#define SIMT_OPS_H

#include "ptx/ptx.h"

#include <string.h>

extern bool simt_ops_on;

/* Gives mod its marks (mod->ran, one byte per instruction) when the
 * record is on; called once per module, before its first launch. */
void simt_ops_module(struct simt_module *mod);

/* Marks instructions pc .. pc + len - 1 of mod as run.  Threads running
 * blocks at once may mark the same bytes: they all write 1. */
static inline void simt_ops_ran(const struct simt_module *mod, uint32_t pc,
				uint32_t len)
{
	memset(mod->ran + pc, 1, len);
}

#endif
