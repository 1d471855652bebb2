#include "sim_rng.h"

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t sim_rng_derive(uint64_t seed, uint64_t stream) {
    uint64_t state = seed ^ (stream * 0xD1B54A32D192ED03ull);
    splitmix64(&state);
    return splitmix64(&state);
}

void sim_rng_seed(sim_rng *rng, uint64_t seed, uint64_t stream) {
    uint64_t state = sim_rng_derive(seed, stream);
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&state);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t sim_rng_next(sim_rng *rng) {
    uint64_t *s = rng->s;
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

double sim_rng_unit(sim_rng *rng) {
    /* 53 random bits: exactly representable, never 1.0. */
    return (double)(sim_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}
