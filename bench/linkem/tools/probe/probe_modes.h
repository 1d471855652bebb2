#ifndef LINKEM_PROBE_MODES_H
#define LINKEM_PROBE_MODES_H

int udp_send_main(int argc, char **argv);
int udp_recv_main(int argc, char **argv);
int tcp_send_main(int argc, char **argv);
int tcp_recv_main(int argc, char **argv);

#endif
