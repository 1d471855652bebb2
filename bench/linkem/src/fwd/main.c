/* linkem-fwd: the userspace half of linkem. Allocates an instance, creates its network
   namespace and the two TUN devices, forwards packets between them through the emulated
   path, and on exit (signal, or stdin closing when --watch-stdin) removes everything. */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "delay.h"
#include "direction.h"
#include "instance.h"
#include "netns.h"
#include "options.h"
#include "queue.h"
#include "trace.h"
#include "tun.h"

#define READ_BATCH_PACKETS 256

static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void log_json(const char *level, const char *msg) {
    fprintf(stderr, "{\"level\":\"%s\",\"component\":\"linkem-fwd\",\"msg\":", level);
    json_string(stderr, msg);
    fprintf(stderr, "}\n");
    fflush(stderr);
}

/* Everything the emulated path is made of, checked before the system is touched. */
typedef struct {
    link_kind kind[2];
    trace schedule[2];
    double rate_bps[2];
    char trace_desc[2][512];
    queue_config queue[2];
    char queue_desc[2][160];
    delay_model delay;
} path_config;

static int build_path_config(const options *o, path_config *pc, char *err, size_t err_len) {
    memset(pc, 0, sizeof *pc);
    for (int d = 0; d < 2; d++) {
        if (o->trace_path[d]) {
            if (trace_load(o->trace_path[d], &pc->schedule[d], err, err_len) != 0) return -1;
            pc->kind[d] = LINK_TRACE;
            snprintf(pc->trace_desc[d], sizeof pc->trace_desc[d], "%s", o->trace_path[d]);
        } else if (o->rate_mbps[d] > 0) {
            pc->kind[d] = LINK_CONSTANT_RATE;
            pc->rate_bps[d] = o->rate_mbps[d] * 1e6;
            snprintf(pc->trace_desc[d], sizeof pc->trace_desc[d], "constant %.6g Mbit/s", o->rate_mbps[d]);
        } else {
            pc->kind[d] = LINK_UNLIMITED;
            snprintf(pc->trace_desc[d], sizeof pc->trace_desc[d], "unlimited");
        }
        if (queue_config_parse(&pc->queue[d], o->queue_kind[d], o->queue_args[d], err, err_len) != 0) return -1;
        queue_config_describe(&pc->queue[d], pc->queue_desc[d], sizeof pc->queue_desc[d]);
    }
    if (o->delay_schedule) return delay_load_schedule(&pc->delay, o->delay_schedule, err, err_len);
    if (o->rtt_pattern) return delay_parse_rtt_pattern(&pc->delay, o->rtt_pattern, err, err_len);
    double delay_ms = 0;
    if (o->delay_ms) {
        char *end;
        errno = 0;
        delay_ms = strtod(o->delay_ms, &end);
        if (end == o->delay_ms || *end || errno || !isfinite(delay_ms) || delay_ms < 0 || delay_ms > 60000) {
            snprintf(err, err_len, "--delay-ms needs a one-way delay in [0, 60000] ms (got '%s')", o->delay_ms);
            return -1;
        }
    }
    delay_init_fixed(&pc->delay, (uint64_t)llround(delay_ms * 1000.0));
    return 0;
}

/* CAP_NET_ADMIN in the effective set (root normally has it; a capability-dropped root does not). */
static int has_net_admin(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return geteuid() == 0;
    char line[256];
    unsigned long long caps = 0;
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "CapEff: %llx", &caps) == 1) found = 1;
    fclose(f);
    return found ? (int)((caps >> 12) & 1u) : geteuid() == 0;
}

typedef struct {
    instance inst;
    int have_instance;
    int host_tun_fd;
    int inner_tun_fd;
} network;

static void network_teardown(network *net) {
    if (net->host_tun_fd >= 0) close(net->host_tun_fd);
    if (net->inner_tun_fd >= 0) close(net->inner_tun_fd);
    net->host_tun_fd = net->inner_tun_fd = -1;
    if (net->have_instance) {
        instance_remove_network(&net->inst);
        instance_release(&net->inst);
        net->have_instance = 0;
    }
}

