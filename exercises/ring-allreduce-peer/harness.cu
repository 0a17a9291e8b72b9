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
// check: (R, n) = 2 x 1 (one chunk empty), 2 x 1000 (two ranks: the chunk each
// reads is the one the other writes next), 3 x 10, 4 x 3 (fewer floats than
// ranks), 4 x 4099, 4 x 40000; three seeds each.  On simt a missing wait
// shows as a race between streams (a hazard), not as a wrong sum.
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
};

static const Shape kShapes[] = {
    {2, 1}, {2, 1000}, {3, 10}, {4, 3}, {4, 4099}, {4, 40000}, {4, 1 << 24},
};
static const int kMaxRanks = 4;

static void nccl_ok(lab::Lab& lab, ncclResult_t r, const char* what)
{
    if (r != ncclSuccess)
        lab.die(ncclGetErrorString(r), ncclGetLastError(nullptr), what);
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    const int R = s.ranks, n = s.n, cs = (n + R - 1) / R;
    lab.begin_case(lab::fmt("ranks=%d n=%d", R, n), seed);
    lab::Rng rng(seed);
    std::vector<std::vector<float>> in(R);
    std::vector<float> sum(n, 0.0f);
    for (int r = 0; r < R; r++) {
        std::vector<int> v = rng.uniform<int>(n, -64, 64);
        in[r].assign(v.begin(), v.end());
        for (int i = 0; i < n; i++)
            sum[i] += in[r][i]; // integers: exact in any order
    }

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
        if (!lab.expect_host(want[r], sum, lab::Tol{0.0, 0.0}))
            fprintf(stderr, "ring-allreduce-peer: ncclAllReduce's result on rank %d "
                            "differs from the host sum\n", r);
    }

    lab.call([&] { ring_allreduce(bp.data(), sp.data(), R, n, streams.data()); });
    for (int r = 0; r < R; r++)
        if (!lab.expect(bufs[r], want[r], lab::Tol{0.0, 0.0})) {
            fprintf(stderr,
                    "ring-allreduce-peer: ranks=%d n=%d seed %llu: rank %d does not hold "
                    "what ncclAllReduce gives (the first wrong element is shown)\n",
                    R, n, (unsigned long long)seed, r);
            break;
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
    for (long long i : lab.sizes({0, 1, 2, 3, 4, 5}, 6))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
