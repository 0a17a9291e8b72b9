// simt restates nccl.h's values and layouts under its own names
// (src/simt/nccl_abi.h), since simt is built without the CUDA headers.
// This program compiles both side by side and checks every result code,
// reduction, data type, scalar residence, constant, and the size and field
// offsets of ncclUniqueId, ncclConfig_t and ncclSimInfo_t, at compile time;
// at run time it checks the version, the error strings and what
// NCCL_CONFIG_INITIALIZER fills in.
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <nccl.h>

#include "../../src/simt/nccl_abi.h"

#define SAME(a, b) static_assert((long long)(a) == (long long)(b), #a " != " #b)

SAME(SIMT_NCCL_VERSION_CODE, NCCL_VERSION_CODE);
SAME(SIMT_NCCL_UNIQUE_ID_BYTES, NCCL_UNIQUE_ID_BYTES);
SAME(SIMT_NCCL_SPLIT_NOCOLOR, NCCL_SPLIT_NOCOLOR);
SAME(SIMT_NCCL_CONFIG_UNDEF_INT, NCCL_CONFIG_UNDEF_INT);
SAME(SIMT_NCCL_WIN_COLL_SYMMETRIC, NCCL_WIN_COLL_SYMMETRIC);

SAME(SIMT_NCCL_SUCCESS, ncclSuccess);
SAME(SIMT_NCCL_UNHANDLED_CUDA_ERROR, ncclUnhandledCudaError);
SAME(SIMT_NCCL_SYSTEM_ERROR, ncclSystemError);
SAME(SIMT_NCCL_INTERNAL_ERROR, ncclInternalError);
SAME(SIMT_NCCL_INVALID_ARGUMENT, ncclInvalidArgument);
SAME(SIMT_NCCL_INVALID_USAGE, ncclInvalidUsage);
SAME(SIMT_NCCL_REMOTE_ERROR, ncclRemoteError);
SAME(SIMT_NCCL_IN_PROGRESS, ncclInProgress);
SAME(SIMT_NCCL_NUM_RESULTS, ncclNumResults);

SAME(SIMT_NCCL_SUM, ncclSum);
SAME(SIMT_NCCL_PROD, ncclProd);
SAME(SIMT_NCCL_MAX, ncclMax);
SAME(SIMT_NCCL_MIN, ncclMin);
SAME(SIMT_NCCL_AVG, ncclAvg);
SAME(SIMT_NCCL_NUM_OPS, ncclNumOps);
SAME(SIMT_NCCL_MAX_RED_OP, ncclMaxRedOp);

SAME(SIMT_NCCL_INT8, ncclInt8);
SAME(SIMT_NCCL_UINT8, ncclUint8);
SAME(SIMT_NCCL_INT32, ncclInt32);
SAME(SIMT_NCCL_UINT32, ncclUint32);
SAME(SIMT_NCCL_INT64, ncclInt64);
SAME(SIMT_NCCL_UINT64, ncclUint64);
SAME(SIMT_NCCL_FLOAT16, ncclFloat16);
SAME(SIMT_NCCL_FLOAT32, ncclFloat32);
SAME(SIMT_NCCL_FLOAT64, ncclFloat64);
SAME(SIMT_NCCL_BFLOAT16, ncclBfloat16);
SAME(SIMT_NCCL_FLOAT8E4M3, ncclFloat8e4m3);
SAME(SIMT_NCCL_FLOAT8E5M2, ncclFloat8e5m2);
SAME(SIMT_NCCL_NUM_TYPES, ncclNumTypes);

SAME(SIMT_NCCL_SCALAR_DEVICE, ncclScalarDevice);
SAME(SIMT_NCCL_SCALAR_HOST_IMMEDIATE, ncclScalarHostImmediate);

SAME(sizeof(simt_nccl_unique_id), sizeof(ncclUniqueId));
SAME(sizeof(simt_nccl_config), sizeof(ncclConfig_t));
SAME(sizeof(simt_nccl_sim_info), sizeof(ncclSimInfo_t));
SAME(sizeof(ncclRedOp_t), sizeof(int));
SAME(sizeof(ncclDataType_t), sizeof(int));
SAME(sizeof(ncclResult_t), sizeof(int));

#define FIELD(s, t, f) SAME(offsetof(s, f), offsetof(t, f)); \
    SAME(sizeof(((s *)0)->f), sizeof(((t *)0)->f))
FIELD(simt_nccl_config, ncclConfig_t, size);
FIELD(simt_nccl_config, ncclConfig_t, magic);
FIELD(simt_nccl_config, ncclConfig_t, version);
FIELD(simt_nccl_config, ncclConfig_t, blocking);
FIELD(simt_nccl_config, ncclConfig_t, cgaClusterSize);
FIELD(simt_nccl_config, ncclConfig_t, minCTAs);
FIELD(simt_nccl_config, ncclConfig_t, maxCTAs);
FIELD(simt_nccl_config, ncclConfig_t, netName);
FIELD(simt_nccl_config, ncclConfig_t, splitShare);
FIELD(simt_nccl_config, ncclConfig_t, trafficClass);
FIELD(simt_nccl_config, ncclConfig_t, commName);
FIELD(simt_nccl_config, ncclConfig_t, collnetEnable);
FIELD(simt_nccl_config, ncclConfig_t, CTAPolicy);
FIELD(simt_nccl_config, ncclConfig_t, shrinkShare);
FIELD(simt_nccl_config, ncclConfig_t, nvlsCTAs);
FIELD(simt_nccl_config, ncclConfig_t, nChannelsPerNetPeer);
FIELD(simt_nccl_config, ncclConfig_t, nvlinkCentricSched);
FIELD(simt_nccl_sim_info, ncclSimInfo_t, size);
FIELD(simt_nccl_sim_info, ncclSimInfo_t, magic);
FIELD(simt_nccl_sim_info, ncclSimInfo_t, version);
FIELD(simt_nccl_sim_info, ncclSimInfo_t, estimatedTime);

int main()
{
    int fails = 0, v = 0;
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    ncclSimInfo_t sim = NCCL_SIM_INFO_INITIALIZER;

    if (ncclGetVersion(&v) != ncclSuccess || v != NCCL_VERSION_CODE) {
        fprintf(stderr, "FAIL ncclGetVersion gave %d, the header says %d\n", v, NCCL_VERSION_CODE);
        fails++;
    }
    if (config.magic != SIMT_NCCL_CONFIG_MAGIC || sim.magic != SIMT_NCCL_SIM_INFO_MAGIC) {
        fprintf(stderr, "FAIL initializer magics 0x%x 0x%x\n", config.magic, sim.magic);
        fails++;
    }
    if (strcmp(ncclGetErrorString(ncclSuccess), "no error") != 0 ||
        strstr(ncclGetErrorString(ncclInvalidArgument), "invalid argument") == nullptr ||
        strstr(ncclGetErrorString(ncclInvalidUsage), "invalid usage") == nullptr) {
        fprintf(stderr, "FAIL error strings: '%s' '%s' '%s'\n", ncclGetErrorString(ncclSuccess),
                ncclGetErrorString(ncclInvalidArgument), ncclGetErrorString(ncclInvalidUsage));
        fails++;
    }
    if (fails)
        return 1;
    printf("ok nccl_abi\n");
    return 0;
}
