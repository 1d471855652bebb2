/* The bottleneck on its own: mahimahi trace semantics, constant-rate timing without drift, droptail limit. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "link.h"
#include "pcc_sim.h"
#include "trace_schedule.h"

#define MAX_DEPARTURES 4096

typedef struct departures {
    int64_t time_us[MAX_DEPARTURES];
    uint64_t pn[MAX_DEPARTURES];
    size_t count;
} departures;

static void record(void *context, const sim_packet *packet, int64_t now_us) {
    departures *d = context;
    if (d->count < MAX_DEPARTURES) {
        d->time_us[d->count] = now_us;
        d->pn[d->count] = packet->pn;
        d->count++;
    }
}

static sim_packet packet_of(uint64_t pn, uint32_t bytes) {
    sim_packet p;
    memset(&p, 0, sizeof p);
    p.pn = pn;
    p.bytes = bytes;
    return p;
}

/* Offers `count` packets at now_us, then serves the link until idle or until_us. */
static size_t offer(sim_link *link, uint64_t first_pn, size_t count, uint32_t bytes, int64_t now_us,
                    int64_t *next_service_us) {
    size_t accepted = 0;
    for (size_t i = 0; i < count; i++) {
        sim_packet p = packet_of(first_pn + i, bytes);
        int64_t service_at;
        int status = sim_link_enqueue(link, &p, now_us, &service_at);
        if (status == 1) accepted++;
        if (service_at >= 0) *next_service_us = service_at;
    }
    return accepted;
}

static void serve_until(sim_link *link, int64_t *next_service_us, int64_t until_us, departures *d) {
    while (*next_service_us >= 0 && *next_service_us <= until_us) {
        *next_service_us = sim_link_service(link, *next_service_us, record, d);
    }
}

static void test_trace_one_packet_per_opportunity(void) {
    /* Lines 1,1,3,4 ms: two opportunities at 1 ms; the trace loops every 4 ms. */
    static const uint32_t ms[] = {1, 1, 3, 4};
    mm_trace trace;
    const char *reason = NULL;
    CHECK(mm_trace_init(&trace, ms, 4, &reason) == 0);
    sim_link link;
    sim_link_init_trace(&link, &trace, 1u << 30);
    static departures d;
    memset(&d, 0, sizeof d);
    int64_t next = -1;
    CHECK(offer(&link, 0, 12, MM_TRACE_OPPORTUNITY_BYTES, 0, &next) == 12);
    serve_until(&link, &next, 1000000, &d);
    static const int64_t expected_ms[] = {1, 1, 3, 4, 5, 5, 7, 8, 9, 9, 11, 12};
    CHECK(d.count == 12);
    for (size_t i = 0; i < 12 && i < d.count; i++) {
        CHECK(d.time_us[i] == expected_ms[i] * 1000);
        CHECK(d.pn[i] == i);
    }
    CHECK(link.delivered_bytes == 12u * MM_TRACE_OPPORTUNITY_BYTES);
    sim_link_free(&link);
}

static void test_trace_packets_span_opportunities(void) {
    /* An opportunity every ms; 1000-byte packets: after n opportunities, floor(n·1504/1000) packets left. */
    static uint32_t ms[100];
    for (int i = 0; i < 100; i++) ms[i] = (uint32_t)(i + 1);
    mm_trace trace;
    const char *reason = NULL;
    CHECK(mm_trace_init(&trace, ms, 100, &reason) == 0);
    sim_link link;
    sim_link_init_trace(&link, &trace, 1u << 30);
    static departures d;
    memset(&d, 0, sizeof d);
    int64_t next = -1;
    CHECK(offer(&link, 0, 1000, 1000, 0, &next) == 1000);
    for (int n = 1; n <= 300; n++) {
        serve_until(&link, &next, (int64_t)n * 1000, &d);
        CHECK(d.count == (size_t)(n * MM_TRACE_OPPORTUNITY_BYTES / 1000));
    }
    /* Each packet leaves with its last byte: packet 1 (pn 1) needs bytes 1001..2000, i.e. the 2nd opportunity. */
    CHECK(d.time_us[0] == 1000);
    CHECK(d.time_us[1] == 2000);
    CHECK(d.time_us[2] == 2000);
    sim_link_free(&link);
}

static void test_trace_unused_bytes_are_wasted(void) {
    static const uint32_t ms[] = {1, 2, 3, 4, 5, 6, 7, 8};
    mm_trace trace;
    const char *reason = NULL;
    CHECK(mm_trace_init(&trace, ms, 8, &reason) == 0);
    sim_link link;
    sim_link_init_trace(&link, &trace, 1u << 30);
    static departures d;
    memset(&d, 0, sizeof d);
    int64_t next = -1;
    offer(&link, 0, 1, 500, 0, &next);
    CHECK(next == 1000);
    serve_until(&link, &next, 1500, &d);
    CHECK(d.count == 1 && d.time_us[0] == 1000);
    /* The 1004 bytes left at 1 ms are gone: a packet arriving at 1.5 ms waits for the 2 ms opportunity. */
    offer(&link, 1, 1, 500, 1500, &next);
    CHECK(next == 2000);
    /* Nothing queued at 3..5 ms: a packet offered at 5.2 ms leaves at 6 ms. */
    serve_until(&link, &next, 2000, &d);
    offer(&link, 2, 1, 500, 5200, &next);
    CHECK(next == 6000);
    serve_until(&link, &next, 100000, &d);
    CHECK(d.count == 3 && d.time_us[1] == 2000 && d.time_us[2] == 6000);
    sim_link_free(&link);
}

