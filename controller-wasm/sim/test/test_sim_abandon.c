/* Abandonment in the DASH player model (video_player.c, --video-abandon-s): a download that would finish after the
 * buffer runs dry is given up and asked again lower, up-switches wait out the lock, a download on track is kept;
 * through the simulator, on a link whose capacity collapses under a top-rung download, the abandoning player
 * stalls less than one that keeps the doomed download. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pcc_sim.h"
#include "video_player.h"

static const double LADDER[] = {0.3e6, 0.8e6, 2e6, 4e6, 8e6};

static void playing_player(sim_video_player *player, pcc_sim_video_config *config, double lock_s) {
    memset(config, 0, sizeof *config);
    config->ladder_bps = LADDER;
    config->ladder_count = 5;
    config->segment_s = 2.0;
    config->abr_samples = 5;
    config->abandon_lock_s = lock_s;
    sim_video_player_init(player, config, 0, 60000000);
    uint32_t index;
    double bitrate;
    /* three segments at 40 Mbit/s: the rule then asks for the top rung (8 Mbit/s) */
    for (int k = 0; k < 3; k++) {
        CHECK(sim_video_player_want_segment(player, &index, &bitrate) == 1);
        sim_video_player_advance(player, (int64_t)(k + 1) * 100000);
        sim_video_player_on_segment(player, bitrate, (uint64_t)(bitrate * 2 / 8), (int64_t)(bitrate * 2 / 40e6 * 1e6));
    }
    CHECK(player->state == SIM_VIDEO_PLAYING);
    CHECK(sim_video_player_want_segment(player, &index, &bitrate) == 1 && bitrate == 8e6 && index == 3);
}

static void test_player_abandons_a_doomed_download(void) {
    pcc_sim_video_config config;
    sim_video_player player;
    playing_player(&player, &config, 4.0);
    uint64_t total = 2000000;                        /* 8 Mbit/s x 2 s */
    double bitrate = 0;
    /* before dash.js's 500 ms, no judgement */
    sim_video_player_advance(&player, 300000 + 400000);
    CHECK(sim_video_player_check_abandon(&player, 10000, total, &bitrate) == 0);
    /* the player wakes to check on the request's 100-ms grid from 500 ms */
    CHECK(sim_video_player_wake_us(&player) == 300000 + 500000);
    /* 1 s in, 125 kB of 2 MB arrived: 1 Mbit/s, 15 s for the rest with ~5 s of buffer: doomed */
    sim_video_player_advance(&player, 1300000);
    CHECK(player.buffer_s > 4.0 && player.buffer_s < 6.0);
    CHECK(sim_video_player_check_abandon(&player, 125000, total, &bitrate) == 1);
    CHECK(bitrate == 0.8e6);                         /* the highest rung within 0.9 x 1 Mbit/s */
    CHECK(player.abandoned == 1 && player.outstanding == 1 && player.next_request == 4);
    /* the replacement arrives; during the lock the 40-Mbit/s samples may not lift the rung */
    sim_video_player_advance(&player, 1600000);
    sim_video_player_on_segment(&player, 0.8e6, 200000, 200000);
    uint32_t index;
    CHECK(sim_video_player_want_segment(&player, &index, &bitrate) == 1 && index == 4 && bitrate == 0.8e6);
    sim_video_player_advance(&player, 1300000 + 4000000 + 1);
    sim_video_player_on_segment(&player, 0.8e6, 200000, 40000);
    CHECK(sim_video_player_want_segment(&player, &index, &bitrate) == 1 && bitrate == 8e6);
    sim_video_player_free(&player);
}

