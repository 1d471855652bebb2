//! Polling a quinn future exactly once, to get a non-blocking variant of an async operation.
//!
//! quinn offers `send_datagram` (drops the OLDEST queued datagram when the buffer is full, with no
//! loss signal) and `send_datagram_wait` (waits for space). Polling the waiting variant once and
//! dropping it when it is pending gives "queue it or tell me it does not fit", atomically under
//! quinn's connection lock. Likewise `read_datagram` polled once is a `try_read`.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// `Some(output)` if the future completed on its first poll, `None` if it would have waited.
pub fn poll_once<F: Future>(future: F) -> Option<F::Output> {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    match future.as_mut().poll(&mut context) {
        Poll::Ready(output) => Some(output),
        Poll::Pending => None,
    }
}
