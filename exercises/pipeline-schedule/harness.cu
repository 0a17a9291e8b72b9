// Harness for pipeline-schedule: a model of P stages on P devices (stage s
// on device s, one tanh layer each, out = tanh(in W_s)), trained on a batch
// of M micro-batches with the loss 0.5 |out|^2 of the last stage.  The
// learner writes two schedules, GPipe and 1F1B, as calls of four
// operations the harness provides:
//
//     pipe_forward(s, m)          stage s's forward of micro-batch m
//     pipe_send_activation(s, m)  its output to stage s+1 (a peer copy)
//     pipe_backward(s, m)         stage s's backward of m (adds to dW_s)
//     pipe_send_gradient(s, m)    the gradient of its input to stage s-1
//
// An operation whose inputs are not there yet (a forward before the
// activation was sent, a backward before the gradient arrived), done
// twice or out of range is refused: it returns -1, does nothing, and the
// case fails with the reason on stderr.
//
// Checks per schedule: the last stage's outputs and every stage's weight
// gradient dW_s (summed over the micro-batches) against a host run of the
// unsplit model in double (atol 1e-4, rtol 1e-4: float products of length
// D, summed over micro-batches in the schedule's order); the schedule's
// shape: GPipe runs every forward of a stage before its first backward,
// 1F1B never keeps more than min(M, P - s) activations on stage s (so
// stage 0 keeps P where GPipe keeps M); and the pipeline bubble of each,
// measured on the cost model below, is the ideal (P - 1) / (M + P - 1).
//
// The cost model (modelled time, not measured): a forward takes 1 unit and
// a backward 2 (it does two products to the forward's one), on the stage's
// device, one operation at a time in the order the schedule issued them on
// that stage; an operation starts when its stage is free and its input has
// arrived.  Transfers are counted as free: between neighbouring stages on
// NVLink an activation is small next to a stage's compute (their bytes and
// NVLink time are reported).  bubble = 1 - busy / (P * makespan), busy
// being the sum of all operations' times.
//
// check: (P, M, b, D) = (4, 8, 2, 16), (4, 2, 3, 8), (3, 7, 2, 12),
// (4, 12, 1, 32); three seeds each.
#include <cudalab/lab.h>

int pipe_forward(int stage, int mb);
int pipe_backward(int stage, int mb);
int pipe_send_activation(int stage, int mb);
int pipe_send_gradient(int stage, int mb);

// The learner's entry points (kernel.cu).
void gpipe(int stages, int micro_batches);
void one_f_one_b(int stages, int micro_batches);

struct Shape {
    int stages, mbs, b, d;
};

static const Shape kShapes[] = {{4, 8, 2, 16}, {4, 2, 3, 8}, {3, 7, 2, 12}, {4, 12, 1, 32}};
static const int kMaxStages = 4;
static const double kForward = 1.0, kBackward = 2.0;

// out (b x D) = tanh(in (b x D) W (D x D)).
__global__ void stage_forward(float* out, const float* in, const float* w, int b, int D)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (i >= b || j >= D)
        return;
    float z = 0.0f;
    for (int k = 0; k < D; k++)
        z += in[i * D + k] * w[k * D + j];
    out[i * D + j] = tanhf(z);
}

// gpre = gout * (1 - out^2), the gradient before tanh.
__global__ void stage_grad_pre(float* gpre, const float* gout, const float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        gpre[i] = gout[i] * (1.0f - out[i] * out[i]);
}

// gin (b x D) = gpre (b x D) W^T.
__global__ void stage_grad_in(float* gin, const float* gpre, const float* w, int b, int D)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (i >= b || k >= D)
        return;
    float g = 0.0f;
    for (int j = 0; j < D; j++)
        g += gpre[i * D + j] * w[k * D + j];
    gin[i * D + k] = g;
}

// dW (D x D) += in^T gpre.
__global__ void stage_grad_w(float* dw, const float* in, const float* gpre, int b, int D)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, k = blockIdx.y;
    if (k >= D || j >= D)
        return;
    float g = 0.0f;
    for (int i = 0; i < b; i++)
        g += in[i * D + k] * gpre[i * D + j];
    dw[k * D + j] += g;
}

