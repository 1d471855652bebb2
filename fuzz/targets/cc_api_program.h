/*
 * The cc-api fuzz targets' shared program (cc_api.c: short programs, many executions; cc_api_long.c: long ones,
 * for the hold invariant): the C controller ABI (controller-wasm/include/pcc/cc.h) for every registered algorithm.
 * The input is a program: its first byte picks the algorithm, the next two the seed, then each byte an event
 * with its arguments from the bytes after it: sends of any size (0 and 65535 included), acks and losses of
 * packets in flight, unknown and duplicate ones, RTT samples from absurd to none, receiver timestamps, ticks,
 * the clock jumping back and far forward, app states (NaN, negative, out-of-domain app_limited), parameter
 * sets in and out of range, a hostile utility, and stretches of traffic over a bottleneck (the tests' fixture,
 * test/bottleneck_link.h) with the link's rate, RTT, buffer and ack timing from the input. Both targets read the
 * same format, so an input found by one replays in the other; they differ only in how much traffic one input may
 * ask for (program_limits).
 * Checked after every event, besides the sanitizers (cc.h's "Conventions"):
 *  - every output is finite; the pacing rate stays within [min_rate_bps, max_rate_bps], and so does every
 *    finished MI's target rate; the window is within [mss, CC_CWND_UNLIMITED_BYTES];
 *  - cc_param_set takes exactly the finite values within the parameter's documented range (and keeps
 *    min_rate_bps <= max_rate_bps), and cc_param_get returns what was set;
 *  - no state is held for more than 1,000 MIs while its inputs change: with the built-in utility, a PCC
 *    algorithm does not keep one target rate (other than a rate bound) for over 1,000 consecutive MIs (not
 *    counting app-limited ones) whose measured loss, throughput or RTT changed (a controller stuck there no
 *    longer listens to the network). Only the long target's traffic budget reaches that many MIs.
 */
#ifndef PCC_FUZZ_CC_API_PROGRAM_H
#define PCC_FUZZ_CC_API_PROGRAM_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bottleneck_link.h"
#include "hostile_utility.h"
#include "pcc/cc.h"
#include "telemetry_numbers.h"

/* The invariant's bound, from the brief: one rate held this long while the network changes is a stuck loop. */
#define MAX_HELD_MIS 1000
/* The fixture's event rings hold 65,536 entries: a stretch stops before they could fill. */
#define LINK_PENDING_LIMIT 60000u
#define RING_PACKETS 4096u
#define MAX_SLICE_US 2000

/* How much traffic one input may ask for, all its traffic stretches together (each target sets its own): what an
 * execution costs is almost all the fixture's packets and ticks. */
typedef struct {
    uint64_t link_send_budget;   /* packets the fixture sends */
    int64_t link_time_budget_us; /* simulated time the stretches span (the fixture ticks the controller every 1 ms) */
} program_limits;

typedef struct {
    const uint8_t *data;
    size_t size, pos;
} reader;

static uint8_t u8(reader *r) { return r->pos < r->size ? r->data[r->pos++] : 0; }
static uint16_t u16(reader *r) { return (uint16_t)(u8(r) | (u8(r) << 8)); }
static uint32_t u32(reader *r) { return (uint32_t)u16(r) | ((uint32_t)u16(r) << 16); }
static uint64_t u64(reader *r) { return (uint64_t)u32(r) | ((uint64_t)u32(r) << 32); }

typedef struct {
    uint64_t pn;
    uint32_t bytes;
} sent_packet;

typedef struct {
    cc_controller *cc;
    const char *algorithm;
    int64_t now_us;
    uint64_t next_pn;
    sent_packet ring[RING_PACKETS];
    size_t ring_count;
    int custom_utility;
    const program_limits *limits;
    bottleneck_link *link;
    uint64_t link_sends;
    int64_t link_time_us;
    uint64_t bounds_set_at_pn; /* next_pn when min_rate_bps or max_rate_bps last changed */
    /* The bounds the outputs are checked against, as set: read after each cc_param_set (and checked unchanged
     * before the next one and at the end), since looking them up by name for every check was a fifth of an
     * execution. */
    double min_rate_bps, max_rate_bps, mss_bytes;
    /* MI observer: the current run of MIs at one target rate */
    double held_rate_bps;
    uint64_t held_mis;
    cc_mi_stats held_first;
    int held_inputs_changed;
    uint64_t mis_seen;
} session;

static void fail(const session *s, const char *what, double a, double b) {
    fprintf(stderr, "cc-api invariant broken (%s): %s [%.17g, %.17g]\n", s->algorithm, what, a, b);
    abort();
}

