//! Linux TCP_CONGESTION per socket, for the kernel-TCP baselines (cubic, bbr).

use std::ffi::c_void;
use std::io;

use napi_derive::napi;

use crate::errors::{failure, invalid_arg};

/// TCP_CA_NAME_MAX in the kernel, including the terminating NUL.
const TCP_CA_NAME_MAX: usize = 16;

fn check_fd(fd: i32) -> napi::Result<()> {
    if fd < 0 {
        return Err(invalid_arg(format!("fd must be a non-negative file descriptor, got {fd}")));
    }
    Ok(())
}

#[napi(catch_unwind)]
pub fn set_tcp_congestion(fd: i32, algorithm: String) -> napi::Result<()> {
    check_fd(fd)?;
    if algorithm.is_empty() || algorithm.len() >= TCP_CA_NAME_MAX || !algorithm.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(invalid_arg(format!(
            "TCP congestion algorithm must be 1..{} printable ASCII characters, got {algorithm:?}",
            TCP_CA_NAME_MAX - 1
        )));
    }
    // SAFETY: the pointer and length describe `algorithm`'s bytes, which outlive the call; the
    // kernel validates the fd and copies the name.
    let rc = unsafe {
        libc::setsockopt(
            fd,
            libc::IPPROTO_TCP,
            libc::TCP_CONGESTION,
            algorithm.as_ptr() as *const c_void,
            algorithm.len() as libc::socklen_t,
        )
    };
    if rc != 0 {
        let cause = io::Error::last_os_error();
        let hint = match cause.raw_os_error() {
            Some(libc::ENOENT) => " (the kernel has no such algorithm loaded; see /proc/sys/net/ipv4/tcp_available_congestion_control)",
            Some(libc::EPERM) => " (only root may select algorithms outside /proc/sys/net/ipv4/tcp_allowed_congestion_control)",
            Some(libc::ENOTSOCK) | Some(libc::EBADF) => " (fd is not an open socket)",
            Some(libc::ENOPROTOOPT) | Some(libc::EOPNOTSUPP) => " (fd is not a TCP socket)",
            _ => "",
        };
        return Err(failure(format!("setsockopt(fd {fd}, TCP_CONGESTION, {algorithm:?}) failed: {cause}{hint}")));
    }
    Ok(())
}

#[napi(catch_unwind)]
pub fn get_tcp_congestion(fd: i32) -> napi::Result<String> {
    check_fd(fd)?;
    let mut name = [0u8; TCP_CA_NAME_MAX];
    let mut len = name.len() as libc::socklen_t;
    // SAFETY: `name` is a writable buffer of `len` bytes and `len` is a valid in/out length.
    let rc = unsafe {
        libc::getsockopt(fd, libc::IPPROTO_TCP, libc::TCP_CONGESTION, name.as_mut_ptr() as *mut c_void, &mut len)
    };
    if rc != 0 {
        let cause = io::Error::last_os_error();
        return Err(failure(format!("getsockopt(fd {fd}, TCP_CONGESTION) failed: {cause}")));
    }
    let filled = &name[..(len as usize).min(name.len())];
    let end = filled.iter().position(|&b| b == 0).unwrap_or(filled.len());
    Ok(String::from_utf8_lossy(&filled[..end]).into_owned())
}
