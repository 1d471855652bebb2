/* pcc-sim: the simulator's command line. Exit 0 on success, 2 on bad input, 1 on an internal failure. */
#define _POSIX_C_SOURCE 200809L  /* clock_gettime(CLOCK_MONOTONIC) for --timing */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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
    struct timespec wall_start, wall_end;
    clock_gettime(CLOCK_MONOTONIC, &wall_start);
    clock_t cpu_start = clock();
    int status = pcc_sim_run(&options.config, &result, error, sizeof error);
    double cpu_s = (double)(clock() - cpu_start) / CLOCKS_PER_SEC;
    clock_gettime(CLOCK_MONOTONIC, &wall_end);
    double wall_s = (double)(wall_end.tv_sec - wall_start.tv_sec) + (double)(wall_end.tv_nsec - wall_start.tv_nsec) / 1e9;
    if (options.timing && status == PCC_SIM_OK) {
        /* Timing goes to stderr only: stdout stays identical run after run. */
        fprintf(stderr, "{\"event\":\"sim_timing\",\"wall_s\":%.6f,\"cpu_s\":%.6f,\"packets\":%llu,\"events\":%llu}\n",
                wall_s, cpu_s, (unsigned long long)result.packets_simulated,
                (unsigned long long)result.events_processed);
    }
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
    pcc_sim_result_free(&result);
    sim_cli_free(&options);
    return 0;
}
