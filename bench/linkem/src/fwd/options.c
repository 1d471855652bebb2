/* The forwarder's flags as one table: each names its field in `options` and how its value is read, so a
   new flag is one line and every value gets the same checks and the same error shape. */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { VALUE_TEXT, VALUE_NUMBER, VALUE_COUNT, VALUE_SWITCH } value_kind;

typedef struct {
    const char *name;
    value_kind kind;
    size_t field;    /* offsetof in options: const char * (TEXT), double (NUMBER), uint64_t (COUNT), int (SWITCH) */
    double min, max; /* VALUE_NUMBER: accepted range */
    const char *needs;
} flag_spec;

#define TEXT(name, member) {name, VALUE_TEXT, offsetof(options, member), 0, 0, NULL}
#define NUMBER(name, member, min, max, needs) {name, VALUE_NUMBER, offsetof(options, member), min, max, needs}
#define SWITCH(name, member) {name, VALUE_SWITCH, offsetof(options, member), 0, 0, NULL}

static const flag_spec flags[] = {
    TEXT("up-trace", trace_path[DIR_UP]),
    TEXT("down-trace", trace_path[DIR_DOWN]),
    NUMBER("up-mbps", rate_mbps[DIR_UP], 1e-3, 1e5, "--up-mbps needs a rate in (0.001, 100000] Mbit/s"),
    NUMBER("down-mbps", rate_mbps[DIR_DOWN], 1e-3, 1e5, "--down-mbps needs a rate in (0.001, 100000] Mbit/s"),
    TEXT("delay-ms", delay_ms),
    TEXT("delay-schedule", delay_schedule),
    TEXT("rtt-pattern", rtt_pattern),
    NUMBER("loss-up", loss[DIR_UP], 0, 1, "--loss-up needs a probability in [0, 1]"),
    NUMBER("loss-down", loss[DIR_DOWN], 0, 1, "--loss-down needs a probability in [0, 1]"),
    {"seed", VALUE_COUNT, offsetof(options, seed), 0, 0, "--seed needs a non-negative integer"},
    TEXT("queue-up", queue_kind[DIR_UP]),
    TEXT("queue-up-args", queue_args[DIR_UP]),
    TEXT("queue-down", queue_kind[DIR_DOWN]),
    TEXT("queue-down-args", queue_args[DIR_DOWN]),
    TEXT("log-up", log_path[DIR_UP]),
    TEXT("log-down", log_path[DIR_DOWN]),
    TEXT("timing-log-up", timing_log_path[DIR_UP]),
    TEXT("timing-log-down", timing_log_path[DIR_DOWN]),
    TEXT("summary-json", summary_path),
    TEXT("state-dir", state_dir),
    TEXT("command-line", command_line),
    SWITCH("watch-stdin", watch_stdin),
    SWITCH("reclaim", reclaim_only),
};
#define FLAG_COUNT (sizeof flags / sizeof flags[0])
/* getopt_long returns flags[i] as FLAG_BASE + i, clear of its own '?' and ':' */
#define FLAG_BASE 256

void options_usage(void) {
    fprintf(stderr,
            "usage: linkem-fwd [--up-trace FILE | --up-mbps R] [--down-trace FILE | --down-mbps R]\n"
            "                  [--delay-ms D | --delay-schedule FILE | --rtt-pattern MIN:MAX:PERIOD_S:SEED]\n"
            "                  [--loss-up P] [--loss-down P] [--seed N]\n"
            "                  [--queue-up KIND --queue-up-args ARGS] [--queue-down KIND --queue-down-args ARGS]\n"
            "                  [--log-up FILE] [--log-down FILE] [--timing-log-up FILE] [--timing-log-down FILE]\n"
            "                  [--summary-json FILE]\n"
            "                  [--state-dir DIR] [--command-line TEXT] [--watch-stdin]\n"
            "       linkem-fwd --reclaim [--state-dir DIR]   (remove what killed instances left behind)\n");
}

/* Stores text (optarg) in the flag's field; 0, or -1 when it is not a valid value. */
static int set_value(options *o, const flag_spec *f, const char *text) {
    char *field = (char *)o + f->field, *end;
    errno = 0;
    switch (f->kind) {
    case VALUE_TEXT:
        memcpy(field, &text, sizeof text);
        return 0;
    case VALUE_NUMBER: {
        double v = strtod(text, &end);
        if (end == text || *end || errno || !isfinite(v) || v < f->min || v > f->max) return -1;
        memcpy(field, &v, sizeof v);
        return 0;
    }
    case VALUE_COUNT: {
        uint64_t v = strtoull(text, &end, 10);
        if (end == text || *end || errno || text[0] == '-') return -1;
        memcpy(field, &v, sizeof v);
        return 0;
    }
    case VALUE_SWITCH:
    default: {
        int on = 1;
        memcpy(field, &on, sizeof on);
        return 0;
    }
    }
}

/* What the flags cannot say one at a time. */
static int check_combinations(const options *o, char *err, size_t err_len) {
    for (int d = 0; d < 2; d++) {
        if (o->trace_path[d] && o->rate_mbps[d] > 0) {
            snprintf(err, err_len, "give a trace or a rate for the %s, not both", d == DIR_UP ? "uplink" : "downlink");
            return -1;
        }
    }
    if ((o->delay_ms != NULL) + (o->delay_schedule != NULL) + (o->rtt_pattern != NULL) > 1) {
        snprintf(err, err_len, "--delay-ms, --delay-schedule and --rtt-pattern exclude each other");
        return -1;
    }
    return 0;
}

int options_parse(int argc, char **argv, options *o, char *err, size_t err_len) {
    memset(o, 0, sizeof *o);
    o->state_dir = "/run/pcc-linkem";
    o->command_line = "";
    o->seed = 1;
    struct option longs[FLAG_COUNT + 1];
    for (size_t i = 0; i < FLAG_COUNT; i++)
        longs[i] = (struct option){flags[i].name, flags[i].kind == VALUE_SWITCH ? no_argument : required_argument, 0, FLAG_BASE + (int)i};
    longs[FLAG_COUNT] = (struct option){0, 0, 0, 0};
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (c < FLAG_BASE || (size_t)(c - FLAG_BASE) >= FLAG_COUNT) {
            snprintf(err, err_len, "unknown or incomplete option '%s'", argv[optind - 1]);
            return -1;
        }
        const flag_spec *f = &flags[c - FLAG_BASE];
        if (set_value(o, f, optarg) != 0) {
            snprintf(err, err_len, "%s (got '%s')", f->needs, optarg);
            return -1;
        }
    }
    if (optind < argc) {
        snprintf(err, err_len, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    return check_combinations(o, err, err_len);
}
