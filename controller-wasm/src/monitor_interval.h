/*
 * Monitor-interval (MI) bookkeeping shared by the PCC algorithms (thesis §3.2.2).
 *
 * The sender's timeline is cut into MIs, each sent at one target rate. A packet belongs to the MI in
 * which it was sent; because packet numbers increase with send order, an MI owns a contiguous range
 * of packet numbers, so attributing an ack or a loss is a search over the few MIs in flight, never
 * over packets. An MI completes when the fate of every packet it sent is known (acked or declared
 * lost), or times out when that takes longer than the caller's timeout after it stopped sending
 * (thesis §4.4.4 "MI timeout"). Completed MIs are handed back strictly in send order.
 *
 * Everything is O(1) per event (bounded by PCC_MI_CAPACITY) and allocation-free.
 */
#ifndef PCC_MONITOR_INTERVAL_H
#define PCC_MONITOR_INTERVAL_H

#include "cc_algorithm.h"

/* MIs tracked at once (the open one plus those awaiting feedback). When full, the oldest is timed out. */
#define PCC_MI_CAPACITY 32
/* A pause after an MI's last packet longer than this many packet spacings (and PCC_MI_IDLE_MIN_US) is
 * the sender being idle, not sending: it is left out of the MI's duration. */
#define PCC_MI_IDLE_FACTOR 4.0
#define PCC_MI_IDLE_MIN_US 2000.0

/* A least-squares line of y on x, kept as running means and co-moments (Welford) for a stable regression. */
typedef struct pcc_regression {
    uint32_t n;
    double mean_x, mean_y;
    double m2_x;                  /* sum of squared deviations of x */
    double m2_y;
    double co_moment;             /* sum of (x dev) * (y dev) */
} pcc_regression;

typedef struct pcc_mi {
    uint64_t id;                  /* increases by one per MI */
    int tag;                      /* the algorithm's label (probe up/down, slow start, ...) */
    uint64_t epoch;               /* the algorithm's decision epoch when the MI was opened */
    double target_rate_bytes_per_s;
    int64_t start_time_us;        /* first send */
    int64_t end_time_us;          /* when sending in it stopped (close time) */
    int64_t idle_us;              /* pauses between its packets with nothing to send: not part of its duration */
    int open;                     /* still accepting packets */
    int timed_out;                /* finished by timeout with some packets' fate unknown */
    int app_limited;              /* the sender said it ran out of data while the MI was open */
    int64_t expected_delay_us;    /* feedback expected this long after the MI ended (0: at once); the
                                   * timeout counts from there (set by the algorithm at start) */
    uint64_t first_pn;
    uint64_t last_pn;
    uint32_t packets_sent, packets_acked, packets_lost;
    uint64_t bytes_sent, bytes_acked, bytes_lost;
    /* The receiver's clock (recv_time_us of its acks): its first and last time, the bytes acknowledged with a
     * time, and how many of those bytes carry the first time (received by then, so outside the span). */
    int64_t recv_first_us, recv_last_us;
    uint64_t bytes_recv_timed, bytes_at_recv_first;
    /* An MI whose every receiver time is one ACK frame's (pcc_mi_end_frame): the bytes that frame acknowledged before
     * the MI's first, whether its result waits for the frame's end, and then the span's start and bytes (0: none). */
    uint64_t frame_bytes_before;
    int frame_pending;
    int64_t frame_span_start_us;
    uint64_t frame_span_bytes;
    /* RTT (us) on send time (us, relative to start_time_us). */
    pcc_regression rtt;
    /* Packets acknowledged together share one RTT sample (and its timing noise): the regression's
     * standard error counts runs of equal samples once, not every packet. */
    uint32_t rtt_distinct_samples;
    int64_t last_rtt_us;
    int64_t lowest_rtt_us;        /* the lowest of the samples in rtt (valid once rtt.n > 0) */
    /* The one-way delay (the receiver's time less the send time, us; the clocks' offset cancels in the slope) on send
     * time, over the acks that carry a receiver time. */
    pcc_regression owd;
    /* The queue the MI's own sends would build at a bottleneck of exactly its target rate (us, on send time): what
     * the sender's unevenness inside the MI (a late send turn, then its catch-up) adds to the RTT's slope whatever
     * the path's capacity. A fluid sender (the simulator's) keeps it flat. */
    double emission_queue_bytes;
    pcc_regression emission_queue;
} pcc_mi;

/* Closed MIs whose achieved send rate is remembered (see pcc_mi_recent_send_rate). */
#define PCC_MI_RECENT_RATES 4

typedef struct pcc_mi_tracker {
    pcc_mi ring[PCC_MI_CAPACITY];
    size_t head;                  /* oldest MI */
    size_t count;
    uint64_t next_id;
    double recent_send_rate_bytes_per_s[PCC_MI_RECENT_RATES];
    size_t recent_rates_written;
    int out_of_data;              /* the sender said it ran out of data since its last packet (cc_on_app_state) */
    /* the first ack after the latest silence of the acks (path_silence.h), as the algorithm passes it on; 0: none */
    int64_t ack_silence_end_us;
    /* ACK frames, told apart by their receiver time (the origin passes each frame's largest; the simulator each
     * packet's arrival): the one being read, where the receipts before it ended (0: unknown), the latest time seen,
     * the bytes the one being read acknowledged so far, MIs waiting for its end, and the lowest receiver time less
     * send time seen (the one-way delay plus the clocks' offset). */
    int64_t frame_recv_us, previous_frame_recv_us, latest_recv_us;
    uint64_t frame_bytes;
    int frame_pending_mis;
    int frame_open;               /* an ack of the frame being read came since its end was last noted */
    int have_recv_offset;
    int64_t min_recv_offset_us;
} pcc_mi_tracker;

