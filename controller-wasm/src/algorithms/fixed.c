/* fixed: a constant pacing rate and no window. For tests, baselines and pacer calibration. */
#include "../cc_algorithm.h"

enum { PARAM_RATE_BPS, PARAM_COUNT };

static const cc_param_desc fixed_params[PARAM_COUNT] = {
    {"rate_bps", 10e6, 1e3, 1e12, "the constant pacing rate, bits/s (still clamped to [min_rate_bps, max_rate_bps])"},
};

typedef struct fixed_state {
    const cc_context *ctx;
} fixed_state;

static void fixed_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    ((fixed_state *)state)->ctx = ctx;
}

static void fixed_on_packet_sent(void *state, const cc_sent_packet *packet) {
    (void)state;
    (void)packet;
}

static void fixed_on_ack(void *state, const cc_ack_event *event) {
    (void)state;
    (void)event;
}

static void fixed_on_loss(void *state, const cc_loss_event *event) {
    (void)state;
    (void)event;
}

static double fixed_pacing_rate(const void *state) {
    return ((const fixed_state *)state)->ctx->params[PARAM_RATE_BPS] / 8.0;
}

static double fixed_cwnd(const void *state) {
    (void)state;
    return CC_CWND_UNLIMITED_BYTES;
}

static void fixed_get_telemetry(const void *state, cc_telemetry *out) {
    out->state = "fixed";
    out->mi_rate_bps = fixed_pacing_rate(state) * 8.0;
}

const cc_ops cc_ops_fixed = {
    .name = "fixed",
    .description = "constant pacing rate, no window",
    .state_size = sizeof(fixed_state),
    .params = fixed_params,
    .param_count = PARAM_COUNT,
    .accepts_custom_utility = 0,
    .delivery_rate_unused = 1,
    .init = fixed_init,
    .on_packet_sent = fixed_on_packet_sent,
    .on_ack = fixed_on_ack,
    .on_loss = fixed_on_loss,
    .pacing_rate_bytes_per_s = fixed_pacing_rate,
    .cwnd_bytes = fixed_cwnd,
    .get_telemetry = fixed_get_telemetry,
};
