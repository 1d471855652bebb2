#include "delay.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

/* Longest accepted one-way delay: 60 s keeps every sum far from overflow. */
#define DELAY_MAX_US 60000000ull

void delay_init_fixed(delay_model *m, uint64_t one_way_us) {
    memset(m, 0, sizeof *m);
    m->kind = DELAY_FIXED;
    m->fixed_us = one_way_us;
}

static int parse_ms(const char *s, char **end, uint64_t *us) {
    errno = 0;
    double v = strtod(s, end);
    if (*end == s || errno || !isfinite(v) || v < 0 || v > 1e12) return -1;
    *us = (uint64_t)llround(v * 1000.0);
    return 0;
}

int delay_load_schedule(delay_model *m, const char *path, char *err, size_t err_len) {
    memset(m, 0, sizeof *m);
    m->kind = DELAY_SCHEDULE;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_len, "delay schedule %s: %s", path, strerror(errno));
        return -1;
    }
    char line[256];
    size_t line_no = 0, capacity = 0;
    const char *problem = NULL;
    while (!problem && fgets(line, sizeof line, f)) {
        line_no++;
        char *p = line, *end;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#') continue; /* comments allowed */
        if (*p == '\n' || *p == '\0') { problem = "blank line"; break; }
        uint64_t start_us, one_way_us;
        if (parse_ms(p, &end, &start_us) != 0 || (*end != ' ' && *end != '\t')) { problem = "expected 'time_ms one_way_delay_ms'"; break; }
        if (parse_ms(end, &end, &one_way_us) != 0) { problem = "bad one-way delay"; break; }
        while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') end++;
        if (*end != '\0') { problem = "trailing text"; break; }
        if (one_way_us > DELAY_MAX_US) { problem = "delay above 60000 ms"; break; }
        if (m->count == 0 && start_us != 0) { problem = "first line must start at time 0"; break; }
        if (m->count > 0 && start_us <= m->start_us[m->count - 1]) { problem = "times must increase"; break; }
        if (m->count == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            uint64_t *a = realloc(m->start_us, capacity * sizeof *a);
            if (a) m->start_us = a;
            uint64_t *b = realloc(m->one_way_us, capacity * sizeof *b);
            if (b) m->one_way_us = b;
            if (!a || !b) { problem = "out of memory"; break; }
        }
        m->start_us[m->count] = start_us;
        m->one_way_us[m->count] = one_way_us;
        m->count++;
    }
    fclose(f);
    if (!problem && m->count == 0) problem = "empty";
    if (problem) {
        snprintf(err, err_len, "delay schedule %s line %zu: %s", path, line_no, problem);
        delay_free(m);
        return -1;
    }
    return 0;
}

int delay_parse_rtt_pattern(delay_model *m, const char *spec, char *err, size_t err_len) {
    memset(m, 0, sizeof *m);
    m->kind = DELAY_RTT_PATTERN;
    double min_ms, max_ms, period_s;
    unsigned long long seed;
    char tail;
    if (sscanf(spec, "%lf:%lf:%lf:%llu%c", &min_ms, &max_ms, &period_s, &seed, &tail) != 4 || !isfinite(min_ms) ||
        !isfinite(max_ms) || !isfinite(period_s) || min_ms < 0 || max_ms < min_ms || max_ms > 2.0 * DELAY_MAX_US / 1000.0 ||
        period_s <= 0 || period_s > 86400) {
        snprintf(err, err_len, "--rtt-pattern '%s': expected MIN_RTT_MS:MAX_RTT_MS:PERIOD_S:SEED with 0 <= min <= max, period > 0",
                 spec);
        return -1;
    }
    m->rtt_min_us = (uint64_t)llround(min_ms * 1000.0);
    m->rtt_max_us = (uint64_t)llround(max_ms * 1000.0);
    m->period_us = (uint64_t)llround(period_s * 1e6);
    m->seed = seed;
    if (m->period_us == 0) {
        snprintf(err, err_len, "--rtt-pattern '%s': period too short", spec);
        return -1;
    }
    return 0;
}

uint64_t delay_one_way_us(const delay_model *m, uint64_t elapsed_us) {
    switch (m->kind) {
    case DELAY_SCHEDULE: {
        /* binary search for the last entry starting at or before elapsed_us */
        size_t lo = 0, hi = m->count;
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (m->start_us[mid] <= elapsed_us) lo = mid;
            else hi = mid;
        }
        return m->one_way_us[lo];
    }
    case DELAY_RTT_PATTERN: {
        /* each period's RTT is a pure function of (seed, period index): both directions agree */
        uint64_t state = m->seed ^ (0xD1B54A32D192ED03ull * (elapsed_us / m->period_us + 1));
        double u = rng_uniform(&state);
        uint64_t rtt_us = m->rtt_min_us + (uint64_t)llround(u * (double)(m->rtt_max_us - m->rtt_min_us));
        return rtt_us / 2;
    }
    case DELAY_FIXED:
    default:
        return m->fixed_us;
    }
}

void delay_free(delay_model *m) {
    free(m->start_us);
    free(m->one_way_us);
    m->start_us = m->one_way_us = NULL;
    m->count = 0;
}
