// cudaMallocPitch and cudaMemcpy2D (host -> device from a sub-rectangle of a
// wider host array, device -> device between different pitches, device ->
// host into a padded array whose padding must survive), a kernel addressing
// rows through the pitch; cudaMemset with a byte pattern, on a sub-range, at
// an odd offset and length, with a value wider than a byte; cudaMemset2D;
// cudaMemsetAsync; device-to-device cudaMemcpy and cudaMemcpyDefault.
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { W = 37, H = 13, HOST_SRC_PITCH = 50, HOST_DST_PITCH = 40, COL0 = 3 };

__global__ void touch_rows(float *base, size_t pitch, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x < width && y < height) {
        float *row = (float *)((char *)base + y * pitch);
        row[x] = row[x] * 2.0f + (float)y;
    }
}

static int check_2d(void)
{
    static float src[H * HOST_SRC_PITCH], dst[H * HOST_DST_PITCH];
    for (int i = 0; i < H * HOST_SRC_PITCH; i++)
        src[i] = (float)i;
    for (int i = 0; i < H * HOST_DST_PITCH; i++)
        dst[i] = -7.0f;
    float *d_a, *d_b;
    size_t pitch_a = 0, pitch_b = 0;
    CHECK(cudaMallocPitch((void **)&d_a, &pitch_a, W * sizeof(float), H));
    CHECK(cudaMallocPitch((void **)&d_b, &pitch_b, (W + 100) * sizeof(float), H));
    if (pitch_a < W * sizeof(float) || pitch_b < (W + 100) * sizeof(float))
        expect_eq("pitch at least the row width", 0L, (size_t)W * sizeof(float), pitch_a);
    CHECK(cudaMemcpy2D(d_a, pitch_a, src + COL0, HOST_SRC_PITCH * sizeof(float),
                       W * sizeof(float), H, cudaMemcpyHostToDevice));
    touch_rows<<<dim3(1, H), 64>>>(d_a, pitch_a, W, H);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2D(d_b, pitch_b, d_a, pitch_a, W * sizeof(float), H,
                       cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy2D(dst, HOST_DST_PITCH * sizeof(float), d_b, pitch_b, W * sizeof(float), H,
                       cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < HOST_DST_PITCH; x++) {
            float want = x < W ? src[y * HOST_SRC_PITCH + COL0 + x] * 2.0f + (float)y : -7.0f;
            expect_eq("memcpy2D round trip", y * HOST_DST_PITCH + x, want,
                      dst[y * HOST_DST_PITCH + x]);
        }

    // cudaMemset2D: the first 20 bytes of rows 2..6 of d_a become 0x11.
    CHECK(cudaMemset2D((char *)d_a + 2 * pitch_a, pitch_a, 0x11, 20, 5));
    static unsigned char rows[H * W * sizeof(float)];
    CHECK(cudaMemcpy2D(rows, W * sizeof(float), d_a, pitch_a, W * sizeof(float), H,
                       cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int b = 0; b < (int)(W * sizeof(float)); b++) {
            unsigned char want;
            if (y >= 2 && y < 7 && b < 20) {
                want = 0x11;
            } else {
                float v = src[y * HOST_SRC_PITCH + COL0 + b / 4] * 2.0f + (float)y;
                unsigned char bytes[4];
                memcpy(bytes, &v, 4);
                want = bytes[b % 4];
            }
            expect_eq("memset2D byte", (long)(y * W * sizeof(float) + b), want,
                      rows[y * W * sizeof(float) + b]);
        }
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    return 0;
}

static int check_memset(void)
{
    const int n = 64;
    unsigned char *d, *d2;
    unsigned char h[n * 4], h2[n * 4];
    CHECK(cudaMalloc(&d, n * 4));
    CHECK(cudaMalloc(&d2, n * 4));
    CHECK(cudaMemset(d, 0xab, n * 4));
    CHECK(cudaMemset(d + 40, 0, 20));
    CHECK(cudaMemset(d + 3, 0x55, 7));
    CHECK(cudaMemset(d + 100, 0x17f, 9));
    CHECK(cudaMemsetAsync(d + 200, 0x42, 56, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(d2, d, n * 4, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(h, d2, n * 4, cudaMemcpyDeviceToHost));
    for (int b = 0; b < n * 4; b++) {
        unsigned char want = 0xab;
        if (b >= 40 && b < 60)
            want = 0;
        if (b >= 3 && b < 10)
            want = 0x55;
        if (b >= 100 && b < 109)
            want = 0x7f;
        if (b >= 200)
            want = 0x42;
        expect_eq("memset byte", b, want, h[b]);
    }
    int first;
    memcpy(&first, h + 16, 4);
    expect_eq("memset 0xab as int", 4L, (int)0xabababab, first);

    // cudaMemcpyDefault infers the direction from the pointers.
    for (int b = 0; b < n * 4; b++)
        h2[b] = (unsigned char)(b * 7);
    CHECK(cudaMemcpy(d, h2, n * 4, cudaMemcpyDefault));
    CHECK(cudaMemcpy(d2, d, n * 4, cudaMemcpyDefault));
    memset(h, 0, sizeof h);
    CHECK(cudaMemcpy(h, d2, n * 4, cudaMemcpyDefault));
    for (int b = 0; b < n * 4; b++)
        expect_eq("cudaMemcpyDefault round trip", b, (unsigned char)(b * 7), h[b]);
    CHECK(cudaFree(d));
    CHECK(cudaFree(d2));
    return 0;
}

int main(void)
{
    if (check_2d() || check_memset())
        return 1;
    if (failures)
        return 1;
    printf("ok memcpy2d_memset\n");
    return 0;
}
