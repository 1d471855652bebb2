//! A WebTransport session: datagrams with backpressure, bidirectional streams, stats, close.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use napi::bindgen_prelude::{Buffer, Float64Array, FnArgs, Function};
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi_derive::napi;
use tokio::task::AbortHandle;
use web_transport_quinn::SessionError;

use crate::bi_stream::BiStream;
use crate::close_info::{close_info_from, CloseInfo};
use crate::congestion::{CongestionHandle, CongestionKind};
use crate::errors::{coded, failure, invalid_arg, session_closed, uncoded, CodedResult, ErrorCode};
use crate::inbound_limits::{InboundDatagramLimits, InboundGate, Violation};
use crate::pacer::{self, Handover};
use crate::packed_datagrams::{PackedBatch, PackedDatagrams};
use crate::poll_once::poll_once;
use crate::recv_queue::{monotonic_ns, RecvQueue};
use crate::session_stats::SessionStats;

/// Browsers cap the close reason at 1024 bytes (WebTransport spec, `WebTransportCloseInfo`).
const MAX_CLOSE_REASON_BYTES: usize = 1024;
const MAX_RECV_BATCH: u32 = 65_536;

static NEXT_SESSION_ID: AtomicU32 = AtomicU32::new(1);

/// Datagrams with the time each was taken off the connection (`received_at_ns[i]` for datagram i), in
/// nanoseconds of CLOCK_MONOTONIC: the clock of Node's `process.hrtime`, so JavaScript can tell how long each
/// waited for its event loop (an RTT or ack-delay measured on the JS thread would include that wait).
#[napi(object)]
pub struct TimedDatagrams {
    pub datagrams: Vec<Buffer>,
    pub received_at_ns: Float64Array,
}

/// A Float64Array JavaScript passes to be filled in place (napi-derive takes a `&mut [f64]` spelt out as a reference
/// for a class reference; by this name it converts it as a typed array, as it does `Option<&mut [f64]>`).
type StampsOut<'a> = &'a mut [f64];

#[napi]
pub struct Session {
    inner: web_transport_quinn::Session,
    id: u32,
    url: String,
    remote_address: String,
    congestion: Option<CongestionHandle>,
    local_close: Arc<OnceLock<CloseInfo>>,
    /// When the session began (CLOCK_MONOTONIC ns): the inbound limits' per-second allowance counts from there.
    started_ns: f64,
    received: Arc<RecvQueue>,
    reader: AbortHandle,
}

impl Session {
    /// No endpoint handle is kept: quinn's endpoint driver runs while it has connections, so a
    /// client's UDP socket is released as soon as its only connection has closed. Call inside the
    /// runtime: it starts the task that takes datagrams off the connection as they arrive, keeping
    /// at most `recv_buffer_bytes` of them (the endpoint's `datagramRecvBufferBytes`).
    pub fn new(inner: web_transport_quinn::Session, url: String, recv_buffer_bytes: usize) -> Self {
        let conn: &quinn::Connection = &inner;
        let local_close = Arc::new(OnceLock::new());
        let started_ns = monotonic_ns();
        // A datagram over the session's inbound limits closes it there: it and any after it never reach JavaScript.
        let on_violation = {
            let (session, local_close) = (inner.clone(), local_close.clone());
            move |violation: Violation| close_session(&session, &local_close, violation.code, violation.reason)
        };
        let (received, reader) = RecvQueue::start(inner.clone(), recv_buffer_bytes, on_violation);
        Self {
            id: NEXT_SESSION_ID.fetch_add(1, Ordering::Relaxed),
            remote_address: conn.remote_address().to_string(),
            congestion: CongestionHandle::of(conn),
            url,
            inner,
            local_close,
            started_ns,
            received,
            reader,
        }
    }

    fn ensure_open(&self) -> CodedResult<()> {
        match self.inner.close_reason() {
            Some(error) => Err(session_closed(error)),
            None => Ok(()),
        }
    }

    /// Queue one datagram unless it would need quinn to drop an older one: `Ok(false)` then.
    fn try_queue(&self, payload: Bytes) -> CodedResult<bool> {
        queue_datagram(&self.inner, &self.received, payload)
    }