static void test_player_keeps_a_download_on_track(void) {
    pcc_sim_video_config config;
    sim_video_player player;
    playing_player(&player, &config, 4.0);
    double bitrate = 0;
    /* 1 s in, 1.5 MB of 2 MB: 12 Mbit/s, 0.33 s for the rest with ~5 s of buffer */
    sim_video_player_advance(&player, 1300000);
    CHECK(sim_video_player_check_abandon(&player, 1500000, 2000000, &bitrate) == 0);
    /* slow, but the lower rung's whole segment (200 kB) is not smaller than the 150 kB left: kept */
    CHECK(sim_video_player_check_abandon(&player, 1850000, 2000000, &bitrate) == 0 || player.buffer_s < 0.2);
    sim_video_player_free(&player);
    /* abandonment off: never */
    playing_player(&player, &config, 0.0);
    sim_video_player_advance(&player, 1300000);
    CHECK(sim_video_player_check_abandon(&player, 1000, 2000000, &bitrate) == 0);
    CHECK(sim_video_player_wake_us(&player) > 1300000 + 3000000);   /* no check wake-ups: only the buffer's */
    sim_video_player_free(&player);
}

/* A mahimahi trace: 30 Mbit/s for 4 s, then 0.5 Mbit/s (one 1500-byte opportunity per 24 ms) to 40 s. */
static uint32_t *collapse_trace(size_t *count) {
    size_t capacity = 4000 * 3 + 40000 / 24 + 8, n = 0;
    uint32_t *trace = malloc(capacity * sizeof *trace);
    for (uint32_t ms = 0; ms < 4000; ms++)
        for (int k = 0; k < 3 - (ms % 2 == 0); k++) trace[n++] = ms;   /* 2.5 packets per ms */
    for (uint32_t ms = 4000; ms < 40000; ms += 24) trace[n++] = ms;
    *count = n;
    return trace;
}

static pcc_sim_video_result run_collapse(const char *cc, double lock_s, uint32_t *abandoned) {
    size_t count;
    uint32_t *trace = collapse_trace(&count);
    pcc_sim_video_config video;
    memset(&video, 0, sizeof video);
    video.ladder_bps = LADDER;
    video.ladder_count = 5;
    video.segment_s = 2.0;
    video.abr_samples = 5;
    video.abandon_lock_s = lock_s;
    pcc_sim_flow_config flow;
    memset(&flow, 0, sizeof flow);
    flow.cc = cc;
    flow.base_rtt_us = 40000;
    flow.video = &video;
    pcc_sim_config config;
    pcc_sim_config_init(&config);
    config.trace_ms = trace;
    config.trace_ms_count = count;
    config.buffer_bytes = 300000;
    config.duration_us = 40000000;
    config.flows = &flow;
    config.flow_count = 1;
    static pcc_sim_result result;
    char error[256] = "";
    int status = pcc_sim_run(&config, &result, error, sizeof error);
    if (status != PCC_SIM_OK) fprintf(stderr, "pcc_sim_run: %s\n", error);
    CHECK(status == PCC_SIM_OK);
    free(trace);
    pcc_sim_video_result v = result.flows[0].video;
    *abandoned = v.abandoned;
    free(v.buffer_levels_s);
    v.buffer_levels_s = NULL;
    return v;
}

static void test_simulator_abandons_when_the_link_collapses(void) {
    const char *ccs[] = {"cubic", "vivace"};
    for (size_t c = 0; c < 2; c++) {
        uint32_t kept_count, abandoned_count;
        pcc_sim_video_result kept = run_collapse(ccs[c], 0.0, &kept_count);
        pcc_sim_video_result abandoning = run_collapse(ccs[c], 4.0, &abandoned_count);
        printf("%s, 30 -> 0.5 Mbit/s at 4 s: keeps the download: stall %.2f s; abandons (%u): stall %.2f s, "
               "average %.2f Mbit/s\n", ccs[c], kept.stall_s, abandoned_count, abandoning.stall_s,
               abandoning.average_bitrate_bps / 1e6);
        CHECK(kept_count == 0);
        CHECK(abandoned_count >= 1);
        /* the kept top-rung download (2 MB at 0.5 Mbit/s: 32 s) outlasts any buffer; its replacement does not */
        CHECK(kept.stall_s > abandoning.stall_s + 5.0);
    }
}

int main(void) {
    test_player_abandons_a_doomed_download();
    test_player_keeps_a_download_on_track();
    test_simulator_abandons_when_the_link_collapses();
    return check_summary("test_sim_abandon");
}
