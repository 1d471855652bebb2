/* The instance's network: its lock and address pair, its namespace, and the two TUN devices
   (host side and inside), made and removed as one. */
#ifndef LINKEM_NETWORK_H
#define LINKEM_NETWORK_H

#include <stddef.h>

#include "instance.h"
#include "options.h"

typedef struct {
    instance inst;
    int have_instance;
    int host_tun_fd;
    int inner_tun_fd;
} network;

/* CAP_NET_ADMIN in the effective set (root normally has it; a capability-dropped root does not). */
int has_net_admin(void);
/* 0, or -1 with err; either way network_teardown removes whatever was made. */
int network_setup(const options *o, network *net, char *err, size_t err_len);
void network_teardown(network *net);

#endif
