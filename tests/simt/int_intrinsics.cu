// Integer intrinsics against bit-by-bit host references: __popc(ll), __clz(ll),
// __brev(ll), __ffs(ll), __byte_perm, __funnelshift_l/r and their clamped
// forms (shifts 0..39), __mulhi/__umulhi, __mul64hi/__umul64hi, __sad/__usad,
// __mul24/__umul24, __hadd/__rhadd/__uhadd/__urhadd, bit-field extraction
// written with shifts (signed and unsigned), rotates, and signed/unsigned
// division and remainder with negative operands.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

typedef unsigned long long u64;
enum { N = 256, NOP = 32 };

__constant__ unsigned selectors[8] = {0x3210, 0x7654, 0x0123, 0x5140,
                                      0x4444, 0x7531, 0x6420, 0x1076};

__global__ void int_kernel(const unsigned *xs, const unsigned *ys, u64 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = xs[i], y = ys[i];
    u64 xy = ((u64)x << 32) | y, yx = ((u64)y << 32) | (x ^ 0x5a5a5a5au);
    unsigned s = (unsigned)(i % 40);
    u64 *o = out + i * NOP;
    o[0] = __popc(x);
    o[1] = __popcll(xy);
    o[2] = __clz((int)x);
    o[3] = __clzll((long long)xy);
    o[4] = __brev(x);
    o[5] = __brevll(xy);
    o[6] = __ffs((int)x);
    o[7] = __ffsll((long long)yx);
    o[8] = __byte_perm(x, y, selectors[i % 8]);
    o[9] = __funnelshift_l(x, y, s);
    o[10] = __funnelshift_lc(x, y, s);
    o[11] = __funnelshift_r(x, y, s);
    o[12] = __funnelshift_rc(x, y, s);
    o[13] = (unsigned)__mulhi((int)x, (int)y);
    o[14] = __umulhi(x, y);
    o[15] = (u64)__mul64hi((long long)xy, (long long)yx);
    o[16] = __umul64hi(xy, yx);
    o[17] = __sad((int)x, (int)y, (unsigned)i * 12345u);
    o[18] = __usad(x, y, (unsigned)i * 12345u);
    int pos = i % 32, len = 1 + i % 31;
    o[19] = (x >> pos) & ((1u << len) - 1);
    int slen = 1 + i % 16, spos = (i * 7) % (33 - slen);
    o[20] = (unsigned)((int)(x << (32 - spos - slen)) >> (32 - slen));
    o[21] = (unsigned)__mul24((int)x, (int)y);
    o[22] = __umul24(x, y);
    o[23] = (unsigned)__hadd((int)x, (int)y);
    o[24] = (unsigned)__rhadd((int)x, (int)y);
    o[25] = __uhadd(x, y);
    o[26] = __urhadd(x, y);
    int r = 1 + i % 31;
    o[27] = (x << r) | (x >> (32 - r));
    int sx = (int)x, d = (int)y >> (i % 24);
    if (d == 0 || (sx == (int)0x80000000 && d == -1))
        d = 3;
    o[28] = (unsigned)(sx / d);
    o[29] = (unsigned)(sx % d);
    unsigned ud = (y >> (i % 29)) | 1u;
    o[30] = x / ud;
    o[31] = x % ud;
}

// ---- host references, written out bit by bit ----------------------------------

static int popc_ref(u64 v)
{
    int n = 0;
    for (int b = 0; b < 64; b++)
        n += (int)((v >> b) & 1);
    return n;
}

static int clz_ref(u64 v, int bits)
{
    int n = 0;
    for (int b = bits - 1; b >= 0 && !((v >> b) & 1); b--)
        n++;
    return n;
}

static u64 brev_ref(u64 v, int bits)
{
    u64 r = 0;
    for (int b = 0; b < bits; b++)
        if ((v >> b) & 1)
            r |= 1ull << (bits - 1 - b);
    return r;
}

