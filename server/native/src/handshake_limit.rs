//! A bound on NEW handshakes per source address, checked on each `Incoming` before its TLS handshake starts.
//!
//! A QUIC handshake costs the server its TLS work (key exchange, certificate signature) and an HTTP/3 setup: a few
//! milliseconds of CPU each, where refusing an `Incoming` costs one small Initial packet. One client opening sessions
//! as fast as it can would otherwise buy that CPU from every other session's sender. Each address (an IPv6 address by
//! its /64, what one host is usually given) has a token bucket: `burst` handshakes at once, refilled at `per_s`.
//! An admitted Initial that starts no handshake (quinn finds it does not decrypt, or it went stale, when accepting it:
//! before any TLS work) gives its token back, so forged Initials from an address do not spend what its real
//! connections need.
//!
//! Over the limit the `Incoming` is refused (`Incoming::refuse()`: a CONNECTION_REFUSED close in an Initial packet,
//! no TLS): an honest client learns at once that it was turned away instead of retrying its Initial until its
//! connect deadline, which `ignore()` would make it do (each retransmission being another `Incoming` to look at).
//! quinn sends that close with an empty reason phrase; the origin logs the address, the count and the limit.
//! Beyond ANSWERED_REFUSALS_PER_S refusals of one address in a second the rest are dropped unanswered (`ignore()`):
//! nothing that waits for answers makes that many attempts, and a flood of Initials (the `garbage` case's fake ones
//! each become an `Incoming`, since quinn decrypts an Initial only on accept) would otherwise be answered packet for
//! packet, to whatever source address it carries.
//!
//! The map is bounded: when it is full, addresses whose bucket has refilled (the same as not being tracked) are
//! dropped, then the least recently seen half. An address evicted that way starts again with a full bucket; it takes
//! MAX_TRACKED_ADDRESSES other addresses handshaking in between. Source addresses of Initials are not validated
//! (no Retry round trip is asked), so an off-path sender spoofing an address can spend that address's budget.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::time::{Duration, Instant};

use crate::errors::invalid_arg;

/// Addresses whose buckets are kept (about 80 B each: a few MiB at most).
pub const MAX_TRACKED_ADDRESSES: usize = 65_536;
/// At most one refusal report per address per this long (the log's rate limit); the report carries the count.
pub const REPORT_INTERVAL: Duration = Duration::from_secs(1);
/// Refusals of one address answered with CONNECTION_REFUSED per REPORT_INTERVAL; more are dropped silently.
pub const ANSWERED_REFUSALS_PER_S: u32 = 10;
const MAX_PER_S: f64 = 1e6;
const MAX_BURST: u32 = 1_000_000;

/// Validated limits: `per_s` handshakes per second per address after a burst of `burst`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandshakeLimit {
    pub per_s: f64,
    pub burst: f64,
}

impl HandshakeLimit {
    /// `per_s` None or 0 = no limit. `burst` defaults to one second's worth (at least 1).
    pub fn parse(per_s: Option<f64>, burst: Option<u32>) -> napi::Result<Option<Self>> {
        let per_s = per_s.unwrap_or(0.0);
        if !per_s.is_finite() || !(0.0..=MAX_PER_S).contains(&per_s) {
            return Err(invalid_arg(format!("handshakesPerAddressPerS must be between 0 (no limit) and {MAX_PER_S}, got {per_s}")));
        }
        if let Some(b) = burst {
            if !(1..=MAX_BURST).contains(&b) {
                return Err(invalid_arg(format!("handshakeBurstPerAddress must be between 1 and {MAX_BURST}, got {b}")));
            }
        }
        if per_s == 0.0 {
            return Ok(None);
        }
        let burst = burst.map(f64::from).unwrap_or_else(|| per_s.ceil().max(1.0));
        Ok(Some(Self { per_s, burst }))
    }
}

/// What one refused address is reported with, at most once per REPORT_INTERVAL.
#[derive(Debug, PartialEq)]
pub struct RefusalReport {
    /// The address, or an IPv6 /64 as "prefix::/64".
    pub address: String,
    /// Refusals of this address since its previous report, this one included.
    pub refused: u64,
}

#[derive(Debug, PartialEq)]
pub enum Admission {
    Admitted,
    /// Refused; `answer`: whether to tell the client (CONNECTION_REFUSED) or drop it silently (over
    /// ANSWERED_REFUSALS_PER_S); `report` is Some for the first refusal of the address in a REPORT_INTERVAL.
    Refused { answer: bool, report: Option<RefusalReport> },
}

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    updated: Instant,
    unreported: u64,
    last_report: Option<Instant>,
    /// Refusals answered since `answered_since` (a window of REPORT_INTERVAL).
    answered: u32,
    answered_since: Instant,
}

