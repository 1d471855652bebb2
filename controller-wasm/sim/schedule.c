#include "schedule.h"

#include <math.h>

int sim_schedule_is_on(const pcc_sim_schedule *spec) { return spec->period_us > 0; }

int sim_schedule_check(const pcc_sim_schedule *spec, double lowest, double highest) {
    if (spec->period_us < 0) return -1;
    if (spec->period_us == 0) return 0;
    if (!isfinite(spec->min_value) || !isfinite(spec->max_value)) return -1;
    if (spec->min_value < lowest || spec->max_value > highest || spec->min_value > spec->max_value) return -1;
    return 0;
}

void sim_schedule_init(sim_schedule *schedule, const pcc_sim_schedule *spec, uint64_t seed, uint64_t stream,
                       double fixed_value) {
    schedule->spec = *spec;
    sim_rng_seed(&schedule->rng, seed, stream);
    schedule->value = fixed_value;
    schedule->next_draw_us = sim_schedule_is_on(spec) ? 0 : INT64_MAX;
}

int sim_schedule_advance(sim_schedule *schedule, int64_t now_us) {
    int changed = 0;
    while (schedule->next_draw_us <= now_us) {
        double u = sim_rng_unit(&schedule->rng);
        double value = schedule->spec.min_value + u * (schedule->spec.max_value - schedule->spec.min_value);
        if (value != schedule->value) changed = 1;
        schedule->value = value;
        schedule->next_draw_us += schedule->spec.period_us;
    }
    return changed;
}
