#include "trace_schedule.h"

int mm_trace_init(mm_trace *trace, const uint32_t *ms, size_t count, const char **reason) {
    if (!ms || count == 0) {
        *reason = "trace has no delivery opportunities";
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        if (ms[i] > MM_TRACE_MAX_MS) {
            *reason = "trace timestamp exceeds the maximum of 2147483647 ms";
            return -1;
        }
        if (i > 0 && ms[i] < ms[i - 1]) {
            *reason = "trace timestamps decrease";
            return -1;
        }
    }
    if (ms[count - 1] == 0) {
        *reason = "trace's last timestamp is 0 (it would loop forever at one instant)";
        return -1;
    }
    trace->ms = ms;
    trace->count = count;
    trace->period_us = (int64_t)ms[count - 1] * 1000;
    return 0;
}

int64_t mm_trace_cursor_time_us(const mm_trace *trace, const mm_trace_cursor *cursor) {
    return cursor->loop * trace->period_us + (int64_t)trace->ms[cursor->index] * 1000;
}

void mm_trace_cursor_next(const mm_trace *trace, mm_trace_cursor *cursor) {
    if (++cursor->index == trace->count) {
        cursor->index = 0;
        cursor->loop++;
    }
}

/* Index of the first timestamp (in one loop) at or after offset_us; count when none. */
static size_t first_at_or_after(const mm_trace *trace, int64_t offset_us) {
    size_t lo = 0, hi = trace->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((int64_t)trace->ms[mid] * 1000 < offset_us) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void mm_trace_cursor_seek(const mm_trace *trace, mm_trace_cursor *cursor, int64_t time_us) {
    if (mm_trace_cursor_time_us(trace, cursor) >= time_us) return;
    /* Loop L spans [L·P, L·P + P], so the previous loop's last line may still be at or after time_us. */
    int64_t loop = time_us / trace->period_us - 1;
    if (loop < cursor->loop) loop = cursor->loop;
    for (;;) {
        size_t index = first_at_or_after(trace, time_us - loop * trace->period_us);
        if (index < trace->count) {
            cursor->index = index;
            cursor->loop = loop;
            return;
        }
        loop++;
    }
}

uint64_t mm_trace_opportunities_before(const mm_trace *trace, int64_t time_us) {
    if (time_us <= 0) return 0;
    uint64_t total = 0;
    for (int64_t loop = 0; loop * trace->period_us < time_us; loop++) {
        total += first_at_or_after(trace, time_us - loop * trace->period_us);
    }
    return total;
}
