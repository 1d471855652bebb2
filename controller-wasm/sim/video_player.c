#include "video_player.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One microsecond of media: the player's wake-ups land on whole microseconds, so "at the target" means within it. */
#define LEVEL_TOLERANCE_S 1e-6

static size_t initial_rung(const sim_video_player *player) {
    size_t rung = 0;
    for (size_t i = 0; i < player->rungs; i++) {
        if (player->ladder_bps[i] <= SIM_VIDEO_ABR_INITIAL_BPS) rung = i;
    }
    return rung;
}

void sim_video_player_init(sim_video_player *player, const pcc_sim_video_config *config, int64_t start_us,
                           int64_t end_us) {
    memset(player, 0, sizeof *player);
    player->config = *config;
    if (player->config.segment_s <= 0) player->config.segment_s = SIM_VIDEO_DEFAULT_SEGMENT_S;
    if (player->config.startup_buffer_s <= 0) player->config.startup_buffer_s = player->config.segment_s;
    if (config->ladder_count > 0) {
        player->rungs = config->ladder_count;
        memcpy(player->ladder_bps, config->ladder_bps, config->ladder_count * sizeof *config->ladder_bps);
    } else {
        player->rungs = 1;
        player->ladder_bps[0] = config->bitrate_bps;
    }
    player->config.ladder_bps = NULL;  /* the copy above is the player's own */
    player->state = SIM_VIDEO_STARTUP;
    player->start_us = start_us;
    player->updated_us = start_us;
    player->end_us = end_us;
    player->playback_started_us = -1;
    player->rung = initial_rung(player);
    player->next_level_us = 1000000;
    player->abr_samples = config->abr_samples > 0 ? config->abr_samples : SIM_VIDEO_ABR_SAMPLES;
}

void sim_video_player_free(sim_video_player *player) {
    free(player->levels_s);
    player->levels_s = NULL;
    player->level_count = player->level_capacity = 0;
}

static void advance_to(sim_video_player *player, int64_t t_us) {
    if (t_us <= player->updated_us) return;
    double dt_s = (double)(t_us - player->updated_us) / 1e6;
    if (player->state == SIM_VIDEO_PLAYING) {
        if (player->buffer_s > dt_s) {
            player->buffer_s -= dt_s;
            player->play_s += dt_s;
        } else {
            /* The buffer ran dry inside this step: a stall from that instant on. */
            player->play_s += player->buffer_s;
            player->stall_s += dt_s - player->buffer_s;
            player->buffer_s = 0.0;
            player->state = SIM_VIDEO_STALLED;
            player->stall_count++;
        }
    } else if (player->state == SIM_VIDEO_STALLED) {
        player->stall_s += dt_s;
    }
    player->updated_us = t_us;
}

static void record_level(sim_video_player *player) {
    if (player->out_of_memory) return;
    if (player->level_count == player->level_capacity) {
        size_t capacity = player->level_capacity ? player->level_capacity * 2 : 64;
        float *grown = realloc(player->levels_s, capacity * sizeof *grown);
        if (!grown) {
            player->out_of_memory = 1;
            return;
        }
        player->levels_s = grown;
        player->level_capacity = capacity;
    }
    player->levels_s[player->level_count++] = (float)player->buffer_s;
}

void sim_video_player_advance(sim_video_player *player, int64_t now_us) {
    while (player->next_level_us <= now_us && player->next_level_us <= player->end_us) {
        advance_to(player, player->next_level_us);
        record_level(player);
        player->next_level_us += 1000000;
    }
    advance_to(player, now_us);
}

double sim_video_player_target_s(const sim_video_player *player) {
    if (player->config.max_buffer_s > 0) return player->config.max_buffer_s;
    return player->rung + 1 == player->rungs ? SIM_VIDEO_BUFFER_TARGET_TOP_S : SIM_VIDEO_BUFFER_TARGET_S;
}

