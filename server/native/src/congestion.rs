//! Per-connection congestion control that can be switched after the handshake.
//!
//! The client's congestion-control choice travels in the WebTransport CONNECT URL, which the
//! server only sees after the QUIC handshake, when quinn has already built the connection's
//! controller from the endpoint-wide factory. So every connection gets a `SwitchableController`:
//! it delegates to a boxed quinn controller (Cubic, BBR, NewReno, or the permissive one) and,
//! when the session asks for another algorithm through the shared `CongestionSelection`,
//! replaces its delegate at the next controller event (a packet sent or acknowledged).
//!
//! Semantics: one switch per connection (a repeat request for the active algorithm is a no-op);
//! the new controller starts from its initial state (initial window, slow start), which is why
//! the switch is meant to happen right after accept, before application data.

use std::any::Any;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Instant;

use quinn::congestion::{
    BbrConfig, Controller, ControllerFactory, ControllerMetrics, CubicConfig, NewRenoConfig,
};
// The Controller trait names quinn-proto's RttEstimator, which quinn does not re-export.
use quinn_proto::RttEstimator;

/// A window this large makes quinn neither window nor pace (quinn-proto disables its pacer for
/// windows above u32::MAX), leaving the application's pacer in sole charge of the send rate.
const PERMISSIVE_WINDOW_BYTES: u64 = 1 << 40;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CongestionKind {
    None = 0,
    Cubic = 1,
    Bbr = 2,
    NewReno = 3,
}

impl CongestionKind {
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "none" => Ok(Self::None),
            "cubic" => Ok(Self::Cubic),
            "bbr" => Ok(Self::Bbr),
            "newreno" => Ok(Self::NewReno),
            other => Err(format!(
                "unknown QUIC congestion control {other:?}: expected one of none, cubic, bbr, newreno"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Cubic => "cubic",
            Self::Bbr => "bbr",
            Self::NewReno => "newreno",
        }
    }

    fn from_u8(value: u8) -> Self {
        match value {
            1 => Self::Cubic,
            2 => Self::Bbr,
            3 => Self::NewReno,
            _ => Self::None,
        }
    }

    fn build(self, now: Instant, mtu: u16) -> Box<dyn Controller> {
        match self {
            Self::None => Box::new(PermissiveController),
            Self::Cubic => Arc::new(CubicConfig::default()).build(now, mtu),
            Self::Bbr => Arc::new(BbrConfig::default()).build(now, mtu),
            Self::NewReno => Arc::new(NewRenoConfig::default()).build(now, mtu),
        }
    }
}

/// Constant, huge window: quinn sends datagrams as fast as they are queued.
#[derive(Clone, Copy)]
struct PermissiveController;

