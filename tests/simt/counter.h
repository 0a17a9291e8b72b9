// counter.h — reading simt's counters from a conformance program, after
// check.h.  cudalab_simt_counter() is declared weak: on a GPU it is null,
// and a program skips what needs it.  counter() reads one counter (summed
// over every kernel since the first call, which turns counting on) and
// counts a refused name as a failure.
#ifndef SIMT_TEST_COUNTER_H
#define SIMT_TEST_COUNTER_H

extern "C" int cudalab_simt_counter(const char *name, unsigned long long *value)
    __attribute__((weak));

static unsigned long long counter(const char *name)
{
    unsigned long long v = ~0ull;
    if (cudalab_simt_counter(name, &v) != 0) {
        fprintf(stderr, "FAIL cudalab_simt_counter(\"%s\") refused\n", name);
        failures++;
    }
    return v;
}

#endif
