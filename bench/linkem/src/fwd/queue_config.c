/* The queue's command-line text: KIND and "key=value,key=value" ARGS in, a queue_config out; and back to
   mahimahi's description for log headers. */
#include <stdio.h>
#include <string.h>

#include "queue.h"

static const queue_discipline *const disciplines[] = {&queue_infinite, &queue_droptail, &queue_drophead, &queue_codel};
#define DISCIPLINE_COUNT (sizeof disciplines / sizeof disciplines[0])

/* Longest key any discipline takes, plus room to report a wrong one. */
#define QUEUE_KEY_MAX_BYTES 32
/* A u64 holds every 18-digit number. */
#define QUEUE_VALUE_MAX_DIGITS 18

static const queue_discipline *find_discipline(const char *name) {
    for (size_t i = 0; i < DISCIPLINE_COUNT; i++)
        if (!strcmp(disciplines[i]->name, name)) return disciplines[i];
    return NULL;
}

static int parse_u64(const char *s, size_t len, uint64_t *out) {
    if (len == 0 || len > QUEUE_VALUE_MAX_DIGITS) return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

/* One "key=value" of length len: the packets=/bytes= limits, else the discipline's own keys. */
static int apply_arg(queue_config *c, const char *arg, size_t len, char *err, size_t err_len) {
    const char *eq = memchr(arg, '=', len);
    if (!eq) {
        snprintf(err, err_len, "queue argument '%.*s' is not key=value", (int)len, arg);
        return -1;
    }
    size_t key_len = (size_t)(eq - arg);
    uint64_t value;
    if (parse_u64(eq + 1, len - key_len - 1, &value) != 0) {
        snprintf(err, err_len, "queue argument '%.*s' needs a non-negative integer", (int)len, arg);
        return -1;
    }
    char key[QUEUE_KEY_MAX_BYTES];
    snprintf(key, sizeof key, "%.*s", (int)key_len, arg);
    int is_limit = !strcmp(key, "packets") || !strcmp(key, "bytes");
    if (is_limit && c->discipline->limits != QUEUE_LIMITS_NONE) {
        if (value == 0) {
            snprintf(err, err_len, "queue limit '%.*s' must be > 0", (int)len, arg);
            return -1;
        }
        *(key[0] == 'p' ? &c->limit_packets : &c->limit_bytes) = value;
        return 0;
    }
    if (is_limit) {
        snprintf(err, err_len, "an %s queue takes no packets=/bytes= limit", c->discipline->name);
        return -1;
    }
    int taken = c->discipline->set_arg ? c->discipline->set_arg(c, key, value, err, err_len) : 0;
    if (taken == 0) snprintf(err, err_len, "unknown queue argument '%s' for %s", key, c->discipline->name);
    return taken == 1 ? 0 : -1;
}

int queue_config_parse(queue_config *c, const char *kind, const char *args, char *err, size_t err_len) {
    memset(c, 0, sizeof *c);
    c->discipline = find_discipline(kind ? kind : "infinite");
    if (!c->discipline) {
        char names[128] = "";
        for (size_t i = 0, m = 0; i < DISCIPLINE_COUNT && m < sizeof names; i++)
            m += (size_t)snprintf(names + m, sizeof names - m, "%s%s", i ? ", " : "", disciplines[i]->name);
        snprintf(err, err_len, "unknown queue '%s' (%s)", kind, names);
        return -1;
    }
    if (c->discipline->set_defaults) c->discipline->set_defaults(c);
    for (const char *p = args ? args : ""; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (apply_arg(c, p, len, err, err_len) != 0) return -1;
        p = end ? end + 1 : p + len;
    }
    if (c->discipline->limits == QUEUE_LIMITS_REQUIRED && !c->limit_packets && !c->limit_bytes) {
        snprintf(err, err_len, "%s needs packets=N and/or bytes=N", c->discipline->name);
        return -1;
    }
    return 0;
}

void queue_config_describe(const queue_config *c, char *buf, size_t len) {
    int n = snprintf(buf, len, "%s", c->discipline->name);
    if (c->discipline->limits == QUEUE_LIMITS_NONE || n < 0 || (size_t)n >= len) return;
    char args[128] = "";
    size_t m = 0;
    if (c->limit_packets) m += (size_t)snprintf(args + m, sizeof args - m, "packets=%llu", (unsigned long long)c->limit_packets);
    if (c->limit_bytes && m < sizeof args)
        m += (size_t)snprintf(args + m, sizeof args - m, "%sbytes=%llu", m ? ", " : "", (unsigned long long)c->limit_bytes);
    if (c->discipline->describe_args && m + 2 < sizeof args) {
        if (m) m += (size_t)snprintf(args + m, sizeof args - m, ", ");
        c->discipline->describe_args(c, args + m, sizeof args - m);
    }
    snprintf(buf + n, len - (size_t)n, " [%s]", args);
}
