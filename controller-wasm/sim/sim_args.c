#include "sim_args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path_jitter.h"
#include "trace_file.h"

const char *sim_cli_usage(void) {
    return "usage: pcc-sim [options]\n"
           "  --cc LIST              controllers, one per flow or one for all (default vivace)\n"
           "  --flows N              number of flows (default: length of --cc / --rtt-ms lists, else 1)\n"
           "  --rate-mbps X          constant bottleneck rate (default 100)\n"
           "  --trace FILE           mahimahi trace instead of a constant rate (1504 B per line)\n"
           "  --rtt-ms LIST          base RTT per flow or one for all (default 30)\n"
           "  --buffer-kb X          droptail buffer, 1 KB = 1000 bytes (default 75)\n"
           "  --loss P               random loss probability of data packets, 0 <= P < 1 (default 0)\n"
           "  --duration-s S         simulated time (default 60)\n"
           "  --start-gap-s G        flow i starts at i*G seconds (default 0)\n"
           "  --rtt-schedule MIN_MS:MAX_MS:PERIOD_S    redraw every flow's RTT uniformly each period\n"
           "  --rate-schedule MIN_MBPS:MAX_MBPS:PERIOD_S  redraw the link rate each period\n"
           "  --loss-schedule MIN:MAX:PERIOD_S        redraw the loss probability each period\n"
           "  --seed N               seed of every random draw (default 1)\n"
           "  --packet-bytes N       packet size on the wire (default 1500)\n"
           "  --send-jitter-us US    each packet leaves up to US late, uniform (default " PCC_SIM_STR(PCC_SIM_DEFAULT_SEND_JITTER_US) "; 0: exact pacing)\n"
           "  --jitter-sd-us US      forward-path delay jitter after the bottleneck: sd of a wandering extra delay\n"
           "                         (default 0: off)\n"
           "  --jitter-tau-us US     its correlation time (default " PCC_SIM_STR(PCC_SIM_DEFAULT_JITTER_TAU_US) ")\n"
           "  --ack-delay-ms MS      delayed acks: every second packet acked at once, a lone one after MS (QUIC: 25;\n"
           "                         default 0: every packet at once)\n"
           "  --rtt-noise PROFILE    return-path RTT noise: off (default) or real-path (heavy-tailed, fitted to the\n"
           "                         real LTE runs; README \"RTT noise\")\n"
           "  --cc-param NAME=VALUE  set a controller parameter on every flow (repeatable)\n"
           "  --sample-ms MS         time-series interval (default 100)\n"
           "  --video-mbps LIST      flows are DASH players of this bitrate, one per flow or one for all (0: a bulk flow)\n"
           "  --video-abr LIST       flows are DASH players choosing from this ladder (Mbit/s, increasing) by throughput\n"
           "  --segment-s S          video segment duration (default 2)\n"
           "  --video-continuous     no request gaps: segments stream back to back (the thesis's RTSP proxy, §5.2)\n"
           "  --video-vbr CV         segment sizes vary around the bitrate with this coefficient of variation (0-0.5)\n"
           "  --video-startup-s S    media needed to start and to resume after a stall (default one segment)\n"
           "  --video-max-buffer-s S no request while the buffer holds this much (default dash.js: 30 s at the top\n"
           "                         rendition, 18 s below)\n"
           "  --video-abr-samples N  segments in the ABR's harmonic mean (default 4; the player page uses 5)\n"
           "  --video-abandon-s S    abandon a download that would finish after the buffer runs dry, ask again lower,\n"
           "                         and hold up-switches for S seconds (the player page: 4; default: never abandon)\n"
           "  --csv FILE             write the time series (per flow per interval) as CSV\n"
           "  --json                 print one JSON object instead of a table\n"
           "  --timing               log wall and CPU seconds as a JSON line on stderr\n"
           "  --help\n";
}

static int parse_number(const char *flag, const char *text, double lowest, double highest, double *out, char *error,
                        size_t error_bytes) {
    errno = 0;
    char *end = NULL;
    double value = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !isfinite(value)) {
        snprintf(error, error_bytes, "%s: \"%s\" is not a number", flag, text);
        return -1;
    }
    if (value < lowest || value > highest) {
        snprintf(error, error_bytes, "%s: %s is out of range [%g, %g]", flag, text, lowest, highest);
        return -1;
    }
    *out = value;
    return 0;
}

