//! How a session ended, as `{ code, reason }` for JS.

use napi_derive::napi;
use web_transport_quinn::{SessionError, WebTransportError};

#[napi(object)]
#[derive(Clone, Debug)]
pub struct CloseInfo {
    /// The WebTransport application error code (0 when the session ended without one).
    pub code: u32,
    pub reason: String,
}

/// Map the session's terminal error. `local` is what this side passed to `close()`, if anything;
/// `connection` is quinn's own reason. web-transport-quinn reports a transport-level end it
/// noticed on the CONNECT stream (an idle timeout, say) as a local close, and its follow-up
/// `close()` can overwrite quinn's reason too, so a local close we did not ask for is described
/// by its likely causes.
pub fn close_info_from(error: &SessionError, local: Option<&CloseInfo>, connection: Option<quinn::ConnectionError>) -> CloseInfo {
    use quinn::ConnectionError as Conn;
    match error {
        SessionError::WebTransportError(WebTransportError::Closed(code, reason)) => {
            CloseInfo { code: *code, reason: reason.clone() }
        }
        SessionError::ConnectionError(Conn::LocallyClosed) => match (local, connection) {
            (Some(local), _) => local.clone(),
            (None, Some(Conn::TimedOut)) => CloseInfo { code: 0, reason: "idle timeout".into() },
            (None, Some(Conn::LocallyClosed) | None) => CloseInfo {
                code: 0,
                reason: "session ended without a close capsule (idle timeout or connection lost)".into(),
            },
            // The peer's close reached us before the capsule reader did: the connection's reason is the session's.
            (None, Some(closed @ Conn::ApplicationClosed(_))) => match SessionError::from(closed) {
                SessionError::WebTransportError(WebTransportError::Closed(code, reason)) => CloseInfo { code, reason },
                other => CloseInfo { code: 0, reason: other.to_string() },
            },
            (None, Some(other)) => CloseInfo { code: 0, reason: other.to_string() },
        },
        SessionError::ConnectionError(Conn::ApplicationClosed(close)) => CloseInfo {
            code: u32::try_from(close.error_code.into_inner()).unwrap_or(u32::MAX),
            reason: String::from_utf8_lossy(&close.reason).into_owned(),
        },
        SessionError::ConnectionError(Conn::TimedOut) => CloseInfo { code: 0, reason: "idle timeout".into() },
        other => CloseInfo { code: 0, reason: other.to_string() },
    }
}
