/* linkem-fwd: the userspace half of linkem. Allocates an instance, creates its network
   namespace and the two TUN devices, forwards packets between them through the emulated
   path, and on exit (signal, or stdin closing when --watch-stdin) removes everything. */
#include <arpa/inet.h>
#include <errno.h>
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
#include "jsonlog.h"
#include "network.h"
#include "options.h"
#include "path_config.h"

#define READ_BATCH_PACKETS 256

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

/* The running forwarder: the path, the network it sits in, and the event loop's descriptors. */
typedef struct {
    const options *o;
    path_config *pc;
    network net;
    direction dirs[2];
    sigset_t stop_signals;
    int epoll_fd, timer_fd, signal_fd;
    uint64_t start_ns, start_us;
} forwarder;

enum { TAG_UP_IN, TAG_DOWN_IN, TAG_TIMER, TAG_SIGNAL, TAG_STDIN };

static int run_reclaim(const options *o) {
    char err[1024];
    if (!has_net_admin()) {
        log_json("error", "linkem needs root (CAP_NET_ADMIN) to remove network namespaces");
        return 3;
    }
    int removed = instance_reclaim_all(o->state_dir, err, sizeof err);
    if (removed < 0) {
        log_json("error", err);
        return 1;
    }
    printf("{\"event\":\"reclaimed\",\"instances\":%d}\n", removed);
    return 0;
}

/* 0, or the exit status (3) after saying what is missing. */
static int check_system(void) {
    if (!has_net_admin()) {
        log_json("error", "linkem needs root (CAP_NET_ADMIN) to create network namespaces and TUN devices");
        return 3;
    }
    if (access("/dev/net/tun", F_OK) != 0) {
        log_json("error", "/dev/net/tun is missing: load the tun module (modprobe tun) or run where TUN devices exist");
        return 3;
    }
    return 0;
}

/* Signals arrive through a signalfd so cleanup always runs from the main loop; timing as precise as the
   system allows. */
static void prepare_process(forwarder *f) {
    sigemptyset(&f->stop_signals);
    sigaddset(&f->stop_signals, SIGINT);
    sigaddset(&f->stop_signals, SIGTERM);
    sigaddset(&f->stop_signals, SIGHUP);
    sigprocmask(SIG_BLOCK, &f->stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* default 50 us timer slack would blur sub-millisecond event times */
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    /* Under load a normal-priority wake-up comes ~0.5 ms late (measured here); a modest
       real-time priority keeps events within ~0.1 ms. RT throttling still bounds it. */
    struct sched_param sp = {.sched_priority = 10};
    if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) != 0)
        log_json("warn", "no real-time priority (sched_setscheduler failed): event timing may be less precise");
}

static int directions_setup(forwarder *f, char *err, size_t err_len) {
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    uint64_t epoch_ms = (uint64_t)wall.tv_sec * 1000u + (uint64_t)wall.tv_nsec / 1000000u;
    static const char *const names[2] = {"uplink", "downlink"};
    const network *net = &f->net;
    for (int d = 0; d < 2; d++) {
        direction *x = &f->dirs[d];
        x->name = names[d];
        x->in_fd = d == DIR_UP ? net->inner_tun_fd : net->host_tun_fd;
        x->out_fd = d == DIR_UP ? net->host_tun_fd : net->inner_tun_fd;
        x->allowed_src = d == DIR_UP ? net->inst.inner_addr : net->inst.host_addr;
        x->allowed_dst = d == DIR_UP ? net->inst.host_addr : net->inst.inner_addr;
        loss_init(&x->loss, f->o->loss[d], f->o->seed * 2654435761u + (uint64_t)d + 1);
        x->delay = &f->pc->delay;
        x->start_us = f->start_us;
        const char *reason = NULL;
        if (link_init(&x->link, f->pc->kind[d], &f->pc->trace_ms[d], f->pc->trace_count[d], f->pc->rate_bps[d],
                      &f->pc->queue[d], f->start_us, direction_link_events(x), &reason) != 0) {
            snprintf(err, err_len, "%s trace: %s", names[d], reason);
            return -1;
        }
        mm_log_header h = {names[d], f->pc->trace_desc[d], f->o->command_line, f->pc->queue_desc[d], epoch_ms, 0};
        if (mmlog_open(&x->log, f->o->log_path[d], f->start_us, &h, err, err_len) != 0) return -1;
        if (f->o->timing_log_path[d] && !(x->timing_log = fopen(f->o->timing_log_path[d], "w"))) {
            snprintf(err, err_len, "%s timing log %s: %s", names[d], f->o->timing_log_path[d], strerror(errno));
            return -1;
        }
    }
    return 0;
}

