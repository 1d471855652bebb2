/*
 * libFuzzer target: netpath's mahimahi trace parser (trace_format.c) and the schedule it feeds (trace_schedule.c).
 * The input is the trace text. Checked besides the sanitizers:
 *  - the parser agrees with the rules of netpath/README.md ("Trace format"), re-stated here line by line in a
 *    second, independent form (accepts exactly what the rules accept, with the same timestamps);
 *  - a refusal comes with a message that names the file; an acceptance meets mm_trace_init's rules;
 *  - the schedule: cursor times never decrease, a seek lands on the first opportunity at or after its time,
 *    and mm_trace_opportunities_before agrees with counting the cursor's steps.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_format.h"
#include "trace_schedule.h"

#define NAME "fuzz.trace"
/* Cap on opportunities the schedule checks walk per input, so one input stays fast. */
#define MAX_STEPS 4096

static void fail(const char *what) {
    fprintf(stderr, "trace-parser invariant broken: %s\n", what);
    abort();
}

/* The README's rules, one line at a time: 1 accepted with *value set, 0 blank/comment, -1 refused. */
static int reference_line(const char *line, size_t len, uint64_t *value) {
    if (len > 0 && line[len - 1] == '\r') len--;
    size_t a = 0, b = len;
    while (a < b && (line[a] == ' ' || line[a] == '\t')) a++;
    while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t')) b--;
    if (a == b || line[a] == '#') return 0;
    uint64_t v = 0;
    for (size_t i = a; i < b; i++) {
        if (line[i] < '0' || line[i] > '9') return -1;
        if (v > MM_TRACE_MAX_MS) return -1; /* already too large: stop before the product can overflow */
        v = v * 10 + (uint64_t)(line[i] - '0');
    }
    if (v > MM_TRACE_MAX_MS) return -1;
    *value = v;
    return 1;
}

/* 0 accepted (timestamps in out, count in *n, at most cap kept), -1 refused. */
static int reference_parse(const uint8_t *data, size_t size, uint32_t *out, size_t cap, size_t *n) {
    *n = 0;
    if (size == 0) return -1;
    uint64_t last = 0;
    for (size_t start = 0; start < size;) {
        const uint8_t *nl = memchr(data + start, '\n', size - start);
        size_t end = nl ? (size_t)(nl - data) : size;
        uint64_t v;
        int r = reference_line((const char *)data + start, end - start, &v);
        if (r < 0) return -1;
        if (r == 1) {
            if (*n > 0 && v < last) return -1;
            if (*n < cap) out[*n] = (uint32_t)v;
            last = v;
            (*n)++;
        }
        start = end + 1;
    }
    if (*n == 0 || last == 0) return -1;
    return 0;
}

static void check_schedule(const uint32_t *ms, size_t count) {
    mm_trace trace;
    const char *reason = NULL;
    if (mm_trace_init(&trace, ms, count, &reason) != 0) fail("mm_trace_init refuses what the parser accepted");
    mm_trace_cursor walk = {0, 0};
    int64_t previous_us = -1;
    uint64_t step = 0;
    size_t steps = count * 2 < MAX_STEPS ? count * 2 : MAX_STEPS;
    for (; step < steps; step++) {
        int64_t t_us = mm_trace_cursor_time_us(&trace, &walk);
        if (t_us < previous_us) fail("cursor time decreases");
        /* Seeking from the start to this time lands on the first opportunity at this time, and everything
         * before it is counted by opportunities_before. */
        if (t_us != previous_us) {
            mm_trace_cursor seek = {0, 0};
            mm_trace_cursor_seek(&trace, &seek, t_us);
            if (mm_trace_cursor_time_us(&trace, &seek) != t_us) fail("seek misses an opportunity's time");
            if (seek.loop != walk.loop || seek.index > walk.index) fail("seek passes the first opportunity at its time");
            if (mm_trace_opportunities_before(&trace, t_us) != step) fail("opportunities_before disagrees with the cursor");
            /* One microsecond later: the next opportunity strictly after, never one before. */
            mm_trace_cursor_seek(&trace, &seek, t_us + 1);
            if (mm_trace_cursor_time_us(&trace, &seek) <= t_us) fail("seek lands before its time");
        }
        previous_us = t_us;
        mm_trace_cursor_next(&trace, &walk);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint32_t *ms = NULL;
    size_t count = 0;
    char error[256];
    error[0] = '\0';
    int status = mm_trace_parse((const char *)data, size, NAME, &ms, &count, error, sizeof error);

    static uint32_t expected[MAX_STEPS];
    size_t expected_count = 0;
    int expected_status = reference_parse(data, size, expected, MAX_STEPS, &expected_count);
    if (status != expected_status) {
        fprintf(stderr, "parser %s, rules %s (%s)\n", status == 0 ? "accepts" : "refuses",
                expected_status == 0 ? "accept" : "refuse", error);
        fail("parser and the README's rules disagree");
    }
    if (status != 0) {
        if (ms != NULL || count != 0) fail("a refusal returns timestamps");
        if (strncmp(error, NAME ":", strlen(NAME ":")) != 0) fail("error message does not name the file");
        return 0;
    }
    if (ms == NULL || count != expected_count) fail("accepted count differs from the rules'");
    for (size_t i = 0; i < count && i < MAX_STEPS; i++)
        if (ms[i] != expected[i]) fail("accepted timestamp differs from the rules'");
    check_schedule(ms, count);
    free(ms);
    return 0;
}
