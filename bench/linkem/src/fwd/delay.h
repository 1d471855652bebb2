/* One-way propagation delay as a function of a packet's arrival time:
   fixed (as mm-delay), a schedule file of "time_ms one_way_delay_ms" lines, or the
   thesis's changing-RTT pattern (thesis ch. 3 "Rapidly Changing Networks", fig. 3.7: RTT drawn
   uniformly in [min, max] every period, here from a seed so runs repeat). */
#ifndef LINKEM_DELAY_H
#define LINKEM_DELAY_H

#include <stddef.h>
#include <stdint.h>

typedef enum { DELAY_FIXED, DELAY_SCHEDULE, DELAY_RTT_PATTERN } delay_kind;

typedef struct {
    delay_kind kind;
    uint64_t fixed_us;
    /* DELAY_SCHEDULE: step function, entry i holds from start_us[i] until start_us[i+1] */
    uint64_t *start_us;
    uint64_t *one_way_us;
    size_t count;
    /* DELAY_RTT_PATTERN */
    uint64_t rtt_min_us;
    uint64_t rtt_max_us;
    uint64_t period_us;
    uint64_t seed;
} delay_model;

void delay_init_fixed(delay_model *m, uint64_t one_way_us);
int delay_load_schedule(delay_model *m, const char *path, char *err, size_t err_len);
/* spec "MIN_RTT_MS:MAX_RTT_MS:PERIOD_S:SEED" */
int delay_parse_rtt_pattern(delay_model *m, const char *spec, char *err, size_t err_len);
/* One-way delay for a packet arriving elapsed_us after the emulator started. */
uint64_t delay_one_way_us(const delay_model *m, uint64_t elapsed_us);
void delay_free(delay_model *m);

#endif