/* The highest rung within the safety factor of a throughput (the lowest when none is). */
static size_t rung_for(const sim_video_player *player, double throughput_bps) {
    size_t rung = 0;
    for (size_t i = 0; i < player->rungs; i++) {
        if (player->ladder_bps[i] <= SIM_VIDEO_ABR_SAFETY * throughput_bps) rung = i;
    }
    return rung;
}

/* The throughput rule (dash.js's ThroughputRule with a harmonic mean): the highest rung within the safety factor of
 * the recent throughput. */
static size_t choose_rung(const sim_video_player *player) {
    if (player->rungs == 1) return 0;
    if (player->throughput_count == 0) return initial_rung(player);
    double inverse_sum = 0.0;
    for (size_t i = 0; i < player->throughput_count; i++) inverse_sum += 1.0 / player->throughput_bps[i];
    double estimate_bps = (double)player->throughput_count / inverse_sum;
    size_t rung = rung_for(player, estimate_bps);
    /* dash.js holds up-switches for abandonLoadTimeout after an abandonment. */
    if (player->updated_us < player->upswitch_locked_until_us && rung > player->locked_rung) rung = player->locked_rung;
    return rung;
}

static int wants_more(const sim_video_player *player) {
    double target_s = sim_video_player_target_s(player);
    if (!player->config.continuous && player->outstanding > 0) return 0;
    return player->buffer_s + player->outstanding_s <= target_s + LEVEL_TOLERANCE_S;
}

int sim_video_player_want_segment(sim_video_player *player, uint32_t *index, double *bitrate_bps) {
    if (!wants_more(player)) return 0;
    player->rung = choose_rung(player);
    *index = player->next_request++;
    *bitrate_bps = player->ladder_bps[player->rung];
    player->requested_us = player->updated_us;
    player->outstanding++;
    player->outstanding_s += player->config.segment_s;
    return 1;
}

static int abandons(const sim_video_player *player) {
    return player->config.abandon_lock_s > 0 && !player->config.continuous && player->rungs > 1;
}

int sim_video_player_check_abandon(sim_video_player *player, uint64_t bytes_received, uint64_t bytes_total,
                                   double *bitrate_bps) {
    if (!abandons(player) || player->outstanding == 0 || player->rung == 0 || bytes_received >= bytes_total) return 0;
    int64_t elapsed_us = player->updated_us - player->requested_us;
    if (elapsed_us < SIM_VIDEO_ABANDON_MIN_ELAPSED_US) return 0;
    double throughput_bps = (double)bytes_received * 8.0 / ((double)elapsed_us / 1e6);
    double rest_bits = (double)(bytes_total - bytes_received) * 8.0;
    /* Doomed: the rest would arrive after the buffer (none while starting or stalled) runs dry. */
    if (throughput_bps > 0 && rest_bits / throughput_bps <= player->buffer_s) return 0;
    size_t rung = rung_for(player, throughput_bps);
    if (rung >= player->rung) rung = player->rung - 1;
    /* dash.js abandons only when the lower rendition's whole segment is smaller than what is left of this one. */
    double lower_bits = (double)bytes_total * 8.0 * player->ladder_bps[rung] / player->ladder_bps[player->rung];
    if (!(rest_bits > lower_bits)) return 0;
    player->rung = rung;
    player->locked_rung = rung;
    player->upswitch_locked_until_us = player->updated_us + (int64_t)llround(player->config.abandon_lock_s * 1e6);
    player->requested_us = player->updated_us;
    player->abandoned++;
    *bitrate_bps = player->ladder_bps[rung];
    return 1;
}

