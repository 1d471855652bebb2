#include "network.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "netns.h"
#include "tun.h"

int has_net_admin(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return geteuid() == 0;
    char line[256];
    unsigned long long caps = 0;
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "CapEff: %llx", &caps) == 1) found = 1;
    fclose(f);
    return found ? (int)((caps >> 12) & 1u) : geteuid() == 0;
}

void network_teardown(network *net) {
    if (net->host_tun_fd >= 0) close(net->host_tun_fd);
    if (net->inner_tun_fd >= 0) close(net->inner_tun_fd);
    net->host_tun_fd = net->inner_tun_fd = -1;
    if (net->have_instance) {
        instance_remove_network(&net->inst);
        instance_release(&net->inst);
        net->have_instance = 0;
    }
}

int network_setup(const options *o, network *net, char *err, size_t err_len) {
    net->host_tun_fd = net->inner_tun_fd = -1;
    if (instance_acquire(o->state_dir, &net->inst, err, err_len) != 0) return -1;
    net->have_instance = 1;
    const instance *in = &net->inst;
    if (netns_create(in->name, err, err_len) != 0) return -1;
    net->host_tun_fd = tun_open(in->name, err, err_len);
    if (net->host_tun_fd < 0) return -1;
    if (tun_configure_point_to_point(in->name, in->host_addr, in->inner_addr, err, err_len) != 0) return -1;
    int saved_ns;
    if (netns_enter(in->name, &saved_ns, err, err_len) != 0) return -1;
    int rc = -1;
    net->inner_tun_fd = tun_open(in->name, err, err_len);
    if (net->inner_tun_fd >= 0 && interface_set_up("lo", err, err_len) == 0 &&
        tun_configure_point_to_point(in->name, in->inner_addr, in->host_addr, err, err_len) == 0)
        rc = 0;
    if (netns_return(saved_ns) != 0) {
        snprintf(err, err_len, "cannot return to the host network namespace: %s", strerror(errno));
        return -1;
    }
    return rc;
}
