/* The DASH player model (video_player.c, video_stream.c) inside the simulator: startup and stalls against the
 * analytic values of a constant-rate sender, request gaps as idle link time, the full buffer, the command line,
 * determinism. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pcc_sim.h"
#include "sim_args.h"
#include "video_player.h"
#include "video_stream.h"

typedef struct video_run {
    pcc_sim_flow_config flow;
    pcc_sim_video_config video;
    pcc_sim_config config;
    char params[128];
} video_run;

/* One video flow on a constant link; cc "fixed" sends at the link rate whenever it has data. */
static void setup(video_run *run, const char *cc, double link_bps, double bitrate_bps, int64_t rtt_us, double duration_s) {
    memset(run, 0, sizeof *run);
    run->video.bitrate_bps = bitrate_bps;
    run->video.segment_s = 2.0;
    run->flow.cc = cc;
    if (strcmp(cc, "fixed") == 0) {
        snprintf(run->params, sizeof run->params, "rate_bps=%.0f,initial_rate_bps=%.0f", link_bps, link_bps);
        run->flow.cc_params = run->params;
    }
    run->flow.base_rtt_us = rtt_us;
    run->flow.video = &run->video;
    pcc_sim_config_init(&run->config);
    run->config.rate_bps = link_bps;
    run->config.buffer_bytes = 300000;
    run->config.duration_us = (int64_t)(duration_s * 1e6);
    run->config.flows = &run->flow;
    run->config.flow_count = 1;
}

static int simulate(video_run *run, pcc_sim_result *result) {
    run->config.flows = &run->flow;
    run->flow.video = &run->video;
    char error[256];
    int status = pcc_sim_run(&run->config, result, error, sizeof error);
    if (status != PCC_SIM_OK) fprintf(stderr, "pcc_sim_run: %s\n", error);
    return status;
}

static double max_level(const pcc_sim_video_result *v) {
    double top = 0;
    for (size_t k = 0; k < v->buffer_level_count; k++) top = v->buffer_levels_s[k] > top ? v->buffer_levels_s[k] : top;
    return top;
}

/* Twice the bitrate: after startup nothing stalls, whichever controller sends, with request gaps or without. */
static void test_twice_the_bitrate_never_stalls(void) {
    const char *ccs[] = {"fixed", "vivace", "cubic", "bbr"};
    for (size_t c = 0; c < sizeof ccs / sizeof ccs[0]; c++) {
        for (int continuous = 0; continuous <= 1; continuous++) {
            video_run run;
            setup(&run, ccs[c], 16e6, 8e6, 50000, 60);
            run.video.continuous = continuous;
            static pcc_sim_result result;
            CHECK(simulate(&run, &result) == PCC_SIM_OK);
            const pcc_sim_video_result *v = &result.flows[0].video;
            CHECK(v->is_video);
            if (v->stall_count != 0) fprintf(stderr, "%s continuous=%d: %u stalls\n", ccs[c], continuous, v->stall_count);
            CHECK(v->stall_count == 0);
            CHECK(v->buffering_ratio == 0.0);
            CHECK(v->startup_delay_s > 0 && v->startup_delay_s < 3.0);
            CHECK(v->average_bitrate_bps == 8e6);
            CHECK(v->buffer_level_count == 60);
            /* 60 s of media asked for at most: the buffer target (30 s, single rendition) plus what was played */
            CHECK(v->segments >= 25 && v->segments <= 46);
            pcc_sim_result_free(&result);
        }
    }
}

/* Half the bitrate, constant-rate sender: segment k arrives every T = d·B / C_media, plays d, so the buffering
 * ratio tends to 1 - d/T. With request gaps each cycle also waits for the request: T + gap. */
