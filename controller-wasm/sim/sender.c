#include "sender.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_DEFAULT_PACKET_BYTES 1500u

/* Applies "name=value,name=value". */
static int apply_params(cc_controller *cc, const char *text, char *error, size_t error_bytes) {
    if (!text) return 0;
    const char *cursor = text;
    while (*cursor) {
        const char *end = strchr(cursor, ',');
        size_t length = end ? (size_t)(end - cursor) : strlen(cursor);
        char item[128];
        if (length == 0 || length >= sizeof item) {
            snprintf(error, error_bytes, "bad controller parameter list \"%s\"", text);
            return -1;
        }
        memcpy(item, cursor, length);
        item[length] = '\0';
        char *equals = strchr(item, '=');
        if (!equals || equals == item) {
            snprintf(error, error_bytes, "controller parameter \"%s\" is not name=value", item);
            return -1;
        }
        *equals = '\0';
        errno = 0;
        char *number_end = NULL;
        double value = strtod(equals + 1, &number_end);
        if (errno != 0 || number_end == equals + 1 || *number_end != '\0' || !isfinite(value)) {
            snprintf(error, error_bytes, "controller parameter %s: \"%s\" is not a number", item, equals + 1);
            return -1;
        }
        int status = cc_param_set(cc, item, value);
        if (status == CC_ERR_UNKNOWN) {
            snprintf(error, error_bytes, "controller %s has no parameter \"%s\"", cc_algorithm(cc), item);
            return -1;
        }
        if (status != CC_OK) {
            snprintf(error, error_bytes, "controller parameter %s=%g is out of range", item, value);
            return -1;
        }
        cursor += length;
        if (*cursor == ',') cursor++;
    }
    return 0;
}

int sim_sender_init(sim_sender *sender, const pcc_sim_flow_config *flow, uint64_t seed, char *error,
                    size_t error_bytes) {
    memset(sender, 0, sizeof *sender);
    sim_loss_recovery_init(&sender->recovery);
    sender->packet_bytes = flow->packet_bytes ? flow->packet_bytes : SIM_DEFAULT_PACKET_BYTES;
    sender->start_us = flow->start_us;
    sender->cc = cc_create(flow->cc, seed, flow->start_us);
    if (!sender->cc) {
        snprintf(error, error_bytes, "unknown congestion controller \"%s\"", flow->cc);
        return -1;
    }
    if (cc_param_set(sender->cc, "mss_bytes", sender->packet_bytes) != CC_OK ||
        apply_params(sender->cc, flow->cc_params, error, error_bytes) != 0) {
        if (error[0] == '\0') snprintf(error, error_bytes, "controller rejected mss_bytes=%u", sender->packet_bytes);
        cc_destroy(sender->cc);
        sender->cc = NULL;
        return -1;
    }
    return 0;
}

void sim_sender_free(sim_sender *sender) {
    if (sender->cc) cc_destroy(sender->cc);
    sender->cc = NULL;
    sim_loss_recovery_free(&sender->recovery);
}

void sim_sender_set_send_jitter(sim_sender *sender, int64_t jitter_us, uint64_t seed, uint64_t stream) {
    sender->send_jitter_us = jitter_us;  /* pcc_sim_run validated it: >= 0 */
    sim_rng_seed(&sender->jitter_rng, seed, stream);
    sender->next_jitter_us = (double)sender->send_jitter_us * sim_rng_unit(&sender->jitter_rng);
}

static int may_send(const sim_sender *sender) {
    if (sender->data_limited && !sender->has_data) return 0;
    if (sender->probe_credit > 0 || sender->recovery.bytes_in_flight == 0) return 1;
    double cwnd = cc_cwnd_bytes(sender->cc);
    return (double)(sender->recovery.bytes_in_flight + sender->packet_bytes) <= cwnd;
}

