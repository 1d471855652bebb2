/*
 * libFuzzer target `cc-api`: short programs over the C controller ABI (cc_api_program.h has the format and the
 * invariants). Every event kind with random times and sizes, but little traffic per input, so that it runs
 * thousands of programs a second under the sanitizers; cc_api_long.c gives inputs the traffic the 1,000-MI hold
 * invariant needs.
 */
#include "cc_api_program.h"

/* A hundred-odd packets and ticks (~0.1 ms an execution with the sanitizers, against ~10 ms for the long target's
 * traffic): a stretch still opens and closes MIs at short RTTs. */
static const program_limits SHORT_PROGRAM = {.link_send_budget = 128, .link_time_budget_us = 128000};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    run_program(data, size, &SHORT_PROGRAM);
    return 0;
}
