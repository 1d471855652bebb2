/* A Vivace controller whose state a test can reach: cc_create_with_ops(&capturing_ops, ...) leaves its state in
 * `captured` (a controller made from VIVACE_OPS keeps a pointer to it), so tests drive slow start one MI result at a
 * time. One per test executable (static). */
#ifndef PCC_TEST_VIVACE_CAPTURE_H
#define PCC_TEST_VIVACE_CAPTURE_H

#include "algorithms/vivace_state.h"

static vivace_state *captured;
static const cc_param_desc params[VIVACE_P_COUNT] = {VIVACE_PARAM_ROWS(900, 0, 0, 0, 0)};
static const pcc_hooks hooks = VIVACE_HOOKS(vivace_mi_utility);
static void capture_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    captured = state;
    vivace_init_with_hooks(state, ctx, &hooks);
}
static const cc_ops capturing_ops = VIVACE_OPS("vivace-captured", "test: Vivace with its state in reach", params, VIVACE_P_COUNT, capture_init);

#endif