    /// The bytes the first `count` datagrams of a batch take in `payloads`, after checking `lengths` against the
    /// path's datagram size and `payloads`: a bad batch throws before anything is sent.
    fn batch_bytes(&self, payloads: &[u8], lengths: &[u32], count: usize) -> CodedResult<usize> {
        if count > lengths.len() {
            return Err(coded(invalid_arg(format!("count {count} exceeds lengths.length {}", lengths.len()))));
        }
        let max_size = self.inner.max_datagram_size();
        let mut total: usize = 0;
        for (index, &len) in lengths[..count].iter().enumerate() {
            if len as usize > max_size {
                return Err(coded(invalid_arg(format!(
                    "datagram {index} of {len} bytes exceeds maxDatagramSize() = {max_size}"
                ))));
            }
            total += len as usize;
        }
        if total > payloads.len() {
            return Err(coded(invalid_arg(format!(
                "lengths add up to {total} bytes but payloads holds only {}",
                payloads.len()
            ))));
        }
        Ok(total)
    }
}

/// Queue one datagram on `inner` unless it would need quinn to drop an older one: `Ok(false)` then.
fn queue_datagram(inner: &web_transport_quinn::Session, received: &RecvQueue, payload: Bytes) -> CodedResult<bool> {
    let len = payload.len();
    match poll_once(inner.send_datagram_wait(payload)) {
        None => Ok(false),
        Some(Ok(())) => {
            received.count_sent(1);
            Ok(true)
        }
        Some(Err(SessionError::SendDatagramError(quinn::SendDatagramError::TooLarge))) => Err(coded(invalid_arg(
            format!("datagram of {len} bytes exceeds maxDatagramSize() = {}", inner.max_datagram_size()),
        ))),
        Some(Err(SessionError::SendDatagramError(quinn::SendDatagramError::UnsupportedByPeer))) => {
            Err(coded(failure("the peer does not accept datagrams")))
        }
        Some(Err(error)) => Err(session_closed(error)),
    }
}

#[napi]
impl Session {
    #[napi(getter)]
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Path and query of the WebTransport CONNECT request, e.g. "/media?cc=bbr".
    #[napi(getter)]
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// "ip:port" of the peer.
    #[napi(getter)]
    pub fn remote_address(&self) -> String {
        self.remote_address.clone()
    }

    /// Largest payload `sendDatagram` accepts now (follows the path MTU; 0 if the peer refuses datagrams).
    #[napi(catch_unwind)]
    pub fn max_datagram_size(&self) -> u32 {
        self.inner.max_datagram_size() as u32
    }

    /// Switch this connection's congestion controller. Allowed once per connection (repeating the
    /// active choice is a no-op); applied at the connection's next packet sent or acknowledged; the
    /// new controller starts from its initial window, so call it right after accept/connect.
    #[napi(catch_unwind)]
    pub fn set_congestion(&self, algorithm: String) -> napi::Result<(), ErrorCode> {
        let kind = CongestionKind::parse(&algorithm).map_err(|e| coded(invalid_arg(e)))?;
        self.ensure_open()?;
        let handle = self.congestion.as_ref().ok_or_else(|| coded(failure("this connection's controller is not switchable")))?;
        handle.request(kind).map_err(|e| coded(failure(e)))
    }

    /// Queue one datagram (copied). `false` = the send buffer is full: nothing was queued and
    /// nothing older was dropped; retry after quinn drains it. Throws if the session is closed or
    /// the payload exceeds `maxDatagramSize()`.
    #[napi(catch_unwind)]
    pub fn send_datagram(&self, payload: &[u8]) -> napi::Result<bool, ErrorCode> {
        self.try_queue(Bytes::copy_from_slice(payload))
    }

