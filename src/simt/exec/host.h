/* What the interpreter asks of the runtime that hosts it: declared here,
 * answered in runtime/, so that exec includes nothing of the rooms above
 * it.  A kernel's access to another device's memory depends on peer
 * access and on memory pools' access lists, which the runtime keeps; and
 * a kernel may set the condition of the conditional graph node it runs
 * in, which belongs to the runtime's graphs. */
#ifndef SIMT_HOST_H
#define SIMT_HOST_H

#include "mem/mem.h"

/* runtime/memory.c: whether a kernel running on device d may access
 * allocation al: its own memory, memory every device reaches, or a
 * peer's memory with peer access from d enabled. */
bool simt_mem_reachable(const struct simt_alloc *al, int d);
/* Describes an access of n bytes to allocation al that device d may not
 * make (no peer access), naming both devices. */
void simt_mem_describe_peer(struct simt_buf *b, const struct simt_alloc *al,
			    uint64_t n, const char *what, int d);

/* runtime/graph_cond.c: a kernel's cudaGraphSetConditional; false for a
 * value that is no conditional handle. */
bool simt_graph_set_conditional(uint64_t handle, uint32_t value);

#endif
