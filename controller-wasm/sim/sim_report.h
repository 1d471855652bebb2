/* Writes simulator results: one JSON object, a human-readable table, or the CSV time series. */
#ifndef PCC_SIM_REPORT_H
#define PCC_SIM_REPORT_H

#include <stdio.h>

#include "pcc_sim.h"

void sim_report_json(FILE *out, const pcc_sim_config *config, const pcc_sim_result *result);
void sim_report_table(FILE *out, const pcc_sim_config *config, const pcc_sim_result *result);
void sim_report_csv_header(FILE *out);
/* A pcc_sim_sample_fn; user_data is the FILE *. */
void sim_report_csv_row(const pcc_sim_sample *sample, void *user_data);

#endif
