#include "packet_ledger.h"

#include <stdlib.h>

static size_t slot_index(const cc_packet_ledger *ledger, uint64_t pn) {
    return (size_t)(pn & (uint64_t)(ledger->capacity - 1));
}

int cc_ledger_init(cc_packet_ledger *ledger) {
    ledger->slots = calloc(CC_LEDGER_INITIAL_SLOTS, sizeof *ledger->slots);
    if (ledger->slots == NULL) return CC_ERR_NO_MEMORY;
    ledger->capacity = CC_LEDGER_INITIAL_SLOTS;
    ledger->base_pn = 0;
    ledger->end_pn = 0;
    ledger->in_flight_count = 0;
    ledger->has_sent = 0;
    return CC_OK;
}

void cc_ledger_release(cc_packet_ledger *ledger) {
    free(ledger->slots);
    ledger->slots = NULL;
    ledger->capacity = 0;
}

cc_sent_packet *cc_ledger_oldest(cc_packet_ledger *ledger) {
    if (ledger->in_flight_count == 0) return NULL;
    /* base_pn is kept on an in-flight packet whenever one exists (see advance_base). */
    return cc_ledger_find(ledger, ledger->base_pn);
}

static int grow(cc_packet_ledger *ledger, uint64_t span) {
    size_t capacity = ledger->capacity;
    while (capacity < span) capacity *= 2;
    if (capacity > CC_LEDGER_MAX_SLOTS) return CC_ERR_NO_MEMORY;
    cc_ledger_slot *slots = calloc(capacity, sizeof *slots);
    if (slots == NULL) return CC_ERR_NO_MEMORY;
    /* Re-index the live packets; everything outside [base, end) is empty by construction. */
    for (uint64_t pn = ledger->base_pn; pn < ledger->end_pn; pn++) {
        const cc_ledger_slot *old = &ledger->slots[slot_index(ledger, pn)];
        if (old->in_flight && old->packet.pn == pn) slots[(size_t)(pn & (uint64_t)(capacity - 1))] = *old;
    }
    free(ledger->slots);
    ledger->slots = slots;
    ledger->capacity = capacity;
    return CC_OK;
}

int cc_ledger_insert(cc_packet_ledger *ledger, uint64_t pn, cc_sent_packet **packet_out) {
    *packet_out = NULL;
    if (!cc_ledger_accepts(ledger, pn)) return CC_ERR_INVALID;
    if (ledger->in_flight_count == 0) ledger->base_pn = pn;
    uint64_t span = pn - ledger->base_pn + 1;
    if (span > ledger->capacity) {
        int status = grow(ledger, span);
        if (status != CC_OK) return status;
    }
    cc_ledger_slot *slot = &ledger->slots[slot_index(ledger, pn)];
    slot->in_flight = 1;
    slot->packet.pn = pn;
    ledger->end_pn = pn + 1;
    ledger->has_sent = 1;
    ledger->in_flight_count++;
    *packet_out = &slot->packet;
    return CC_OK;
}

static void advance_base(cc_packet_ledger *ledger) {
    if (ledger->in_flight_count == 0) {
        ledger->base_pn = ledger->end_pn;
        return;
    }
    /* Amortised O(1): each packet number is stepped over at most once. */
    for (;;) {
        const cc_ledger_slot *slot = &ledger->slots[slot_index(ledger, ledger->base_pn)];
        if (slot->in_flight && slot->packet.pn == ledger->base_pn) return;
        ledger->base_pn++;
    }
}

void cc_ledger_remove(cc_packet_ledger *ledger, cc_sent_packet *packet) {
    cc_ledger_slot *slot = (cc_ledger_slot *)(void *)packet; /* packet is the slot's first member */
    if (!slot->in_flight) return;
    slot->in_flight = 0;
    ledger->in_flight_count--;
    if (packet->pn == ledger->base_pn) advance_base(ledger);
}
