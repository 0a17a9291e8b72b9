// Harness for mfu-calculator: training FLOPs per token by the PaLM /
// torchtitan estimate, 6 N + 12 L H Q T, and the MFU it implies.
//
// Host code only: nothing runs on the device except copying the answers
// through it (lab.expect compares device arrays).  Five model shapes, each
// checked for flops_per_token and mfu; the expected values were worked out
// separately with exact integer arithmetic and are written here as
// literals, with the arithmetic beside them.  Seeds and sizes play no part.
#include <cudalab/lab.h>

// Must stay identical to the definition in kernel.cu.
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

// The learner's entry points (kernel.cu).
double flops_per_token(const ModelConfig* cfg);
double mfu(const ModelConfig* cfg, double tokens_per_second, double peak_flops);

struct Case {
    const char* name;
    ModelConfig cfg;
    double tokens_per_second, peak_flops;
    double want_flops; // exact integers, all below 2^53
    double want_mfu;
};

// N = L * (attention + ffn + 2 d_model) + d_model + vocab * d_model,
// attention = d_model*H*Q (W_q) + 2*d_model*Hkv*Q (W_k, W_v) + H*Q*d_model (W_o).
static const Case kCases[] = {
    // Llama-2-7B: attention 4 * 4096*4096 = 67,108,864; ffn 3 * 4096*11008
    // = 135,266,304; layer 202,383,360; N = 32 * 202,383,360 + 4096 +
    // 32000*4096 = 6,607,343,616 (the published 6,738,415,616 minus the
    // 131,072,000 of the embedding table).  6N = 39,644,061,696; attention
    // FLOPs 12*32*32*128*4096 = 6,442,450,944; total 46,086,512,640.
    // MFU at 3000 tokens/s on 989e12 FLOP/s: 1.3825953792e14 / 989e12.
    {"llama2-7b",
     {32, 4096, 32, 32, 128, 11008, 1, 32000, 4096},
     3000.0, 989e12, 46086512640.0, 0.13979730831142567},
    // Llama-3-8B (grouped-query attention, 8 KV heads): attention
    // 4096*4096*2 + 2*4096*1024 = 41,943,040; ffn 3*4096*14336 =
    // 176,160,768; layer 218,112,000; N = 32 * 218,112,000 + 4096 +
    // 128256*4096 = 7,504,924,672 (published 8,030,261,248 minus the
    // 525,336,576 of the embedding).  6N = 45,029,548,032; attention FLOPs
    // 12*32*32*128*8192 = 12,884,901,888; total 57,914,449,920.  MFU at
    // 2500 tokens/s on 989e12: 1.447861248e14 / 989e12.
    {"llama3-8b",
     {32, 4096, 32, 8, 128, 14336, 1, 128256, 8192},
     2500.0, 989e12, 57914449920.0, 0.14639648614762385},
    // GPT-style, plain two-matrix MLP: attention 4*768*768 = 2,359,296;
    // ffn 2*768*3072 = 4,718,592; layer 7,079,424; N = 12 * 7,079,424 + 768
    // + 50257*768 = 123,551,232.  6N = 741,307,392; attention FLOPs
    // 12*12*12*64*1024 = 113,246,208; total 854,553,600.  MFU at 180,000
    // tokens/s on 312e12: 1.538196480e14 / 312e12.
    {"gpt-small-plain-mlp",
     {12, 768, 12, 12, 64, 3072, 0, 50257, 1024},
     180000.0, 312e12, 854553600.0, 0.49301169230769232},
    // Heads wider than the model (H*Q = 4096, d_model = 3072): attention
    // 3072*4096*4 = 50,331,648; ffn 3*3072*24576 = 226,492,416; layer
    // 276,830,208; N = 28 * 276,830,208 + 3072 + 256000*3072 =
    // 8,537,680,896.  6N = 51,226,085,376; attention FLOPs
    // 12*28*16*256*8192 = 11,274,289,152; total 62,500,374,528.  MFU at
    // 1500 tokens/s on 989e12: 9.3750561792e13 / 989e12.
    {"wide-heads",
     {28, 3072, 16, 16, 256, 24576, 1, 256000, 8192},
     1500.0, 989e12, 62500374528.0, 0.094793287959555106},
    // Small enough to do by hand: attention 8*8 + 2*8*4 + 8*8 = 192; ffn
    // 2*8*16 = 256; norms 16; layer 464; N = 464 + 8 + 10*8 = 552.
    // 6N = 3312; attention FLOPs 12*1*2*4*1 = 96; total 3408.  MFU at
    // 100,000 tokens/s on 1e9: 3.408e8 / 1e9 = 0.3408.
    {"tiny",
     {1, 8, 2, 1, 4, 16, 0, 10, 1},
     100000.0, 1e9, 3408.0, 0.34079999999999999},
};

// Checks one number as a case of its own.
static void expect_value(lab::Lab& lab, const std::string& name, double got,
                         double want)
{
    lab.begin_case(name, lab.seed());
    // Both are a handful of double operations on exact integers: 1e-12
    // relative allows a different order of the final multiply and divide.
    lab.expect_host(std::vector<double>{got}, std::vector<double>{want}, lab::Tol{0, 1e-12});
}

static void run_case(lab::Lab& lab, const Case& c)
{
    double flops = 0.0, util = 0.0;
    lab.begin_case(c.name, lab.seed());
    lab.call([&] {
        flops = flops_per_token(&c.cfg);
        util = mfu(&c.cfg, c.tokens_per_second, c.peak_flops);
    });
    expect_value(lab, lab::fmt("%s flops_per_token", c.name), flops, c.want_flops);
    expect_value(lab, lab::fmt("%s mfu", c.name), util, c.want_mfu);
}

int main(int argc, char** argv)
{
    lab::Lab lab("mfu-calculator", argc, argv);
    for (const Case& c : kCases)
        run_case(lab, c);
    return lab.finish();
}
