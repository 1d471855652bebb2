/* The drop-tail queue on its own: limits in packets and bytes, FIFO order across ring growth and wrap,
 * items stored by value, and the unchecked push drophead builds on. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "droptail_queue.h"

typedef struct {
    uint64_t id;
    char tag[13]; /* an odd size, to exercise slot alignment */
} item;

static void byte_limit(void) {
    droptail_queue q;
    droptail_init(&q, sizeof(item), (droptail_limits){DROPTAIL_NO_LIMIT, 3000});
    item a = {1, "a"}, b = {2, "b"}, c = {3, "c"}, out;
    CHECK(droptail_offer(&q, &a, 1500) == 1);
    CHECK(droptail_offer(&q, &b, 1500) == 1);
    CHECK(droptail_offer(&q, &c, 1) == 0); /* 3001 > 3000: refused */
    CHECK(q.count == 2 && q.bytes == 3000);
    uint64_t bytes = 0;
    CHECK(droptail_pop(&q, &out, &bytes) == 1 && out.id == 1 && bytes == 1500 && strcmp(out.tag, "a") == 0);
    CHECK(droptail_offer(&q, &c, 1500) == 1);
    CHECK(droptail_pop(&q, &out, NULL) == 1 && out.id == 2);
    CHECK(droptail_pop(&q, &out, NULL) == 1 && out.id == 3);
    CHECK(droptail_pop(&q, &out, NULL) == 0 && q.bytes == 0);
    droptail_free(&q);
}

static void packet_limit_and_zero_buffer(void) {
    droptail_queue q;
    droptail_init(&q, sizeof(item), (droptail_limits){2, DROPTAIL_NO_LIMIT});
    item x = {7, "x"};
    CHECK(droptail_offer(&q, &x, 100000) == 1);
    CHECK(droptail_offer(&q, &x, 100000) == 1);
    CHECK(droptail_offer(&q, &x, 1) == 0);
    droptail_free(&q);
    droptail_init(&q, sizeof(item), (droptail_limits){DROPTAIL_NO_LIMIT, 0});
    CHECK(droptail_offer(&q, &x, 1) == 0); /* no buffer at all */
    CHECK(droptail_admits(&q, 0) == 1);
    droptail_free(&q);
}

static void order_across_growth_and_wrap(void) {
    droptail_queue q;
    droptail_init(&q, sizeof(uint64_t), (droptail_limits){DROPTAIL_NO_LIMIT, DROPTAIL_NO_LIMIT});
    uint64_t next_in = 0, next_out = 0, value;
    int in_order = 1;
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 37; i++, next_in++) CHECK(droptail_offer(&q, &next_in, 10) == 1);
        for (int i = 0; i < 30; i++, next_out++) in_order &= droptail_pop(&q, &value, NULL) == 1 && value == next_out;
    }
    while (droptail_pop(&q, &value, NULL)) in_order &= value == next_out++;
    CHECK(in_order && next_out == next_in && q.bytes == 0);
    droptail_free(&q);
}

static void drophead_building_blocks(void) {
    droptail_queue q;
    droptail_init(&q, sizeof(uint64_t), (droptail_limits){3, DROPTAIL_NO_LIMIT});
    uint64_t v, dropped = 0;
    for (v = 0; v < 5; v++) {
        CHECK(droptail_push_unchecked(&q, &v, 1) == 0);
        uint64_t victim;
        while (droptail_over_limit(&q) && droptail_pop(&q, &victim, NULL)) dropped++;
    }
    CHECK(q.count == 3 && dropped == 2);
    CHECK(droptail_pop(&q, &v, NULL) == 1 && v == 2); /* the oldest went */
    droptail_free(&q);
}

int main(void) {
    byte_limit();
    packet_limit_and_zero_buffer();
    order_across_growth_and_wrap();
    drophead_building_blocks();
    return check_summary("test_droptail_queue");
}
