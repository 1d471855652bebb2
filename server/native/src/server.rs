//! The WebTransport server endpoint.
//!
//! A background task drives QUIC handshakes and HTTP/3 CONNECTs and answers each with 200, so
//! one slow client never delays the others; finished sessions wait in a bounded queue for
//! `accept()` (when it is full, new handshakes wait, which pushes back on clients). New handshakes from one source
//! address beyond `handshakesPerAddressPerS` are refused before any TLS work (handshake_limit.rs).

use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use napi_derive::napi;
use tokio::sync::{mpsc, watch, Mutex};

use crate::certificate::{parse_cert_chain, parse_private_key};
use crate::endpoint_options::with_endpoint_options;
use crate::errors::{invalid_arg, with_context};
use crate::handshake_limit::{Admission, HandshakeBuckets, HandshakeLimit};
use crate::session::Session;
use crate::udp_socket::endpoint_on;

const ACCEPT_QUEUE_SESSIONS: usize = 64;
/// Refusal reports waiting for `nextHandshakeRefusal()`; beyond it they are dropped (the total still counts them).
const REFUSAL_REPORT_QUEUE: usize = 256;

with_endpoint_options! {
    #[napi(object)]
    pub struct ServerOptions {
        pub host: String,
        pub port: u32,
        pub cert_pem: String,
        pub key_pem: String,
        /// New handshakes per second one source address (an IPv6 /64) may start; 0 or absent = no limit.
        pub handshakes_per_address_per_s: Option<f64>,
        /// Handshakes one address may start at once before the rate applies (default: one second's worth).
        pub handshake_burst_per_address: Option<u32>,
    }
}

/// Handshakes refused from one address since its previous report (at most one report per address per second).
#[napi(object)]
pub struct HandshakeRefusal {
    /// The source address, or an IPv6 /64 as "prefix::/64".
    pub address: String,
    pub refused: u32,
    pub limit_per_s: f64,
    pub burst: u32,
}

/// "/path?query" of a CONNECT URL.
pub fn path_and_query(url: &url::Url) -> String {
    match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_string(),
    }
}

fn resolve(host: &str, port: u32) -> napi::Result<SocketAddr> {
    let port = u16::try_from(port).map_err(|_| invalid_arg(format!("port must be 0..65535, got {port}")))?;
    (host, port)
        .to_socket_addrs()
        .map_err(|e| invalid_arg(format!("cannot resolve host {host:?}: {e}")))?
        .next()
        .ok_or_else(|| invalid_arg(format!("host {host:?} resolves to no address")))
}

/// The server's QUIC configuration and its datagram receive buffer (bytes).
fn server_config(options: &ServerOptions) -> napi::Result<(quinn::ServerConfig, usize)> {
    let endpoint_options = options.endpoint_options().validate()?;
    let chain = parse_cert_chain(&options.cert_pem)?;
    let key = parse_private_key(&options.key_pem)?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(with_context("configuring TLS 1.3 failed"))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| invalid_arg(format!("certPem/keyPem rejected: {e}")))?;
    tls.alpn_protocols = vec![web_transport_quinn::ALPN.as_bytes().to_vec()];
    let quic_tls = quinn::crypto::rustls::QuicServerConfig::try_from(tls)
        .map_err(with_context("the TLS configuration is unusable for QUIC"))?;
    let mut config = quinn::ServerConfig::with_crypto(Arc::new(quic_tls));
    config.transport_config(endpoint_options.transport);
    Ok((config, endpoint_options.recv_buffer_bytes))
}

struct HandshakeGate {
    limit: HandshakeLimit,
    buckets: HandshakeBuckets,
    refused: Arc<AtomicU64>,
    refused_silently: Arc<AtomicU64>,
    reports: mpsc::Sender<HandshakeRefusal>,
}

impl HandshakeGate {
    /// Whether `incoming` may start its handshake; refused ones are closed here, before any TLS work.
    fn admit(&mut self, incoming: quinn::Incoming) -> Option<quinn::Incoming> {
        let Admission::Refused { answer, report } = self.buckets.admit(incoming.remote_address().ip(), Instant::now()) else {
            return Some(incoming);
        };
        if answer {
            incoming.refuse();
        } else {
            incoming.ignore();
            self.refused_silently.fetch_add(1, Ordering::Relaxed);
        }
        self.refused.fetch_add(1, Ordering::Relaxed);
        if let Some(report) = report {
            let _ = self.reports.try_send(HandshakeRefusal {
                address: report.address,
                refused: u32::try_from(report.refused).unwrap_or(u32::MAX),
                limit_per_s: self.limit.per_s,
                burst: self.limit.burst as u32,
            });
        }
        None
    }
}