static double param(const session *s, const char *name) {
    double v = NAN;
    if (cc_param_get(s->cc, name, &v) != CC_OK) fail(s, "common parameter missing", 0, 0);
    return v;
}

static void read_bounds(session *s) {
    s->min_rate_bps = param(s, "min_rate_bps");
    s->max_rate_bps = param(s, "max_rate_bps");
    s->mss_bytes = param(s, "mss_bytes");
}

/* Only cc_param_set moves a parameter: between two of them the library reports the same bounds. */
static void check_bounds_kept(session *s) {
    double min_bps = s->min_rate_bps, max_bps = s->max_rate_bps, mss = s->mss_bytes;
    read_bounds(s);
    if (s->min_rate_bps != min_bps || s->max_rate_bps != max_bps || s->mss_bytes != mss)
        fail(s, "a rate bound or mss_bytes changed without cc_param_set", min_bps, s->min_rate_bps);
}

static void check_outputs(session *s) {
    double min_bps = s->min_rate_bps, max_bps = s->max_rate_bps, mss = s->mss_bytes;
    double rate_bps = cc_pacing_rate_bytes_per_s(s->cc) * 8.0;
    if (!isfinite(rate_bps) || rate_bps < min_bps * (1 - 1e-12) || rate_bps > max_bps * (1 + 1e-12))
        fail(s, "pacing rate outside [min_rate_bps, max_rate_bps]", rate_bps, min_bps);
    double cwnd = cc_cwnd_bytes(s->cc);
    if (!isfinite(cwnd) || cwnd < mss * (1 - 1e-12) || cwnd > CC_CWND_UNLIMITED_BYTES) fail(s, "window out of range", cwnd, mss);
    cc_telemetry t;
    cc_get_telemetry(s->cc, &t);
    double fields[TELEMETRY_NUMBER_COUNT];
    telemetry_numbers(&t, fields);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!isfinite(fields[i])) fail(s, "telemetry field not finite", (double)i, fields[i]);
    /* The same pointer is the same name; a string compare only otherwise (strcmp is slow under the fuzzer's hooks). */
    if (t.algorithm == NULL || t.state == NULL || (t.algorithm != s->algorithm && strcmp(t.algorithm, s->algorithm) != 0))
        fail(s, "telemetry names", 0, 0);
    if (t.bytes_in_flight != cc_bytes_in_flight(s->cc)) fail(s, "bytes in flight disagree", (double)t.bytes_in_flight, 0);
}

static int same_inputs(const cc_mi_stats *a, const cc_mi_stats *b) {
    return a->loss_rate == b->loss_rate && a->throughput_bps == b->throughput_bps && a->avg_rtt_us == b->avg_rtt_us;
}

static void observe_mi(const cc_mi_report *mi, void *user) {
    session *s = user;
    s->mis_seen++;
    double min_bps = s->min_rate_bps, max_bps = s->max_rate_bps;
    double target = mi->stats.target_rate_bps;
    /* An MI opened (at its first send) before the bounds last moved was planned within the old ones. */
    int planned_within_bounds = mi->first_pn >= s->bounds_set_at_pn;
    if (!isfinite(target) || (planned_within_bounds && (target < min_bps * (1 - 1e-9) || target > max_bps * (1 + 1e-9))))
        fail(s, "MI target rate outside [min_rate_bps, max_rate_bps]", target, max_bps);
    const double stats[] = {mi->stats.send_rate_bps, mi->stats.throughput_bps, mi->stats.loss_rate,
                            mi->stats.rtt_gradient, mi->stats.avg_rtt_us, mi->stats.min_rtt_us, mi->stats.duration_us};
    for (size_t i = 0; i < sizeof stats / sizeof stats[0]; i++)
        if (!isfinite(stats[i])) fail(s, "MI statistic not finite", (double)i, stats[i]);
    if (mi->stats.loss_rate < 0 || mi->stats.loss_rate > 1) fail(s, "MI loss rate outside [0, 1]", mi->stats.loss_rate, 0);
    /* An MI the sender could not fill measures the application, not the network: the rate rightly holds
     * through it (thesis §4.4), so it neither extends nor ends a run. */
    if (mi->app_limited) return;
    /* A rate pinned at a bound the algorithm pushes against is held by the bound, not stuck. */
    int at_bound = target <= min_bps * (1 + 1e-9) || target >= max_bps * (1 - 1e-9);
    if (target != s->held_rate_bps || s->custom_utility || at_bound) {
        s->held_rate_bps = target;
        s->held_mis = 1;
        s->held_first = mi->stats;
        s->held_inputs_changed = 0;
        return;
    }
    s->held_mis++;
    if (!same_inputs(&mi->stats, &s->held_first)) s->held_inputs_changed = 1;
    if (s->held_mis > MAX_HELD_MIS && s->held_inputs_changed)
        fail(s, "one target rate held for more than 1,000 MIs while loss, throughput or RTT changed", target, (double)s->held_mis);
}