static void test_half_the_bitrate_stalls_as_computed(void) {
    const double link_bps = 5e6, bitrate_bps = 10e6, d = 2.0;
    const int64_t rtt_us = 80000;
    for (int continuous = 0; continuous <= 1; continuous++) {
        video_run run;
        setup(&run, "fixed", link_bps, bitrate_bps, rtt_us, 200);
        run.config.send_jitter_us = 0;
        run.video.continuous = continuous;
        static pcc_sim_result result;
        CHECK(simulate(&run, &result) == PCC_SIM_OK);
        const pcc_sim_video_result *v = &result.flows[0].video;
        double pieces = ceil(bitrate_bps * d / 8.0 / (1500.0 - SIM_VIDEO_HEADER_BYTES));
        double transfer_s = pieces * 1500.0 * 8.0 / link_bps;
        /* gap: the last packet's serialisation has already been counted; its trip down and the request's up */
        double cycle_s = transfer_s + (continuous ? 0.0 : (double)rtt_us / 1e6);
        double expected = 1.0 - d / cycle_s;
        fprintf(stderr, "half rate, continuous=%d: buffering ratio %.4f, analytic %.4f, %u stalls\n", continuous,
                v->buffering_ratio, expected, v->stall_count);
        CHECK_NEAR(v->buffering_ratio, expected, 0.01);
        CHECK(v->stall_count >= 40);
        pcc_sim_result_free(&result);
    }
}

/* Request gaps are idle link: one RTT per segment in DASH mode, none when the segments stream back to back. */
static void test_request_gaps_idle_the_link(void) {
    const int64_t rtt_us = 100000;
    const double link_bps = 10e6;
    double utilization[2], idle[2];
    uint32_t segments[2], reports[2][2];
    for (int continuous = 0; continuous <= 1; continuous++) {
        video_run run;
        setup(&run, "fixed", link_bps, 20e6, rtt_us, 40);
        run.video.segment_s = 1.0;
        run.video.continuous = continuous;
        static pcc_sim_result result;
        CHECK(simulate(&run, &result) == PCC_SIM_OK);
        utilization[continuous] = result.link_utilization;
        idle[continuous] = result.flows[0].video.sender_idle_s;
        segments[continuous] = result.flows[0].video.segments;
        reports[continuous][0] = result.flows[0].video.player_state_reports;
        reports[continuous][1] = result.flows[0].video.app_limited_reports;
        fprintf(stderr, "continuous=%d: %u player-state and %u app-limited reports, %u segments\n", continuous,
                reports[continuous][0], reports[continuous][1], segments[continuous]);
        pcc_sim_result_free(&result);
    }
    /* DASH: every segment after the first waits for a request that leaves when its predecessor is in */
    double per_gap_s = idle[0] / segments[0];
    fprintf(stderr, "request gaps: %.2f s idle over %u segments (%.4f s each), utilization %.4f vs %.4f continuous\n",
            idle[0], segments[0], per_gap_s, utilization[0], utilization[1]);
    CHECK_NEAR(per_gap_s, (double)rtt_us / 1e6 + 1500.0 * 8.0 / link_bps, 0.01);
    CHECK_NEAR(1.0 - utilization[0], idle[0] / 40.0, 0.005);
    /* The controller hears each request's player state, and app-limited once per gap (the origin's rule) */
    CHECK(reports[0][0] == segments[0] + 1 || reports[0][0] == segments[0]);
    CHECK(reports[0][1] >= segments[0] && reports[0][1] <= segments[0] + 1);
    CHECK(idle[1] == 0.0);
    CHECK(reports[1][1] == 0);   /* continuous on a slower link: never out of data */
    CHECK(reports[1][0] >= segments[1]);
    CHECK(utilization[1] > 0.998);
    CHECK(segments[1] > segments[0]);
}

/* A full buffer stops the requests until playback drains it below the target. */
static void test_full_buffer_stops_requests(void) {
    video_run run;
    setup(&run, "fixed", 32e6, 8e6, 40000, 60);
    run.video.max_buffer_s = 10.0;
    static pcc_sim_result result;
    CHECK(simulate(&run, &result) == PCC_SIM_OK);
    const pcc_sim_video_result *v = &result.flows[0].video;
    double top = max_level(v);
    fprintf(stderr, "full buffer: top level %.3f s, %u segments, sender idle %.2f s\n", top, v->segments, v->sender_idle_s);
    CHECK(top <= 10.0 + 2.0 + 1e-3);   /* the last request below the target may bring one segment above it */
    CHECK(top >= 10.0);
    /* Segments beyond the target are asked for only as fast as they play: 5 to fill it, then one per 2 s. */
    double played_s = 60.0 - v->startup_delay_s;
    CHECK(v->segments >= (uint32_t)(played_s / 2.0) + 4 && v->segments <= (uint32_t)(played_s / 2.0) + 7);
    CHECK(v->stall_count == 0);
    CHECK(v->sender_idle_s > 40.0);   /* at 4x the bitrate the sender works a quarter of the time */
    pcc_sim_result_free(&result);
}

