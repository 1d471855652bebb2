/* linkem-probe: measurement traffic for linkem's fidelity tests and benchmark. */
#include <stdio.h>
#include <string.h>

#include "probe_modes.h"

int main(int argc, char **argv) {
    if (argc >= 2) {
        if (!strcmp(argv[1], "udp-send")) return udp_send_main(argc, argv);
        if (!strcmp(argv[1], "udp-recv")) return udp_recv_main(argc, argv);
        if (!strcmp(argv[1], "tcp-send")) return tcp_send_main(argc, argv);
        if (!strcmp(argv[1], "tcp-recv")) return tcp_recv_main(argc, argv);
    }
    fprintf(stderr, "usage: linkem-probe udp-send|udp-recv|tcp-send|tcp-recv [--key value]...\n");
    return 2;
}
