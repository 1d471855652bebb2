/* The emulator's one time base: CLOCK_MONOTONIC in microseconds (the same clock as
   Node's process.hrtime, so tests compare timestamps across processes). */
#ifndef LINKEM_CLOCK_H
#define LINKEM_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t clock_now_us(void) { return clock_now_ns() / 1000u; }

#endif
