/* The delayed-ack receiver (--ack-delay-ms; RFC 9000 §13.2.2): a lone packet is acknowledged after the delay, a
 * second one at once with the one before it, so RTT samples carry the wait and nothing else changes. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fixed_flow.h"
#include "pcc_sim.h"

/* A fixed-rate flow far below a 20 Mbit/s link: no queue, so RTT above 40 ms is serialization plus the ack wait. */
static pcc_sim_flow_result run_fixed(double rate_bps, int64_t ack_delay_us) {
    fixed_run run;
    fixed_run_init(&run, rate_bps, 40000, 20000000);
    run.config.rate_bps = 20e6;
    run.config.send_jitter_us = 0;
    run.config.ack_delay_us = ack_delay_us;
    return fixed_run_go(&run).flows[0];
}

static void test_delayed_acks(void) {
    const double serialization_us = 1500 * 8 / 20e6 * 1e6;   /* 600 us */
    /* 2 Mbit/s of 1500-byte packets: one every 6 ms. Every other packet waits 6 ms for its successor. */
    pcc_sim_flow_result at_once = run_fixed(2e6, 0), delayed = run_fixed(2e6, 25000);
    printf("2 Mbit/s: mean RTT %.2f ms at once, %.2f ms with 25-ms delayed acks; p95 %.2f ms\n",
           at_once.mean_rtt_us / 1e3, delayed.mean_rtt_us / 1e3, delayed.p95_rtt_us / 1e3);
    CHECK_NEAR(at_once.mean_rtt_us, 40000 + serialization_us, 50);
    CHECK_NEAR(delayed.mean_rtt_us - at_once.mean_rtt_us, 3000, 300);
    CHECK_NEAR(delayed.p95_rtt_us, 40000 + serialization_us + 6000, 300);
    CHECK(delayed.packets_received == at_once.packets_received);
    CHECK(delayed.throughput_bps == at_once.throughput_bps);
    /* 0.1 Mbit/s: a packet every 120 ms, each alone: every ack waits the whole 25 ms. */
    pcc_sim_flow_result lone = run_fixed(0.1e6, 25000);
    printf("0.1 Mbit/s, 25-ms delayed acks: min RTT %.2f ms, mean %.2f ms\n", lone.min_rtt_us / 1e3, lone.mean_rtt_us / 1e3);
    CHECK_NEAR(lone.min_rtt_us, 40000 + serialization_us + 25000, 50);
    CHECK_NEAR(lone.mean_rtt_us, 40000 + serialization_us + 25000, 50);
}

int main(void) {
    test_delayed_acks();
    return check_summary("test_sim_ack_delay");
}
