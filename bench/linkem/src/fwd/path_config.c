#include "path_config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_file.h"

/* --delay-ms beyond a minute is a typo, not a path */
#define MAX_FIXED_DELAY_MS 60000.0

static int build_link(const options *o, int d, path_config *pc, char *err, size_t err_len) {
    if (o->trace_path[d]) {
        if (mm_trace_read_file(o->trace_path[d], &pc->trace_ms[d], &pc->trace_count[d], err, err_len) != 0) return -1;
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
    return 0;
}

static int build_delay(const options *o, delay_model *delay, char *err, size_t err_len) {
    if (o->delay_schedule) return delay_load_schedule(delay, o->delay_schedule, err, err_len);
    if (o->rtt_pattern) return delay_parse_rtt_pattern(delay, o->rtt_pattern, err, err_len);
    double delay_ms = 0;
    if (o->delay_ms) {
        char *end;
        errno = 0;
        delay_ms = strtod(o->delay_ms, &end);
        if (end == o->delay_ms || *end || errno || !isfinite(delay_ms) || delay_ms < 0 || delay_ms > MAX_FIXED_DELAY_MS) {
            snprintf(err, err_len, "--delay-ms needs a one-way delay in [0, %.0f] ms (got '%s')", MAX_FIXED_DELAY_MS,
                     o->delay_ms);
            return -1;
        }
    }
    delay_init_fixed(delay, (uint64_t)llround(delay_ms * 1000.0));
    return 0;
}

int path_config_build(const options *o, path_config *pc, char *err, size_t err_len) {
    memset(pc, 0, sizeof *pc);
    for (int d = 0; d < 2; d++)
        if (build_link(o, d, pc, err, err_len) != 0) return -1;
    return build_delay(o, &pc->delay, err, err_len);
}

void path_config_free(path_config *pc) {
    for (int d = 0; d < 2; d++) {
        free(pc->trace_ms[d]);
        pc->trace_ms[d] = NULL;
    }
    delay_free(&pc->delay);
}
