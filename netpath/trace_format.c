#include "trace_format.h"

#include <stdio.h>
#include <stdlib.h>

static int is_blank(char c) { return c == ' ' || c == '\t'; }

static int fail(uint32_t *ms) {
    free(ms);
    return -1;
}

int mm_trace_parse(const char *text, size_t length, const char *name, uint32_t **ms_out, size_t *count_out,
                   char *error, size_t error_bytes) {
    *ms_out = NULL;
    *count_out = 0;
    if (length == 0) {
        snprintf(error, error_bytes, "%s: empty file", name);
        return -1;
    }
    uint32_t *ms = NULL;
    size_t count = 0, capacity = 0, line_number = 0;
    for (size_t start = 0; start < length;) {
        size_t end = start;
        while (end < length && text[end] != '\n') end++;
        size_t next = end + 1;
        line_number++;
        if (end > start && text[end - 1] == '\r') end--; /* CRLF line ends */
        while (start < end && is_blank(text[start])) start++;
        while (end > start && is_blank(text[end - 1])) end--;
        if (start == end || text[start] == '#') { /* blank and comment lines carry nothing */
            start = next;
            continue;
        }
        uint64_t value = 0;
        for (size_t i = start; i < end; i++) {
            if (text[i] < '0' || text[i] > '9') {
                snprintf(error, error_bytes, "%s:%zu: expected a non-negative integer millisecond timestamp", name,
                         line_number);
                return fail(ms);
            }
            value = value * 10 + (uint64_t)(text[i] - '0');
            if (value > MM_TRACE_MAX_MS) {
                snprintf(error, error_bytes, "%s:%zu: timestamp exceeds the maximum of %u ms", name, line_number,
                         MM_TRACE_MAX_MS);
                return fail(ms);
            }
        }
        if (count > 0 && value < ms[count - 1]) {
            snprintf(error, error_bytes, "%s:%zu: timestamp decreases (%u ms after %u ms)", name, line_number,
                     (unsigned)value, ms[count - 1]);
            return fail(ms);
        }
        if (count == capacity) {
            if (capacity >= MM_TRACE_MAX_OPPORTUNITIES) {
                snprintf(error, error_bytes, "%s:%zu: more than %u timestamps", name, line_number,
                         MM_TRACE_MAX_OPPORTUNITIES);
                return fail(ms);
            }
            size_t grown = capacity ? capacity * 2 : 4096;
            if (grown > MM_TRACE_MAX_OPPORTUNITIES) grown = MM_TRACE_MAX_OPPORTUNITIES;
            uint32_t *bigger = realloc(ms, grown * sizeof *bigger);
            if (!bigger) {
                snprintf(error, error_bytes, "%s:%zu: out of memory", name, line_number);
                return fail(ms);
            }
            ms = bigger;
            capacity = grown;
        }
        ms[count++] = (uint32_t)value;
        start = next;
    }
    if (count == 0) {
        snprintf(error, error_bytes, "%s: no timestamps (only blank or comment lines)", name);
        return fail(ms);
    }
    if (ms[count - 1] == 0) {
        snprintf(error, error_bytes, "%s: last timestamp is 0 (the trace repeats shifted by it, so it must be > 0)",
                 name);
        return fail(ms);
    }
    *ms_out = ms;
    *count_out = count;
    return 0;
}