// The state of one schedule's run.
struct Pipe {
    lab::Lab* lab = nullptr;
    int P = 0, M = 0, b = 0, D = 0;
    const char* schedule = "";
    // Per stage: weights, weight gradient, scratch; per (stage, mb): input,
    // output, gradient of the output, gradient of the input.
    std::vector<lab::DeviceArray<float>> w, dw, gpre;
    std::vector<lab::DeviceArray<float>> in, out, gout, gin;
    // What has happened, per (stage, mb).
    std::vector<char> fwd, bwd, act_sent, grad_sent;
    std::vector<double> fwd_end, bwd_end; // modelled times
    std::vector<double> clock;            // per stage: when it is free
    std::vector<double> busy;
    std::vector<int> stored, peak;        // activations held, per stage
    // Order of operations per stage, for the GPipe shape check.
    std::vector<std::vector<int>> order;  // +m+1 forward, -(m+1) backward
    long long refused = 0, transfer_bytes = 0;

    int idx(int s, int m) const { return s * M + m; }
    float* at(std::vector<lab::DeviceArray<float>>& v, int s, int m) { return v[idx(s, m)]; }
};

static Pipe g_pipe;

// Counts and reports a refused operation (the first few); returns -1.
static int refuse(const char* op, int s, int m, const char* why)
{
    Pipe& p = g_pipe;
    if (p.refused++ < 5)
        fprintf(stderr, "pipeline-schedule: %s: %s(%d, %d) refused: %s\n", p.schedule, op, s, m,
                why);
    return -1;
}

static bool valid(const char* op, int s, int m)
{
    Pipe& p = g_pipe;
    if (!p.lab) {
        fprintf(stderr, "pipeline-schedule: %s(%d, %d) called outside gpipe() and "
                        "one_f_one_b(): ignored\n", op, s, m);
        return false;
    }
    if (s < 0 || s >= p.P)
        return refuse(op, s, m, lab::fmt("stage must be 0 .. %d", p.P - 1).c_str()) == 0;
    if (m < 0 || m >= p.M)
        return refuse(op, s, m, lab::fmt("micro-batch must be 0 .. %d", p.M - 1).c_str()) == 0;
    return true;
}

static void launch_check(const char* what)
{
    g_pipe.lab->cuda(cudaGetLastError(), what);
}

int pipe_forward(int s, int m)
{
    Pipe& p = g_pipe;
    if (!valid("pipe_forward", s, m))
        return -1;
    int k = p.idx(s, m);
    if (p.fwd[k])
        return refuse("pipe_forward", s, m, "already done");
    if (s > 0 && !p.act_sent[p.idx(s - 1, m)])
        return refuse("pipe_forward", s, m,
                      "its input has not arrived (pipe_send_activation of the stage before)");
    {
        lab::DeviceScope on(s);
        stage_forward<<<dim3((p.D + 63) / 64, p.b), 64>>>(p.at(p.out, s, m), p.at(p.in, s, m),
                                                          p.w[s], p.b, p.D);
        launch_check("launching a stage's forward");
    }
    p.fwd[k] = 1;
    double ready = s > 0 ? p.fwd_end[p.idx(s - 1, m)] : 0.0;
    double start = std::max(p.clock[s], ready);
    p.fwd_end[k] = p.clock[s] = start + kForward;
    p.busy[s] += kForward;
    p.peak[s] = std::max(p.peak[s], ++p.stored[s]);
    p.order[s].push_back(m + 1);
    return 0;
}

int pipe_send_activation(int s, int m)
{
    Pipe& p = g_pipe;
    if (!valid("pipe_send_activation", s, m))
        return -1;
    if (s == p.P - 1)
        return refuse("pipe_send_activation", s, m, "the last stage has no next stage");
    if (!p.fwd[p.idx(s, m)])
        return refuse("pipe_send_activation", s, m, "its forward has not run");
    if (p.act_sent[p.idx(s, m)])
        return refuse("pipe_send_activation", s, m, "already sent");
    size_t bytes = (size_t)p.b * p.D * sizeof(float);
    // cudaMemcpyPeer is ordered after the work queued on both devices'
    // default streams, where the stages' kernels run.
    p.lab->cuda(cudaMemcpyPeer(p.at(p.in, s + 1, m), s + 1, p.at(p.out, s, m), s, bytes),
                "copying an activation to the next stage");
    p.act_sent[p.idx(s, m)] = 1;
    p.transfer_bytes += (long long)bytes;
    return 0;
}

