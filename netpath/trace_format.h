/* The mahimahi trace format, read one way by every C program of the repository (pcc-sim, linkem-fwd).
 * The rules are in README.md ("Trace format"); the TypeScript reader (bench/linkem/src/driver/trace.ts)
 * follows the same rules and both are checked against test-vectors/traces/. */
#ifndef NETPATH_TRACE_FORMAT_H
#define NETPATH_TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* Bytes a link may send at one delivery opportunity (one trace line), as mahimahi's mm-link. */
#define MM_TRACE_OPPORTUNITY_BYTES 1504u
/* Largest timestamp: mahimahi reads each line into an int, so nothing later runs under mm-link either. */
#define MM_TRACE_MAX_MS 2147483647u
/* Largest number of timestamps (400 MB as uint32_t): a longer file is a mistake, not a trace. */
#define MM_TRACE_MAX_OPPORTUNITIES 100000000u

/* Parses `length` bytes of trace text. name labels error messages ("NAME:LINE: reason").
 * 0 with a malloc'd array in *ms_out (caller frees), or -1 with the reason in error and *ms_out NULL. */
int mm_trace_parse(const char *text, size_t length, const char *name, uint32_t **ms_out, size_t *count_out,
                   char *error, size_t error_bytes);

#endif
