/*
 * allegro-latency: PCC Allegro with the latency-aware utility of thesis §3.4.4 ("Allegro-Latency", a comparison
 * scheme in Figs 4.8-4.10 and the controller behind Figs 5.1-5.2, §5.2):
 *
 *   u = (T·Sigmoid_α(L - loss_cutoff)·RTT_{n-1}/RTT_n - x·L) / RTT_n
 *
 * T = x(1 - L) and Sigmoid_α as Allegro's own utility (§2.3, allegro.h); RTT_{n-1} and RTT_n the average RTTs of
 * the previous and the current MI (in the order results come in), in seconds. It values low latency (÷ RTT_n)
 * and penalises a rising one (RTT_{n-1}/RTT_n < 1). Allegro's state machine is unchanged (ALLEGRO_HOOKS). As the
 * thesis notes (§4.1), this utility has no convergence guarantee; it is here to reproduce the seed's experiments.
 */
#include "allegro.h"

static const cc_param_desc allegro_latency_params[ALLEGRO_P_COUNT] = {ALLEGRO_PARAM_ROWS};

typedef struct allegro_latency_state {
    allegro_state allegro;          /* first: Allegro's hooks and the PCC loop receive this state */
    double previous_rtt_s;          /* RTT_{n-1}: the average RTT of the last MI with RTT samples, 0 before one */
} allegro_latency_state;

double allegro_latency_utility(const cc_mi_stats *mi, double previous_rtt_s, double sigmoid_alpha, double loss_cutoff) {
    double x = mi->send_rate_bps * 1e-6;
    if (!(x > 0)) return 0.0;
    double rtt_s = (mi->avg_rtt_us > 0 ? mi->avg_rtt_us : mi->min_rtt_us) * 1e-6;
    if (!(rtt_s > 0)) return allegro_utility(mi, sigmoid_alpha, loss_cutoff); /* no RTT known yet: §2.3's */
    double ratio = previous_rtt_s > 0 ? previous_rtt_s / rtt_s : 1.0;
    double loss = mi->loss_rate;
    if (!(loss >= 0)) loss = 0;
    if (loss > 1) loss = 1;
    /* allegro_utility is T·Sigmoid - x·L: its first term is that plus x·L */
    double throughput_term = allegro_utility(mi, sigmoid_alpha, loss_cutoff) + x * loss;
    return (throughput_term * ratio - x * loss) / rtt_s;
}

static double allegro_latency_mi_utility(void *state, const pcc_mi_result *r, double *noise_var) {
    (void)noise_var;
    allegro_latency_state *s = state;
    const double *params = s->allegro.loop.ctx->params;
    double u = allegro_latency_utility(&r->stats, s->previous_rtt_s, params[ALLEGRO_P_SIGMOID_ALPHA], params[ALLEGRO_P_LOSS_CUTOFF]);
    if (r->stats.avg_rtt_us > 0) s->previous_rtt_s = r->stats.avg_rtt_us * 1e-6;
    return u;
}

static const pcc_hooks allegro_latency_hooks = ALLEGRO_HOOKS(allegro_latency_mi_utility);

static void allegro_latency_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    allegro_init_with_hooks(state, ctx, &allegro_latency_hooks);
}

const cc_ops cc_ops_allegro_latency = {
    .name = "allegro-latency",
    .description = "PCC Allegro with the latency-aware utility (thesis §3.4.4; Allegro-Latency of Figs 4.8-4.10 and 5.1-5.2)",
    .state_size = sizeof(allegro_latency_state),
    .params = allegro_latency_params,
    .param_count = ALLEGRO_P_COUNT,
    .delivery_rate_unused = 0, /* the app-limited rule reads it */
    .init = allegro_latency_init,
    PCC_LOOP_OPS,
};
