/* The project's one seeded PRNG: xoshiro256** whose 4-word state is expanded from a 64-bit seed by
 * splitmix64 (Blackman & Vigna). The controller framework (per-controller stream) and the simulator (one stream
 * per random process) both draw from it, so a seed means the same numbers natively and in WebAssembly. */
#ifndef PCC_SEEDED_RANDOM_H
#define PCC_SEEDED_RANDOM_H

#include <stdint.h>

/* Advances a splitmix64 state and returns its next output. */
uint64_t cc_splitmix64_next(uint64_t *state);
/* Fills xoshiro256** state from `seed`. */
void cc_xoshiro256_seed(uint64_t state[4], uint64_t seed);
uint64_t cc_xoshiro256_next(uint64_t state[4]);
/* Uniform in [0, 1): 53 random bits, exactly representable, never 1.0. */
double cc_xoshiro256_unit(uint64_t state[4]);

#endif
