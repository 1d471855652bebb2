/* A custom utility (cc_set_utility) that answers NaN, +infinity, -infinity or a plain value by turns, for the
 * robustness test and the cc-api fuzz target: the controller must stay finite and within its bounds whatever the
 * application's utility returns (cc.h, "Conventions"). */
#ifndef PCC_TEST_HOSTILE_UTILITY_H
#define PCC_TEST_HOSTILE_UTILITY_H

#include <math.h>

#include "pcc/cc.h"

static inline double hostile_utility(const cc_mi_stats *mi, void *user) {
    (void)user;
    switch (mi->packets_sent % 4) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    default: return mi->throughput_bps;
    }
}

#endif /* PCC_TEST_HOSTILE_UTILITY_H */
