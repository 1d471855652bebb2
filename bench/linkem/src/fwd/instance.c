#include "instance.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <stdlib.h>
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

/* Each instance number cycles through ADDRESS_GENERATIONS /30 pairs, one per use, so a new
   shell does not inherit stale traffic (a late FIN or RST still addressed to the previous
   shell with the same number) from sockets of the host namespace. */
#define ADDRESS_GENERATIONS 16u

static void instance_fill(instance *inst, int i, unsigned generation) {
    inst->index = i;
    snprintf(inst->name, sizeof inst->name, "linkem-%d", i);
    uint32_t pair = (uint32_t)i * ADDRESS_GENERATIONS + generation % ADDRESS_GENERATIONS;
    inst->host_addr = htonl(INSTANCE_NET_BASE + 4u * pair + 1u);
    inst->inner_addr = htonl(INSTANCE_NET_BASE + 4u * pair + 2u);
}

/* Opens and try-locks STATE_DIR/i.lock: the fd if we now own instance i, -1 if it is taken,
   -2 on error (message in err). */
static int lock_instance(const char *state_dir, int i, char *err, size_t err_len) {
    char path[512];
    snprintf(path, sizeof path, "%s/%d.lock", state_dir, i);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, err_len, "open %s: %s", path, strerror(errno));
        return -2;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int ensure_state_dir(const char *state_dir, char *err, size_t err_len) {
    if (mkdir(state_dir, 0755) < 0 && errno != EEXIST) {
        snprintf(err, err_len, "create %s: %s", state_dir, strerror(errno));
        return -1;
    }
    return 0;
}

int instance_acquire(const char *state_dir, instance *inst, char *err, size_t err_len) {
    memset(inst, 0, sizeof *inst);
    inst->lock_fd = -1;
    if (ensure_state_dir(state_dir, err, err_len) != 0) return -1;
    for (int i = 0; i < INSTANCE_MAX; i++) {
        int fd = lock_instance(state_dir, i, err, err_len);
        if (fd == -2) return -1;
        if (fd < 0) continue;
        inst->lock_fd = fd;
        /* the lock file holds "owner-pid generation" */
        char text[64] = "";
        ssize_t got = pread(fd, text, sizeof text - 1, 0);
        int previous_pid = 0;
        unsigned previous_generation = 0;
        unsigned generation = 0;
        if (got > 0 && sscanf(text, "%d %u", &previous_pid, &previous_generation) == 2) generation = previous_generation + 1;
        instance_fill(inst, i, generation);
        if (netns_exists(inst->name) || interface_exists(inst->name)) {
            instance_remove_network(inst);
            inst->reclaimed = 1;
        }
        int n = snprintf(text, sizeof text, "%d %u\n", (int)getpid(), generation);
        if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)n, 0) != n) {
            snprintf(err, err_len, "write lock file of instance %d: %s", i, strerror(errno));
            close(fd);
            inst->lock_fd = -1;
            return -1;
        }
        return 0;
    }
    snprintf(err, err_len, "all %d linkem instances are in use", INSTANCE_MAX);
    return -1;
}

int instance_reclaim_all(const char *state_dir, char *err, size_t err_len) {
    if (ensure_state_dir(state_dir, err, err_len) != 0) return -1;
    int removed = 0;
    DIR *d = opendir("/run/netns");
    if (!d) return 0; /* no namespaces at all */
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        if (strncmp(e->d_name, "linkem-", 7) != 0) continue;
        long i = strtol(e->d_name + 7, &end, 10);
        if (*end || end == e->d_name + 7 || i < 0 || i >= INSTANCE_MAX) continue;
        int fd = lock_instance(state_dir, (int)i, err, err_len);
        if (fd == -2) {
            closedir(d);
            return -1;
        }
        if (fd < 0) continue; /* alive: not ours to touch */
        instance inst;
        memset(&inst, 0, sizeof inst);
        instance_fill(&inst, (int)i, 0); /* removal needs only the name */
        instance_remove_network(&inst);
        close(fd);
        removed++;
    }
    closedir(d);
    return removed;
}
void instance_release(instance *inst) {
    if (inst->lock_fd >= 0) {
        /* the lock file stays: unlinking it would let two owners lock different inodes */
        close(inst->lock_fd);
        inst->lock_fd = -1;
    }
}
