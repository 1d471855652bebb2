/*
 * Runs the packet-level simulator from pcc-sim command-line arguments and returns everything as one JSON
 * document, so JavaScript (through WASM) and the native tool produce byte-identical text for the same run.
 * The arguments go through the CLI's own parser (sim/sim_args.c) and the "report" member is exactly what
 * `pcc-sim --json` prints; "result" repeats the run's figures at full precision (17 significant digits).
 */
#ifndef PCCW_SIM_RUNNER_H
#define PCCW_SIM_RUNNER_H

#include <stddef.h>
#include <stdint.h>

/* argv[0] is ignored (a program name, as in main). trace_ms (may be NULL) replaces --trace FILE, which
 * needs a file system. with_samples != 0 adds the per-interval time series ("samples", --sample-ms).
 * Returns a malloc'd, NUL-terminated JSON object: {"ok":true,"report":{...},"result":{...}[,"samples":[...]]}
 * or {"ok":false,"error":"..."}; NULL only when memory ran out. */
char *pccw_sim_run_args(int argc, char **argv, const uint32_t *trace_ms, size_t trace_ms_count, int with_samples);

#endif /* PCCW_SIM_RUNNER_H */
