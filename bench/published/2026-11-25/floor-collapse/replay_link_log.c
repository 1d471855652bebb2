/* floor-collapse (summary.md): open-loop replay of the run's own packets through the controller: sends = linkem downlink arrivals, drops and
 * departures from its log (FIFO), acks carried by the uplink's packets (linkem uplink log), 20 ms after the
 * downlink and 20 ms after the uplink; loss by packet threshold 3; app-state from the telemetry's CMCD rows;
 * app-limited marks at send gaps > argv[1] us (default 50 ms) before 5.5 s. Session clock = link clock - SHIFT.
 * Inputs: awk extracts of the run's link-down.log / link-up.log into /tmp/H-*.txt (see summary.md). The controller's
 * decisions do not change the inputs (like pcc-replay --mi), so its state drifts from the run's (here it left slow
 * start at 1.9 s); what it shows is the rules' reading of the run's ack timing. Build against a native libpcc_cc.a,
 * with debug-print.diff applied to print the app-limited rule's validated rate:
 *   gcc -O2 -std=c11 -Icontroller-wasm/include replay_link_log.c BUILD/libpcc_cc.a -lm -o replay_link_log */
#include <stdio.h>
#include <stdlib.h>
#include "pcc/cc.h"
#define SHIFT_US 2152000LL
#define D2 20000
#define D3 20000
#define N 8000
static long long arr[N], arrsz[N], dep[N], drops[N], uparr[N], updep[N]; static int narr, ndep, ndrop, nup, nupd;
static long long sent_t[N], recv_t[N], ack_t[N]; static int dropped[N], state[N];
static int rd(const char *p, long long *v, long long *sz) { FILE *f = fopen(p, "r"); int n = 0; long long a, b; char line[128];
    while (fgets(line, sizeof line, f)) { int k = sscanf(line, "%lld %lld", &a, &b); if (k >= 1) { v[n] = a * 1000 - SHIFT_US; if (sz) sz[n] = k == 2 ? b : 1500; n++; } } fclose(f); return n; }
typedef struct { long long t; double bl, br; } appst;
static const appst A[] = {{53000,-1,-1},{288000,0,800e3},{687000,1900,96e3},{1091000,2000,800e3},{1493000,3600,2000e3},{2233000,2900,2000e3},
    {3061000,2000,2000e3},{3851000,3200,4000e3},{4029000,3100,96e3},{5441000,1600,2000e3},{7445000,1600,96e3},{26453000,0,2000e3}};
int main(int argc, char **argv) {
    long long gap_us = argc > 1 ? atoll(argv[1]) : 50000;
    narr = rd("/tmp/H-down-arr.txt", arr, arrsz); ndep = rd("/tmp/H-down-dep.txt", dep, NULL); ndrop = rd("/tmp/H-down-drop.txt", drops, NULL);
    nup = rd("/tmp/H-up-arr.txt", uparr, NULL); nupd = rd("/tmp/H-up-dep.txt", updep, NULL);
    /* FIFO matching: an arrival at a drop's time is the dropped one */
    int di = 0, pi = 0;
    for (int i = 0; i < narr; i++) {
        while (di < ndrop && drops[di] < arr[i]) di++;
        if (di < ndrop && drops[di] == arr[i]) { dropped[i] = 1; di++; continue; }
        recv_t[i] = dep[pi++] + D2;
    }
    /* acks: the first uplink packet leaving the receiver at or after the reception */
    int u = 0;
    for (int i = 0; i < narr; i++) {
        if (dropped[i]) continue;
        u = 0; while (u < nup && uparr[u] < recv_t[i]) u++;
        ack_t[i] = u < nup ? updep[u] + D3 : -1;
    }
    cc_controller *cc = cc_create("vivace-video", 1, 0);
    int first = 0; while (first < narr && arr[first] < 40000) first++; /* the session's packets: from its open */
    long long now = arr[first], end = 30000000; int next = first; size_t ai = 0; long long largest = -1; int oldest = first;
    for (; now < end; now += 100) {
        while (ai < sizeof A / sizeof A[0] && A[ai].t <= now) { cc_app_state st = {.app_limited = 0, .buffer_ms = A[ai].bl, .bitrate_bps = A[ai].br, .deadline_us = CC_APP_UNKNOWN}; if (A[ai].bl >= 0) cc_on_app_state(cc, &st, now); ai++; }
        while (next < narr && arr[next] <= now) {
            sent_t[next] = arr[next]; cc_on_packet_sent(cc, (uint64_t)next, (uint32_t)arrsz[next], now);
            if (next + 1 < narr && arr[next + 1] - arr[next] > gap_us && now < 5500000) { cc_app_state st = {.app_limited = 1, .buffer_ms = CC_APP_UNKNOWN, .bitrate_bps = CC_APP_UNKNOWN, .deadline_us = CC_APP_UNKNOWN}; cc_on_app_state(cc, &st, now); }
            state[next] = 1; next++;
        }
        for (int i = oldest; i < next; i++) if (state[i] == 1 && !dropped[i] && ack_t[i] >= 0 && ack_t[i] <= now) {
            state[i] = 2; cc_on_ack(cc, (uint64_t)i, now - sent_t[i], recv_t[i] + 1000000000LL, now); if (i > largest) largest = i; }
        for (int i = oldest; i + 3 <= largest; i++) if (state[i] == 1 && dropped[i]) { state[i] = 3; cc_on_loss(cc, (uint64_t)i, now); }
        while (oldest < next && state[oldest] >= 2) oldest++;
        if (now % 1000 == 0) cc_on_tick(cc, now);
        if (now % 100000 == 0 && now >= 3700000 && now <= 7000000) { cc_telemetry t; cc_get_telemetry(cc, &t); printf("TEL %6.3f %-10s rate %9.0f srtt %6.1f mi %llu\n", now / 1e6, t.state, t.pacing_rate_bps, t.srtt_us / 1e3, (unsigned long long)t.mi_completed); }
    }
    cc_destroy(cc);
    return 0;
}
