#include "tun.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <linux/if_tun.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

int tun_open(const char *ifname, char *err, size_t err_len) {
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, err_len, "open /dev/net/tun: %s", strerror(errno));
        return -1;
    }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        snprintf(err, err_len, "TUNSETIFF %s: %s", ifname, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

static int write_file(const char *path, const char *value) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, value, strlen(value));
    close(fd);
    return n < 0 ? -1 : 0;
}

static int set_addr(int sock, unsigned long request, const char *ifname, uint32_t addr) {
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_addr.s_addr = addr;
    memcpy(&ifr.ifr_addr, &sin, sizeof sin);
    return ioctl(sock, request, &ifr);
}

static int set_flags_up(int sock, const char *ifname) {
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
    if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0) return -1;
    ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
    return ioctl(sock, SIOCSIFFLAGS, &ifr);
}

int tun_configure_point_to_point(const char *ifname, uint32_t local, uint32_t peer, char *err, size_t err_len) {
    char path[128];
    snprintf(path, sizeof path, "/proc/sys/net/ipv6/conf/%s/disable_ipv6", ifname);
    /* a kernel without IPv6 has no such file, which is fine */
    if (write_file(path, "1") < 0 && errno != ENOENT) {
        snprintf(err, err_len, "disable IPv6 on %s: %s", ifname, strerror(errno));
        return -1;
    }
    int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (sock < 0) {
        snprintf(err, err_len, "socket: %s", strerror(errno));
        return -1;
    }
    const char *step = "address";
    int rc = set_addr(sock, SIOCSIFADDR, ifname, local);
    if (rc == 0) {
        step = "peer address";
        rc = set_addr(sock, SIOCSIFDSTADDR, ifname, peer);
    }
    if (rc == 0) {
        step = "netmask";
        rc = set_addr(sock, SIOCSIFNETMASK, ifname, htonl(0xFFFFFFFFu));
    }
    if (rc == 0) {
        struct ifreq ifr;
        memset(&ifr, 0, sizeof ifr);
        snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
        ifr.ifr_mtu = 1500;
        step = "mtu";
        rc = ioctl(sock, SIOCSIFMTU, &ifr);
    }
    if (rc == 0) {
        step = "up";
        rc = set_flags_up(sock, ifname);
    }
    if (rc < 0) snprintf(err, err_len, "configure %s (%s): %s", ifname, step, strerror(errno));
    close(sock);
    return rc < 0 ? -1 : 0;
}

int interface_set_up(const char *ifname, char *err, size_t err_len) {
    int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (sock < 0 || set_flags_up(sock, ifname) < 0) {
        snprintf(err, err_len, "bring %s up: %s", ifname, strerror(errno));
        if (sock >= 0) close(sock);
        return -1;
    }
    close(sock);
    return 0;
}

int interface_exists(const char *ifname) { return if_nametoindex(ifname) != 0; }
