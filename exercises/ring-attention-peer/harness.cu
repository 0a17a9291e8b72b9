// Harness for ring-attention-peer: a sequence of R n tokens split over R
// devices.  Rank r holds the n queries, keys and values of tokens [r n, (r+1) n).
// Every rank must end with the attention output of its own queries over the
// WHOLE sequence (no mask), softmax(Q K^T / sqrt(d)) V, which the learner
// gets by passing the K/V blocks around the ring and merging partial
// results with the log-sum-exp rule.  The reference is the unsplit
// attention computed on the host in double.
//
// Tolerance: atol 2e-5, rtol 1e-4 (float exponentials and sums of up to
// R n terms, merged in a different order from the reference).
//
// check: (R, n, d) = (2, 1, 4), (4, 5, 8), (3, 33, 16), (4, 16, 32); three
// seeds each.  bench: (4, 1024, 64) on a GPU (the host reference is
// quadratic in the 4096 tokens).
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu).  Per rank r, on device r:
// q[r] n*d, kv[r] 2*n*d (the n keys, then the n values; read-only),
// kv_buf[r] 4*n*d scratch (room for two K/V blocks), o[r] n*d output,
// stats[r] 2*n floats of scratch; all row-major.
void ring_attention(const float* const* q, const float* const* kv, float* const* kv_buf,
                    float* const* o, float* const* stats, int ranks, int n, int d,
                    const cudaStream_t* streams);

struct Shape {
    int ranks, n, d;
};

static const Shape kShapes[] = {
    {2, 1, 4}, {4, 5, 8}, {3, 33, 16}, {4, 16, 32}, {4, 1024, 64},
};
static const int kMaxRanks = 4;

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    const int R = s.ranks, n = s.n, d = s.d, N = R * n;
    lab.begin_case(lab::fmt("ranks=%d n=%d d=%d", R, n, d), seed);
    lab::Rng rng(seed);
    // Queries in [-2, 2) make the softmax peaked enough that a block left
    // out, or merged with the wrong weight, changes the answer.
    std::vector<float> Q = rng.uniform<float>((size_t)N * d, -2.0, 2.0);
    std::vector<float> K = rng.uniform<float>((size_t)N * d, -1.0, 1.0);
    std::vector<float> V = rng.uniform<float>((size_t)N * d, -1.0, 1.0);

    // The unsplit attention, in double.
    const double scale = 1.0 / std::sqrt((double)d);
    std::vector<float> O((size_t)N * d);
    std::vector<double> sc(N), acc(d);
    for (int i = 0; i < N; i++) {
        double mx = -INFINITY, sum = 0;
        for (int j = 0; j < N; j++) {
            double dot = 0;
            for (int c = 0; c < d; c++)
                dot += (double)Q[(size_t)i * d + c] * K[(size_t)j * d + c];
            sc[j] = dot * scale;
            mx = std::max(mx, sc[j]);
        }
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int j = 0; j < N; j++) {
            double p = std::exp(sc[j] - mx);
            sum += p;
            for (int c = 0; c < d; c++)
                acc[c] += p * V[(size_t)j * d + c];
        }
        for (int c = 0; c < d; c++)
            O[(size_t)i * d + c] = (float)(acc[c] / sum);
    }

    std::vector<lab::DeviceArray<float>> dq, dkv, dbuf, dout, dstats;
    std::vector<const float*> pq(R), pkv(R);
    std::vector<float*> pbuf(R), pout(R), pstats(R);
    std::vector<cudaStream_t> streams(R);
    const size_t blk = (size_t)n * d;
    for (int r = 0; r < R; r++) {
        std::vector<float> qr(Q.begin() + r * blk, Q.begin() + (r + 1) * blk);
        std::vector<float> kvr(K.begin() + r * blk, K.begin() + (r + 1) * blk);
        kvr.insert(kvr.end(), V.begin() + r * blk, V.begin() + (r + 1) * blk);
        dq.push_back(lab::to_device_on(r, qr));
        dkv.push_back(lab::to_device_on(r, kvr));
        dbuf.push_back(lab::DeviceArray<float>(4 * blk, 0, nullptr, r));
        dout.push_back(lab::output_on<float>(r, blk));
        dstats.push_back(lab::DeviceArray<float>(2 * (size_t)n, 0, nullptr, r));
        pq[r] = dq[r];
        pkv[r] = dkv[r];
        pbuf[r] = dbuf[r];
        pout[r] = dout[r];
        pstats[r] = dstats[r];
        lab::DeviceScope on(r);
        lab.cuda(cudaStreamCreate(&streams[r]), "creating a stream per device");
    }
    auto run = [&] {
        ring_attention(pq.data(), pkv.data(), pbuf.data(), pout.data(), pstats.data(), R,
                       n, d, streams.data());
    };
    lab.call(run);
    for (int r = 0; r < R; r++) {
        std::vector<float> want(O.begin() + r * blk, O.begin() + (r + 1) * blk);
        if (!lab.expect(dout[r], want, lab::Tol{2e-5, 1e-4})) {
            fprintf(stderr,
                    "ring-attention-peer: ranks=%d n=%d d=%d seed %llu: rank %d's output is "
                    "not attention over the whole sequence (tokens %d..%d)\n",
                    R, n, d, (unsigned long long)seed, r, r * n, (r + 1) * n - 1);
            break;
        }
    }
    // Per rank: Q K^T and P V over the whole sequence, 4 n N d FLOPs; bytes:
    // each K/V block read once per rank and sent R - 1 times.
    lab.time(run, lab::Work{4.0 * N * 2.0 * blk * R, 4.0 * N * (double)N * d, "fp32"});
    for (int r = 0; r < R; r++) {
        lab::DeviceScope on(r);
        cudaStreamDestroy(streams[r]);
    }
}

int main(int argc, char** argv)
{
    lab::Lab lab("ring-attention-peer", argc, argv);
    lab.devices(kMaxRanks);
    for (long long i : lab.sizes({0, 1, 2, 3}, 4))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
