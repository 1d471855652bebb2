/*
 * pcc-replay: applies an event script to one controller and prints the controller's outputs after every
 * line, as JSON lines. The TypeScript equivalence tests run the same script through the WASM Controller
 * and compare line by line. Events go through pccw_apply_event, the code the WASM batch path uses, so
 * both sides convert numbers identically.
 *
 * Script (one command per line; blank lines and '#' comments skipped; numbers may be any strtod form):
 *   create ALGORITHM SEED NOW_US          must come first
 *   param NAME VALUE
 *   sent PN BYTES NOW_US
 *   ack PN RTT_US RECV_TIME_US NOW_US
 *   loss PN NOW_US
 *   tick NOW_US
 *   app_state APP_LIMITED BUFFER_MS BITRATE_BPS DEADLINE_US NOW_US   cc_on_app_state (negative: unknown)
 *   app_limited NOW_US                    short for app_state 1 -1 -1 -1 NOW_US
 *   expect PACING_BYTES_PER_S CWND_BYTES  the recorded decision at this point: the replay must match it exactly
 *                                         (exit 1 with the line and both values otherwise); prints nothing
 * A comment starting "# truncated" marks a recording cut at its size cap (reported by --check).
 * A comment "# controller-build ID ..." names the controller build the recording was made with (the id of the
 * library's sources, wasm/native/controller_build_id.cmake; the origin writes it since 2026-11-28).
 * Output per command: {"line":N,"pacingRateBytesPerSec":..,"cwndBytes":..,"bytesInFlight":..,"telemetry":{..}}
 * with telemetry keys named as in ts/types.ts ControllerTelemetry; numbers printed with 17 significant digits.
 * --check: no output per command; one summary line at the end {"lines":..,"events":..,"expects":..,"truncated":..,
 *          "recordedBuild":..,"build":..}. Exit status: 0 every decision reached; 1 a decision differs in a
 *          recording made with this very build (a defect: the controller is not deterministic, or replay does not
 *          feed it what the origin did); 3 a decision differs in a recording made with another build or one that
 *          names none (recorded before builds were noted): expected after an intended change, so not a defect —
 *          replay its inputs (--mi) instead; 2 a malformed script.
 * --mi: one line per finished monitor interval instead (PCC algorithms; cc_mi_report's fields), for analysis.
 *       It replays the inputs through today's controller and skips `expect` lines: a recording made with an older
 *       controller stays analysable after a change that moves its decisions on purpose.
 *
 * --build-id: prints this build's controller build id and exits.
 *
 * usage: pcc-replay [--check | --mi] [SCRIPT]   (stdin when omitted);  pcc-replay --build-id
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r, clock_gettime under -std=c11 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../event_batch.h"
#include "controller_build_id.h"
#include "pcc/cc.h"

#define MAX_LINE_BYTES 512
#define MAX_FIELDS 6
#define MAX_BUILD_ID_CHARS 64
#define EXIT_OTHER_BUILD 3

enum output_mode { OUTPUT_EVERY_LINE, OUTPUT_CHECK, OUTPUT_MI };

static void print_number(const char *key, double value, int last) {
    if (isfinite(value)) printf("\"%s\":%.17g%s", key, value, last ? "" : ",");
    else printf("\"%s\":null%s", key, last ? "" : ","); /* the library promised finite: make the test fail loudly */
}

