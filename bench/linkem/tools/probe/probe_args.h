/* Tiny --key value argument lookup shared by the probe's modes. */
#ifndef LINKEM_PROBE_ARGS_H
#define LINKEM_PROBE_ARGS_H

#include <stdint.h>

const char *arg_text(int argc, char **argv, const char *key, const char *fallback);
/* Exits with a JSON error when the value is missing or not a number in [lo, hi]. */
double arg_number(int argc, char **argv, const char *key, double fallback, double lo, double hi);
uint64_t monotonic_ns(void);
void fail_json(const char *what);

#endif
