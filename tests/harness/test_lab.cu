// Host-only tests of include/cudalab/lab.h: everything the harness decides
// without a device (inputs, comparison, canary and guard, timing statistics
// and the stop rule, the datasheet table, arguments, the JSON and where it
// goes).  Expected values are worked out by hand or taken from published
// figures, never from the code under test.  The result JSON is read back
// with cJSON, a parser independent of the writer.
//
//     test_lab                 run the tests; last line "harness: N passed, M failed"
//     test_lab --status FILE   print the "status" of the result JSON in FILE
//                              (exit 3 when FILE is not a schema-1 result)
#include <cudalab/lab.h>

#include <cjson/cJSON.h>

#include <fcntl.h>
#include <sys/types.h>
#include <sys/wait.h>

static int passed, failed;

#define CHECK(cond)                                                         \
    do {                                                                    \
        if (cond) {                                                         \
            passed++;                                                       \
        } else {                                                            \
            failed++;                                                       \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                   \
    } while (0)

static float bits_float(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static __half half_of_bits(uint16_t b)
{
    __half h;
    memcpy((void*)&h, &b, sizeof h);
    return h;
}

// ---------------------------------------------------------------- inputs

static void test_rng(void)
{
    // Published splitmix64 outputs for seeds 0 and 1234567.
    lab::Rng r0(0);
    CHECK(r0.next() == 0xe220a8397b1dcdafull);
    CHECK(r0.next() == 0x6e789e6aa1b965f4ull);
    lab::Rng r1(1234567);
    CHECK(r1.next() == 6457827717110365317ull);
    CHECK(r1.next() == 3203168211198807973ull);
    CHECK(r1.next() == 9817491932198370423ull);

    lab::Rng a(42), b(42), c(43);
    std::vector<float> va = a.uniform<float>(1000, -1.0, 1.0);
    std::vector<float> vb = b.uniform<float>(1000, -1.0, 1.0);
    std::vector<float> vc = c.uniform<float>(1000, -1.0, 1.0);
    CHECK(va == vb);
    CHECK(va != vc);
    bool in_range = true, neg = false, pos = false;
    for (float v : va) {
        in_range = in_range && v >= -1.0f && v <= 1.0f;
        neg = neg || v < -0.5f;
        pos = pos || v > 0.5f;
    }
    CHECK(in_range && neg && pos);

    // Integers: inclusive bounds, both ends reached.
    lab::Rng ri(7);
    std::vector<int> vi = ri.uniform<int>(2000, -3, 3);
    bool lo = false, hi = false, ok = true;
    for (int v : vi) {
        ok = ok && v >= -3 && v <= 3;
        lo = lo || v == -3;
        hi = hi || v == 3;
    }
    CHECK(ok && lo && hi);

    lab::Rng rh(9);
    std::vector<__half> vh = rh.uniform<__half>(500, 0.0, 2.0);
    bool hok = true;
    for (const __half& v : vh) {
        double d = lab::Elem<__half>::to_double(v);
        hok = hok && d >= 0.0 && d <= 2.0;
    }
    CHECK(hok);
}

static void test_half_bf16(void)
{
    using lab::float_to_half_bits;
    using lab::half_bits_to_float;
    CHECK(float_to_half_bits(1.0f) == 0x3c00);
    CHECK(float_to_half_bits(-2.0f) == 0xc000);
    CHECK(float_to_half_bits(65504.0f) == 0x7bff);
    CHECK(float_to_half_bits(65519.0f) == 0x7bff);
    CHECK(float_to_half_bits(65520.0f) == 0x7c00);
    CHECK(float_to_half_bits(INFINITY) == 0x7c00);
    CHECK(float_to_half_bits(-INFINITY) == 0xfc00);
    CHECK(float_to_half_bits(ldexpf(1, -14)) == 0x0400);
    CHECK(float_to_half_bits(ldexpf(1, -24)) == 0x0001);
    CHECK(float_to_half_bits(ldexpf(1, -25)) == 0x0000);     // tie to even: 0
    CHECK(float_to_half_bits(ldexpf(3, -25)) == 0x0002);     // tie to even: 2
    CHECK(float_to_half_bits(1.0f + ldexpf(1, -11)) == 0x3c00);
    CHECK(float_to_half_bits(1.0f + ldexpf(3, -11)) == 0x3c02);
    CHECK(float_to_half_bits(0.1f) == 0x2e66);
    uint16_t hn = float_to_half_bits(NAN);
    CHECK((hn & 0x7c00) == 0x7c00 && (hn & 0x03ff) != 0);

    CHECK(half_bits_to_float(0x3555) == 0.333251953125f);
    CHECK(half_bits_to_float(0x0001) == ldexpf(1, -24));
    CHECK(half_bits_to_float(0x7bff) == 65504.0f);
    CHECK(half_bits_to_float(0xfc00) == -INFINITY);
    CHECK(std::isnan(half_bits_to_float(0x7e00)));
    CHECK(half_bits_to_float(0x8000) == 0.0f && std::signbit(half_bits_to_float(0x8000)));

    int roundtrip_bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        float f = half_bits_to_float((uint16_t)h);
        if (!std::isnan(f) && float_to_half_bits(f) != h)
            roundtrip_bad++;
    }
    CHECK(roundtrip_bad == 0);

    CHECK(lab::float_to_bf16_bits(1.0f) == 0x3f80);
    CHECK(lab::float_to_bf16_bits(bits_float(0x3f808000)) == 0x3f80); // tie: even
    CHECK(lab::float_to_bf16_bits(bits_float(0x3f818000)) == 0x3f82); // tie: even
    CHECK(lab::float_to_bf16_bits(bits_float(0x3f808001)) == 0x3f81);
    CHECK(std::isnan(lab::bf16_bits_to_float(lab::float_to_bf16_bits(NAN))));
    CHECK(lab::bf16_bits_to_float(0xc040) == -3.0f);
}

// ------------------------------------------------------------ comparison

static void test_tolerance(void)
{
    using lab::close_enough;
    const lab::Tol abs_q{0.25, 0}, rel_h{0, 0.5}, both{0.25, 0.125};
    CHECK(close_enough(1.25, 1.0, abs_q));               // on the boundary
    CHECK(!close_enough(1.25 + ldexp(1, -40), 1.0, abs_q));
    CHECK(close_enough(0.75, 1.0, abs_q));
    CHECK(!close_enough(0.75 - ldexp(1, -40), 1.0, abs_q));
    CHECK(close_enough(3.0, 2.0, rel_h));                // 1 <= 0.5 * 2
    CHECK(!close_enough(3.0 + ldexp(1, -40), 2.0, rel_h));
    CHECK(close_enough(-3.0, -2.0, rel_h));              // uses |want|
    CHECK(!close_enough(ldexp(1, -40), 0.0, rel_h));     // rtol alone: 0 only
    CHECK(close_enough(4.75, 4.0, both));                // 0.25 + 0.125 * 4
    CHECK(!close_enough(4.75 + ldexp(1, -40), 4.0, both));
    CHECK(close_enough(-0.0, 0.0, lab::Tol{0, 0}));

    CHECK(close_enough(NAN, NAN, abs_q));
    CHECK(!close_enough(1.0, NAN, lab::Tol{1e300, 1e300}));
    CHECK(!close_enough(NAN, 1.0, lab::Tol{1e300, 1e300}));
    CHECK(close_enough(INFINITY, INFINITY, abs_q));
    CHECK(close_enough(-INFINITY, -INFINITY, abs_q));
    CHECK(!close_enough(-INFINITY, INFINITY, abs_q));
    CHECK(!close_enough(1e308, INFINITY, lab::Tol{0, 10}));
    CHECK(!close_enough(INFINITY, 1e308, lab::Tol{0, 10}));
}

static void test_compare_arrays(void)
{
    // Errors: |0.5| at 0 (rel 0.5), want 0 at 2 is left out of rel.
    const float want[] = {1.0f, 2.0f, 0.0f, -4.0f};
    const float got[] = {1.5f, 2.0f, 0.25f, -4.0f};
    lab::Compare c = lab::compare_host(got, want, 4, lab::Tol{0.1, 0});
    CHECK(c.count == 4 && c.bad == 2 && !c.pass());
    CHECK(c.max_abs == 0.5 && c.max_rel == 0.5);
    CHECK(c.has_first && c.index == 0);
    CHECK(c.expected == 1.0 && c.got == 1.5);
    CHECK(c.expected_text == "1" && c.got_text == "1.5");
    CHECK(c.note.empty());
    lab::Compare ok = lab::compare_host(got, want, 4, lab::Tol{0.5, 0});
    CHECK(ok.pass() && ok.bad == 0 && !ok.has_first);

    // NaN and infinities where they are expected.
    const double wd[] = {NAN, INFINITY, -INFINITY, 1.0};
    const double gd[] = {NAN, INFINITY, -INFINITY, 1.0};
    lab::Compare cd = lab::compare_host(gd, wd, 4, lab::Tol{0, 0});
    CHECK(cd.pass() && cd.max_abs == 0 && cd.max_rel == 0);
    const double gd2[] = {0.0, INFINITY, -INFINITY, NAN};
    lab::Compare cd2 = lab::compare_host(gd2, wd, 4, lab::Tol{1, 1});
    CHECK(cd2.bad == 2 && cd2.index == 0);
    CHECK(cd2.expected_text == "nan" && cd2.got_text == "0");
    CHECK(std::isinf(cd2.max_abs));

    // Halves, by bit pattern: 1.0, 0.5 and NaN.
    const __half wh[] = {half_of_bits(0x3c00), half_of_bits(0x3800), half_of_bits(0x7e00)};
    const __half gh[] = {half_of_bits(0x3c00), half_of_bits(0x3801), half_of_bits(0x7e01)};
    lab::Compare ch = lab::compare_host(gh, wh, 3, lab::Tol{0, 1e-3});
    CHECK(ch.pass());                                     // 2^-11 / 0.5 < 1e-3
    lab::Compare ch2 = lab::compare_host(gh, wh, 3, lab::Tol{0, 1e-4});
    CHECK(ch2.bad == 1 && ch2.index == 1 && ch2.got_text == "0.50049");

    // Integers: exact by default, also beyond 2^53.
    const int wi[] = {1, 2, 3};
    const int gi[] = {1, 2, 4};
    lab::Compare ci = lab::compare_host(gi, wi, 3, lab::Tol{0, 0});
    CHECK(ci.bad == 1 && ci.index == 2 && ci.expected_text == "3" && ci.got_text == "4");
    CHECK(lab::compare_host(gi, wi, 3, lab::Tol{1, 0}).pass());
    const long long wl[] = {(1ll << 53) + 1};
    const long long gl[] = {1ll << 53};
    CHECK(!lab::compare_host(gl, wl, 1, lab::Tol{0, 0}).pass());
    const unsigned long long wu[] = {18446744073709551615ull};
    lab::Compare cu = lab::compare_host(wu, wu, 1, lab::Tol{0, 0});
    CHECK(cu.pass());
}

static void test_canary(void)
{
    // An output nobody wrote still holds the canary: every element fails.
    std::vector<float> want(17, 0.0f), got(17);
    for (int i = 0; i < 17; i++)
        want[i] = (float)i;
    lab::fill_canary_host(got.data(), got.size());
    uint32_t bits;
    memcpy(&bits, &got[3], sizeof bits);
    CHECK(bits == 0xffffffffu && std::isnan(got[3]));
    lab::Compare c = lab::compare_host(got.data(), want.data(), 17, lab::Tol{1e30, 1e30});
    CHECK(c.bad == 17 && c.index == 0 && c.got_text == "nan");
    CHECK(c.note.find("never written") != std::string::npos);
    CHECK(std::isinf(c.max_abs));

    // One element left unwritten among right ones.
    std::vector<float> part = want;
    lab::fill_canary_host(&part[5], 1);
    lab::Compare cp = lab::compare_host(part.data(), want.data(), 17, lab::Tol{0, 0});
    CHECK(cp.bad == 1 && cp.index == 5 && !cp.note.empty());

    // A right value that happens to be NaN is no "never written".
    const float nan_want[] = {NAN};
    const float nan_got[] = {bits_float(0x7fc00000)};
    lab::Compare cn = lab::compare_host(nan_got, nan_want, 1, lab::Tol{0, 0});
    CHECK(cn.pass());

    // Integer canary: 0xA5 bytes.
    int ic;
    lab::fill_canary_host(&ic, 1);
    CHECK(ic == (int)0xa5a5a5a5u && lab::is_canary(ic));
    const int iw[] = {7};
    lab::Compare cic = lab::compare_host(&ic, iw, 1, lab::Tol{0, 0});
    CHECK(cic.bad == 1 && cic.got_text == "-1515870811" && !cic.note.empty());
    CHECK(lab::is_canary(half_of_bits(0xffff)) && !lab::is_canary(half_of_bits(0x7fff)));
}

static void test_guard(void)
{
    std::vector<float> buf(17 + 8);
    lab::fill_canary_host(buf.data(), buf.size());
    for (int i = 0; i < 17; i++)
        buf[i] = 1.0f;
    std::vector<float> want(17, 1.0f);
    lab::Compare c = lab::compare_host(buf.data(), want.data(), 17, lab::Tol{0, 0});
    CHECK(lab::check_guard(buf.data() + 17, 8, 17, c) && c.pass());

    buf[17 + 3] = 2.0f; // a thread past the end wrote here
    buf[17 + 5] = 2.0f;
    lab::Compare g = lab::compare_host(buf.data(), want.data(), 17, lab::Tol{0, 0});
    CHECK(!lab::check_guard(buf.data() + 17, 8, 17, g));
    CHECK(g.bad == 1 && g.index == 20 && g.got_text == "2");
    CHECK(g.note.find("past the end") != std::string::npos);

    // An earlier in-range failure stays the reported one.
    buf[2] = 0.0f;
    lab::Compare e = lab::compare_host(buf.data(), want.data(), 17, lab::Tol{0, 0});
    lab::check_guard(buf.data() + 17, 8, 17, e);
    CHECK(e.bad == 2 && e.index == 2);
}

// --------------------------------------------------------------- timing

static void test_stats(void)
{
    lab::Stats s = lab::summarize({3, 1, 2});
    CHECK(s.n == 3 && s.median == 2 && s.min == 1 && s.mean == 2);
    CHECK(s.stdev == 1 && s.noise_pct == 50);
    CHECK(lab::summarize({4, 1, 3, 2}).median == 2.5);
    lab::Stats w = lab::summarize({2, 4, 4, 4, 5, 5, 7, 9});
    CHECK(w.mean == 5 && std::fabs(w.stdev - std::sqrt(32.0 / 7.0)) < 1e-12);
    lab::Stats one = lab::summarize({0.7});
    CHECK(one.n == 1 && one.median == 0.7 && one.stdev == 0 && one.noise_pct == 0);
    CHECK(lab::summarize({}).n == 0);
}

// n samples alternating around 1.0 with relative spread about pct percent.
static lab::Stats noisy(size_t n, double pct)
{
    std::vector<double> v;
    for (size_t i = 0; i < n; i++)
        v.push_back(1.0 + (i % 2 ? 1 : -1) * pct / 100.0);
    return lab::summarize(v);
}

static void test_stop_rule(void)
{
    using lab::timing_done;
    CHECK(timing_done(noisy(10, 0), 0.6));
    CHECK(!timing_done(noisy(10, 0), 0.4));      // under 0.5 s
    CHECK(!timing_done(noisy(9, 0), 5.0));       // under 10 samples
    CHECK(!timing_done(noisy(10, 1.0), 0.6));    // stdev/mean about 1 %
    CHECK(timing_done(noisy(10, 0.2), 0.6));     // about 0.2 %
    CHECK(timing_done(noisy(1000, 1.0), 1.0));   // sample cap
    CHECK(!timing_done(noisy(999, 1.0), 14.9));
    CHECK(timing_done(noisy(12, 1.0), 15.0));    // time cap
    // Exactly 0.5 %: the rule asks for less than that.
    lab::Stats edge;
    edge.n = 20;
    edge.noise_pct = 0.5;
    CHECK(!timing_done(edge, 1.0));

    CHECK(lab::batch_size(0.05) == 1);
    CHECK(lab::batch_size(0.010) == 1);
    CHECK(lab::batch_size(0.002) == 100);
    CHECK(lab::batch_size(0.0099) == 21);        // ceil(0.2 / 0.0099)
    CHECK(lab::batch_size(0.00001) == 1000);     // capped
}

// ------------------------------------------------------------ the device

static void test_peaks(void)
{
    const lab::Peaks* p = lab::find_peaks("NVIDIA H100 80GB HBM3");
    CHECK(p && p->fp32 == 66.9 && p->bf16 == 989.4 && p->fp64 == 34.0);
    p = lab::find_peaks("NVIDIA H100 PCIe");
    CHECK(p && p->fp32 == 51.2 && p->bf16 == 756.0);
    p = lab::find_peaks("NVIDIA H100 NVL");
    CHECK(p && p->fp32 == 0);                    // known variant, figures not listed
    p = lab::find_peaks("NVIDIA H200");
    CHECK(p && p->fp32 == 66.9 && p->bf16 == 989.4);
    p = lab::find_peaks("NVIDIA A100-SXM4-80GB");
    CHECK(p && p->fp32 == 19.5 && p->bf16 == 312.0 && p->tf32 == 156.0);
    p = lab::find_peaks("NVIDIA A100 80GB PCIe");
    CHECK(p && p->bf16 == 312.0);
    p = lab::find_peaks("NVIDIA L4");
    CHECK(p && p->fp32 == 30.3 && p->bf16 == 121.0);
    CHECK(lab::find_peaks("NVIDIA L40S") == nullptr);
    CHECK(lab::find_peaks("NVIDIA L40") == nullptr);
    p = lab::find_peaks("Tesla T4");
    CHECK(p && p->fp32 == 8.1 && p->fp16 == 65.0 && p->bf16 == 0);
    p = lab::find_peaks("NVIDIA GeForce RTX 4090");
    CHECK(p && p->fp32 == 82.6 && p->fp16 == 165.2);
    p = lab::find_peaks("NVIDIA GeForce RTX 4090 D");
    CHECK(p && p->fp32 == 0);
    CHECK(lab::find_peaks("NVIDIA GeForce RTX 3090") == nullptr);
    CHECK(lab::find_peaks("NVIDIA GH100") == nullptr);
    p = lab::find_peaks("simt (H100)");
    CHECK(p && p->fp32 == 66.9);

    CHECK(lab::peak_of(lab::find_peaks("NVIDIA H200"), "bf16") == 989.4);
    CHECK(lab::peak_of(lab::find_peaks("NVIDIA H200"), "int4") == 0);
    CHECK(lab::peak_of(nullptr, "fp32") == 0);

    // 2 x 2619 MHz x 5120 bits / 8 = 3352.32 GB/s (H100 SXM);
    // 2 x 1593 MHz x 5120 bits / 8 = 2039.04 GB/s (A100 80GB SXM).
    CHECK(std::fabs(lab::peak_gbps(2619000, 5120) - 3352.32) < 1e-9);
    CHECK(std::fabs(lab::peak_gbps(1593000, 5120) - 2039.04) < 1e-9);
    CHECK(lab::peak_gbps(0, 5120) == 0 && lab::peak_gbps(1000, 0) == 0);
}

// ----------------------------------------------------------------- args

static bool parse(std::vector<const char*> args, lab::Options* o, std::string* err)
{
    std::vector<char*> argv;
    argv.push_back((char*)"prog");
    for (const char* a : args)
        argv.push_back((char*)a);
    *o = lab::Options();
    return lab::parse_args((int)argv.size(), argv.data(), o, err);
}

static void test_args(void)
{
    lab::Options o;
    std::string err;
    CHECK(parse({}, &o, &err) && o.mode == lab::Mode::check && o.seed == 1);
    CHECK(parse({"--mode", "bench", "--seed", "42"}, &o, &err));
    CHECK(o.mode == lab::Mode::bench && o.seed == 42);
    CHECK(parse({"--mode=bench", "--seed=7"}, &o, &err));
    CHECK(o.mode == lab::Mode::bench && o.seed == 7);
    CHECK(parse({"--seed", "18446744073709551615"}, &o, &err) &&
          o.seed == 18446744073709551615ull);
    CHECK(!parse({"--mode", "fast"}, &o, &err) && err.find("fast") != std::string::npos);
    CHECK(!parse({"--seed"}, &o, &err) && !err.empty());
    CHECK(!parse({"--seed", "-3"}, &o, &err));
    CHECK(!parse({"--seed", "12x"}, &o, &err));
    CHECK(!parse({"--seed", ""}, &o, &err));
    CHECK(!parse({"--seed", "99999999999999999999999"}, &o, &err));
    CHECK(!parse({"--frob"}, &o, &err) && err.find("--frob") != std::string::npos);
    CHECK(!parse({"check"}, &o, &err));
}

// ----------------------------------------------------------------- JSON

static void test_json_escaping(void)
{
    lab::Json j;
    j.begin_object();
    j.key("s").str("a\"b\\c\nd\te\x01" "f\x7f");
    j.key("u").str("caf\xc3\xa9 \xe2\x86\x92");
    j.key("bad").str("x\xffy\xc3");
    j.key("k\"ey").integer(-5);
    j.end_object();
    const std::string& t = j.text();
    CHECK(t.find("\"a\\\"b\\\\c\\nd\\te\\u0001f\\u007f\"") != std::string::npos);
    CHECK(t.find("\"k\\\"ey\":-5") != std::string::npos);

    cJSON* root = cJSON_Parse(t.c_str());
    CHECK(root != nullptr);
    if (!root)
        return;
    cJSON* s = cJSON_GetObjectItemCaseSensitive(root, "s");
    CHECK(cJSON_IsString(s) && strcmp(s->valuestring, "a\"b\\c\nd\te\x01" "f\x7f") == 0);
    cJSON* u = cJSON_GetObjectItemCaseSensitive(root, "u");
    CHECK(cJSON_IsString(u) && strcmp(u->valuestring, "caf\xc3\xa9 \xe2\x86\x92") == 0);
    cJSON* bad = cJSON_GetObjectItemCaseSensitive(root, "bad");
    CHECK(cJSON_IsString(bad) &&
          strcmp(bad->valuestring, "x\xef\xbf\xbdy\xef\xbf\xbd") == 0);
    cJSON_Delete(root);
}

static void test_json_numbers(void)
{
    lab::Json j;
    j.begin_array();
    j.num(0.41).num(0.1f, 9).num(1e300).num(NAN).num(-INFINITY).num(12000036);
    j.num(-0.5).integer(0).boolean(true).null();
    j.begin_object().end_object().begin_array().end_array();
    j.end_array();
    CHECK(j.text() == "[0.41,0.100000001,1e+300,null,null,12000036,-0.5,0,true,null,{},[]]");
    CHECK(lab::number_text(NAN) == "nan" && lab::number_text(-INFINITY) == "-inf");
    CHECK(lab::number_text(0.1) == "0.1");
    CHECK(strtod(lab::number_text(1.0 / 3.0).c_str(), nullptr) == 1.0 / 3.0);
}

static cJSON* get(cJSON* o, const char* k)
{
    return o ? cJSON_GetObjectItemCaseSensitive(o, k) : nullptr;
}

// A string member, "" when missing or not a string.
static const char* str_of(cJSON* o, const char* k)
{
    cJSON* v = get(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

// A number member, NaN when missing or not a number.
static double num_of(cJSON* o, const char* k)
{
    cJSON* v = get(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static lab::Result sample_result(void)
{
    lab::Result r;
    r.exercise = "vector-add";
    r.device.known = true;
    r.device.name = "NVIDIA H200";
    r.device.cc_major = 9;
    r.device.cc_minor = 0;
    r.device.sm_count = 132;
    r.device.peak_gbps = 4800;
    r.device.peaks = lab::find_peaks("NVIDIA H200");
    return r;
}

static void test_result_pass(void)
{
    lab::Result r = sample_result();
    const float w[] = {1, 2, 3};
    const float g[] = {1, 2, 3.5f};
    // Two seeds of one case fold into one entry; errors are the maximum.
    lab::record_compare<float>(r, "n=3", 1, lab::compare_host(w, w, 3, lab::Tol{0, 0}));
    lab::record_compare<float>(r, "n=3", 2, lab::compare_host(g, w, 3, lab::Tol{1, 0}));
    CHECK(r.cases.size() == 1 && r.cases[0].pass && r.cases[0].max_abs == 0.5);
    CHECK(lab::result_status(r) == lab::Status::pass);
    CHECK(lab::exit_code(lab::result_status(r)) == 0);

    r.has_timing = true;
    r.timing.stats = lab::summarize({0.5, 0.5, 0.5});
    r.timing.l2_flushed = true;
    r.work = lab::Work{12e6, 1e6, "fp32"};
    std::string text = lab::result_json(r);
    cJSON* root = cJSON_Parse(text.c_str());
    CHECK(root != nullptr);
    if (!root)
        return;
    CHECK(num_of(root, "schema") == 1);
    CHECK(strcmp(str_of(root, "exercise"), "vector-add") == 0);
    CHECK(strcmp(str_of(root, "status"), "pass") == 0);
    CHECK(strcmp(str_of(root, "backend"), "gpu") == 0);
    cJSON* dev = get(root, "device");
    CHECK(strcmp(str_of(dev, "name"), "NVIDIA H200") == 0);
    CHECK(strcmp(str_of(dev, "cc"), "9.0") == 0);
    CHECK(num_of(dev, "sm_count") == 132);
    CHECK(num_of(dev, "peak_gbps") == 4800);
    cJSON* pk = get(dev, "peak_tflops");
    CHECK(num_of(pk, "fp32") == 66.9 && num_of(pk, "bf16") == 989.4);
    cJSON* cases = get(root, "cases");
    CHECK(cJSON_GetArraySize(cases) == 1);
    cJSON* c0 = cJSON_GetArrayItem(cases, 0);
    CHECK(strcmp(str_of(c0, "name"), "n=3") == 0);
    CHECK(strcmp(str_of(c0, "status"), "pass") == 0);
    CHECK(num_of(c0, "max_abs_err") == 0.5);
    CHECK(get(root, "mismatch") == nullptr && get(root, "error") == nullptr);
    cJSON* t = get(root, "timing");
    CHECK(num_of(t, "samples") == 3 && num_of(t, "median_ms") == 0.5);
    CHECK(cJSON_IsTrue(get(t, "l2_flushed")) && get(t, "batched") == nullptr);
    CHECK(get(t, "emulated") == nullptr);
    CHECK(num_of(get(root, "work"), "bytes") == 12e6);
    // 12e6 bytes in 0.5 ms: 24 GB/s, 0.5 % of 4800; 1e6 FLOP: 0.002 TFLOP/s.
    cJSON* d = get(root, "derived");
    CHECK(std::fabs(num_of(d, "gbps") - 24.0) < 1e-9);
    CHECK(std::fabs(num_of(d, "pct_peak_bw") - 0.5) < 1e-9);
    CHECK(std::fabs(num_of(d, "tflops") - 0.002) < 1e-12);
    // Rates are written to 6 significant digits.
    CHECK(std::fabs(num_of(d, "pct_peak_flops") / (100 * 0.002 / 66.9) - 1) < 5e-6);
    cJSON_Delete(root);
}

static void test_result_wrong(void)
{
    lab::Result r = sample_result();
    std::vector<float> w(17, 3.0f), g(17, 3.0f);
    lab::fill_canary_host(&g[16], 1);
    lab::record_compare<float>(r, "n=1", 1, lab::compare_host(w.data(), w.data(), 1, lab::Tol{0, 0}));
    lab::record_compare<float>(r, "n=17", 2, lab::compare_host(g.data(), w.data(), 17, lab::Tol{0, 0}));
    g[16] = 3.0f;
    g[4] = 2.0f;
    lab::record_compare<float>(r, "n=17", 3, lab::compare_host(g.data(), w.data(), 17, lab::Tol{0, 0}));
    CHECK(lab::result_status(r) == lab::Status::wrong);
    CHECK(lab::exit_code(lab::Status::wrong) == 1);
    CHECK(r.cases.size() == 2 && r.cases[0].pass && !r.cases[1].pass);
    CHECK(r.cases[1].mismatches == 2);

    cJSON* root = cJSON_Parse(lab::result_json(r).c_str());
    CHECK(root != nullptr);
    if (!root)
        return;
    CHECK(strcmp(str_of(root, "status"), "wrong") == 0);
    cJSON* c1 = cJSON_GetArrayItem(get(root, "cases"), 1);
    CHECK(strcmp(str_of(c1, "status"), "wrong") == 0);
    CHECK(cJSON_IsNull(get(c1, "max_abs_err")));          // a NaN stood there
    cJSON* m = get(root, "mismatch");                      // the first failure
    CHECK(strcmp(str_of(m, "case"), "n=17") == 0);
    CHECK(num_of(m, "seed") == 2 && num_of(m, "index") == 16);
    CHECK(num_of(m, "expected") == 3.0 && cJSON_IsNull(get(m, "got")));
    CHECK(strcmp(str_of(m, "got_text"), "nan") == 0);
    CHECK(cJSON_IsString(get(m, "note")));
    CHECK(get(root, "timing") == nullptr && get(root, "error") == nullptr);
    cJSON_Delete(root);
}

static void test_result_errors(void)
{
    lab::Result r = sample_result();
    lab::record_compare<float>(r, "n=1", 1, lab::Compare());
    r.has_error = true;
    r.error.name = "cudaErrorIllegalAddress";
    r.error.message = "an illegal memory access was encountered";
    r.error.where = "running solve() (case n=17, seed 1)";
    CHECK(lab::result_status(r) == lab::Status::runtime_error);
    CHECK(lab::exit_code(lab::Status::runtime_error) == 2);
    cJSON* root = cJSON_Parse(lab::result_json(r).c_str());
    CHECK(root != nullptr);
    if (root) {
        CHECK(strcmp(str_of(root, "status"), "runtime_error") == 0);
        cJSON* e = get(root, "error");
        CHECK(strcmp(str_of(e, "name"), "cudaErrorIllegalAddress") == 0);
        CHECK(strcmp(str_of(e, "message"),
                     "an illegal memory access was encountered") == 0);
        CHECK(get(root, "mismatch") == nullptr);
        cJSON_Delete(root);
    }

    // No case at all: the harness checked nothing, which is no pass.
    lab::Result empty = sample_result();
    CHECK(lab::result_status(empty) == lab::Status::runtime_error);
    root = cJSON_Parse(lab::result_json(empty).c_str());
    CHECK(root && strcmp(str_of(get(root, "error"), "name"), "no_cases") == 0);
    cJSON_Delete(root);

    // A device that could not be queried is null.
    lab::Result nodev;
    nodev.exercise = "x";
    root = cJSON_Parse(lab::result_json(nodev).c_str());
    CHECK(root && cJSON_IsNull(get(root, "device")));
    cJSON_Delete(root);
}

static void test_result_simt(void)
{
    lab::Result r = sample_result();
    r.simt = true;
    r.device.name = "simt (H100)";
    lab::record_compare<float>(r, "n=1", 1, lab::Compare());
    r.has_timing = true;
    r.timing.stats = lab::summarize({250.0});
    r.timing.emulated = true;
    r.work = lab::Work{12, 1, "fp32"};
    cJSON* root = cJSON_Parse(lab::result_json(r).c_str());
    CHECK(root != nullptr);
    if (!root)
        return;
    CHECK(strcmp(str_of(root, "backend"), "simt") == 0);
    cJSON* t = get(root, "timing");
    CHECK(num_of(t, "samples") == 1 && cJSON_IsTrue(get(t, "emulated")));
    CHECK(num_of(t, "median_ms") == 250.0 && cJSON_IsFalse(get(t, "l2_flushed")));
    cJSON* d = get(root, "derived");
    CHECK(cJSON_IsNull(get(d, "gbps")) && cJSON_IsNull(get(d, "tflops")));
    cJSON_Delete(root);

    lab::Result b = sample_result();
    lab::record_compare<float>(b, "n=1", 1, lab::Compare());
    b.has_timing = true;
    b.timing.stats = lab::summarize({0.001});
    b.timing.batched = 200;
    root = cJSON_Parse(lab::result_json(b).c_str());
    CHECK(root && num_of(get(root, "timing"), "batched") == 200);
    cJSON_Delete(root);
}

// Reads everything from fd until end of file.
static std::string slurp(int fd)
{
    std::string s;
    char buf[512];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        s.append(buf, (size_t)n);
    return s;
}

static void test_write_result(void)
{
    int p[2];
    CHECK(pipe(p) == 0);
    setenv("CUDALAB_RESULT_FD", std::to_string(p[1]).c_str(), 1);
    CHECK(lab::write_result("{\"a\":1}") == 0);
    CHECK(fcntl(p[1], F_GETFD) != -1); // the descriptor itself stays open
    close(p[1]);
    CHECK(slurp(p[0]) == "{\"a\":1}\n");
    close(p[0]);

    // Unset or unusable: stdout.
    int q[2];
    CHECK(pipe(q) == 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(q[1], 1);
    close(q[1]);
    unsetenv("CUDALAB_RESULT_FD");
    CHECK(lab::write_result("{\"b\":2}") == 0);
    setenv("CUDALAB_RESULT_FD", "987", 1); // not open
    int stderr_saved = dup(2);
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 2);
    CHECK(lab::write_result("{\"c\":3}") == 0);
    dup2(stderr_saved, 2);
    close(stderr_saved);
    close(devnull);
    unsetenv("CUDALAB_RESULT_FD");
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    CHECK(slurp(q[0]) == "{\"b\":2}\n{\"c\":3}\n");
    close(q[0]);
}

// ---------------------------------------------------------------- main

// Prints the status of a result file; 3 when it is not a schema-1 result.
static int print_status(const char* path)
{
    FILE* f = fopen(path, "r");
    if (!f)
        return 3;
    std::string s;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, n);
    fclose(f);
    cJSON* root = cJSON_Parse(s.c_str());
    cJSON* schema = root ? get(root, "schema") : nullptr;
    cJSON* status = root ? get(root, "status") : nullptr;
    int rc = 3;
    if (cJSON_IsNumber(schema) && schema->valuedouble == 1 && cJSON_IsString(status)) {
        printf("%s\n", status->valuestring);
        rc = 0;
    }
    cJSON_Delete(root);
    return rc;
}

int main(int argc, char** argv)
{
    if (argc == 3 && strcmp(argv[1], "--status") == 0)
        return print_status(argv[2]);
    test_rng();
    test_half_bf16();
    test_tolerance();
    test_compare_arrays();
    test_canary();
    test_guard();
    test_stats();
    test_stop_rule();
    test_peaks();
    test_args();
    test_json_escaping();
    test_json_numbers();
    test_result_pass();
    test_result_wrong();
    test_result_errors();
    test_result_simt();
    test_write_result();
    printf("test_lab: %d checks passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
