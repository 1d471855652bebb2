/* UDP sender and receiver for fidelity tests: each datagram carries its sequence number
   and CLOCK_MONOTONIC send time, so the receiver sees one-way delay, order and loss.
   Nanosecond times are printed as JSON strings: they can exceed 2^53. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "probe_args.h"
#include "probe_modes.h"

typedef struct {
    uint64_t seq;
    uint64_t send_ns;
} probe_header;

static void parse_addr(const char *host, double port, struct sockaddr_in *sa) {
    memset(sa, 0, sizeof *sa);
    sa->sin_family = AF_INET;
    sa->sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &sa->sin_addr) != 1) fail_json("bad IPv4 address");
}

static void sleep_until_ns(uint64_t t_ns) {
    struct timespec ts = {(time_t)(t_ns / 1000000000ull), (long)(t_ns % 1000000000ull)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

/* udp-send --to ADDR --port P --pps R --count N --size PAYLOAD_BYTES [--burst 1] */
int udp_send_main(int argc, char **argv) {
    struct sockaddr_in to;
    parse_addr(arg_text(argc, argv, "--to", "127.0.0.1"), arg_number(argc, argv, "--port", 9000, 1, 65535), &to);
    double pps = arg_number(argc, argv, "--pps", 1000, 1, 1e7);
    uint64_t count = (uint64_t)arg_number(argc, argv, "--count", 1000, 1, 1e9);
    size_t size = (size_t)arg_number(argc, argv, "--size", 1472, sizeof(probe_header), 65000);
    int burst = arg_number(argc, argv, "--burst", 0, 0, 1) > 0;
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) fail_json("socket");
    int sndbuf = 8 << 20;
    setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof sndbuf);
    unsigned char *buf = calloc(1, size);
    uint64_t start_ns = monotonic_ns(), errors = 0, sent = 0;
    for (uint64_t seq = 0; seq < count; seq++) {
        if (!burst) sleep_until_ns(start_ns + (uint64_t)((double)seq * 1e9 / pps));
        probe_header h = {seq, monotonic_ns()};
        memcpy(buf, &h, sizeof h);
        if (sendto(fd, buf, size, 0, (struct sockaddr *)&to, sizeof to) < 0) errors++;
        else sent++;
    }
    uint64_t end_ns = monotonic_ns();
    printf("{\"sent\":%llu,\"errors\":%llu,\"startNs\":\"%llu\",\"endNs\":\"%llu\"}\n", (unsigned long long)sent,
           (unsigned long long)errors, (unsigned long long)start_ns, (unsigned long long)end_ns);
    free(buf);
    close(fd);
    return 0;
}

static volatile sig_atomic_t stop_requested;
static void request_stop(int sig) {
    (void)sig;
    stop_requested = 1;
}

/* udp-recv --bind ADDR --port P --idle-ms T --max-ms T [--csv FILE]
   Prints {"event":"listening"} once bound, then a JSON result when idle/max time passes
   or on SIGTERM/SIGINT (so a test can end it right after its sender). */
int udp_recv_main(int argc, char **argv) {
    struct sockaddr_in at;
    parse_addr(arg_text(argc, argv, "--bind", "0.0.0.0"), arg_number(argc, argv, "--port", 9000, 1, 65535), &at);
    double idle_ms = arg_number(argc, argv, "--idle-ms", 1000, 1, 600000);
    double max_ms = arg_number(argc, argv, "--max-ms", 30000, 1, 600000);
    const char *csv_path = arg_text(argc, argv, "--csv", NULL);
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) fail_json("socket");
    int rcvbuf = 32 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof rcvbuf);
    if (bind(fd, (struct sockaddr *)&at, sizeof at) < 0) fail_json("bind");
    FILE *csv = NULL;
    if (csv_path) {
        csv = fopen(csv_path, "w");
        if (!csv) fail_json("open csv");
        setvbuf(csv, NULL, _IOFBF, 1 << 20);
        fprintf(csv, "seq,send_ns,recv_ns,bytes\n");
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = request_stop;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    printf("{\"event\":\"listening\"}\n");
    fflush(stdout);
    uint64_t start_ns = monotonic_ns(), first_ns = 0, last_ns = 0, received = 0, bytes = 0, reordered = 0, max_seq = 0;
    unsigned char buf[65536];
    while (!stop_requested) {
        uint64_t now = monotonic_ns();
        if ((double)(now - start_ns) > max_ms * 1e6) break;
        if (received > 0 && (double)(now - last_ns) > idle_ms * 1e6) break;
        struct pollfd p = {fd, POLLIN, 0};
        /* after a stop request, one last pass reads what is already queued */
        if (poll(&p, 1, 20) <= 0 && !stop_requested) continue;
        for (;;) {
            ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
            if (n < 0) break;
            uint64_t t = monotonic_ns();
            probe_header h = {0, 0};
            if ((size_t)n >= sizeof h) memcpy(&h, buf, sizeof h);
            if (received == 0) first_ns = t;
            else if (h.seq < max_seq) reordered++;
            if (h.seq > max_seq) max_seq = h.seq;
            last_ns = t;
            received++;
            bytes += (uint64_t)n;
            if (csv) fprintf(csv, "%llu,%llu,%llu,%zd\n", (unsigned long long)h.seq, (unsigned long long)h.send_ns,
                             (unsigned long long)t, n);
        }
    }
    if (csv) fclose(csv);
    printf("{\"event\":\"done\",\"received\":%llu,\"bytes\":%llu,\"reordered\":%llu,\"firstNs\":\"%llu\",\"lastNs\":\"%llu\"}\n",
           (unsigned long long)received, (unsigned long long)bytes, (unsigned long long)reordered,
           (unsigned long long)first_ns, (unsigned long long)last_ns);
    close(fd);
    return 0;
}
