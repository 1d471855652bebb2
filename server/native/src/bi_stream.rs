//! A WebTransport bidirectional stream.
//!
//! Each half sits behind an async mutex because JS may call read/write while a previous call is
//! still pending. `reset`/`stop` are synchronous and must not wait for a pending write/read, so
//! they also raise a signal that the pending operation watches and acts on.

use std::future::Future;
use std::sync::Arc;

use bytes::Bytes;
use napi::bindgen_prelude::{Buffer, PromiseRaw, ToNapiValue};
use napi::{Env, JsError};
use napi_derive::napi;
use tokio::sync::{watch, Mutex};
use web_transport_quinn::{ReadError, RecvStream, SendStream, WriteError};

use crate::errors::{coded, failure, invalid_arg, CodedError, CodedResult, ErrorCode};

/// Larger reads only add latency for the first byte; quinn hands out chunks anyway.
const MAX_READ_BYTES: u32 = 16 << 20;

#[napi]
pub struct BiStream {
    send: Arc<Mutex<SendStream>>,
    recv: Arc<Mutex<RecvStream>>,
    reset_code: watch::Sender<Option<u32>>,
    stop_code: watch::Sender<Option<u32>>,
}

impl BiStream {
    pub fn new(send: SendStream, recv: RecvStream) -> Self {
        Self {
            send: Arc::new(Mutex::new(send)),
            recv: Arc::new(Mutex::new(recv)),
            reset_code: watch::Sender::new(None),
            stop_code: watch::Sender::new(None),
        }
    }
}

/// "`what` failed: session closed: {cause}" with the code ERR_PCC_SESSION_CLOSED: the session ended under the call.
fn closed_under(what: &str, cause: impl std::fmt::Display) -> CodedError {
    CodedError::new(ErrorCode::SessionClosed, format!("{what} failed: session closed: {cause}"))
}

fn write_error(error: WriteError) -> CodedError {
    match error {
        WriteError::Stopped(code) => coded(failure(format!("stream write failed: the peer stopped reading (code {code})"))),
        WriteError::ClosedStream => coded(failure("stream write failed: the stream is already finished or reset")),
        WriteError::SessionError(error) => closed_under("stream write", error),
        other => coded(failure(format!("stream write failed: {other}"))),
    }
}

fn read_error(error: ReadError) -> CodedError {
    match error {
        ReadError::Reset(code) => coded(failure(format!("stream read failed: the peer reset the stream (code {code})"))),
        ReadError::SessionError(error) => closed_under("stream read", error),
        other => coded(failure(format!("stream read failed: {other}"))),
    }
}

/// A promise of `work` whose rejection keeps the error's code (ERR_PCC_SESSION_CLOSED included): napi's futures take
/// only status-coded errors, so the coded JS error is built on the JavaScript thread and rejected as that object.
fn coded_promise<'env, T, F>(env: &'env Env, work: F) -> napi::Result<PromiseRaw<'env, T>>
where
    T: ToNapiValue + Send + 'static,
    F: Future<Output = CodedResult<T>> + Send + 'static,
{
    env.spawn_future_with_callback(async move { Ok(work.await) }, |env, outcome| match outcome {
        Ok(value) => Ok(value),
        Err(error) => Err(napi::Error::from(JsError::from(error).into_unknown(*env))),
    })
}

async fn wait_for_code(signal: &mut watch::Receiver<Option<u32>>) -> u32 {
    // Copy the code out before any further await: the watch guard is not Send.
    let code = signal.wait_for(Option::is_some).await.ok().and_then(|code| *code);
    match code {
        Some(code) => code,
        // The BiStream (and its signal) was dropped: nothing can reset this call any more.
        None => std::future::pending().await,
    }
}

#[napi]
impl BiStream {
    /// Up to `maxBytes` of the next data in order; null once the peer finished the stream. Rejects with the code
    /// ERR_PCC_SESSION_CLOSED when the session ended under the read.
    #[napi(ts_return_type = "Promise<Buffer | null>")]
    pub fn read<'env>(&self, env: &'env Env, max_bytes: u32) -> napi::Result<PromiseRaw<'env, Option<Buffer>>> {
        let mut stopped = self.stop_code.subscribe();
        let recv = self.recv.clone();
        coded_promise(env, async move {
            // A bad size rejects (as every other failure of a read does) rather than throws.
            if max_bytes == 0 || max_bytes > MAX_READ_BYTES {
                return Err(coded(invalid_arg(format!("maxBytes must be between 1 and {MAX_READ_BYTES}, got {max_bytes}"))));
            }
            let mut recv = recv.lock().await;
            if let Some(code) = *stopped.borrow() {
                return Err(coded(failure(format!("stream read failed: reading was stopped locally (code {code})"))));
            }
            tokio::select! {
                chunk = recv.read_chunk(max_bytes as usize, true) => match chunk {
                    Ok(Some(chunk)) => Ok(Some(Buffer::from(Vec::from(chunk.bytes)))),
                    Ok(None) => Ok(None),
                    Err(error) => Err(read_error(error)),
                },
                code = wait_for_code(&mut stopped) => {
                    let _ = recv.stop(code);
                    Err(coded(failure(format!("stream read failed: reading was stopped locally (code {code})"))))
                }
            }
        })
    }

    /// Resolves once all of `data` is handed to QUIC (flow control permitting). The bytes are
    /// copied before this returns, so the caller may reuse `data` at once. Rejects with the code ERR_PCC_SESSION_CLOSED
    /// when the session ended under the write.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn write<'env>(&self, env: &'env Env, data: &[u8]) -> napi::Result<PromiseRaw<'env, ()>> {
        let chunk = Bytes::copy_from_slice(data);
        let send = self.send.clone();
        let mut reset = self.reset_code.subscribe();
        coded_promise(env, async move {
            let mut send = send.lock().await;
            if let Some(code) = *reset.borrow() {
                return Err(coded(failure(format!("stream write failed: the stream was reset locally (code {code})"))));
            }
            tokio::select! {
                written = send.write_chunk(chunk) => written.map_err(write_error),
                code = wait_for_code(&mut reset) => {
                    let _ = send.reset(code);
                    Err(coded(failure(format!("stream write failed: the stream was reset locally (code {code})"))))
                }
            }
        })
    }

    /// Ends the sending half after the data already written (FIN).
    #[napi]
    pub async fn finish(&self) -> napi::Result<()> {
        let mut send = self.send.lock().await;
        send.finish().map_err(|_| failure("stream finish failed: the stream is already finished or reset"))
    }

    /// Abandons sending: unsent data is discarded and the peer's reads fail with `code`.
    #[napi(catch_unwind)]
    pub fn reset(&self, code: u32) {
        self.reset_code.send_replace(Some(code));
        // A pending write holds the lock and resets on the signal; otherwise reset here.
        if let Ok(mut stream) = self.send.try_lock() {
            let _ = stream.reset(code);
            return;
        }
        let send = self.send.clone();
        napi::bindgen_prelude::spawn(async move {
            let _ = send.lock().await.reset(code);
        });
    }

    /// Abandons receiving: asks the peer to stop sending with `code`.
    #[napi(catch_unwind)]
    pub fn stop(&self, code: u32) {
        self.stop_code.send_replace(Some(code));
        if let Ok(mut stream) = self.recv.try_lock() {
            let _ = stream.stop(code);
            return;
        }
        let recv = self.recv.clone();
        napi::bindgen_prelude::spawn(async move {
            let _ = recv.lock().await.stop(code);
        });
    }
}
