//! The addon-side pacer (the origin's `--pacer addon`): JavaScript hands over datagrams with the times they are due to
//! leave (CLOCK_MONOTONIC ns, a few ms ahead), and one thread of the addon, `pcc-pacer`, hands each to QUIC at its time.
//! A JavaScript turn that runs late (its event loop descheduled on a busy machine) then delays no departure it had
//! already scheduled. The thread sleeps on a futex with a high-resolution timeout (tokio's timers tick in whole ms,
//! and a worker that slept would hold up the connection drivers it shares with), and records when QUIC took each
//! datagram, for JavaScript to collect (`takeDepartures`): the send times its controller is told are real departures.

use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use bytes::Bytes;

use crate::recv_queue::monotonic_ns;

/// A datagram goes up to this much before its time: one wake-up sends every datagram due within it, and a futex
/// wait's own timer slack (~50 µs) does not cost a second wake-up. At 100 Mbit/s that is one or two datagrams.
pub const RELEASE_EARLY_NS: f64 = 100_000.0;
/// QUIC's send buffer was full: the front datagram is tried again this much later (its driver drains the buffer).
const BACKPRESSURE_RETRY_NS: f64 = 300_000.0;
/// Datagrams a session may have waiting: far more than a look-ahead of a few ms holds at any rate served; beyond it
/// `enqueue` takes fewer (JavaScript keeps the rest, as it does those a full send buffer refused).
pub const MAX_WAITING_DATAGRAMS: usize = 4096;

/// What became of one datagram handed to QUIC.
pub enum Handover {
    Taken,
    /// The send buffer is full: not queued, nothing dropped.
    Full,
    /// QUIC refused it for good (larger than the path now allows, or the peer takes no datagrams): never sent.
    Refused,
    Closed,
}

pub type SendFn = Box<dyn FnMut(Bytes) -> Handover + Send>;

struct SessionQueue {
    send: SendFn,
    /// (due ns, payload), in the order handed over; released in that order, each not before its time less RELEASE_EARLY_NS.
    waiting: VecDeque<(f64, Bytes)>,
    /// When QUIC took each released datagram (ns; NaN for one it refused), in release order, until JavaScript takes them.
    departures: VecDeque<f64>,
    retry_at_ns: f64,
    closed: bool,
}

impl SessionQueue {
    /// Hands over what is due at `now`; returns when this queue next needs the thread (ns), or infinity.
    fn release(&mut self, now: f64) -> f64 {
        if self.closed {
            return f64::INFINITY;
        }
        if now < self.retry_at_ns {
            return self.retry_at_ns;
        }
        while let Some(&(due, _)) = self.waiting.front() {
            if due > now + RELEASE_EARLY_NS {
                return due - RELEASE_EARLY_NS;
            }
            let Some((due, payload)) = self.waiting.pop_front() else { break };
            // Read before queueing, as Session.sendDatagramBatch does: once queued the driver may send it at once.
            let at = monotonic_ns();
            match (self.send)(payload.clone()) {
                Handover::Taken => self.departures.push_back(at),
                Handover::Refused => self.departures.push_back(f64::NAN),
                Handover::Full => {
                    self.waiting.push_front((due, payload));
                    self.retry_at_ns = now + BACKPRESSURE_RETRY_NS;
                    return self.retry_at_ns;
                }
                Handover::Closed => {
                    self.closed = true;
                    self.waiting.clear();
                    return f64::INFINITY;
                }
            }
        }
        f64::INFINITY
    }
}

#[derive(Default)]
struct State {
    queues: HashMap<u32, SessionQueue>,
    thread_started: bool,
}

struct Pacer {
    state: Mutex<State>,
    wake: Condvar,
}

static PACER: OnceLock<Pacer> = OnceLock::new();

fn pacer() -> &'static Pacer {
    PACER.get_or_init(|| Pacer { state: Mutex::new(State::default()), wake: Condvar::new() })
}

fn lock() -> MutexGuard<'static, State> {
    // Nothing here leaves the state half-changed across a panic: a poisoned lock's state is still consistent.
    pacer().state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn run() {
    let pacer = pacer();
    let mut state = lock();
    loop {
        let now = monotonic_ns();
        let next = state.queues.values_mut().map(|queue| queue.release(now)).fold(f64::INFINITY, f64::min);
        state = if next.is_finite() {
            let wait = Duration::from_nanos((next - monotonic_ns()).max(0.0) as u64);
            pacer.wake.wait_timeout(state, wait).unwrap_or_else(|poisoned| poisoned.into_inner()).0
        } else {
            pacer.wake.wait(state).unwrap_or_else(|poisoned| poisoned.into_inner())
        };
    }
}

/// Queues `datagrams` (due ns, payload) of session `id` behind the ones it has waiting; returns how many were taken
/// (fewer once MAX_WAITING_DATAGRAMS wait), or None when the pacer has seen the session closed. `send` hands one
/// datagram to the session's QUIC connection; it is kept from the session's first call.
pub fn enqueue(id: u32, send: impl FnOnce() -> SendFn, datagrams: impl Iterator<Item = (f64, Bytes)>) -> Option<usize> {
    let mut state = lock();
    if !state.thread_started {
        std::thread::Builder::new().name("pcc-pacer".into()).spawn(run).ok()?;
        state.thread_started = true;
    }
    let queue = state.queues.entry(id).or_insert_with(|| SessionQueue {
        send: send(),
        waiting: VecDeque::new(),
        departures: VecDeque::new(),
        retry_at_ns: 0.0,
        closed: false,
    });
    if queue.closed {
        return None;
    }
    let room = MAX_WAITING_DATAGRAMS.saturating_sub(queue.waiting.len());
    let before = queue.waiting.len();
    queue.waiting.extend(datagrams.take(room));
    let taken = queue.waiting.len() - before;
    drop(state);
    pacer().wake.notify_one();
    Some(taken)
}

/// Moves the departure stamps of session `id`'s released datagrams, oldest first, into `out`; returns how many.
pub fn take_departures(id: u32, out: &mut [f64]) -> usize {
    let mut state = lock();
    let Some(queue) = state.queues.get_mut(&id) else { return 0 };
    let count = out.len().min(queue.departures.len());
    for (slot, stamp) in out.iter_mut().zip(queue.departures.drain(..count)) {
        *slot = stamp;
    }
    count
}

/// Drops session `id`'s datagrams still waiting (never sent); returns how many.
pub fn discard(id: u32) -> usize {
    let mut state = lock();
    state.queues.get_mut(&id).map_or(0, |queue| std::mem::take(&mut queue.waiting).len())
}

/// Datagrams of session `id` waiting for their time.
pub fn waiting(id: u32) -> usize {
    lock().queues.get(&id).map_or(0, |queue| queue.waiting.len())
}

/// Forgets session `id` (its object was collected): what still waits is dropped with it.
pub fn forget(id: u32) {
    lock().queues.remove(&id);
}
