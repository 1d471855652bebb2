#include "queue.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_u64(const char *s, size_t len, uint64_t *out) {
    if (len == 0 || len > 18) return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

int queue_config_parse(queue_config *c, const char *kind, const char *args, char *err, size_t err_len) {
    memset(c, 0, sizeof *c);
    if (!kind || !strcmp(kind, "infinite")) c->kind = QUEUE_INFINITE;
    else if (!strcmp(kind, "droptail")) c->kind = QUEUE_DROPTAIL;
    else if (!strcmp(kind, "drophead")) c->kind = QUEUE_DROPHEAD;
    else if (!strcmp(kind, "codel")) c->kind = QUEUE_CODEL;
    else {
        snprintf(err, err_len, "unknown queue '%s' (infinite, droptail, drophead, codel)", kind);
        return -1;
    }
    /* CoDel defaults from RFC 8289 §4.2/§4.3 */
    c->codel_target_us = 5000;
    c->codel_interval_us = 100000;
    const char *p = args ? args : "";
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq) {
            snprintf(err, err_len, "queue argument '%.*s' is not key=value", (int)len, p);
            return -1;
        }
        size_t key_len = (size_t)(eq - p);
        uint64_t value;
        if (parse_u64(eq + 1, len - key_len - 1, &value) != 0) {
            snprintf(err, err_len, "queue argument '%.*s' needs a non-negative integer", (int)len, p);
            return -1;
        }
        if (key_len == 7 && !strncmp(p, "packets", 7)) c->limit_packets = value;
        else if (key_len == 5 && !strncmp(p, "bytes", 5)) c->limit_bytes = value;
        else if (c->kind == QUEUE_CODEL && key_len == 6 && !strncmp(p, "target", 6)) c->codel_target_us = value * 1000;
        else if (c->kind == QUEUE_CODEL && key_len == 8 && !strncmp(p, "interval", 8)) c->codel_interval_us = value * 1000;
        else {
            snprintf(err, err_len, "unknown queue argument '%.*s' for %s", (int)key_len, p, kind ? kind : "infinite");
            return -1;
        }
        if ((key_len == 7 || key_len == 5) && value == 0) {
            snprintf(err, err_len, "queue limit '%.*s' must be > 0", (int)len, p);
            return -1;
        }
        p = end ? end + 1 : p + len;
    }
    if (c->kind == QUEUE_INFINITE && (c->limit_packets || c->limit_bytes)) {
        snprintf(err, err_len, "an infinite queue takes no packets=/bytes= limit");
        return -1;
    }
    if ((c->kind == QUEUE_DROPTAIL || c->kind == QUEUE_DROPHEAD) && !c->limit_packets && !c->limit_bytes) {
        snprintf(err, err_len, "%s needs packets=N and/or bytes=N", kind);
        return -1;
    }
    if (c->kind == QUEUE_CODEL && c->codel_interval_us == 0) {
        snprintf(err, err_len, "codel interval must be > 0");
        return -1;
    }
    return 0;
}

void queue_config_describe(const queue_config *c, char *buf, size_t len) {
    static const char *names[] = {"infinite", "droptail", "drophead", "codel"};
    int n = snprintf(buf, len, "%s", names[c->kind]);
    if (c->kind == QUEUE_INFINITE || n < 0 || (size_t)n >= len) return;
    char limits[128] = "";
    int m = 0;
    if (c->limit_packets) m += snprintf(limits + m, sizeof limits - (size_t)m, "packets=%llu", (unsigned long long)c->limit_packets);
    if (c->limit_bytes)
        m += snprintf(limits + m, sizeof limits - (size_t)m, "%sbytes=%llu", m ? ", " : "", (unsigned long long)c->limit_bytes);
    if (c->kind == QUEUE_CODEL)
        snprintf(limits + m, sizeof limits - (size_t)m, "%starget=%llu, interval=%llu", m ? ", " : "",
                 (unsigned long long)(c->codel_target_us / 1000), (unsigned long long)(c->codel_interval_us / 1000));
    snprintf(buf + n, len - (size_t)n, " [%s]", limits);
}

void queue_init(packet_queue *q, const queue_config *c) {
    memset(q, 0, sizeof *q);
    q->config = *c;
}