static int event_sources_setup(forwarder *f, char *err, size_t err_len) {
    f->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    f->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    f->signal_fd = signalfd(-1, &f->stop_signals, SFD_NONBLOCK | SFD_CLOEXEC);
    if (f->epoll_fd < 0 || f->timer_fd < 0 || f->signal_fd < 0) {
        snprintf(err, err_len, "epoll/timerfd/signalfd: %s", strerror(errno));
        return -1;
    }
    struct {
        int fd;
        int tag;
    } watched[] = {{f->net.inner_tun_fd, TAG_UP_IN}, {f->net.host_tun_fd, TAG_DOWN_IN}, {f->timer_fd, TAG_TIMER},
                   {f->signal_fd, TAG_SIGNAL}, {f->o->watch_stdin ? 0 : -1, TAG_STDIN}};
    for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++) {
        if (watched[i].fd < 0) continue;
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)watched[i].tag};
        if (epoll_ctl(f->epoll_fd, EPOLL_CTL_ADD, watched[i].fd, &ev) < 0) {
            snprintf(err, err_len, "epoll_ctl: %s", strerror(errno));
            return -1;
        }
    }
    return 0;
}

static void close_event_sources(forwarder *f) {
    int *fds[] = {&f->epoll_fd, &f->timer_fd, &f->signal_fd};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++) {
        if (*fds[i] >= 0) close(*fds[i]);
        *fds[i] = -1;
    }
}

/* Network, directions and event sources; on failure everything made so far is removed again. */
static int forwarder_setup(forwarder *f, char *err, size_t err_len) {
    f->epoll_fd = f->timer_fd = f->signal_fd = -1;
    if (network_setup(f->o, &f->net, err, err_len) != 0) {
        network_teardown(&f->net);
        return -1;
    }
    f->start_ns = clock_now_ns();
    f->start_us = f->start_ns / 1000u;
    if (directions_setup(f, err, err_len) != 0 || event_sources_setup(f, err, err_len) != 0) {
        close_event_sources(f);
        for (int d = 0; d < 2; d++) direction_free(&f->dirs[d]);
        network_teardown(&f->net);
        return -1;
    }
    return 0;
}

static void announce_ready(const forwarder *f) {
    const instance *in = &f->net.inst;
    char host_text[INET_ADDRSTRLEN], inner_text[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &in->host_addr, host_text, sizeof host_text);
    inet_ntop(AF_INET, &in->inner_addr, inner_text, sizeof inner_text);
    printf("{\"event\":\"ready\",\"instance\":%d,\"namespace\":\"%s\",\"hostInterface\":\"%s\",\"innerInterface\":\"%s\","
           "\"hostAddress\":\"%s\",\"innerAddress\":\"%s\",\"startMonotonicNs\":\"%llu\",\"reclaimed\":%s,\"pid\":%d}\n",
           in->index, in->name, in->name, in->name, host_text, inner_text, (unsigned long long)f->start_ns,
           in->reclaimed ? "true" : "false", (int)getpid());
    fflush(stdout);
}

/* Processes every due event, then returns the epoll timeout: 0 if an event is already due, 1 ms while a
   device pushes back, else -1 with the timer armed (absolute) for the next event. */
static int advance_and_arm(forwarder *f, uint64_t *armed_us) {
    direction *up = &f->dirs[DIR_UP], *down = &f->dirs[DIR_DOWN];
    uint64_t now_us = clock_now_us();
    direction_advance(up, now_us);
    direction_advance(down, now_us);
    int blocked = direction_flush(up) | direction_flush(down);
    uint64_t next_us = direction_next_event_us(up);
    uint64_t next_down_us = direction_next_event_us(down);
    if (next_down_us < next_us) next_us = next_down_us;
    if (next_us == UINT64_MAX) return blocked ? 1 : -1;
    if (next_us <= clock_now_us()) return 0;
    if (next_us != *armed_us) {
        /* absolute deadline: the event is handled at its own time, not "now + delta" */
        struct itimerspec its = {{0, 0}, {(time_t)(next_us / 1000000u), (long)(next_us % 1000000u) * 1000L}};
        timerfd_settime(f->timer_fd, TFD_TIMER_ABSTIME, &its, NULL);
        *armed_us = next_us;
    }
    return blocked ? 1 : -1;
}

