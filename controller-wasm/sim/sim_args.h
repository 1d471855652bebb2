/* The pcc-sim command line: parses flags into a simulator config (the contract of issue 2, plus extras). */
#ifndef PCC_SIM_ARGS_H
#define PCC_SIM_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "pcc_sim.h"

typedef struct sim_cli_options {
    pcc_sim_config config;
    pcc_sim_flow_config flows[PCC_SIM_MAX_FLOWS];
    char cc_names[PCC_SIM_MAX_FLOWS][PCC_SIM_NAME_BYTES];
    char cc_params[1024];         /* --cc-param items joined by commas, applied to every flow */
    pcc_sim_video_config videos[PCC_SIM_MAX_FLOWS];   /* flows[i].video points here for video flows */
    double ladder_bps[PCC_SIM_VIDEO_MAX_RUNGS];       /* --video-abr */
    uint32_t *trace_ms;           /* owned */
    const char *trace_path;
    const char *csv_path;
    int json;
    int timing;                   /* --timing: log wall and CPU time to stderr (never to stdout) */
    int help;
} sim_cli_options;

/* 0 on success; -1 with a one-line reason. */
int sim_cli_parse(int argc, char **argv, sim_cli_options *options, char *error, size_t error_bytes);
void sim_cli_free(sim_cli_options *options);
const char *sim_cli_usage(void);

#endif
