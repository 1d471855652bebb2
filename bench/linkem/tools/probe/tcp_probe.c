/* Bulk TCP transfer with a chosen congestion control (per-socket TCP_CONGESTION). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "probe_args.h"
#include "probe_modes.h"

#define BIN_MS 100

static void parse_addr(const char *host, double port, struct sockaddr_in *sa) {
    memset(sa, 0, sizeof *sa);
    sa->sin_family = AF_INET;
    sa->sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &sa->sin_addr) != 1) fail_json("bad IPv4 address");
}

/* tcp-send --to ADDR --port P --cc NAME --duration-ms T */
int tcp_send_main(int argc, char **argv) {
    struct sockaddr_in to;
    parse_addr(arg_text(argc, argv, "--to", "127.0.0.1"), arg_number(argc, argv, "--port", 9000, 1, 65535), &to);
    const char *cc = arg_text(argc, argv, "--cc", "cubic");
    double duration_ms = arg_number(argc, argv, "--duration-ms", 5000, 1, 600000);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) fail_json("socket");
    if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc)) < 0) fail_json("setsockopt TCP_CONGESTION");
    if (connect(fd, (struct sockaddr *)&to, sizeof to) < 0) fail_json("connect");
    char active[32] = "";
    socklen_t len = sizeof active;
    getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, active, &len);
    static char chunk[65536];
    uint64_t start = monotonic_ns(), sent = 0;
    while ((double)(monotonic_ns() - start) < duration_ms * 1e6) {
        struct pollfd p = {fd, POLLOUT, 0};
        if (poll(&p, 1, 20) <= 0) continue;
        ssize_t n = send(fd, chunk, sizeof chunk, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0 && errno != EAGAIN) fail_json("send");
        if (n > 0) sent += (uint64_t)n;
    }
    struct tcp_info info;
    len = sizeof info;
    memset(&info, 0, sizeof info);
    getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len);
    printf("{\"sentBytes\":%llu,\"cc\":\"%s\",\"retransmits\":%u,\"rttUs\":%u}\n", (unsigned long long)sent, active,
           info.tcpi_total_retrans, info.tcpi_rtt);
    close(fd);
    return 0;
}

/* tcp-recv --bind ADDR --port P --max-ms T: accepts one connection, reads to EOF and
   reports bytes per 100 ms bin from the first byte. */
int tcp_recv_main(int argc, char **argv) {
    struct sockaddr_in at;
    parse_addr(arg_text(argc, argv, "--bind", "0.0.0.0"), arg_number(argc, argv, "--port", 9000, 1, 65535), &at);
    double max_ms = arg_number(argc, argv, "--max-ms", 30000, 1, 600000);
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&at, sizeof at) < 0 || listen(lfd, 1) < 0) fail_json("listen");
    printf("{\"event\":\"listening\"}\n");
    fflush(stdout);
    uint64_t start = monotonic_ns();
    struct pollfd p = {lfd, POLLIN, 0};
    if (poll(&p, 1, (int)max_ms) <= 0) fail_json("no connection");
    int fd = accept(lfd, NULL, NULL);
    if (fd < 0) fail_json("accept");
    size_t bin_count = (size_t)(max_ms / BIN_MS) + 1;
    uint64_t *bins = calloc(bin_count, sizeof *bins);
    static char buf[1 << 16];
    uint64_t first = 0, last = 0, total = 0;
    while ((double)(monotonic_ns() - start) < max_ms * 1e6) {
        struct pollfd q = {fd, POLLIN, 0};
        if (poll(&q, 1, 50) <= 0) continue;
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        uint64_t t = monotonic_ns();
        if (!first) first = t;
        last = t;
        total += (uint64_t)n;
        size_t bin = (size_t)((t - first) / (BIN_MS * 1000000ull));
        if (bin < bin_count) bins[bin] += (uint64_t)n;
    }
    printf("{\"event\":\"done\",\"bytes\":%llu,\"firstNs\":\"%llu\",\"lastNs\":\"%llu\",\"binMs\":%d,\"bins\":[",
           (unsigned long long)total, (unsigned long long)first, (unsigned long long)last, BIN_MS);
    size_t used = first ? (size_t)((last - first) / (BIN_MS * 1000000ull)) + 1 : 0;
    for (size_t i = 0; i < used && i < bin_count; i++) printf("%s%llu", i ? "," : "", (unsigned long long)bins[i]);
    printf("]}\n");
    free(bins);
    close(fd);
    close(lfd);
    return 0;
}
