/* Reads a mahimahi trace file (one millisecond timestamp per line, non-decreasing) for the CLI. */
#ifndef PCC_SIM_TRACE_FILE_H
#define PCC_SIM_TRACE_FILE_H

#include <stddef.h>
#include <stdint.h>

/* 0 with a malloc'd array in *ms_out (caller frees), or -1 with a reason naming the file and line. */
int sim_trace_file_read(const char *path, uint32_t **ms_out, size_t *count_out, char *error, size_t error_bytes);

#endif