/* What a finished MI reports. */
typedef struct pcc_mi_result {
    cc_mi_stats stats;
    int tag;
    uint64_t epoch;
    uint64_t id;
    int timed_out;                /* fate of some packets unknown when it was finished */
    int app_limited;              /* the sender ran out of data while it was open (pcc_mi_mark_app_limited) */
    double rtt_gradient_stderr;   /* standard error of the regression slope (0 with < 3 samples) */
    /* d(one-way delay)/dt over send time, dimensionless, as rtt_gradient but on the receiver's clock: the forward
     * path's share of the RTT's rise; owd_gradient_known is 0 with fewer than 2 receiver-timed acks at 2 send times */
    double owd_gradient;
    int owd_gradient_known;
    /* d(emission queue)/dt over send time (pcc_mi.emission_queue): the RTT gradient the sender's own unevenness
     * explains; 0 when the MI has no target rate */
    double emission_gradient;
    pcc_regression rtt;           /* its RTT (us) on send time (us after start_time_us), to pool with other MIs' */
    uint64_t first_pn, last_pn;   /* for cc_set_mi_observer */
    int64_t start_time_us, end_time_us;
    int64_t lowest_rtt_us;        /* the lowest of its RTT samples, those of the gradient (valid when stats.rtt_samples > 0) */
} pcc_mi_result;

void pcc_mi_tracker_init(pcc_mi_tracker *tracker);

/* The MI packets are being sent in now, or NULL. */
pcc_mi *pcc_mi_open(const pcc_mi_tracker *tracker);
/* Closes the open MI (if any) at now_us, so it only waits for feedback. */
void pcc_mi_close(pcc_mi_tracker *tracker, int64_t now_us);
/* Closes the open MI and opens a new one. Returns NULL (and leaves the open MI open, so it simply
 * lasts longer) when PCC_MI_CAPACITY MIs are already tracked. */
pcc_mi *pcc_mi_start(pcc_mi_tracker *tracker, double target_rate_bytes_per_s, int tag, uint64_t epoch,
                     int64_t now_us);

/* Packet events; packets outside every tracked MI are ignored. on_ack/on_loss return 1 when the event
 * completed a closed MI, i.e. when pcc_mi_pop_result may have something new (saves polling per ack).
 * recv_time_us: when the receiver got the packet (or the largest packet its ACK acknowledged), on the receiver's
 * clock; 0 when unknown. */
void pcc_mi_on_sent(pcc_mi_tracker *tracker, const cc_sent_packet *packet);
int pcc_mi_on_ack(pcc_mi_tracker *tracker, const cc_sent_packet *packet, int64_t rtt_us, int64_t recv_time_us);
int pcc_mi_on_loss(pcc_mi_tracker *tracker, const cc_sent_packet *packet);
/* The ACK frame being read has ended (any event other than its own acks; an ack with another receiver time ends it
 * too). An MI completed inside one frame waits for this: its delivery counts the whole frame. Returns 1 when that
 * released a result for pcc_mi_pop_result. */
int pcc_mi_end_frame(pcc_mi_tracker *tracker);

/* Finishes closed MIs whose feedback is overdue: more than timeout_us past the MI's end plus its
 * expected_delay_us. */
void pcc_mi_expire(pcc_mi_tracker *tracker, int64_t now_us, int64_t timeout_us);

/* Pops the oldest MI if it is finished (complete or timed out); returns 1 and fills *out, else 0.
 * min_rtt_us is copied into the stats for the utility function. */
int pcc_mi_pop_result(pcc_mi_tracker *tracker, double min_rtt_us, pcc_mi_result *out);

/* Statistics of an MI as they stand (used by pcc_mi_pop_result; exposed for tests and telemetry). */
void pcc_mi_compute_stats(const pcc_mi *mi, double min_rtt_us, cc_mi_stats *out, double *rtt_gradient_stderr);

/* Pools regression b into a, b's x shifted by x_offset (b's origin less a's) first (Chan et al.'s parallel update). */
void pcc_regression_merge(pcc_regression *a, const pcc_regression *b, double x_offset);
/* The regression's slope, dy/dx; 0 with fewer than 2 points at 2 x values. */
double pcc_regression_slope(const pcc_regression *g);

/* The sender ran out of data (cc_on_app_limited): the open MI, if it sent anything, is marked app-limited. */
void pcc_mi_mark_app_limited(pcc_mi_tracker *tracker);
/* The highest send rate actually achieved over the last PCC_MI_RECENT_RATES closed MIs (bytes sent over
 * the time spent sending, idle pauses excluded), or 0 before any MI closed. An application or a CPU that
 * cannot fill the target rate shows here. */
double pcc_mi_recent_send_rate(const pcc_mi_tracker *tracker);

/* Number of MIs tracked (open + awaiting feedback + finished but not popped). */
size_t pcc_mi_count(const pcc_mi_tracker *tracker);

#endif /* PCC_MONITOR_INTERVAL_H */
