//! A session's received datagrams, each dated when quinn handed it over.
//!
//! One task per session reads the connection continuously and stamps every datagram (CLOCK_MONOTONIC, the clock
//! of Node's `process.hrtime`) as it takes it, into a queue that JavaScript empties when its event loop gets to it.
//! Reading only when JavaScript asked would date every datagram that waited in quinn meanwhile by that later
//! call: the receiver's ACK delay and receive times, and so the sender's RTT samples and delivery rates, would
//! carry the event loop's wait.
//!
//! The queue replaces quinn's own receive buffer (which this task keeps empty, and which gets headroom beyond this
//! bound, `QUINN_RECV_HEADROOM_BYTES`, so that a task scheduled late loses nothing uncounted), so it keeps that buffer's bound
//! and policy: at most `datagramRecvBufferBytes` of payload and `MAX_QUEUED_DATAGRAMS` datagrams, dropping the
//! OLDEST to make room, counted in `dropped()`. Dropping the oldest is what quinn did before, and the better loss
//! for both directions: the newest ACK carries the newest ranges (older ones are mostly repeated in it), and a
//! reader that fell behind gets the freshest DATA, whose ages still make good RTT samples.
//!
//! The peer's inbound limits (inbound_limits.rs), once set, are checked under the same lock as the datagram is queued:
//! one lock per datagram, and a gate set while datagrams wait counts each of them exactly once.
//!
//! JavaScript takes datagrams either by asking (`next_batch`, a promise per batch) or by being told (`listen`): the
//! listener is woken once when datagrams wait and nobody has said so yet, and `take_all` (on the JavaScript thread)
//! takes everything and re-arms it, under one lock: a datagram pushed after the take wakes it again, one pushed
//! before is in the take, so none is missed or handed over twice, and a burst costs one wake-up.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use tokio::sync::Notify;
use tokio::task::AbortHandle;
use web_transport_quinn::{SessionError, WebTransportError};

use crate::inbound_limits::{InboundGate, SentDatagrams, Violation};

/// Bounds the per-datagram bookkeeping of a flood of tiny datagrams, which a byte bound alone would not: at
/// 1,452 B each this is 23 MB, more than the largest receive buffer our endpoints configure (16 MiB).
pub const MAX_QUEUED_DATAGRAMS: usize = 16_384;

pub use crate::clock::monotonic_ns;

pub struct ReceivedDatagram {
    pub payload: Bytes,
    /// When the reading task took it from quinn, ns of CLOCK_MONOTONIC.
    pub received_at_ns: f64,
}

#[derive(Default)]
struct State {
    queue: VecDeque<ReceivedDatagram>,
    queued_bytes: usize,
    /// The connection is closed and quinn has nothing more to hand over.
    ended: bool,
    dropped: u64,
    /// What the peer may send, once the application has said (a client's sessions never do).
    gate: Option<InboundGate>,
    /// Told when datagrams (or the end) wait; `signalled` while a wake-up is on its way and not yet taken.
    listener: Option<Listener>,
    signalled: bool,
}

/// What `listen` registers: called (on a runtime thread, without the lock) when datagrams or the end wait.
pub type Listener = Arc<dyn Fn() + Send + Sync>;

/// What `take_all` found: every waiting datagram, oldest first, and whether the connection has ended with nothing left.
pub struct Taken {
    pub datagrams: Vec<ReceivedDatagram>,
    pub ended: bool,
}

pub struct RecvQueue {
    state: Mutex<State>,
    ready: Notify,
    max_bytes: usize,
    max_datagrams: usize,
    /// This side's datagrams, which the gate's budget grows with.
    sent: SentDatagrams,
}

/// Datagrams carrying another session's id are dropped (read_datagram reports them as errors).
fn is_foreign_datagram(error: &SessionError) -> bool {
    matches!(error, SessionError::WebTransportError(WebTransportError::UnknownSession))
}

impl RecvQueue {
    pub fn new(max_bytes: usize, max_datagrams: usize) -> Self {
        Self {
            state: Mutex::new(State::default()),
            ready: Notify::new(),
            max_bytes,
            max_datagrams: max_datagrams.max(1),
            sent: SentDatagrams::default(),
        }
    }

