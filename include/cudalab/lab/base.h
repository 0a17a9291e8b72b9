/* Part of cudalab/lab.h, the one header exercises include: what every
 * other part uses: the standard headers, LAB_PRINTF (taken back at the end
 * of cudalab/lab.h), and the weak declaration of simt's counter call.
 *
 * Every part puts its names in an unnamed namespace inside lab: they have
 * internal linkage, so each file that includes lab.h has its own copy and
 * no definition in another file (a learner's "template <>
 * lab::Compare lab::compare_host<float>(...)", say) can take their place
 * at link time.  cudalab also refuses to link a learner's file that
 * defines anything in lab. */
#ifndef CUDALAB_LAB_BASE_H
#define CUDALAB_LAB_BASE_H

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <unistd.h>

#if defined(__GNUC__)
#define LAB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LAB_PRINTF(f, a)
#endif

/* Defined by simt's library (src/simt/perf/counters.c) and absent from the CUDA
 * runtime, hence weak: null when the program runs on a GPU. */
extern "C" int cudalab_simt_counter(const char* name, unsigned long long* value)
    __attribute__((weak));

#endif