static int within_limits(const packet_queue *q) {
    const queue_config *c = &q->config;
    if (c->limit_packets && q->fifo.count > c->limit_packets) return 0;
    if (c->limit_bytes && q->fifo.link_bytes > c->limit_bytes) return 0;
    return 1;
}

static int fits(const packet_queue *q, const packet *p) {
    const queue_config *c = &q->config;
    if (c->limit_packets && q->fifo.count + 1 > c->limit_packets) return 0;
    if (c->limit_bytes && q->fifo.link_bytes + packet_link_bytes(p) > c->limit_bytes) return 0;
    return 1;
}

queue_drops queue_enqueue(packet_queue *q, packet *p) {
    queue_drops drops = {0, 0};
    if (q->config.kind == QUEUE_DROPHEAD) {
        /* drophead admits the arrival, then sheds from the head until within limits */
        fifo_push(&q->fifo, p);
        while (!within_limits(q)) {
            packet *victim = fifo_pop(&q->fifo);
            drops.packets++;
            drops.link_bytes += packet_link_bytes(victim);
            packet_free(victim);
        }
        return drops;
    }
    if (q->config.kind != QUEUE_INFINITE && !fits(q, p)) {
        drops.packets = 1;
        drops.link_bytes = packet_link_bytes(p);
        packet_free(p);
        return drops;
    }
    fifo_push(&q->fifo, p);
    return drops;
}

/* RFC 8289 §5.5 dodequeue: pop the head and decide whether CoDel may drop it. */
static packet *codel_pop(packet_queue *q, uint64_t now_us, int *ok_to_drop) {
    *ok_to_drop = 0;
    packet *p = fifo_pop(&q->fifo);
    if (!p) {
        q->first_above_time_us = 0;
        return NULL;
    }
    uint64_t sojourn_us = now_us - p->link_arrival_us;
    if (sojourn_us < q->config.codel_target_us || q->fifo.link_bytes <= 1504) {
        q->first_above_time_us = 0;
    } else if (q->first_above_time_us == 0) {
        q->first_above_time_us = now_us + q->config.codel_interval_us;
    } else if (now_us >= q->first_above_time_us) {
        *ok_to_drop = 1;
    }
    return p;
}

static uint64_t codel_control_law(const packet_queue *q, uint64_t t_us) {
    return t_us + (uint64_t)((double)q->config.codel_interval_us / sqrt((double)q->drop_count));
}

static void drop_into(queue_drops *drops, packet *p) {
    drops->packets++;
    drops->link_bytes += packet_link_bytes(p);
    packet_free(p);
}

/* RFC 8289 §5.6 dequeue */
static packet *codel_dequeue(packet_queue *q, uint64_t now_us, queue_drops *drops) {
    int ok_to_drop;
    packet *p = codel_pop(q, now_us, &ok_to_drop);
    if (!p) {
        q->dropping = 0;
        return NULL;
    }
    if (q->dropping) {
        if (!ok_to_drop) {
            q->dropping = 0;
        } else {
            while (p && q->dropping && now_us >= q->drop_next_us) {
                drop_into(drops, p);
                q->drop_count++;
                p = codel_pop(q, now_us, &ok_to_drop);
                if (!ok_to_drop) q->dropping = 0;
                else q->drop_next_us = codel_control_law(q, q->drop_next_us);
            }
        }
    } else if (ok_to_drop) {
        drop_into(drops, p);
        p = codel_pop(q, now_us, &ok_to_drop);
        q->dropping = 1;
        uint32_t delta = q->drop_count - q->last_drop_count;
        if (delta > 1 && now_us - q->drop_next_us < 16 * q->config.codel_interval_us) q->drop_count = delta;
        else q->drop_count = 1;
        q->drop_next_us = codel_control_law(q, now_us);
        q->last_drop_count = q->drop_count;
    }
    return p;
}

packet *queue_dequeue(packet_queue *q, uint64_t now_us, queue_drops *drops) {
    if (q->config.kind == QUEUE_CODEL) return codel_dequeue(q, now_us, drops);
    return fifo_pop(&q->fifo);
}

int queue_is_empty(const packet_queue *q) { return q->fifo.count == 0; }

void queue_free_all(packet_queue *q) {
    packet *p;
    while ((p = fifo_pop(&q->fifo))) packet_free(p);
}
