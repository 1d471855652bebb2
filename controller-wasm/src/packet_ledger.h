/*
 * The sent-packet ledger: a ring of slots indexed by packet number (slot = pn mod capacity).
 * No allocation per packet; the ring grows geometrically when the span of outstanding packet numbers
 * outgrows it, up to CC_LEDGER_MAX_SLOTS. Packet numbers must increase but may have gaps.
 */
#ifndef PCC_PACKET_LEDGER_H
#define PCC_PACKET_LEDGER_H

#include "cc_algorithm.h"

#define CC_LEDGER_INITIAL_SLOTS 1024u
/* 2^18 outstanding packet numbers: 300 MB in flight at 1200 B, i.e. 10 Gbit/s over a 250 ms RTT. */
#define CC_LEDGER_MAX_SLOTS (1u << 18)

typedef struct cc_ledger_slot {
    cc_sent_packet packet;
    int in_flight;
} cc_ledger_slot;
/* One cache line per slot: a send writes one line and its ack, an RTT later, reads it back. */
_Static_assert(sizeof(cc_ledger_slot) <= 64, "a ledger slot should fit one 64-byte cache line");

typedef struct cc_packet_ledger {
    cc_ledger_slot *slots;
    size_t capacity;            /* power of two */
    uint64_t base_pn;           /* no packet below this is in flight */
    uint64_t end_pn;            /* highest packet number sent + 1 */
    size_t in_flight_count;
    int has_sent;
} cc_packet_ledger;

int cc_ledger_init(cc_packet_ledger *ledger);
void cc_ledger_release(cc_packet_ledger *ledger);

/* The per-packet lookups are inline: they run once or twice for every packet and ack. */

/* 1 when pn is a valid next packet number (greater than every one sent so far). UINT64_MAX is refused:
 * end_pn = pn + 1 must not wrap to 0. */
static inline int cc_ledger_accepts(const cc_packet_ledger *ledger, uint64_t pn) {
    return pn != UINT64_MAX && (!ledger->has_sent || pn >= ledger->end_pn);
}

/* 1 when recording pn would need more than CC_LEDGER_MAX_SLOTS: the oldest packet must be evicted first.
 * (An empty ledger re-bases at pn.) */
static inline int cc_ledger_needs_eviction(const cc_packet_ledger *ledger, uint64_t pn) {
    return ledger->in_flight_count > 0 && cc_ledger_accepts(ledger, pn) && pn - ledger->base_pn + 1 > CC_LEDGER_MAX_SLOTS;
}
/* The in-flight packet with the lowest number, or NULL. */
cc_sent_packet *cc_ledger_oldest(cc_packet_ledger *ledger);

/* Reserves the slot for pn (caller fills it). CC_ERR_INVALID if pn does not increase,
 * CC_ERR_NO_MEMORY if the ring could not grow (ledger unchanged). */
int cc_ledger_insert(cc_packet_ledger *ledger, uint64_t pn, cc_sent_packet **packet_out);

/* The in-flight packet with number pn, or NULL (unknown, already acked or lost). */
static inline cc_sent_packet *cc_ledger_find(cc_packet_ledger *ledger, uint64_t pn) {
    if (ledger->in_flight_count == 0 || pn < ledger->base_pn || pn >= ledger->end_pn) return NULL;
    cc_ledger_slot *slot = &ledger->slots[(size_t)(pn & (uint64_t)(ledger->capacity - 1))];
    return slot->in_flight && slot->packet.pn == pn ? &slot->packet : NULL;
}
/* Forgets an in-flight packet returned by cc_ledger_find/oldest. */
void cc_ledger_remove(cc_packet_ledger *ledger, cc_sent_packet *packet);

#endif /* PCC_PACKET_LEDGER_H */
