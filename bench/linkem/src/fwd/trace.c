#include "trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(FILE *f, trace *t, char *err, size_t err_len, const char *fmt, const char *path, size_t line) {
    if (f) fclose(f);
    free(t->times_ms);
    t->times_ms = NULL;
    t->count = 0;
    snprintf(err, err_len, fmt, path, line);
    return -1;
}

int trace_load(const char *path, trace *out, char *err, size_t err_len) {
    out->times_ms = NULL;
    out->count = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_len, "trace %s: %s", path, strerror(errno));
        return -1;
    }
    size_t capacity = 0;
    char line[128];
    size_t line_no = 0;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        size_t n = strlen(line);
        if (n == sizeof line - 1 && line[n - 1] != '\n')
            return fail(f, out, err, err_len, "trace %s line %zu: line too long", path, line_no);
        if (n > 0 && line[n - 1] == '\n') line[--n] = '\0';
        if (n == 0) return fail(f, out, err, err_len, "trace %s line %zu: blank line", path, line_no);
        for (size_t i = 0; i < n; i++)
            if (line[i] < '0' || line[i] > '9')
                return fail(f, out, err, err_len,
                            "trace %s line %zu: not a non-negative integer millisecond timestamp", path, line_no);
        if (n > 15) return fail(f, out, err, err_len, "trace %s line %zu: timestamp too large", path, line_no);
        uint64_t t = strtoull(line, NULL, 10);
        if (out->count > 0 && t < out->times_ms[out->count - 1])
            return fail(f, out, err, err_len, "trace %s line %zu: timestamp decreases", path, line_no);
        if (out->count == capacity) {
            capacity = capacity ? capacity * 2 : 4096;
            uint64_t *grown = realloc(out->times_ms, capacity * sizeof *grown);
            if (!grown) return fail(f, out, err, err_len, "trace %s line %zu: out of memory", path, line_no);
            out->times_ms = grown;
        }
        out->times_ms[out->count++] = t;
    }
    if (ferror(f)) return fail(f, out, err, err_len, "trace %s: read error near line %zu", path, line_no);
    fclose(f);
    if (out->count == 0) return fail(NULL, out, err, err_len, "trace %s: empty (line %zu)", path, line_no);
    /* The trace repeats shifted by its last timestamp; a last timestamp of 0 would never advance time. */
    if (out->times_ms[out->count - 1] == 0)
        return fail(NULL, out, err, err_len, "trace %s: last timestamp must be > 0 (line %zu)", path, line_no);
    return 0;
}

void trace_free(trace *t) {
    free(t->times_ms);
    t->times_ms = NULL;
    t->count = 0;
}
