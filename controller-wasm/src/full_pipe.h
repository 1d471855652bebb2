/*
 * BBR's full-pipe test (BBR paper, "startup"; Linux tcp_bbr.c bbr_check_full_bw_reached): the pipe is full when the
 * delivery-rate estimate has not grown by a factor (1.25) over a number of rounds (3) in a row. Shared by BBR's
 * startup and Vivace's slow start (slow_start_persistent_queue), each feeding it once per round.
 */
#ifndef PCC_FULL_PIPE_H
#define PCC_FULL_PIPE_H

typedef struct cc_full_pipe {
    double full_bytes_per_s;      /* the reference estimate: the last one that grew by the factor */
    unsigned rounds_without_growth;
} cc_full_pipe;

/* One round's estimate; returns the rounds in a row without the growth (0 when this one grew). */
static inline unsigned cc_full_pipe_round(cc_full_pipe *p, double bytes_per_s, double growth) {
    if (bytes_per_s >= p->full_bytes_per_s * growth) {
        p->full_bytes_per_s = bytes_per_s;
        p->rounds_without_growth = 0;
    } else {
        p->rounds_without_growth++;
    }
    return p->rounds_without_growth;
}

#endif /* PCC_FULL_PIPE_H */
