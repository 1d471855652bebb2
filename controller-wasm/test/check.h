/* A tiny assert harness: CHECK* record failures and keep going; check_summary() gives the exit code. */
#ifndef PCC_TEST_CHECK_H
#define PCC_TEST_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                              \
    do {                                                                         \
        check_count++;                                                           \
        if (!(cond)) {                                                           \
            check_failures++;                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_NEAR(actual, expected, tolerance)                                          \
    do {                                                                                 \
        double check_a_ = (double)(actual), check_e_ = (double)(expected);               \
        check_count++;                                                                   \
        if (!(fabs(check_a_ - check_e_) <= (tolerance))) {                               \
            check_failures++;                                                            \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.12g, expected %.12g (+-%g)\n", \
                    __FILE__, __LINE__, #actual, check_a_, check_e_, (double)(tolerance)); \
        }                                                                                \
    } while (0)

static inline int check_summary(const char *name) {
    fprintf(stderr, "%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures == 0 ? 0 : 1;
}

#endif /* PCC_TEST_CHECK_H */
