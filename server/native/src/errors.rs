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
