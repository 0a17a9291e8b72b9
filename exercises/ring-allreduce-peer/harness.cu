// Harness for ring-allreduce-peer: R devices, each holding a vector of n
// floats, all-reduced (summed) by the learner's ring: a reduce-scatter then
// an all-gather, each chunk moved from one device to the next with a peer
// copy.  The result on every device is compared with what ncclAllReduce
// gives on the same inputs, and NCCL's own result with a host sum.
//
// Values are whole numbers in [-64, 64]: every partial sum of up to 4 of
// them is a small integer, exact in float whatever the order of the
// additions, so the ring's result must equal NCCL's bit for bit.
//
// The "ring order" cases check the traffic instead, through the one thing
// that shows where the bytes went: the order of the additions.  Their
// values are uniform in [-1, 1), where float addition is not associative.
// A ring adds each chunk up along the ring, one rank after the next, each
// adding its own value to the partial sum it received, so every element of
// chunk c is ((x_s + x_s+1) + x_s+2) + ... for one start s and one direction,
// and the rank added last, which finishes the chunk, is a different rank
// for every chunk: the load a reduce-scatter spreads.  A gather to one
// rank sums every chunk in the same order and finishes them all on one
// rank; a tree sums in no ring order at all.  Each rank's vector must be
// within R^2 2^-24 of the exact sum (the rounding of R - 1 additions), and
// every chunk's sums must equal, bit for bit, the ring sum of one start,
// with one direction and a different last rank for every chunk.  Two sums
// in different orders differ in about a quarter of the elements or more,
// so a chunk of hundreds of elements names its order beyond doubt.  This
// holds on a GPU as on simt; it cannot tell a ring reduce-scatter from one
// in which each rank fetches its chunk from every other rank directly and
// adds in ring order, nor see the all-gather, which adds nothing.
//
// check: (R, n) = 2 x 1 (one chunk empty), 2 x 1000 (two ranks: the chunk each
// reads is the one the other writes next), 3 x 10, 4 x 3 (fewer floats than
// ranks), 4 x 4099, 4 x 40000, and the ring order of 3 x 999 and 4 x 4099;
// three seeds each.  On simt a missing wait shows as a race between streams
// (a hazard), not as a wrong sum.
// bench: 4 x 2^24 floats on a GPU, the largest check shape on simt.
#include <cudalab/lab.h>
#include <nccl.h>

// The learner's entry point (kernel.cu).  bufs[r] and scratch[r] live on
// device r: bufs[r] holds n floats, scratch[r] ceil(n / ranks) floats.
// streams[r] is a stream of device r.  On return (after the harness
// synchronizes every device) each bufs[r] must hold the element-wise sum.
void ring_allreduce(float* const* bufs, float* const* scratch, int ranks, int n,
                    const cudaStream_t* streams);

struct Shape {
    int ranks, n;
    bool order; // a "ring order" case: float values, the order of the sums checked
};

// Indexed by the sizes the Lab hands out: 0..7 are checked, 8 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {2, 1, false},    {2, 1000, false}, {3, 10, false},  {4, 3, false},  {4, 4099, false},
    {4, 40000, false}, {3, 999, true},  {4, 4099, true}, {4, 1 << 24, false},
};
static const int kMaxRanks = 4;

// Element i of every rank's input summed in float along the ring: from rank
// s, then s + dir, s + 2 dir, ..., each new rank's value added to the sum so
// far, as the rank that receives the partial sum adds its own.
static float ring_sum(const std::vector<std::vector<float>>& in, size_t i, int s, int dir)
{
    const int R = (int)in.size();
    float acc = in[s][i];
    for (int t = 1, r = s; t < R; t++) {
        r = ((r + dir) % R + R) % R;
        acc += in[r][i];
    }
    return acc;
}

static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

// Bit s of the result: the elements [b, e) of got are the ring sums that
// start at rank s going in direction dir.
static unsigned ring_starts(const std::vector<std::vector<float>>& in,
                            const std::vector<float>& got, int b, int e, int dir)
{
    unsigned starts = 0;
    for (int s = 0; s < (int)in.size(); s++) {
        bool all = true;
        for (int i = b; i < e && all; i++)
            all = same_bits(got[i], ring_sum(in, (size_t)i, s, dir));
        if (all)
            starts |= 1u << s;
    }
    return starts;
}

