#include "probe_args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *arg_text(int argc, char **argv, const char *key, const char *fallback) {
    for (int i = 2; i + 1 < argc; i++)
        if (!strcmp(argv[i], key)) return argv[i + 1];
    return fallback;
}

double arg_number(int argc, char **argv, const char *key, double fallback, double lo, double hi) {
    const char *text = arg_text(argc, argv, key, NULL);
    if (!text) return fallback;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(v) || v < lo || v > hi) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s: expected a number in [%g, %g], got '%s'", key, lo, hi, text);
        fail_json(msg);
    }
    return v;
}

uint64_t monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void fail_json(const char *what) {
    fprintf(stderr, "{\"level\":\"error\",\"component\":\"linkem-probe\",\"msg\":\"%s: %s\"}\n", what, errno ? strerror(errno) : "");
    exit(1);
}