int pipe_backward(int s, int m)
{
    Pipe& p = g_pipe;
    if (!valid("pipe_backward", s, m))
        return -1;
    int k = p.idx(s, m);
    if (!p.fwd[k])
        return refuse("pipe_backward", s, m, "its forward has not run");
    if (p.bwd[k])
        return refuse("pipe_backward", s, m, "already done");
    if (s < p.P - 1 && !p.grad_sent[p.idx(s + 1, m)])
        return refuse("pipe_backward", s, m,
                      "its gradient has not arrived (pipe_send_gradient of the stage after)");
    {
        lab::DeviceScope on(s);
        int n = p.b * p.D;
        // The last stage's loss 0.5 |out|^2 has gradient out.
        const float* gout = s == p.P - 1 ? p.at(p.out, s, m) : p.at(p.gout, s, m);
        stage_grad_pre<<<(n + 63) / 64, 64>>>(p.gpre[s], gout, p.at(p.out, s, m), n);
        stage_grad_in<<<dim3((p.D + 63) / 64, p.b), 64>>>(p.at(p.gin, s, m), p.gpre[s],
                                                          p.w[s], p.b, p.D);
        stage_grad_w<<<dim3((p.D + 63) / 64, p.D), 64>>>(p.dw[s], p.at(p.in, s, m),
                                                         p.gpre[s], p.b, p.D);
        launch_check("launching a stage's backward");
    }
    p.bwd[k] = 1;
    double ready = s < p.P - 1 ? p.bwd_end[p.idx(s + 1, m)] : p.fwd_end[k];
    double start = std::max(p.clock[s], ready);
    p.bwd_end[k] = p.clock[s] = start + kBackward;
    p.busy[s] += kBackward;
    p.stored[s]--;
    p.order[s].push_back(-(m + 1));
    return 0;
}

int pipe_send_gradient(int s, int m)
{
    Pipe& p = g_pipe;
    if (!valid("pipe_send_gradient", s, m))
        return -1;
    if (s == 0)
        return refuse("pipe_send_gradient", s, m, "the first stage has no stage before");
    if (!p.bwd[p.idx(s, m)])
        return refuse("pipe_send_gradient", s, m, "its backward has not run");
    if (p.grad_sent[p.idx(s, m)])
        return refuse("pipe_send_gradient", s, m, "already sent");
    size_t bytes = (size_t)p.b * p.D * sizeof(float);
    p.lab->cuda(cudaMemcpyPeer(p.at(p.gout, s - 1, m), s - 1, p.at(p.gin, s, m), s, bytes),
                "copying a gradient to the previous stage");
    p.grad_sent[p.idx(s, m)] = 1;
    p.transfer_bytes += (long long)bytes;
    return 0;
}

// The unsplit model on the host, in double: outputs of the last stage per
// micro-batch and dW per stage.
static void reference(const Shape& sh, const std::vector<std::vector<float>>& W,
                      const std::vector<std::vector<float>>& X,
                      std::vector<std::vector<float>>& out_last,
                      std::vector<std::vector<float>>& dW)
{
    const int P = sh.stages, M = sh.mbs, b = sh.b, D = sh.d;
    std::vector<std::vector<double>> acc(P, std::vector<double>((size_t)D * D, 0.0));
    out_last.assign(M, std::vector<float>((size_t)b * D));
    for (int m = 0; m < M; m++) {
        std::vector<std::vector<double>> h(P + 1, std::vector<double>((size_t)b * D));
        for (int i = 0; i < b * D; i++)
            h[0][i] = X[m][i];
        for (int s = 0; s < P; s++)
            for (int i = 0; i < b; i++)
                for (int j = 0; j < D; j++) {
                    double z = 0;
                    for (int k = 0; k < D; k++)
                        z += h[s][i * D + k] * W[s][k * D + j];
                    h[s + 1][i * D + j] = std::tanh(z);
                }
        for (int i = 0; i < b * D; i++)
            out_last[m][i] = (float)h[P][i];
        std::vector<double> g = h[P]; // d(0.5 |out|^2) / d out
        for (int s = P - 1; s >= 0; s--) {
            std::vector<double> pre((size_t)b * D), gin((size_t)b * D, 0.0);
            for (int i = 0; i < b * D; i++)
                pre[i] = g[i] * (1.0 - h[s + 1][i] * h[s + 1][i]);
            for (int i = 0; i < b; i++)
                for (int k = 0; k < D; k++)
                    for (int j = 0; j < D; j++) {
                        gin[i * D + k] += pre[i * D + j] * W[s][k * D + j];
                        acc[s][k * D + j] += h[s][i * D + k] * pre[i * D + j];
                    }
            g = gin;
        }
    }
    dW.assign(P, std::vector<float>((size_t)D * D));
    for (int s = 0; s < P; s++)
        for (int i = 0; i < D * D; i++)
            dW[s][i] = (float)acc[s][i];
}

