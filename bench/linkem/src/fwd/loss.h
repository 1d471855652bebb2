/* Independent random loss per direction, as mm-loss: each packet dropped with probability p. */
#ifndef LINKEM_LOSS_H
#define LINKEM_LOSS_H

#include <stdint.h>

typedef struct {
    double probability;
    uint64_t rng_state;
} loss_model;

void loss_init(loss_model *m, double probability, uint64_t seed);
int loss_should_drop(loss_model *m);

#endif