impl Bucket {
    fn refill(&mut self, limit: &HandshakeLimit, now: Instant) {
        let elapsed_s = now.saturating_duration_since(self.updated).as_secs_f64();
        self.tokens = (self.tokens + elapsed_s * limit.per_s).min(limit.burst);
        self.updated = self.updated.max(now);
    }
}

/// Per-address buckets; used by the one task that accepts connections, so it needs no lock.
pub struct HandshakeBuckets {
    limit: HandshakeLimit,
    buckets: HashMap<IpAddr, Bucket>,
    max_tracked: usize,
}

/// The bucket key: IPv4 (also when mapped into IPv6) as is, IPv6 by its /64.
fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

fn key_text(key: IpAddr) -> String {
    match key {
        IpAddr::V6(v6) => format!("{v6}/64"),
        v4 => v4.to_string(),
    }
}

impl HandshakeBuckets {
    pub fn new(limit: HandshakeLimit) -> Self {
        Self::with_capacity(limit, MAX_TRACKED_ADDRESSES)
    }

    fn with_capacity(limit: HandshakeLimit, max_tracked: usize) -> Self {
        Self { limit, buckets: HashMap::new(), max_tracked: max_tracked.max(2) }
    }

    #[cfg(test)]
    fn tracked(&self) -> usize {
        self.buckets.len()
    }