static void setup(lab::Lab& lab, const Shape& sh, const char* name,
                  const std::vector<std::vector<float>>& W,
                  const std::vector<std::vector<float>>& X)
{
    Pipe& p = g_pipe;
    p = Pipe();
    p.lab = &lab;
    p.P = sh.stages;
    p.M = sh.mbs;
    p.b = sh.b;
    p.D = sh.d;
    p.schedule = name;
    const size_t act = (size_t)p.b * p.D;
    for (int s = 0; s < p.P; s++) {
        p.w.push_back(lab::to_device_on(s, W[s]));
        p.dw.push_back(lab::inout_on(s, std::vector<float>((size_t)p.D * p.D, 0.0f)));
        p.gpre.push_back(lab::DeviceArray<float>(act, 0, nullptr, s));
        for (int m = 0; m < p.M; m++) {
            if (s == 0)
                p.in.push_back(lab::to_device_on(s, X[m]));
            else
                p.in.push_back(lab::DeviceArray<float>(act, 0, nullptr, s));
            p.out.push_back(s == p.P - 1 ? lab::output_on<float>(s, act)
                                         : lab::DeviceArray<float>(act, 0, nullptr, s));
            p.gout.push_back(lab::DeviceArray<float>(act, 0, nullptr, s));
            p.gin.push_back(lab::DeviceArray<float>(act, 0, nullptr, s));
        }
    }
    size_t n = (size_t)p.P * p.M;
    p.fwd.assign(n, 0);
    p.bwd.assign(n, 0);
    p.act_sent.assign(n, 0);
    p.grad_sent.assign(n, 0);
    p.fwd_end.assign(n, 0.0);
    p.bwd_end.assign(n, 0.0);
    p.clock.assign(p.P, 0.0);
    p.busy.assign(p.P, 0.0);
    p.stored.assign(p.P, 0);
    p.peak.assign(p.P, 0);
    p.order.assign(p.P, std::vector<int>());
}

// Checks one schedule's run; returns its measured bubble (or -1).
static double check_run(lab::Lab& lab, const Shape& sh, bool is_gpipe,
                        const std::vector<std::vector<float>>& want_out,
                        const std::vector<std::vector<float>>& want_dw, uint64_t seed)
{
    Pipe& p = g_pipe;
    const int P = p.P, M = p.M;
    const char* name = p.schedule;
    // Everything ran, nothing was refused.
    long long missing = 0;
    for (size_t k = 0; k < p.fwd.size(); k++)
        missing += !p.fwd[k] + !p.bwd[k];
    if (missing)
        fprintf(stderr, "pipeline-schedule: %s: %lld of the %d forwards and backwards never "
                        "ran\n", name, missing, 2 * P * M);
    if (!lab.expect_host(std::vector<long long>{p.refused, missing},
                         std::vector<long long>{0, 0}, lab::Tol{0, 0},
                         lab::fmt("%s: [operations refused, forwards and backwards never "
                                  "run] must be [0, 0]; stderr names them", name)))
        return -1;
    bool ok = true;
    for (int m = 0; m < M && ok; m++)
        if (!(ok = lab.expect(p.out[p.idx(P - 1, m)], want_out[m], lab::Tol{1e-5, 1e-4})))
            fprintf(stderr, "pipeline-schedule: %s: the output of micro-batch %d is wrong\n",
                    name, m);
    for (int s = 0; s < P && ok; s++)
        if (!(ok = lab.expect(p.dw[s], want_dw[s], lab::Tol{1e-4, 1e-4})))
            fprintf(stderr, "pipeline-schedule: %s: stage %d's weight gradient is wrong\n",
                    name, s);
    if (!ok)
        return -1;
    // The schedule's shape.
    std::vector<int> shape_bad(P, 0), shape_want(P, 0);
    for (int s = 0; s < P; s++) {
        if (is_gpipe) {
            bool seen_b = false;
            for (int op : p.order[s]) {
                seen_b = seen_b || op < 0;
                if (op > 0 && seen_b)
                    shape_bad[s] = 1;
            }
            if (shape_bad[s])
                fprintf(stderr, "pipeline-schedule: gpipe: stage %d ran a backward before its "
                                "last forward: not GPipe's shape\n", s);
        } else {
            int bound = std::min(M, P - s);
            shape_bad[s] = p.peak[s] > bound ? p.peak[s] : 0;
            if (shape_bad[s])
                fprintf(stderr, "pipeline-schedule: 1f1b: stage %d held %d activations at "
                                "once; 1F1B holds at most min(M, P - s) = %d\n", s,
                        p.peak[s], bound);
        }
    }
    if (!lab.expect_host(shape_bad, shape_want, lab::Tol{0, 0},
                         is_gpipe ? "gpipe: 1 = that stage ran a backward before its last "
                                    "forward (not GPipe)"
                                  : "1f1b: non-zero = that stage's peak of stored activations, "
                                    "above 1F1B's min(M, P - s)"))
        return -1;
    double makespan = 0, busy = 0;
    for (int s = 0; s < P; s++) {
        makespan = std::max(makespan, p.clock[s]);
        busy += p.busy[s];
    }
    double bubble = 1.0 - busy / (P * makespan);
    double ideal = (double)(P - 1) / (M + P - 1);
    int peak = *std::max_element(p.peak.begin(), p.peak.end());
    if (seed == lab.seed()) // once per shape, on stdout: shown after a pass too
        printf(
            "pipeline-schedule: %s, seed %llu: stages=%d micro-batches=%d: modelled makespan "
            "%.0f units (forward 1, backward 2), bubble %.1f %% (ideal (P-1)/(M+P-1) = "
            "%.1f %%), peak stored activations %d (stage 0: %d); %lld bytes moved between "
            "stages, %.3f us on NVLink 4 at 450 GB/s, not counted\n",
            name, (unsigned long long)seed, P, M, makespan, 100 * bubble, 100 * ideal, peak,
            p.peak[0], p.transfer_bytes, p.transfer_bytes / 450e3);
    if (!lab.expect_host(std::vector<double>{bubble}, std::vector<double>{ideal},
                         lab::Tol{1e-9, 0},
                         lab::fmt("%s: the modelled pipeline bubble, against the ideal "
                                  "(P-1)/(M+P-1)", name)))
        fprintf(stderr, "pipeline-schedule: %s: the bubble is %.1f %%, more than the "
                        "schedule's %.1f %%: some stage waits longer than it has to (look at "
                        "the order of its operations)\n", name, 100 * bubble, 100 * ideal);
    return bubble;
}

