/* Seeded pseudo-random numbers for the simulator (src/seeded_random.h, the controller's PRNG). Each random
 * process (loss, each schedule, each controller) owns its own stream, so adding draws to one never shifts
 * another. */
#ifndef PCC_SIM_RNG_H
#define PCC_SIM_RNG_H

#include <stdint.h>

typedef struct sim_rng {
    uint64_t s[4];
} sim_rng;

/* Stream `stream` of seed `seed`: distinct streams are independent. */
void sim_rng_seed(sim_rng *rng, uint64_t seed, uint64_t stream);
uint64_t sim_rng_next(sim_rng *rng);
/* Uniform in [0, 1). */
double sim_rng_unit(sim_rng *rng);
/* A 64-bit value derived from seed and stream (for seeding controllers). */
uint64_t sim_rng_derive(uint64_t seed, uint64_t stream);

#endif
