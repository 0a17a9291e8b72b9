// The device half of lab.h (lab::Lab, device arrays, the timing protocol,
// runtime errors, the result descriptor) driven end to end against a stand-in
// CUDA runtime defined below: host memory for device memory, a scripted
// clock for events, and errors on demand.  Built by the host compiler alone
// (g++ -x c++), so it runs on machines without a GPU.  Each scenario runs a
// small vector-add harness in a child process and reads its result JSON from
// the pipe named by CUDALAB_RESULT_FD; expected values are worked out by
// hand from the scenario.  Last line: "test_lab_device: N checks passed, M failed".
#include <cudalab/lab.h>

#include <cjson/cJSON.h>

#include <sys/wait.h>
#include <time.h>

// ------------------------------------------------- the stand-in runtime

namespace mock {
struct Alloc {
    char* p;
    size_t n;
};
static std::vector<Alloc> allocs;
static const char* name = "NVIDIA H200";
static cudaError_t count_error = cudaSuccess; // from cudaGetDeviceCount
static cudaError_t last_error = cudaSuccess;  // returned once by cudaGetLastError
static cudaError_t pending = cudaSuccess;     // a fault of a running kernel...
static cudaError_t sticky = cudaSuccess;      // ...seen from the next sync on
static double gpu_ms = 0;                     // the device clock
// lab.time's events of its one device: start, stop, and stop once idle
const int n_events = 3;
static double event_ms[n_events];
static int flushes = 0;                       // memsets over the L2 flush buffer
static size_t flush_bytes = 0;
static long kernels = 0;                      // "kernels" run by solve
const long long l2 = 64 << 10;

static cudaEvent_t event_handle(int i) { return (cudaEvent_t)(uintptr_t)(i + 1); }

static Alloc* find(const void* p)
{
    for (Alloc& a : allocs)
        if ((const char*)p >= a.p && (const char*)p < a.p + a.n)
            return &a;
    return nullptr;
}
} // namespace mock

extern "C" {
cudaError_t cudaGetDeviceCount(int* count)
{
    *count = mock::count_error == cudaSuccess ? 1 : 0;
    return mock::count_error;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", mock::name);
    return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int* v, cudaDeviceAttr a, int)
{
    switch (a) {
    case cudaDevAttrComputeCapabilityMajor: *v = 9; break;
    case cudaDevAttrComputeCapabilityMinor: *v = 0; break;
    case cudaDevAttrMultiProcessorCount: *v = 132; break;
    case cudaDevAttrL2CacheSize: *v = (int)mock::l2; break;
    case cudaDevAttrMemoryClockRate: *v = 2619000; break;
    case cudaDevAttrGlobalMemoryBusWidth: *v = 5120; break;
    default:
        mock::last_error = cudaErrorInvalidValue;
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}
cudaError_t cudaGetLastError(void)
{
    cudaError_t e = mock::last_error != cudaSuccess ? mock::last_error : mock::sticky;
    mock::last_error = cudaSuccess;
    return e;
}
// As on a GPU, a kernel's fault shows at the next synchronising call.
static cudaError_t sync_point(void)
{
    if (mock::pending != cudaSuccess)
        mock::sticky = mock::pending;
    return mock::sticky;
}
cudaError_t cudaDeviceSynchronize(void) { return sync_point(); }
cudaError_t cudaGetDevice(int* d)
{
    *d = 0;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : cudaErrorInvalidDevice; }
// One device: no peer to give access to (lab.devices asks).
cudaError_t cudaDeviceCanAccessPeer(int* can, int, int)
{
    *can = 0;
    return cudaSuccess;
}
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned) { return cudaErrorInvalidDevice; }
cudaError_t cudaMalloc(void** p, size_t n)
{
    *p = calloc(1, n);
    mock::allocs.push_back(mock::Alloc{(char*)*p, n});
    return cudaSuccess;
}
cudaError_t cudaFree(void* p)
{
    for (size_t i = 0; i < mock::allocs.size(); i++)
        if (mock::allocs[i].p == p)
            mock::allocs.erase(mock::allocs.begin() + (long)i);
    free(p);
    return cudaSuccess;
}
cudaError_t cudaMemcpy(void* d, const void* s, size_t n, cudaMemcpyKind)
{
    if (sync_point() != cudaSuccess)
        return mock::sticky;
    memcpy(d, s, n);
    return cudaSuccess;
}
cudaError_t cudaMemset(void* p, int v, size_t n)
{
    memset(p, v, n);
    return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* p, int v, size_t n, cudaStream_t)
{
    mock::Alloc* a = mock::find(p);
    if (a && a->p == p && n == a->n && n >= (size_t)(2 * mock::l2)) {
        mock::flushes++;
        mock::flush_bytes = n;
    }
    memset(p, v, n);
    return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* e)
{
    static int made;
    *e = mock::event_handle(made++ % mock::n_events);
    return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t)
{
    mock::event_ms[(uintptr_t)e - 1] = mock::gpu_ms;
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return sync_point(); }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b)
{
    *ms = (float)(mock::event_ms[(uintptr_t)b - 1] - mock::event_ms[(uintptr_t)a - 1]);
    return cudaSuccess;
}
const char* cudaGetErrorName(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    default: return "cudaErrorUnknown";
    }
}
const char* cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    default: return "unknown error";
    }
}
} // extern "C"

