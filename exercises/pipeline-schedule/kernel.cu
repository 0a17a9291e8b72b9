// pipeline-schedule: write two schedules for a model of `stages` stages
// (stage s on device s) and a batch of `micro_batches` micro-batches, as
// calls of the four operations the harness provides:
//
//   pipe_forward(s, m)          forward of micro-batch m on stage s; for
//                               s > 0 its input must have been sent
//   pipe_send_activation(s, m)  stage s's output of m to stage s + 1
//   pipe_backward(s, m)         backward of m on stage s; for s < stages-1
//                               the gradient must have been sent
//   pipe_send_gradient(s, m)    stage s's input gradient of m to stage s - 1
//
// Each returns 0, or -1 when refused (its input is not there yet, it was
// done already, or an index is out of range; stderr says which).  Every
// forward and every backward must run exactly once.  Each stage runs its
// operations in the order you issue them for it.
//
//   gpipe:       every stage runs all its forwards, then all its backwards.
//   one_f_one_b: stage s runs min(M, stages - 1 - s) forwards, then
//                alternates one forward and one backward, then the
//                remaining backwards; it never holds more than
//                min(M, stages - s) micro-batches' activations.
//
// The starter runs one micro-batch at a time through the whole pipeline,
// forward and back, for both: correct gradients, but a stage runs a
// backward before its next forward (not GPipe) and the pipeline idles 75 %
// of the time.
int pipe_forward(int stage, int mb);
int pipe_backward(int stage, int mb);
int pipe_send_activation(int stage, int mb);
int pipe_send_gradient(int stage, int mb);

static void one_at_a_time(int stages, int micro_batches)
{
    for (int m = 0; m < micro_batches; m++) {
        for (int s = 0; s < stages; s++) {
            pipe_forward(s, m);
            if (s + 1 < stages)
                pipe_send_activation(s, m);
        }
        for (int s = stages - 1; s >= 0; s--) {
            pipe_backward(s, m);
            if (s > 0)
                pipe_send_gradient(s, m);
        }
    }
}

// TODO: every forward of every micro-batch first, then the backwards.
void gpipe(int stages, int micro_batches)
{
    one_at_a_time(stages, micro_batches);
}

// TODO: each stage's own order (warm-up forwards, one forward / one
// backward, cool-down backwards), issued as soon as its input is there.
void one_f_one_b(int stages, int micro_batches)
{
    one_at_a_time(stages, micro_batches);
}
