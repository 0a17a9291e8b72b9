// Where in memory simt's hazard reports say each access was: the program
// runs itself with CUDALAB_SIMT_HAZARDS set (the child's own report lines
// go to /dev/null), then reads each site's "offset" (bytes into the
// variable or allocation), "bytes" (the access size), "symbol" (the
// shared or __device__ variable, demangled) and "param" (the kernel
// parameter whose pointer is the allocation's base) against the values
// the kernels below were written to give.  On a GPU (a device whose
// name lacks "simt") it only says it skipped.
#include <cstring>
#include <string>

#include "check.h"
#include "rerun.h"

// Block 0 writes a float4 over bytes 16..31 of buf, block 1 reads the
// float at byte 20: the two sites share byte 20 first, 16 and 4 bytes.
__global__ void global_race(int *out, float *buf)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        reinterpret_cast<float4 *>(buf)[1] = make_float4(1, 2, 3, 4);
    if (blockIdx.x == 1 && threadIdx.x == 0)
        out[0] = (int)buf[5];
}

// Two shared arrays, so one of them starts past the block's first byte:
// offsets are into the array, b[3] is 12 bytes into b.
__global__ void shared_race(int *out)
{
    __shared__ int a[8];
    __shared__ int b[8];
    if (threadIdx.x < 8) {
        a[threadIdx.x] = 0;
        b[threadIdx.x] = 0;
    }
    __syncthreads();
    if (threadIdx.x == 0)
        b[3] = 1;
    if (threadIdx.x == 32)
        out[0] = b[3] + a[0];
}

__device__ double dv[8];

// Two blocks write dv[2], 8 bytes at byte 16 of the variable.
__global__ void variable_race() { if (threadIdx.x == 0) dv[2] = blockIdx.x; }

// Reads byte 28 of memory nothing wrote (parameter 0).
__global__ void uninit_read(const int *in, int *out) { out[0] = in[7]; }

// Each thread writes x[i]; a copy on another stream reads 128 bytes from
// byte 64 with nothing ordering the two.
__global__ void fill(int *x) { x[threadIdx.x] = (int)threadIdx.x; }

static int child(void)
{
    int *out, *in, *x, host[32];
    float *buf;
    cudaStream_t s1, s2;
    CHECK(cudaMalloc(&out, 64));
    CHECK(cudaMalloc(&buf, 64));
    CHECK(cudaMalloc(&in, 64));
    CHECK(cudaMalloc(&x, 256));
    CHECK(cudaMemset(buf, 0, 64));
    global_race<<<2, 32>>>(out, buf);
    shared_race<<<1, 64>>>(out);
    variable_race<<<2, 32>>>();
    uninit_read<<<1, 1>>>(in, out);
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    fill<<<1, 64, 0, s1>>>(x);
    CHECK(cudaMemcpyAsync(host, x + 16, sizeof host, cudaMemcpyDeviceToHost, s2));
    CHECK(cudaDeviceSynchronize());
    return 0;
}

static std::string json;

// The text of site `site` of the report whose kernel's name starts with
// `kernel`, and whose message contains `msg` when it is not NULL.
static std::string site_of(const char *kernel, int site, const char *msg = NULL)
{
    std::string k = std::string("\"kernel\":\"") + kernel;
    for (size_t at = json.find(k); at != std::string::npos; at = json.find(k, at + 1)) {
        size_t sites = json.find("\"sites\":[", at);
        size_t end = json.find("]}", sites);
        if (msg && json.substr(at, sites - at).find(msg) == std::string::npos)
            continue;
        size_t s = sites;
        for (int i = 0; i <= site && s != std::string::npos && s < end; i++)
            s = json.find('{', s + 1);
        if (s == std::string::npos || s > end)
            break;
        return json.substr(s, json.find('}', s) - s + 1);
    }
    fprintf(stderr, "FAIL no site %d of a report in %s\n", site, kernel);
    failures++;
    return "";
}

// The value of `key` in site text s, as it is written ("null", a number
// or a quoted string with its quotes).
static std::string value(const std::string &s, const char *key)
{
    std::string k = std::string("\"") + key + "\":";
    size_t at = s.find(k);
    if (at == std::string::npos)
        return "(none)";
    at += k.size();
    size_t end = s[at] == '"' ? s.find('"', at + 1) + 1 : s.find_first_of(",}", at);
    return s.substr(at, end - at);
}

// Checks one site's four fields.
static void want(const char *what, const std::string &site, const char *offset,
                 const char *bytes, const char *symbol, const char *param)
{
    const char *keys[4] = {"offset", "bytes", "symbol", "param"};
    const char *vals[4] = {offset, bytes, symbol, param};
    for (int i = 0; i < 4; i++) {
        std::string got = value(site, keys[i]);
        if (got != vals[i]) {
            fprintf(stderr, "FAIL %s: %s expected %s got %s\n", what, keys[i],
                    vals[i], got.c_str());
            failures++;
        }
    }
}

int main(int argc, char **argv)
{
    cudaDeviceProp prop;

    if (argc > 1)
        return child();
    CHECK(cudaGetDeviceProperties(&prop, 0));
    if (!strstr(prop.name, "simt")) {
        printf("skip rt_hazard_places: the hazards file exists only on simt\n");
        return 0;
    }
    if (!rerun_child(argv[0], "CUDALAB_SIMT_HAZARDS",
                     "/tmp/cudalab-rt-hazard-places.json", true, &json))
        return 1;

    // sites are in source order: the float4 write first
    want("global write", site_of("global_race(", 0), "20", "16", "null", "1");
    want("global read", site_of("global_race(", 1), "20", "4", "null", "1");
    want("shared write", site_of("shared_race(", 0), "12", "4",
         "\"shared_race(int*)::b\"", "-1");
    want("shared read", site_of("shared_race(", 1), "12", "4",
         "\"shared_race(int*)::b\"", "-1");
    want("variable", site_of("variable_race(", 0), "16", "8", "\"dv\"", "-1");
    want("variable", site_of("variable_race(", 1), "16", "8", "\"dv\"", "-1");
    want("uninitialized", site_of("uninit_read(", 0), "28", "4", "null", "0");
    // the kernel first (the earlier operation), then the copy; neither
    // has a parameter to name here (the copy is none, and the kernel's
    // launch is over)
    want("kernel of a stream race", site_of("fill(", 0, "cudaMemcpyAsync"), "64", "4",
         "null", "-1");
    want("copy of a stream race", site_of("fill(", 1, "cudaMemcpyAsync"), "64", "128",
         "null", "-1");
    if (failures)
        return 1;
    printf("ok rt_hazard_places\n");
    return 0;
}
