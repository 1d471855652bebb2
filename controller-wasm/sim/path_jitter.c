#include "path_jitter.h"

#include <math.h>

#include "portable_math.h"

void sim_path_jitter_init(sim_path_jitter *jitter, double sd_us, double tau_us, uint64_t seed, uint64_t stream) {
    jitter->sd_us = sd_us;
    jitter->tau_us = tau_us;
    sim_rng_seed(&jitter->rng, seed, stream);
    jitter->started = 0;
    jitter->last_us = 0;
    jitter->value_us = 0.0;
}

/* A standard normal draw (Marsaglia's polar method: no trigonometry, and portable_math's log, so the native and
 * the WASM simulator draw the same numbers). */
static double standard_normal(sim_rng *rng) {
    for (;;) {
        double u = 2.0 * sim_rng_unit(rng) - 1.0;
        double v = 2.0 * sim_rng_unit(rng) - 1.0;
        double s = u * u + v * v;
        if (s > 0.0 && s < 1.0) return u * sqrt(-2.0 * pcc_log(s) / s);
    }
}

double sim_path_jitter_at(sim_path_jitter *jitter, int64_t now_us) {
    if (jitter->sd_us <= 0.0) return 0.0;
    if (!jitter->started) {
        /* Start in the stationary distribution, so the first second is no calmer than the rest. */
        jitter->value_us = jitter->sd_us * standard_normal(&jitter->rng);
        jitter->started = 1;
    } else if (now_us > jitter->last_us) {
        /* The exact OU transition over any gap keeps the variance sd² whatever the packet spacing. */
        double keep = pcc_exp(-(double)(now_us - jitter->last_us) / jitter->tau_us);
        jitter->value_us = keep * jitter->value_us + jitter->sd_us * sqrt(1.0 - keep * keep) * standard_normal(&jitter->rng);
    }
    jitter->last_us = now_us;
    return jitter->value_us;
}

/* Fitted by bench/published/2026-11-25/sim-real-noise/fit_noise.py to the real path's RTT above its minimum when
 * linkem held no queue (real_noise.py on the LTE runs of lte-abr-fix), read as the origin's telemetry reads it: the
 * latest ack's RTT every 100 ms, acks about every 2 ms. */
const sim_rtt_noise_params SIM_RTT_NOISE_REAL_PATH = {
    .median_us = 3000.0, .sigma = 1.0, .tail_share = 0.04, .tail_scale_us = 40000.0, .tail_index = 1.5,
    .hold_us = 4000.0, .cap_us = 100000.0,
};

void sim_rtt_noise_init(sim_rtt_noise *noise, const sim_rtt_noise_params *params, uint64_t seed, uint64_t stream) {
    noise->params = *params;
    sim_rng_seed(&noise->rng, seed, stream);
    noise->epoch = -1;
    noise->value_us = 0.0;
}

double sim_rtt_noise_at(sim_rtt_noise *noise, int64_t now_us) {
    const sim_rtt_noise_params *p = &noise->params;
    if (p->median_us <= 0.0) return 0.0;
    int64_t epoch = p->hold_us >= 1.0 ? now_us / (int64_t)p->hold_us : now_us;
    if (epoch != noise->epoch) {
        noise->epoch = epoch;
        double value;
        if (p->tail_share > 0.0 && sim_rng_unit(&noise->rng) < p->tail_share) {
            /* Pareto by inversion; 1 - u is in (0, 1]. */
            value = p->tail_scale_us * pcc_exp(-pcc_log(1.0 - sim_rng_unit(&noise->rng)) / p->tail_index);
        } else {
            value = p->median_us * pcc_exp(p->sigma * standard_normal(&noise->rng));
        }
        noise->value_us = value < p->cap_us ? value : p->cap_us;
    }
    return noise->value_us;
}
