// simt-nvcc-flags: --no-compress -lineinfo -g -cudart none -arch=sm_80
// Host code that reads or writes device memory faults, as on a GPU: each
// case below runs in a child process, which must die of SIGSEGV.  On simt
// the child first says what it touched, of which allocation, made where,
// and from which line of host code (the program is built with -g, as the
// runner builds programs, so that the lines are known); the expected text
// is built here from __LINE__ of the allocation and of the access.
//   cudaMalloc          read of a float, in a function of its own
//   cudaMallocAsync     write of an int
//   cudaMallocPitch     read by libc's memcpy (the line is the caller's)
//   cudaMallocFromPoolAsync  write of a byte
//   cudaGraphAddMemAllocNode read after the graph ran
#include "check.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

static bool on_simt;
static int alloc_line;

// What a case does in the child.  Each does its access on the line of
// its definition, which an enum on the same line names.
typedef void (*touch_fn)(void *p);

static void read_float(void *p) { volatile float x = ((const float *)p)[3]; (void)x; } enum { read_float_line = __LINE__ };
static void write_int(void *p) { ((volatile int *)p)[1] = 5; } enum { write_int_line = __LINE__ };
static char buf[64];
static void copy_out(void *p) { memcpy(buf, p, sizeof buf); } enum { copy_out_line = __LINE__ };
static void write_byte(void *p) { ((volatile char *)p)[7] = 1; } enum { write_byte_line = __LINE__ };

static int access_line(touch_fn f)
{
    return f == read_float ? (int)read_float_line
         : f == write_int ? (int)write_int_line
         : f == copy_out ? (int)copy_out_line : (int)write_byte_line;
}

// Runs f(p) in a child with its stderr in a pipe; true when the child died
// of SIGSEGV and (on simt) said `want`.
static bool dies_saying(const char *name, touch_fn f, void *p, const std::string &want)
{
    int fd[2];
    if (pipe(fd) != 0)
        return false;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        f(p);
        _exit(0);
    }
    close(fd[1]);
    std::string err;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) > 0)
        err.append(buf, (size_t)n);
    close(fd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    bool ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV;
    if (!ok)
        fprintf(stderr, "FAIL %s: the child was not killed by SIGSEGV (status %d)\n", name,
                st);
    else if (on_simt && err.find(want) == std::string::npos) {
        fprintf(stderr, "FAIL %s: stderr lacks \"%s\"; it said:\n%s", name, want.c_str(),
                err.c_str());
        ok = false;
    }
    failures += !ok;
    return ok;
}

static std::string expect(const char *verb, size_t byte, const char *api, size_t size,
                          touch_fn f, const char *fn)
{
    char s[512];
    snprintf(s, sizeof s,
             "simt: host code %s byte %zu of a %s allocation (%zu bytes, made at "
             "host_touches_device.cu:%d) at host_touches_device.cu:%d in %s(); device "
             "memory is only reachable from kernels or cudaMemcpy",
             verb, byte, api, size, alloc_line, access_line(f), fn);
    return s;
}

int main()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    on_simt = strstr(prop.name, "simt") != nullptr;

    float *a;
    CHECK(cudaMalloc(&a, 400)); alloc_line = __LINE__;
    dies_saying("cudaMalloc", read_float, a,
                expect("read", 12, "cudaMalloc", 400, read_float, "read_float"));

    int *b;
    CHECK(cudaMallocAsync(&b, 64, 0)); alloc_line = __LINE__;
    CHECK(cudaStreamSynchronize(0));
    dies_saying("cudaMallocAsync", write_int, b,
                expect("wrote", 4, "cudaMallocAsync", 64, write_int, "write_int"));

    void *c;
    size_t pitch;
    CHECK(cudaMallocPitch(&c, &pitch, 100, 3)); alloc_line = __LINE__;
    dies_saying("cudaMallocPitch", copy_out, c,
                expect("read", 0, "cudaMallocPitch", pitch * 3, copy_out, "copy_out"));

    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    void *d;
    CHECK(cudaMallocFromPoolAsync(&d, 32, pool, 0)); alloc_line = __LINE__;
    CHECK(cudaStreamSynchronize(0));
    dies_saying("cudaMallocFromPoolAsync", write_byte, d,
                expect("wrote", 7, "cudaMallocFromPoolAsync", 32, write_byte, "write_byte"));

    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = 256;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddMemAllocNode(&node, g, nullptr, 0, &ap)); alloc_line = __LINE__;
    cudaGraphExec_t ge;
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    CHECK(cudaGraphLaunch(ge, 0));
    CHECK(cudaStreamSynchronize(0));
    dies_saying("cudaGraphAddMemAllocNode", read_float, ap.dptr,
                expect("read", 12, "cudaGraphAddMemAllocNode", 256, read_float,
                       "read_float"));
    CHECK(cudaFree(ap.dptr));

    CHECK(cudaFree(a));
    CHECK(cudaFreeAsync(b, 0));
    CHECK(cudaFree(c));
    CHECK(cudaFreeAsync(d, 0));
    CHECK(cudaDeviceSynchronize());
    if (failures)
        return 1;
    printf("ok host_touches_device\n");
    return 0;
}
