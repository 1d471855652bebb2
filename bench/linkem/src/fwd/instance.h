/* Per-instance names and addresses, so several emulated shells run at once.
   Instance N owns STATE_DIR/N.lock (flock: the kernel releases it when the owner dies,
   however it dies), the namespace and host TUN "linkem-N", and a /30 pair in
   100.110.0.0/16 (one of 16 per N, rotating with each use): .1 on the host side
   (MAHIMAHI_BASE), .2 inside. The new owner of a lock removes whatever a killed
   predecessor left behind. */
#ifndef LINKEM_INSTANCE_H
#define LINKEM_INSTANCE_H

#include <stddef.h>
#include <stdint.h>

#define INSTANCE_MAX 1024

typedef struct {
    int index;
    int lock_fd;
    char name[16];       /* namespace and TUN name */
    uint32_t host_addr;  /* network byte order */
    uint32_t inner_addr; /* network byte order */
    int reclaimed;       /* leftovers of a dead instance were removed */
} instance;

int instance_acquire(const char *state_dir, instance *inst, char *err, size_t err_len);
/* Remove the namespace (killing what runs in it) and any host TUN left with our name. */
void instance_remove_network(const instance *inst);
void instance_release(instance *inst);
/* Remove the leftovers of every dead instance (namespaces linkem-N whose lock is free);
   returns how many were removed, or -1 with err. */
int instance_reclaim_all(const char *state_dir, char *err, size_t err_len);

#endif