// ----------------------------------------------------- the harness under test

enum Fault { NONE, NOTHING, PAST_END, ILLEGAL, BAD_LAUNCH, CHATTY, WRONG_AT_4099 };
static Fault fault = NONE;
static double kernel_ms = 0.4;     // device time of one solve,
static double jitter_ms = 0;       // give or take this, alternately
static long real_us = 0;           // host time one solve takes
static std::vector<long long> ran; // sizes run
static long long bench_n = 1 << 16; // the GPU bench size

// A host "solve": the mock's device pointers are host memory.
static void solve(const float* a, const float* b, float* c, int n)
{
    mock::kernels++;
    mock::gpu_ms += kernel_ms + (mock::kernels % 2 ? jitter_ms : -jitter_ms);
    if (real_us) {
        struct timespec ts = {real_us / 1000000, (real_us % 1000000) * 1000};
        nanosleep(&ts, nullptr);
    }
    switch (fault) {
    case NOTHING: return;
    case ILLEGAL: mock::pending = cudaErrorIllegalAddress; return;
    case BAD_LAUNCH: mock::last_error = cudaErrorInvalidConfiguration; return;
    case CHATTY: printf("{\"schema\":1,\"status\":\"pass\"} from the learner\n"); break;
    default: break;
    }
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
    if (fault == PAST_END) // a thread without a bounds check
        c[n] = 0.5f;
    if (fault == WRONG_AT_4099 && n == 4099)
        c[4000] += 1.0f;
}

static void run_case(lab::Lab& lab, int n, uint64_t seed)
{
    lab.begin_case(lab::fmt("n=%d", n), seed);
    lab::Rng rng(seed);
    std::vector<float> a = rng.uniform<float>(n, -1.0, 1.0);
    std::vector<float> b = rng.uniform<float>(n, -1.0, 1.0);
    std::vector<float> want(n);
    for (int i = 0; i < n; i++)
        want[i] = a[i] + b[i];
    auto da = lab::to_device(a), db = lab::to_device(b);
    auto dc = lab::output<float>(n);
    lab.call([&] { solve(da, db, dc, n); });
    lab.expect(dc, want, lab::Tol{1e-6, 1e-6});
    lab.time([&] { solve(da, db, dc, n); }, lab::Work{12.0 * n, 1.0 * n, "fp32"});
}

