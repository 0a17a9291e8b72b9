// Integer comparisons of every type and operator at the boundaries:
// setp for s16/u16/b16, s32/u32/b32 and s64/u64/b64 with eq, ne, lt, le,
// gt, ge (and lo, ls, hi, hs for the unsigned types), register against
// register and register against an immediate, and set.OP.u32 for the
// 32- and 64-bit types.  Each thread takes one pair of a type's edge
// values (its minimum, minimum + 1, -1 or its half-way point, 0, 1,
// maximum - 1, maximum), so every operator meets equal operands, operands
// one apart, and operands whose order depends on the signedness.  Every
// result is written as inline PTX, so that the instruction tested is the
// one named; the host computes the expected bits with C's own operators.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#include "check.h"

typedef unsigned long long u64;
typedef long long s64;

enum { V = 7, PAIRS = V * V };

// Operators, one bit each in a result word.
enum { EQ, NE, LT, LE, GT, GE, LO, LS, HI, HS, NOPS };

#define SETP16(ty, op, bit)                                                                   \
    asm("{ .reg .pred p; setp." op "." ty " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r)     \
        : "h"(a), "h"(b));                                                                    \
    bits |= r << bit
#define SETP32(ty, op, bit)                                                                   \
    asm("{ .reg .pred p; setp." op "." ty " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r)     \
        : "r"(a), "r"(b));                                                                    \
    bits |= r << bit
#define SETP64(ty, op, bit)                                                                   \
    asm("{ .reg .pred p; setp." op "." ty " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r)     \
        : "l"(a), "l"(b));                                                                    \
    bits |= r << bit
// set.OP.u32.TYPE writes all ones or zero
#define SET32(ty, op, bit)                                                                    \
    asm("set." op ".u32." ty " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));                     \
    bits |= (r & 1) << bit
#define SET64(ty, op, bit)                                                                    \
    asm("set." op ".u32." ty " %0, %1, %2;" : "=r"(r) : "l"(a), "l"(b));                     \
    bits |= (r & 1) << bit

#define SIGNED_OPS(M, ty)                                                                     \
    M(ty, "eq", EQ); M(ty, "ne", NE); M(ty, "lt", LT); M(ty, "le", LE);                       \
    M(ty, "gt", GT); M(ty, "ge", GE)
#define UNSIGNED_OPS(M, ty)                                                                   \
    SIGNED_OPS(M, ty); M(ty, "lo", LO); M(ty, "ls", LS); M(ty, "hi", HI); M(ty, "hs", HS)
#define BIT_OPS(M, ty) M(ty, "eq", EQ); M(ty, "ne", NE)

// Results of one type's pairs: out[f * PAIRS + t] for family f (setp
// signed, unsigned, bits; then set signed, unsigned where the type has
// set: HAS_SET).
#define CMP_KERNEL(name, T, SETP, SET, HAS_SET, st, ut, bt)                                   \
    __global__ void name(const T *va, unsigned *out)                                          \
    {                                                                                         \
        int t = threadIdx.x;                                                                  \
        T a = va[t / V], b = va[t % V];                                                       \
        unsigned r, bits = 0;                                                                 \
        SIGNED_OPS(SETP, st);                                                                 \
        out[t] = bits;                                                                        \
        bits = 0;                                                                             \
        UNSIGNED_OPS(SETP, ut);                                                               \
        out[PAIRS + t] = bits;                                                                \
        bits = 0;                                                                             \
        BIT_OPS(SETP, bt);                                                                    \
        out[2 * PAIRS + t] = bits;                                                            \
        if (HAS_SET) {                                                                        \
            bits = 0;                                                                         \
            SIGNED_OPS(SET, st);                                                              \
            out[3 * PAIRS + t] = bits;                                                        \
            bits = 0;                                                                         \
            UNSIGNED_OPS(SET, ut);                                                            \
            out[4 * PAIRS + t] = bits;                                                        \
        }                                                                                     \
    }
// set has no 16-bit form: NOSET stands in for it and is never run
#define NOSET(ty, op, bit) (void)r
CMP_KERNEL(cmp16, unsigned short, SETP16, NOSET, false, "s16", "u16", "b16")
CMP_KERNEL(cmp32, unsigned, SETP32, SET32, true, "s32", "u32", "b32")
CMP_KERNEL(cmp64, u64, SETP64, SET64, true, "s64", "u64", "b64")

// Against immediates: a register compared with 0, -1 and 1 (the edges
// where the signedness and the operator's equality matter).
#define SETPI(ty, op, imm, bit)                                                               \
    asm("{ .reg .pred p; setp." op "." ty " p, %1, " imm "; selp.u32 %0, 1, 0, p; }"           \
        : "=r"(r) : "r"(a));                                                                  \
    bits |= r << bit
__global__ void cmp32_imm(const unsigned *va, unsigned *out)
{
    int t = threadIdx.x;
    unsigned a = va[t];
    unsigned r, bits = 0;
    SETPI("s32", "le", "0", 0); SETPI("s32", "lt", "0", 1); SETPI("s32", "ge", "0", 2);
    SETPI("s32", "gt", "-1", 3); SETPI("s32", "le", "-1", 4); SETPI("s32", "eq", "1", 5);
    SETPI("u32", "ls", "1", 6); SETPI("u32", "lo", "1", 7); SETPI("u32", "hs", "-1", 8);
    SETPI("u32", "hi", "0", 9); SETPI("u32", "le", "0", 10); SETPI("u32", "ne", "0", 11);
    out[t] = bits;
}

// The expected bits of one pair, from C's operators on the host.
template <typename T>
static unsigned host_bits(T a, T b, bool is_unsigned, bool bit_type)
{
    unsigned bits = (unsigned)(a == b) << EQ | (unsigned)(a != b) << NE;
    if (bit_type)
        return bits;
    bits |= (unsigned)(a < b) << LT | (unsigned)(a <= b) << LE |
            (unsigned)(a > b) << GT | (unsigned)(a >= b) << GE;
    if (is_unsigned)
        bits |= (unsigned)(a < b) << LO | (unsigned)(a <= b) << LS |
                (unsigned)(a > b) << HI | (unsigned)(a >= b) << HS;
    return bits;
}

static const char *const family[5] = {"setp signed", "setp unsigned", "setp bits",
                                      "set signed", "set unsigned"};

template <typename U, typename S>
static int check_type(const U *vals, const unsigned *got, int families, const char *name)
{
    char what[64];
    for (int f = 0; f < families; f++) {
        for (int t = 0; t < PAIRS; t++) {
            U a = vals[t / V], b = vals[t % V];
            unsigned want = f % 3 == 0 ? host_bits<S>((S)a, (S)b, false, false)
                          : f % 3 == 1 ? host_bits<U>(a, b, true, false)
                                       : host_bits<U>(a, b, false, true);
            snprintf(what, sizeof what, "%s %s pair", name, family[f]);
            expect_eq(what, t, want, got[f * PAIRS + t]);
        }
    }
    return 0;
}

int main()
{
    // minimum, minimum + 1, -1 (half-way for the unsigned reading), 0, 1,
    // maximum - 1, maximum, each as the signed type's bits
    const unsigned short v16[V] = {0x8000, 0x8001, 0xffff, 0, 1, 0x7ffe, 0x7fff};
    const unsigned v32[V] = {0x80000000u, 0x80000001u, 0xffffffffu, 0, 1, 0x7ffffffeu,
                             0x7fffffffu};
    const u64 v64[V] = {0x8000000000000000ull, 0x8000000000000001ull, ~0ull, 0, 1,
                        0x7ffffffffffffffeull, 0x7fffffffffffffffull};
    unsigned short *d16;
    unsigned *d32, *out, got[5 * PAIRS];
    u64 *d64;
    CHECK(cudaMalloc(&d16, sizeof v16));
    CHECK(cudaMalloc(&d32, sizeof v32));
    CHECK(cudaMalloc(&d64, sizeof v64));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMemcpy(d16, v16, sizeof v16, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d32, v32, sizeof v32, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d64, v64, sizeof v64, cudaMemcpyHostToDevice));

    cmp16<<<1, PAIRS>>>(d16, out);
    CHECK(cudaMemcpy(got, out, 3 * PAIRS * sizeof *got, cudaMemcpyDeviceToHost));
    check_type<unsigned short, short>(v16, got, 3, "16-bit");
    cmp32<<<1, PAIRS>>>(d32, out);
    CHECK(cudaMemcpy(got, out, 5 * PAIRS * sizeof *got, cudaMemcpyDeviceToHost));
    check_type<unsigned, int>(v32, got, 5, "32-bit");
    cmp64<<<1, PAIRS>>>(d64, out);
    CHECK(cudaMemcpy(got, out, 5 * PAIRS * sizeof *got, cudaMemcpyDeviceToHost));
    check_type<u64, s64>(v64, got, 5, "64-bit");

    cmp32_imm<<<1, V>>>(d32, out);
    CHECK(cudaMemcpy(got, out, V * sizeof *got, cudaMemcpyDeviceToHost));
    for (int t = 0; t < V; t++) {
        int s = (int)v32[t];
        unsigned u = v32[t];
        unsigned want = (unsigned)(s <= 0) | (unsigned)(s < 0) << 1 | (unsigned)(s >= 0) << 2 |
                        (unsigned)(s > -1) << 3 | (unsigned)(s <= -1) << 4 |
                        (unsigned)(s == 1) << 5 | (unsigned)(u <= 1u) << 6 |
                        (unsigned)(u < 1u) << 7 | (unsigned)(u >= 0xffffffffu) << 8 |
                        (unsigned)(u > 0u) << 9 | (unsigned)(u <= 0u) << 10 |
                        (unsigned)(u != 0u) << 11;
        expect_eq("32-bit immediate", t, want, got[t]);
    }
    if (failures)
        return 1;
    printf("ok int_compare\n");
    return 0;
}
