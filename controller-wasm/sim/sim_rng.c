#include "sim_rng.h"

#include "seeded_random.h"

uint64_t sim_rng_derive(uint64_t seed, uint64_t stream) {
    uint64_t state = seed ^ (stream * 0xD1B54A32D192ED03ull);
    cc_splitmix64_next(&state);
    return cc_splitmix64_next(&state);
}

void sim_rng_seed(sim_rng *rng, uint64_t seed, uint64_t stream) {
    cc_xoshiro256_seed(rng->s, sim_rng_derive(seed, stream));
}

uint64_t sim_rng_next(sim_rng *rng) { return cc_xoshiro256_next(rng->s); }

double sim_rng_unit(sim_rng *rng) { return cc_xoshiro256_unit(rng->s); }
