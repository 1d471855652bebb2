//! A WebTransport bidirectional stream.
//!
//! Each half sits behind an async mutex because JS may call read/write while a previous call is
//! still pending. `reset`/`stop` are synchronous and must not wait for a pending write/read, so
//! they also raise a signal that the pending operation watches and acts on.

use std::sync::Arc;

use bytes::Bytes;
use napi::bindgen_prelude::{Buffer, PromiseRaw};
use napi::Env;
use napi_derive::napi;
use tokio::sync::{watch, Mutex};
use web_transport_quinn::{ReadError, RecvStream, SendStream, WriteError};

use crate::errors::{failure, invalid_arg};

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

fn write_error(error: WriteError) -> napi::Error {
    match error {
        WriteError::Stopped(code) => failure(format!("stream write failed: the peer stopped reading (code {code})")),
        WriteError::ClosedStream => failure("stream write failed: the stream is already finished or reset"),
        WriteError::SessionError(error) => failure(format!("stream write failed: session closed: {error}")),
        other => failure(format!("stream write failed: {other}")),
    }
}

fn read_error(error: ReadError) -> napi::Error {
    match error {
        ReadError::Reset(code) => failure(format!("stream read failed: the peer reset the stream (code {code})")),
        ReadError::SessionError(error) => failure(format!("stream read failed: session closed: {error}")),
        other => failure(format!("stream read failed: {other}")),
    }
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
    /// Up to `maxBytes` of the next data in order; null once the peer finished the stream.
    #[napi]
    pub async fn read(&self, max_bytes: u32) -> napi::Result<Option<Buffer>> {
        if max_bytes == 0 || max_bytes > MAX_READ_BYTES {
            return Err(invalid_arg(format!("maxBytes must be between 1 and {MAX_READ_BYTES}, got {max_bytes}")));
        }
        let mut stopped = self.stop_code.subscribe();
        let mut recv = self.recv.lock().await;
        if let Some(code) = *stopped.borrow() {
            return Err(failure(format!("stream read failed: reading was stopped locally (code {code})")));
        }
        tokio::select! {
            chunk = recv.read_chunk(max_bytes as usize, true) => match chunk {
                Ok(Some(chunk)) => Ok(Some(Buffer::from(Vec::from(chunk.bytes)))),
                Ok(None) => Ok(None),
                Err(error) => Err(read_error(error)),
            },
            code = wait_for_code(&mut stopped) => {
                let _ = recv.stop(code);
                Err(failure(format!("stream read failed: reading was stopped locally (code {code})")))
            }
        }
    }

    /// Resolves once all of `data` is handed to QUIC (flow control permitting). The bytes are
    /// copied before this returns, so the caller may reuse `data` at once.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn write<'env>(&self, env: &'env Env, data: &[u8]) -> napi::Result<PromiseRaw<'env, ()>> {
        let chunk = Bytes::copy_from_slice(data);
        let send = self.send.clone();
        let mut reset = self.reset_code.subscribe();
        env.spawn_future(async move {
            let mut send = send.lock().await;
            if let Some(code) = *reset.borrow() {
                return Err(failure(format!("stream write failed: the stream was reset locally (code {code})")));
            }
            tokio::select! {
                written = send.write_chunk(chunk) => written.map_err(write_error),
                code = wait_for_code(&mut reset) => {
                    let _ = send.reset(code);
                    Err(failure(format!("stream write failed: the stream was reset locally (code {code})")))
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
