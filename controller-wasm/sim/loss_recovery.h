/* The sender's RTT estimate and loss detection, as RFC 9002 (QUIC) §5 and §6: a packet is declared lost
 * once a packet sent 3 or more numbers later is acknowledged (packet threshold), or once it is older than
 * 9/8 · max(smoothed RTT, latest RTT) while a later packet has been acknowledged (time threshold). A probe
 * timeout (PTO) fires when acks stop arriving, so a sender whose whole window was lost can send again. */
#ifndef PCC_SIM_LOSS_RECOVERY_H
#define PCC_SIM_LOSS_RECOVERY_H

#include <stddef.h>
#include <stdint.h>

#define SIM_PACKET_THRESHOLD 3
#define SIM_TIME_THRESHOLD_NUMERATOR 9
#define SIM_TIME_THRESHOLD_DENOMINATOR 8
#define SIM_TIMER_GRANULARITY_US 1000
#define SIM_INITIAL_RTT_US 333000

typedef enum sim_packet_fate { SIM_FATE_IN_FLIGHT, SIM_FATE_ACKED, SIM_FATE_LOST } sim_packet_fate;

typedef struct sim_sent_record {
    int64_t sent_us;
    uint32_t bytes;
    uint8_t fate;
} sim_sent_record;

typedef struct sim_rtt_estimate {
    int has_sample;
    int64_t latest_us;
    int64_t smoothed_us;
    int64_t variation_us;
    int64_t min_us;
} sim_rtt_estimate;

typedef void (*sim_lost_fn)(void *context, uint64_t pn, uint32_t bytes);

typedef struct sim_loss_recovery {
    sim_sent_record *ring;        /* records of packet numbers [base_pn, base_pn + count) */
    size_t head;
    size_t count;
    size_t capacity;
    uint64_t base_pn;
    uint64_t next_pn;
    uint64_t scan_pn;             /* every packet below it is acked or lost */
    int has_largest_acked;
    uint64_t largest_acked;
    int64_t loss_time_us;         /* earliest time-threshold expiry; INT64_MAX when none */
    int64_t last_sent_us;
    uint32_t pto_count;
    uint64_t bytes_in_flight;
    sim_rtt_estimate rtt;
} sim_loss_recovery;

typedef enum sim_ack_result {
    SIM_ACK_NEW,        /* first ack of an in-flight packet */
    SIM_ACK_SPURIOUS,   /* ack of a packet already declared lost */
    SIM_ACK_IGNORED     /* duplicate or unknown */
} sim_ack_result;

void sim_loss_recovery_init(sim_loss_recovery *recovery);
void sim_loss_recovery_free(sim_loss_recovery *recovery);
/* Records the next packet number (returned in *pn). 0, or -1 when out of memory. */
int sim_loss_recovery_on_sent(sim_loss_recovery *recovery, uint32_t bytes, int64_t now_us, uint64_t *pn);
/* An ack for pn arrives at now_us; *rtt_us gets the RTT sample of a new ack. */
sim_ack_result sim_loss_recovery_on_ack(sim_loss_recovery *recovery, uint64_t pn, int64_t now_us, int64_t *rtt_us);
/* Declares lost what the thresholds say (call after acks and when the timer fires); returns how many. */
size_t sim_loss_recovery_detect(sim_loss_recovery *recovery, int64_t now_us, sim_lost_fn lost, void *context);
/* When the loss-time or probe timer should fire next; INT64_MAX when neither is armed. */
int64_t sim_loss_recovery_timer_us(const sim_loss_recovery *recovery);
/* The timer fired at now_us. Returns the number of probe packets the sender may send past its window
 * (0 when it was the loss-time timer, which declares losses through `lost`). */
int sim_loss_recovery_on_timer(sim_loss_recovery *recovery, int64_t now_us, sim_lost_fn lost, void *context);

#endif