static void test_trace_loop_and_capacity_count(void) {
    static const uint32_t ms[] = {0, 2};
    mm_trace trace;
    const char *reason = NULL;
    CHECK(mm_trace_init(&trace, ms, 2, &reason) == 0);
    /* Opportunities at 0, 2 | 2, 4 | 4, 6 | ... (each loop shifted by the last timestamp, 2 ms). */
    CHECK(mm_trace_opportunities_before(&trace, 0) == 0);
    CHECK(mm_trace_opportunities_before(&trace, 1) == 1);
    CHECK(mm_trace_opportunities_before(&trace, 2000) == 1);
    CHECK(mm_trace_opportunities_before(&trace, 2001) == 3);
    CHECK(mm_trace_opportunities_before(&trace, 5000) == 5);
    static const uint32_t ms2[] = {1, 1, 3, 4};
    CHECK(mm_trace_init(&trace, ms2, 4, &reason) == 0);
    CHECK(mm_trace_opportunities_before(&trace, 4000) == 3);
    CHECK(mm_trace_opportunities_before(&trace, 4001) == 4);
    CHECK(mm_trace_opportunities_before(&trace, 5001) == 6);
    CHECK(mm_trace_opportunities_before(&trace, 4000000) == 3999 / 4 * 4 + 3);
    mm_trace_cursor cursor = {0, 0};
    mm_trace_cursor_seek(&trace, &cursor, 4500);
    CHECK(mm_trace_cursor_time_us(&trace, &cursor) == 5000);
    mm_trace_cursor_seek(&trace, &cursor, 400000);
    CHECK(mm_trace_cursor_time_us(&trace, &cursor) == 400000);
}

static void test_trace_rejects_bad_traces(void) {
    mm_trace trace;
    const char *reason = NULL;
    static const uint32_t decreasing[] = {5, 3};
    static const uint32_t zero[] = {0, 0};
    CHECK(mm_trace_init(&trace, decreasing, 2, &reason) == -1 && reason != NULL);
    reason = NULL;
    CHECK(mm_trace_init(&trace, zero, 2, &reason) == -1 && reason != NULL);
    reason = NULL;
    CHECK(mm_trace_init(&trace, zero, 0, &reason) == -1 && reason != NULL);
}

static void test_constant_rate_timing_has_no_drift(void) {
    sim_link link;
    sim_link_init_rate(&link, 7e6, 1u << 30);   /* 1500 B = 1714.2857 us: not a whole microsecond */
    static departures d;
    memset(&d, 0, sizeof d);
    int64_t next = -1;
    CHECK(offer(&link, 0, 1000, 1500, 0, &next) == 1000);
    serve_until(&link, &next, INT64_MAX - 1, &d);
    CHECK(d.count == 1000);
    int drift_free = 1;
    for (size_t k = 0; k < d.count; k++) {
        int64_t expected = (int64_t)ceil((double)(k + 1) * 1500.0 * 8.0 / 7.0 - 1e-6);
        if (d.time_us[k] != expected) drift_free = 0;
    }
    CHECK(drift_free);
    CHECK(d.time_us[6] == 12000);
    CHECK_NEAR(sim_link_capacity_bits(&link, 1000000), 7e6, 1e-6);
    sim_link_set_rate(&link, 14e6, 500000);
    CHECK_NEAR(sim_link_capacity_bits(&link, 1000000), 3.5e6 + 7e6, 1e-6);
    sim_link_free(&link);
}

static void test_droptail_limit_in_bytes(void) {
    sim_link link;
    sim_link_init_rate(&link, 12e6, 4500);
    static departures d;
    memset(&d, 0, sizeof d);
    int64_t next = -1;
    /* The head of the line is being sent and not buffered: 1 + 3 x 1500 B fit, 6 are dropped. */
    CHECK(offer(&link, 0, 10, 1500, 0, &next) == 4);
    CHECK(sim_link_queue_bytes(&link) == 4500);
    CHECK(offer(&link, 10, 1, 64, 0, &next) == 0);
    serve_until(&link, &next, 1000, &d);   /* one 1000-us packet leaves */
    CHECK(d.count == 1);
    CHECK(sim_link_queue_bytes(&link) == 3000);
    CHECK(offer(&link, 11, 2, 1000, 1000, &next) == 1);
    CHECK(sim_link_queue_bytes(&link) == 4000);
    serve_until(&link, &next, INT64_MAX - 1, &d);
    CHECK(d.count == 5);
    CHECK(d.pn[3] == 3 && d.pn[4] == 11);
    sim_link_free(&link);
    /* A zero-byte buffer still lets a packet through an idle link (nothing waits). */
    sim_link_init_rate(&link, 12e6, 0);
    CHECK(offer(&link, 0, 3, 1500, 0, &next) == 1);
    sim_link_free(&link);
}

int main(void) {
    test_trace_one_packet_per_opportunity();
    test_trace_packets_span_opportunities();
    test_trace_unused_bytes_are_wasted();
    test_trace_loop_and_capacity_count();
    test_trace_rejects_bad_traces();
    test_constant_rate_timing_has_no_drift();
    test_droptail_limit_in_bytes();
    return check_summary("test_sim_link");
}
