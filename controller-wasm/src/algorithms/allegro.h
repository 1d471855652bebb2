/* PCC Allegro's utility function, exposed for unit tests (the algorithm itself is only an ops table). */
#ifndef PCC_ALLEGRO_H
#define PCC_ALLEGRO_H

#include "../cc_algorithm.h"

/* u = T·Sigmoid_α(L - loss_cutoff) - x·L with T = x(1 - L), Sigmoid_α(y) = 1/(1 + e^(αy)),
 * x the send rate in Mbit/s (thesis §2.3). */
double allegro_utility(const cc_mi_stats *mi, double sigmoid_alpha, double loss_cutoff);

#endif /* PCC_ALLEGRO_H */
