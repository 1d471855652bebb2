/* CoDel's parameters and state (RFC 8289); the discipline is queue_codel in queue_codel.c. */
#ifndef LINKEM_QUEUE_CODEL_H
#define LINKEM_QUEUE_CODEL_H

#include <stdint.h>

typedef struct {
    uint64_t target_us;
    uint64_t interval_us;
} codel_params;

/* RFC 8289 §5 */
typedef struct {
    uint64_t first_above_time_us;
    uint64_t drop_next_us;
    uint32_t drop_count;
    uint32_t last_drop_count;
    int dropping;
} codel_state;

#endif
