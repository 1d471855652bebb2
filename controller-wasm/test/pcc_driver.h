/*
 * A scripted path for PCC state-machine tests: packets leave at the controller's pacing rate, each is
 * acknowledged (or reported lost) a fixed RTT later, and a per-packet predicate decides losses. With a
 * custom utility the test chooses what every monitor interval is worth, so each transition of the
 * state machine can be provoked deliberately; the utility callback also records the MIs it sees.
 */
#ifndef PCC_TEST_DRIVER_H
#define PCC_TEST_DRIVER_H

#include <stdint.h>
#include <stdlib.h>

#include "app_state.h"
#include "pcc/cc.h"

#define DRIVER_RING (1u << 18)

typedef struct driver_pending {
    uint64_t pn;
    int64_t due_us;
    int lost;
} driver_pending;

typedef struct driver {
    cc_controller *cc;
    int64_t now_us;
    int64_t rtt_us;
    int64_t next_send_us;
    int64_t next_tick_us;
    uint64_t next_pn;
    uint32_t packet_bytes;
    int feedback_enabled;                 /* 0: the path goes silent (no acks, no losses) */
    double app_rate_bytes_per_s;          /* > 0: the application offers no more than this */
    /* > 0: the application has data for app_on_us, then none for app_off_us (video segments); the driver
     * calls cc_on_app_limited when the data runs out, as a sender does */
    int64_t app_on_us, app_off_us;
    /* returns 1 to lose the packet; rate is the pacing rate at send, bytes/s */
    int (*lose)(uint64_t pn, double rate_bytes_per_s, void *user);
    void *lose_user;
    driver_pending *pending;
    size_t head, count;
} driver;

static inline void driver_init(driver *d, cc_controller *cc, int64_t rtt_us) {
    d->cc = cc;
    d->now_us = 0;
    d->rtt_us = rtt_us;
    d->next_send_us = 0;
    d->next_tick_us = 0;
    d->next_pn = 0;
    d->packet_bytes = 1200;
    d->feedback_enabled = 1;
    d->app_rate_bytes_per_s = 0;
    d->app_on_us = d->app_off_us = 0;
    d->lose = NULL;
    d->lose_user = NULL;
    d->pending = calloc(DRIVER_RING, sizeof *d->pending);
    if (d->pending == NULL) abort();
    d->head = d->count = 0;
}

static inline void driver_release(driver *d) { free(d->pending); }

/* Runs until until_us: sends, feedback and a 1 ms tick, in time order. */
static inline void driver_run(driver *d, int64_t until_us) {
    while (d->now_us < until_us) {
        int64_t next = until_us;
        if (d->next_send_us < next) next = d->next_send_us;
        if (d->next_tick_us < next) next = d->next_tick_us;
        if (d->count > 0 && d->pending[d->head].due_us < next) next = d->pending[d->head].due_us;
        d->now_us = next;
        if (d->now_us >= until_us) break;
        if (d->count > 0 && d->pending[d->head].due_us <= d->now_us) {
            driver_pending p = d->pending[d->head];
            d->head = (d->head + 1) % DRIVER_RING;
            d->count--;
            if (d->feedback_enabled) {
                if (p.lost) cc_on_loss(d->cc, p.pn, d->now_us);
                else cc_on_ack(d->cc, p.pn, d->rtt_us, 0, d->now_us);
            }
        } else if (d->next_send_us <= d->now_us) {
            if (d->app_on_us > 0 && d->app_off_us > 0) {
                int64_t phase_us = d->now_us % (d->app_on_us + d->app_off_us);
                if (phase_us >= d->app_on_us) {
                    mark_app_limited(d->cc, d->now_us);
                    d->next_send_us = d->now_us - phase_us + d->app_on_us + d->app_off_us;
                    continue;
                }
            }
            double rate = cc_pacing_rate_bytes_per_s(d->cc);
            uint64_t pn = d->next_pn++;
            cc_on_packet_sent(d->cc, pn, d->packet_bytes, d->now_us);
            if (d->count == DRIVER_RING) abort();
            driver_pending p = {pn, d->now_us + d->rtt_us, d->lose != NULL && d->lose(pn, rate, d->lose_user)};
            d->pending[(d->head + d->count) % DRIVER_RING] = p;
            d->count++;
            if (d->app_rate_bytes_per_s > 0 && d->app_rate_bytes_per_s < rate) rate = d->app_rate_bytes_per_s;
            int64_t gap_us = (int64_t)((double)d->packet_bytes * 1e6 / rate);
            d->next_send_us = d->now_us + (gap_us > 0 ? gap_us : 1);
        } else {
            cc_on_tick(d->cc, d->now_us);
            d->next_tick_us = d->now_us + 1000;
        }
    }
}

/* What the custom utility saw, in order. */
#define RECORD_MAX 4096
typedef struct mi_record {
    double target_rate_bps[RECORD_MAX];
    double loss_rate[RECORD_MAX];
    size_t count;
} mi_record;

static inline void record_mi(mi_record *r, const cc_mi_stats *mi) {
    if (r->count < RECORD_MAX) {
        r->target_rate_bps[r->count] = mi->target_rate_bps;
        r->loss_rate[r->count] = mi->loss_rate;
        r->count++;
    }
}

#endif /* PCC_TEST_DRIVER_H */