static int network_setup(const options *o, network *net, char *err, size_t err_len) {
    net->host_tun_fd = net->inner_tun_fd = -1;
    if (instance_acquire(o->state_dir, &net->inst, err, err_len) != 0) return -1;
    net->have_instance = 1;
    const instance *in = &net->inst;
    if (netns_create(in->name, err, err_len) != 0) return -1;
    net->host_tun_fd = tun_open(in->name, err, err_len);
    if (net->host_tun_fd < 0) return -1;
    if (tun_configure_point_to_point(in->name, in->host_addr, in->inner_addr, err, err_len) != 0) return -1;
    int saved_ns;
    if (netns_enter(in->name, &saved_ns, err, err_len) != 0) return -1;
    int rc = -1;
    net->inner_tun_fd = tun_open(in->name, err, err_len);
    if (net->inner_tun_fd >= 0 && interface_set_up("lo", err, err_len) == 0 &&
        tun_configure_point_to_point(in->name, in->inner_addr, in->host_addr, err, err_len) == 0)
        rc = 0;
    if (netns_return(saved_ns) != 0) {
        snprintf(err, err_len, "cannot return to the host network namespace: %s", strerror(errno));
        return -1;
    }
    return rc;
}

static void write_summary(FILE *f, const network *net, const direction *up, const direction *down, uint64_t duration_us) {
    fprintf(f, "{\"event\":\"summary\",\"instance\":%d,\"namespace\":", net->inst.index);
    json_string(f, net->inst.name);
    fprintf(f, ",\"durationMs\":%.3f,\"bytesNote\":\"ingressBytes/departedBytes are IP bytes; the link charges each packet 4 more (mahimahi framing)\",",
            (double)duration_us / 1000.0);
    stats_write_json(f, "up", &up->stats);
    fputc(',', f);
    stats_write_json(f, "down", &down->stats);
    fprintf(f, "}\n");
}

