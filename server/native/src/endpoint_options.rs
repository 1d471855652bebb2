//! Options shared by server and client endpoints, validated and turned into a quinn TransportConfig.

use std::sync::Arc;
use std::time::Duration;

use napi_derive::napi;

use crate::congestion::{CongestionKind, SwitchableControllerFactory};
use crate::errors::invalid_arg;

/// 1452 B UDP payload fits a 1500 B Ethernet MTU with IPv6 headers; quinn's own upper bound.
const DEFAULT_INITIAL_MTU: u32 = 1452;
/// RFC 9000 §14: QUIC needs 1200 B datagrams.
const MIN_MTU: u32 = 1200;
/// quinn's EndpointConfig advertises max_udp_payload_size 1472 (a 1500 B Ethernet frame over IPv4)
/// and never sends larger packets than the peer's limit, so a larger initial MTU would be clamped.
const MAX_MTU: u32 = 1472;
const DEFAULT_DATAGRAM_SEND_BUFFER_BYTES: u32 = 1 << 20;
/// Large enough for ~30 ms at 1 Gbit/s, so a Node receiver that stalls for a GC pause keeps up.
const DEFAULT_DATAGRAM_RECV_BUFFER_BYTES: u32 = 4 << 20;
/// The bounds of `datagramSendBufferBytes` and `datagramRecvBufferBytes` (`MAX_BUFFER_BYTES` also of
/// `receiveWindowBytes`), exported so the origin's CLI checks its flags against these and no copy.
#[napi]
pub const MIN_DATAGRAM_BUFFER_BYTES: u32 = 4096;
#[napi]
pub const MAX_BUFFER_BYTES: u32 = 256 << 20;
/// quinn's own datagram buffer only bridges the moment between a datagram's arrival and the session's reading task
/// taking it (recv_queue.rs), where the `datagramRecvBufferBytes` bound is kept and its drops counted. quinn drops
/// the oldest silently when its buffer is full, so it gets this much more than the counted bound: enough for ~20 ms
/// of a 100 Mbit/s stream while a loaded machine has not yet scheduled the reading task.
const QUINN_RECV_HEADROOM_BYTES: usize = 256 * 1024;
const DEFAULT_IDLE_TIMEOUT_MS: u32 = 30_000;
const DEFAULT_KEEP_ALIVE_MS: u32 = 5_000;
/// Below this a single stream could not carry one full-size packet of data (the peer's unread stream bytes
/// are what the receive window bounds, so the origin sets it to cap what a hostile client can park there).
const MIN_RECEIVE_WINDOW_BYTES: u32 = 16 * 1024;
/// `requestAckFrequency`: what a data sender asks its peer with QUIC's ACK-frequency extension
/// (draft-ietf-quic-ack-frequency, the min_ack_delay transport parameter; quinn sends ACK_FREQUENCY only to
/// peers that advertise it). Without it the receiver sends a QUIC ACK every second packet: at 100 Mbit/s that is
/// thousands of extra packets per second from a client whose own ACK datagrams (PROTOCOL.md §4) already tell the
/// PCC controller everything it uses. 15 = an ACK after 16 ack-eliciting packets, ~2 ms of a 100 Mbit/s stream.
const ACK_FREQUENCY_ELICITING_THRESHOLD: u32 = 15;
/// At video rates 16 packets take longer than a round trip; this bounds the wait instead (quinn caps what it asks
/// at max(RTT, 25 ms); our links' RTTs are 20-100 ms), so quinn's loss recovery hears within about a round trip.
const ACK_FREQUENCY_MAX_ACK_DELAY_MS: u64 = 25;
/// A gap in packet numbers is still acknowledged at once (quinn's packet_threshold 3 minus one, as quinn
/// recommends), so loss is detected no later than without the extension.
const ACK_FREQUENCY_REORDERING_THRESHOLD: u32 = 2;

