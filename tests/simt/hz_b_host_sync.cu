// expect-hazard: race: global write at hz_b_host_sync.cu:19 ... of produce(int*, int) on the default stream and a host read of managed memory at byte 20 of a 4000-byte allocation, before the host synchronized with that work
// expect-hazard: race: global read at hz_b_host_sync.cu:20 ... of consume(int const*, int*, int) on the default stream and a host write of managed memory at byte 32 of a 4000-byte allocation, before the host synchronized with that work
// expect-hazard: race: global write by cudaMemcpyAsync on stream 1 and a host read of pinned memory at byte 0 of a 4000-byte allocation, before the host synchronized with that work
//
// The host touching memory it shares with the device before it has
// synchronized with the work on it: a kernel launch returns at once, so
// reading its result in managed memory needs cudaDeviceSynchronize first;
// writing managed memory that a running kernel reads changes what it
// reads; an asynchronous copy into pinned memory has not landed until
// the stream is synchronized.  simt finishes each of them before the call
// returns, so the values come out right here and the check is what tells.
// On a GPU the values read early are undefined, so nothing checks them.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 1000

__global__ void fill(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 7; }
__global__ void produce(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 3 * i; }
__global__ void consume(const int *p, int *o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = p[i] - 1; }

int main()
{
    int *m, *o, *pin, *d;
    volatile int sink = 0;
    CHECK(cudaMallocManaged(&m, N * sizeof(int)));
    CHECK(cudaMallocManaged(&o, N * sizeof(int)));

    produce<<<(N + 255) / 256, 256>>>(m, N);
    sink = m[5];                          // before cudaDeviceSynchronize
    CHECK(cudaDeviceSynchronize());
    expect_eq("m", 5, 15, m[5]);

    consume<<<(N + 255) / 256, 256>>>(m, o, N);
    m[8] = 100;                           // the kernel may not have read it yet
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaMallocHost(&pin, N * sizeof(int)));
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    fill<<<(N + 255) / 256, 256, 0, s>>>(d, N);
    CHECK(cudaMemcpyAsync(pin, d, N * sizeof(int), cudaMemcpyDeviceToHost, s));
    sink = pin[0];                        // the copy may not have landed
    CHECK(cudaStreamSynchronize(s));
    expect_eq("pin", 0, 7, pin[0]);
    (void)sink;
    CHECK(cudaFreeHost(pin));
    DONE("hz_b_host_sync");
}
