/*
 * Hostile and odd input, for every registered algorithm: acks for unknown packets, duplicated and
 * reordered events, zero/negative/absurd RTT samples, clocks jumping back and far forward, many packets
 * in one microsecond (zero-length intervals), rates pinned at their bounds, parameters set to NaN or
 * out of range, utilities returning NaN or infinity. After every event: no NaN or infinity out, rates
 * within [min_rate_bps, max_rate_bps].
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "hostile_utility.h"
#include "pcc/cc.h"
#include "pcc_driver.h"
#include "telemetry_numbers.h"

static uint64_t fuzz_state;

static uint64_t fuzz_next(void) {
    uint64_t z = (fuzz_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t fuzz_below(uint64_t n) { return n ? fuzz_next() % n : 0; }

static int bad_outputs;

static void check_outputs(const cc_controller *cc, const char *name) {
    double min_bps = 0, max_bps = 0;
    cc_param_get(cc, "min_rate_bps", &min_bps);
    cc_param_get(cc, "max_rate_bps", &max_bps);
    double rate = cc_pacing_rate_bytes_per_s(cc);
    double cwnd = cc_cwnd_bytes(cc);
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    double fields[TELEMETRY_NUMBER_COUNT];
    telemetry_numbers(&t, fields);
    int ok = isfinite(rate) && rate * 8 >= min_bps * (1 - 1e-12) && rate * 8 <= max_bps * (1 + 1e-12) &&
             isfinite(cwnd) && cwnd > 0 && cwnd <= CC_CWND_UNLIMITED_BYTES && t.algorithm != NULL && t.state != NULL;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) ok = ok && isfinite(fields[i]);
    if (!ok && bad_outputs++ < 5) {
        fprintf(stderr, "%s: bad output rate=%g cwnd=%g [%g, %g] state=%s\n", name, rate * 8, cwnd, min_bps, max_bps,
                t.state ? t.state : "(null)");
    }
}

static void fuzz_algorithm(const char *name, uint64_t seed) {
    fuzz_state = seed;
    cc_controller *cc = cc_create(name, seed, 1000);
    CHECK(cc != NULL);
    if (cc == NULL) return;
    int64_t now = 1000;
    uint64_t next_pn = 0;
    const int events = 200000;
    for (int i = 0; i < events; i++) {
        uint64_t kind = fuzz_below(100);
        /* time: mostly forward by up to 2 ms, sometimes stuck, backwards, or far forward */
        uint64_t clock = fuzz_below(1000);
        if (clock < 5) now -= (int64_t)fuzz_below(5000000);
        else if (clock < 7) now += 30000000;
        else if (clock < 300) now += 0;
        else now += (int64_t)fuzz_below(2000);
        if (kind < 40) {
            uint64_t pn = next_pn;
            uint64_t gap = fuzz_below(100);
            if (gap < 3) pn = next_pn > 5 ? next_pn - 5 : 0; /* repeated / decreasing */
            else if (gap < 6) pn = next_pn + fuzz_below(1000);
            if (pn >= next_pn) next_pn = pn + 1;
            uint32_t bytes = fuzz_below(50) == 0 ? 0 : (uint32_t)(1 + fuzz_below(1500));
            cc_on_packet_sent(cc, pn, bytes, now);
        } else if (kind < 80) {
            uint64_t back = fuzz_below(400);
            uint64_t pn = next_pn > back ? next_pn - 1 - back : 0;
            if (fuzz_below(20) == 0) pn = next_pn + fuzz_below(1000000); /* never sent */
            int64_t rtt;
            switch (fuzz_below(6)) {
            case 0: rtt = 0; break;
            case 1: rtt = -(int64_t)fuzz_below(100000); break;
            case 2: rtt = INT64_MAX; break;
            case 3: rtt = 1; break;
            default: rtt = (int64_t)(10 + fuzz_below(200000)); break;
            }
            int64_t recv = fuzz_below(3) == 0 ? INT64_MIN : (int64_t)fuzz_next();
            cc_on_ack(cc, pn, rtt, recv, now);
            if (fuzz_below(10) == 0) cc_on_ack(cc, pn, rtt, recv, now); /* duplicate */
        } else if (kind < 90) {
            uint64_t back = fuzz_below(400);
            cc_on_loss(cc, next_pn > back ? next_pn - 1 - back : 0, now);
        } else if (kind < 97) {
            cc_on_tick(cc, now);
        } else if (kind < 98) {
            mark_app_limited(cc, now);
        } else {
            /* parameters: random names from the list, random (sometimes invalid) values */
            size_t count = cc_param_count(cc);
            const cc_param_desc *desc = cc_param_at(cc, fuzz_below(count));
            double value;
            switch (fuzz_below(6)) {
            case 0: value = NAN; break;
            case 1: value = INFINITY; break;
            case 2: value = desc->max_value * 10 + 1; break;
            case 3: value = desc->min_value; break;
            case 4: value = desc->max_value; break;
            default: value = desc->min_value + (desc->max_value - desc->min_value) * (double)fuzz_below(1000) / 1000; break;
            }
            int status = cc_param_set(cc, desc->name, value);
            if (!isfinite(value) || value > desc->max_value) CHECK(status == CC_ERR_INVALID);
            if (fuzz_below(4) == 0) cc_set_utility(cc, fuzz_below(2) ? hostile_utility : NULL, NULL);
            /* keep the bounds sane often enough that the algorithms run, not just sit clamped */
            if (fuzz_below(3) == 0) {
                cc_param_set(cc, "min_rate_bps", 100e3);
                cc_param_set(cc, "max_rate_bps", 10e9);
            }
        }
        check_outputs(cc, name);
    }
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    CHECK(t.events_ignored > 0);
    CHECK(t.packets_sent > 1000);
    cc_destroy(cc);
}

