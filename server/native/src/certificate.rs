//! Self-signed certificates for WebTransport `serverCertificateHashes`, and PEM parsing.

use base64::Engine as _;
use napi_derive::napi;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use sha2::{Digest, Sha256};

use crate::errors::{invalid_arg, with_context};

/// Chromium accepts hashed certificates only when their whole validity is at most 14 days.
const MAX_VALID_DAYS: u32 = 14;

#[napi(object)]
pub struct SelfSignedCert {
    pub cert_pem: String,
    pub key_pem: String,
    /// SHA-256 of the certificate DER, lowercase hex (for `serverCertificateHashes`).
    pub cert_sha256_hex: String,
    /// base64 SHA-256 of the SubjectPublicKeyInfo (the certificate key's pin).
    pub spki_sha256_base64: String,
}

pub fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// ECDSA P-256 certificate for `names` (DNS names or IP addresses), valid from one minute ago
/// for `valid_days` minus two minutes, so the total stays strictly inside the 14-day limit.
#[napi(catch_unwind)]
pub fn generate_self_signed_cert(names: Vec<String>, valid_days: u32) -> napi::Result<SelfSignedCert> {
    if valid_days == 0 || valid_days > MAX_VALID_DAYS {
        return Err(invalid_arg(format!("validDays must be between 1 and {MAX_VALID_DAYS}, got {valid_days}")));
    }
    if names.is_empty() || names.iter().any(|name| name.is_empty()) {
        return Err(invalid_arg("names must be a non-empty list of non-empty host names or IP addresses"));
    }
    let key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256)
        .map_err(with_context("generating an ECDSA P-256 key failed"))?;
    let mut params = rcgen::CertificateParams::new(names).map_err(|e| invalid_arg(format!("bad certificate name: {e}")))?;
    let now = time::OffsetDateTime::now_utc();
    params.not_before = now - time::Duration::minutes(1);
    params.not_after = params.not_before + time::Duration::days(valid_days.into()) - time::Duration::minutes(2);
    let cert = params.self_signed(&key).map_err(with_context("self-signing the certificate failed"))?;
    let spki_sha256 = Sha256::digest(rcgen::PublicKeyData::subject_public_key_info(&key));
    Ok(SelfSignedCert {
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
        cert_sha256_hex: sha256_hex(cert.der()),
        spki_sha256_base64: base64::engine::general_purpose::STANDARD.encode(spki_sha256),
    })
}

pub fn parse_cert_chain(cert_pem: &str) -> napi::Result<Vec<CertificateDer<'static>>> {
    let chain = rustls_pemfile::certs(&mut cert_pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| invalid_arg(format!("certPem is not valid PEM: {e}")))?;
    if chain.is_empty() {
        return Err(invalid_arg("certPem contains no CERTIFICATE block"));
    }
    Ok(chain)
}

pub fn parse_private_key(key_pem: &str) -> napi::Result<PrivateKeyDer<'static>> {
    rustls_pemfile::private_key(&mut key_pem.as_bytes())
        .map_err(|e| invalid_arg(format!("keyPem is not valid PEM: {e}")))?
        .ok_or_else(|| invalid_arg("keyPem contains no PRIVATE KEY block"))
}

/// Parse a 64-character hex SHA-256 digest.
pub fn parse_sha256_hex(hex: &str) -> napi::Result<[u8; 32]> {
    let bad = || invalid_arg(format!("certSha256Hex must be 64 hex digits (a SHA-256 digest), got {hex:?}"));
    if hex.len() != 64 || !hex.is_ascii() {
        return Err(bad());
    }
    let mut digest = [0u8; 32];
    for (index, byte) in digest.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * index..2 * index + 2], 16).map_err(|_| bad())?;
    }
    Ok(digest)
}
