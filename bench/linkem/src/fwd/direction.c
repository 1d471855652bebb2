#include "direction.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"

static void on_opportunity(void *ctx, uint64_t t_us) {
    direction *d = ctx;
    d->stats.opportunities++;
    mmlog_opportunity(&d->log, t_us);
}

static void on_departure(void *ctx, packet *p, uint64_t t_us) {
    direction *d = ctx;
    d->stats.departed_packets++;
    d->stats.departed_ip_bytes += p->ip_bytes;
    histogram_record(&d->stats.queue_delay, t_us - p->link_arrival_us);
    p->departure_us = t_us;
    mmlog_departure(&d->log, t_us, packet_link_bytes(p), p->link_arrival_us);
    fifo_push(&d->out_fifo, p);
}

static void on_drop(void *ctx, uint64_t t_us, uint64_t packets, uint64_t link_bytes) {
    direction *d = ctx;
    d->stats.queue_drop_packets += packets;
    d->stats.queue_drop_bytes += link_bytes;
    mmlog_drop(&d->log, t_us, packets, link_bytes);
}

link_events direction_link_events(direction *d) {
    link_events e = {d, on_opportunity, on_departure, on_drop};
    return e;
}

static int crosses_link(const direction *d, const packet *p) {
    if (p->ip_bytes < 20 || (p->data[0] >> 4) != 4) return 0;
    uint32_t src, dst;
    memcpy(&src, p->data + 12, 4);
    memcpy(&dst, p->data + 16, 4);
    return src == d->allowed_src && dst == d->allowed_dst;
}

static void ingress(direction *d, packet *p, uint64_t now_us) {
    if (d->stats.ingress_packets == 0) d->stats.first_ingress_us = now_us;
    d->stats.ingress_packets++;
    d->stats.ingress_ip_bytes += p->ip_bytes;
    if (!crosses_link(d, p)) {
        d->stats.filtered_packets++;
        packet_free(p);
        return;
    }
    if (loss_should_drop(&d->loss)) {
        d->stats.loss_drop_packets++;
        packet_free(p);
        return;
    }
    p->ingress_us = now_us;
    uint64_t release_us = now_us + delay_one_way_us(d->delay, now_us - d->start_us);
    /* when the delay drops, later packets wait for earlier ones: never reorder */
    if (release_us < d->last_release_us) release_us = d->last_release_us;
    d->last_release_us = release_us;
    p->release_us = release_us;
    fifo_push(&d->delay_fifo, p);
}

int direction_read(direction *d, int max_packets) {
    int n = 0;
    while (n < max_packets) {
        packet *p = packet_alloc();
        if (!p) return -1;
        ssize_t got = read(d->in_fd, p->data, sizeof p->data);
        if (got < 0) {
            packet_free(p);
            if (errno == EAGAIN || errno == EINTR) break;
            return -1;
        }
        p->ip_bytes = (uint32_t)got;
        ingress(d, p, clock_now_us());
        n++;
    }
    return n;
}

void direction_advance(direction *d, uint64_t now_us) {
    for (;;) {
        uint64_t release_us = d->delay_fifo.head ? d->delay_fifo.head->release_us : UINT64_MAX;
        uint64_t opportunity_us = link_is_busy(&d->link) ? link_next_opportunity_us(&d->link) : UINT64_MAX;
        /* equal times: the opportunity goes first, as mm-link rationalizes before enqueueing */
        if (release_us <= now_us && release_us < opportunity_us) {
            packet *p = fifo_pop(&d->delay_fifo);
            /* opportunities up to this instant come first (and are logged first), as in mm-link */
            link_advance(&d->link, release_us);
            mmlog_arrival(&d->log, release_us, packet_link_bytes(p));
            link_enqueue(&d->link, p, release_us);
            const droptail_queue *q = &d->link.queue.fifo;
            if (q->count > d->stats.max_queue_packets) d->stats.max_queue_packets = q->count;
            if (q->bytes > d->stats.max_queue_bytes) d->stats.max_queue_bytes = q->bytes;
        } else if (opportunity_us <= now_us) {
            link_advance(&d->link, opportunity_us);
        } else {
            break;
        }
    }
}

uint64_t direction_next_event_us(const direction *d) {
    uint64_t next = d->delay_fifo.head ? d->delay_fifo.head->release_us : UINT64_MAX;
    if (link_is_busy(&d->link)) {
        uint64_t opportunity_us = link_next_opportunity_us(&d->link);
        if (opportunity_us < next) next = opportunity_us;
    }
    return next;
}

int direction_flush(direction *d) {
    packet *p;
    while ((p = d->out_fifo.head)) {
        ssize_t w = write(d->out_fd, p->data, p->ip_bytes);
        if (w < 0 && (errno == EAGAIN || errno == EINTR)) return 1;
        if (w < 0) {
            d->stats.write_errors++;
        } else {
            d->stats.written_packets++;
            uint64_t now_us = clock_now_us();
            d->stats.last_write_us = now_us;
            histogram_record(&d->stats.write_lateness, now_us > p->departure_us ? now_us - p->departure_us : 0);
            if (d->timing_log)
                fprintf(d->timing_log, "%llu %llu %llu\n", (unsigned long long)p->ingress_us, (unsigned long long)p->departure_us,
                        (unsigned long long)now_us);
        }
        packet_free(fifo_pop(&d->out_fifo));
    }
    return 0;
}

void direction_free(direction *d) {
    packet *p;
    while ((p = fifo_pop(&d->delay_fifo))) packet_free(p);
    while ((p = fifo_pop(&d->out_fifo))) packet_free(p);
    link_free(&d->link);
    mmlog_close(&d->log);
    if (d->timing_log) fclose(d->timing_log);
    d->timing_log = NULL;
}