impl Controller for PermissiveController {
    fn on_congestion_event(&mut self, _: Instant, _: Instant, _: bool, _: u64) {}
    fn on_mtu_update(&mut self, _: u16) {}
    fn window(&self) -> u64 {
        PERMISSIVE_WINDOW_BYTES
    }
    fn clone_box(&self) -> Box<dyn Controller> {
        Box::new(*self)
    }
    fn initial_window(&self) -> u64 {
        PERMISSIVE_WINDOW_BYTES
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// State shared between a connection's controller (inside quinn) and its `Session` (in JS land).
#[derive(Debug)]
pub struct CongestionSelection {
    requested: AtomicU8,
    active: AtomicU8,
}

impl CongestionSelection {
    fn new(kind: CongestionKind) -> Self {
        Self { requested: AtomicU8::new(kind as u8), active: AtomicU8::new(kind as u8) }
    }

    pub fn active(&self) -> CongestionKind {
        CongestionKind::from_u8(self.active.load(Ordering::Acquire))
    }

    pub fn requested(&self) -> CongestionKind {
        CongestionKind::from_u8(self.requested.load(Ordering::Acquire))
    }

    /// Ask for `kind`; allowed once per connection (see module docs).
    pub fn request(&self, kind: CongestionKind, initial: CongestionKind) -> Result<(), String> {
        let current = self.requested();
        if current == kind {
            return Ok(());
        }
        if current != initial {
            return Err(format!(
                "congestion control was already switched to {} on this connection; only one switch is allowed",
                current.name()
            ));
        }
        self.requested.store(kind as u8, Ordering::Release);
        Ok(())
    }
}

pub struct SwitchableController {
    selection: Arc<CongestionSelection>,
    initial_kind: CongestionKind,
    active_kind: CongestionKind,
    delegate: Box<dyn Controller>,
    mtu: u16,
}

impl SwitchableController {
    /// Swap the delegate if the session asked for another algorithm since the last event.
    fn apply_pending_switch(&mut self, now: Instant) {
        let requested = self.selection.requested();
        if requested != self.active_kind {
            self.delegate = requested.build(now, self.mtu);
            self.active_kind = requested;
            self.selection.active.store(requested as u8, Ordering::Release);
        }
    }

    pub fn selection(&self) -> Arc<CongestionSelection> {
        self.selection.clone()
    }

    pub fn initial_kind(&self) -> CongestionKind {
        self.initial_kind
    }
}

impl Controller for SwitchableController {
    fn on_sent(&mut self, now: Instant, bytes: u64, last_packet_number: u64) {
        self.apply_pending_switch(now);
        self.delegate.on_sent(now, bytes, last_packet_number);
    }

    fn on_ack(&mut self, now: Instant, sent: Instant, bytes: u64, app_limited: bool, rtt: &RttEstimator) {
        self.apply_pending_switch(now);
        self.delegate.on_ack(now, sent, bytes, app_limited, rtt);
    }

    fn on_end_acks(&mut self, now: Instant, in_flight: u64, app_limited: bool, largest_packet_num_acked: Option<u64>) {
        self.apply_pending_switch(now);
        self.delegate.on_end_acks(now, in_flight, app_limited, largest_packet_num_acked);
    }

    fn on_congestion_event(&mut self, now: Instant, sent: Instant, is_persistent_congestion: bool, lost_bytes: u64) {
        self.apply_pending_switch(now);
        self.delegate.on_congestion_event(now, sent, is_persistent_congestion, lost_bytes);
    }

    fn on_mtu_update(&mut self, new_mtu: u16) {
        self.mtu = new_mtu;
        self.delegate.on_mtu_update(new_mtu);
    }

    fn window(&self) -> u64 {
        self.delegate.window()
    }

    fn metrics(&self) -> ControllerMetrics {
        self.delegate.metrics()
    }

    // The clone shares the selection, so `Connection::congestion_state()` (which clones the
    // controller) hands the session a handle to the live connection's selection.
    fn clone_box(&self) -> Box<dyn Controller> {
        Box::new(SwitchableController {
            selection: self.selection.clone(),
            initial_kind: self.initial_kind,
            active_kind: self.active_kind,
            delegate: self.delegate.clone_box(),
            mtu: self.mtu,
        })
    }

    fn initial_window(&self) -> u64 {
        self.delegate.initial_window()
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// Endpoint-wide factory: every new connection starts with `initial` and its own selection.
pub struct SwitchableControllerFactory {
    pub initial: CongestionKind,
}

impl ControllerFactory for SwitchableControllerFactory {
    fn build(self: Arc<Self>, now: Instant, current_mtu: u16) -> Box<dyn Controller> {
        Box::new(SwitchableController {
            selection: Arc::new(CongestionSelection::new(self.initial)),
            initial_kind: self.initial,
            active_kind: self.initial,
            delegate: self.initial.build(now, current_mtu),
            mtu: current_mtu,
        })
    }
}

/// The session's handle on its connection's controller.
#[derive(Clone, Debug)]
pub struct CongestionHandle {
    selection: Arc<CongestionSelection>,
    initial: CongestionKind,
}

impl CongestionHandle {
    /// Fetch the handle from a live connection (its controller is always a `SwitchableController`
    /// because every endpoint of this addon installs `SwitchableControllerFactory`).
    pub fn of(conn: &quinn::Connection) -> Option<Self> {
        let controller = conn.congestion_state().into_any().downcast::<SwitchableController>().ok()?;
        Some(Self { selection: controller.selection(), initial: controller.initial_kind() })
    }

    pub fn request(&self, kind: CongestionKind) -> Result<(), String> {
        self.selection.request(kind, self.initial)
    }

    pub fn active(&self) -> CongestionKind {
        self.selection.active()
    }
}