/* Handles one ready descriptor; returns why to stop, or NULL to go on. */
static const char *handle_event(forwarder *f, uint32_t tag, uint64_t *armed_us) {
    char err[256];
    switch (tag) {
    case TAG_UP_IN:
    case TAG_DOWN_IN: {
        direction *d = &f->dirs[tag == TAG_UP_IN ? DIR_UP : DIR_DOWN];
        if (direction_read(d, READ_BATCH_PACKETS) >= 0) return NULL;
        snprintf(err, sizeof err, "read from %s TUN: %s", d->name, strerror(errno));
        log_json("error", err);
        return "error";
    }
    case TAG_TIMER: {
        uint64_t expirations;
        if (read(f->timer_fd, &expirations, sizeof expirations) > 0) *armed_us = 0;
        return NULL;
    }
    case TAG_SIGNAL: {
        struct signalfd_siginfo si;
        if (read(f->signal_fd, &si, sizeof si) != (ssize_t)sizeof si) return NULL;
        return si.ssi_signo == SIGINT ? "SIGINT" : si.ssi_signo == SIGTERM ? "SIGTERM" : "SIGHUP";
    }
    case TAG_STDIN: {
        char buf[256];
        ssize_t got = read(0, buf, sizeof buf);
        return got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR) ? "parent gone (stdin closed)" : NULL;
    }
    default:
        return NULL;
    }
}

/* The event loop; returns why it stopped ("error", a signal's name, or the parent's exit). */
static const char *forwarder_run(forwarder *f) {
    const char *stop_reason = NULL;
    uint64_t armed_us = 0;
    while (!stop_reason) {
        int timeout_ms = advance_and_arm(f, &armed_us);
        struct epoll_event events[8];
        int n = epoll_wait(f->epoll_fd, events, 8, timeout_ms);
        if (n < 0 && errno != EINTR) {
            log_json("error", "epoll_wait failed");
            return "error";
        }
        for (int i = 0; i < n; i++) {
            const char *reason = handle_event(f, events[i].data.u32, &armed_us);
            if (reason && !stop_reason) stop_reason = reason;
        }
    }
    return stop_reason;
}

/* Removes the network, reports, frees; returns the exit status. */
static int forwarder_teardown(forwarder *f, const char *stop_reason) {
    uint64_t duration_us = clock_now_us() - f->start_us;
    /* devices first, so nothing more arrives; then whatever runs inside the namespace */
    network_teardown(&f->net);
    close_event_sources(f);
    char msg[256];
    snprintf(msg, sizeof msg, "stopped: %s; namespace and TUN devices removed", stop_reason);
    log_json("info", msg);
    write_summary(stdout, &f->net, &f->dirs[DIR_UP], &f->dirs[DIR_DOWN], duration_us);
    fflush(stdout);
    int rc = strcmp(stop_reason, "error") == 0 ? 1 : 0;
    if (f->o->summary_path) {
        FILE *file = fopen(f->o->summary_path, "w");
        if (!file) {
            snprintf(msg, sizeof msg, "summary %s: %s", f->o->summary_path, strerror(errno));
            log_json("error", msg);
            rc = 1;
        } else {
            write_summary(file, &f->net, &f->dirs[DIR_UP], &f->dirs[DIR_DOWN], duration_us);
            fclose(file);
        }
    }
    for (int d = 0; d < 2; d++) direction_free(&f->dirs[d]);
    return rc;
}

int main(int argc, char **argv) {
    char err[1024];
    options o;
    if (options_parse(argc, argv, &o, err, sizeof err) != 0) {
        log_json("error", err);
        options_usage();
        return 2;
    }
    if (o.reclaim_only) return run_reclaim(&o);
    path_config pc;
    if (path_config_build(&o, &pc, err, sizeof err) != 0) {
        log_json("error", err);
        path_config_free(&pc);
        return 2;
    }
    int rc = check_system();
    static forwarder f; /* large (per-direction histograms): not on the stack */
    f.o = &o;
    f.pc = &pc;
    if (rc == 0) prepare_process(&f);
    if (rc == 0 && forwarder_setup(&f, err, sizeof err) != 0) {
        log_json("error", err);
        rc = 1;
    }
    if (rc == 0) {
        announce_ready(&f);
        rc = forwarder_teardown(&f, forwarder_run(&f));
    }
    path_config_free(&pc);
    packet_pool_release_all();
    return rc;
}