static void print_outputs(long line_no, const cc_controller *cc, uint64_t events_refused) {
    cc_telemetry t = {0};
    cc_get_telemetry(cc, &t);
    printf("{\"line\":%ld,", line_no);
    print_number("pacingRateBytesPerSec", cc_pacing_rate_bytes_per_s(cc), 0);
    print_number("cwndBytes", cc_cwnd_bytes(cc), 0);
    print_number("bytesInFlight", (double)cc_bytes_in_flight(cc), 0);
    printf("\"telemetry\":{\"algorithm\":\"%s\",\"state\":\"%s\",", t.algorithm ? t.algorithm : "", t.state ? t.state : "");
    print_number("pacingRateBps", t.pacing_rate_bps, 0);
    print_number("cwndBytes", t.cwnd_bytes, 0);
    print_number("miRateBps", t.mi_rate_bps, 0);
    print_number("lastMiRateBps", t.last_mi_rate_bps, 0);
    print_number("lastMiUtility", t.last_mi_utility, 0);
    print_number("lastMiLossRate", t.last_mi_loss_rate, 0);
    print_number("lastMiRttGradient", t.last_mi_rtt_gradient, 0);
    print_number("lastMiThroughputBps", t.last_mi_throughput_bps, 0);
    print_number("gradient", t.gradient, 0);
    print_number("srttUs", t.srtt_us, 0);
    print_number("minRttUs", t.min_rtt_us, 0);
    print_number("latestRttUs", t.latest_rtt_us, 0);
    print_number("bytesInFlight", (double)t.bytes_in_flight, 0);
    print_number("miCompleted", (double)t.mi_completed, 0);
    print_number("packetsSent", (double)t.packets_sent, 0);
    print_number("packetsAcked", (double)t.packets_acked, 0);
    print_number("packetsLost", (double)t.packets_lost, 0);
    print_number("eventsIgnored", (double)(t.events_ignored + events_refused), 0);
    print_number("utilityErrors", 0.0, 0);
    print_number("eventsRefused", (double)events_refused, 1);
    printf("}}\n");
}

static void print_mi(const cc_mi_report *mi, void *user_data) {
    (void)user_data;
    const cc_mi_stats *st = &mi->stats;
    printf("{\"id\":%" PRIu64 ",\"firstPn\":%" PRIu64 ",\"lastPn\":%" PRIu64 ",\"startUs\":%" PRId64 ",\"endUs\":%" PRId64
           ",\"timedOut\":%d,\"appLimited\":%d,\"packetsSent\":%" PRIu32 ",\"packetsAcked\":%" PRIu32 ",\"packetsLost\":%" PRIu32
           ",\"rttSamples\":%" PRIu32 ",",
           mi->id, mi->first_pn, mi->last_pn, mi->start_time_us, mi->end_time_us, mi->timed_out, mi->app_limited,
           st->packets_sent, st->packets_acked, st->packets_lost, st->rtt_samples);
    print_number("targetRateBps", st->target_rate_bps, 0);
    print_number("sendRateBps", st->send_rate_bps, 0);
    print_number("throughputBps", st->throughput_bps, 0);
    print_number("lossRate", st->loss_rate, 0);
    print_number("rttGradient", st->rtt_gradient, 0);
    print_number("avgRttUs", st->avg_rtt_us, 0);
    print_number("minRttUs", st->min_rtt_us, 0);
    print_number("durationUs", st->duration_us, 0);
    print_number("utility", mi->utility, 1);
    printf("}\n");
}

static int fail(long line_no, const char *message, const char *detail) {
    fprintf(stderr, "{\"component\":\"pcc-replay\",\"level\":\"error\",\"line\":%ld,\"message\":\"%s\",\"detail\":\"%s\"}\n",
            line_no, message, detail);
    return 2;
}

/* The recording's build as a JSON value: a string (the id is [0-9a-z-] by construction, anything else is dropped)
 * or null when the recording names none. */
static void print_build(FILE *out, const char *key, const char *build, int last) {
    if (build[0] == '\0') fprintf(out, "\"%s\":null%s", key, last ? "" : ",");
    else fprintf(out, "\"%s\":\"%s\"%s", key, build, last ? "" : ",");
}

/* "# controller-build ID ...": the first word after the marker, kept if it is a plain id. */
static void read_build(char **save, char *build) {
    char *id = strtok_r(NULL, " \t\r\n", save);
    if (id == NULL || strlen(id) >= MAX_BUILD_ID_CHARS || strcmp(id, "unknown") == 0) return;
    for (const char *c = id; *c; c++) {
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || *c == '-')) return;
    }
    strcpy(build, id);
}

