//! The UDP socket under a quinn endpoint, bound by us so bind errors are clear and the kernel
//! buffers are large enough for ≥ 1 Gbit/s bursts (the 208 KiB default overflows in < 2 ms).

use std::net::{SocketAddr, UdpSocket};
use std::os::fd::AsRawFd;
use std::sync::Arc;

use crate::errors::with_context;

const SOCKET_BUFFER_BYTES: libc::c_int = 8 << 20;

fn raise_buffer(socket: &UdpSocket, force_option: libc::c_int, option: libc::c_int) {
    let size = SOCKET_BUFFER_BYTES;
    let len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    let ptr = &size as *const libc::c_int as *const libc::c_void;
    // SAFETY: `ptr`/`len` describe a live c_int. The *FORCE variant ignores rmem_max/wmem_max but
    // needs CAP_NET_ADMIN; without it fall back to the capped option. Best effort either way.
    unsafe {
        if libc::setsockopt(socket.as_raw_fd(), libc::SOL_SOCKET, force_option, ptr, len) != 0 {
            libc::setsockopt(socket.as_raw_fd(), libc::SOL_SOCKET, option, ptr, len);
        }
    }
}

fn bind_udp(addr: SocketAddr) -> napi::Result<UdpSocket> {
    let socket = UdpSocket::bind(addr).map_err(with_context(format!("binding UDP {addr} failed")))?;
    raise_buffer(&socket, libc::SO_RCVBUFFORCE, libc::SO_RCVBUF);
    raise_buffer(&socket, libc::SO_SNDBUFFORCE, libc::SO_SNDBUF);
    Ok(socket)
}

/// A quinn endpoint on a fresh socket (the server's, or one client session's); must run inside the tokio runtime.
pub fn endpoint_on(
    addr: SocketAddr,
    config: quinn::EndpointConfig,
    server_config: Option<quinn::ServerConfig>,
) -> napi::Result<quinn::Endpoint> {
    let socket = bind_udp(addr)?;
    quinn::Endpoint::new(config, server_config, socket, Arc::new(quinn::TokioRuntime))
        .map_err(with_context(format!("creating a QUIC endpoint on {addr} failed")))
}
