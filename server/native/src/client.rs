//! The WebTransport client endpoint (Node client and tests). Each session gets its own UDP socket.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use napi_derive::napi;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use sha2::{Digest, Sha256};

use crate::certificate::parse_sha256_hex;
use crate::endpoint_options::with_endpoint_options;
use crate::errors::{failure, invalid_arg, with_context};
use crate::server::path_and_query;
use crate::session::Session;
use crate::udp_socket::endpoint_on;

const DEFAULT_CONNECT_TIMEOUT_MS: u32 = 10_000;
/// quinn's own default: what a client that may migrate, or share its endpoint, needs.
const DEFAULT_CONNECTION_ID_BYTES: u32 = 8;
/// RFC 9000 §17.2: a connection ID is at most 20 bytes. Exported for the Node client's CLI help.
#[napi]
pub const MAX_CONNECTION_ID_BYTES: u32 = 20;

with_endpoint_options! {
    #[napi(object)]
    #[derive(Default)]
    pub struct ClientOptions {
        // Doc attributes, not `///`: inside a macro those become raw strings that napi's .d.ts keeps quoted.
        #[doc = "SHA-256 (hex) of the server's certificate DER; the only certificate accepted."]
        pub cert_sha256_hex: Option<String>,
        #[doc = "Handshake plus CONNECT must finish within this time (default 10000)."]
        pub connect_timeout_ms: Option<u32>,
        #[doc = "Local IP address to send from (default: any); e.g. one of 127.0.0.0/8 for many clients on loopback."]
        pub local_address: Option<String>,
        #[doc = "Length (bytes, 0-20) of the connection IDs this client issues (default 8, quinn's). Every packet the server sends carries one as its destination: 0 saves 8 bytes a packet. Zero-length IDs are safe here because each session has its own UDP socket (packets are routed by address) and the client never migrates (RFC 9000 §5.1, §9.5)."]
        pub connection_id_bytes: Option<u32>,
    }
}

/// Accepts exactly the certificate whose DER hashes to the pinned SHA-256, as browsers do for
/// `serverCertificateHashes`; handshake signatures are still verified with that certificate.
#[derive(Debug)]
struct PinnedCertificate {
    sha256: [u8; 32],
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for PinnedCertificate {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if Sha256::digest(end_entity.as_ref()).as_slice() == self.sha256 {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General("the server certificate's SHA-256 does not match certSha256Hex".into()))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}

fn parse_url(url: &str) -> napi::Result<(url::Url, SocketAddr)> {
    let parsed = url::Url::parse(url).map_err(|e| invalid_arg(format!("bad URL {url:?}: {e}")))?;
    if parsed.scheme() != "https" {
        return Err(invalid_arg(format!("URL must start with https:// (WebTransport), got {url:?}")));
    }
    let host = parsed.host_str().ok_or_else(|| invalid_arg(format!("URL {url:?} has no host")))?;
    let port = parsed.port().unwrap_or(443);
    // IPv6 literals come bracketed from host_str().
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let remote = (host, port)
        .to_socket_addrs()
        .map_err(|e| failure(format!("cannot resolve {host:?}: {e}")))?
        .next()
        .ok_or_else(|| failure(format!("{host:?} resolves to no address")))?;
    Ok((parsed, remote))
}

/// The client's QUIC configuration and its datagram receive buffer (bytes).
fn client_config(options: &ClientOptions) -> napi::Result<(quinn::ClientConfig, usize)> {
    let validated = options.endpoint_options().validate()?;
    let hex = options
        .cert_sha256_hex
        .as_deref()
        .ok_or_else(|| invalid_arg("certSha256Hex is required: this client trusts only a pinned certificate"))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = Arc::new(PinnedCertificate { sha256: parse_sha256_hex(hex)?, provider: provider.clone() });
    let mut tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(with_context("configuring TLS 1.3 failed"))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    tls.alpn_protocols = vec![web_transport_quinn::ALPN.as_bytes().to_vec()];
    let quic_tls = quinn::crypto::rustls::QuicClientConfig::try_from(tls)
        .map_err(with_context("the TLS configuration is unusable for QUIC"))?;
    let mut config = quinn::ClientConfig::new(Arc::new(quic_tls));
    config.transport_config(validated.transport);
    Ok((config, validated.recv_buffer_bytes))
}

/// A client endpoint's settings: its connection IDs are `cid_bytes` long.
fn client_endpoint_config(cid_bytes: usize) -> quinn::EndpointConfig {
    let mut config = quinn::EndpointConfig::default();
    config.cid_generator(move || Box::new(quinn_proto::RandomConnectionIdGenerator::new(cid_bytes)));
    config
}

#[napi]
pub struct QuicClient {}

#[napi]
impl QuicClient {
    /// Open a WebTransport session to `https://host:port/path?query`.
    #[napi]
    pub async fn connect(url: String, options: Option<ClientOptions>) -> napi::Result<Session> {
        let options = options.unwrap_or_default();
        let (parsed, remote) = parse_url(&url)?;
        let (config, recv_buffer_bytes) = client_config(&options)?;
        let timeout_ms = options.connect_timeout_ms.unwrap_or(DEFAULT_CONNECT_TIMEOUT_MS);
        let local: SocketAddr = match (&options.local_address, remote.ip()) {
            (Some(address), _) => {
                let ip: IpAddr =
                    address.parse().map_err(|e| invalid_arg(format!("localAddress {address:?} is not an IP address: {e}")))?;
                (ip, 0).into()
            }
            (None, IpAddr::V4(_)) => (Ipv4Addr::UNSPECIFIED, 0).into(),
            (None, IpAddr::V6(_)) => (Ipv6Addr::UNSPECIFIED, 0).into(),
        };
        let cid_bytes = options.connection_id_bytes.unwrap_or(DEFAULT_CONNECTION_ID_BYTES);
        if cid_bytes > MAX_CONNECTION_ID_BYTES {
            return Err(invalid_arg(format!("connectionIdBytes must be between 0 and {MAX_CONNECTION_ID_BYTES}, got {cid_bytes}")));
        }
        let endpoint = endpoint_on(local, client_endpoint_config(cid_bytes as usize), None)?;
        let client = web_transport_quinn::Client::new(endpoint.clone(), config);
        let path = path_and_query(&parsed);
        let connecting = client.connect(parsed);
        let outcome = tokio::time::timeout(Duration::from_millis(timeout_ms.into()), connecting).await;
        let session = match outcome {
            Ok(Ok(session)) => session,
            Ok(Err(error)) => {
                endpoint.close(0u32.into(), b"");
                return Err(failure(format!("connecting to {url} failed: {error}")));
            }
            Err(_) => {
                endpoint.close(0u32.into(), b"");
                return Err(failure(format!("connecting to {url} timed out after {timeout_ms} ms")));
            }
        };
        Ok(Session::new(session, path, recv_buffer_bytes))
    }
}
