/* Everything the emulated path is made of (per direction: the link's schedule and queue; the delay),
   read and checked from the options before the system is touched, so bad input fails with exit 2 and
   nothing to clean up. */
#ifndef LINKEM_PATH_CONFIG_H
#define LINKEM_PATH_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "delay.h"
#include "link.h"
#include "options.h"
#include "queue.h"

typedef struct {
    link_kind kind[2];
    uint32_t *trace_ms[2]; /* LINK_TRACE: handed to the link, which frees it */
    size_t trace_count[2];
    double rate_bps[2];
    char trace_desc[2][512];
    queue_config queue[2];
    char queue_desc[2][160];
    delay_model delay;
} path_config;

/* 0, or -1 with err (a bad trace, queue, delay or delay file). */
int path_config_build(const options *o, path_config *pc, char *err, size_t err_len);
void path_config_free(path_config *pc);

#endif
