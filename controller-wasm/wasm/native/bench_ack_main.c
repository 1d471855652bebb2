/*
 * pcc-bench-ack: native cost of one acknowledged packet (its send event plus its ack) through the C API.
 * Same traffic as scripts/bench-ack.ts runs through WASM: packet j is sent at j * SPACING_US and acked
 * one RTT later (with a little deterministic jitter so RTT-gradient code does real work), no loss. Each ack
 * carries the receiver's receive time, as the origin's do, unless --no-receive-times (0: none).
 *
 * usage: pcc-bench-ack [--no-receive-times] [PACKETS] [ALGORITHM...]     (default 2000000 vivace cubic)
 * prints one JSON line per algorithm: {"path":"native","algorithm":..,"acks":..,"ns_per_ack":.. (thread CPU time),
 *   "wall_ns_per_ack":..}
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r, clock_gettime under -std=c11 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pcc/cc.h"

#define SPACING_US 10
#define BASE_RTT_US 30000
#define IN_FLIGHT_PACKETS (BASE_RTT_US / SPACING_US)
#define PACKET_BYTES 1200
#define ONE_WAY_US (BASE_RTT_US / 2)

static double clock_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int bench(const char *algorithm, uint64_t packets, int receive_times) {
    cc_controller *cc = cc_create(algorithm, 1, 0);
    if (cc == NULL) {
        fprintf(stderr, "{\"component\":\"pcc-bench-ack\",\"level\":\"error\",\"message\":\"unknown algorithm\",\"algorithm\":\"%s\"}\n", algorithm);
        return 2;
    }
    double checksum = 0;
    uint64_t acks = 0;
    /* CPU time of this thread is the figure: on a shared machine wall time mostly measures the neighbours. */
    double start_cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    double start_wall_ns = clock_ns(CLOCK_MONOTONIC);
    for (uint64_t pn = 0; pn < packets; pn++) {
        int64_t now_us = (int64_t)(pn * SPACING_US);
        cc_on_packet_sent(cc, pn, PACKET_BYTES, now_us);
        if (pn >= IN_FLIGHT_PACKETS) {
            uint64_t acked = pn - IN_FLIGHT_PACKETS;
            int64_t recv_time_us = receive_times ? (int64_t)(acked * SPACING_US) + ONE_WAY_US + (int64_t)(acked % 13) * 10 : 0;
            cc_on_ack(cc, acked, BASE_RTT_US + (int64_t)(acked % 17) * 10, recv_time_us, now_us);
            acks++;
        }
        /* A pacer reads the rate regularly; reading it also keeps the loop from being optimised away. */
        if ((pn & 63) == 0) checksum += cc_pacing_rate_bytes_per_s(cc);
    }
    double cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - start_cpu_ns;
    double wall_ns = clock_ns(CLOCK_MONOTONIC) - start_wall_ns;
    cc_destroy(cc);
    printf("{\"path\":\"native\",\"algorithm\":\"%s\",\"acks\":%" PRIu64 ",\"ns_per_ack\":%.1f,\"wall_ns_per_ack\":%.1f,"
           "\"checksum\":%.0f}\n",
           algorithm, acks, cpu_ns / (double)acks, wall_ns / (double)acks, checksum);
    return 0;
}

int main(int argc, char **argv) {
    int receive_times = 1;
    if (argc > 1 && strcmp(argv[1], "--no-receive-times") == 0) {
        receive_times = 0;
        argv++;
        argc--;
    }
    uint64_t packets = 2000000;
    if (argc > 1) {
        char *end = NULL;
        unsigned long long parsed = strtoull(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || parsed <= IN_FLIGHT_PACKETS) {
            fprintf(stderr, "usage: pcc-bench-ack [--no-receive-times] [PACKETS > %d] [ALGORITHM...]\n", IN_FLIGHT_PACKETS);
            return 2;
        }
        packets = parsed;
    }
    static const char *const default_algorithms[] = {"vivace", "cubic"};
    int status = 0;
    if (argc > 2) {
        for (int i = 2; i < argc && status == 0; i++) status = bench(argv[i], packets, receive_times);
    } else {
        for (size_t i = 0; i < 2 && status == 0; i++) status = bench(default_algorithms[i], packets, receive_times);
    }
    return status;
}
