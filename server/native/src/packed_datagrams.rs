//! Received datagrams as JavaScript gets them: one Buffer for the whole batch, their lengths and receive stamps.

use napi::bindgen_prelude::{Buffer, Float64Array, ToNapiValue, Uint32Array};
use napi::{check_status, sys};
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

/// A pushed batch as one plain ArrayBuffer, for `Session.onDatagrams`: the `count` receive stamps (f64, ns) first,
/// then the `count` lengths (u32), then the payloads back to back (native byte order; JavaScript views it in place,
/// see server/src/datagram/packed-datagrams.ts). The `PackedDatagrams` object cost the receiving thread, per batch,
/// an external Buffer (finalizer, private symbol, prototype switch), two external typed arrays and three property
/// names: 17 % of the Node client's JavaScript thread at ~1 datagram per batch. A V8-owned ArrayBuffer has none of it.
pub struct PackedBatch(pub Vec<ReceivedDatagram>);

/// Bytes before the payloads in a `PackedBatch` of `count` datagrams.
pub const fn packed_batch_header_bytes(count: usize) -> usize {
    count * (std::mem::size_of::<f64>() + std::mem::size_of::<u32>())
}

impl PackedBatch {
    /// Writes the layout above into `out`, which is exactly `packed_batch_header_bytes(count) + payload bytes` long.
    fn write_into(&self, out: &mut [u8]) {
        let count = self.0.len();
        let (stamps, rest) = out.split_at_mut(count * 8);
        let (lengths, payloads) = rest.split_at_mut(count * 4);
        let mut at = 0;
        for (i, datagram) in self.0.iter().enumerate() {
            stamps[i * 8..i * 8 + 8].copy_from_slice(&datagram.received_at_ns.to_ne_bytes());
            lengths[i * 4..i * 4 + 4].copy_from_slice(&(datagram.payload.len() as u32).to_ne_bytes());
            payloads[at..at + datagram.payload.len()].copy_from_slice(&datagram.payload);
            at += datagram.payload.len();
        }
    }
}

impl ToNapiValue for PackedBatch {
    unsafe fn to_napi_value(env: sys::napi_env, batch: Self) -> napi::Result<sys::napi_value> {
        let size = packed_batch_header_bytes(batch.0.len()) + batch.0.iter().map(|d| d.payload.len()).sum::<usize>();
        let mut data = std::ptr::null_mut();
        let mut value = std::ptr::null_mut();
        // SAFETY: napi hands back `size` writable bytes owned by the new ArrayBuffer (null only when size is 0), filled
        // here before JavaScript can see the buffer.
        unsafe {
            check_status!(sys::napi_create_arraybuffer(env, size, &mut data, &mut value), "creating a datagram batch")?;
            if size > 0 {
                batch.write_into(std::slice::from_raw_parts_mut(data.cast::<u8>(), size));
            }
        }
        Ok(value)
    }
}
