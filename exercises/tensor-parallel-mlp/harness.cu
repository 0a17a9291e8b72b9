// Harness for tensor-parallel-mlp: Megatron's MLP block, Y = GELU(X A) B,
// over R devices.  X (t x d) is on every device; rank r holds A's columns
// [r h/R, (r+1) h/R) (a d x h/R matrix) and the same rows of B (an h/R x d
// matrix).  Every rank must end with the whole Y (t x d), compared with a
// host reference of the unsplit MLP computed in double.
//
// GELU is the tanh form: 0.5 z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3))).
// Tolerance: atol 1e-4, rtol 1e-4 (float matmuls of length d and h against
// double; the partial sums reach NCCL's all-reduce in any order).
//
// check: (R, t, d, h) = (2, 3, 8, 16), (4, 5, 32, 64), (4, 16, 64, 256),
// (3, 7, 20, 48); three seeds each.  bench: (4, 512, 1024, 4096) on a GPU (t
// kept small: the host reference costs 2 t d h multiply-adds in double).
#include <cudalab/lab.h>
#include <nccl.h>

// The learner's entry point (kernel.cu).  Per rank r, on device r:
// x[r] t*d, a[r] d*(h/R), b[r] (h/R)*d (all row-major), hid[r] t*(h/R)
// scratch, y[r] t*d output.  streams[r] and comms[r] belong to rank r
// (comms from ncclCommInitAll over devices 0 .. R-1).
void tp_mlp(const float* const* x, const float* const* a, const float* const* b,
            float* const* hid, float* const* y, int ranks, int t, int d, int h,
            const cudaStream_t* streams, const ncclComm_t* comms);

struct Shape {
    int ranks, t, d, h;
};

static const Shape kShapes[] = {
    {2, 3, 8, 16}, {4, 5, 32, 64}, {4, 16, 64, 256}, {3, 7, 20, 48}, {4, 512, 1024, 4096},
};
static const int kMaxRanks = 4;

static double gelu(double z)
{
    const double k = 0.7978845608028654; // sqrt(2 / pi)
    return 0.5 * z * (1.0 + std::tanh(k * (z + 0.044715 * z * z * z)));
}

static void nccl_ok(lab::Lab& lab, ncclResult_t r, const char* what)
{
    if (r != ncclSuccess)
        lab.die(ncclGetErrorString(r), ncclGetLastError(nullptr), what);
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    const int R = s.ranks, t = s.t, d = s.d, h = s.h, hr = h / R;
    lab.begin_case(lab::fmt("ranks=%d t=%d d=%d h=%d", R, t, d, h), seed);
    lab::Rng rng(seed);
    std::vector<float> X = rng.uniform<float>((size_t)t * d, -1.0, 1.0);
    std::vector<float> A = rng.uniform<float>((size_t)d * h, -1.0, 1.0);
    std::vector<float> B = rng.uniform<float>((size_t)h * d, -1.0, 1.0);
    // Scale the weights like a trained layer (variance about 1/fan-in), so
    // GELU sees values of order one.
    for (float& v : A)
        v *= (float)(1.7 / std::sqrt((double)d));
    for (float& v : B)
        v *= (float)(1.7 / std::sqrt((double)h));

    // The unsplit reference, in double.
    std::vector<double> H((size_t)t * h);
    for (int i = 0; i < t; i++)
        for (int j = 0; j < h; j++) {
            double z = 0;
            for (int k = 0; k < d; k++)
                z += (double)X[(size_t)i * d + k] * A[(size_t)k * h + j];
            H[(size_t)i * h + j] = gelu(z);
        }
    std::vector<float> want((size_t)t * d);
    for (int i = 0; i < t; i++)
        for (int j = 0; j < d; j++) {
            double z = 0;
            for (int k = 0; k < h; k++)
                z += H[(size_t)i * h + k] * B[(size_t)k * d + j];
            want[(size_t)i * d + j] = (float)z;
        }

    std::vector<lab::DeviceArray<float>> dx, da, db, dh, dy;
    std::vector<const float*> px(R), pa(R), pb(R);
    std::vector<float*> ph(R), py(R);
    std::vector<cudaStream_t> streams(R);
    for (int r = 0; r < R; r++) {
        // Rank r's shards: columns [r hr, (r+1) hr) of A, the same rows of B.
        std::vector<float> ar((size_t)d * hr), br((size_t)hr * d);
        for (int k = 0; k < d; k++)
            for (int j = 0; j < hr; j++)
                ar[(size_t)k * hr + j] = A[(size_t)k * h + r * hr + j];
        for (int k = 0; k < hr; k++)
            for (int j = 0; j < d; j++)
                br[(size_t)k * d + j] = B[(size_t)(r * hr + k) * d + j];
        dx.push_back(lab::to_device_on(r, X));
        da.push_back(lab::to_device_on(r, ar));
        db.push_back(lab::to_device_on(r, br));
        dh.push_back(lab::output_on<float>(r, (size_t)t * hr));
        dy.push_back(lab::output_on<float>(r, (size_t)t * d));
        px[r] = dx[r];
        pa[r] = da[r];
        pb[r] = db[r];
        ph[r] = dh[r];
        py[r] = dy[r];
        lab::DeviceScope on(r);
        lab.cuda(cudaStreamCreate(&streams[r]), "creating a stream per device");
    }
    std::vector<int> devs(R);
    for (int r = 0; r < R; r++)
        devs[r] = r;
    std::vector<ncclComm_t> comms(R);
    nccl_ok(lab, ncclCommInitAll(comms.data(), R, devs.data()), "ncclCommInitAll");

    auto run = [&] {
        tp_mlp(px.data(), pa.data(), pb.data(), ph.data(), py.data(), R, t, d, h,
               streams.data(), comms.data());
    };
    lab.call(run);
    for (int r = 0; r < R; r++)
        if (!lab.expect(dy[r], want, lab::Tol{1e-4, 1e-4})) {
            fprintf(stderr,
                    "tensor-parallel-mlp: ranks=%d t=%d d=%d h=%d seed %llu: rank %d's Y "
                    "is not the unsplit MLP's\n",
                    R, t, d, h, (unsigned long long)seed, r);
            break;
        }
    // Bytes: every rank reads X and its shards, writes and reads its hidden
    // slice, writes Y; FLOPs: two matmuls of 2 t d h in all.
    double bytes = 4.0 * (2.0 * R * t * d + 2.0 * d * h + 2.0 * t * h);
    lab.time(run, lab::Work{bytes, 4.0 * t * d * h, "fp32"});
    for (int r = 0; r < R; r++) {
        ncclCommDestroy(comms[r]);
        lab::DeviceScope on(r);
        cudaStreamDestroy(streams[r]);
    }
}

int main(int argc, char** argv)
{
    lab::Lab lab("tensor-parallel-mlp", argc, argv);
    lab.devices(kMaxRanks);
    for (long long i : lab.sizes({0, 1, 2, 3}, 4))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
