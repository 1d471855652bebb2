/* One flow of the "fixed" controller at a set rate, for the tests that read RTT samples off a path with no queue
 * (the link keeps pcc_sim_config_init's defaults unless the test changes run->config). Include after check.h. */
#ifndef PCC_SIM_TEST_FIXED_FLOW_H
#define PCC_SIM_TEST_FIXED_FLOW_H

#include <stdio.h>
#include <string.h>

#include "pcc_sim.h"

typedef struct fixed_run {
    pcc_sim_flow_config flow;
    pcc_sim_config config;
    char params[96];
} fixed_run;

static inline void fixed_run_init(fixed_run *run, double rate_bps, int64_t base_rtt_us, int64_t duration_us) {
    memset(run, 0, sizeof *run);
    snprintf(run->params, sizeof run->params, "rate_bps=%.0f,initial_rate_bps=%.0f", rate_bps, rate_bps);
    run->flow.cc = "fixed";
    run->flow.cc_params = run->params;
    run->flow.base_rtt_us = base_rtt_us;
    pcc_sim_config_init(&run->config);
    run->config.duration_us = duration_us;
    run->config.flow_count = 1;
}

static inline pcc_sim_result fixed_run_go(fixed_run *run) {
    run->config.flows = &run->flow;
    pcc_sim_result result;
    char error[256] = "";
    int status = pcc_sim_run(&run->config, &result, error, sizeof error);
    if (status != PCC_SIM_OK) fprintf(stderr, "pcc_sim_run: %s\n", error);
    CHECK(status == PCC_SIM_OK);
    return result;
}

#endif
