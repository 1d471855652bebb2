/* The simulator as a WASM export: pcc-sim arguments in, one JSON document out (see ../sim_runner.h). */
#include <emscripten/emscripten.h>
#include <stdint.h>
#include <stdlib.h>

#include "../sim_runner.h"

/* argv: argc pointers to NUL-terminated strings; trace_ms: trace_count uint32 timestamps (or NULL).
 * Returns a malloc'd JSON string (free with pccw_sim_free), NULL when memory ran out. */
EMSCRIPTEN_KEEPALIVE char *pccw_sim_run(int argc, char **argv, const uint32_t *trace_ms, int trace_count, int with_samples) {
    if (argc < 1 || argv == NULL || trace_count < 0) return NULL;
    return pccw_sim_run_args(argc, argv, trace_ms, (size_t)trace_count, with_samples);
}

EMSCRIPTEN_KEEPALIVE void pccw_sim_free(char *json) { free(json); }