int main(int argc, char **argv) {
    char err[1024];
    options o;
    if (options_parse(argc, argv, &o, err, sizeof err) != 0) {
        log_json("error", err);
        options_usage();
        return 2;
    }
    if (o.reclaim_only) {
        if (!has_net_admin()) {
            log_json("error", "linkem needs root (CAP_NET_ADMIN) to remove network namespaces");
            return 3;
        }
        int removed = instance_reclaim_all(o.state_dir, err, sizeof err);
        if (removed < 0) {
            log_json("error", err);
            return 1;
        }
        printf("{\"event\":\"reclaimed\",\"instances\":%d}\n", removed);
        return 0;
    }
    path_config pc;
    if (build_path_config(&o, &pc, err, sizeof err) != 0) {
        log_json("error", err);
        return 2;
    }
    if (!has_net_admin()) {
        log_json("error", "linkem needs root (CAP_NET_ADMIN) to create network namespaces and TUN devices");
        return 3;
    }
    if (access("/dev/net/tun", F_OK) != 0) {
        log_json("error", "/dev/net/tun is missing: load the tun module (modprobe tun) or run where TUN devices exist");
        return 3;
    }

    /* Signals arrive through a signalfd so cleanup always runs from the main loop. */
    sigset_t handled;
    sigemptyset(&handled);
    sigaddset(&handled, SIGINT);
    sigaddset(&handled, SIGTERM);
    sigaddset(&handled, SIGHUP);
    sigprocmask(SIG_BLOCK, &handled, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* default 50 us timer slack would blur sub-millisecond event times */
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    /* Under load a normal-priority wake-up comes ~0.5 ms late (measured here); a modest
       real-time priority keeps events within ~0.1 ms. RT throttling still bounds it. */
    struct sched_param sp = {.sched_priority = 10};
    if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) != 0)
        log_json("warn", "no real-time priority (sched_setscheduler failed): event timing may be less precise");

    network net;
    memset(&net, 0, sizeof net);
    if (network_setup(&o, &net, err, sizeof err) != 0) {
        log_json("error", err);
        network_teardown(&net);
        return 1;
    }

    uint64_t start_ns = clock_now_ns();
    uint64_t start_us = start_ns / 1000u;
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    uint64_t epoch_ms = (uint64_t)wall.tv_sec * 1000u + (uint64_t)wall.tv_nsec / 1000000u;

    static direction dirs[2];
    const char *names[2] = {"uplink", "downlink"};
    int failed = 0;
    for (int d = 0; d < 2 && !failed; d++) {
        direction *x = &dirs[d];
        x->name = names[d];
        x->in_fd = d == DIR_UP ? net.inner_tun_fd : net.host_tun_fd;
        x->out_fd = d == DIR_UP ? net.host_tun_fd : net.inner_tun_fd;
        x->allowed_src = d == DIR_UP ? net.inst.inner_addr : net.inst.host_addr;
        x->allowed_dst = d == DIR_UP ? net.inst.host_addr : net.inst.inner_addr;
        loss_init(&x->loss, o.loss[d], o.seed * 2654435761u + (uint64_t)d + 1);
        x->delay = &pc.delay;
        x->start_us = start_us;
        link_init(&x->link, pc.kind[d], &pc.schedule[d], pc.rate_bps[d], &pc.queue[d], start_us, direction_link_events(x));
        mm_log_header h = {names[d], pc.trace_desc[d], o.command_line, pc.queue_desc[d], epoch_ms, 0};
        if (mmlog_open(&x->log, o.log_path[d], start_us, &h, err, sizeof err) != 0) failed = 1;
    }

    int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    int timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    int signal_fd = signalfd(-1, &handled, SFD_NONBLOCK | SFD_CLOEXEC);
    if (!failed && (epoll_fd < 0 || timer_fd < 0 || signal_fd < 0)) {
        snprintf(err, sizeof err, "epoll/timerfd/signalfd: %s", strerror(errno));
        failed = 1;
    }
    enum { TAG_UP_IN, TAG_DOWN_IN, TAG_TIMER, TAG_SIGNAL, TAG_STDIN };
    struct {
        int fd;
        int tag;
    } watched[] = {{net.inner_tun_fd, TAG_UP_IN}, {net.host_tun_fd, TAG_DOWN_IN}, {timer_fd, TAG_TIMER},
                   {signal_fd, TAG_SIGNAL}, {o.watch_stdin ? 0 : -1, TAG_STDIN}};
    for (size_t i = 0; !failed && i < sizeof watched / sizeof watched[0]; i++) {
        if (watched[i].fd < 0) continue;
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)watched[i].tag};
        if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, watched[i].fd, &ev) < 0) {
            snprintf(err, sizeof err, "epoll_ctl: %s", strerror(errno));
            failed = 1;
        }
    }
    if (failed) {
        log_json("error", err);
        for (int d = 0; d < 2; d++) direction_free(&dirs[d]);
        network_teardown(&net);
        return 1;
    }

    char host_text[INET_ADDRSTRLEN], inner_text[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &net.inst.host_addr, host_text, sizeof host_text);
    inet_ntop(AF_INET, &net.inst.inner_addr, inner_text, sizeof inner_text);
    printf("{\"event\":\"ready\",\"instance\":%d,\"namespace\":\"%s\",\"hostInterface\":\"%s\",\"innerInterface\":\"%s\","
           "\"hostAddress\":\"%s\",\"innerAddress\":\"%s\",\"startMonotonicNs\":\"%llu\",\"reclaimed\":%s,\"pid\":%d}\n",
           net.inst.index, net.inst.name, net.inst.name, net.inst.name, host_text, inner_text,
           (unsigned long long)start_ns, net.inst.reclaimed ? "true" : "false", (int)getpid());
    fflush(stdout);

    const char *stop_reason = NULL;
    uint64_t armed_us = 0;
    while (!stop_reason) {
        uint64_t now_us = clock_now_us();
        direction_advance(&dirs[DIR_UP], now_us);
        direction_advance(&dirs[DIR_DOWN], now_us);
        int blocked = direction_flush(&dirs[DIR_UP]) | direction_flush(&dirs[DIR_DOWN]);
        uint64_t next_us = direction_next_event_us(&dirs[DIR_UP]);
        uint64_t next_down_us = direction_next_event_us(&dirs[DIR_DOWN]);
        if (next_down_us < next_us) next_us = next_down_us;
        int timeout_ms = blocked ? 1 : -1;
        if (next_us != UINT64_MAX) {
            if (next_us <= clock_now_us()) {
                timeout_ms = 0;
            } else if (next_us != armed_us) {
                /* absolute deadline: the event is handled at its own time, not "now + delta" */
                struct itimerspec its = {{0, 0}, {(time_t)(next_us / 1000000u), (long)(next_us % 1000000u) * 1000L}};
                timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &its, NULL);
                armed_us = next_us;
            }
        }
        struct epoll_event events[8];
        int n = epoll_wait(epoll_fd, events, 8, timeout_ms);
        if (n < 0 && errno != EINTR) {
            snprintf(err, sizeof err, "epoll_wait: %s", strerror(errno));
            stop_reason = "error";
            log_json("error", err);
        }
        for (int i = 0; i < n; i++) {
            switch (events[i].data.u32) {
            case TAG_UP_IN:
            case TAG_DOWN_IN: {
                direction *d = &dirs[events[i].data.u32 == TAG_UP_IN ? DIR_UP : DIR_DOWN];
                if (direction_read(d, READ_BATCH_PACKETS) < 0) {
                    snprintf(err, sizeof err, "read from %s TUN: %s", d->name, strerror(errno));
                    log_json("error", err);
                    stop_reason = "error";
                }
                break;
            }
            case TAG_TIMER: {
                uint64_t expirations;
                if (read(timer_fd, &expirations, sizeof expirations) > 0) armed_us = 0;
                break;
            }
            case TAG_SIGNAL: {
                struct signalfd_siginfo si;
                if (read(signal_fd, &si, sizeof si) == (ssize_t)sizeof si)
                    stop_reason = si.ssi_signo == SIGINT ? "SIGINT" : si.ssi_signo == SIGTERM ? "SIGTERM" : "SIGHUP";
                break;
            }
            case TAG_STDIN: {
                char buf[256];
                ssize_t got = read(0, buf, sizeof buf);
                if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) stop_reason = "parent gone (stdin closed)";
                break;
            }
            }
        }
    }

    uint64_t duration_us = clock_now_us() - start_us;
    /* devices first, so nothing more arrives; then whatever runs inside the namespace */
    network_teardown(&net);
    char msg[256];
    snprintf(msg, sizeof msg, "stopped: %s; namespace and TUN devices removed", stop_reason);
    log_json("info", msg);
    write_summary(stdout, &net, &dirs[DIR_UP], &dirs[DIR_DOWN], duration_us);
    fflush(stdout);
    int rc = strcmp(stop_reason, "error") == 0 ? 1 : 0;
    if (o.summary_path) {
        FILE *f = fopen(o.summary_path, "w");
        if (!f) {
            snprintf(err, sizeof err, "summary %s: %s", o.summary_path, strerror(errno));
            log_json("error", err);
            rc = 1;
        } else {
            write_summary(f, &net, &dirs[DIR_UP], &dirs[DIR_DOWN], duration_us);
            fclose(f);
        }
    }
    for (int d = 0; d < 2; d++) direction_free(&dirs[d]);
    delay_free(&pc.delay);
    packet_pool_release_all();
    return rc;
}
