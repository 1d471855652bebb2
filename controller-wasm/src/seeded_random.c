#include "seeded_random.h"

uint64_t cc_splitmix64_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void cc_xoshiro256_seed(uint64_t state[4], uint64_t seed) {
    uint64_t expander = seed;
    for (int i = 0; i < 4; i++) state[i] = cc_splitmix64_next(&expander);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t cc_xoshiro256_next(uint64_t state[4]) {
    uint64_t *s = state;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double cc_xoshiro256_unit(uint64_t state[4]) {
    return (double)(cc_xoshiro256_next(state) >> 11) * 0x1.0p-53;
}
