#include "trace_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_format.h"

/* Every digit, newline and CR of the largest valid trace, with room to spare: larger is not a trace. */
#define MM_TRACE_MAX_FILE_BYTES ((size_t)MM_TRACE_MAX_OPPORTUNITIES * 16u)

int mm_trace_read_file(const char *path, uint32_t **ms_out, size_t *count_out, char *error, size_t error_bytes) {
    *ms_out = NULL;
    *count_out = 0;
    FILE *file = fopen(path, "rb");
    if (!file) {
        snprintf(error, error_bytes, "%s: cannot open trace: %s", path, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t length = 0, capacity = 0;
    int status = 0;
    for (;;) {
        if (length == capacity) {
            if (capacity >= MM_TRACE_MAX_FILE_BYTES) {
                snprintf(error, error_bytes, "%s: larger than %zu bytes, not a trace", path, MM_TRACE_MAX_FILE_BYTES);
                status = -1;
                break;
            }
            size_t grown = capacity ? capacity * 2 : 1u << 16;
            char *bigger = realloc(text, grown);
            if (!bigger) {
                snprintf(error, error_bytes, "%s: out of memory", path);
                status = -1;
                break;
            }
            text = bigger;
            capacity = grown;
        }
        size_t got = fread(text + length, 1, capacity - length, file);
        length += got;
        if (got == 0) break;
    }
    if (status == 0 && ferror(file)) {
        snprintf(error, error_bytes, "%s: cannot read trace: %s", path, strerror(errno));
        status = -1;
    }
    fclose(file);
    if (status == 0) status = mm_trace_parse(text, length, path, ms_out, count_out, error, error_bytes);
    free(text);
    return status;
}
