/* Named network namespaces (as `ip netns` manages them, under /run/netns). */
#ifndef LINKEM_NETNS_H
#define LINKEM_NETNS_H

#include <stddef.h>

int netns_exists(const char *name);
int netns_create(const char *name, char *err, size_t err_len);
/* Switch the calling thread into the namespace; *saved_fd keeps the way back. */
int netns_enter(const char *name, int *saved_fd, char *err, size_t err_len);
int netns_return(int saved_fd);
/* SIGTERM every process inside, wait up to grace_ms, then SIGKILL survivors.
   Returns how many processes were found. */
int netns_kill_processes(const char *name, int grace_ms);
int netns_delete(const char *name);
/* Run a program (argv[0] found in PATH), stdout/stderr to /dev/null; returns exit status or -1. */
int run_quietly(char *const argv[]);

#endif