static int ffs_ref(u64 v, int bits)
{
    for (int b = 0; b < bits; b++)
        if ((v >> b) & 1)
            return b + 1;
    return 0;
}

static unsigned byte_perm_ref(unsigned x, unsigned y, unsigned s)
{
    unsigned char bytes[8];
    for (int k = 0; k < 4; k++) {
        bytes[k] = (unsigned char)(x >> (8 * k));
        bytes[4 + k] = (unsigned char)(y >> (8 * k));
    }
    unsigned r = 0;
    for (int k = 0; k < 4; k++)
        r |= (unsigned)bytes[(s >> (4 * k)) & 7] << (8 * k);
    return r;
}

static u64 umulhi64(u64 a, u64 b)
{
    u64 a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    u64 mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

static u64 mulhi64(u64 a, u64 b)
{
    u64 h = umulhi64(a, b);
    if ((long long)a < 0)
        h -= b;
    if ((long long)b < 0)
        h -= a;
    return h;
}

static unsigned sign_extend24(unsigned v)
{
    return (v & 0x800000u) ? (v | 0xff000000u) : (v & 0xffffffu);
}

static void reference(int i, unsigned x, unsigned y, u64 *w)
{
    static const unsigned sel[8] = {0x3210, 0x7654, 0x0123, 0x5140, 0x4444, 0x7531, 0x6420, 0x1076};
    u64 xy = ((u64)x << 32) | y, yx = ((u64)y << 32) | (x ^ 0x5a5a5a5au);
    unsigned s = (unsigned)(i % 40), sc = s < 32 ? s : 32;
    u64 cat = ((u64)y << 32) | x;
    w[0] = (u64)popc_ref(x);
    w[1] = (u64)popc_ref(xy);
    w[2] = (u64)clz_ref(x, 32);
    w[3] = (u64)clz_ref(xy, 64);
    w[4] = brev_ref(x, 32);
    w[5] = brev_ref(xy, 64);
    w[6] = (u64)ffs_ref(x, 32);
    w[7] = (u64)ffs_ref(yx, 64);
    w[8] = byte_perm_ref(x, y, sel[i % 8]);
    w[9] = (unsigned)((cat << (s & 31)) >> 32);
    w[10] = (unsigned)((cat << sc) >> 32);
    w[11] = (unsigned)(cat >> (s & 31));
    w[12] = (unsigned)(cat >> sc);
    w[13] = (unsigned)(((long long)(int)x * (long long)(int)y) >> 32);
    w[14] = (unsigned)(((u64)x * y) >> 32);
    w[15] = mulhi64(xy, yx);
    w[16] = umulhi64(xy, yx);
    long long diff = (long long)(int)x - (long long)(int)y;
    w[17] = (unsigned)((u64)(diff < 0 ? -diff : diff) + (unsigned)i * 12345u);
    w[18] = (unsigned)((x > y ? (u64)x - y : (u64)y - x) + (unsigned)i * 12345u);
    int pos = i % 32, len = 1 + i % 31;
    u64 field = 0;
    for (int b = 0; b < len && pos + b < 32; b++)
        field |= (u64)((x >> (pos + b)) & 1) << b;
    w[19] = field;
    int slen = 1 + i % 16, spos = (i * 7) % (33 - slen);
    unsigned sfield = 0;
    for (int b = 0; b < 32; b++) {
        int src = b < slen ? spos + b : spos + slen - 1;
        sfield |= ((x >> src) & 1) << b;
    }
    w[20] = sfield;
    w[21] = (unsigned)((long long)(int)sign_extend24(x) * (long long)(int)sign_extend24(y));
    w[22] = (unsigned)((u64)(x & 0xffffffu) * (y & 0xffffffu));
    long long ssum = (long long)(int)x + (long long)(int)y;
    w[23] = (unsigned)(ssum >= 0 ? ssum / 2 : -((-ssum + 1) / 2));
    w[24] = (unsigned)(ssum + 1 >= 0 ? (ssum + 1) / 2 : -((-(ssum + 1) + 1) / 2));
    w[25] = (unsigned)(((u64)x + y) / 2);
    w[26] = (unsigned)(((u64)x + y + 1) / 2);
    int r = 1 + i % 31;
    unsigned rot = 0;
    for (int b = 0; b < 32; b++)
        rot |= ((x >> b) & 1) << ((b + r) % 32);
    w[27] = rot;
    int sx = (int)x, d = (int)y >> (i % 24);
    if (d == 0 || (sx == (int)0x80000000 && d == -1))
        d = 3;
    long long q = (long long)sx / d;
    w[28] = (unsigned)(int)q;
    w[29] = (unsigned)(int)((long long)sx - q * d);
    unsigned ud = (y >> (i % 29)) | 1u;
    w[30] = x / ud;
    w[31] = x - (x / ud) * ud;
}

int main(void)
{
    static unsigned xs[N], ys[N];
    static u64 out[N * NOP];
    const unsigned special[][2] = {
        {0, 0}, {1, 0xffffffffu}, {0x80000000u, 0x80000000u}, {0xffffffffu, 0xffffffffu},
        {0x7fffffffu, 2}, {0x00010000u, 0x00010000u}, {0x00800000u, 0x00ffffffu},
        {0xdeadbeefu, 0x01234567u}, {0xfffffffeu, 1}, {0x80000000u, 0xffffffffu},
    };
    int k = 0;
    for (; k < (int)(sizeof special / sizeof special[0]); k++) {
        xs[k] = special[k][0];
        ys[k] = special[k][1];
    }
    unsigned st = 0x9e3779b9u;
    for (; k < N; k++) {
        st ^= st << 13;
        st ^= st >> 17;
        st ^= st << 5;
        xs[k] = st;
        st ^= st << 13;
        st ^= st >> 17;
        st ^= st << 5;
        ys[k] = st >> (k % 7 * 4);
    }
    unsigned *d_x, *d_y;
    u64 *d_out;
    CHECK(cudaMalloc(&d_x, sizeof xs));
    CHECK(cudaMalloc(&d_y, sizeof ys));
    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMemcpy(d_x, xs, sizeof xs, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, ys, sizeof ys, cudaMemcpyHostToDevice));
    int_kernel<<<N / 64, 64>>>(d_x, d_y, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));

    static const char *names[NOP] = {
        "popc", "popcll", "clz", "clzll", "brev", "brevll", "ffs", "ffsll", "byte_perm",
        "funnelshift_l", "funnelshift_lc", "funnelshift_r", "funnelshift_rc", "mulhi", "umulhi",
        "mul64hi", "umul64hi", "sad", "usad", "bitfield unsigned", "bitfield signed", "mul24",
        "umul24", "hadd", "rhadd", "uhadd", "urhadd", "rotate", "signed div", "signed rem",
        "unsigned div", "unsigned rem",
    };
    for (int i = 0; i < N; i++) {
        u64 want[NOP];
        reference(i, xs[i], ys[i], want);
        for (int op = 0; op < NOP; op++)
            expect_eq(names[op], i, want[op], out[i * NOP + op]);
    }
    // Hand-worked values.
    expect_eq("hand: clz(0) = 32", 0L, 32ull, out[0 * NOP + 2]);
    expect_eq("hand: ffs(0) = 0", 0L, 0ull, out[0 * NOP + 6]);
    expect_eq("hand: brev(1) = 0x80000000", 1L, 0x80000000ull, out[1 * NOP + 4]);
    expect_eq("hand: mulhi(1, -1) = -1", 1L, 0xffffffffull, out[1 * NOP + 13]);
    expect_eq("hand: umulhi(0x80000000, 0x80000000)", 2L, 0x40000000ull, out[2 * NOP + 14]);
    expect_eq("hand: byte_perm(0xdeadbeef, 0x01234567, 0x1076)", 7L, 0xbeef0123ull,
              out[7 * NOP + 8]);

    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_out));
    if (failures)
        return 1;
    printf("ok int_intrinsics\n");
    return 0;
}
