/*
 * src/portable_math.c against the platform's libm: agreement to a few ulp on random inputs over the
 * ranges the controllers use, and the special values (0, negatives, infinities, NaN). Bit-identity
 * between native and WASM is checked end to end by the TypeScript equivalence tests.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "portable_math.h"

static int failures = 0;

static void expect_close(const char *what, double x, double got, double want, double tolerance) {
    double error = want == 0.0 ? fabs(got) : fabs(got - want) / fabs(want);
    if (!(error <= tolerance)) {
        printf("FAIL %s(%.17g) = %.17g, libm %.17g, relative error %.3g > %.3g\n", what, x, got, want, error, tolerance);
        failures++;
    }
}

static void expect_same(const char *what, double got, double want) {
    int same = (isnan(got) && isnan(want)) || got == want;
    if (!same) {
        printf("FAIL %s = %.17g, expected %.17g\n", what, got, want);
        failures++;
    }
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double uniform(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

int main(void) {
    for (int i = 0; i < 200000; i++) {
        double x = uniform() * 1e4;          /* rates in Mbit/s, windows in segments */
        double tiny = uniform() * 1e-6;
        double y = uniform() * 2.0;          /* exponents such as Vivace's 0.9 */
        double e = (uniform() - 0.5) * 1400; /* the whole exp range short of overflow */
        double z = (uniform() - 0.5) * 16;   /* normal-CDF arguments */
        expect_close("pcc_log", x, pcc_log(x), log(x), 1e-15);
        expect_close("pcc_log", tiny, pcc_log(tiny), log(tiny), 1e-15);
        expect_close("pcc_exp", e, pcc_exp(e), exp(e), 1e-15);
        expect_close("pcc_pow", x, pcc_pow(x, y), pow(x, y), 1e-14);
        expect_close("pcc_cbrt", x, pcc_cbrt(x), cbrt(x), 1e-15);
        expect_close("pcc_cbrt", -tiny, pcc_cbrt(-tiny), cbrt(-tiny), 1e-15);
        if (erfc(z) > 1e-300) expect_close("pcc_erfc", z, pcc_erfc(z), erfc(z), 1e-10);
    }
    expect_same("pcc_log(0)", pcc_log(0.0), -INFINITY);
    expect_same("pcc_log(-1)", pcc_log(-1.0), NAN);
    expect_same("pcc_log(inf)", pcc_log(INFINITY), INFINITY);
    expect_same("pcc_exp(1000)", pcc_exp(1000.0), INFINITY);
    expect_same("pcc_exp(-1000)", pcc_exp(-1000.0), 0.0);
    expect_same("pcc_exp(0)", pcc_exp(0.0), 1.0);
    expect_same("pcc_pow(0, 0.9)", pcc_pow(0.0, 0.9), 0.0);
    expect_same("pcc_pow(x, 0)", pcc_pow(123.0, 0.0), 1.0);
    expect_same("pcc_pow(-8, 1/3)", pcc_pow(-8.0, 1.0 / 3.0), NAN);
    expect_close("pcc_pow(-2, 3)", -2.0, pcc_pow(-2.0, 3.0), -8.0, 1e-15);
    expect_same("pcc_pow(nan, 2)", pcc_pow(NAN, 2.0), NAN);
    expect_same("pcc_cbrt(-27)", pcc_cbrt(-27.0), -3.0);
    expect_same("pcc_cbrt(0)", pcc_cbrt(0.0), 0.0);
    expect_same("pcc_cbrt(inf)", pcc_cbrt(INFINITY), INFINITY);
    expect_same("pcc_erfc(0)", pcc_erfc(0.0), 1.0);
    expect_same("pcc_erfc(40)", pcc_erfc(40.0), 0.0);
    expect_same("pcc_erfc(-40)", pcc_erfc(-40.0), 2.0);
    expect_same("pcc_erfc(nan)", pcc_erfc(NAN), NAN);
    printf("%s: %d failures\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}