/* dash.js's rule without --video-max-buffer-s: 30 s for a single rendition (always its top). */
static void test_default_buffer_target(void) {
    video_run run;
    setup(&run, "fixed", 32e6, 8e6, 40000, 60);
    static pcc_sim_result result;
    CHECK(simulate(&run, &result) == PCC_SIM_OK);
    double top = max_level(&result.flows[0].video);
    CHECK(top >= SIM_VIDEO_BUFFER_TARGET_TOP_S && top <= SIM_VIDEO_BUFFER_TARGET_TOP_S + 2.0 + 1e-3);
    pcc_sim_result_free(&result);
}

/* The throughput rule climbs to the highest rung the link carries with dash.js's safety factor, and no higher. */
static void test_abr_picks_what_the_link_carries(void) {
    static const double ladder[] = {0.3e6, 0.8e6, 2e6, 4e6, 8e6};
    video_run run;
    setup(&run, "fixed", 6e6, 0, 30000, 60);
    run.video.ladder_bps = ladder;
    run.video.ladder_count = 5;
    static pcc_sim_result result;
    CHECK(simulate(&run, &result) == PCC_SIM_OK);
    const pcc_sim_video_result *v = &result.flows[0].video;
    fprintf(stderr, "abr: average %.3f Mbit/s, %u switches, %u stalls\n", v->average_bitrate_bps / 1e6, v->switches, v->stall_count);
    CHECK(v->stall_count == 0);
    CHECK(v->switches >= 1 && v->switches <= 3);
    CHECK(v->average_bitrate_bps > 3.5e6 && v->average_bitrate_bps <= 4e6);   /* 4 Mbit/s after the first segments */
    pcc_sim_result_free(&result);
}

/* The player alone: startup at the threshold, a stall when the buffer runs dry, per-second levels. */
static void test_player_unit(void) {
    pcc_sim_video_config config;
    memset(&config, 0, sizeof config);
    config.bitrate_bps = 4e6;
    config.segment_s = 2.0;
    config.startup_buffer_s = 4.0;
    sim_video_player player;
    sim_video_player_init(&player, &config, 0, 20000000);
    uint32_t index;
    double bitrate;
    CHECK(sim_video_player_want_segment(&player, &index, &bitrate) == 1 && index == 0 && bitrate == 4e6);
    CHECK(sim_video_player_want_segment(&player, &index, &bitrate) == 0);   /* one at a time */
    sim_video_player_advance(&player, 1000000);
    sim_video_player_on_segment(&player, 4e6, 1000000, 900000);
    CHECK(player.state == SIM_VIDEO_STARTUP);                               /* 2 s < 4 s to start */
    CHECK(sim_video_player_want_segment(&player, &index, &bitrate) == 1 && index == 1);
    sim_video_player_advance(&player, 2000000);
    sim_video_player_on_segment(&player, 4e6, 1000000, 900000);
    CHECK(player.state == SIM_VIDEO_PLAYING && player.playback_started_us == 2000000);
    CHECK(sim_video_player_wake_us(&player) == 6000000);                    /* 4 s of media left */
    sim_video_player_advance(&player, 7500000);
    CHECK(player.state == SIM_VIDEO_STALLED && player.stall_count == 1);
    CHECK_NEAR(player.stall_s, 1.5, 1e-9);
    CHECK_NEAR(player.play_s, 4.0, 1e-9);
    pcc_sim_video_result out;
    sim_video_player_finish(&player, &out);
    CHECK(out.buffer_level_count == 20);
    CHECK_NEAR(out.buffer_levels_s[2], 3.0, 1e-6);                          /* at 3 s: 4 s appended, 1 s played */
    CHECK_NEAR(out.buffering_ratio, 14.0 / 18.0, 1e-9);                     /* stalled from 6 s to 20 s */
    CHECK_NEAR(out.startup_delay_s, 2.0, 1e-9);
    free(out.buffer_levels_s);
    sim_video_player_free(&player);
}

