#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_double(const char *text, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(v) || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

void options_usage(void) {
    fprintf(stderr,
            "usage: linkem-fwd [--up-trace FILE | --up-mbps R] [--down-trace FILE | --down-mbps R]\n"
            "                  [--delay-ms D | --delay-schedule FILE | --rtt-pattern MIN:MAX:PERIOD_S:SEED]\n"
            "                  [--loss-up P] [--loss-down P] [--seed N]\n"
            "                  [--queue-up KIND --queue-up-args ARGS] [--queue-down KIND --queue-down-args ARGS]\n"
            "                  [--log-up FILE] [--log-down FILE] [--summary-json FILE]\n"
            "                  [--state-dir DIR] [--command-line TEXT] [--watch-stdin]\n"
            "       linkem-fwd --reclaim [--state-dir DIR]   (remove what killed instances left behind)\n");
}

int options_parse(int argc, char **argv, options *o, char *err, size_t err_len) {
    memset(o, 0, sizeof *o);
    o->state_dir = "/run/pcc-linkem";
    o->command_line = "";
    o->seed = 1;
    enum {
        OPT_UP_TRACE = 256, OPT_DOWN_TRACE, OPT_UP_MBPS, OPT_DOWN_MBPS, OPT_DELAY_MS, OPT_DELAY_SCHEDULE,
        OPT_RTT_PATTERN, OPT_LOSS_UP, OPT_LOSS_DOWN, OPT_SEED, OPT_QUEUE_UP, OPT_QUEUE_UP_ARGS, OPT_QUEUE_DOWN,
        OPT_QUEUE_DOWN_ARGS, OPT_LOG_UP, OPT_LOG_DOWN, OPT_SUMMARY, OPT_STATE_DIR, OPT_COMMAND_LINE, OPT_WATCH_STDIN, OPT_RECLAIM
    };
    static const struct option longs[] = {
        {"up-trace", required_argument, 0, OPT_UP_TRACE},       {"down-trace", required_argument, 0, OPT_DOWN_TRACE},
        {"up-mbps", required_argument, 0, OPT_UP_MBPS},         {"down-mbps", required_argument, 0, OPT_DOWN_MBPS},
        {"delay-ms", required_argument, 0, OPT_DELAY_MS},       {"delay-schedule", required_argument, 0, OPT_DELAY_SCHEDULE},
        {"rtt-pattern", required_argument, 0, OPT_RTT_PATTERN}, {"loss-up", required_argument, 0, OPT_LOSS_UP},
        {"loss-down", required_argument, 0, OPT_LOSS_DOWN},     {"seed", required_argument, 0, OPT_SEED},
        {"queue-up", required_argument, 0, OPT_QUEUE_UP},       {"queue-up-args", required_argument, 0, OPT_QUEUE_UP_ARGS},
        {"queue-down", required_argument, 0, OPT_QUEUE_DOWN},   {"queue-down-args", required_argument, 0, OPT_QUEUE_DOWN_ARGS},
        {"log-up", required_argument, 0, OPT_LOG_UP},           {"log-down", required_argument, 0, OPT_LOG_DOWN},
        {"summary-json", required_argument, 0, OPT_SUMMARY},    {"state-dir", required_argument, 0, OPT_STATE_DIR},
        {"command-line", required_argument, 0, OPT_COMMAND_LINE}, {"watch-stdin", no_argument, 0, OPT_WATCH_STDIN},
        {"reclaim", no_argument, 0, OPT_RECLAIM},
        {0, 0, 0, 0}};
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        const char *bad = NULL;
        switch (c) {
        case OPT_UP_TRACE: o->trace_path[DIR_UP] = optarg; break;
        case OPT_DOWN_TRACE: o->trace_path[DIR_DOWN] = optarg; break;
        case OPT_UP_MBPS: if (parse_double(optarg, 1e-3, 1e5, &o->rate_mbps[DIR_UP])) bad = "--up-mbps needs a rate in (0.001, 100000] Mbit/s"; break;
        case OPT_DOWN_MBPS: if (parse_double(optarg, 1e-3, 1e5, &o->rate_mbps[DIR_DOWN])) bad = "--down-mbps needs a rate in (0.001, 100000] Mbit/s"; break;
        case OPT_DELAY_MS: o->delay_ms = optarg; break;
        case OPT_DELAY_SCHEDULE: o->delay_schedule = optarg; break;
        case OPT_RTT_PATTERN: o->rtt_pattern = optarg; break;
        case OPT_LOSS_UP: if (parse_double(optarg, 0, 1, &o->loss[DIR_UP])) bad = "--loss-up needs a probability in [0, 1]"; break;
        case OPT_LOSS_DOWN: if (parse_double(optarg, 0, 1, &o->loss[DIR_DOWN])) bad = "--loss-down needs a probability in [0, 1]"; break;
        case OPT_SEED: {
            char *end;
            errno = 0;
            o->seed = strtoull(optarg, &end, 10);
            if (end == optarg || *end || errno || optarg[0] == '-') bad = "--seed needs a non-negative integer";
            break;
        }
        case OPT_QUEUE_UP: o->queue_kind[DIR_UP] = optarg; break;
        case OPT_QUEUE_UP_ARGS: o->queue_args[DIR_UP] = optarg; break;
        case OPT_QUEUE_DOWN: o->queue_kind[DIR_DOWN] = optarg; break;
        case OPT_QUEUE_DOWN_ARGS: o->queue_args[DIR_DOWN] = optarg; break;
        case OPT_LOG_UP: o->log_path[DIR_UP] = optarg; break;
        case OPT_LOG_DOWN: o->log_path[DIR_DOWN] = optarg; break;
        case OPT_SUMMARY: o->summary_path = optarg; break;
        case OPT_STATE_DIR: o->state_dir = optarg; break;
        case OPT_COMMAND_LINE: o->command_line = optarg; break;
        case OPT_WATCH_STDIN: o->watch_stdin = 1; break;
        case OPT_RECLAIM: o->reclaim_only = 1; break;
        default:
            snprintf(err, err_len, "unknown or incomplete option '%s'", argv[optind - 1]);
            return -1;
        }
        if (bad) {
            snprintf(err, err_len, "%s (got '%s')", bad, optarg);
            return -1;
        }
    }
    if (optind < argc) {
        snprintf(err, err_len, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    for (int d = 0; d < 2; d++) {
        if (o->trace_path[d] && o->rate_mbps[d] > 0) {
            snprintf(err, err_len, "give a trace or a rate for the %s, not both", d == DIR_UP ? "uplink" : "downlink");
            return -1;
        }
    }
    int delays = (o->delay_ms != NULL) + (o->delay_schedule != NULL) + (o->rtt_pattern != NULL);
    if (delays > 1) {
        snprintf(err, err_len, "--delay-ms, --delay-schedule and --rtt-pattern exclude each other");
        return -1;
    }
    return 0;
}