// Whether chunks can be given starts (chunk c one of the bits of starts[c],
// chunks with no elements skipped) whose last ranks, s + (R - 1) dir, all
// differ: a ring reduce-scatter.
static bool distinct_ends(const std::vector<unsigned>& starts, int dir, size_t c,
                          unsigned ends_taken)
{
    const int R = (int)starts.size();
    if (c == starts.size())
        return true;
    if (starts[c] == ~0u)
        return distinct_ends(starts, dir, c + 1, ends_taken);
    for (int s = 0; s < R; s++) {
        int end = ((s + (R - 1) * dir) % R + R) % R;
        if ((starts[c] >> s & 1) && !(ends_taken >> end & 1) &&
            distinct_ends(starts, dir, c + 1, ends_taken | 1u << end))
            return true;
    }
    return false;
}

// The ring order check of one rank's result (see the top comment); returns
// true when it passes.  On a failure the values compared are, per chunk,
// the rank that finished it (in the direction in which every chunk has a
// ring order, if one has; -1 where a chunk has none), against the last rank
// of the statement's schedule, c - 1: the note says what they mean.
static bool expect_ring_order(lab::Lab& lab, const std::vector<std::vector<float>>& in,
                              const std::vector<float>& got, int rank, uint64_t seed)
{
    const int R = (int)in.size(), n = (int)got.size(), cs = (n + R - 1) / R;
    std::vector<int> found, want;
    for (int c = 0; c < R; c++)
        want.push_back((c + R - 1) % R);
    for (int dir : {1, -1}) {
        std::vector<unsigned> starts((size_t)R);
        std::vector<int> ends = want; // an empty chunk is finished by no one
        bool every = true;
        for (int c = 0; c < R; c++) {
            int b = std::min(n, c * cs), e = std::min(n, (c + 1) * cs);
            if (b >= e) {
                starts[c] = ~0u;
                continue;
            }
            starts[c] = ring_starts(in, got, b, e, dir);
            ends[c] = -1;
            for (int s = 0; s < R && ends[c] < 0; s++)
                if (starts[c] >> s & 1)
                    ends[c] = ((s + (R - 1) * dir) % R + R) % R;
            every = every && starts[c] != 0;
        }
        if (every && distinct_ends(starts, dir, 0, 0))
            return true;
        if (found.empty() || every)
            found = ends;
    }
    fprintf(stderr,
            "ring-allreduce-peer: ranks=%d n=%d seed %llu: rank %d's sums were not added up "
            "along a ring:",
            R, n, (unsigned long long)seed, rank);
    for (int c = 0; c < R; c++)
        fprintf(stderr, " chunk %d finished by rank %d%s", c, found[c], c + 1 < R ? "," : "\n");
    return lab.expect_host(found, want, lab::Tol{0, 0},
                           "the rank that added the last value of each chunk; in a ring "
                           "reduce-scatter each chunk is finished by a different rank "
                           "(the statement's schedule: rank c - 1), -1 where the sums "
                           "follow no ring order in either direction");
}

static void nccl_ok(lab::Lab& lab, ncclResult_t r, const char* what)
{
    if (r != ncclSuccess)
        lab.die(ncclGetErrorString(r), ncclGetLastError(nullptr), what);
}