static double next_send_exact_us(const sim_sender *sender) {
    if (!sender->has_sent) return (double)sender->start_us;
    double rate = cc_pacing_rate_bytes_per_s(sender->cc);
    if (!(rate > 1.0)) rate = 1.0;  /* the library promises a positive rate; stay finite regardless */
    return sender->last_send_exact_us + (double)sender->packet_bytes * 1e6 / rate;
}

/* When the pacer releases the next packet: its slot on the schedule plus this packet's lateness. */
static double next_release_us(const sim_sender *sender) {
    return next_send_exact_us(sender) + sender->next_jitter_us;
}

int64_t sim_sender_next_send_us(const sim_sender *sender, int64_t now_us) {
    if (!may_send(sender)) return INT64_MAX;
    double release_us = next_release_us(sender);
    if (release_us >= 9e18) return INT64_MAX - 1;
    int64_t at = (int64_t)ceil(release_us - 1e-6);
    return at < now_us ? now_us : at;
}

static void on_lost(void *context, uint64_t pn, uint32_t bytes) {
    (void)bytes;
    sim_sender *sender = context;
    sender->packets_declared_lost++;
    cc_on_loss(sender->cc, pn, sender->event_now_us);
    if (sender->on_declared_lost) sender->on_declared_lost(sender->lost_context, pn);
}

int sim_sender_send(sim_sender *sender, int64_t now_us, sim_packet *packet) {
    if (now_us < sender->start_us || !may_send(sender)) return 0;
    double exact = next_send_exact_us(sender);
    double release_us = exact + sender->next_jitter_us;  /* next_release_us without asking the rate twice */
    if ((int64_t)ceil(release_us - 1e-6) > now_us) return 0;  /* too early for the pacer */
    uint64_t pn;
    if (sim_loss_recovery_on_sent(&sender->recovery, sender->packet_bytes, now_us, &pn) != 0) return -1;
    /* Keep the fractional schedule unless we are later than the jitter allows (window-limited or just
     * started): then pacing restarts from now rather than bursting to catch up. A packet queued behind
     * a late one (its own lateness drawn smaller) is not late on the schedule. */
    double on_time_until_us = exact + (double)sender->send_jitter_us;
    sender->last_send_exact_us = (sender->has_sent && on_time_until_us > (double)now_us - 1.0) ? exact : (double)now_us;
    sender->has_sent = 1;
    if (sender->send_jitter_us > 0) sender->next_jitter_us = (double)sender->send_jitter_us * sim_rng_unit(&sender->jitter_rng);
    if (sender->probe_credit > 0) sender->probe_credit--;
    cc_on_packet_sent(sender->cc, pn, sender->packet_bytes, now_us);
    packet->pn = pn;
    packet->bytes = sender->packet_bytes;
    packet->sent_us = now_us;
    return 1;
}

int sim_sender_on_ack(sim_sender *sender, uint64_t pn, int64_t recv_us, int64_t now_us, int64_t *rtt_us) {
    sender->event_now_us = now_us;
    sim_ack_result result = sim_loss_recovery_on_ack(&sender->recovery, pn, now_us, rtt_us);
    if (result == SIM_ACK_SPURIOUS) sender->spurious_losses++;
    if (result != SIM_ACK_NEW) return 0;
    cc_on_ack(sender->cc, pn, *rtt_us, recv_us, now_us);
    sim_loss_recovery_detect(&sender->recovery, now_us, on_lost, sender);
    return 1;
}

int64_t sim_sender_timer_us(const sim_sender *sender) { return sim_loss_recovery_timer_us(&sender->recovery); }

void sim_sender_on_timer(sim_sender *sender, int64_t now_us) {
    sender->event_now_us = now_us;
    int probes = sim_loss_recovery_on_timer(&sender->recovery, now_us, on_lost, sender);
    if (probes > 0) sender->probe_credit = probes;
}

void sim_sender_on_tick(sim_sender *sender, int64_t now_us) { cc_on_tick(sender->cc, now_us); }
