#include <stdio.h>
#include "bottleneck_link.h"
#include "pcc/cc.h"
int main(int argc, char **argv) {
    const char *alg = argc > 1 ? argv[1] : "vivace-video";
    int64_t after = argc > 2 ? atoll(argv[2]) : 100000;
    int video = argc > 3 ? atoi(argv[3]) : 1;
    cc_controller *cc = cc_create(alg, 5, 0);
    bottleneck_link *link = link_create(cc, 16.5e6, 13000, 300e3);
    link->recv_batch_us = argc > 4 ? atoll(argv[4]) : 0;
    if (video) { link->app_segment_period_us = 2000000; link->app_segment_bytes = 15e6/8*2*1.036; }
    for (int64_t t = 0; t < 26000000; t += 50000) {
        if (t == 5000000) link->rtt_us = argc > 5 ? atoll(argv[5]) : 20000;
        if (t == 21100000) link->rtt_us = after;
        cc_app_state st = {.app_limited = 0, .buffer_ms = 400, .bitrate_bps = 15e6, .deadline_us = CC_APP_UNKNOWN};
        cc_on_app_state(cc, &st, link->now_us);
        link_run(link, t + 50000);
        cc_telemetry tel; cc_get_telemetry(cc, &tel);
        if (t > 20500000 && t < 24500000) printf("%.2f rate %.2f state %s srtt %.0f\n", t/1e6, cc_pacing_rate_bytes_per_s(cc)*8/1e6, tel.state, tel.srtt_us);
    }
    return 0;
}