// Every rank's input: whole numbers in [-64, 64], or for a ring order case
// uniform in [-1, 1).
static std::vector<std::vector<float>> make_inputs(lab::Rng& rng, const Shape& s)
{
    std::vector<std::vector<float>> in((size_t)s.ranks);
    for (auto& v : in) {
        if (s.order) {
            v = rng.uniform<float>((size_t)s.n, -1.0, 1.0);
        } else {
            std::vector<int> k = rng.uniform<int>((size_t)s.n, -64, 64);
            v.assign(k.begin(), k.end());
        }
    }
    return in;
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    const int R = s.ranks, n = s.n, cs = (n + R - 1) / R;
    lab.begin_case(lab::fmt("ranks=%d n=%d%s", R, n, s.order ? " ring order" : ""), seed);
    lab::Rng rng(seed);
    std::vector<std::vector<float>> in = make_inputs(rng, s);
    std::vector<float> sum((size_t)n);
    for (int i = 0; i < n; i++) {
        double acc = 0.0;
        for (int r = 0; r < R; r++)
            acc += in[r][i];
        sum[i] = (float)acc;
    }
    // Integers add up exactly in any order; floats in [-1, 1) are off the
    // exact sum by the rounding of R - 1 additions of partial sums below R.
    const lab::Tol tol{s.order ? R * R * std::ldexp(1.0, -24) : 0.0, 0.0};

    std::vector<lab::DeviceArray<float>> bufs, scratch, ref;
    std::vector<float*> bp(R), sp(R);
    std::vector<cudaStream_t> streams(R);
    for (int r = 0; r < R; r++) {
        bufs.push_back(lab::inout_on(r, in[r]));
        scratch.push_back(lab::DeviceArray<float>((size_t)cs, 0, nullptr, r));
        ref.push_back(lab::output_on<float>(r, (size_t)n));
        bp[r] = bufs[r];
        sp[r] = scratch[r];
        lab::DeviceScope on(r);
        lab.cuda(cudaStreamCreate(&streams[r]), "creating a stream per device");
    }

    // The reference: NCCL's all-reduce of the same inputs into ref.
    std::vector<int> devs(R);
    for (int r = 0; r < R; r++)
        devs[r] = r;
    std::vector<ncclComm_t> comms(R);
    nccl_ok(lab, ncclCommInitAll(comms.data(), R, devs.data()), "ncclCommInitAll");
    lab.call(
        [&] {
            nccl_ok(lab, ncclGroupStart(), "ncclGroupStart");
            for (int r = 0; r < R; r++)
                nccl_ok(lab,
                        ncclAllReduce(bufs[r].get(), ref[r].get(), (size_t)n, ncclFloat,
                                      ncclSum, comms[r], streams[r]),
                        "ncclAllReduce (the reference)");
            nccl_ok(lab, ncclGroupEnd(), "ncclGroupEnd");
        },
        "ncclAllReduce");
    std::vector<std::vector<float>> want(R);
    for (int r = 0; r < R; r++) {
        std::vector<float> h = ref[r].download();
        want[r].assign(h.begin(), h.begin() + n);
        // NCCL itself against the host sum, so a broken reference shows.
        if (!lab.expect_host(want[r], sum, tol))
            fprintf(stderr, "ring-allreduce-peer: ncclAllReduce's result on rank %d "
                            "differs from the host sum\n", r);
    }

    lab.call([&] { ring_allreduce(bp.data(), sp.data(), R, n, streams.data()); });
    for (int r = 0; r < R; r++) {
        // Integers: NCCL's result bit for bit; floats: the exact sum, then
        // the order in which it was added up.
        if (!lab.expect(bufs[r], s.order ? sum : want[r], tol)) {
            fprintf(stderr,
                    "ring-allreduce-peer: ranks=%d n=%d seed %llu: rank %d does not hold "
                    "%s (the first wrong element is shown)\n",
                    R, n, (unsigned long long)seed, r,
                    s.order ? "the sum of the ranks' vectors" : "what ncclAllReduce gives");
            break;
        }
        if (s.order) {
            std::vector<float> got = bufs[r].download();
            got.resize((size_t)n);
            if (!expect_ring_order(lab, in, got, r, seed))
                break;
        }
    }
    if (lab.benching()) {
        // Each rank sends and receives 2 (R-1) chunks of n / R floats.
        double bytes = 2.0 * (R - 1) * cs * sizeof(float) * R;
        lab.time([&] { ring_allreduce(bp.data(), sp.data(), R, n, streams.data()); },
                 lab::Work{bytes, (double)(R - 1) * cs * R, "fp32"});
    }
    for (int r = 0; r < R; r++) {
        ncclCommDestroy(comms[r]);
        lab::DeviceScope on(r);
        cudaStreamDestroy(streams[r]);
    }
}

int main(int argc, char** argv)
{
    lab::Lab lab("ring-allreduce-peer", argc, argv);
    lab.devices(kMaxRanks);
    for (long long i : lab.sizes({0, 1, 2, 3, 4, 5, 6, 7}, 8))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
