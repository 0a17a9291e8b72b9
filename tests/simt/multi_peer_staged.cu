// gpus: 3
// Copies between devices are counted per pair of devices, and those made
// without peer access between the two, which CUDA stages through the
// host, are counted as staged: cudaMemcpyPeer, cudaMemcpyPeerAsync,
// cudaMemcpy with cudaMemcpyDefault and DeviceToDevice, cudaMemcpy2D, a
// cudaMemcpy3D of three slices (one copy), a graph's memcpy node launched
// twice; copies within one device or with the host are not counted.
// Once device 0 has peer access to device 1, copies between the two go
// directly in both directions, and copies to device 2 are still staged.
// Every copy's data are checked (on a GPU too); the counters are read
// through cudalab_simt_counter (counter.h): on a GPU it is null and that
// part is skipped.
#include <cstdio>
#include <cuda_runtime.h>

#include "check.h"
#include "counter.h"

#define NDEV 3
#define N 1024

static int host_in[N], host_out[N];
static int *buf[NDEV], *scratch[NDEV];

// What this program expects, kept as it copies: per source and
// destination, copies and bytes in all and staged.
static unsigned long long want[NDEV][NDEV][4];

static void copied(int src, int dst, unsigned long long bytes, bool staged)
{
    want[src][dst][0] += 1;
    want[src][dst][1] += bytes;
    if (staged) {
        want[src][dst][2] += 1;
        want[src][dst][3] += bytes;
    }
}

static int fill_all(void)
{
    for (int d = 0; d < NDEV; d++)
        CHECK(cudaMemcpy(buf[d], host_in, sizeof host_in, cudaMemcpyHostToDevice));
    return 0;
}

