// pipeline-schedule, a solution.  GPipe is two sweeps.  1F1B is a list of
// operations per stage (warm-up forwards, then forward/backward pairs, then
// cool-down backwards), issued by a loop that, stage by stage, runs the
// next operation of each stage whose input has arrived, until every list is
// done.  Each stage runs its operations in the order issued, so the loop's
// order across stages does not change the schedule, only whether each
// operation's input is there when it is issued.
#include <vector>

int pipe_forward(int stage, int mb);
int pipe_backward(int stage, int mb);
int pipe_send_activation(int stage, int mb);
int pipe_send_gradient(int stage, int mb);

void gpipe(int stages, int micro_batches)
{
    for (int m = 0; m < micro_batches; m++)
        for (int s = 0; s < stages; s++) {
            pipe_forward(s, m);
            if (s + 1 < stages)
                pipe_send_activation(s, m);
        }
    for (int m = 0; m < micro_batches; m++)
        for (int s = stages - 1; s >= 0; s--) {
            pipe_backward(s, m);
            if (s > 0)
                pipe_send_gradient(s, m);
        }
}

struct Op {
    bool forward;
    int mb;
};

void one_f_one_b(int stages, int micro_batches)
{
    const int P = stages, M = micro_batches;
    std::vector<std::vector<Op>> ops(P);
    for (int s = 0; s < P; s++) {
        int warm = P - 1 - s < M ? P - 1 - s : M;
        for (int m = 0; m < warm; m++)
            ops[s].push_back({true, m});
        for (int i = 0; i < M - warm; i++) {
            ops[s].push_back({true, warm + i});
            ops[s].push_back({false, i});
        }
        for (int m = M - warm; m < M; m++)
            ops[s].push_back({false, m});
    }
    // What has arrived where: the activation of m at stage s, the gradient
    // of m at stage s.
    std::vector<std::vector<char>> act(P, std::vector<char>(M, 0));
    std::vector<std::vector<char>> grad(P, std::vector<char>(M, 0));
    std::vector<size_t> next(P, 0);
    for (int m = 0; m < M; m++)
        act[0][m] = 1;
    size_t left = (size_t)2 * P * M;
    while (left > 0) {
        size_t before = left;
        for (int s = 0; s < P; s++) {
            while (next[s] < ops[s].size()) {
                Op op = ops[s][next[s]];
                if (op.forward) {
                    if (!act[s][op.mb])
                        break;
                    pipe_forward(s, op.mb);
                    if (s + 1 < P) {
                        pipe_send_activation(s, op.mb);
                        act[s + 1][op.mb] = 1;
                    }
                } else {
                    if (s + 1 < P && !grad[s][op.mb])
                        break;
                    pipe_backward(s, op.mb);
                    if (s > 0) {
                        pipe_send_gradient(s, op.mb);
                        grad[s - 1][op.mb] = 1;
                    }
                }
                next[s]++;
                left--;
            }
        }
        if (left == before)
            break; // no stage can move: a bug in the lists above
    }
}
