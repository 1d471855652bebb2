//! Linux TCP_INFO per socket, for the kernel-TCP baselines: the sender's own estimate of its rate and RTT, so the
//! TCP origin can send CMSD `etp`/`rtt` as the datagram origin does from its controller (issue 18, honest comparison).
//!
//! Read from the kernel's `struct tcp_info` (include/uapi/linux/tcp.h) by byte offset, with the length the kernel
//! returned, so an older kernel that fills fewer fields yields `None` for them instead of garbage.

use std::ffi::c_void;
use std::io;

use napi_derive::napi;

use crate::errors::{failure, invalid_arg};

// Byte offsets in struct tcp_info (stable ABI: fields are only ever appended).
const OFF_SND_MSS: usize = 16;
const OFF_RTT: usize = 68;
const OFF_RTTVAR: usize = 72;
const OFF_SND_CWND: usize = 80;
const OFF_TOTAL_RETRANS: usize = 100;
const OFF_PACING_RATE: usize = 104;
const OFF_MIN_RTT: usize = 148;
const OFF_DELIVERY_RATE: usize = 160;
const OFF_BYTES_SENT: usize = 200;
/// Bit 0 of byte 7: the delivery-rate sample was app-limited.
const OFF_APP_LIMITED_BYTE: usize = 7;
const BUFFER_BYTES: usize = 256;

/// What the kernel reports for one TCP socket. Rates in bit/s (the kernel's bytes/s x 8), times in microseconds.
#[napi(object)]
pub struct TcpInfo {
    /// The sender's pacing rate (sk_pacing_rate: BBR's gain x bandwidth, CUBIC's 1.2-2 x cwnd / srtt).
    pub pacing_rate_bps: Option<f64>,
    /// The most recent delivery-rate sample (bytes delivered over the interval they took).
    pub delivery_rate_bps: Option<f64>,
    /// Whether that sample was limited by the application, not the network.
    pub delivery_rate_app_limited: Option<bool>,
    pub snd_cwnd_packets: f64,
    pub snd_mss_bytes: f64,
    pub srtt_us: f64,
    pub rttvar_us: f64,
    pub min_rtt_us: Option<f64>,
    pub total_retrans_packets: f64,
    pub bytes_sent: Option<f64>,
}

fn u32_at(buf: &[u8], len: usize, off: usize) -> Option<f64> {
    (off + 4 <= len).then(|| f64::from(u32::from_ne_bytes(buf[off..off + 4].try_into().unwrap())))
}

fn u64_at(buf: &[u8], len: usize, off: usize) -> Option<f64> {
    (off + 8 <= len).then(|| u64::from_ne_bytes(buf[off..off + 8].try_into().unwrap()) as f64)
}

/// A u64 rate of bytes/s where the kernel uses all ones for "unlimited / none".
fn rate_bps(buf: &[u8], len: usize, off: usize) -> Option<f64> {
    u64_at(buf, len, off).filter(|&v| v < u64::MAX as f64).map(|v| v * 8.0)
}

#[napi(catch_unwind)]
pub fn get_tcp_info(fd: i32) -> napi::Result<TcpInfo> {
    if fd < 0 {
        return Err(invalid_arg(format!("fd must be a non-negative file descriptor, got {fd}")));
    }
    let mut buf = [0u8; BUFFER_BYTES];
    let mut len = buf.len() as libc::socklen_t;
    // SAFETY: `buf` is a writable buffer of `len` bytes and `len` is a valid in/out length; the kernel copies at
    // most that many bytes of its struct tcp_info.
    let rc = unsafe { libc::getsockopt(fd, libc::IPPROTO_TCP, libc::TCP_INFO, buf.as_mut_ptr() as *mut c_void, &mut len) };
    if rc != 0 {
        let cause = io::Error::last_os_error();
        let hint = match cause.raw_os_error() {
            Some(libc::ENOTSOCK) | Some(libc::EBADF) => " (fd is not an open socket)",
            Some(libc::ENOPROTOOPT) | Some(libc::EOPNOTSUPP) => " (fd is not a TCP socket)",
            _ => "",
        };
        return Err(failure(format!("getsockopt(fd {fd}, TCP_INFO) failed: {cause}{hint}")));
    }
    let len = (len as usize).min(buf.len());
    let need = OFF_TOTAL_RETRANS + 4;
    if len < need {
        return Err(failure(format!("getsockopt(fd {fd}, TCP_INFO) returned {len} bytes, fewer than the {need} this reads")));
    }
    let delivery_rate_bps = rate_bps(&buf, len, OFF_DELIVERY_RATE);
    Ok(TcpInfo {
        pacing_rate_bps: rate_bps(&buf, len, OFF_PACING_RATE),
        delivery_rate_bps,
        delivery_rate_app_limited: delivery_rate_bps.map(|_| buf[OFF_APP_LIMITED_BYTE] & 1 == 1),
        snd_cwnd_packets: u32_at(&buf, len, OFF_SND_CWND).unwrap_or(0.0),
        snd_mss_bytes: u32_at(&buf, len, OFF_SND_MSS).unwrap_or(0.0),
        srtt_us: u32_at(&buf, len, OFF_RTT).unwrap_or(0.0),
        rttvar_us: u32_at(&buf, len, OFF_RTTVAR).unwrap_or(0.0),
        min_rtt_us: u32_at(&buf, len, OFF_MIN_RTT),
        total_retrans_packets: u32_at(&buf, len, OFF_TOTAL_RETRANS).unwrap_or(0.0),
        bytes_sent: u64_at(&buf, len, OFF_BYTES_SENT),
    })
}