/* Splits "a,b,c" into at most max items; returns the count or -1. */
static int split_list(const char *flag, const char *text, char items[][PCC_SIM_NAME_BYTES], int max, char *error,
                      size_t error_bytes) {
    int count = 0;
    const char *cursor = text;
    for (;;) {
        const char *end = strchr(cursor, ',');
        size_t length = end ? (size_t)(end - cursor) : strlen(cursor);
        if (length == 0 || length >= PCC_SIM_NAME_BYTES) {
            snprintf(error, error_bytes, "%s: bad list \"%s\"", flag, text);
            return -1;
        }
        if (count == max) {
            snprintf(error, error_bytes, "%s: more than %d items", flag, max);
            return -1;
        }
        memcpy(items[count], cursor, length);
        items[count][length] = '\0';
        count++;
        if (!end) break;
        cursor = end + 1;
    }
    return count;
}

static int parse_schedule(const char *flag, const char *text, double scale, double lowest, double highest,
                          pcc_sim_schedule *out, char *error, size_t error_bytes) {
    char parts[3][PCC_SIM_NAME_BYTES];
    char copy[3 * PCC_SIM_NAME_BYTES];
    if (strlen(text) >= sizeof copy) {
        snprintf(error, error_bytes, "%s: expected MIN:MAX:PERIOD_S", flag);
        return -1;
    }
    int count = 0;
    const char *cursor = text;
    for (;;) {
        const char *end = strchr(cursor, ':');
        size_t length = end ? (size_t)(end - cursor) : strlen(cursor);
        if (count == 3 || length == 0 || length >= PCC_SIM_NAME_BYTES) {
            snprintf(error, error_bytes, "%s: expected MIN:MAX:PERIOD_S, got \"%s\"", flag, text);
            return -1;
        }
        memcpy(parts[count], cursor, length);
        parts[count][length] = '\0';
        count++;
        if (!end) break;
        cursor = end + 1;
    }
    if (count != 3) {
        snprintf(error, error_bytes, "%s: expected MIN:MAX:PERIOD_S, got \"%s\"", flag, text);
        return -1;
    }
    double min_value, max_value, period_s;
    if (parse_number(flag, parts[0], lowest, highest, &min_value, error, error_bytes) != 0 ||
        parse_number(flag, parts[1], lowest, highest, &max_value, error, error_bytes) != 0 ||
        parse_number(flag, parts[2], 0.001, 86400, &period_s, error, error_bytes) != 0) {
        return -1;
    }
    if (min_value > max_value) {
        snprintf(error, error_bytes, "%s: MIN is greater than MAX", flag);
        return -1;
    }
    out->min_value = min_value * scale;
    out->max_value = max_value * scale;
    out->period_us = (int64_t)llround(period_s * 1e6);
    return 0;
}

void sim_cli_free(sim_cli_options *options) {
    free(options->trace_ms);
    options->trace_ms = NULL;
}

