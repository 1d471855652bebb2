#include "trace_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_TRACE_MAX_LINES 100000000u

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\r'; }

int sim_trace_file_read(const char *path, uint32_t **ms_out, size_t *count_out, char *error, size_t error_bytes) {
    *ms_out = NULL;
    *count_out = 0;
    FILE *file = fopen(path, "rb");
    if (!file) {
        snprintf(error, error_bytes, "cannot open trace %s: %s", path, strerror(errno));
        return -1;
    }
    uint32_t *ms = NULL;
    size_t count = 0, capacity = 0;
    size_t line_number = 0;
    char line[128];
    int status = 0;
    while (fgets(line, sizeof line, file)) {
        line_number++;
        size_t length = strlen(line);
        if (length == sizeof line - 1 && line[length - 1] != '\n' && !feof(file)) {
            snprintf(error, error_bytes, "%s:%zu: line too long for a millisecond timestamp", path, line_number);
            status = -1;
            break;
        }
        char *cursor = line;
        while (is_space((unsigned char)*cursor)) cursor++;
        if (*cursor == '\n' || *cursor == '\0') continue;  /* blank lines (e.g. a final newline) carry nothing */
        if (*cursor < '0' || *cursor > '9') {
            snprintf(error, error_bytes, "%s:%zu: expected a non-negative integer millisecond timestamp", path,
                     line_number);
            status = -1;
            break;
        }
        errno = 0;
        char *end = NULL;
        unsigned long long value = strtoull(cursor, &end, 10);
        while (is_space((unsigned char)*end)) end++;
        if (errno != 0 || value > UINT32_MAX || (*end != '\n' && *end != '\0')) {
            snprintf(error, error_bytes, "%s:%zu: expected a non-negative integer millisecond timestamp", path,
                     line_number);
            status = -1;
            break;
        }
        if (count > 0 && (uint32_t)value < ms[count - 1]) {
            snprintf(error, error_bytes, "%s:%zu: timestamp %llu is earlier than the previous line's %u", path,
                     line_number, value, ms[count - 1]);
            status = -1;
            break;
        }
        if (count == capacity) {
            if (capacity >= SIM_TRACE_MAX_LINES) {
                snprintf(error, error_bytes, "%s: more than %u lines", path, SIM_TRACE_MAX_LINES);
                status = -1;
                break;
            }
            size_t grown = capacity ? capacity * 2 : 4096;
            uint32_t *bigger = realloc(ms, grown * sizeof *bigger);
            if (!bigger) {
                snprintf(error, error_bytes, "%s: out of memory", path);
                status = -1;
                break;
            }
            ms = bigger;
            capacity = grown;
        }
        ms[count++] = (uint32_t)value;
    }
    if (status == 0 && ferror(file)) {
        snprintf(error, error_bytes, "cannot read trace %s", path);
        status = -1;
    }
    fclose(file);
    if (status == 0 && count == 0) {
        snprintf(error, error_bytes, "%s: trace has no timestamps", path);
        status = -1;
    }
    if (status == 0 && ms[count - 1] == 0) {
        snprintf(error, error_bytes, "%s: last timestamp is 0, the trace would loop forever at one instant", path);
        status = -1;
    }
    if (status != 0) {
        free(ms);
        return -1;
    }
    *ms_out = ms;
    *count_out = count;
    return 0;
}
