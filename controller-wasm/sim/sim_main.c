/* pcc-sim: the simulator's command line. Exit 0 on success, 2 on bad input, 1 on an internal failure. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pcc_sim.h"
#include "sim_args.h"
#include "sim_report.h"

int main(int argc, char **argv) {
    static sim_cli_options options;
    char error[512] = "";
    if (sim_cli_parse(argc, argv, &options, error, sizeof error) != 0) {
        fprintf(stderr, "pcc-sim: %s\n(run pcc-sim --help for usage)\n", error);
        sim_cli_free(&options);
        return 2;
    }
    if (options.help) {
        fputs(sim_cli_usage(), stdout);
        sim_cli_free(&options);
        return 0;
    }
    FILE *csv = NULL;
    if (options.csv_path) {
        csv = fopen(options.csv_path, "w");
        if (!csv) {
            fprintf(stderr, "pcc-sim: cannot write %s: %s\n", options.csv_path, strerror(errno));
            sim_cli_free(&options);
            return 2;
        }
        sim_report_csv_header(csv);
        options.config.on_sample = sim_report_csv_row;
        options.config.user_data = csv;
    }
    static pcc_sim_result result;
    int status = pcc_sim_run(&options.config, &result, error, sizeof error);
    int csv_failed = csv && fclose(csv) != 0;
    if (status != PCC_SIM_OK) {
        fprintf(stderr, "pcc-sim: %s\n", error);
        sim_cli_free(&options);
        return status == PCC_SIM_ERR_INVALID ? 2 : 1;
    }
    if (csv_failed) {
        fprintf(stderr, "pcc-sim: writing %s failed\n", options.csv_path);
        sim_cli_free(&options);
        return 1;
    }
    if (options.json) sim_report_json(stdout, &options.config, &result);
    else sim_report_table(stdout, &options.config, &result);
    sim_cli_free(&options);
    return 0;
}
