//! pcc-stream's QUIC/WebTransport addon for Node: quinn + web-transport-quinn behind napi-rs.
//!
//! Datagrams never vanish silently (a full send buffer is reported, not resolved by dropping
//! queued datagrams), congestion control is chosen per connection after the CONNECT (including a
//! permissive "none" that leaves pacing to the application), and bad input is a JS Error, never
//! a panic across the FFI boundary.

mod bi_stream;
mod certificate;
mod client;
mod clock;
mod close_info;
mod congestion;
mod endpoint_options;
mod errors;
mod handshake_limit;
mod inbound_limits;
mod pacer;
mod packed_datagrams;
mod poll_once;
mod recv_queue;
mod runtime;
mod server;
mod session;
mod session_stats;
mod tcp_congestion;
mod tcp_info;
mod udp_socket;