    /// Queue `count` datagrams packed back to back in `payloads` (datagram i is `lengths[i]` bytes).
    /// Returns how many were queued, in order, stopping at the first that does not fit the send
    /// buffer. Lengths are validated up front, so a bad batch throws before anything is sent.
    /// `queuedAtNs`, if given (≥ count entries), receives for each queued datagram the CLOCK_MONOTONIC
    /// time (ns) it was handed to quinn: the send time as close to the wire as this side can see, on the
    /// same clock as `recvDatagramsTimed`, so whatever delayed the JavaScript caller is not part of it.
    #[napi(catch_unwind)]
    pub fn send_datagram_batch(
        &self,
        payloads: &[u8],
        lengths: &[u32],
        count: u32,
        queued_at_ns: Option<&mut [f64]>,
    ) -> napi::Result<u32, ErrorCode> {
        let count = count as usize;
        let total = self.batch_bytes(payloads, lengths, count)?;
        if let Some(stamps) = &queued_at_ns {
            if stamps.len() < count {
                return Err(coded(invalid_arg(format!("queuedAtNs holds {} entries, fewer than count {count}", stamps.len()))));
            }
        }
        let lengths = &lengths[..count];
        self.ensure_open()?;
        // One copy for the whole batch; each datagram is a reference-counted slice of it.
        let packed = Bytes::copy_from_slice(&payloads[..total]);
        let mut stamps = queued_at_ns;
        let mut offset = 0;
        let mut queued = 0u32;
        for &len in lengths {
            let end = offset + len as usize;
            // Read before queueing: once queued, quinn's driver may transmit it (and the peer receive it)
            // before this thread runs again, e.g. when the woken driver preempts it on a busy core.
            let queued_at_ns = monotonic_ns();
            match self.try_queue(packed.slice(offset..end)) {
                Ok(true) => {}
                Ok(false) => break,
                // Report what was queued; the next call surfaces the error (e.g. closed).
                Err(_) if queued > 0 => break,
                Err(error) => return Err(error),
            }
            if let Some(stamps) = stamps.as_deref_mut() {
                stamps[queued as usize] = queued_at_ns;
            }
            offset = end;
            queued += 1;
        }
        Ok(queued)
    }

    /// Queue `count` datagrams (packed as for `sendDatagramBatch`) for the addon's pacer (src/pacer.rs): datagram i
    /// is handed to QUIC at `dueNs[i]` (CLOCK_MONOTONIC ns; up to RELEASE_SPAN_US before it, never before the ones
    /// queued ahead of it, and later than its time only while QUIC's send buffer is full), by the pacer's own thread,
    /// whatever the JavaScript thread is doing then. Returns how many were taken, in order (fewer only when
    /// MAX_WAITING_DATAGRAMS already wait). Their departure stamps come back through `takeDepartures`. Throws as
    /// `sendDatagramBatch` does on a bad batch or a closed session.
    #[napi(catch_unwind)]
    pub fn send_datagrams_at(&self, payloads: &[u8], lengths: &[u32], count: u32, due_ns: &[f64]) -> napi::Result<u32, ErrorCode> {
        let count = count as usize;
        if due_ns.len() < count {
            return Err(coded(invalid_arg(format!("dueNs holds {} entries, fewer than count {count}", due_ns.len()))));
        }
        let total = self.batch_bytes(payloads, lengths, count)?;
        self.ensure_open()?;
        let packed = Bytes::copy_from_slice(&payloads[..total]);
        let mut offset = 0;
        let datagrams = lengths[..count].iter().zip(due_ns).map(|(&len, &due)| {
            let payload = packed.slice(offset..offset + len as usize);
            offset += len as usize;
            (due, payload)
        });
        let send = || -> pacer::SendFn {
            let (inner, received) = (self.inner.clone(), self.received.clone());
            std::sync::Arc::new(move |payload| match queue_datagram(&inner, &received, payload) {
                Ok(true) => Handover::Taken,
                Ok(false) => Handover::Full,
                Err(error) if error.status == ErrorCode::SessionClosed => Handover::Closed,
                Err(_) => Handover::Refused,
            })
        };
        match pacer::enqueue(self.id, send, datagrams) {
            Some(taken) => Ok(taken as u32),
            None => Err(session_closed("the pacer found it closed")),
        }
    }

    /// Moves the departure stamps of paced datagrams the pacer has handed to QUIC since the last call into
    /// `sentAtNs`, in the order they were queued (CLOCK_MONOTONIC ns, read just before QUIC took each; NaN for one QUIC
    /// refused for good, e.g. larger than the path now allows); returns how many (at most `sentAtNs.length`).
    #[napi(catch_unwind, ts_args_type = "sentAtNs: Float64Array")]
    pub fn take_departures(&self, sent_at_ns: StampsOut<'_>) -> u32 {
        pacer::take_departures(self.id, sent_at_ns) as u32
    }

    /// Drops the paced datagrams still waiting for their time (they are never sent); returns how many.
    #[napi(catch_unwind)]
    pub fn discard_paced(&self) -> u32 {
        pacer::discard(self.id) as u32
    }

    /// Paced datagrams waiting for their time (dropped once the session has closed).
    #[napi(getter)]
    pub fn paced_waiting(&self) -> u32 {
        pacer::waiting(self.id) as u32
    }

    /// Resolves with 1..max datagrams as soon as at least one is available; [] once the session is closed.
    #[napi(ts_return_type = "Promise<Buffer[]>")]
    pub async fn recv_datagrams(&self, max: u32) -> napi::Result<Vec<Buffer>> {
        Ok(self.recv_batch(max).await?.datagrams)
    }