int sim_cli_parse(int argc, char **argv, sim_cli_options *options, char *error, size_t error_bytes) {
    memset(options, 0, sizeof *options);
    pcc_sim_config_init(&options->config);
    char cc_list[PCC_SIM_MAX_FLOWS][PCC_SIM_NAME_BYTES];
    char rtt_list[PCC_SIM_MAX_FLOWS][PCC_SIM_NAME_BYTES];
    int cc_count = 1, rtt_count = 1, flows = 0, rate_given = 0;
    strcpy(cc_list[0], "vivace");
    strcpy(rtt_list[0], "30");
    double start_gap_s = 0.0;
    char video_list[PCC_SIM_MAX_FLOWS][PCC_SIM_NAME_BYTES];
    char ladder_list[PCC_SIM_VIDEO_MAX_RUNGS][PCC_SIM_NAME_BYTES];
    int video_count = 0, ladder_count = 0, video_options = 0;
    pcc_sim_video_config video;
    memset(&video, 0, sizeof video);

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        char flag[64];
        const char *value = NULL;
        const char *equals = strchr(arg, '=');
        if (strncmp(arg, "--", 2) == 0 && equals && (size_t)(equals - arg) < sizeof flag) {
            memcpy(flag, arg, (size_t)(equals - arg));
            flag[equals - arg] = '\0';
            value = equals + 1;
        } else if (strlen(arg) < sizeof flag) {
            strcpy(flag, arg);
        } else {
            snprintf(error, error_bytes, "unknown argument \"%.40s...\"", arg);
            return -1;
        }
        if (strcmp(flag, "--help") == 0 || strcmp(flag, "-h") == 0) {
            options->help = 1;
            return 0;
        }
        if (strcmp(flag, "--video-continuous") == 0) {
            if (value) {
                snprintf(error, error_bytes, "%s takes no value", flag);
                return -1;
            }
            video.continuous = 1;
            video_options = 1;
            continue;
        }
        if (strcmp(flag, "--json") == 0 || strcmp(flag, "--timing") == 0) {
            if (value) {
                snprintf(error, error_bytes, "%s takes no value", flag);
                return -1;
            }
            if (flag[2] == 'j') options->json = 1;
            else options->timing = 1;
            continue;
        }
        if (strncmp(flag, "--", 2) != 0) {
            snprintf(error, error_bytes, "unexpected argument \"%s\"", arg);
            return -1;
        }
        if (!value) {
            if (i + 1 >= argc) {
                snprintf(error, error_bytes, "%s needs a value", flag);
                return -1;
            }
            value = argv[++i];
        }
        double number;
        if (strcmp(flag, "--cc") == 0) {
            cc_count = split_list(flag, value, cc_list, PCC_SIM_MAX_FLOWS, error, error_bytes);
            if (cc_count < 0) return -1;
        } else if (strcmp(flag, "--rtt-ms") == 0) {
            rtt_count = split_list(flag, value, rtt_list, PCC_SIM_MAX_FLOWS, error, error_bytes);
            if (rtt_count < 0) return -1;
        } else if (strcmp(flag, "--flows") == 0) {
            if (parse_number(flag, value, 1, PCC_SIM_MAX_FLOWS, &number, error, error_bytes) != 0) return -1;
            if (number != floor(number)) {
                snprintf(error, error_bytes, "--flows: \"%s\" is not a whole number", value);
                return -1;
            }
            flows = (int)number;
        } else if (strcmp(flag, "--rate-mbps") == 0) {
            if (parse_number(flag, value, 0.001, 1e6, &number, error, error_bytes) != 0) return -1;
            options->config.rate_bps = number * 1e6;
            rate_given = 1;
        } else if (strcmp(flag, "--trace") == 0) {
            options->trace_path = value;
        } else if (strcmp(flag, "--buffer-kb") == 0) {
            if (parse_number(flag, value, 0, 1e9, &number, error, error_bytes) != 0) return -1;
            options->config.buffer_bytes = (uint64_t)llround(number * 1000.0);
        } else if (strcmp(flag, "--loss") == 0) {
            if (parse_number(flag, value, 0, 0.999999, &number, error, error_bytes) != 0) return -1;
            options->config.loss_rate = number;
        } else if (strcmp(flag, "--duration-s") == 0) {
            if (parse_number(flag, value, 0.001, 86400, &number, error, error_bytes) != 0) return -1;
            options->config.duration_us = (int64_t)llround(number * 1e6);
        } else if (strcmp(flag, "--start-gap-s") == 0) {
            if (parse_number(flag, value, 0, 86400, &start_gap_s, error, error_bytes) != 0) return -1;
        } else if (strcmp(flag, "--rtt-schedule") == 0) {
            if (parse_schedule(flag, value, 1000.0, 0.001, 10000, &options->config.rtt_schedule_us, error,
                               error_bytes) != 0)
                return -1;
        } else if (strcmp(flag, "--rate-schedule") == 0) {
            if (parse_schedule(flag, value, 1e6, 0.001, 1e6, &options->config.rate_schedule_bps, error,
                               error_bytes) != 0)
                return -1;
        } else if (strcmp(flag, "--loss-schedule") == 0) {
            if (parse_schedule(flag, value, 1.0, 0, 0.999999, &options->config.loss_schedule, error, error_bytes) != 0)
                return -1;
        } else if (strcmp(flag, "--seed") == 0) {
            errno = 0;
            char *end = NULL;
            unsigned long long seed = strtoull(value, &end, 10);
            if (errno != 0 || end == value || *end != '\0' || value[0] == '-') {
                snprintf(error, error_bytes, "--seed: \"%s\" is not a non-negative integer", value);
                return -1;
            }
            options->config.seed = seed;
        } else if (strcmp(flag, "--packet-bytes") == 0) {
            if (parse_number(flag, value, 64, 65535, &number, error, error_bytes) != 0) return -1;
            for (int f = 0; f < PCC_SIM_MAX_FLOWS; f++) options->flows[f].packet_bytes = (uint32_t)number;
        } else if (strcmp(flag, "--send-jitter-us") == 0) {
            if (parse_number(flag, value, 0, 1e6, &number, error, error_bytes) != 0) return -1;
            options->config.send_jitter_us = (int64_t)llround(number);
        } else if (strcmp(flag, "--jitter-sd-us") == 0) {
            if (parse_number(flag, value, 0, 1e6, &number, error, error_bytes) != 0) return -1;
            options->config.jitter_sd_us = number;
        } else if (strcmp(flag, "--jitter-tau-us") == 0) {
            if (parse_number(flag, value, 1, 1e8, &number, error, error_bytes) != 0) return -1;
            options->config.jitter_tau_us = number;
        } else if (strcmp(flag, "--ack-delay-ms") == 0) {
            if (parse_number(flag, value, 0, 10000, &number, error, error_bytes) != 0) return -1;
            options->config.ack_delay_us = (int64_t)llround(number * 1000.0);
        } else if (strcmp(flag, "--rtt-noise") == 0) {
            if (strcmp(value, "off") == 0) {
                memset(&options->config.rtt_noise, 0, sizeof options->config.rtt_noise);
            } else if (strcmp(value, "real-path") == 0) {
                options->config.rtt_noise = SIM_RTT_NOISE_REAL_PATH;
            } else {
                snprintf(error, error_bytes, "--rtt-noise: \"%s\" is not a profile (off, real-path)", value);
                return -1;
            }
        } else if (strcmp(flag, "--cc-param") == 0) {
            size_t used = strlen(options->cc_params);
            if (!strchr(value, '=') || used + strlen(value) + 2 > sizeof options->cc_params) {
                snprintf(error, error_bytes, "--cc-param: expected NAME=VALUE, got \"%s\"", value);
                return -1;
            }
            if (used > 0) strcat(options->cc_params, ",");
            strcat(options->cc_params, value);
        } else if (strcmp(flag, "--sample-ms") == 0) {
            if (parse_number(flag, value, 0.001, 3.6e6, &number, error, error_bytes) != 0) return -1;
            options->config.sample_interval_us = (int64_t)llround(number * 1000.0);
            if (options->config.sample_interval_us < 1) options->config.sample_interval_us = 1;
        } else if (strcmp(flag, "--video-mbps") == 0) {
            video_count = split_list(flag, value, video_list, PCC_SIM_MAX_FLOWS, error, error_bytes);
            if (video_count < 0) return -1;
            for (int v = 0; v < video_count; v++) {
                if (parse_number(flag, video_list[v], 0, 1e6, &number, error, error_bytes) != 0) return -1;
            }
        } else if (strcmp(flag, "--video-abr") == 0) {
            ladder_count = split_list(flag, value, ladder_list, PCC_SIM_VIDEO_MAX_RUNGS, error, error_bytes);
            if (ladder_count < 0) return -1;
            for (int r = 0; r < ladder_count; r++) {
                if (parse_number(flag, ladder_list[r], 0.001, 1e6, &number, error, error_bytes) != 0) return -1;
                if (r > 0 && !(number * 1e6 > options->ladder_bps[r - 1])) {
                    snprintf(error, error_bytes, "--video-abr: rungs must increase, got \"%s\"", value);
                    return -1;
                }
                options->ladder_bps[r] = number * 1e6;
            }
        } else if (strcmp(flag, "--segment-s") == 0) {
            if (parse_number(flag, value, 0.01, 3600, &video.segment_s, error, error_bytes) != 0) return -1;
            video_options = 1;
        } else if (strcmp(flag, "--video-vbr") == 0) {
            if (parse_number(flag, value, 0, 0.5, &video.vbr_cv, error, error_bytes) != 0) return -1;
            video_options = 1;
        } else if (strcmp(flag, "--video-startup-s") == 0) {
            if (parse_number(flag, value, 0.001, 3600, &video.startup_buffer_s, error, error_bytes) != 0) return -1;
            video_options = 1;
        } else if (strcmp(flag, "--video-abr-samples") == 0) {
            if (parse_number(flag, value, 1, PCC_SIM_VIDEO_MAX_ABR_SAMPLES, &number, error, error_bytes) != 0) return -1;
            video.abr_samples = (size_t)llround(number);
            video_options = 1;
        } else if (strcmp(flag, "--video-abandon-s") == 0) {
            if (parse_number(flag, value, 0.001, 3600, &video.abandon_lock_s, error, error_bytes) != 0) return -1;
            video_options = 1;
        } else if (strcmp(flag, "--video-max-buffer-s") == 0) {
            if (parse_number(flag, value, 0.001, 3600, &video.max_buffer_s, error, error_bytes) != 0) return -1;
            video_options = 1;
        } else if (strcmp(flag, "--csv") == 0) {
            options->csv_path = value;
        } else {
            snprintf(error, error_bytes, "unknown option %s", flag);
            return -1;
        }
    }

    if (flows == 0) flows = cc_count > rtt_count ? cc_count : rtt_count;
    if (flows < video_count) flows = video_count;
    if (video_count > 0 && ladder_count > 0) {
        snprintf(error, error_bytes, "give either --video-mbps or --video-abr, not both");
        return -1;
    }
    if (video_options && video_count == 0 && ladder_count == 0) {
        snprintf(error, error_bytes, "video options need --video-mbps or --video-abr");
        return -1;
    }
    if (video_count != 0 && video_count != 1 && video_count != flows) {
        snprintf(error, error_bytes, "--video-mbps lists %d bitrates for %d flows (give one, or one per flow)",
                 video_count, flows);
        return -1;
    }
    if (cc_count != 1 && cc_count != flows) {
        snprintf(error, error_bytes, "--cc lists %d controllers for %d flows (give one, or one per flow)", cc_count,
                 flows);
        return -1;
    }
    if (rtt_count != 1 && rtt_count != flows) {
        snprintf(error, error_bytes, "--rtt-ms lists %d RTTs for %d flows (give one, or one per flow)", rtt_count,
                 flows);
        return -1;
    }
    if (options->trace_path && rate_given) {
        snprintf(error, error_bytes, "give either --rate-mbps or --trace, not both");
        return -1;
    }
    for (int f = 0; f < flows; f++) {
        double rtt_ms;
        if (parse_number("--rtt-ms", rtt_list[rtt_count == 1 ? 0 : f], 0.001, 10000, &rtt_ms, error, error_bytes) != 0)
            return -1;
        strcpy(options->cc_names[f], cc_list[cc_count == 1 ? 0 : f]);
        pcc_sim_flow_config *flow = &options->flows[f];
        flow->cc = options->cc_names[f];
        flow->cc_params = options->cc_params;
        flow->base_rtt_us = (int64_t)llround(rtt_ms * 1000.0);
        flow->start_us = (int64_t)llround(start_gap_s * 1e6 * f);
        double video_mbps = 0.0;
        if (video_count > 0) video_mbps = strtod(video_list[video_count == 1 ? 0 : f], NULL);
        if (video_mbps > 0.0 || ladder_count > 0) {
            options->videos[f] = video;
            options->videos[f].bitrate_bps = video_mbps * 1e6;
            if (ladder_count > 0) {
                options->videos[f].ladder_bps = options->ladder_bps;
                options->videos[f].ladder_count = (size_t)ladder_count;
            }
            flow->video = &options->videos[f];
        }
        if (flow->start_us >= options->config.duration_us) {
            snprintf(error, error_bytes, "flow %d would start at %.3f s, after the run ends", f, start_gap_s * f);
            return -1;
        }
    }
    options->config.flows = options->flows;
    options->config.flow_count = (size_t)flows;
    if (options->trace_path) {
        size_t count = 0;
        if (mm_trace_read_file(options->trace_path, &options->trace_ms, &count, error, error_bytes) != 0) return -1;
        options->config.trace_ms = options->trace_ms;
        options->config.trace_ms_count = count;
    }
    return 0;
}