/* Values for parameters and app fields: the edges and beyond, specials, and the input's own double. */
static double pick_value(reader *r, double lo, double hi) {
    switch (u8(r) % 12) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return lo;
    case 4: return hi;
    case 5: return lo - 1;
    case 6: return hi * 2 + 1;
    case 7: return 0;
    case 8: return -1;
    case 9: return lo + (hi - lo) * (u16(r) / 65535.0);
    case 10: return lo * pow(2.0, u8(r) / 8.0); /* spread geometrically above the minimum */
    default: {
        uint64_t bits = u64(r);
        double v;
        memcpy(&v, &bits, sizeof v);
        return v;
    }
    }
}

static void remember(session *s, uint64_t pn, uint32_t bytes) {
    if (s->ring_count == RING_PACKETS) {
        memmove(s->ring, s->ring + 1, (RING_PACKETS - 1) * sizeof s->ring[0]);
        s->ring_count--;
    }
    s->ring[s->ring_count++] = (sent_packet){pn, bytes};
}

/* A packet sent earlier (removed from the list when take is set), or a made-up number when none. */
static uint64_t some_sent_pn(session *s, reader *r, int take) {
    if (s->ring_count == 0) return u8(r);
    size_t i = u8(r) % s->ring_count;
    uint64_t pn = s->ring[i].pn;
    if (take) {
        memmove(s->ring + i, s->ring + i + 1, (s->ring_count - i - 1) * sizeof s->ring[0]);
        s->ring_count--;
    }
    return pn;
}

static int64_t rtt_sample(reader *r) {
    switch (u8(r) % 6) {
    case 0: return 0;                            /* let the library measure */
    case 1: return -(int64_t)u16(r);             /* negative */
    case 2: return (int64_t)u16(r) * 10;         /* plausible */
    case 3: return INT64_MAX;                    /* absurd */
    case 4: return (int64_t)u32(r);              /* up to an hour */
    default: return 1;
    }
}

static void set_param(session *s, reader *r) {
    check_bounds_kept(s);
    size_t count = cc_param_count(s->cc);
    size_t index = u8(r) % (count + 1);
    if (index == count) { /* an unknown name */
        if (cc_param_set(s->cc, "no_such_parameter", 1.0) != CC_ERR_UNKNOWN) fail(s, "unknown parameter accepted", 0, 0);
        return;
    }
    const cc_param_desc *d = cc_param_at(s->cc, index);
    if (d == NULL || d->name == NULL) fail(s, "cc_param_at returned nothing within cc_param_count", (double)index, 0);
    double value = pick_value(r, d->min_value, d->max_value);
    double before = NAN;
    cc_param_get(s->cc, d->name, &before);
    int valid = isfinite(value) && value >= d->min_value && value <= d->max_value;
    if (valid && strcmp(d->name, "min_rate_bps") == 0) valid = value <= param(s, "max_rate_bps");
    if (valid && strcmp(d->name, "max_rate_bps") == 0) valid = value >= param(s, "min_rate_bps");
    int status = cc_param_set(s->cc, d->name, value);
    if (status == CC_OK && (strcmp(d->name, "min_rate_bps") == 0 || strcmp(d->name, "max_rate_bps") == 0)) s->bounds_set_at_pn = s->next_pn;
    double after = NAN;
    cc_param_get(s->cc, d->name, &after);
    /* mss_bytes is a whole number of bytes: the library keeps the value rounded down. */
    double kept = strcmp(d->name, "mss_bytes") == 0 ? floor(value) : value;
    if (valid && (status != CC_OK || after != kept)) fail(s, "a valid parameter value was refused or not kept", value, after);
    if (!valid && status != CC_ERR_INVALID) fail(s, "an invalid parameter value was not refused", value, (double)status);
    if (!valid && !(after == before || (isnan(after) && isnan(before)))) fail(s, "a refused value changed the parameter", before, after);
    read_bounds(s);
}

