#include "loss_recovery.h"

#include <stdlib.h>
#include <string.h>

void sim_loss_recovery_init(sim_loss_recovery *recovery) {
    memset(recovery, 0, sizeof *recovery);
    recovery->loss_time_us = INT64_MAX;
}

void sim_loss_recovery_free(sim_loss_recovery *recovery) {
    free(recovery->ring);
    sim_loss_recovery_init(recovery);
}

static sim_sent_record *record_of(sim_loss_recovery *recovery, uint64_t pn) {
    return &recovery->ring[(recovery->head + (size_t)(pn - recovery->base_pn)) % recovery->capacity];
}

static int grow(sim_loss_recovery *recovery) {
    size_t capacity = recovery->capacity ? recovery->capacity * 2 : 1024;
    sim_sent_record *ring = malloc(capacity * sizeof *ring);
    if (!ring) return -1;
    for (size_t i = 0; i < recovery->count; i++) {
        ring[i] = recovery->ring[(recovery->head + i) % recovery->capacity];
    }
    free(recovery->ring);
    recovery->ring = ring;
    recovery->head = 0;
    recovery->capacity = capacity;
    return 0;
}

int sim_loss_recovery_on_sent(sim_loss_recovery *recovery, uint32_t bytes, int64_t now_us, uint64_t *pn) {
    if (recovery->count == recovery->capacity && grow(recovery) != 0) return -1;
    *pn = recovery->next_pn++;
    sim_sent_record *record = &recovery->ring[(recovery->head + recovery->count) % recovery->capacity];
    recovery->count++;
    record->sent_us = now_us;
    record->bytes = bytes;
    record->fate = SIM_FATE_IN_FLIGHT;
    recovery->bytes_in_flight += bytes;
    recovery->last_sent_us = now_us;
    return 0;
}

/* Forgets resolved packets at the front: only in-flight ones need remembering. */
static void trim(sim_loss_recovery *recovery) {
    while (recovery->count > 0 && recovery->ring[recovery->head].fate != SIM_FATE_IN_FLIGHT) {
        recovery->head = (recovery->head + 1) % recovery->capacity;
        recovery->count--;
        recovery->base_pn++;
    }
}

/* RFC 9002 §5.3, without ack delay (the simulated receiver acks at once). */
static void update_rtt(sim_rtt_estimate *rtt, int64_t sample_us) {
    rtt->latest_us = sample_us;
    if (!rtt->has_sample) {
        rtt->has_sample = 1;
        rtt->min_us = sample_us;
        rtt->smoothed_us = sample_us;
        rtt->variation_us = sample_us / 2;
        return;
    }
    if (sample_us < rtt->min_us) rtt->min_us = sample_us;
    int64_t deviation = rtt->smoothed_us > sample_us ? rtt->smoothed_us - sample_us : sample_us - rtt->smoothed_us;
    rtt->variation_us = (3 * rtt->variation_us + deviation) / 4;
    rtt->smoothed_us = (7 * rtt->smoothed_us + sample_us) / 8;
}

sim_ack_result sim_loss_recovery_on_ack(sim_loss_recovery *recovery, uint64_t pn, int64_t now_us, int64_t *rtt_us) {
    if (pn < recovery->base_pn || pn >= recovery->next_pn) return SIM_ACK_IGNORED;
    sim_sent_record *record = record_of(recovery, pn);
    if (record->fate == SIM_FATE_ACKED) return SIM_ACK_IGNORED;
    if (record->fate == SIM_FATE_LOST) {
        record->fate = SIM_FATE_ACKED;
        trim(recovery);
        return SIM_ACK_SPURIOUS;
    }
    record->fate = SIM_FATE_ACKED;
    recovery->bytes_in_flight -= record->bytes;
    *rtt_us = now_us - record->sent_us;
    if (!recovery->has_largest_acked || pn > recovery->largest_acked) {
        recovery->has_largest_acked = 1;
        recovery->largest_acked = pn;
        update_rtt(&recovery->rtt, *rtt_us > 0 ? *rtt_us : 1);
    }
    recovery->pto_count = 0;
    trim(recovery);
    return SIM_ACK_NEW;
}

static int64_t loss_delay_us(const sim_rtt_estimate *rtt) {
    int64_t base = rtt->has_sample ? (rtt->smoothed_us > rtt->latest_us ? rtt->smoothed_us : rtt->latest_us)
                                   : SIM_INITIAL_RTT_US;
    int64_t delay = base * SIM_TIME_THRESHOLD_NUMERATOR / SIM_TIME_THRESHOLD_DENOMINATOR;
    return delay > SIM_TIMER_GRANULARITY_US ? delay : SIM_TIMER_GRANULARITY_US;
}

size_t sim_loss_recovery_detect(sim_loss_recovery *recovery, int64_t now_us, sim_lost_fn lost, void *context) {
    recovery->loss_time_us = INT64_MAX;
    if (!recovery->has_largest_acked) return 0;
    int64_t delay_us = loss_delay_us(&recovery->rtt);
    int64_t lost_if_sent_before_us = now_us - delay_us;
    size_t declared = 0;
    if (recovery->scan_pn < recovery->base_pn) recovery->scan_pn = recovery->base_pn;
    int scan_blocked = 0;
    for (uint64_t pn = recovery->scan_pn; pn < recovery->largest_acked; pn++) {
        sim_sent_record *record = record_of(recovery, pn);
        if (record->fate == SIM_FATE_IN_FLIGHT) {
            if (record->sent_us <= lost_if_sent_before_us || recovery->largest_acked >= pn + SIM_PACKET_THRESHOLD) {
                record->fate = SIM_FATE_LOST;
                recovery->bytes_in_flight -= record->bytes;
                declared++;
                lost(context, pn, record->bytes);
            } else {
                int64_t expiry = record->sent_us + delay_us;
                if (expiry < recovery->loss_time_us) recovery->loss_time_us = expiry;
                scan_blocked = 1;
            }
        }
        if (!scan_blocked) recovery->scan_pn = pn + 1;
    }
    trim(recovery);
    return declared;
}

int64_t sim_loss_recovery_timer_us(const sim_loss_recovery *recovery) {
    if (recovery->loss_time_us != INT64_MAX) return recovery->loss_time_us;
    if (recovery->bytes_in_flight == 0) return INT64_MAX;
    const sim_rtt_estimate *rtt = &recovery->rtt;
    int64_t smoothed = rtt->has_sample ? rtt->smoothed_us : SIM_INITIAL_RTT_US;
    int64_t variation = rtt->has_sample ? rtt->variation_us : SIM_INITIAL_RTT_US / 2;
    int64_t four_var = 4 * variation > SIM_TIMER_GRANULARITY_US ? 4 * variation : SIM_TIMER_GRANULARITY_US;
    uint32_t backoff = recovery->pto_count < 20 ? recovery->pto_count : 20;
    return recovery->last_sent_us + ((smoothed + four_var) << backoff);
}

int sim_loss_recovery_on_timer(sim_loss_recovery *recovery, int64_t now_us, sim_lost_fn lost, void *context) {
    if (recovery->loss_time_us != INT64_MAX) {
        if (recovery->loss_time_us <= now_us) sim_loss_recovery_detect(recovery, now_us, lost, context);
        return 0;
    }
    if (sim_loss_recovery_timer_us(recovery) > now_us) return 0;
    recovery->pto_count++;
    return 2;  /* RFC 9002 §6.2.4: up to two probe packets */
}
