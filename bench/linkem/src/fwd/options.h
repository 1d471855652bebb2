/* The forwarder's command line (normally built by the TypeScript CLI, which validates first). */
#ifndef LINKEM_OPTIONS_H
#define LINKEM_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

enum { DIR_UP = 0, DIR_DOWN = 1 };

typedef struct {
    const char *trace_path[2]; /* NULL: no trace */
    double rate_mbps[2];       /* 0: not set */
    const char *delay_ms;      /* fixed one-way delay */
    const char *delay_schedule;
    const char *rtt_pattern;
    double loss[2];
    uint64_t seed;
    const char *queue_kind[2];
    const char *queue_args[2];
    const char *log_path[2];
    const char *timing_log_path[2]; /* per packet written: the forwarder's read, model departure and write times */
    const char *summary_path;
    const char *state_dir;
    const char *command_line; /* recorded in log headers */
    int watch_stdin;          /* exit (and clean up) when stdin closes: the parent died */
    int reclaim_only;         /* remove dead instances' leftovers and exit */
} options;

int options_parse(int argc, char **argv, options *o, char *err, size_t err_len);
void options_usage(void);

#endif
