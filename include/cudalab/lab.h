/* lab.h — the exercise harness: inputs, checks, timing and the result JSON.
 *
 * Every exercise's harness.cu includes this header and nothing else of
 * cudalab; the implementation is header-only (inline functions, small
 * classes), so it is compiled into each exercise program, for a GPU and for
 * simt alike.  The program is run as
 *
 *     prog --mode check|bench [--seed N]
 *
 * and writes ONE JSON object to the file descriptor named by the environment
 * variable CUDALAB_RESULT_FD (stdout when it is unset), so whatever the
 * learner's code prints never mixes with the result.  Exit code: 0 pass,
 * 1 wrong, 2 runtime error or bad usage.  When CUDALAB_PROGRESS names a
 * file, each case (and each timing) replaces its one line, "case n=4096, seed 2"
 * or "timing n=4096", for the runner's progress line.
 *
 * A harness, in outline (exercises/vector-add/harness.cu is a full one):
 *
 *     #include <cudalab/lab.h>
 *     void solve(const float* a, const float* b, float* c, int n);
 *
 *     static void run_case(lab::Lab& lab, int n, uint64_t seed)
 *     {
 *         lab.begin_case(lab::fmt("n=%d", n), seed);
 *         lab::Rng rng(seed);
 *         std::vector<float> a = rng.uniform<float>(n, -1.0, 1.0);
 *         std::vector<float> b = rng.uniform<float>(n, -1.0, 1.0);
 *         std::vector<float> want(n);
 *         for (int i = 0; i < n; i++) want[i] = a[i] + b[i];
 *
 *         auto da = lab::to_device(a), db = lab::to_device(b);
 *         auto dc = lab::output<float>(n);          // canary-filled, guarded
 *         lab.call([&] { solve(da, db, dc, n); });  // once, errors checked
 *         lab.expect(dc, want, lab::Tol{1e-6, 1e-6});
 *         lab.time([&] { solve(da, db, dc, n); },   // bench mode only
 *                  lab::Work{12.0 * n, 1.0 * n, "fp32"});
 *     }
 *
 *     int main(int argc, char** argv)
 *     {
 *         lab::Lab lab("vector-add", argc, argv);
 *         for (long long n : lab.sizes({1, 17, 4099, 100003}, 1 << 26))
 *             for (uint64_t seed : lab.seeds())
 *                 run_case(lab, (int)n, seed);
 *         return lab.finish();
 *     }
 *
 * What each piece promises:
 *
 * lab::Lab(exercise, argc, argv)
 *     Parses the command line and queries device 0 (name, compute capability,
 *     SM count, L2 size, peak bandwidth, datasheet compute peaks).  A bad
 *     command line or a CUDA failure here writes a runtime_error result and
 *     exits 2.  The backend is "simt" when the device name starts with
 *     "simt", else "gpu".
 * lab.sizes(check_sizes, gpu_bench_size)
 *     check: all of check_sizes.  bench: gpu_bench_size on a GPU and in a
 *     predicted bench, the largest check size on simt otherwise (an
 *     interpreter is slow).
 * lab.predicting()
 *     A predicted bench: bench mode on simt with its time model on
 *     (CUDALAB_SIMT_PREDICT names a GPU).  It runs at the GPU bench size,
 *     where simt runs only a sample of a large grid's blocks, so outputs
 *     are incomplete and nothing is checked: lab.call does nothing,
 *     lab.expect and lab.expect_host record the case as "unchecked" and
 *     return true, and lab.time times one call on the modelled timeline.
 * lab.seeds()
 *     check: three seeds starting at --seed (default 1); bench: --seed alone.
 * lab.begin_case(name, seed)
 *     Names what follows (call it first, so that an error while setting a
 *     case up is reported against it).  Results of several seeds with the same name fold
 *     into one entry of "cases" (errors are the maximum over seeds).
 * lab.call(fn, label = "solve")
 *     Runs fn once, then cudaGetLastError and cudaDeviceSynchronize; a CUDA
 *     error ends the program with status runtime_error and the error's name
 *     and message.  Every CUDA call the harness makes is checked the same way
 *     (lab.cuda(err, what) for calls the harness author adds).
 * lab.expect(device_array, want, tol)
 *     Copies the output back and compares element by element:
 *     |got - want| <= atol + rtol * |want|; a NaN expected matches only a
 *     NaN; an infinity must match exactly; a NaN or infinity where a finite
 *     value was expected fails.  Integers compare exactly unless tol says
 *     otherwise.  The guard after an output (see lab::output) must still hold
 *     the canary.  Where the right answer is the canary itself (an int8 of
 *     -91), the last lab.call of the case runs once more over an output
 *     refilled with a second canary, so an element never written is still
 *     caught.  Records max_abs_err / max_rel_err (null in the JSON when a
 *     non-finite value stood where a finite one was expected) and the first
 *     mismatch of the run.  Returns true when the output passed.
 * lab.expect_host(got_vector, want, tol, note = "")
 *     The same comparison for values already on the host (a host function's
 *     results, numbers derived from an output); no guard or canary.  note,
 *     when given, becomes the mismatch's note if these values fail: what
 *     the numbers are ("1 = the stage broke the schedule's rule").
 * lab.time(fn, work)
 *     Does nothing in check mode, or when a check has already failed.  In
 *     bench mode on a GPU: warms up, then takes samples, each one an L2
 *     flush (cudaMemsetAsync over a buffer of twice the L2 size) followed
 *     by fn between two events on the default stream.  Kernels under
 *     10 us are timed in batches of k calls between one pair of events
 *     ("batched": k; per-call time = batch / k; the L2 is then flushed only
 *     before each batch, so later calls of a batch may find warm data).  At
 *     least 10 samples and 0.5 s; stops once stdev/mean < 0.5 %, or at 1000
 *     samples or 15 s.  Headline: the median.  The events are recorded on
 *     the legacy default stream of every device lab.devices asked for; a
 *     third event, recorded once every device is idle, catches work on
 *     streams that do not wait for the legacy stream (non-blocking
 *     streams): when it is later than the stop event by more than 30 us
 *     or 5%, the sample is the time to idle ("outlived": true).  With
 *     several devices the sample is the longest start-to-stop of any
 *     device, all starting idle and together: the span from the first
 *     rank's start to the last one's end.  In a predicted bench: the same
 *     code on simt's modelled timeline, one sample of one call, no
 *     warm-up ("predicted": the GPU's id).  On simt otherwise: one run,
 *     timed by the host clock and labelled "emulated": its time is
 *     emulation time and no bandwidth is derived from it.
 * lab.finish()
 *     Writes the result and returns the exit code for main to return.
 *
 * Device arrays (lab::DeviceArray<T>, moved, never copied, freed on scope
 * exit; converts to T* so it can be passed to solve directly):
 *     lab::to_device(vec)   an input: exactly vec.size() elements.
 *     lab::output<T>(n)     an output: n elements filled with the canary plus
 *                           a guard of lab::kGuard canary elements after them,
 *                           so an output never written, or written past its
 *                           end, is caught on a GPU too.
 *     lab::inout(vec)       uploaded like an input, guarded like an output.
 * The canary is all bytes 0xFF for floating types (a NaN, never a right
 * answer for a finite expected value) and all bytes 0xA5 for integers.
 *
 * Several devices (exercises with "gpus: N" in their front matter):
 *     lab.devices(n)          the harness needs devices 0 .. n-1; a machine
 *                             with fewer gets a runtime_error
 *                             "too_few_devices" naming both counts.  Each
 *                             device gets peer access to each other one
 *                             where the machine allows it.  Then
 *                             lab.call and lab.expect synchronize all n
 *                             devices, and lab.call restores the device that
 *                             was current before it.
 *     lab::to_device_on(d, vec), lab::output_on<T>(d, n),
 *     lab::inout_on(d, vec)   as above, allocated on device d; the array
 *                             frees (and refills) itself on d, and
 *                             lab.expect reads it back from any device.
 *     lab::DeviceScope on(d)  makes d current until the end of the scope.
 * The learner's function is called once from the harness's thread with
 * one pointer (and stream, communicator...) per device, as a
 * single-process multi-GPU program drives its devices.
 *
 * Inputs: lab::Rng (splitmix64) gives the same numbers for the same seed on
 * every machine: rng.uniform<T>(n, lo, hi) / rng.fill(ptr, n, lo, hi),
 * uniform in [lo, hi) for floating types and [lo, hi] for integers.
 * Element types: float, double, __half, __nv_bfloat16 and the integer types
 * (int8_t ... uint64_t).
 *
 * simt's counters (lab::simt_counters()): on simt a harness can read the
 * profiler counters of its own run while it runs, summed over every kernel
 * launched so far (the first read turns counting on), and take the
 * difference around a call to see what that call did:
 *
 *     lab::SimtCounters before = lab::simt_counters();
 *     lab.call(run);
 *     lab::SimtCounters used = lab::simt_counters() - before;
 *     if (used.available) ... used.global_load_sectors ...
 *
 * `available` is false on a GPU (the symbol simt defines,
 * cudalab_simt_counter, is declared weak and is then null): a harness that
 * holds a kernel to a counter must have another rule for a GPU, a timing
 * against a kernel of its own, say.
 *
 * The result JSON, written to the descriptor CUDALAB_RESULT_FD names (the
 * runner adds its own keys to it: docs/guide.md, "Result JSON"):
 *   {"schema":1,"key":"...","exercise":"...","status":"pass|wrong|runtime_error",
 * key: what the runner passed in CUDALAB_RESULT_KEY_FD, read before main
 * (see result_key); the runner refuses a result without it.
 *    "backend":"gpu|simt",
 *    "device":{"name","cc":"9.0","sm_count","peak_gbps","peak_tflops":{...}},
 *    "cases":[{"name","status","max_abs_err","max_rel_err","mismatches",
 *              "not_written","overruns"}],
 *      status: pass, wrong, or unchecked (a predicted bench's case)
 *      mismatches: elements that failed, where an output written past its
 *      end counts once; not_written: of them, those still holding the
 *      canary; overruns: outputs written past their end (max_abs_err and
 *      max_rel_err cover the elements inside the outputs)
 *    "mismatch":{"case","seed","index","expected","got","expected_text",
 *                "got_text","note"},                  only when wrong
 *    "error":{"name","message","where"},             only on runtime_error
 *    "timing":{"samples","median_ms","min_ms","mean_ms","stdev_ms",
 *              "noise_pct","l2_flushed","batched"|"emulated","outlived",
 *              "predicted"},                                     bench only
 *    "work":{"bytes","flops","calls","peak"},                    bench only
 *    "derived":{"gbps","pct_peak_bw","tflops","pct_peak_flops"}} bench only
 * work.peak names the peak_tflops key the FLOPs are measured against;
 * work.calls counts every run of solve in the program (checks, warm-ups,
 * samples), so that counts covering the whole program (simt's counters)
 * can be read per call.
 * Numbers that are not finite are written as null; *_text give the values
 * as text ("nan", "-inf", ...).  peak_tflops keys: fp64 and fp32 (the
 * non-tensor peaks), tf32, fp16, bf16, fp8 (dense tensor-core peaks); a key
 * is present only when the datasheet figure is known for the device. */
#ifndef CUDALAB_LAB_H
#define CUDALAB_LAB_H

/* The library is a folder of parts, each a header of its own: */
#include "lab/text.h"
#include "lab/elem.h"
#include "lab/random.h"
#include "lab/compare.h"
#include "lab/timing.h"
#include "lab/json.h"
#include "lab/result.h"
#include "lab/device.h"
#include "lab/harness.h"

#undef LAB_PRINTF

#endif
