/* Seeded pseudo-random numbers (splitmix64): reproducible loss and delay patterns. */
#ifndef LINKEM_RNG_H
#define LINKEM_RNG_H

#include <stdint.h>

static inline uint64_t splitmix64_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 bits of precision. */
static inline double rng_uniform(uint64_t *state) {
    return (double)(splitmix64_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