static int harness_main(std::vector<const char*> args)
{
    std::vector<char*> argv;
    argv.push_back((char*)"vector-add");
    for (const char* s : args)
        argv.push_back((char*)s);
    lab::Lab lab("vector-add", (int)argv.size(), argv.data());
    for (long long n : lab.sizes({1, 17, 4099}, bench_n))
        for (uint64_t seed : lab.seeds()) {
            ran.push_back(n);
            run_case(lab, (int)n, seed);
        }
    // What the parent cannot see otherwise, on stderr.
    fprintf(stderr, "flushes=%d flush_bytes=%zu kernels=%ld runs=%zu\n",
            mock::flushes, mock::flush_bytes, mock::kernels, ran.size());
    return lab.finish();
}

// A second harness, int8 negation, whose right answers include the integer
// canary: x = 91 negates to -91, all bytes 0xA5.  With skip_canary_answers
// the "kernel" leaves exactly those elements unwritten.
static bool skip_canary_answers = false;

static void negate(const int8_t* x, int8_t* y, int n)
{
    mock::kernels++;
    for (int i = 0; i < n; i++)
        if (!(skip_canary_answers && x[i] == 91))
            y[i] = (int8_t)-x[i];
}

static int negate_main(std::vector<const char*> args)
{
    std::vector<char*> argv;
    argv.push_back((char*)"negate");
    for (const char* s : args)
        argv.push_back((char*)s);
    lab::Lab lab("negate", (int)argv.size(), argv.data());
    for (uint64_t seed : lab.seeds()) {
        lab.begin_case("n=10", seed);
        std::vector<int8_t> x(10), want(10);
        for (int i = 0; i < 10; i++) {
            x[i] = (int8_t)(i == 3 || i == 7 ? 91 : i * 3 - 12);
            want[i] = (int8_t)(i == 3 || i == 7 ? -91 : 12 - i * 3);
        }
        auto dx = lab::to_device(x);
        auto dy = lab::output<int8_t>(10);
        lab.call([&] { negate(dx, dy, 10); });
        lab.expect(dy, want, lab::Tol{0, 0});
    }
    fprintf(stderr, "kernels=%ld\n", mock::kernels);
    return lab.finish();
}

// Host values through lab.expect_host: one case right, one off by 0.5 at
// index 1, one with a value missing.
static int host_main(std::vector<const char*> args)
{
    std::vector<char*> argv;
    argv.push_back((char*)"host");
    for (const char* s : args)
        argv.push_back((char*)s);
    lab::Lab lab("host", (int)argv.size(), argv.data());
    lab.begin_case("right", 1);
    lab.expect_host(std::vector<double>{1.0, 2.0}, std::vector<double>{1.0, 2.0}, lab::Tol{0, 0});
    lab.begin_case("off", 1);
    lab.expect_host(std::vector<double>{1.0, 2.0}, std::vector<double>{1.0, 2.5}, lab::Tol{0.1, 0},
                    "the second value is the sum");
    // A note on values that pass is never shown.
    lab.expect_host(std::vector<int>{3}, std::vector<int>{3}, lab::Tol{0, 0}, "unused");
    lab.begin_case("short", 1);
    lab.expect_host(std::vector<double>{1.0}, std::vector<double>{1.0, 2.0}, lab::Tol{0, 0});
    return lab.finish();
}

// A harness that needs two devices, on the stand-in runtime's one.
static int devices_main(std::vector<const char*> args)
{
    std::vector<char*> argv;
    argv.push_back((char*)"devices");
    for (const char* s : args)
        argv.push_back((char*)s);
    lab::Lab lab("devices", (int)argv.size(), argv.data());
    lab.devices(1); // one is there: no error
    lab.devices(2);
    lab.begin_case("never", 1);
    return lab.finish();
}

// Which harness a run starts; setup may switch it.
static int (*entry)(std::vector<const char*>) = harness_main;

// ------------------------------------------------------------- the checks

