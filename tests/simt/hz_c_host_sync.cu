// Clean: the host touching memory it shares with the device in every way
// that is ordered or does not conflict.  Managed memory read after
// cudaDeviceSynchronize, after cudaStreamSynchronize of the kernel's
// stream (the memory attached to it), after cudaEventSynchronize, and after a cudaStreamQuery that
// reported the stream idle; an input the kernel only reads, read by the
// host while the kernel may run; elements the kernel does not write (on
// the page it writes and on another page) read and written before any
// synchronization; pinned memory filled by the host, then copied to the
// device by an asynchronous copy that the host waits for before reusing
// it; a stream callback that consumes a copy's result; and a flag
// handshake in pinned memory through volatile accesses on both sides (the
// kernel says it has started, the host answers while it runs).
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 4096   // 16 KiB: several pages

__global__ void head(int *p, int v) { int i = threadIdx.x; p[i] = v + i; }   // p[0..127]
__global__ void sum(const int *p, int *out, int n)
{
    int s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += p[i];
    atomicAdd(out, s);
}

__global__ void handshake(volatile int *started, volatile int *go, int *seen)
{
    *started = 1;
    int k = 0;
    while (*go == 0 && k < 1000)
        k++;
    *seen = k >= 0;
}

struct cb_data { const int *pin; int first; };
static void CUDART_CB take(void *arg) { cb_data *c = (cb_data *)arg; c->first = c->pin[0]; }

int main()
{
    int *m, *out, *pin, *d;
    cudaStream_t s;
    cudaEvent_t e;
    CHECK(cudaMallocManaged(&m, N * sizeof(int)));
    CHECK(cudaMallocManaged(&out, sizeof(int)));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&e));
    for (int i = 0; i < N; i++)
        m[i] = 1;

    head<<<1, 128>>>(m, 1000);
    expect_eq("untouched, same page", 500, 1, m[500]);
    expect_eq("untouched, other page", 3000, 1, m[3000]);
    m[3001] = 2;
    CHECK(cudaDeviceSynchronize());
    expect_eq("m", 5, 1005, m[5]);

    // attached to the stream (what a device without concurrent managed
    // access needs), then waited for through it
    CHECK(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle));
    expect_eq("attach with two flags", 0, (int)cudaErrorInvalidValue,
              (int)cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachHost | cudaMemAttachSingle));
    cudaGetLastError();
    head<<<1, 128, 0, s>>>(m, 2000);
    CHECK(cudaStreamSynchronize(s));
    expect_eq("m", 6, 2006, m[6]);

    head<<<1, 128, 0, s>>>(m, 3000);
    CHECK(cudaEventRecord(e, s));
    CHECK(cudaEventSynchronize(e));
    expect_eq("m", 7, 3007, m[7]);

    head<<<1, 128, 0, s>>>(m, 4000);
    while (cudaStreamQuery(s) != cudaSuccess)
        ;
    expect_eq("m", 8, 4008, m[8]);

    // the kernel only reads m: the host may read it meanwhile
    *out = 0;
    sum<<<1, 256>>>(m, out, N);
    long want = 0;
    for (int i = 0; i < N; i++)
        want += m[i];
    CHECK(cudaDeviceSynchronize());
    expect_eq("sum", 0, (int)want, *out);

    // pinned staging: fill, copy in, wait, refill
    CHECK(cudaMallocHost(&pin, N * sizeof(int)));
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        pin[i] = i;
    CHECK(cudaMemcpyAsync(d, pin, N * sizeof(int), cudaMemcpyHostToDevice, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < N; i++)
        pin[i] = -i;
    CHECK(cudaMemcpyAsync(pin, d, N * sizeof(int), cudaMemcpyDeviceToHost, s));
    cb_data cb = {pin, -1};
    CHECK(cudaLaunchHostFunc(s, take, &cb));
    CHECK(cudaStreamSynchronize(s));
    expect_eq("callback", 0, 0, cb.first);
    expect_eq("pin", 9, 9, pin[9]);

    // a flag handshake: volatile on both sides is no race
    int *flags;
    CHECK(cudaMallocHost(&flags, 2 * sizeof(int)));
    volatile int *started = flags, *go = flags + 1;
    *started = 0;
    *go = 0;
    handshake<<<1, 1, 0, s>>>(started, go, d);
    while (*started == 0)
        ;
    *go = 1;
    CHECK(cudaStreamSynchronize(s));
    expect_eq("go", 0, 1, *go);
    CHECK(cudaFreeHost(flags));
    CHECK(cudaFreeHost(pin));
    CHECK(cudaFree(m));
    DONE("hz_c_host_sync");
}
