#include "instance.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netns.h"
#include "tun.h"

/* 100.64.0.0/10 is shared address space (RFC 6598); 100.110/16 stays clear of the
   100.64.0.x addresses real mahimahi uses. */
#define INSTANCE_NET_BASE 0x646E0000u

void instance_remove_network(const instance *inst) {
    netns_kill_processes(inst->name, 500);
    netns_delete(inst->name);
    if (interface_exists(inst->name)) {
        char *argv[] = {"ip", "link", "delete", (char *)inst->name, NULL};
        run_quietly(argv);
    }
}

int instance_acquire(const char *state_dir, instance *inst, char *err, size_t err_len) {
    memset(inst, 0, sizeof *inst);
    inst->lock_fd = -1;
    if (mkdir(state_dir, 0755) < 0 && errno != EEXIST) {
        snprintf(err, err_len, "create %s: %s", state_dir, strerror(errno));
        return -1;
    }
    for (int i = 0; i < INSTANCE_MAX; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%d.lock", state_dir, i);
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            snprintf(err, err_len, "open %s: %s", path, strerror(errno));
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
            close(fd);
            continue;
        }
        inst->index = i;
        inst->lock_fd = fd;
        snprintf(inst->name, sizeof inst->name, "linkem-%d", i);
        inst->host_addr = htonl(INSTANCE_NET_BASE + 4u * (uint32_t)i + 1u);
        inst->inner_addr = htonl(INSTANCE_NET_BASE + 4u * (uint32_t)i + 2u);
        if (netns_exists(inst->name) || interface_exists(inst->name)) {
            instance_remove_network(inst);
            inst->reclaimed = 1;
        }
        /* the owner's pid, for people inspecting the state directory */
        char pid_text[32];
        int n = snprintf(pid_text, sizeof pid_text, "%d\n", (int)getpid());
        if (ftruncate(fd, 0) == 0 && pwrite(fd, pid_text, (size_t)n, 0) < 0) { /* informational only */
        }
        return 0;
    }
    snprintf(err, err_len, "all %d linkem instances are in use", INSTANCE_MAX);
    return -1;
}

void instance_release(instance *inst) {
    if (inst->lock_fd >= 0) {
        /* the lock file stays: unlinking it would let two owners lock different inodes */
        close(inst->lock_fd);
        inst->lock_fd = -1;
    }
}
