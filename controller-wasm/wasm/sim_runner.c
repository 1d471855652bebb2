#define _POSIX_C_SOURCE 200809L /* open_memstream under -std=c11 */

#include "sim_runner.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcc_sim.h"
#include "sim_args.h"
#include "sim_report.h"

typedef struct sample_log {
    pcc_sim_sample *items;
    size_t count;
    size_t capacity;
    int out_of_memory;
} sample_log;

static void record_sample(const pcc_sim_sample *sample, void *user_data) {
    sample_log *log = user_data;
    if (log->out_of_memory) return;
    if (log->count == log->capacity) {
        size_t capacity = log->capacity ? log->capacity * 2 : 1024;
        pcc_sim_sample *grown = realloc(log->items, capacity * sizeof *grown);
        if (grown == NULL) {
            log->out_of_memory = 1;
            return;
        }
        log->items = grown;
        log->capacity = capacity;
    }
    log->items[log->count++] = *sample;
}

static void write_json_string(FILE *out, const char *text) {
    fputc('"', out);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\') fprintf(out, "\\%c", *c);
        else if (*c < 0x20) fprintf(out, "\\u%04x", *c);
        else fputc(*c, out);
    }
    fputc('"', out);
}

/* Full precision; null for a non-finite value (JSON has no NaN), which tests then flag. */
static void write_number(FILE *out, const char *key, double value, const char *separator) {
    if (isfinite(value)) fprintf(out, "\"%s\":%.17g%s", key, value, separator);
    else fprintf(out, "\"%s\":null%s", key, separator);
}

static void write_count(FILE *out, const char *key, uint64_t value, const char *separator) {
    fprintf(out, "\"%s\":%" PRIu64 "%s", key, value, separator);
}

static void write_result(FILE *out, const pcc_sim_result *r) {
    fputs("\"result\":{\"flows\":[", out);
    for (size_t i = 0; i < r->flow_count; i++) {
        const pcc_sim_flow_result *f = &r->flows[i];
        fputs(i ? ",{\"cc\":" : "{\"cc\":", out);
        write_json_string(out, f->cc);
        fputc(',', out);
        write_number(out, "startUs", (double)f->start_us, ",");
        write_number(out, "throughputBps", f->throughput_bps, ",");
        write_number(out, "throughputLastHalfBps", f->throughput_last_half_bps, ",");
        write_number(out, "p95RttUs", f->p95_rtt_us, ",");
        write_number(out, "meanRttUs", f->mean_rtt_us, ",");
        write_number(out, "minRttUs", f->min_rtt_us, ",");
        write_number(out, "baseRttUs", f->base_rtt_us, ",");
        write_number(out, "lossRate", f->loss_rate, ",");
        write_number(out, "detectedLossRate", f->detected_loss_rate, ",");
        write_count(out, "packetsSent", f->packets_sent, ",");
        write_count(out, "packetsReceived", f->packets_received, ",");
        write_count(out, "packetsDroppedQueue", f->packets_dropped_queue, ",");
        write_count(out, "packetsDroppedRandom", f->packets_dropped_random, ",");
        write_count(out, "packetsDeclaredLost", f->packets_declared_lost, ",");
        write_count(out, "spuriousLosses", f->spurious_losses, "}");
    }
    fputs("],", out);
    write_number(out, "jainIndex", r->jain_index, ",");
    write_number(out, "linkUtilization", r->link_utilization, ",");
    write_number(out, "capacityBps", r->capacity_bps, ",");
    write_count(out, "eventsProcessed", r->events_processed, ",");
    write_count(out, "packetsSimulated", r->packets_simulated, "}");
}

