//! The WebTransport server endpoint.
//!
//! A background task drives QUIC handshakes and HTTP/3 CONNECTs and answers each with 200, so
//! one slow client never delays the others; finished sessions wait in a bounded queue for
//! `accept()` (when it is full, new handshakes wait, which pushes back on clients).

use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;

use napi_derive::napi;
use tokio::sync::{mpsc, watch, Mutex};

use crate::certificate::{parse_cert_chain, parse_private_key};
use crate::endpoint_options::with_endpoint_options;
use crate::errors::{invalid_arg, with_context};
use crate::session::Session;
use crate::udp_socket::endpoint_on;

const ACCEPT_QUEUE_SESSIONS: usize = 64;

with_endpoint_options! {
    #[napi(object)]
    pub struct ServerOptions {
        pub host: String,
        pub port: u32,
        pub cert_pem: String,
        pub key_pem: String,
    }
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

async fn run_accept_loop(endpoint: quinn::Endpoint, ready: mpsc::Sender<Session>, recv_buffer_bytes: usize) {
    let mut server = web_transport_quinn::Server::new(endpoint);
    // Returns None once the endpoint is closed.
    while let Some(request) = server.accept().await {
        let ready = ready.clone();
        napi::bindgen_prelude::spawn(async move {
            let url = path_and_query(&request.url);
            // A client that vanishes mid-CONNECT only costs its own task.
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
}

#[napi]
impl QuicServer {
    /// Bind a WebTransport (HTTP/3) server on host:port (port 0 = any free port).
    #[napi]
    pub async fn bind(options: ServerOptions) -> napi::Result<QuicServer> {
        let addr = resolve(&options.host, options.port)?;
        let (config, recv_buffer_bytes) = server_config(&options)?;
        let endpoint = endpoint_on(addr, Some(config))?;
        let port = endpoint.local_addr().map_err(with_context("reading the bound address failed"))?.port();
        let (ready_tx, ready_rx) = mpsc::channel(ACCEPT_QUEUE_SESSIONS);
        napi::bindgen_prelude::spawn(run_accept_loop(endpoint.clone(), ready_tx, recv_buffer_bytes));
        Ok(QuicServer {
            endpoint,
            port: port.into(),
            ready: Arc::new(Mutex::new(ready_rx)),
            closed: watch::Sender::new(false),
        })
    }

    #[napi(getter)]
    pub fn port(&self) -> u32 {
        self.port
    }

    /// The next established session (its CONNECT already answered 200); null after close().
    #[napi]
    pub async fn accept(&self) -> napi::Result<Option<Session>> {
        let mut closed = self.closed.subscribe();
        if *closed.borrow() {
            return Ok(None);
        }
        let mut ready = self.ready.lock().await;
        tokio::select! {
            session = ready.recv() => Ok(session.filter(|_| !*self.closed.borrow())),
            _ = closed.wait_for(|closed| *closed) => Ok(None),
        }
    }

    /// Stop accepting and close every connection of this endpoint.
    #[napi(catch_unwind)]
    pub fn close(&self) {
        self.closed.send_replace(true);
        self.endpoint.close(0u32.into(), b"server closed");
    }
}

// A collected server can accept nothing more: stop listening instead of leaking the port.
impl Drop for QuicServer {
    fn drop(&mut self) {
        self.endpoint.close(0u32.into(), b"server closed");
    }
}
