#include "loss.h"

#include "rng.h"

void loss_init(loss_model *m, double probability, uint64_t seed) {
    m->probability = probability;
    m->rng_state = seed;
}

int loss_should_drop(loss_model *m) {
    if (m->probability <= 0.0) return 0;
    return rng_uniform(&m->rng_state) < m->probability;
}
