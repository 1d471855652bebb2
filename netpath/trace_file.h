/* Reads a mahimahi trace file: the only part of netpath that touches the file system (in the WebAssembly
 * build, which has none, the simulator receives timestamps from JavaScript instead). */
#ifndef NETPATH_TRACE_FILE_H
#define NETPATH_TRACE_FILE_H

#include <stddef.h>
#include <stdint.h>

/* 0 with a malloc'd array in *ms_out (caller frees), or -1 with a reason naming the file (and line). */
int mm_trace_read_file(const char *path, uint32_t **ms_out, size_t *count_out, char *error, size_t error_bytes);

#endif
