/* CoDel (RFC 8289), as mahimahi's CODELPacketQueue: packets=/bytes= limits drop at the tail; at dequeue,
   packets that waited longer than target= for interval= are dropped at the control law's pace. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "queue.h"

/* RFC 8289 §4.2 (target) and §4.3 (interval) defaults */
#define CODEL_DEFAULT_TARGET_US 5000u
#define CODEL_DEFAULT_INTERVAL_US 100000u
/* §5.5: below one MTU of backlog the queue is not standing */
#define CODEL_MIN_BACKLOG_BYTES 1504u
/* Longest target= or interval= taken: an hour is far beyond any queue worth emulating. */
#define CODEL_MAX_MS 3600000ull

static void codel_set_defaults(queue_config *c) {
    c->codel.target_us = CODEL_DEFAULT_TARGET_US;
    c->codel.interval_us = CODEL_DEFAULT_INTERVAL_US;
}

static int codel_set_arg(queue_config *c, const char *key, uint64_t value, char *err, size_t err_len) {
    int is_target = !strcmp(key, "target");
    if (!is_target && strcmp(key, "interval")) return 0;
    /* Milliseconds are stored as microseconds: a larger value would wrap (found by the linkem-options fuzz target). */
    if (value > CODEL_MAX_MS) {
        snprintf(err, err_len, "codel %s must be at most %llu ms", key, (unsigned long long)CODEL_MAX_MS);
        return -1;
    }
    if (is_target) {
        c->codel.target_us = value * 1000;
        return 1;
    }
    if (value == 0) {
        snprintf(err, err_len, "codel interval must be > 0");
        return -1;
    }
    c->codel.interval_us = value * 1000;
    return 1;
}

static void codel_describe_args(const queue_config *c, char *buf, size_t len) {
    snprintf(buf, len, "target=%llu, interval=%llu", (unsigned long long)(c->codel.target_us / 1000),
             (unsigned long long)(c->codel.interval_us / 1000));
}

/* RFC 8289 §5.5 dodequeue: pop the head and decide whether CoDel may drop it. */
static packet *codel_pop(packet_queue *q, uint64_t now_us, int *ok_to_drop) {
    codel_state *s = &q->codel;
    *ok_to_drop = 0;
    packet *p = queue_pop_head(q);
    if (!p) {
        s->first_above_time_us = 0;
        return NULL;
    }
    uint64_t sojourn_us = now_us - p->link_arrival_us;
    if (sojourn_us < q->config.codel.target_us || q->fifo.bytes <= CODEL_MIN_BACKLOG_BYTES) {
        s->first_above_time_us = 0;
    } else if (s->first_above_time_us == 0) {
        s->first_above_time_us = now_us + q->config.codel.interval_us;
    } else if (now_us >= s->first_above_time_us) {
        *ok_to_drop = 1;
    }
    return p;
}

static uint64_t codel_control_law(const packet_queue *q, uint64_t t_us) {
    return t_us + (uint64_t)((double)q->config.codel.interval_us / sqrt((double)q->codel.drop_count));
}

/* RFC 8289 §5.6 dequeue */
static packet *codel_dequeue(packet_queue *q, uint64_t now_us, queue_drops *drops) {
    codel_state *s = &q->codel;
    int ok_to_drop;
    packet *p = codel_pop(q, now_us, &ok_to_drop);
    if (!p) {
        s->dropping = 0;
        return NULL;
    }
    if (s->dropping) {
        if (!ok_to_drop) {
            s->dropping = 0;
        } else {
            while (p && s->dropping && now_us >= s->drop_next_us) {
                queue_drop(drops, p);
                s->drop_count++;
                p = codel_pop(q, now_us, &ok_to_drop);
                if (!ok_to_drop) s->dropping = 0;
                else s->drop_next_us = codel_control_law(q, s->drop_next_us);
            }
        }
    } else if (ok_to_drop) {
        queue_drop(drops, p);
        p = codel_pop(q, now_us, &ok_to_drop);
        s->dropping = 1;
        uint32_t delta = s->drop_count - s->last_drop_count;
        if (delta > 1 && now_us - s->drop_next_us < 16 * q->config.codel.interval_us) s->drop_count = delta;
        else s->drop_count = 1;
        s->drop_next_us = codel_control_law(q, now_us);
        s->last_drop_count = s->drop_count;
    }
    return p;
}

const queue_discipline queue_codel = {
    .name = "codel",
    .limits = QUEUE_LIMITS_OPTIONAL,
    .set_defaults = codel_set_defaults,
    .set_arg = codel_set_arg,
    .describe_args = codel_describe_args,
    .enqueue = queue_enqueue_droptail,
    .dequeue = codel_dequeue,
};
