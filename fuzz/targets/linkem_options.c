/*
 * libFuzzer target: linkem-fwd's command line (bench/linkem/src/fwd/options.c) and what main() builds from it
 * before touching the system (path_config.c: queue discipline and its arguments, fixed delay, rtt pattern,
 * trace and delay-schedule files). The input is argv after the program name, arguments separated by NUL
 * bytes. The value given to --up-trace, --down-trace or --delay-schedule (however spelled) becomes the
 * CONTENT of an in-memory file whose /proc/self/fd path replaces it, so file parsing is fuzzed too and no
 * path of this machine is ever opened. Checked besides the sanitizers:
 *  - a refusal always says why (a non-empty message); an acceptance meets each flag's documented range and
 *    the combination rules;
 *  - the queue's description, read back as arguments, gives the same queue (a value that does not survive
 *    the round trip was silently changed, e.g. overflowed);
 *  - the delay model answers within its 60 s bound; a queue built from the config conserves packets.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "options.h"
#include "packet.h"
#include "path_config.h"
#include "queue.h"

#define MAX_ARGS 64
#define ONE_WAY_MAX_US 60000000ull
#define ERR_BYTES 512

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "linkem-options invariant broken: %s (%s)\n", what, detail ? detail : "");
    abort();
}

/* An in-memory file holding text; its path in path_out. -1 when memfd is unavailable. */
static int memory_file(const char *text, char *path_out, size_t path_len) {
    int fd = memfd_create("linkem-fuzz", 0);
    if (fd < 0) return -1;
    size_t len = strlen(text);
    if (len > 0 && write(fd, text, len) != (ssize_t)len) {
        close(fd);
        return -1;
    }
    snprintf(path_out, path_len, "/proc/self/fd/%d", fd);
    return fd;
}

static void check_accepted(const options *o) {
    for (int d = 0; d < 2; d++) {
        if (o->rate_mbps[d] != 0 && !(o->rate_mbps[d] >= 1e-3 && o->rate_mbps[d] <= 1e5)) fail("rate out of range", NULL);
        if (!(o->loss[d] >= 0 && o->loss[d] <= 1)) fail("loss out of range", NULL);
        if (o->trace_path[d] && o->rate_mbps[d] > 0) fail("trace and rate both accepted", NULL);
    }
    if ((o->delay_ms != NULL) + (o->delay_schedule != NULL) + (o->rtt_pattern != NULL) > 1)
        fail("two delay models accepted", NULL);
}

/* describe() prints "KIND [k=v, k=v]"; as arguments that is "k=v,k=v". Parsing them must give the same queue. */
static void check_queue_round_trip(const queue_config *c, const char *desc) {
    const char *open = strchr(desc, '[');
    char args[256] = "";
    if (open) {
        size_t m = 0;
        for (const char *p = open + 1; *p && *p != ']' && m + 1 < sizeof args; p++)
            if (*p != ' ') args[m++] = *p;
        args[m] = '\0';
    }
    queue_config again;
    char err[ERR_BYTES] = "";
    if (queue_config_parse(&again, c->discipline->name, args, err, sizeof err) != 0) fail("description does not parse back", err);
    if (again.discipline != c->discipline || again.limit_packets != c->limit_packets || again.limit_bytes != c->limit_bytes ||
        again.codel.target_us != c->codel.target_us || again.codel.interval_us != c->codel.interval_us)
        fail("queue changes through its description", desc);
}

/* Offers a few packets to a queue built from the config: each one leaves or is counted dropped, once. */
static void check_queue_conserves(const queue_config *c, const uint8_t *data, size_t size) {
    packet_queue q;
    queue_init(&q, c);
    uint64_t offered = 0, dropped = 0, left = 0, now_us = 0;
    for (size_t i = 0; i < size && i < 64; i++) {
        packet *p = packet_alloc();
        if (!p) break;
        p->ip_bytes = 20u + (uint32_t)data[i] * 5u;
        p->link_arrival_us = now_us;
        offered++;
        dropped += queue_enqueue(&q, p).packets;
        now_us += (uint64_t)(data[i] & 7u) * 3000u;
        if (data[i] & 8u) {
            queue_drops drops = {0, 0};
            packet *out = queue_dequeue(&q, now_us, &drops);
            dropped += drops.packets;
            if (out) {
                left++;
                packet_free(out);
            }
        }
    }
    for (;;) {
        queue_drops drops = {0, 0};
        now_us += 1000;
        packet *out = queue_dequeue(&q, now_us, &drops);
        dropped += drops.packets;
        if (!out) break;
        left++;
        packet_free(out);
    }
    if (!queue_is_empty(&q) || offered != dropped + left) fail("queue loses or invents packets", c->discipline->name);
    queue_free_all(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "linkem-fwd";
    for (size_t start = 0; start <= size && argc <= MAX_ARGS;) {
        argv[argc++] = text + start;
        start += strlen(text + start) + 1;
    }
    argv[argc] = NULL;

    options o;
    char err[ERR_BYTES];
    memset(err, 0, sizeof err);
    if (options_parse(argc, argv, &o, err, sizeof err) != 0) {
        if (err[0] == '\0') fail("refused without a reason", NULL);
        free(text);
        return 0;
    }
    check_accepted(&o);

    /* Values of the file flags become file contents. */
    char paths[3][64];
    int fds[3] = {-1, -1, -1};
    const char **file_flags[3] = {&o.trace_path[DIR_UP], &o.trace_path[DIR_DOWN], &o.delay_schedule};
    for (int i = 0; i < 3; i++) {
        if (*file_flags[i] == NULL) continue;
        fds[i] = memory_file(*file_flags[i], paths[i], sizeof paths[i]);
        if (fds[i] < 0) fail("memfd_create", NULL);
        *file_flags[i] = paths[i];
    }

    path_config pc;
    memset(err, 0, sizeof err);
    if (path_config_build(&o, &pc, err, sizeof err) != 0) {
        if (err[0] == '\0') fail("path refused without a reason", NULL);
    } else {
        for (int d = 0; d < 2; d++) {
            if (pc.queue_desc[d][0] == '\0') fail("empty queue description", NULL);
            check_queue_round_trip(&pc.queue[d], pc.queue_desc[d]);
            check_queue_conserves(&pc.queue[d], data, size);
            if (pc.kind[d] == LINK_TRACE && (pc.trace_count[d] == 0 || pc.trace_ms[d][pc.trace_count[d] - 1] == 0))
                fail("unusable trace accepted", NULL);
        }
        uint64_t probes_us[] = {0, 1, 999, 1000000, 59999999, 3600000000ull, UINT64_MAX / 2};
        for (size_t i = 0; i < sizeof probes_us / sizeof probes_us[0]; i++)
            if (delay_one_way_us(&pc.delay, probes_us[i]) > ONE_WAY_MAX_US) fail("one-way delay above 60 s", NULL);
    }
    path_config_free(&pc);
    packet_pool_release_all();
    for (int i = 0; i < 3; i++)
        if (fds[i] >= 0) close(fds[i]);
    free(text);
    return 0;
}