/// Declares an options struct that carries the endpoint options as flat fields after its own (a napi
/// object cannot embed another: JS sees `interface ServerOptions extends EndpointOptions`), with
/// `endpoint_options()` picking them out. The one list of the endpoint fields.
macro_rules! with_endpoint_options {
    // Field types as plain tokens (`Option<u32>`), not `ty` fragments: napi recognises optional fields by
    // reading `Option<…>`, which an opaque `ty` fragment hides.
    ($(#[$meta:meta])* pub struct $name:ident {
        $($(#[$field_meta:meta])* pub $field:ident: $ty:ident $(<$inner:ident>)?,)*
    }) => {
        $(#[$meta])*
        pub struct $name {
            $($(#[$field_meta])* pub $field: $ty $(<$inner>)?,)*
            pub congestion: Option<String>,
            pub initial_mtu: Option<u32>,
            pub datagram_send_buffer_bytes: Option<u32>,
            pub datagram_recv_buffer_bytes: Option<u32>,
            pub idle_timeout_ms: Option<u32>,
            pub keep_alive_ms: Option<u32>,
            pub receive_window_bytes: Option<u32>,
            pub request_ack_frequency: Option<bool>,
        }

        impl $name {
            #[allow(dead_code)]
            pub fn endpoint_options(&self) -> $crate::endpoint_options::EndpointOptions {
                $crate::endpoint_options::EndpointOptions {
                    congestion: self.congestion.clone(),
                    initial_mtu: self.initial_mtu,
                    datagram_send_buffer_bytes: self.datagram_send_buffer_bytes,
                    datagram_recv_buffer_bytes: self.datagram_recv_buffer_bytes,
                    idle_timeout_ms: self.idle_timeout_ms,
                    keep_alive_ms: self.keep_alive_ms,
                    receive_window_bytes: self.receive_window_bytes,
                    request_ack_frequency: self.request_ack_frequency,
                }
            }
        }
    };
}
pub(crate) use with_endpoint_options;

with_endpoint_options! {
    #[napi(object)]
    #[derive(Clone, Default)]
    pub struct EndpointOptions {}
}

pub struct ValidatedOptions {
    pub transport: Arc<quinn::TransportConfig>,
    /// quinn's datagram receive buffer, which each session's own receive queue takes over (recv_queue.rs).
    pub recv_buffer_bytes: usize,
}

fn check_range(name: &str, value: u32, min: u32, max: u32) -> napi::Result<u32> {
    if value < min || value > max {
        return Err(invalid_arg(format!("{name} must be between {min} and {max}, got {value}")));
    }
    Ok(value)
}

impl EndpointOptions {
    pub fn validate(&self) -> napi::Result<ValidatedOptions> {
        let congestion = CongestionKind::parse(self.congestion.as_deref().unwrap_or("none")).map_err(invalid_arg)?;
        let initial_mtu = check_range("initialMtu", self.initial_mtu.unwrap_or(DEFAULT_INITIAL_MTU), MIN_MTU, MAX_MTU)?;
        let send_buffer = check_range(
            "datagramSendBufferBytes",
            self.datagram_send_buffer_bytes.unwrap_or(DEFAULT_DATAGRAM_SEND_BUFFER_BYTES),
            MIN_DATAGRAM_BUFFER_BYTES,
            MAX_BUFFER_BYTES,
        )?;
        let recv_buffer = check_range(
            "datagramRecvBufferBytes",
            self.datagram_recv_buffer_bytes.unwrap_or(DEFAULT_DATAGRAM_RECV_BUFFER_BYTES),
            MIN_DATAGRAM_BUFFER_BYTES,
            MAX_BUFFER_BYTES,
        )?;
        let idle_timeout_ms =
            check_range("idleTimeoutMs", self.idle_timeout_ms.unwrap_or(DEFAULT_IDLE_TIMEOUT_MS), 1, 3_600_000)?;
        let keep_alive_ms = self.keep_alive_ms.unwrap_or(DEFAULT_KEEP_ALIVE_MS.min(idle_timeout_ms / 2));
        if keep_alive_ms >= idle_timeout_ms {
            return Err(invalid_arg(format!(
                "keepAliveMs ({keep_alive_ms}) must be shorter than idleTimeoutMs ({idle_timeout_ms})"
            )));
        }

        let receive_window = self
            .receive_window_bytes
            .map(|bytes| check_range("receiveWindowBytes", bytes, MIN_RECEIVE_WINDOW_BYTES, MAX_BUFFER_BYTES))
            .transpose()?;

        let mut transport = quinn::TransportConfig::default();
        transport.congestion_controller_factory(Arc::new(SwitchableControllerFactory { initial: congestion }));
        transport.initial_mtu(initial_mtu as u16);
        // Black-hole detection falls back to min_mtu after a burst of loss; below the initial MTU
        // the application's full-size datagrams would no longer fit (FIELD-NOTES), so pin it.
        transport.min_mtu(initial_mtu as u16);
        transport.datagram_send_buffer_size(send_buffer as usize);
        transport.datagram_receive_buffer_size(Some(recv_buffer as usize + QUINN_RECV_HEADROOM_BYTES));
        transport.max_idle_timeout(Some(quinn::IdleTimeout::from(quinn::VarInt::from_u32(idle_timeout_ms))));
        // 0 disables keep-alives.
        transport.keep_alive_interval((keep_alive_ms > 0).then(|| Duration::from_millis(keep_alive_ms.into())));
        if let Some(bytes) = receive_window {
            // Both the connection's and each stream's: unread stream data a peer may leave with us.
            transport.receive_window(quinn::VarInt::from_u32(bytes));
            transport.stream_receive_window(quinn::VarInt::from_u32(bytes));
        }
        if self.request_ack_frequency.unwrap_or(false) {
            let mut ack_frequency = quinn::AckFrequencyConfig::default();
            ack_frequency
                .ack_eliciting_threshold(quinn::VarInt::from_u32(ACK_FREQUENCY_ELICITING_THRESHOLD))
                .max_ack_delay(Some(Duration::from_millis(ACK_FREQUENCY_MAX_ACK_DELAY_MS)))
                .reordering_threshold(quinn::VarInt::from_u32(ACK_FREQUENCY_REORDERING_THRESHOLD));
            transport.ack_frequency_config(Some(ack_frequency));
        }
        Ok(ValidatedOptions { transport: Arc::new(transport), recv_buffer_bytes: recv_buffer as usize })
    }
}