static void write_samples(FILE *out, const sample_log *log) {
    fputs(",\"samples\":[", out);
    for (size_t i = 0; i < log->count; i++) {
        const pcc_sim_sample *s = &log->items[i];
        fputs(i ? ",{" : "{", out);
        write_number(out, "timeUs", (double)s->time_us, ",");
        write_count(out, "flow", s->flow, ",");
        write_number(out, "pacingRateBps", s->pacing_rate_bps, ",");
        write_number(out, "cwndBytes", s->cwnd_bytes, ",");
        write_number(out, "sendRateBps", s->send_rate_bps, ",");
        write_number(out, "throughputBps", s->throughput_bps, ",");
        write_number(out, "rttUs", s->rtt_us, ",");
        write_count(out, "packetsLost", s->packets_lost, ",");
        write_count(out, "queueBytes", s->queue_bytes, ",");
        write_number(out, "queueDelayUs", s->queue_delay_us, ",");
        write_number(out, "capacityBps", s->capacity_bps, ",");
        fputs("\"ccState\":", out);
        write_json_string(out, s->cc_state != NULL ? s->cc_state : "");
        fputc(',', out);
        write_number(out, "lastMiUtility", s->last_mi_utility, ",");
        write_number(out, "lastMiLossRate", s->last_mi_loss_rate, ",");
        write_number(out, "gradient", s->gradient, ",");
        write_count(out, "miCompleted", s->mi_completed, ",");
        write_number(out, "videoBufferS", s->video_buffer_s, ",");
        write_number(out, "videoBitrateBps", s->video_bitrate_bps, ",");
        write_count(out, "videoStalled", (uint64_t)s->video_stalled, "}");
    }
    fputc(']', out);
}

static char *error_document(const char *message) {
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (out == NULL) return NULL;
    fputs("{\"ok\":false,\"error\":", out);
    write_json_string(out, message);
    fputc('}', out);
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

char *pccw_sim_run_args(int argc, char **argv, const uint32_t *trace_ms, size_t trace_ms_count, int with_samples) {
    /* Large (64 flows of names and params): heap, not stack, which is small in WASM. */
    sim_cli_options *options = calloc(1, sizeof *options);
    pcc_sim_result *result = calloc(1, sizeof *result);
    sample_log samples = {0};
    char error[512] = "";
    char *document = NULL;
    if (options == NULL || result == NULL) goto done;
    /* The CLI parser itself opens --trace and --csv files: refuse them first (no file system in WASM,
     * and the same refusal natively keeps both paths identical). */
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--trace", 7) == 0 && (argv[i][7] == '\0' || argv[i][7] == '=')) {
            document = error_document("--trace reads a file: pass the trace's millisecond timestamps instead");
            goto done;
        }
        if (strncmp(argv[i], "--csv", 5) == 0 && (argv[i][5] == '\0' || argv[i][5] == '=')) {
            document = error_document("--csv writes a file: ask for samples instead");
            goto done;
        }
    }
    if (sim_cli_parse(argc, argv, options, error, sizeof error) != 0) {
        document = error_document(error);
        goto done;
    }
    if (options->help) {
        document = error_document("--help is for the command line");
        goto done;
    }
    if (trace_ms_count > 0) {
        options->config.trace_ms = trace_ms;
        options->config.trace_ms_count = trace_ms_count;
    }
    if (with_samples) {
        options->config.on_sample = record_sample;
        options->config.user_data = &samples;
    }
    int status = pcc_sim_run(&options->config, result, error, sizeof error);
    if (status != PCC_SIM_OK || samples.out_of_memory) {
        document = error_document(status != PCC_SIM_OK ? error : "out of memory while recording samples");
        goto done;
    }
    /* The CLI's own JSON report, captured in memory; its trailing newline is dropped so it nests. */
    char *report = NULL;
    size_t report_bytes = 0;
    FILE *report_out = open_memstream(&report, &report_bytes);
    if (report_out == NULL) goto done;
    sim_report_json(report_out, &options->config, result);
    if (fclose(report_out) != 0) {
        free(report);
        goto done;
    }
    while (report_bytes > 0 && report[report_bytes - 1] == '\n') report_bytes--;
    size_t size = 0;
    FILE *out = open_memstream(&document, &size);
    if (out != NULL) {
        fputs("{\"ok\":true,\"report\":", out);
        fwrite(report, 1, report_bytes, out);
        fputc(',', out);
        write_result(out, result);
        if (with_samples) write_samples(out, &samples);
        fputc('}', out);
        if (fclose(out) != 0) {
            free(document);
            document = NULL;
        }
    }
    free(report);
done:
    if (options != NULL) sim_cli_free(options);
    free(options);
    if (result != NULL) pcc_sim_result_free(result);
    free(result);
    free(samples.items);
    return document;
}
