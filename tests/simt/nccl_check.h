// nccl_check.h — what the NCCL conformance programs share: NCCLCHECK() for
// NCCL calls (prints the call and ncclGetErrorString, returns 1 from the
// enclosing function) and the element types as host values.
#ifndef SIMT_TEST_NCCL_CHECK_H
#define SIMT_TEST_NCCL_CHECK_H

#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <nccl.h>

#include "check.h"

#define NCCLCHECK(call)                                                     \
    do {                                                                    \
        ncclResult_t r_ = (call);                                           \
        if (r_ != ncclSuccess) {                                            \
            fprintf(stderr, "FAIL %s:%d %s returned %d (%s)\n", __FILE__,  \
                    __LINE__, #call, (int)r_, ncclGetErrorString(r_));      \
            return 1;                                                       \
        }                                                                   \
    } while (0)

// Every NCCL data type, with its size and name.
static const ncclDataType_t all_types[] = {
    ncclInt8, ncclUint8, ncclInt32, ncclUint32, ncclInt64, ncclUint64,
    ncclFloat16, ncclFloat32, ncclFloat64, ncclBfloat16, ncclFloat8e4m3,
    ncclFloat8e5m2,
};
static const char *const type_names[] = {
    "int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float",
    "double", "bfloat16", "fp8e4m3", "fp8e5m2",
};

static size_t type_size(ncclDataType_t t)
{
    switch (t) {
    case ncclInt8: case ncclUint8: case ncclFloat8e4m3: case ncclFloat8e5m2:
        return 1;
    case ncclFloat16: case ncclBfloat16:
        return 2;
    case ncclInt32: case ncclUint32: case ncclFloat32:
        return 4;
    default:
        return 8;
    }
}

static bool type_signed(ncclDataType_t t)
{
    return t != ncclUint8 && t != ncclUint32 && t != ncclUint64;
}

// Stores v (exactly representable in t) as a t at p[i], through the
// toolkit's own host conversions.
static void store(void *p, size_t i, ncclDataType_t t, double v)
{
    char *b = (char *)p + i * type_size(t);
    switch (t) {
    case ncclInt8: { int8_t x = (int8_t)v; memcpy(b, &x, 1); break; }
    case ncclUint8: { uint8_t x = (uint8_t)v; memcpy(b, &x, 1); break; }
    case ncclInt32: { int32_t x = (int32_t)v; memcpy(b, &x, 4); break; }
    case ncclUint32: { uint32_t x = (uint32_t)v; memcpy(b, &x, 4); break; }
    case ncclInt64: { int64_t x = (int64_t)v; memcpy(b, &x, 8); break; }
    case ncclUint64: { uint64_t x = (uint64_t)v; memcpy(b, &x, 8); break; }
    case ncclFloat16: { __half x = __double2half(v); memcpy(b, &x, 2); break; }
    case ncclFloat32: { float x = (float)v; memcpy(b, &x, 4); break; }
    case ncclFloat64: memcpy(b, &v, 8); break;
    case ncclBfloat16: { __nv_bfloat16 x = __double2bfloat16(v); memcpy(b, &x, 2); break; }
    case ncclFloat8e4m3: { __nv_fp8_e4m3 x((float)v); memcpy(b, &x, 1); break; }
    default: { __nv_fp8_e5m2 x((float)v); memcpy(b, &x, 1); break; }
    }
}

static double load(const void *p, size_t i, ncclDataType_t t)
{
    const char *b = (const char *)p + i * type_size(t);
    switch (t) {
    case ncclInt8: { int8_t x; memcpy(&x, b, 1); return x; }
    case ncclUint8: { uint8_t x; memcpy(&x, b, 1); return x; }
    case ncclInt32: { int32_t x; memcpy(&x, b, 4); return x; }
    case ncclUint32: { uint32_t x; memcpy(&x, b, 4); return x; }
    case ncclInt64: { int64_t x; memcpy(&x, b, 8); return (double)x; }
    case ncclUint64: { uint64_t x; memcpy(&x, b, 8); return (double)x; }
    case ncclFloat16: { __half x; memcpy(&x, b, 2); return __half2float(x); }
    case ncclFloat32: { float x; memcpy(&x, b, 4); return x; }
    case ncclFloat64: { double x; memcpy(&x, b, 8); return x; }
    case ncclBfloat16: { __nv_bfloat16 x; memcpy(&x, b, 2); return __bfloat162float(x); }
    case ncclFloat8e4m3: { __nv_fp8_e4m3 x; memcpy(&x, b, 1); return (float)x; }
    default: { __nv_fp8_e5m2 x; memcpy(&x, b, 1); return (float)x; }
    }
}

#endif
