//! A session's connection statistics, as plain numbers for JS (u64 counters become f64:
//! exact below 2^53).

use napi_derive::napi;

use crate::congestion::CongestionKind;

#[napi(object)]
pub struct SessionStats {
    /// Smoothed RTT.
    pub rtt_us: f64,
    pub min_rtt_us: f64,
    pub cwnd_bytes: f64,
    pub mtu: u32,
    pub lost_packets: f64,
    pub sent_packets: f64,
    pub lost_bytes: f64,
    pub congestion_events: f64,
    pub udp_tx_bytes: f64,
    pub udp_rx_bytes: f64,
    pub udp_tx_datagrams: f64,
    pub udp_rx_datagrams: f64,
    /// QUIC DATAGRAM frames sent / received on this connection.
    pub datagram_frames_sent: f64,
    pub datagram_frames_received: f64,
    /// QUIC ACK frames sent: the QUIC-level acknowledgements, on their own packets or carried by others.
    pub ack_frames_sent: f64,
    /// ACK_FREQUENCY frames (QUIC's ACK-frequency extension) sent / received: nonzero only where one end asked
    /// (`requestAckFrequency`) and the other advertised the extension (its min_ack_delay transport parameter).
    pub ack_frequency_frames_sent: f64,
    pub ack_frequency_frames_received: f64,
    /// Payload bytes `sendDatagram` can queue right now without being refused.
    pub datagram_send_buffer_space: u32,
    /// Received datagrams dropped unread, the oldest first, because the receive buffer was full.
    pub datagrams_dropped_unread: f64,
    /// The controller in effect (a `setCongestion` switch shows here once applied).
    pub congestion: String,
}

impl SessionStats {
    pub fn of(session: &web_transport_quinn::Session, congestion: CongestionKind, dropped_unread: u64) -> Self {
        let conn: &quinn::Connection = session;
        let stats = conn.stats();
        Self {
            rtt_us: stats.path.rtt.as_micros() as f64,
            min_rtt_us: conn.min_rtt().as_micros() as f64,
            cwnd_bytes: stats.path.cwnd as f64,
            mtu: stats.path.current_mtu.into(),
            lost_packets: stats.path.lost_packets as f64,
            sent_packets: stats.path.sent_packets as f64,
            lost_bytes: stats.path.lost_bytes as f64,
            congestion_events: stats.path.congestion_events as f64,
            udp_tx_bytes: stats.udp_tx.bytes as f64,
            udp_rx_bytes: stats.udp_rx.bytes as f64,
            udp_tx_datagrams: stats.udp_tx.datagrams as f64,
            udp_rx_datagrams: stats.udp_rx.datagrams as f64,
            datagram_frames_sent: stats.frame_tx.datagram as f64,
            datagram_frames_received: stats.frame_rx.datagram as f64,
            ack_frames_sent: stats.frame_tx.acks as f64,
            ack_frequency_frames_sent: stats.frame_tx.ack_frequency as f64,
            ack_frequency_frames_received: stats.frame_rx.ack_frequency as f64,
            datagram_send_buffer_space: session.datagram_send_buffer_space().min(u32::MAX as usize) as u32,
            datagrams_dropped_unread: dropped_unread as f64,
            congestion: congestion.name().to_string(),
        }
    }
}