    /// Starts the session's reading task (call inside the runtime); abort the returned handle when the session goes,
    /// or the task's handle on the connection keeps it open.
    /// A datagram over the inbound limits ends the reading there, not queued: `on_violation` closes the session.
    pub fn start(
        session: web_transport_quinn::Session,
        max_bytes: usize,
        on_violation: impl FnOnce(Violation) + Send + 'static,
    ) -> (Arc<Self>, AbortHandle) {
        let queue = Arc::new(Self::new(max_bytes, MAX_QUEUED_DATAGRAMS));
        let reader = queue.clone();
        let task = napi::bindgen_prelude::spawn(async move {
            loop {
                match session.read_datagram().await {
                    Ok(payload) => {
                        if let Err(violation) = reader.push(payload, monotonic_ns()) {
                            on_violation(violation);
                            break;
                        }
                    }
                    Err(error) if is_foreign_datagram(&error) => continue,
                    // quinn hands over what it buffered before reporting the close, so nothing is left behind.
                    Err(_) => break,
                }
            }
            reader.end();
        });
        (queue, task.abort_handle())
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves consistent state (every update is a few plain field writes).
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Queues a datagram that the inbound limits, if set, admit; one they refuse is left out and its violation returned.
    pub fn push(&self, payload: Bytes, received_at_ns: f64) -> Result<(), Violation> {
        let wake = {
            let mut state = self.lock();
            if let Some(gate) = state.gate.as_mut() {
                gate.admit(&payload, self.sent.get(), received_at_ns)?;
            }
            state.queued_bytes += payload.len();
            state.queue.push_back(ReceivedDatagram { payload, received_at_ns });
            while state.queue.len() > self.max_datagrams || (state.queued_bytes > self.max_bytes && state.queue.len() > 1) {
                let Some(oldest) = state.queue.pop_front() else { break };
                state.queued_bytes -= oldest.payload.len();
                state.dropped += 1;
            }
            Self::signal(&mut state)
        };
        if let Some(listener) = wake {
            listener();
        }
        self.ready.notify_waiters();
        Ok(())
    }

    pub fn end(&self) {
        let wake = {
            let mut state = self.lock();
            state.ended = true;
            Self::signal(&mut state)
        };
        if let Some(listener) = wake {
            listener();
        }
        self.ready.notify_waiters();
    }

    /// The listener to wake (outside the lock), unless there is none or a wake-up is already on its way.
    fn signal(state: &mut State) -> Option<Listener> {
        if state.signalled {
            return None;
        }
        let listener = state.listener.clone()?;
        state.signalled = true;
        Some(listener)
    }

    /// Tells `listener` whenever datagrams or the end wait (at once if they already do), until `take_all` reports the
    /// end. Err if a listener was already registered (one reader per session: two would split its datagrams).
    pub fn listen(&self, listener: Listener) -> Result<(), &'static str> {
        let wake = {
            let mut state = self.lock();
            if state.listener.is_some() {
                return Err("datagrams already have a listener");
            }
            state.listener = Some(listener);
            if state.queue.is_empty() && !state.ended {
                None
            } else {
                Self::signal(&mut state)
            }
        };
        if let Some(listener) = wake {
            listener();
        }
        Ok(())
    }

    /// Takes every waiting datagram and re-arms the listener. The end is reported by a take that finds nothing left
    /// (`ended`, and the listener is let go: returned, so the caller drops it where that is safe); a take that finds
    /// the last datagrams of an ended connection wakes the listener once more for it.
    pub fn take_all(&self) -> (Taken, Option<Listener>) {
        let (taken, released, wake) = {
            let mut state = self.lock();
            let datagrams = Self::take(&mut state, usize::MAX, usize::MAX);
            state.signalled = false;
            let ended = state.ended && datagrams.is_empty();
            let released = if ended { state.listener.take() } else { None };
            let wake = if state.ended && !ended { Self::signal(&mut state) } else { None };
            (Taken { datagrams, ended }, released, wake)
        };
        if let Some(listener) = wake {
            listener();
        }
        (taken, released)
    }

    /// Counts datagrams this side sent (the inbound budget grows with them).
    pub fn count_sent(&self, datagrams: u64) {
        self.sent.add(datagrams);
    }

    /// Applies `gate` (replacing an earlier one) to the datagrams that arrived before it and still wait, and to every
    /// later one. Some(violation): those that wait already broke it (the caller closes the session).
    pub fn set_limits(&self, mut gate: InboundGate, now_ns: f64) -> Option<Violation> {
        let mut state = self.lock();
        let sent = self.sent.get();
        let violation = state.queue.iter().find_map(|d| gate.admit(&d.payload, sent, now_ns).err());
        state.gate = Some(gate);
        violation
    }