static void app_state(session *s, reader *r) {
    uint8_t mode = u8(r);
    cc_app_state st = {
        .app_limited = mode % 7 == 6 ? (int)(int8_t)u8(r) : (mode & 1),
        .buffer_ms = (mode & 2) ? pick_value(r, 0, 60000) : CC_APP_UNKNOWN,
        .bitrate_bps = (mode & 4) ? pick_value(r, 1e5, 5e7) : CC_APP_UNKNOWN,
        .deadline_us = (mode & 8) ? (int64_t)u64(r) : CC_APP_UNKNOWN,
    };
    cc_on_app_state(s->cc, (mode & 0x80) ? NULL : &st, s->now_us);
}

/* The fixture, as link_create makes it, for this input's controller. Its event rings make it ~4 MB: one is made per
 * process and reset for each input, since a calloc of that size on every execution (and ASan's poisoning of it on
 * free) costs more than a short program does. */
static bottleneck_link *fresh_link(cc_controller *cc) {
    static bottleneck_link *link;
    static unsigned char created[offsetof(bottleneck_link, acks)];
    if (link == NULL) {
        link = link_create(cc, 1e6, 10000, 1e5);
        memcpy(created, link, sizeof created);
    }
    /* Everything before the rings as link_create set it, the rings empty (entries are read only below count), and
     * everything after them zero as calloc left it. */
    memcpy(link, created, sizeof created);
    link->acks.head = link->acks.count = 0;
    link->losses.head = link->losses.count = 0;
    size_t tail = offsetof(bottleneck_link, losses) + sizeof link->losses;
    memset((unsigned char *)link + tail, 0, sizeof *link - tail);
    link->cc = cc;
    return link;
}

/* A stretch of traffic over the fixture's bottleneck, its shape from the input. */
static void link_stretch(session *s, reader *r) {
    if (s->link == NULL) {
        s->link = fresh_link(s->cc);
        s->link->now_us = s->now_us;
        s->link->next_send_us = s->now_us;
        s->link->next_tick_us = s->now_us;
        s->link->next_pn = s->next_pn;
    }
    bottleneck_link *l = s->link;
    l->rate_bytes_per_s = 1e3 * pow(10.0, u8(r) / 32.0);          /* 8 kbit/s .. ~8 Gbit/s */
    l->rtt_us = 100 + (int64_t)u16(r) * 10;                        /* 0.1 .. 655 ms */
    l->buffer_bytes = 1500.0 * (1 + u8(r));
    l->packet_bytes = 100u + u16(r) % 65436u;
    l->ack_lateness_us = (int64_t)(u8(r) % 8) * 1000;
    l->report_recv_time = u8(r) & 1;
    uint8_t app = u8(r);
    l->app_rate_bytes_per_s = (app & 1) ? l->rate_bytes_per_s * (0.2 + (app >> 1) / 160.0) : 0;
    l->app_segment_period_us = (app & 2) ? 100000 + (int64_t)(app >> 2) * 20000 : 0;
    l->app_segment_bytes = l->rate_bytes_per_s * 0.1;
    if (l->next_pn < s->next_pn) l->next_pn = s->next_pn;
    if (l->now_us < s->now_us) l->now_us = s->now_us;
    uint64_t sends = 64ull * (1u + u8(r));
    int64_t duration_us = (int64_t)(1u + u8(r)) * 20000;           /* 20 ms .. 5.1 s */
    int64_t time_left_us = s->limits->link_time_budget_us - s->link_time_us;
    if (duration_us > time_left_us) duration_us = time_left_us > 0 ? time_left_us : 0;
    int64_t started_us = l->now_us;
    int64_t until_us = l->now_us + duration_us;
    uint64_t stop_pn = l->next_pn + sends;
    while (l->now_us < until_us && l->next_pn < stop_pn &&
           s->link_sends + (l->next_pn - s->next_pn) < s->limits->link_send_budget &&
           l->acks.count + l->losses.count < LINK_PENDING_LIMIT) {
        /* Slices of at most 64 packets at the rate now, and at most 2 ms, in which the rate can barely grow
         * (it at most doubles per MI): the budget and the rings hold however fast the controller gets. */
        double rate = cc_pacing_rate_bytes_per_s(s->cc);
        if (l->app_rate_bytes_per_s > 0 && l->app_rate_bytes_per_s < rate) rate = l->app_rate_bytes_per_s;
        int64_t slice_us = (int64_t)(64.0 * l->packet_bytes * 1e6 / (rate > 1 ? rate : 1));
        if (slice_us > MAX_SLICE_US) slice_us = MAX_SLICE_US;
        if (slice_us < 1) slice_us = 1;
        int64_t next_us = l->now_us + slice_us < until_us ? l->now_us + slice_us : until_us;
        /* Nor shorter than the wait for the fixture's next event (a send the pace or window allows, an ack, a
         * loss, a segment, a tick): an input once spent 5 M one-microsecond slices waiting for its next send. */
        int64_t event_us = link_next_event_us(l, until_us, link_can_send(l));
        if (event_us > next_us) next_us = event_us;
        link_run(l, next_us);
        check_outputs(s);
    }
    s->link_sends += l->next_pn - s->next_pn;
    s->link_time_us += l->now_us - started_us;
    s->next_pn = l->next_pn;
    s->now_us = l->now_us;
}

