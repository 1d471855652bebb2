//! Turning Rust errors into JS `Error`s with messages that say what failed.

use napi::{Error, Status};

pub fn invalid_arg(message: impl Into<String>) -> Error {
    Error::new(Status::InvalidArg, message.into())
}

pub fn failure(message: impl Into<String>) -> Error {
    Error::new(Status::GenericFailure, message.into())
}

/// `context: cause`, e.g. "bind 127.0.0.1:4433 failed: Address already in use".
pub fn with_context<E: std::fmt::Display>(context: impl std::fmt::Display) -> impl FnOnce(E) -> Error {
    move |cause| failure(format!("{context}: {cause}"))
}

/// The `code` a session call's JS error carries: napi's status name (`GenericFailure`, `InvalidArg`), or
/// `ERR_PCC_SESSION_CLOSED` when the call failed only because the session has ended, whichever side ended it. JavaScript
/// tells a peer's close from a real failure by that code (index.js `isSessionClosedError`), not by the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    Napi(Status),
    SessionClosed,
}

pub const SESSION_CLOSED_CODE: &str = "ERR_PCC_SESSION_CLOSED";

impl AsRef<str> for ErrorCode {
    fn as_ref(&self) -> &str {
        match self {
            ErrorCode::Napi(status) => status.as_ref(),
            ErrorCode::SessionClosed => SESSION_CLOSED_CODE,
        }
    }
}

pub type CodedError = Error<ErrorCode>;
/// For helpers; a `#[napi]` method must spell it `napi::Result<T, ErrorCode>` (napi-derive recognises `Result` by name).
pub type CodedResult<T> = napi::Result<T, ErrorCode>;

/// A status-coded error as a CodedError (same code, same message).
pub fn coded(error: Error) -> CodedError {
    Error::new(ErrorCode::Napi(error.status), error.reason)
}

/// "session closed: {cause}" with the code ERR_PCC_SESSION_CLOSED.
pub fn session_closed(cause: impl std::fmt::Display) -> CodedError {
    Error::new(ErrorCode::SessionClosed, format!("session closed: {cause}"))
}

/// A CodedError as a status-coded one, for promises (ERR_PCC_SESSION_CLOSED becomes GenericFailure; the message stays).
pub fn uncoded(error: CodedError) -> Error {
    let status = match error.status {
        ErrorCode::Napi(status) => status,
        ErrorCode::SessionClosed => Status::GenericFailure,
    };
    Error::new(status, error.reason)
}
