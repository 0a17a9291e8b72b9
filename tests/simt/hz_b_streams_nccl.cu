// expect-hazard: race: global write by ncclAllReduce on stream 1 and global read at hz_b_streams_nccl.cu:22 ... of scale(float const*, float*, int) on stream 2, in different streams with no event or synchronization between them
// gpus: 2
//
// An NCCL collective is work of the stream it is given, like a kernel: on
// each of two devices an all-reduce runs on one stream and a kernel that
// reads its result on a second stream of the device, with nothing between
// them (reported for device 0, whose pair comes first; device 1's pair
// counts under the same report).  Then the same with an event recorded
// after the all-reduce and waited for by the kernel's stream, which is
// clean.  Values are small integers, exact in float.
#include <vector>

#include "nccl_check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define R 2
#define COUNT 256

__global__ void scale(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

int main()
{
    int ndev = 0;
    CHECK(cudaGetDeviceCount(&ndev));
    if (ndev < R) {
        fprintf(stderr, "FAIL needs %d devices, has %d\n", R, ndev);
        return 1;
    }
    int devs[R] = {0, 1};
    ncclComm_t comms[R];
    cudaStream_t comm_s[R], work_s[R];
    cudaEvent_t done[R];
    float *buf[R], *out[R];
    NCCLCHECK(ncclCommInitAll(comms, R, devs));
    for (int r = 0; r < R; r++) {
        CHECK(cudaSetDevice(r));
        CHECK(cudaStreamCreate(&comm_s[r]));
        CHECK(cudaStreamCreate(&work_s[r]));
        CHECK(cudaEventCreateWithFlags(&done[r], cudaEventDisableTiming));
        CHECK(cudaMalloc(&buf[r], COUNT * sizeof(float)));
        CHECK(cudaMalloc(&out[r], COUNT * sizeof(float)));
        std::vector<float> h(COUNT);
        for (int i = 0; i < COUNT; i++)
            h[i] = (float)(r + i % 3);
        CHECK(cudaMemcpy(buf[r], h.data(), COUNT * sizeof(float), cudaMemcpyHostToDevice));
    }
    for (int pass = 0; pass < 2; pass++) {
        NCCLCHECK(ncclGroupStart());
        for (int r = 0; r < R; r++)
            NCCLCHECK(ncclAllReduce(buf[r], buf[r], COUNT, ncclFloat, ncclSum, comms[r],
                                    comm_s[r]));
        NCCLCHECK(ncclGroupEnd());
        for (int r = 0; r < R; r++) {
            CHECK(cudaSetDevice(r));
            if (pass == 1) {   // the fix: the kernel's stream waits for the all-reduce
                CHECK(cudaEventRecord(done[r], comm_s[r]));
                CHECK(cudaStreamWaitEvent(work_s[r], done[r], 0));
            }
            scale<<<COUNT / 128, 128, 0, work_s[r]>>>(buf[r], out[r], COUNT);
            CHECK(cudaGetLastError());
        }
        for (int r = 0; r < R; r++) {
            CHECK(cudaSetDevice(r));
            CHECK(cudaDeviceSynchronize());
        }
    }
    // two all-reduces of (r + i % 3) over r = 0, 1: 4 (i % 3) + 2, then doubled
    for (int r = 0; r < R; r++) {
        std::vector<float> h(COUNT);
        CHECK(cudaMemcpy(h.data(), out[r], COUNT * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < COUNT; i++)
            expect_eq("out", r * COUNT + i, 2 * (4 * (i % 3) + 2), (int)h[i]);
    }
    for (int r = 0; r < R; r++)
        NCCLCHECK(ncclCommDestroy(comms[r]));
    DONE("hz_b_streams_nccl");
}