/* Runs one input as a program within `limits`; a broken invariant aborts (a libFuzzer finding). */
static void run_program(const uint8_t *data, size_t size, const program_limits *limits) {
    reader r = {data, size, 0};
    static session s;
    memset(&s, 0, sizeof s);
    s.limits = limits;
    size_t n = cc_algorithm_count();
    s.algorithm = cc_algorithm_name_at(u8(&r) % n);
    uint64_t seed = u16(&r);
    s.now_us = (int64_t)(seed & 0xff) * 1000;
    s.cc = cc_create(s.algorithm, seed, s.now_us);
    if (s.cc == NULL) fail(&s, "cc_create refused a registered algorithm", 0, 0);
    s.held_rate_bps = NAN;
    read_bounds(&s);
    cc_set_mi_observer(s.cc, observe_mi, &s);
    check_outputs(&s);
    while (r.pos < r.size) {
        uint8_t op = u8(&r);
        switch (op % 16) {
        case 0: case 1: case 2: { /* send, sizes from the input (0 is refused, 65535 the most an event carries) */
            uint32_t bytes = (op & 0x10) ? u16(&r) : 1200;
            uint64_t pn = (op & 0x20) ? s.next_pn - (s.next_pn > 3 ? 3 : 0) : s.next_pn + (op >> 6);
            cc_on_packet_sent(s.cc, pn, bytes, s.now_us);
            if (pn >= s.next_pn) s.next_pn = pn + 1;
            remember(&s, pn, bytes);
            s.now_us += u8(&r) * 10;
            break;
        }
        case 3: case 4: /* ack a packet sent earlier */
            cc_on_ack(s.cc, some_sent_pn(&s, &r, 1), rtt_sample(&r), (op & 0x10) ? (int64_t)u64(&r) : 0, s.now_us);
            s.now_us += u8(&r) * 20;
            break;
        case 5: /* lose one */
            cc_on_loss(s.cc, some_sent_pn(&s, &r, 1), s.now_us);
            break;
        case 6: /* ack or lose one again, or one never sent */
            if (op & 0x10) cc_on_loss(s.cc, (op & 0x20) ? u64(&r) : some_sent_pn(&s, &r, 0), s.now_us);
            else cc_on_ack(s.cc, (op & 0x20) ? u64(&r) : some_sent_pn(&s, &r, 0), rtt_sample(&r), 0, s.now_us);
            break;
        case 7: /* timers */
            s.now_us += (int64_t)u8(&r) * u8(&r);
            cc_on_tick(s.cc, s.now_us);
            break;
        case 8: /* the clock: back, far forward, or one event at a time with no time passing */
            if (op & 0x10) s.now_us -= (int64_t)u16(&r) * 1000;
            else if (op & 0x20) s.now_us += (int64_t)u16(&r) * 1000000;
            cc_on_tick(s.cc, s.now_us);
            break;
        case 9:
            app_state(&s, &r);
            break;
        case 10:
            set_param(&s, &r);
            break;
        case 11: /* the hostile utility on, or back to the built-in one */
            s.custom_utility = (op & 0x10) != 0;
            if (cc_set_utility(s.cc, s.custom_utility ? hostile_utility : NULL, NULL) != CC_OK) s.custom_utility = 0;
            break;
        case 12: case 13: case 14:
            link_stretch(&s, &r);
            break;
        default: { /* NULL controllers and unknown names are harmless */
            cc_on_ack(NULL, 1, 1, 1, s.now_us);
            cc_on_packet_sent(NULL, 1, 1, s.now_us);
            cc_telemetry t;
            cc_get_telemetry(NULL, &t);
            if (cc_create("no-such-algorithm", 1, 0) != NULL) fail(&s, "unknown algorithm created", 0, 0);
            break;
        }
        }
        check_outputs(&s);
    }
    check_bounds_kept(&s);
    cc_destroy(s.cc);
}

#endif /* PCC_FUZZ_CC_API_PROGRAM_H */
