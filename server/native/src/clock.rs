//! The addon's one clock for send and receive stamps (a module of its own so the pacer's unit-test crate,
//! pacer-test/, compiles it beside src/pacer.rs without the napi parts).

/// CLOCK_MONOTONIC in nanoseconds (exact in an f64 for 104 days of uptime).
pub fn monotonic_ns() -> f64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes only into the timespec we pass; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    now.tv_sec as f64 * 1e9 + now.tv_nsec as f64
}