    /// Like `recvDatagrams`, with each datagram's receive time (`receivedAtNs[i]`, CLOCK_MONOTONIC, taken on
    /// the runtime thread as quinn handed it over, whatever the JavaScript thread was doing then; a batch
    /// taken late keeps its datagrams' earlier times). Empty `datagrams` once the session is closed.
    #[napi]
    pub async fn recv_datagrams_timed(&self, max: u32) -> napi::Result<TimedDatagrams> {
        self.recv_batch(max).await
    }

    /// Like `recvDatagramsTimed`, but one Buffer for the whole batch (fewer JS objects at high rates):
    /// resolves with ≥ 1 datagram and at most `max`, stopping before a datagram that would take it past
    /// `maxBytes` (only a first datagram larger than `maxBytes` exceeds it). Empty once the session is closed.
    #[napi]
    pub async fn recv_datagrams_packed(&self, max: u32, max_bytes: u32) -> napi::Result<PackedDatagrams> {
        check_recv_max(max)?;
        if max_bytes == 0 {
            return Err(invalid_arg("maxBytes must be positive"));
        }
        let batch = self.received.next_batch(max as usize, max_bytes as usize).await;
        Ok(PackedDatagrams::of(&batch))
    }

    /// Calls `onBatch(count, packed)` on the JavaScript thread with every datagram that waits (however many arrived
    /// since the last call: one call per turn of the event loop at most, and no promise, task, Buffer or object per
    /// batch or datagram): `packed` is one ArrayBuffer laid out as `PackedBatch` says; once the session has ended and
    /// every datagram was handed over, `onBatch(0, null)`. A session has one such reader: a second call throws, and
    /// `recvDatagrams*` must not be used beside it. An exception thrown by `onBatch` is the process's uncaught
    /// exception.
    #[napi(ts_args_type = "onBatch: (count: number, packed: ArrayBuffer | null) => void")]
    pub fn on_datagrams(&self, on_batch: Function<'_, FnArgs<(u32, Option<PackedBatch>)>, ()>) -> napi::Result<()> {
        let queue = Arc::downgrade(&self.received);
        let deliver = on_batch.build_threadsafe_function::<()>().callee_handled::<false>().build_callback(
            move |_| {
                // The session (and its queue) may be gone by the time this runs: then nothing more will come.
                let Some(queue) = queue.upgrade() else { return Ok(FnArgs::from((0, None))) };
                let (taken, released) = queue.take_all();
                // Let go here, on the JavaScript thread, after the last call was queued: the handle no longer keeps
                // the process alive.
                drop(released);
                if taken.ended {
                    return Ok(FnArgs::from((0, None)));
                }
                Ok(FnArgs::from((taken.datagrams.len() as u32, Some(PackedBatch(taken.datagrams)))))
            },
        )?;
        let deliver = Arc::new(deliver);
        self.received
            .listen(Arc::new(move || {
                _ = deliver.call((), ThreadsafeFunctionCallMode::NonBlocking);
            }))
            .map_err(invalid_arg)
    }

    /// The next stream the peer opens; null once the session is closed.
    #[napi]
    pub async fn accept_bi(&self) -> napi::Result<Option<BiStream>> {
        match self.inner.accept_bi().await {
            Ok((send, recv)) => Ok(Some(BiStream::new(send, recv))),
            Err(_) => Ok(None),
        }
    }

    #[napi]
    pub async fn open_bi(&self) -> napi::Result<BiStream> {
        // A promise's rejection is status-coded (napi's futures take no other error): the message says it.
        let (send, recv) = self.inner.open_bi().await.map_err(|e| uncoded(session_closed(e)))?;
        Ok(BiStream::new(send, recv))
    }

    #[napi(catch_unwind)]
    pub fn stats(&self) -> SessionStats {
        let active = self.congestion.as_ref().map_or(CongestionKind::None, CongestionHandle::active);
        SessionStats::of(&self.inner, active, self.received.dropped())
    }

    /// Close with an application code and reason (≤ 1024 bytes); pending calls settle: receives
    /// resolve []/null, opens and writes reject. The peer sees the code and reason, from the
    /// capsule or, when that is lost or read too late, from the QUIC CONNECTION_CLOSE.
    #[napi(catch_unwind)]
    pub fn close(&self, code: u32, reason: String) -> napi::Result<()> {
        if reason.len() > MAX_CLOSE_REASON_BYTES {
            return Err(invalid_arg(format!(
                "close reason is {} bytes; at most {MAX_CLOSE_REASON_BYTES} are allowed",
                reason.len()
            )));
        }
        close_session(&self.inner, &self.local_close, code, reason);
        Ok(())
    }

