/* A bulk sender driven by one controller: paced at cc_pacing_rate, limited by cc_cwnd, numbering its
 * packets and detecting losses as RFC 9002 (loss_recovery.h), reporting every event to the controller. */
#ifndef PCC_SIM_SENDER_H
#define PCC_SIM_SENDER_H

#include <stddef.h>
#include <stdint.h>

#include "loss_recovery.h"
#include "pcc/cc.h"
#include "pcc_sim.h"
#include "sim_packet.h"
#include "sim_rng.h"

typedef struct sim_sender {
    cc_controller *cc;
    uint32_t packet_bytes;
    int64_t start_us;
    int has_sent;
    double last_send_exact_us;   /* pacing schedule, kept fractional so it does not drift */
    int64_t send_jitter_us;      /* packets leave up to this late (uniform), off the schedule */
    double next_jitter_us;       /* lateness drawn for the next packet */
    sim_rng jitter_rng;
    int probe_credit;            /* packets the PTO lets us send past the window */
    sim_loss_recovery recovery;
    uint64_t packets_declared_lost;
    uint64_t spurious_losses;
    int64_t event_now_us;        /* time of the event being handled (for loss callbacks) */
    /* A video flow's sender sends only while its application has data (has_data, kept by the caller), and hears
     * of every packet it declares lost (on_declared_lost), so the data goes out again. Bulk: always data. */
    int data_limited;
    int has_data;
    void (*on_declared_lost)(void *context, uint64_t pn);
    void *lost_context;
} sim_sender;

/* Creates the controller and applies the flow's parameters. 0, or -1 with a reason in error. */
int sim_sender_init(sim_sender *sender, const pcc_sim_flow_config *flow, uint64_t seed, char *error,
                    size_t error_bytes);
void sim_sender_free(sim_sender *sender);
/* Every packet then leaves a uniform random 0..jitter_us after its pacing time (stream of seed). */
void sim_sender_set_send_jitter(sim_sender *sender, int64_t jitter_us, uint64_t seed, uint64_t stream);

/* When the pacer next allows a packet (never before start), or INT64_MAX while the window is full. */
int64_t sim_sender_next_send_us(const sim_sender *sender, int64_t now_us);
/* Sends one packet if pacing and window allow at now_us. 1 sent (pn, bytes, sent_us filled), 0 not now,
 * -1 out of memory. */
int sim_sender_send(sim_sender *sender, int64_t now_us, sim_packet *packet);
/* An ack for pn (received by the peer at recv_us) arrives at now_us. Returns 1 with *rtt_us set when it
 * acknowledged a packet for the first time, else 0. */
int sim_sender_on_ack(sim_sender *sender, uint64_t pn, int64_t recv_us, int64_t now_us, int64_t *rtt_us);
int64_t sim_sender_timer_us(const sim_sender *sender);
void sim_sender_on_timer(sim_sender *sender, int64_t now_us);
void sim_sender_on_tick(sim_sender *sender, int64_t now_us);

#endif
