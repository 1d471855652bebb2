/* The list of algorithms compiled into the library (internal). */
#ifndef PCC_REGISTRY_H
#define PCC_REGISTRY_H

#include "cc_algorithm.h"

size_t cc_registry_count(void);
const cc_ops *cc_registry_at(size_t index);
/* NULL when no algorithm has this name. */
const cc_ops *cc_registry_find(const char *name);

#endif /* PCC_REGISTRY_H */
