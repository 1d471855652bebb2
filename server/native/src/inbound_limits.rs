//! What a session's peer may send as datagrams, checked where datagrams arrive (the session's reading task), so a
//! peer over its budget or sending a type the application never accepts costs one comparison per datagram and no
//! JavaScript at all: the session is closed with a reason, and nothing it sent after its last acceptable datagram
//! is handed over.
//!
//! The budget grows with what this side sends: a receiver acknowledging every datagram it gets sends at most one
//! datagram per datagram sent, plus what its timers send over the session's life (window updates, ack-delay
//! timers), plus a first allowance. A peer's datagrams beyond that can only be a flood.

use std::sync::atomic::{AtomicU64, Ordering};

use napi_derive::napi;

#[napi(object)]
#[derive(Clone, Debug)]
pub struct InboundDatagramLimits {
    /// Datagrams the peer may send before it has earned any (a burst around the start).
    pub base: u32,
    /// Datagrams the peer earns per datagram this side has sent.
    pub per_sent: u32,
    /// Datagrams the peer earns per second of the session's life.
    pub per_second: u32,
    /// The first bytes (datagram types) the peer may send; empty = no datagram at all.
    pub allowed_types: Vec<u32>,
    /// The application close code of a session closed for breaking these limits.
    pub close_code: u32,
}

/// One session's check: how many datagrams its peer sent against what the limits allow by now.
#[derive(Debug)]
pub struct InboundGate {
    limits: InboundDatagramLimits,
    /// Allowed first bytes as a bitmap, so the check is one lookup.
    allowed: [bool; 256],
    started_ns: f64,
    received: u64,
}

/// Why a session was closed: the limits' close code and a reason for the peer and the log.
#[derive(Debug, PartialEq)]
pub struct Violation {
    pub code: u32,
    pub reason: String,
}

fn type_list(types: &[u32]) -> String {
    if types.is_empty() {
        return "none".into();
    }
    types.iter().map(|t| format!("0x{t:02x}")).collect::<Vec<_>>().join(", ")
}

impl InboundGate {
    /// `started_ns`: when the session began (CLOCK_MONOTONIC ns): the per-second allowance counts from there.
    pub fn new(limits: InboundDatagramLimits, started_ns: f64) -> Result<Self, String> {
        let mut allowed = [false; 256];
        for &t in &limits.allowed_types {
            let index = usize::try_from(t).ok().filter(|&i| i < 256).ok_or_else(|| format!("allowedTypes: {t} is not a byte"))?;
            allowed[index] = true;
        }
        Ok(Self { limits, allowed, started_ns, received: 0 })
    }

    /// Datagrams allowed in all by `now_ns` after `sent` datagrams went the other way.
    pub fn budget(&self, sent: u64, now_ns: f64) -> f64 {
        let age_s = ((now_ns - self.started_ns) / 1e9).max(0.0);
        f64::from(self.limits.base) + f64::from(self.limits.per_sent) * sent as f64 + f64::from(self.limits.per_second) * age_s
    }

    /// Counts one received datagram; a violation when its type is not allowed or it is one too many.
    pub fn admit(&mut self, datagram: &[u8], sent: u64, now_ns: f64) -> Result<(), Violation> {
        let code = self.limits.close_code;
        let Some(&first) = datagram.first() else {
            return Err(Violation { code, reason: format!("empty datagram (types accepted: {})", type_list(&self.limits.allowed_types)) });
        };
        if !self.allowed[usize::from(first)] {
            return Err(Violation {
                code,
                reason: format!("datagram of type 0x{first:02x} (types accepted: {})", type_list(&self.limits.allowed_types)),
            });
        }
        self.received += 1;
        if self.received as f64 > self.budget(sent, now_ns) {
            let l = &self.limits;
            return Err(Violation {
                code,
                reason: format!(
                    "datagram flood: {} datagrams for {sent} sent in {:.1} s (at most {} + {} per datagram sent + {}/s)",
                    self.received,
                    ((now_ns - self.started_ns) / 1e9).max(0.0),
                    l.base,
                    l.per_sent,
                    l.per_second
                ),
            });
        }
        Ok(())
    }
}

/// The datagrams this side has sent, which the peer's budget grows with: counted by the sending path and read by the
/// reading task without a lock. The gate itself lives in the session's receive queue (recv_queue.rs), under the lock
/// each arriving datagram takes anyway.
#[derive(Debug, Default)]
pub struct SentDatagrams(AtomicU64);

impl SentDatagrams {
    pub fn add(&self, datagrams: u64) {
        self.0.fetch_add(datagrams, Ordering::Relaxed);
    }

    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(types: &[u32]) -> InboundDatagramLimits {
        InboundDatagramLimits { base: 4, per_sent: 1, per_second: 10, allowed_types: types.to_vec(), close_code: 1 }
    }

    #[test]
    fn the_budget_is_a_base_plus_one_per_datagram_sent_plus_a_rate() {
        let mut gate = InboundGate::new(limits(&[2]), 0.0).unwrap();
        for i in 0..6 {
            assert_eq!(gate.admit(&[2], 2, 0.0), Ok(()), "datagram {i}: 4 + 2 allowed");
        }
        let flood = gate.admit(&[2], 2, 0.0).unwrap_err();
        assert_eq!(flood.code, 1);
        assert!(flood.reason.starts_with("datagram flood: 7 datagrams for 2 sent in 0.0 s (at most 4 + 1 per datagram sent + 10/s)"), "{}", flood.reason);
        // Half a second later 5 more have been earned.
        let mut later = InboundGate::new(limits(&[2]), 0.0).unwrap();
        for _ in 0..11 {
            assert_eq!(later.admit(&[2], 2, 0.5e9), Ok(()));
        }
        assert!(later.admit(&[2], 2, 0.5e9).is_err());
    }

    #[test]
    fn a_type_not_allowed_is_refused_at_its_first_byte() {
        let mut gate = InboundGate::new(limits(&[2]), 0.0).unwrap();
        let refused = gate.admit(&[0xc2, 0, 0], 100, 0.0).unwrap_err();
        assert_eq!(refused.reason, "datagram of type 0xc2 (types accepted: 0x02)");
        assert_eq!(gate.admit(&[], 100, 0.0).unwrap_err().reason, "empty datagram (types accepted: 0x02)");
        let mut none = InboundGate::new(limits(&[]), 0.0).unwrap();
        assert_eq!(none.admit(&[2], 100, 0.0).unwrap_err().reason, "datagram of type 0x02 (types accepted: none)");
    }

    #[test]
    fn types_must_be_bytes() {
        assert_eq!(InboundGate::new(limits(&[256]), 0.0).unwrap_err(), "allowedTypes: 256 is not a byte");
    }
}