    /// Datagrams dropped unread because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.lock().dropped
    }

    /// Waits for at least one datagram, then takes up to `max` oldest first, stopping before one that would take
    /// the batch's payload past `max_bytes` (the first is always taken). Empty once the connection has ended and
    /// every datagram was taken.
    pub async fn next_batch(&self, max: usize, max_bytes: usize) -> Vec<ReceivedDatagram> {
        loop {
            // Registered before looking, so a push between the look and the wait still wakes this reader.
            let notified = self.ready.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            {
                let mut state = self.lock();
                if !state.queue.is_empty() {
                    return Self::take(&mut state, max, max_bytes);
                }
                if state.ended {
                    return Vec::new();
                }
            }
            notified.await;
        }
    }

    fn take(state: &mut State, max: usize, max_bytes: usize) -> Vec<ReceivedDatagram> {
        let mut batch = Vec::new();
        let mut bytes = 0usize;
        while batch.len() < max {
            let Some(next) = state.queue.front() else { break };
            let len = next.payload.len();
            if !batch.is_empty() && bytes + len > max_bytes {
                break;
            }
            let Some(datagram) = state.queue.pop_front() else { break };
            bytes += len;
            state.queued_bytes -= len;
            batch.push(datagram);
        }
        batch
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbound_limits::InboundDatagramLimits;

    fn datagram(len: usize, tag: u8) -> Bytes {
        Bytes::from(vec![tag; len])
    }

    fn take_now(queue: &RecvQueue, max: usize, max_bytes: usize) -> Vec<ReceivedDatagram> {
        crate::poll_once::poll_once(queue.next_batch(max, max_bytes)).expect("datagrams are queued")
    }

    fn counting_listener() -> (Listener, Arc<std::sync::atomic::AtomicUsize>) {
        let wakes = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = wakes.clone();
        (Arc::new(move || _ = counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst)), wakes)
    }

    fn wakes(counter: &std::sync::atomic::AtomicUsize) -> usize {
        counter.load(std::sync::atomic::Ordering::SeqCst)
    }

    #[test]
    fn a_listener_is_woken_once_per_burst_and_every_datagram_is_taken_once_in_order() {
        let queue = RecvQueue::new(1 << 20, 64);
        let (listener, woken) = counting_listener();
        queue.listen(listener).unwrap();
        assert_eq!(wakes(&woken), 0, "nothing waits yet");
        for tag in 0..3u8 {
            queue.push(datagram(10, tag), f64::from(tag)).unwrap();
        }
        assert_eq!(wakes(&woken), 1, "one wake-up for the burst");
        let (taken, released) = queue.take_all();
        assert!(!taken.ended && released.is_none());
        assert_eq!(taken.datagrams.iter().map(|d| d.payload[0]).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert_eq!(taken.datagrams.iter().map(|d| d.received_at_ns).collect::<Vec<_>>(), vec![0.0, 1.0, 2.0]);
        // Taken: the next datagram wakes it again, and the take holds only what came after.
        queue.push(datagram(10, 3), 3.0).unwrap();
        assert_eq!(wakes(&woken), 2);
        let (taken, _) = queue.take_all();
        assert_eq!(taken.datagrams.iter().map(|d| d.payload[0]).collect::<Vec<_>>(), vec![3]);
        let (empty, _) = queue.take_all();
        assert!(empty.datagrams.is_empty() && !empty.ended);
    }

    #[test]
    fn a_listener_learns_of_datagrams_that_waited_and_of_the_end_after_the_last_one() {
        let queue = RecvQueue::new(1 << 20, 64);
        queue.push(datagram(10, 7), 0.0).unwrap();
        let (listener, woken) = counting_listener();
        queue.listen(listener).unwrap();
        assert_eq!(wakes(&woken), 1, "woken at once for what already waits");
        let (second, _) = counting_listener();
        assert_eq!(queue.listen(second).err(), Some("datagrams already have a listener"));
        // The end while a wake-up is on its way: that wake-up's take hands over the datagram, and asks for one more
        // wake-up, whose take reports the end.
        queue.end();
        assert_eq!(wakes(&woken), 1);
        let (taken, released) = queue.take_all();
        assert_eq!(taken.datagrams.len(), 1);
        assert!(!taken.ended && released.is_none());
        assert_eq!(wakes(&woken), 2, "woken again for the end");
        let (last, released) = queue.take_all();
        assert!(last.datagrams.is_empty() && last.ended && released.is_some(), "ended with nothing left: the listener is let go");
        queue.end();
        assert_eq!(wakes(&woken), 2, "let go: never woken again");
    }

    #[test]
    fn the_end_alone_wakes_the_listener() {
        let queue = RecvQueue::new(1 << 20, 64);
        let (listener, woken) = counting_listener();
        queue.listen(listener).unwrap();
        queue.end();
        assert_eq!(wakes(&woken), 1);
        let (taken, released) = queue.take_all();
        assert!(taken.datagrams.is_empty() && taken.ended && released.is_some());
    }

    #[test]
    fn a_batch_taken_late_keeps_each_datagram_s_own_arrival_time() {
        let queue = RecvQueue::new(1 << 20, 64);
        queue.push(datagram(10, 1), 1_000.0).unwrap();
        queue.push(datagram(10, 2), 2_000.0).unwrap();
        queue.push(datagram(10, 3), 3_000.0).unwrap();
        let batch = take_now(&queue, 16, usize::MAX);
        let stamps: Vec<f64> = batch.iter().map(|d| d.received_at_ns).collect();
        assert_eq!(stamps, vec![1_000.0, 2_000.0, 3_000.0]);
        assert_eq!(batch.iter().map(|d| d.payload[0]).collect::<Vec<_>>(), vec![1, 2, 3]);
    }

    #[test]
    fn a_full_queue_drops_the_oldest_and_counts_them() {
        // 3 datagrams of 100 B fit 350 B; the count bound is 4.
        let queue = RecvQueue::new(350, 4);
        for tag in 0..5u8 {
            queue.push(datagram(100, tag), f64::from(tag)).unwrap();
        }
        assert_eq!(queue.dropped(), 2);
        let kept: Vec<u8> = take_now(&queue, 16, usize::MAX).iter().map(|d| d.payload[0]).collect();
        assert_eq!(kept, vec![2, 3, 4]);

        let by_count = RecvQueue::new(1 << 20, 4);
        for tag in 0..6u8 {
            by_count.push(datagram(1, tag), 0.0).unwrap();
        }
        assert_eq!(by_count.dropped(), 2);
        assert_eq!(take_now(&by_count, 16, usize::MAX).len(), 4);
    }

    #[test]
    fn a_datagram_larger_than_the_bound_is_still_delivered() {
        let queue = RecvQueue::new(100, 4);
        queue.push(datagram(500, 7), 0.0).unwrap();
        assert_eq!(queue.dropped(), 0);
        assert_eq!(take_now(&queue, 1, usize::MAX)[0].payload.len(), 500);
    }

    #[test]
    fn batches_respect_max_and_max_bytes_and_always_carry_one() {
        let queue = RecvQueue::new(1 << 20, 64);
        for tag in 0..5u8 {
            queue.push(datagram(100, tag), 0.0).unwrap();
        }
        assert_eq!(take_now(&queue, 2, usize::MAX).len(), 2);
        assert_eq!(take_now(&queue, 16, 250).len(), 2);
        assert_eq!(take_now(&queue, 16, 50).len(), 1, "the first datagram goes even past max_bytes");
        assert!(crate::poll_once::poll_once(queue.next_batch(16, usize::MAX)).is_none(), "empty: the reader waits");
        queue.end();
        assert!(take_now(&queue, 16, usize::MAX).is_empty(), "ended and empty: an empty batch");
    }

    fn ack_limits() -> InboundGate {
        let limits = InboundDatagramLimits { base: 0, per_sent: 1, per_second: 0, allowed_types: vec![2], close_code: 1 };
        InboundGate::new(limits, 0.0).unwrap()
    }

    #[test]
    fn without_limits_everything_is_queued_and_limits_set_later_count_what_waits() {
        let queue = RecvQueue::new(1 << 20, 64);
        queue.push(datagram(1, 0xff), 0.0).unwrap();
        assert_eq!(take_now(&queue, 16, usize::MAX).len(), 1, "no limits yet: any type goes");
        queue.count_sent(3);
        // Two datagrams arrived before the limits and still wait: they count against them.
        queue.push(datagram(1, 2), 0.0).unwrap();
        queue.push(datagram(1, 2), 0.0).unwrap();
        assert_eq!(queue.set_limits(ack_limits(), 0.0), None);
        queue.push(datagram(1, 2), 0.0).unwrap();
        let flood = queue.push(datagram(1, 2), 0.0).unwrap_err();
        assert!(flood.reason.starts_with("datagram flood: 4 datagrams for 3 sent"), "{}", flood.reason);
        assert_eq!(take_now(&queue, 16, usize::MAX).len(), 3, "the refused datagram is not queued");
        assert_eq!(queue.push(datagram(1, 9), 0.0).unwrap_err().reason, "datagram of type 0x09 (types accepted: 0x02)");
    }

    #[test]
    fn a_datagram_that_waited_and_breaks_limits_set_later_is_reported_at_once() {
        let queue = RecvQueue::new(1 << 20, 64);
        queue.push(datagram(1, 9), 0.0).unwrap();
        let violation = queue.set_limits(ack_limits(), 0.0).expect("the waiting datagram breaks them");
        assert_eq!(violation.reason, "datagram of type 0x09 (types accepted: 0x02)");
    }
}
