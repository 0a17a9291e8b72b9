// Harness for kv-cache-decode: one query token per head attending to a
// paged KV cache, out = softmax(q K^T / sqrt(d)) V per head.
//
// check: five shapes (one cached token; 17 and 100 tokens; 517 tokens,
// enough for a split-K kernel to split; 250 tokens in pages of 32), head
// dimensions 32, 64 and 128, three seeds each.  None of the lengths is a
// multiple of the page size.  The block table is a random permutation of
// the physical pages, with spare pages that belong to no one.  Every slot
// that is not part of the sequence (spare pages, and the slots of the last
// page past seq_len) holds NaN, so reading one, even to mask it, spoils
// the output.  q is uniform in [-4, 4), K and V in [-1, 1).
// bench: 32 heads x 128 dims over 32765 tokens in pages of 16 on a GPU
// (1 GiB of cache read per call), the largest check shape on simt.  The
// reference is computed in double from the logical order of the tokens.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers.  q and out hold
// heads * head_dim floats; k_cache and v_cache hold num_pages * page_size *
// heads * head_dim floats laid out [page][slot][head][dim]; block_table
// holds ceil(seq_len / page_size) physical page numbers.
void solve(const float* q, const float* k_cache, const float* v_cache,
           const int* block_table, float* out, int heads, int head_dim,
           int seq_len, int page_size);

struct Shape {
    int heads, d, seq, page;
};

// Indexed by the sizes the Lab hands out: 0..4 are checked, 5 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 32, 1, 16},    {2, 64, 17, 16},  {4, 128, 100, 16},
    {1, 64, 517, 16},  {3, 128, 250, 32}, {32, 128, 32765, 16},
};

static const int kSparePages = 3;

// A random permutation of 0 .. n-1 (Fisher-Yates).
static std::vector<int> permutation(lab::Rng& rng, int n)
{
    std::vector<int> p((size_t)n);
    for (int i = 0; i < n; i++)
        p[i] = i;
    for (int i = n - 1; i > 0; i--)
        std::swap(p[i], p[(size_t)(rng.next() % (uint64_t)(i + 1))]);
    return p;
}

// The paged cache of one tensor (K or V): logical token t of head h lives
// in page table[t / page], slot t % page.  `logical` is [t][head][dim].
static std::vector<float> page_out(const std::vector<float>& logical,
                                   const std::vector<int>& table, int pages,
                                   const Shape& s)
{
    size_t row = (size_t)s.heads * s.d;
    std::vector<float> cache((size_t)pages * s.page * row,
                             std::numeric_limits<float>::quiet_NaN());
    for (int t = 0; t < s.seq; t++) {
        size_t slot = (size_t)table[t / s.page] * s.page + t % s.page;
        std::copy(&logical[(size_t)t * row], &logical[(size_t)t * row] + row,
                  &cache[slot * row]);
    }
    return cache;
}

// out for one head, in double, over the tokens in logical order.
static void reference_head(const std::vector<float>& q, const std::vector<float>& k,
                           const std::vector<float>& v, float* out, int h,
                           const Shape& s)
{
    std::vector<double> score((size_t)s.seq);
    double top = -INFINITY;
    for (int t = 0; t < s.seq; t++) {
        const float* kr = &k[((size_t)t * s.heads + h) * s.d];
        double dot = 0.0;
        for (int c = 0; c < s.d; c++)
            dot += (double)q[(size_t)h * s.d + c] * (double)kr[c];
        score[t] = dot / std::sqrt((double)s.d);
        top = std::max(top, score[t]);
    }
    std::vector<double> acc((size_t)s.d, 0.0);
    double sum = 0.0;
    for (int t = 0; t < s.seq; t++) {
        double p = std::exp(score[t] - top);
        sum += p;
        const float* vr = &v[((size_t)t * s.heads + h) * s.d];
        for (int c = 0; c < s.d; c++)
            acc[c] += p * (double)vr[c];
    }
    for (int c = 0; c < s.d; c++)
        out[c] = (float)(acc[c] / sum);
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("heads=%d head_dim=%d seq_len=%d page_size=%d",
                            s.heads, s.d, s.seq, s.page),
                   seed);
    lab::Rng rng(seed);
    int logical_pages = (s.seq + s.page - 1) / s.page;
    int pages = logical_pages + kSparePages;
    std::vector<int> table = permutation(rng, pages);
    table.resize((size_t)logical_pages);

    size_t tokens = (size_t)s.seq * s.heads * s.d;
    std::vector<float> q = rng.uniform<float>((size_t)s.heads * s.d, -4.0, 4.0);
    std::vector<float> k = rng.uniform<float>(tokens, -1.0, 1.0);
    std::vector<float> v = rng.uniform<float>(tokens, -1.0, 1.0);
    std::vector<float> want((size_t)s.heads * s.d);
    for (int h = 0; h < s.heads; h++)
        reference_head(q, k, v, &want[(size_t)h * s.d], h, s);

    lab::DeviceArray<float> dq = lab::to_device(q);
    lab::DeviceArray<float> dk = lab::to_device(page_out(k, table, pages, s));
    lab::DeviceArray<float> dv = lab::to_device(page_out(v, table, pages, s));
    lab::DeviceArray<int> dtable = lab::to_device(table);
    lab::DeviceArray<float> dout = lab::output<float>((size_t)s.heads * s.d);
    lab.call([&] { solve(dq, dk, dv, dtable, dout, s.heads, s.d, s.seq, s.page); });
    // fp32 dot products of 128 terms and sums over a few hundred weights:
    // errors of order 1e-6 on outputs of order 0.1.
    lab.expect(dout, want, lab::Tol{2e-5, 1e-4});
    // The cache dominates: K and V read once, 8 bytes per token, head and
    // dim (plus q, out and the table, negligible).  Two multiply-adds per
    // token, head and dim.
    lab.time([&] { solve(dq, dk, dv, dtable, dout, s.heads, s.d, s.seq, s.page); },
             lab::Work{8.0 * (double)tokens + 8.0 * s.heads * s.d + 4.0 * logical_pages,
                       4.0 * (double)tokens, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("kv-cache-decode", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
