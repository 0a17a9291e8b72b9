/* nccl_abi.h at its place before simt had rooms: tests/simt/nccl_abi.cu
 * includes it by this path to compile simt's restatement of nccl.h beside
 * the real one.  The header itself is libs/nccl_abi.h; this is the one
 * file outside the rooms (build-aux/check-layers.sh knows it). */
#include "libs/nccl_abi.h"
