/* The app-state event as the tests' senders use it: "ran out of data now", video fields unknown. */
#ifndef PCC_TEST_APP_STATE_H
#define PCC_TEST_APP_STATE_H

#include "pcc/cc.h"

static inline void mark_app_limited(cc_controller *cc, int64_t now_us) {
    cc_app_state state = {.app_limited = 1, .buffer_ms = CC_APP_UNKNOWN, .bitrate_bps = CC_APP_UNKNOWN, .deadline_us = CC_APP_UNKNOWN};
    cc_on_app_state(cc, &state, now_us);
}

#endif /* PCC_TEST_APP_STATE_H */
