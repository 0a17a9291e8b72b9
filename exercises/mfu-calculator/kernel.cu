// mfu-calculator: training FLOPs per token (6 N + 12 L H Q T) and model
// FLOPs utilisation.  Host code only: there is no kernel in this exercise.
//
// Both functions return 0 for now, so the check fails.  See exercise.md
// for exactly which parameters N counts.

// The harness defines the same struct; keep the two identical.
struct ModelConfig {
    int n_layers;   // L
    int d_model;    // width of the residual stream
    int n_heads;    // H, query heads
    int n_kv_heads; // key/value heads (n_heads unless grouped-query attention)
    int head_dim;   // Q, dimension of each head
    int d_ff;       // hidden width of the feed-forward block
    int gated_ffn;  // 1: gated (SwiGLU), three d_model x d_ff matrices; 0: two
    int vocab;      // vocabulary size
    int seq_len;    // T, training sequence length
};

// Training FLOPs per token: 6 N + 12 L H Q T, N the parameters outside the
// token embedding table.
double flops_per_token(const ModelConfig* cfg)
{
    // TODO: count N (attention and feed-forward matrices, norm weights, the
    //       output projection), then return 6 N + 12 L H Q T.  Products
    //       such as d_model * d_ff * n_layers overflow an int: compute in
    //       double (or long long).
    (void)cfg;
    return 0.0;
}

// Model FLOPs utilisation, as a fraction: the FLOPs the model needs per
// second at tokens_per_second (per GPU), over that GPU's peak_flops.
double mfu(const ModelConfig* cfg, double tokens_per_second, double peak_flops)
{
    // TODO
    (void)cfg;
    (void)tokens_per_second;
    (void)peak_flops;
    return 0.0;
}