    /// What the peer may send as datagrams (see InboundDatagramLimits), from the session's start: a datagram of another
    /// type, or one beyond the budget, closes the session with `closeCode` and a reason before it reaches JavaScript.
    #[napi(catch_unwind)]
    pub fn limit_inbound_datagrams(&self, limits: InboundDatagramLimits) -> napi::Result<()> {
        // Datagrams that arrived before the limits (between the CONNECT and this call) are checked too.
        let gate = InboundGate::new(limits, self.started_ns).map_err(invalid_arg)?;
        if let Some(violation) = self.received.set_limits(gate, monotonic_ns()) {
            close_session(&self.inner, &self.local_close, violation.code, violation.reason);
        }
        Ok(())
    }

    /// The code and reason this side closed the session with (`close()`, or a datagram over its inbound limits);
    /// null while open or when the peer closed it.
    #[napi(getter)]
    pub fn local_close(&self) -> Option<CloseInfo> {
        self.local_close.get().cloned()
    }

    /// Resolves when the session has ended, with the code and reason of whichever side closed it.
    #[napi]
    pub async fn closed(&self) -> CloseInfo {
        let error = self.inner.closed().await;
        let conn: &quinn::Connection = &self.inner;
        close_info_from(&error, self.local_close.get(), conn.close_reason())
    }
}

fn check_recv_max(max: u32) -> napi::Result<()> {
    if max == 0 || max > MAX_RECV_BATCH {
        return Err(invalid_arg(format!("max must be between 1 and {MAX_RECV_BATCH}, got {max}")));
    }
    Ok(())
}

/// Records this side's close and closes: the CLOSE_WEBTRANSPORT_SESSION capsule (inside the runtime web-transport-quinn
/// writes it before the QUIC close, so browsers see the code and reason), then the QUIC connection with the same.
fn close_session(inner: &web_transport_quinn::Session, local_close: &OnceLock<CloseInfo>, code: u32, reason: String) {
    let _ = local_close.set(CloseInfo { code, reason: reason.clone() });
    let conn: quinn::Connection = (**inner).clone();
    napi::bindgen_prelude::within_runtime_if_available(|| inner.close(code, reason.as_bytes()));
    napi::bindgen_prelude::spawn(close_connection_after_capsule(conn, code, reason));
}

/// web-transport-quinn's own close writes the capsule, then waits for the peer to close the connection (it has read
/// the capsule) and after max(3 RTT, FORCED_CLOSE_FLOOR) closes it with an empty reason. This closes it first, with the
/// code and reason, after half that wait: a peer too busy to answer the capsule in time (handshake floods) then still
/// reads the reason in the connection close, while one that answers in time closes first, having read the capsule.
/// Closing any sooner could overtake the capsule itself.
const FORCED_CLOSE_FLOOR: Duration = Duration::from_millis(100);

/// Closes the QUIC connection with the session's code (in HTTP/3's space) and reason unless the peer closed it first.
async fn close_connection_after_capsule(conn: quinn::Connection, code: u32, reason: String) {
    let wait = (conn.rtt() * 3).max(FORCED_CLOSE_FLOOR) / 2;
    let _ = tokio::time::timeout(wait, conn.closed()).await;
    let http3_code = quinn::VarInt::try_from(web_transport_quinn::proto::error_to_http3(code)).unwrap_or(quinn::VarInt::MAX);
    // The first close of a connection wins; after the peer's this does nothing.
    conn.close(http3_code, reason.as_bytes());
}

impl Session {
    async fn recv_batch(&self, max: u32) -> napi::Result<TimedDatagrams> {
        check_recv_max(max)?;
        let batch = self.received.next_batch(max as usize, usize::MAX).await;
        let received_at_ns = batch.iter().map(|d| d.received_at_ns).collect::<Vec<f64>>();
        let datagrams = batch.into_iter().map(|d| Buffer::from(Vec::from(d.payload))).collect();
        Ok(TimedDatagrams { datagrams, received_at_ns: Float64Array::new(received_at_ns) })
    }
}

// The reading task holds a handle on the connection: a collected session must not stay open through it.
impl Drop for Session {
    fn drop(&mut self) {
        self.reader.abort();
        pacer::forget(self.id);
    }
}