static void run_case(lab::Lab& lab, const Shape& sh, uint64_t seed)
{
    const int P = sh.stages, M = sh.mbs, b = sh.b, D = sh.d;
    lab.begin_case(lab::fmt("stages=%d micro-batches=%d b=%d D=%d", P, M, b, D), seed);
    lab::Rng rng(seed);
    std::vector<std::vector<float>> W(P), X(M);
    for (int s = 0; s < P; s++) {
        // Scaled so that tanh stays mostly out of saturation.
        W[s] = rng.uniform<float>((size_t)D * D, -1.0, 1.0);
        for (float& v : W[s])
            v *= (float)(1.5 / std::sqrt((double)D));
    }
    for (int m = 0; m < M; m++)
        X[m] = rng.uniform<float>((size_t)b * D, -1.0, 1.0);
    // The reference, where it is compared (not in a judge's worker, which
    // passes lab.expect empty ones).
    std::vector<std::vector<float>> want_out(M), want_dw(P);
    if (lab.reference())
        reference(sh, W, X, want_out, want_dw);

    setup(lab, sh, "gpipe", W, X);
    lab.call([&] { gpipe(P, M); });
    double gb = check_run(lab, sh, true, want_out, want_dw, seed);
    int gpipe_peak = g_pipe.peak[0];

    setup(lab, sh, "1f1b", W, X);
    lab.call([&] { one_f_one_b(P, M); });
    double fb = check_run(lab, sh, false, want_out, want_dw, seed);
    int fb_peak = g_pipe.peak[0];
    g_pipe = Pipe();
    if (gb < 0 || fb < 0)
        return;
    // The point of 1F1B: with more micro-batches than stages, stage 0 holds
    // P activations instead of M.
    if (M > P && !lab.expect_host(std::vector<int>{fb_peak < gpipe_peak},
                                  std::vector<int>{1}, lab::Tol{0, 0},
                                  "1 = 1F1B's peak of stored activations on stage 0 is "
                                  "below GPipe's"))
        fprintf(stderr, "pipeline-schedule: 1F1B's peak of %d stored activations is not "
                        "below GPipe's %d\n", fb_peak, gpipe_peak);
}

int main(int argc, char** argv)
{
    lab::Lab lab("pipeline-schedule", argc, argv);
    lab.devices(kMaxStages);
    for (long long i : lab.sizes({0, 1, 2, 3}, 0))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
