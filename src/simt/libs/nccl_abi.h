/* The C view of the NCCL 2.28 interface that simt implements.
 *
 * simt is built with gcc without the CUDA headers, so the values and
 * layouts that programs see through the toolkit's nccl.h are restated
 * here under simt's own names.  tests/simt/nccl_abi.cu compiles this
 * header next to nccl.h and checks every value, size and offset. */
#ifndef SIMT_NCCL_ABI_H
#define SIMT_NCCL_ABI_H

#include <stddef.h>

#define SIMT_NCCL_VERSION_CODE 22809 /* 2.28.9: 2*10000 + 28*100 + 9 */
#define SIMT_NCCL_UNIQUE_ID_BYTES 128
#define SIMT_NCCL_CONFIG_MAGIC 0xcafebeefu
#define SIMT_NCCL_SIM_INFO_MAGIC 0x74685283u
#define SIMT_NCCL_SPLIT_NOCOLOR (-1)
#define SIMT_NCCL_CONFIG_UNDEF_INT (-2147483647 - 1)
#define SIMT_NCCL_WIN_COLL_SYMMETRIC 0x01

enum simt_nccl_result {
	SIMT_NCCL_SUCCESS = 0,
	SIMT_NCCL_UNHANDLED_CUDA_ERROR = 1,
	SIMT_NCCL_SYSTEM_ERROR = 2,
	SIMT_NCCL_INTERNAL_ERROR = 3,
	SIMT_NCCL_INVALID_ARGUMENT = 4,
	SIMT_NCCL_INVALID_USAGE = 5,
	SIMT_NCCL_REMOTE_ERROR = 6,
	SIMT_NCCL_IN_PROGRESS = 7,
	SIMT_NCCL_NUM_RESULTS = 8,
};

enum simt_nccl_op {
	SIMT_NCCL_SUM = 0,
	SIMT_NCCL_PROD = 1,
	SIMT_NCCL_MAX = 2,
	SIMT_NCCL_MIN = 3,
	SIMT_NCCL_AVG = 4,
	SIMT_NCCL_NUM_OPS = 5,
	/* the largest value a program-created operation may have */
	SIMT_NCCL_MAX_RED_OP = 0x7fffffff,
};

enum simt_nccl_type {
	SIMT_NCCL_INT8 = 0,
	SIMT_NCCL_UINT8 = 1,
	SIMT_NCCL_INT32 = 2,
	SIMT_NCCL_UINT32 = 3,
	SIMT_NCCL_INT64 = 4,
	SIMT_NCCL_UINT64 = 5,
	SIMT_NCCL_FLOAT16 = 6,
	SIMT_NCCL_FLOAT32 = 7,
	SIMT_NCCL_FLOAT64 = 8,
	SIMT_NCCL_BFLOAT16 = 9,
	SIMT_NCCL_FLOAT8E4M3 = 10,
	SIMT_NCCL_FLOAT8E5M2 = 11,
	SIMT_NCCL_NUM_TYPES = 12,
};

enum simt_nccl_residence {
	SIMT_NCCL_SCALAR_DEVICE = 0,
	SIMT_NCCL_SCALAR_HOST_IMMEDIATE = 1,
};

struct simt_nccl_unique_id {
	char internal[SIMT_NCCL_UNIQUE_ID_BYTES];
};

/* ncclConfig_v22800 */
struct simt_nccl_config {
	size_t size;
	unsigned int magic;
	unsigned int version;
	int blocking;
	int cgaClusterSize;
	int minCTAs;
	int maxCTAs;
	const char *netName;
	int splitShare;
	int trafficClass;
	const char *commName;
	int collnetEnable;
	int CTAPolicy;
	int shrinkShare;
	int nvlsCTAs;
	int nChannelsPerNetPeer;
	int nvlinkCentricSched;
};

/* ncclSimInfo_v22200 */
struct simt_nccl_sim_info {
	size_t size;
	unsigned int magic;
	unsigned int version;
	float estimatedTime;
};

#endif
