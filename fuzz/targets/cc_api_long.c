/*
 * libFuzzer target `cc-api-long`: long programs over the C controller ABI (cc_api_program.h has the format and the
 * invariants), with the traffic the "no state held for more than 1,000 MIs while its inputs change" invariant needs
 * to be reachable. Fewer executions than cc_api.c's short programs; both check the same things.
 */
#include "cc_api_program.h"

/* Room for 1,000 MIs of ~10 packets; the stretches' own lengths (up to 5.1 s each) bound the time. One input stays
 * under ~100 ms with the sanitizers. */
static const program_limits LONG_PROGRAM = {.link_send_budget = 16000, .link_time_budget_us = INT64_MAX};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    run_program(data, size, &LONG_PROGRAM);
    return 0;
}
