/*
 * pcc-sim-json: the native twin of the WASM simulator export. Runs pcc-sim arguments through the same
 * sim_runner.c and prints its JSON document, so tests can compare native and WASM runs byte for byte.
 *
 * usage: pcc-sim-json [--samples] [--trace-ms-file FILE] -- PCC-SIM-ARGS...
 * (--trace-ms-file stands in for the in-memory trace the WASM side receives.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim_runner.h"
#include "trace_file.h"

int main(int argc, char **argv) {
    int with_samples = 0;
    const char *trace_path = NULL;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--samples") == 0) {
            with_samples = 1;
        } else if (strcmp(argv[i], "--trace-ms-file") == 0 && i + 1 < argc) {
            trace_path = argv[++i];
        } else {
            fprintf(stderr, "usage: pcc-sim-json [--samples] [--trace-ms-file FILE] -- PCC-SIM-ARGS...\n");
            return 2;
        }
    }
    if (i == argc) {
        fprintf(stderr, "pcc-sim-json: missing -- before the pcc-sim arguments\n");
        return 2;
    }
    uint32_t *trace_ms = NULL;
    size_t trace_count = 0;
    char error[512];
    if (trace_path != NULL && mm_trace_read_file(trace_path, &trace_ms, &trace_count, error, sizeof error) != 0) {
        fprintf(stderr, "pcc-sim-json: %s\n", error);
        return 2;
    }
    /* argv[i] is "--": it stands in for the program name the CLI parser skips. */
    char *document = pccw_sim_run_args(argc - i, argv + i, trace_ms, trace_count, with_samples);
    free(trace_ms);
    if (document == NULL) {
        fprintf(stderr, "pcc-sim-json: out of memory\n");
        return 1;
    }
    puts(document);
    int ok = strncmp(document, "{\"ok\":true", 10) == 0;
    free(document);
    return ok ? 0 : 2;
}