static int run(FILE *in, enum output_mode mode) {
    char line[MAX_LINE_BYTES];
    char recorded_build[MAX_BUILD_ID_CHARS] = "";
    cc_controller *cc = NULL;
    uint64_t events_refused = 0;
    uint64_t events_applied = 0, expects = 0;
    int truncated = 0;
    long line_no = 0;
    int status = 0;
    while (status == 0 && fgets(line, sizeof line, in) != NULL) {
        line_no++;
        if (strchr(line, '\n') == NULL && !feof(in)) { status = fail(line_no, "line too long", ""); break; }
        char *save = NULL;
        char *command = strtok_r(line, " \t\r\n", &save);
        if (command == NULL) continue;
        if (command[0] == '#') {
            char *rest = strtok_r(NULL, " \t\r\n", &save);
            if ((strcmp(command, "#") == 0 && rest != NULL && strncmp(rest, "truncated", 9) == 0) || strncmp(command, "#truncated", 10) == 0) truncated = 1;
            if (strcmp(command, "#") == 0 && rest != NULL && strcmp(rest, "controller-build") == 0) read_build(&save, recorded_build);
            continue;
        }
        char *words[MAX_FIELDS] = {0};
        int word_count = 0;
        char *word;
        while ((word = strtok_r(NULL, " \t\r\n", &save)) != NULL) {
            if (word_count == MAX_FIELDS) { status = fail(line_no, "too many fields", command); break; }
            words[word_count++] = word;
        }
        if (status != 0) break;
        double v[MAX_FIELDS] = {0};
        int first_number = strcmp(command, "create") == 0 || strcmp(command, "param") == 0 ? 1 : 0;
        for (int i = first_number; i < word_count; i++) {
            char *end = NULL;
            v[i] = strtod(words[i], &end);
            if (end == words[i] || *end != '\0') { status = fail(line_no, "not a number", words[i]); break; }
        }
        if (status != 0) break;

        struct { const char *name; int type; int fields; } const events[] = {
            {"sent", PCCW_EVENT_SENT, 3}, {"ack", PCCW_EVENT_ACK, 4}, {"loss", PCCW_EVENT_LOSS, 2},
            {"tick", PCCW_EVENT_TICK, 1}, {"app_state", PCCW_EVENT_APP_STATE, 5}, {"app_limited", PCCW_EVENT_APP_STATE, 1},
        };
        if (strcmp(command, "create") == 0) {
            uint64_t seed;
            int64_t now_us;
            if (cc != NULL) { status = fail(line_no, "create given twice", ""); break; }
            if (word_count != 3) { status = fail(line_no, "usage: create ALGORITHM SEED NOW_US", ""); break; }
            if (!pccw_double_to_u64(v[1], &seed) || !pccw_time_to_i64(v[2], &now_us)) {
                status = fail(line_no, "bad seed or time", words[1]);
                break;
            }
            cc = cc_create(words[0], seed, now_us);
            if (cc == NULL) { status = fail(line_no, "unknown algorithm", words[0]); break; }
            if (mode == OUTPUT_MI && cc_set_mi_observer(cc, print_mi, NULL) != CC_OK) {
                status = fail(line_no, "--mi needs an algorithm with monitor intervals", words[0]);
                break;
            }
        } else if (cc == NULL) {
            status = fail(line_no, "the script must start with create", command);
            break;
        } else if (strcmp(command, "param") == 0) {
            if (word_count != 2) { status = fail(line_no, "usage: param NAME VALUE", ""); break; }
            if (cc_param_set(cc, words[0], v[1]) != CC_OK) { status = fail(line_no, "parameter refused", words[0]); break; }
        } else if (strcmp(command, "expect") == 0) {
            if (word_count != 2) { status = fail(line_no, "usage: expect PACING_BYTES_PER_S CWND_BYTES", ""); break; }
            if (mode == OUTPUT_MI) continue;
            double rate = cc_pacing_rate_bytes_per_s(cc), cwnd = cc_cwnd_bytes(cc);
            expects++;
            if (rate != v[0] || cwnd != v[1]) {
                int same_build = strcmp(recorded_build, PCC_CONTROLLER_BUILD_ID) == 0;
                fprintf(stderr,
                        "{\"component\":\"pcc-replay\",\"level\":\"error\",\"line\":%ld,\"message\":\"%s\","
                        "\"expected\":{\"pacingRateBytesPerSec\":%.17g,\"cwndBytes\":%.17g},"
                        "\"replayed\":{\"pacingRateBytesPerSec\":%.17g,\"cwndBytes\":%.17g},\"expectsMatched\":%" PRIu64 ",",
                        line_no,
                        same_build ? "decision differs"
                        : recorded_build[0] == '\0'
                            ? "decision differs from a recording that names no controller build (made before builds were noted): "
                              "not evidence of a defect; replay its inputs with --mi"
                            : "decision differs from a recording made with another controller build: "
                              "not evidence of a defect; replay its inputs with --mi",
                        v[0], v[1], rate, cwnd, expects - 1);
                print_build(stderr, "recordedBuild", recorded_build, 0);
                print_build(stderr, "build", PCC_CONTROLLER_BUILD_ID, 1);
                fprintf(stderr, "}\n");
                status = same_build ? 1 : EXIT_OTHER_BUILD;
                break;
            }
            continue;
        } else {
            size_t i = 0;
            while (i < sizeof events / sizeof events[0] && strcmp(events[i].name, command) != 0) i++;
            if (i == sizeof events / sizeof events[0]) { status = fail(line_no, "unknown command", command); break; }
            if (word_count != events[i].fields) { status = fail(line_no, "wrong number of fields", command); break; }
            double event[PCCW_EVENT_FIELDS] = {0};
            event[PCCW_FIELD_TYPE] = events[i].type;
            switch (events[i].type) {
            case PCCW_EVENT_SENT:
                event[PCCW_FIELD_PN] = v[0];
                event[PCCW_FIELD_BYTES] = v[1];
                event[PCCW_FIELD_NOW_US] = v[2];
                break;
            case PCCW_EVENT_ACK:
                event[PCCW_FIELD_PN] = v[0];
                event[PCCW_FIELD_RTT_US] = v[1];
                event[PCCW_FIELD_RECV_TIME_US] = v[2];
                event[PCCW_FIELD_NOW_US] = v[3];
                break;
            case PCCW_EVENT_LOSS:
                event[PCCW_FIELD_PN] = v[0];
                event[PCCW_FIELD_NOW_US] = v[1];
                break;
            case PCCW_EVENT_APP_STATE: {
                int full = events[i].fields == 5; /* app_state; else the app_limited short form */
                event[PCCW_FIELD_APP_LIMITED] = full ? v[0] : 1.0;
                event[PCCW_FIELD_BUFFER_MS] = full ? v[1] : CC_APP_UNKNOWN;
                event[PCCW_FIELD_BITRATE_BPS] = full ? v[2] : CC_APP_UNKNOWN;
                event[PCCW_FIELD_DEADLINE_US] = full ? v[3] : CC_APP_UNKNOWN;
                event[PCCW_FIELD_NOW_US] = full ? v[4] : v[0];
                break;
            }
            default:
                event[PCCW_FIELD_NOW_US] = v[0];
                break;
            }
            if (!pccw_apply_event(cc, event)) events_refused++;
            events_applied++;
        }
        if (mode == OUTPUT_EVERY_LINE) print_outputs(line_no, cc, events_refused);
    }
    if (status == 0 && mode == OUTPUT_CHECK) {
        printf("{\"lines\":%ld,\"events\":%" PRIu64 ",\"eventsRefused\":%" PRIu64 ",\"expects\":%" PRIu64 ",\"truncated\":%s,",
               line_no, events_applied, events_refused, expects, truncated ? "true" : "false");
        print_build(stdout, "recordedBuild", recorded_build, 0);
        print_build(stdout, "build", PCC_CONTROLLER_BUILD_ID, 1);
        printf("}\n");
    }
    if (cc != NULL) cc_destroy(cc);
    return status;
}

int main(int argc, char **argv) {
    enum output_mode mode = OUTPUT_EVERY_LINE;
    int arg = 1;
    if (argc == 2 && strcmp(argv[1], "--build-id") == 0) {
        printf("%s\n", PCC_CONTROLLER_BUILD_ID);
        return 0;
    }
    if (arg < argc && strcmp(argv[arg], "--check") == 0) { mode = OUTPUT_CHECK; arg++; }
    else if (arg < argc && strcmp(argv[arg], "--mi") == 0) { mode = OUTPUT_MI; arg++; }
    if (argc - arg > 1 || (arg < argc && argv[arg][0] == '-' && argv[arg][1] != '\0')) {
        fprintf(stderr, "usage: pcc-replay [--check | --mi] [SCRIPT] | pcc-replay --build-id\n");
        return 2;
    }
    FILE *in = arg < argc ? fopen(argv[arg], "r") : stdin;
    if (in == NULL) return fail(0, "cannot open script", argv[arg]);
    int status = run(in, mode);
    if (in != stdin) fclose(in);
    return status;
}