/* Same seed, same everything; VBR sizes keep their mean. */
static void test_deterministic_and_vbr(void) {
    static pcc_sim_result first, second;
    video_run run;
    setup(&run, "vivace", 8.8e6, 8e6, 50000, 30);
    run.config.rtt_schedule_us = (pcc_sim_schedule){10000, 100000, 5000000};
    run.config.loss_rate = 0.0001;
    run.video.vbr_cv = 0.3;
    CHECK(simulate(&run, &first) == PCC_SIM_OK);
    CHECK(simulate(&run, &second) == PCC_SIM_OK);
    const pcc_sim_video_result *a = &first.flows[0].video, *b = &second.flows[0].video;
    CHECK(a->buffering_ratio == b->buffering_ratio && a->stall_count == b->stall_count && a->segments == b->segments);
    CHECK(a->buffer_level_count == b->buffer_level_count &&
          memcmp(a->buffer_levels_s, b->buffer_levels_s, a->buffer_level_count * sizeof(float)) == 0);
    CHECK(first.flows[0].packets_sent == second.flows[0].packets_sent);
    pcc_sim_result_free(&first);
    pcc_sim_result_free(&second);
}

static void test_command_line(void) {
    static sim_cli_options options;
    char error[256];
    char *good[] = {"pcc-sim", "--cc", "vivace,cubic", "--video-mbps", "8,0", "--segment-s", "4", "--video-continuous",
                    "--video-vbr", "0.2", "--video-max-buffer-s", "12"};
    CHECK(sim_cli_parse(12, good, &options, error, sizeof error) == 0);
    CHECK(options.config.flow_count == 2);
    CHECK(options.flows[0].video && options.flows[0].video->bitrate_bps == 8e6 && options.flows[0].video->continuous);
    CHECK(options.flows[0].video->segment_s == 4 && options.flows[0].video->max_buffer_s == 12);
    CHECK(options.flows[1].video == NULL);   /* 0: a bulk flow beside the player */
    sim_cli_free(&options);
    char *abr[] = {"pcc-sim", "--video-abr", "0.3,0.8,2", "--flows", "3"};
    CHECK(sim_cli_parse(5, abr, &options, error, sizeof error) == 0);
    CHECK(options.flows[2].video && options.flows[2].video->ladder_count == 3 && options.flows[2].video->ladder_bps[1] == 0.8e6);
    sim_cli_free(&options);
    char *const bad[][4] = {
        {"pcc-sim", "--video-abr", "2,1", NULL},
        {"pcc-sim", "--video-mbps", "8", "--video-abr"},
        {"pcc-sim", "--segment-s", "2", NULL},
        {"pcc-sim", "--video-vbr", "0.9", NULL},
        {"pcc-sim", "--video-mbps", "-1", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[8];
        int argc = 0;
        for (int k = 0; k < 4 && bad[i][k]; k++) argv[argc++] = bad[i][k];
        if (i == 1) argv[argc++] = "1,2";
        if (i == 2 || i == 3) {
            /* no video flow at all, or an out-of-range spread */
        }
        error[0] = '\0';
        CHECK(sim_cli_parse(argc, argv, &options, error, sizeof error) != 0);
        CHECK(error[0] != '\0');
        sim_cli_free(&options);
    }
    /* Bad values the simulator refuses: a maximum buffer below the startup threshold. */
    video_run run;
    setup(&run, "fixed", 8e6, 4e6, 30000, 5);
    run.video.startup_buffer_s = 6;
    run.video.max_buffer_s = 4;
    pcc_sim_result result;
    char message[256];
    CHECK(pcc_sim_run(&run.config, &result, message, sizeof message) == PCC_SIM_ERR_INVALID);
    CHECK(strstr(message, "maximum buffer") != NULL);
}

int main(void) {
    test_player_unit();
    test_twice_the_bitrate_never_stalls();
    test_half_the_bitrate_stalls_as_computed();
    test_request_gaps_idle_the_link();
    test_full_buffer_stops_requests();
    test_default_buffer_target();
    test_abr_picks_what_the_link_carries();
    test_deterministic_and_vbr();
    test_command_line();
    return check_summary("test_sim_video");
}