void sim_video_player_on_segment(sim_video_player *player, double bitrate_bps, uint64_t bytes, int64_t transfer_us) {
    double segment_s = player->config.segment_s;
    player->buffer_s += segment_s;
    if (player->outstanding > 0) player->outstanding--;
    player->outstanding_s = player->outstanding > 0 ? player->outstanding_s - segment_s : 0.0;
    if (player->appended > 0 && bitrate_bps != player->last_appended_bps) player->switches++;
    player->appended++;
    player->bitrate_sum_bps += bitrate_bps;
    player->last_appended_bps = bitrate_bps;
    double sample_bps = (double)bytes * 8.0 / ((double)(transfer_us > 0 ? transfer_us : 1) / 1e6);
    if (player->throughput_count == player->abr_samples) {
        memmove(player->throughput_bps, player->throughput_bps + 1, (player->abr_samples - 1) * sizeof(double));
        player->throughput_count--;
    }
    player->throughput_bps[player->throughput_count++] = sample_bps;
    if (player->state != SIM_VIDEO_PLAYING && player->buffer_s + LEVEL_TOLERANCE_S >= player->config.startup_buffer_s) {
        if (player->state == SIM_VIDEO_STARTUP) player->playback_started_us = player->updated_us;
        player->state = SIM_VIDEO_PLAYING;
    }
}

/* The first whole microsecond at or after from_us + seconds, and always after from_us: a remainder below a
 * microsecond (rounding) still needs the clock to move, or the player would wake at the same instant forever. */
static int64_t after_us(int64_t from_us, double seconds) {
    double at = (double)from_us + ceil(seconds * 1e6 - 1e-3);
    if (at >= 9e18) return INT64_MAX - 1;
    return at <= (double)from_us ? from_us + 1 : (int64_t)at;
}

/* With a doomed-download check due: the next check time on the request's grid. */
static int64_t abandon_check_us(const sim_video_player *player) {
    if (!abandons(player) || player->outstanding == 0 || player->rung == 0) return INT64_MAX;
    int64_t first = player->requested_us + SIM_VIDEO_ABANDON_MIN_ELAPSED_US;
    if (player->updated_us < first) return first;
    return player->updated_us + SIM_VIDEO_ABANDON_CHECK_US -
           (player->updated_us - first) % SIM_VIDEO_ABANDON_CHECK_US;
}

int64_t sim_video_player_wake_us(const sim_video_player *player) {
    int64_t check = abandon_check_us(player);
    if (player->state != SIM_VIDEO_PLAYING) return check;
    int64_t wake = after_us(player->updated_us, player->buffer_s);
    if (check < wake) wake = check;
    if (player->config.continuous || player->outstanding == 0) {
        double excess_s = player->buffer_s + player->outstanding_s - sim_video_player_target_s(player);
        if (excess_s > 0) {
            int64_t ask = after_us(player->updated_us, excess_s);
            if (ask < wake) wake = ask;
        }
    }
    return wake;
}

void sim_video_player_finish(sim_video_player *player, pcc_sim_video_result *out) {
    sim_video_player_advance(player, player->end_us);
    memset(out, 0, sizeof *out);
    out->is_video = 1;
    double watched_s = player->stall_s + player->play_s;
    out->buffering_ratio = watched_s > 0 ? player->stall_s / watched_s : 0.0;
    double startup_s = (double)((player->playback_started_us >= 0 ? player->playback_started_us : player->end_us) -
                                player->start_us) / 1e6;
    double session_s = startup_s + watched_s;
    out->buffering_ratio_with_startup = session_s > 0 ? (startup_s + player->stall_s) / session_s : 0.0;
    out->startup_delay_s = player->playback_started_us >= 0 ? startup_s : -1.0;
    out->stall_s = player->stall_s;
    out->play_s = player->play_s;
    out->stall_count = player->stall_count;
    out->segments = player->appended;
    out->switches = player->switches;
    out->abandoned = player->abandoned;
    out->average_bitrate_bps = player->appended ? player->bitrate_sum_bps / player->appended : 0.0;
    out->buffer_levels_s = player->levels_s;
    out->buffer_level_count = player->level_count;
    player->levels_s = NULL;
    player->level_count = player->level_capacity = 0;
}
