/* Every real-valued field of cc_telemetry, listed once for the checks that each is finite (the robustness test and
 * the cc-api fuzz target): a field added to cc.h is added here, and both checks cover it. */
#ifndef PCC_TEST_TELEMETRY_NUMBERS_H
#define PCC_TEST_TELEMETRY_NUMBERS_H

#include "pcc/cc.h"

#define TELEMETRY_NUMBER_COUNT 12

static inline void telemetry_numbers(const cc_telemetry *t, double out[TELEMETRY_NUMBER_COUNT]) {
    const double fields[TELEMETRY_NUMBER_COUNT] = {
        t->pacing_rate_bps,   t->cwnd_bytes,           t->mi_rate_bps,           t->last_mi_rate_bps,
        t->last_mi_utility,   t->last_mi_loss_rate,    t->last_mi_rtt_gradient,  t->last_mi_throughput_bps,
        t->gradient,          t->srtt_us,              t->min_rtt_us,            t->latest_rtt_us};
    for (int i = 0; i < TELEMETRY_NUMBER_COUNT; i++) out[i] = fields[i];
}

#endif /* PCC_TEST_TELEMETRY_NUMBERS_H */