    /// Takes one handshake from `ip`'s bucket, or refuses it.
    pub fn admit(&mut self, ip: IpAddr, now: Instant) -> Admission {
        let key = address_key(ip);
        if !self.buckets.contains_key(&key) && self.buckets.len() >= self.max_tracked {
            self.evict(now);
        }
        let limit = self.limit;
        let bucket = self.buckets.entry(key).or_insert(Bucket {
            tokens: limit.burst,
            updated: now,
            unreported: 0,
            last_report: None,
            answered: 0,
            answered_since: now,
        });
        bucket.refill(&limit, now);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return Admission::Admitted;
        }
        if now.saturating_duration_since(bucket.answered_since) >= REPORT_INTERVAL {
            bucket.answered_since = now;
            bucket.answered = 0;
        }
        let answer = bucket.answered < ANSWERED_REFUSALS_PER_S;
        if answer {
            bucket.answered += 1;
        }
        bucket.unreported += 1;
        let due = bucket.last_report.is_none_or(|last| now.saturating_duration_since(last) >= REPORT_INTERVAL);
        if !due {
            return Admission::Refused { answer, report: None };
        }
        bucket.last_report = Some(now);
        let refused = std::mem::take(&mut bucket.unreported);
        Admission::Refused { answer, report: Some(RefusalReport { address: key_text(key), refused }) }
    }

    /// Gives back the token of an admitted handshake that never started (its Initial did not decrypt).
    pub fn refund(&mut self, ip: IpAddr) {
        if let Some(bucket) = self.buckets.get_mut(&address_key(ip)) {
            bucket.tokens = (bucket.tokens + 1.0).min(self.limit.burst);
        }
    }

    /// Drops refilled buckets (no different from untracked ones), then, if that freed too little, the least recently
    /// seen half: amortised O(1) per new address.
    fn evict(&mut self, now: Instant) {
        let limit = self.limit;
        self.buckets.retain(|_, b| {
            b.refill(&limit, now);
            b.tokens < limit.burst
        });
        if self.buckets.len() < self.max_tracked / 2 {
            return;
        }
        let mut seen: Vec<Instant> = self.buckets.values().map(|b| b.updated).collect();
        let middle = seen.len() / 2;
        let (_, cutoff, _) = seen.select_nth_unstable(middle);
        let cutoff = *cutoff;
        self.buckets.retain(|_, b| b.updated > cutoff);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn v4(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
    }

    #[test]
    fn a_burst_then_the_refill_rate() {
        let mut b = HandshakeBuckets::new(HandshakeLimit { per_s: 2.0, burst: 3.0 });
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(b.admit(v4(1), t0), Admission::Admitted);
        }
        assert_eq!(b.admit(v4(1), t0), Admission::Refused { answer: true, report: Some(RefusalReport { address: "127.0.0.1".into(), refused: 1 }) });
        assert_eq!(b.admit(v4(1), t0), Admission::Refused { answer: true, report: None });
        // Another address has its own bucket.
        assert_eq!(b.admit(v4(2), t0), Admission::Admitted);
        // Half a second refills one handshake.
        assert_eq!(b.admit(v4(1), t0 + Duration::from_millis(500)), Admission::Admitted);
        assert_eq!(b.admit(v4(1), t0 + Duration::from_millis(500)), Admission::Refused { answer: true, report: None });
        // A second after the first report, the next refusal reports the three since then.
        let later = t0 + Duration::from_millis(1000);
        assert_eq!(b.admit(v4(1), later), Admission::Admitted);
        assert_eq!(b.admit(v4(1), later), Admission::Refused { answer: true, report: Some(RefusalReport { address: "127.0.0.1".into(), refused: 3 }) });
    }

    #[test]
    fn refusals_beyond_the_answered_rate_are_silent() {
        let mut b = HandshakeBuckets::new(HandshakeLimit { per_s: 0.001, burst: 1.0 });
        let t0 = Instant::now();
        assert_eq!(b.admit(v4(1), t0), Admission::Admitted);
        for i in 0..ANSWERED_REFUSALS_PER_S {
            assert!(matches!(b.admit(v4(1), t0), Admission::Refused { answer: true, .. }), "refusal {i} is answered");
        }
        assert_eq!(b.admit(v4(1), t0 + Duration::from_millis(999)), Admission::Refused { answer: false, report: None });
        // The next second answers again.
        assert!(matches!(b.admit(v4(1), t0 + Duration::from_millis(1000)), Admission::Refused { answer: true, .. }));
    }

    #[test]
    fn a_refund_gives_the_token_back_up_to_the_burst() {
        let mut b = HandshakeBuckets::new(HandshakeLimit { per_s: 0.001, burst: 2.0 });
        let t0 = Instant::now();
        assert_eq!(b.admit(v4(1), t0), Admission::Admitted);
        b.refund(v4(1));
        b.refund(v4(1));
        assert_eq!(b.admit(v4(1), t0), Admission::Admitted);
        assert_eq!(b.admit(v4(1), t0), Admission::Admitted);
        assert!(matches!(b.admit(v4(1), t0), Admission::Refused { .. }), "two refunds of one token are one token");
    }

    #[test]
    fn ipv6_addresses_share_their_64() {
        let mut b = HandshakeBuckets::new(HandshakeLimit { per_s: 1.0, burst: 1.0 });
        let t0 = Instant::now();
        assert_eq!(b.admit("2001:db8::1".parse().unwrap(), t0), Admission::Admitted);
        let refused = b.admit("2001:db8::ffff:2".parse().unwrap(), t0);
        assert_eq!(refused, Admission::Refused { answer: true, report: Some(RefusalReport { address: "2001:db8::/64".into(), refused: 1 }) });
        assert_eq!(b.admit("2001:db8:0:1::1".parse().unwrap(), t0), Admission::Admitted);
        // IPv4 mapped into IPv6 is the IPv4 address.
        assert_eq!(b.admit("::ffff:127.0.0.9".parse().unwrap(), t0), Admission::Admitted);
        assert!(matches!(b.admit(v4(9), t0), Admission::Refused { .. }));
    }

    #[test]
    fn the_map_stays_bounded() {
        let mut b = HandshakeBuckets::with_capacity(HandshakeLimit { per_s: 0.001, burst: 1.0 }, 100);
        let t0 = Instant::now();
        for i in 0..1000u32 {
            let ip = IpAddr::V4(Ipv4Addr::from(0x7f00_0000 + i));
            assert_eq!(b.admit(ip, t0 + Duration::from_millis(u64::from(i))), Admission::Admitted);
            assert!(b.tracked() <= 100, "{} tracked after {i}", b.tracked());
        }
        // The most recent address is still tracked (its bucket is empty).
        assert!(matches!(b.admit(IpAddr::V4(Ipv4Addr::from(0x7f00_0000 + 999)), t0 + Duration::from_secs(1)), Admission::Refused { .. }));
    }

    #[test]
    fn limits_are_checked() {
        assert_eq!(HandshakeLimit::parse(None, None).unwrap(), None);
        assert_eq!(HandshakeLimit::parse(Some(0.0), Some(5)).unwrap(), None);
        assert_eq!(HandshakeLimit::parse(Some(2.5), None).unwrap(), Some(HandshakeLimit { per_s: 2.5, burst: 3.0 }));
        assert!(HandshakeLimit::parse(Some(-1.0), None).is_err());
        assert!(HandshakeLimit::parse(Some(f64::NAN), None).is_err());
        assert!(HandshakeLimit::parse(Some(1.0), Some(0)).is_err());
    }
}
