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
