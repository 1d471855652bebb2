#include "netns.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void netns_path(const char *name, char *buf, size_t len) { snprintf(buf, len, "/run/netns/%s", name); }

int netns_exists(const char *name) {
    char path[256];
    netns_path(name, path, sizeof path);
    struct stat st;
    return stat(path, &st) == 0;
}

int run_quietly(char *const argv[]) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int netns_create(const char *name, char *err, size_t err_len) {
    char *argv[] = {"ip", "netns", "add", (char *)name, NULL};
    if (run_quietly(argv) != 0 || !netns_exists(name)) {
        snprintf(err, err_len, "ip netns add %s failed (is iproute2 installed, and are we root?)", name);
        return -1;
    }
    return 0;
}

int netns_enter(const char *name, int *saved_fd, char *err, size_t err_len) {
    char path[256];
    netns_path(name, path, sizeof path);
    *saved_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*saved_fd < 0 || fd < 0 || setns(fd, CLONE_NEWNET) < 0) {
        snprintf(err, err_len, "enter namespace %s: %s", name, strerror(errno));
        if (fd >= 0) close(fd);
        if (*saved_fd >= 0) close(*saved_fd);
        *saved_fd = -1;
        return -1;
    }
    close(fd);
    return 0;
}

int netns_return(int saved_fd) {
    int rc = setns(saved_fd, CLONE_NEWNET);
    close(saved_fd);
    return rc;
}

/* Signal every process whose network namespace is the named one; returns the count. */
static int signal_members(const struct stat *ns, int sig) {
    DIR *proc = opendir("/proc");
    if (!proc) return 0;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(proc))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == (long)getpid()) continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/ns/net", pid);
        struct stat st;
        if (stat(path, &st) != 0 || st.st_ino != ns->st_ino || st.st_dev != ns->st_dev) continue;
        if (kill((pid_t)pid, sig) == 0) count++;
    }
    closedir(proc);
    return count;
}

int netns_kill_processes(const char *name, int grace_ms) {
    char path[256];
    netns_path(name, path, sizeof path);
    struct stat ns;
    if (stat(path, &ns) != 0) return 0;
    int found = signal_members(&ns, SIGTERM);
    for (int waited = 0; found > 0 && waited < grace_ms; waited += 10) {
        struct timespec ten_ms = {0, 10000000};
        nanosleep(&ten_ms, NULL);
        if (signal_members(&ns, 0) == 0) return found;
    }
    signal_members(&ns, SIGKILL);
    return found;
}

int netns_delete(const char *name) {
    if (!netns_exists(name)) return 0;
    char *argv[] = {"ip", "netns", "delete", (char *)name, NULL};
    return run_quietly(argv) == 0 ? 0 : -1;
}
