// Harness for ring-allreduce: R ranks, each with a gradient vector of n
// floats (rank r's at bufs + r * n, all in one allocation), summed by the
// ring schedule one step at a time.  The learner writes ring_step(); the
// harness calls it for step = 0 .. 2(R-1)-1 and, after every step, checks
// what each rank received (the traffic) and the whole state of every
// buffer against the schedule, not only the final sum.
//
// Chunks: cs = ceil(n / R); chunk c is [c * cs, min(n, (c + 1) * cs)),
// possibly empty.  Reduce-scatter step s (0 <= s < R-1): rank r sends chunk
// (r - s) mod R to rank r+1, which adds it to its own copy.  All-gather step
// R-1+g (0 <= g < R-1): rank r sends chunk (r + 1 - g) mod R to rank r+1,
// which overwrites its copy.
//
// check: six shapes (R, n): two ranks and one element (chunk 1 is empty);
// 3 x 10 (n not a multiple of R); 5 x 3 (fewer elements than ranks: two
// chunks are empty); 4 x 4099; 8 x 1000; 16 x 40000 (30 steps, many blocks
// per step).  Three seeds each.  Values are uniform in [1, 2): every element
// a rank receives changes its value (a partial sum only grows), so counting
// the elements of a buffer that changed in a step counts what the rank
// received.
// bench: 8 ranks x 2^24 floats on a GPU (512 MiB in all), the largest check
// shape on simt; one timed call is the whole all-reduce, 2(R-1) steps.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): bufs is a device pointer to
// ranks * n floats; step is 0 .. 2 * (ranks - 1) - 1.
void ring_step(float* bufs, int ranks, int n, int step);

struct Shape {
    int ranks, n;
};

// Indexed by the sizes the Lab hands out: 0..5 are checked, 6 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {2, 1}, {3, 10}, {5, 3}, {4, 4099}, {8, 1000}, {16, 40000}, {8, 1 << 24},
};

static int chunk_begin(int c, int cs, int n) { return std::min(n, c * cs); }
static int chunk_end(int c, int cs, int n) { return std::min(n, (c + 1) * cs); }
static int mod(int a, int m) { return ((a % m) + m) % m; }

// The chunk rank r sends in step `step` of the schedule (to rank r+1).
static int sent_chunk(int r, int R, int step)
{
    return step < R - 1 ? mod(r - step, R) : mod(r + 1 - (step - (R - 1)), R);
}

// Applies step `step` of the schedule to the host state.
static void host_step(std::vector<float>& st, int R, int n, int step)
{
    int cs = (n + R - 1) / R;
    bool reduce = step < R - 1;
    std::vector<float> before = st;
    for (int r = 0; r < R; r++) {
        int c = sent_chunk(r, R, step);
        int dst = (r + 1) % R;
        for (int i = chunk_begin(c, cs, n); i < chunk_end(c, cs, n); i++) {
            size_t d = (size_t)dst * n + i, s = (size_t)r * n + i;
            st[d] = reduce ? before[d] + before[s] : before[s];
        }
    }
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("ranks=%d n=%d", s.ranks, s.n), seed);
    lab::Rng rng(seed);
    const int R = s.ranks, n = s.n, steps = 2 * (R - 1);
    const int cs = (n + R - 1) / R;
    size_t total = (size_t)R * n;
    std::vector<float> init = rng.uniform<float>(total, 1.0, 2.0);
    lab::DeviceArray<float> d = lab::inout(init);

    // Every step is one float addition (reduce-scatter) or a copy
    // (all-gather) per element, and a + b == b + a exactly, so the schedule
    // fixes every bit of every buffer: the states are compared exactly.
    // The reference states are computed only where they are compared (not
    // in a judge's worker); the buffers read back only where the learner's
    // code ran (not in its checker, which takes the worker's values).
    const lab::Tol exact{0.0, 0.0};
    std::vector<float> want = init, got, prev;
    if (!lab.judging()) {
        got.resize(total);
        prev = init;
    }
    bool ok = true;
    for (int step = 0; step < steps && ok; step++) {
        if (lab.reference())
            host_step(want, R, n, step);
        lab.call([&] { ring_step(d, R, n, step); });
        // Traffic: the elements of each rank's buffer that changed in this
        // step (against the state the step began from: the previous step's
        // was right, or the check has ended), beside the size of the one
        // chunk the ring sends it.
        std::vector<long long> moved(R, 0), want_moved(R);
        for (int r = 0; r < R; r++) {
            int c = sent_chunk(mod(r - 1, R), R, step);
            want_moved[r] = chunk_end(c, cs, n) - chunk_begin(c, cs, n);
        }
        if (!lab.judging()) {
            lab.cuda(cudaMemcpy(got.data(), d.get(), total * sizeof(float),
                                cudaMemcpyDeviceToHost),
                     "copying the buffers back");
            for (size_t k = 0; k < total; k++)
                if (memcmp(&got[k], &prev[k], sizeof(float)) != 0)
                    moved[k / n]++;
        }
        const char* phase = step < R - 1 ? "reduce-scatter" : "all-gather";
        for (int r = 0; r < R && !lab.judging(); r++)
            if (moved[r] != want_moved[r]) {
                fprintf(stderr,
                        "ring-allreduce: ranks=%d n=%d seed %llu, step %d (%s): rank %d "
                        "received %lld floats; the ring sends it chunk %d from rank "
                        "%d, %lld floats\n",
                        R, n, (unsigned long long)seed, step, phase, r, moved[r],
                        sent_chunk(mod(r - 1, R), R, step), mod(r - 1, R), want_moved[r]);
                break;
            }
        ok = lab.expect_host(moved, want_moved, exact);
        if (!ok)
            break;
        ok = lab.expect_host(got, want, exact);
        if (!ok)
            fprintf(stderr,
                    "ring-allreduce: ranks=%d n=%d seed %llu, step %d (%s): the right "
                    "amount moved, but the buffers do not hold what the schedule "
                    "gives (a wrong chunk, direction or operation)\n",
                    R, n, (unsigned long long)seed, step, phase);
        prev.swap(got);
    }
    if (!ok)
        return;
    // The final state: every rank holds the sum (bitwise the same on every
    // rank, since the all-gather copies), and nothing past the buffers was
    // written.
    lab.expect(d, want, exact);
    if (lab.benching()) {
        // Each step touches n elements in all: reduce-scatter reads two
        // floats and writes one (12 bytes), all-gather reads one and writes
        // one (8 bytes); one addition per element in the first phase.
        double nn = (double)n;
        lab.time([&] {
                     for (int step = 0; step < steps; step++)
                         ring_step(d, R, n, step);
                 },
                 lab::Work{20.0 * (R - 1) * nn, (R - 1) * nn, "fp32"});
    }
}

int main(int argc, char** argv)
{
    lab::Lab lab("ring-allreduce", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4, 5}, 6))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