// the first n ints of device d's buffer against host_in at offset `from`
static int expect_prefix(const char *what, int d, int n, int from)
{
    CHECK(cudaMemcpy(host_out, buf[d], n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq(what, i, host_in[from + i], host_out[i]);
    return 0;
}

static int copies_without_peer_access(cudaStream_t *st)
{
    CHECK(cudaSetDevice(2));
    CHECK(cudaMemcpy(buf[1], scratch[0], 256 * sizeof(int), cudaMemcpyDefault));
    CHECK(cudaMemcpyPeer(buf[1], 1, buf[0], 0, N * sizeof(int)));
    copied(0, 1, 256 * sizeof(int), true);
    copied(0, 1, N * sizeof(int), true);
    if (expect_prefix("cudaMemcpyPeer 0->1", 1, N, 0))
        return 1;

    CHECK(cudaMemcpyPeerAsync(buf[2], 2, buf[1] + 8, 1, 100 * sizeof(int), st[1]));
    CHECK(cudaStreamSynchronize(st[1]));
    copied(1, 2, 100 * sizeof(int), true);
    if (expect_prefix("cudaMemcpyPeerAsync 1->2", 2, 100, 8))
        return 1;

    CHECK(cudaSetDevice(0));
    CHECK(cudaMemcpy(buf[0], buf[2] + 4, 64 * sizeof(int), cudaMemcpyDeviceToDevice));
    copied(2, 0, 64 * sizeof(int), true);
    if (expect_prefix("cudaMemcpy DeviceToDevice 2->0", 0, 64, 12))
        return 1;
    if (fill_all())
        return 1;

    // within one device, and with the host: no peer copies
    CHECK(cudaMemcpy(scratch[0], buf[0], N * sizeof(int), cudaMemcpyDefault));
    CHECK(cudaMemcpy(host_out, buf[1], N * sizeof(int), cudaMemcpyDefault));
    return 0;
}

// 2D (rows of 32 ints, 8 rows, pitch 64 ints) from device 0 to 2, and 3D
// (rows of 16 ints, 4 rows, 3 slices, every pitch 32 ints) from 1 to 0.
static int copies_2d_3d(void)
{
    CHECK(cudaMemcpy2D(buf[2], 64 * sizeof(int), buf[0], 64 * sizeof(int),
                       32 * sizeof(int), 8, cudaMemcpyDefault));
    copied(0, 2, 32 * 8 * sizeof(int), true);
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(buf[1], 32 * sizeof(int), 32, 4);
    p.dstPtr = make_cudaPitchedPtr(scratch[0], 32 * sizeof(int), 32, 4);
    p.extent = make_cudaExtent(16 * sizeof(int), 4, 3);
    p.kind = cudaMemcpyDefault;
    CHECK(cudaMemcpy3D(&p));
    copied(1, 0, 16 * 4 * 3 * sizeof(int), true);
    CHECK(cudaMemcpy(host_out, scratch[0], N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int z = 0; z < 3; z++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 16; x++) {
                int i = (z * 4 + y) * 32 + x;
                expect_eq("3D copy", i, host_in[i], host_out[i]);
            }
    return 0;
}

// a graph on device 0 whose only node copies 128 ints from 2 to 1,
// launched twice
static int graph_copy(void)
{
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaGraphNode_t node;
    CHECK(cudaSetDevice(0));
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddMemcpyNode1D(&node, g, NULL, 0, scratch[1], buf[2],
                                   128 * sizeof(int), cudaMemcpyDefault));
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    for (int k = 0; k < 2; k++) {
        CHECK(cudaGraphLaunch(ge, 0));
        copied(2, 1, 128 * sizeof(int), true);
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(host_out, scratch[1], 128 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 128; i++)
        expect_eq("graph copy", i, host_in[i], host_out[i]);
    CHECK(cudaGraphExecDestroy(ge));
    CHECK(cudaGraphDestroy(g));
    return 0;
}

// device 0 reaches device 1: copies between them go directly, either way
static int copies_with_peer_access(void)
{
    CHECK(cudaSetDevice(0));
    CHECK(cudaDeviceEnablePeerAccess(1, 0));
    CHECK(cudaMemcpyPeer(buf[1], 1, buf[0], 0, 512 * sizeof(int)));
    CHECK(cudaMemcpy(buf[0], buf[1], 32 * sizeof(int), cudaMemcpyDefault));
    CHECK(cudaMemcpyPeer(buf[2], 2, buf[0], 0, 16 * sizeof(int)));
    copied(0, 1, 512 * sizeof(int), false);
    copied(1, 0, 32 * sizeof(int), false);
    copied(0, 2, 16 * sizeof(int), true);
    return expect_prefix("direct 0->1", 1, 512, 0) ||
           expect_prefix("direct 1->0", 0, 32, 0) ||
           expect_prefix("staged 0->2", 2, 16, 0);
}

static const char *const names[4] = {"peer_copies", "peer_copy_bytes",
                                     "peer_copies_staged", "peer_copy_bytes_staged"};

static void expect_counters(void)
{
    unsigned long long all[4] = {0, 0, 0, 0}, v;
    char name[64];
    for (int s = 0; s < NDEV; s++)
        for (int d = 0; d < NDEV; d++)
            for (int f = 0; f < 4; f++) {
                snprintf(name, sizeof name, "%s.%d.%d", names[f], s, d);
                expect_eq(name, 0, want[s][d][f], counter(name));
                all[f] += want[s][d][f];
            }
    for (int f = 0; f < 4; f++)
        expect_eq(names[f], 0, all[f], counter(names[f]));
    if (cudalab_simt_counter("peer_copies.0", &v) == 0 ||
        cudalab_simt_counter("peer_copies.0.1.2", &v) == 0 ||
        cudalab_simt_counter("peer_copies.0.99", &v) == 0 ||
        cudalab_simt_counter("peer_copies_all", &v) == 0) {
        fprintf(stderr, "FAIL a malformed peer counter name was accepted\n");
        failures++;
    }
}

int main(void)
{
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    if (count < NDEV) {
        fprintf(stderr, "FAIL needs %d devices, found %d\n", NDEV, count);
        return 1;
    }
    for (int i = 0; i < N; i++)
        host_in[i] = (i * 37) % 1001 - 500;
    cudaStream_t st[NDEV];
    for (int d = 0; d < NDEV; d++) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaMalloc(&buf[d], N * sizeof(int)));
        CHECK(cudaMalloc(&scratch[d], N * sizeof(int)));
        CHECK(cudaMemcpy(scratch[d], host_in, sizeof host_in, cudaMemcpyHostToDevice));
        CHECK(cudaStreamCreate(&st[d]));
    }
    if (fill_all() || copies_without_peer_access(st) || copies_2d_3d() ||
        graph_copy() || copies_with_peer_access())
        return 1;
    if (cudalab_simt_counter)
        expect_counters();
    else
        printf("skip the counters: no simt counters here\n");
    if (failures)
        return 1;
    printf("ok multi_peer_staged\n");
    return 0;
}
