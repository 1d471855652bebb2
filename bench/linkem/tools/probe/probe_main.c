/* linkem-probe: measurement traffic for linkem's fidelity tests and benchmark. */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "probe_modes.h"

int main(int argc, char **argv) {
    /* Timestamps are the measurement: keep the probe's own wake-ups prompt on a busy machine. */
    struct sched_param sp = {.sched_priority = 5};
    sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp);
    if (argc >= 2) {
        if (!strcmp(argv[1], "udp-send")) return udp_send_main(argc, argv);
        if (!strcmp(argv[1], "udp-recv")) return udp_recv_main(argc, argv);
        if (!strcmp(argv[1], "tcp-send")) return tcp_send_main(argc, argv);
        if (!strcmp(argv[1], "tcp-recv")) return tcp_recv_main(argc, argv);
    }
    fprintf(stderr, "usage: linkem-probe udp-send|udp-recv|tcp-send|tcp-recv [--key value]...\n");
    return 2;
}