static int passed, failed;
#define CHECK(cond)                                                         \
    do {                                                                    \
        if (cond) {                                                         \
            passed++;                                                       \
        } else {                                                            \
            failed++;                                                       \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                   \
    } while (0)

struct Run {
    int code = -1;
    cJSON* json = nullptr;
    std::string stdout_text, stderr_text;
    ~Run() { cJSON_Delete(json); }
};

static std::string slurp(int fd)
{
    std::string s;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        s.append(buf, (size_t)n);
    close(fd);
    return s;
}

// Runs the harness in a child with the fault and device set up by setup;
// the result comes back through CUDALAB_RESULT_FD.
template <class F> static void run(Run& r, std::vector<const char*> args, F setup)
{
    int res[2], out[2], err[2];
    if (pipe(res) || pipe(out) || pipe(err))
        abort();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(res[0]);
        close(out[0]);
        close(err[0]);
        dup2(out[1], 1);
        dup2(err[1], 2);
        setenv("CUDALAB_RESULT_FD", std::to_string(res[1]).c_str(), 1);
        setup();
        int code = entry(args);
        fflush(stdout);
        fflush(stderr);
        _exit(code);
    }
    close(res[1]);
    close(out[1]);
    close(err[1]);
    // Small outputs: reading one pipe after another cannot block the child.
    std::string result = slurp(res[0]);
    r.stdout_text = slurp(out[0]);
    r.stderr_text = slurp(err[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.json = cJSON_Parse(result.c_str());
    if (!r.json)
        fprintf(stderr, "not JSON: %s\nstderr: %s\n", result.c_str(), r.stderr_text.c_str());
}

static cJSON* get(cJSON* o, const char* k)
{
    return o ? cJSON_GetObjectItemCaseSensitive(o, k) : nullptr;
}
static std::string str_of(cJSON* o, const char* k)
{
    cJSON* v = get(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}
static double num_of(cJSON* o, const char* k)
{
    cJSON* v = get(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}
static bool has(const std::string& s, const char* part)
{
    return s.find(part) != std::string::npos;
}
// A number from the child's "key=value" line on stderr.
static long stat_of(const Run& r, const char* key)
{
    size_t at = r.stderr_text.find(std::string(key) + "=");
    return at == std::string::npos ? -1 : atol(r.stderr_text.c_str() + at + strlen(key) + 1);
}

static void test_check_pass(void)
{
    Run r;
    run(r, {"--mode", "check"}, [] {});
    CHECK(r.code == 0);
    CHECK(str_of(r.json, "status") == "pass" && str_of(r.json, "backend") == "gpu");
    CHECK(str_of(r.json, "exercise") == "vector-add");
    cJSON* dev = get(r.json, "device");
    CHECK(str_of(dev, "name") == "NVIDIA H200" && str_of(dev, "cc") == "9.0");
    CHECK(num_of(dev, "sm_count") == 132);
    CHECK(num_of(dev, "peak_gbps") == 3352.3); // 2 x 2619 MHz x 640 bytes
    CHECK(num_of(get(dev, "peak_tflops"), "fp32") == 66.9);
    cJSON* cases = get(r.json, "cases");
    CHECK(cJSON_GetArraySize(cases) == 3);     // seeds fold into one case
    CHECK(str_of(cJSON_GetArrayItem(cases, 0), "name") == "n=1");
    CHECK(str_of(cJSON_GetArrayItem(cases, 2), "name") == "n=4099");
    CHECK(num_of(cJSON_GetArrayItem(cases, 2), "max_abs_err") == 0);
    CHECK(get(r.json, "timing") == nullptr && get(r.json, "mismatch") == nullptr);
    CHECK(stat_of(r, "runs") == 9 && stat_of(r, "kernels") == 9); // 3 sizes x 3 seeds
    CHECK(r.stdout_text.empty());
}

static void test_check_untouched(void)
{
    Run r;
    run(r, {"--mode", "check", "--seed", "5"}, [] { fault = NOTHING; });
    CHECK(r.code == 1 && str_of(r.json, "status") == "wrong");
    cJSON* m = get(r.json, "mismatch");
    CHECK(str_of(m, "case") == "n=1" && num_of(m, "seed") == 5 && num_of(m, "index") == 0);
    CHECK(cJSON_IsNull(get(m, "got")) && str_of(m, "got_text") == "nan");
    CHECK(has(str_of(m, "note"), "never written"));
    cJSON* c2 = cJSON_GetArrayItem(get(r.json, "cases"), 2);
    CHECK(str_of(c2, "status") == "wrong" && num_of(c2, "mismatches") == 3 * 4099);
}

// Right answers equal to the canary: solve runs a second time over a
// second canary, once per case, and only then is an unwritten one caught.
static void test_check_canary_answers(void)
{
    Run ok;
    run(ok, {"--mode", "check"}, [] { entry = negate_main; });
    CHECK(ok.code == 0 && str_of(ok.json, "status") == "pass");
    CHECK(stat_of(ok, "kernels") == 6); // 3 seeds, each solve run twice

    Run r;
    run(r, {"--mode", "check", "--seed", "9"}, [] {
        entry = negate_main;
        skip_canary_answers = true;
    });
    CHECK(r.code == 1 && str_of(r.json, "status") == "wrong");
    cJSON* m = get(r.json, "mismatch");
    CHECK(num_of(m, "index") == 3 && num_of(m, "seed") == 9 && num_of(m, "expected") == -91);
    CHECK(str_of(m, "got_text") == "(not written)" && has(str_of(m, "note"), "never written"));
    cJSON* c0 = cJSON_GetArrayItem(get(r.json, "cases"), 0);
    CHECK(str_of(c0, "status") == "wrong" && num_of(c0, "mismatches") == 2 * 3);
}

static void test_expect_host(void)
{
    Run r;
    run(r, {"--mode", "check"}, [] { entry = host_main; });
    CHECK(r.code == 1 && str_of(r.json, "status") == "wrong");
    cJSON* m = get(r.json, "mismatch");
    CHECK(str_of(m, "case") == "off" && num_of(m, "index") == 1);
    CHECK(num_of(m, "expected") == 2.5 && num_of(m, "got") == 2.0);
    CHECK(str_of(m, "note") == "the second value is the sum");
    cJSON* cases = get(r.json, "cases");
    CHECK(cJSON_GetArraySize(cases) == 3);
    CHECK(str_of(cJSON_GetArrayItem(cases, 0), "status") == "pass");
    CHECK(str_of(cJSON_GetArrayItem(cases, 1), "status") == "wrong");
    CHECK(str_of(cJSON_GetArrayItem(cases, 2), "status") == "wrong");
}

static void test_check_past_end(void)
{
    Run r;
    run(r, {"--mode", "check"}, [] { fault = PAST_END; });
    CHECK(r.code == 1 && str_of(r.json, "status") == "wrong");
    cJSON* m = get(r.json, "mismatch");
    CHECK(str_of(m, "case") == "n=1" && num_of(m, "index") == 1);
    CHECK(has(str_of(m, "note"), "past the end"));
    cJSON* c0 = cJSON_GetArrayItem(get(r.json, "cases"), 0);
    CHECK(str_of(c0, "status") == "wrong" && num_of(c0, "max_abs_err") == 0);
}

static void test_check_one_wrong_case(void)
{
    Run r;
    run(r, {"--mode", "check"}, [] { fault = WRONG_AT_4099; });
    CHECK(r.code == 1);
    cJSON* cases = get(r.json, "cases");
    CHECK(str_of(cJSON_GetArrayItem(cases, 0), "status") == "pass");
    CHECK(str_of(cJSON_GetArrayItem(cases, 2), "status") == "wrong");
    CHECK(num_of(cJSON_GetArrayItem(cases, 2), "max_abs_err") == 1.0 ||
          std::fabs(num_of(cJSON_GetArrayItem(cases, 2), "max_abs_err") - 1.0) < 1e-6);
    cJSON* m = get(r.json, "mismatch");
    CHECK(str_of(m, "case") == "n=4099" && num_of(m, "index") == 4000 && num_of(m, "seed") == 1);
    CHECK(std::fabs(num_of(m, "got") - num_of(m, "expected") - 1.0) < 1e-6);
}

static void test_runtime_errors(void)
{
    Run r;
    run(r, {"--mode", "check"}, [] { fault = ILLEGAL; });
    CHECK(r.code == 2 && str_of(r.json, "status") == "runtime_error");
    cJSON* e = get(r.json, "error");
    CHECK(str_of(e, "name") == "cudaErrorIllegalAddress");
    CHECK(str_of(e, "message") == "an illegal memory access was encountered");
    CHECK(str_of(e, "where") == "running solve() (case n=1, seed 1)");
    CHECK(get(r.json, "mismatch") == nullptr);

    Run l;
    run(l, {"--mode", "check"}, [] { fault = BAD_LAUNCH; });
    CHECK(l.code == 2 && str_of(get(l.json, "error"), "name") == "cudaErrorInvalidConfiguration");
    CHECK(has(str_of(get(l.json, "error"), "where"), "launching in solve()"));

    Run u;
    run(u, {"--mode", "fast"}, [] {});
    CHECK(u.code == 2 && str_of(get(u.json, "error"), "name") == "usage");
    CHECK(has(u.stderr_text, "--mode must be check or bench"));

    Run d;
    run(d, {"--mode", "check"}, [] { mock::count_error = cudaErrorNoDevice; });
    CHECK(d.code == 2 && cJSON_IsNull(get(d.json, "device")));
    CHECK(str_of(get(d.json, "error"), "name") == "cudaErrorNoDevice");
}

static void test_learner_output_apart(void)
{
    Run r;
    run(r, {"--mode", "check"}, [] { fault = CHATTY; });
    CHECK(r.code == 0 && str_of(r.json, "status") == "pass");
    CHECK(has(r.stdout_text, "from the learner"));
}

static void test_bench_gpu(void)
{
    // 0.39 and 0.41 ms by turns: about 2.5 % noise, so only the cap of
    // 1000 samples ends it; the median is 0.4.
    Run r;
    run(r, {"--mode", "bench"}, [] { kernel_ms = 0.4; jitter_ms = 0.01; });
    CHECK(r.code == 0 && str_of(r.json, "status") == "pass");
    CHECK(cJSON_GetArraySize(get(r.json, "cases")) == 1);
    CHECK(str_of(cJSON_GetArrayItem(get(r.json, "cases"), 0), "name") == "n=65536");
    cJSON* t = get(r.json, "timing");
    CHECK(num_of(t, "samples") == 1000);
    CHECK(std::fabs(num_of(t, "median_ms") - 0.4) < 1e-6);
    CHECK(num_of(t, "noise_pct") > 2.4 && num_of(t, "noise_pct") < 2.6);
    CHECK(std::fabs(num_of(t, "min_ms") - 0.39) < 1e-6 && cJSON_IsTrue(get(t, "l2_flushed")));
    CHECK(get(t, "batched") == nullptr && get(t, "emulated") == nullptr);
    // One flush per sample, over twice the L2: 3 estimates + 1000 samples.
    CHECK(stat_of(r, "flushes") == 1003 && stat_of(r, "flush_bytes") == 2 * mock::l2);
    // 1 checked call + 2 warm-ups + 3 estimates + 1000 samples.
    CHECK(stat_of(r, "kernels") == 1006);
    cJSON* w = get(r.json, "work");
    CHECK(num_of(w, "bytes") == 12.0 * 65536 && num_of(w, "flops") == 65536);
    CHECK(num_of(w, "calls") == 1006 && str_of(w, "peak") == "fp32");
    // 768 KiB in 0.4 ms = 1.96608 GB/s, 0.0587 % of 3352.32 GB/s;
    // 65536 FLOP in 0.4 ms = 0.00016384 TFLOP/s.
    cJSON* d = get(r.json, "derived");
    CHECK(std::fabs(num_of(d, "gbps") - 1.96608) < 1e-6);
    CHECK(std::fabs(num_of(d, "pct_peak_bw") - 100 * 1.96608 / 3352.32) < 1e-6);
    CHECK(std::fabs(num_of(d, "tflops") - 0.00016384) < 1e-9);
}

static void test_bench_min_time(void)
{
    // Each call takes 60 ms of host time and the device time is steady:
    // 10 samples pass the 0.5 s mark and stop there.
    Run r;
    run(r, {"--mode", "bench"}, [] { kernel_ms = 0.4; real_us = 60000; });
    CHECK(r.code == 0 && num_of(get(r.json, "timing"), "samples") == 10);
}

static void test_bench_batched(void)
{
    // 2 us per call: batches of ceil(0.2 / 0.002) = 100 calls per sample.
    Run r;
    run(r, {"--mode", "bench"}, [] { kernel_ms = 0.002; bench_n = 64; });
    cJSON* t = get(r.json, "timing");
    CHECK(r.code == 0 && num_of(t, "batched") == 100);
    CHECK(std::fabs(num_of(t, "median_ms") - 0.002) < 1e-6);
    long samples = (long)num_of(t, "samples");
    CHECK(samples >= 10 && stat_of(r, "flushes") == 3 + samples);
    CHECK(stat_of(r, "kernels") == 1 + 2 + 3 + 100 * samples);
}

static void test_bench_wrong(void)
{
    // A wrong answer is reported without being timed.
    Run r;
    run(r, {"--mode", "bench"}, [] { fault = NOTHING; });
    CHECK(r.code == 1 && str_of(r.json, "status") == "wrong");
    CHECK(get(r.json, "timing") == nullptr && get(r.json, "derived") == nullptr);
    CHECK(stat_of(r, "kernels") == 1 && stat_of(r, "flushes") == 0);
}

static void test_bench_simt(void)
{
    Run r;
    run(r, {"--mode", "bench", "--seed", "9"}, [] { mock::name = "simt (H100)"; kernel_ms = 0.4; });
    CHECK(r.code == 0 && str_of(r.json, "backend") == "simt");
    CHECK(str_of(cJSON_GetArrayItem(get(r.json, "cases"), 0), "name") == "n=4099");
    cJSON* t = get(r.json, "timing");
    CHECK(num_of(t, "samples") == 1 && cJSON_IsTrue(get(t, "emulated")));
    CHECK(cJSON_IsFalse(get(t, "l2_flushed")));
    CHECK(cJSON_IsNull(get(get(r.json, "derived"), "gbps")));
    CHECK(stat_of(r, "flushes") == 0 && stat_of(r, "kernels") == 2);
    CHECK(num_of(get(r.json, "work"), "calls") == 2); // the check, then the timed run
    CHECK(num_of(get(get(r.json, "device"), "peak_tflops"), "fp32") == 66.9);
}

static void test_too_few_devices(void)
{
    Run r;
    run(r, {"--mode", "check"}, [] { entry = devices_main; });
    CHECK(r.code == 2 && str_of(r.json, "status") == "runtime_error");
    cJSON* e = get(r.json, "error");
    CHECK(str_of(e, "name") == "too_few_devices");
    CHECK(str_of(e, "message") == "this exercise needs 2 devices and the machine has 1");
}

int main(void)
{
    test_check_pass();
    test_check_untouched();
    test_check_canary_answers();
    test_expect_host();
    test_too_few_devices();
    test_check_past_end();
    test_check_one_wrong_case();
    test_runtime_errors();
    test_learner_output_apart();
    test_bench_gpu();
    test_bench_min_time();
    test_bench_batched();
    test_bench_wrong();
    test_bench_simt();
    printf("test_lab_device: %d checks passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