async fn run_accept_loop(endpoint: quinn::Endpoint, ready: mpsc::Sender<Session>, recv_buffer_bytes: usize, mut gate: Option<HandshakeGate>) {
    // Returns None once the endpoint is closed.
    while let Some(incoming) = endpoint.accept().await {
        let ip = incoming.remote_address().ip();
        let incoming = match gate.as_mut() {
            Some(gate) => match gate.admit(incoming) {
                Some(incoming) => incoming,
                None => continue,
            },
            None => incoming,
        };
        // accept() opens the Initial first: one that does not decrypt (forged) fails here, before any TLS work, and
        // gives its token back.
        let connecting = match incoming.accept() {
            Ok(connecting) => connecting,
            Err(_) => {
                if let Some(gate) = gate.as_mut() {
                    gate.buckets.refund(ip);
                }
                continue;
            }
        };
        let ready = ready.clone();
        // Each handshake in its own task: a client that stalls mid-handshake or mid-CONNECT only costs its own task.
        napi::bindgen_prelude::spawn(async move {
            let Ok(connection) = connecting.await else { return };
            let Ok(request) = web_transport_quinn::Request::accept(connection).await else { return };
            let url = path_and_query(&request.url);
            if let Ok(session) = request.ok().await {
                if let Err(mpsc::error::SendError(unaccepted)) = ready.send(Session::new(session, url, recv_buffer_bytes)).await {
                    let _ = unaccepted.close(0, "server closed".into());
                }
            }
        });
    }
}

#[napi]
pub struct QuicServer {
    endpoint: quinn::Endpoint,
    port: u32,
    ready: Arc<Mutex<mpsc::Receiver<Session>>>,
    closed: watch::Sender<bool>,
    handshakes_refused: Arc<AtomicU64>,
    handshakes_refused_silently: Arc<AtomicU64>,
    refusal_reports: Arc<Mutex<mpsc::Receiver<HandshakeRefusal>>>,
}

#[napi]
impl QuicServer {
    /// Bind a WebTransport (HTTP/3) server on host:port (port 0 = any free port).
    #[napi]
    pub async fn bind(options: ServerOptions) -> napi::Result<QuicServer> {
        let addr = resolve(&options.host, options.port)?;
        let (config, recv_buffer_bytes) = server_config(&options)?;
        let limit = HandshakeLimit::parse(options.handshakes_per_address_per_s, options.handshake_burst_per_address)?;
        let endpoint = endpoint_on(addr, quinn::EndpointConfig::default(), Some(config))?;
        let port = endpoint.local_addr().map_err(with_context("reading the bound address failed"))?.port();
        let (ready_tx, ready_rx) = mpsc::channel(ACCEPT_QUEUE_SESSIONS);
        let (reports_tx, reports_rx) = mpsc::channel(REFUSAL_REPORT_QUEUE);
        let handshakes_refused = Arc::new(AtomicU64::new(0));
        let handshakes_refused_silently = Arc::new(AtomicU64::new(0));
        let gate = limit.map(|limit| HandshakeGate {
            limit,
            buckets: HandshakeBuckets::new(limit),
            refused: handshakes_refused.clone(),
            refused_silently: handshakes_refused_silently.clone(),
            reports: reports_tx,
        });
        napi::bindgen_prelude::spawn(run_accept_loop(endpoint.clone(), ready_tx, recv_buffer_bytes, gate));
        Ok(QuicServer {
            endpoint,
            port: port.into(),
            ready: Arc::new(Mutex::new(ready_rx)),
            closed: watch::Sender::new(false),
            handshakes_refused,
            handshakes_refused_silently,
            refusal_reports: Arc::new(Mutex::new(reports_rx)),
        })
    }

    /// Handshakes refused for the per-address limit since bind (each refused before its TLS work).
    #[napi(getter)]
    pub fn handshakes_refused(&self) -> f64 {
        self.handshakes_refused.load(Ordering::Relaxed) as f64
    }

    /// Of those, the ones dropped without an answer (beyond ANSWERED_REFUSALS_PER_S of one address).
    #[napi(getter)]
    pub fn handshakes_refused_silently(&self) -> f64 {
        self.handshakes_refused_silently.load(Ordering::Relaxed) as f64
    }

    /// The next report of refused handshakes (at most one per address per second, with the count since the
    /// address's previous report); null after close() or when no limit is set.
    #[napi]
    pub async fn next_handshake_refusal(&self) -> napi::Result<Option<HandshakeRefusal>> {
        Ok(self.next_until_closed(&self.refusal_reports).await)
    }

    #[napi(getter)]
    pub fn port(&self) -> u32 {
        self.port
    }

    /// The next established session (its CONNECT already answered 200); null after close().
    #[napi]
    pub async fn accept(&self) -> napi::Result<Option<Session>> {
        Ok(self.next_until_closed(&self.ready).await)
    }

    /// Stop accepting and close every connection of this endpoint.
    #[napi(catch_unwind)]
    pub fn close(&self) {
        self.closed.send_replace(true);
        self.endpoint.close(0u32.into(), b"server closed");
    }
}

impl QuicServer {
    /// The next item of one of the server's queues; None once close() was called (or the queue's sender is gone).
    async fn next_until_closed<T>(&self, queue: &Mutex<mpsc::Receiver<T>>) -> Option<T> {
        let mut closed = self.closed.subscribe();
        if *closed.borrow() {
            return None;
        }
        let mut queue = queue.lock().await;
        tokio::select! {
            item = queue.recv() => item.filter(|_| !*self.closed.borrow()),
            _ = closed.wait_for(|closed| *closed) => None,
        }
    }
}

// A collected server can accept nothing more: stop listening instead of leaking the port.
impl Drop for QuicServer {
    fn drop(&mut self) {
        self.endpoint.close(0u32.into(), b"server closed");
    }
}
