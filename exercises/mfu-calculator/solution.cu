// mfu-calculator, reference answer.
//
// Everything is counted in double: the products involved (d_model * d_ff *
// n_layers is already past 2^31 for a 7B model) overflow an int, and every
// count here is an integer below 2^53, so double holds it exactly.

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

// Parameters of one transformer layer: the four attention projections,
// the feed-forward matrices and the two norm weight vectors.
static double layer_params(const ModelConfig* c)
{
    double d = c->d_model;
    double q_width = (double)c->n_heads * c->head_dim;   // W_q, W_o
    double kv_width = (double)c->n_kv_heads * c->head_dim; // W_k, W_v each
    double attention = 2.0 * d * q_width + 2.0 * d * kv_width;
    double ffn = (c->gated_ffn ? 3.0 : 2.0) * d * c->d_ff;
    return attention + ffn + 2.0 * d;
}

// N: every parameter except the token embedding table.  The output
// projection is a matrix multiply and counts; so does the final norm.
static double non_embedding_params(const ModelConfig* c)
{
    double d = c->d_model;
    return c->n_layers * layer_params(c) + d + (double)c->vocab * d;
}

double flops_per_token(const ModelConfig* cfg)
{
    double attention = 12.0 * cfg->n_layers * cfg->n_heads * cfg->head_dim *
                       (double)cfg->seq_len;
    return 6.0 * non_embedding_params(cfg) + attention;
}

double mfu(const ModelConfig* cfg, double tokens_per_second, double peak_flops)
{
    return tokens_per_second * flops_per_token(cfg) / peak_flops;
}
