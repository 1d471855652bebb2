/* TUN devices and their IPv4 point-to-point configuration, in the caller's current
   network namespace (ioctl, no netlink: a /32 pair needs nothing more). */
#ifndef LINKEM_TUN_H
#define LINKEM_TUN_H

#include <stddef.h>
#include <stdint.h>

/* Non-persistent TUN without packet-info header: it disappears when fd closes. */
int tun_open(const char *ifname, char *err, size_t err_len);
/* IPv6 off (no link-local chatter), local/peer /32 addresses (the kernel adds the
   peer route), MTU 1500, up. Addresses in network byte order. */
int tun_configure_point_to_point(const char *ifname, uint32_t local, uint32_t peer, char *err, size_t err_len);
int interface_set_up(const char *ifname, char *err, size_t err_len);
int interface_exists(const char *ifname);

#endif