/* A long, clean high-rate run at loopback RTT for every algorithm: no state leaks out of bounds. */
static void steady_loopback(const char *name) {
    cc_controller *cc = cc_create(name, 7, 0);
    int64_t now = 0;
    uint64_t pn = 0;
    for (int i = 0; i < 200000; i++) {
        double rate = cc_pacing_rate_bytes_per_s(cc);
        now += (int64_t)(1200.0 * 1e6 / rate) + 1;
        cc_on_packet_sent(cc, pn, 1200, now);
        if (pn >= 2) cc_on_ack(cc, pn - 2, 40, 0, now + 40); /* 40 us RTT */
        pn++;
        if ((i & 63) == 0) cc_on_tick(cc, now);
    }
    check_outputs(cc, name);
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    /* The PCC family must not collapse at loopback RTTs (the published user-space code does). The
     * other algorithms' owners test their own dynamics. */
    int pcc_family = strcmp(name, "vivace") == 0 || strcmp(name, "vivace-loss") == 0 || strcmp(name, "allegro") == 0;
    if (pcc_family) CHECK(t.pacing_rate_bps > 1e6);
    if (pcc_family && !(t.pacing_rate_bps > 1e6)) fprintf(stderr, "%s collapsed at loopback: %g bit/s, state %s\n", name, t.pacing_rate_bps, t.state);
    cc_destroy(cc);
}

/* An application that offers 5 Mbit/s on an unconstrained path: the PCC algorithms must not let their
 * target run off to max_rate_bps (their utility is the same at every target when nothing more is
 * sent), and must grow again once data is plentiful. */
static void application_limited(const char *name) {
    cc_controller *cc = cc_create(name, 3, 0);
    driver d;
    driver_init(&d, cc, 30000);
    d.app_rate_bytes_per_s = 5e6 / 8;
    double highest_bps = 0;
    for (int64_t t = 100000; t <= 5000000; t += 100000) {
        driver_run(&d, t);
        double rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        if (rate_bps > highest_bps) highest_bps = rate_bps;
    }
    CHECK(highest_bps <= 2.5 * 5e6 * 1.06);
    if (!(highest_bps <= 2.5 * 5e6 * 1.06)) fprintf(stderr, "%s ran to %g bit/s while application-limited\n", name, highest_bps);
    d.app_rate_bytes_per_s = 0;
    driver_run(&d, 8000000);
    CHECK(cc_pacing_rate_bytes_per_s(cc) * 8 > 50e6);
    driver_release(&d);
    cc_destroy(cc);
}

int main(void) {
    application_limited("vivace");
    application_limited("vivace-loss");
    application_limited("allegro");
    for (size_t i = 0; i < cc_algorithm_count(); i++) {
        const char *name = cc_algorithm_name_at(i);
        fuzz_algorithm(name, 1000 + i);
        fuzz_algorithm(name, 2000 + i);
        steady_loopback(name);
    }
    CHECK(bad_outputs == 0);
    return check_summary("test_robustness");
}
