/* A network parameter that is redrawn uniformly in [min, max] every period (thesis §4.5.1, "Swift reaction
 * to changing networks": RTT, bandwidth and loss each redrawn every 5 s). Seeded; draws happen at
 * t = 0, period, 2·period, ... */
#ifndef PCC_SIM_SCHEDULE_H
#define PCC_SIM_SCHEDULE_H

#include <stdint.h>

#include "pcc_sim.h"
#include "sim_rng.h"

typedef struct sim_schedule {
    pcc_sim_schedule spec;
    sim_rng rng;
    double value;
    int64_t next_draw_us;   /* INT64_MAX when off */
} sim_schedule;

int sim_schedule_is_on(const pcc_sim_schedule *spec);
/* Validates spec; 0 when usable (or off), -1 otherwise. */
int sim_schedule_check(const pcc_sim_schedule *spec, double lowest, double highest);
void sim_schedule_init(sim_schedule *schedule, const pcc_sim_schedule *spec, uint64_t seed, uint64_t stream,
                       double fixed_value);
/* Draws every value due at or before now_us; returns 1 when the value changed. */
int sim_schedule_advance(sim_schedule *schedule, int64_t now_us);

#endif
