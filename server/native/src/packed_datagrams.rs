//! Received datagrams as JavaScript gets them: one Buffer for the whole batch, their lengths and receive stamps.

use napi::bindgen_prelude::{Buffer, Float64Array, Uint32Array};
use napi_derive::napi;

use crate::recv_queue::ReceivedDatagram;

/// Datagrams packed back to back: datagram i is `lengths[i]` bytes of `data`, taken off the connection at
/// `received_at_ns[i]` (as in `TimedDatagrams`). One Buffer and two arrays per batch, whatever its size: a Buffer per
/// datagram cost the receiving JavaScript thread an external allocation, a copy and a finalizer each.
#[napi(object)]
pub struct PackedDatagrams {
    pub data: Buffer,
    pub lengths: Uint32Array,
    pub received_at_ns: Float64Array,
}

impl PackedDatagrams {
    pub fn of(batch: &[ReceivedDatagram]) -> Self {
        let mut data: Vec<u8> = Vec::with_capacity(batch.iter().map(|d| d.payload.len()).sum());
        let mut lengths: Vec<u32> = Vec::with_capacity(batch.len());
        let mut received_at_ns: Vec<f64> = Vec::with_capacity(batch.len());
        for datagram in batch {
            data.extend_from_slice(&datagram.payload);
            lengths.push(datagram.payload.len() as u32);
            received_at_ns.push(datagram.received_at_ns);
        }
        Self { data: Buffer::from(data), lengths: Uint32Array::new(lengths), received_at_ns: Float64Array::new(received_at_ns) }
    }
}
