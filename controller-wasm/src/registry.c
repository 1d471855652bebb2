/* Every algorithm's ops table, by name. Adding an algorithm = one extern line + one table entry. */
#include "registry.h"

#include <string.h>

extern const cc_ops cc_ops_vivace;
extern const cc_ops cc_ops_vivace_loss;
extern const cc_ops cc_ops_allegro;
extern const cc_ops cc_ops_fixed;
extern const cc_ops cc_ops_cubic;
extern const cc_ops cc_ops_bbr;
extern const cc_ops cc_ops_pcp;
extern const cc_ops cc_ops_vivace_video;
extern const cc_ops cc_ops_allegro_latency;

/* The first entry is the default algorithm. */
static const cc_ops *const registered_algorithms[] = {
    &cc_ops_vivace,
    &cc_ops_vivace_loss,
    &cc_ops_allegro,
    &cc_ops_fixed,
    &cc_ops_cubic,
    &cc_ops_bbr,
    &cc_ops_pcp,
    &cc_ops_vivace_video,
    &cc_ops_allegro_latency,
};

#define REGISTERED_COUNT (sizeof registered_algorithms / sizeof registered_algorithms[0])

size_t cc_registry_count(void) { return REGISTERED_COUNT; }

const cc_ops *cc_registry_at(size_t index) {
    return index < REGISTERED_COUNT ? registered_algorithms[index] : NULL;
}

const cc_ops *cc_registry_find(const char *name) {
    if (name == NULL) return NULL;
    for (size_t i = 0; i < REGISTERED_COUNT; i++) {
        if (strcmp(registered_algorithms[i]->name, name) == 0) return registered_algorithms[i];
    }
    return NULL;
}
