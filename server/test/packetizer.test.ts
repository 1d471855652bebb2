// DATA datagrams from request bodies, batching for QUIC, and the backlog of refused datagrams.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DATA_MAX_HEADER_BYTES, MAX_DATAGRAM_BYTES, decodeDataDatagram } from '@pcc-stream/protocol';
import { OutgoingRequest } from '../src/datagram/outgoing-request.ts';
import { MAX_BATCH_PACKETS, Packetizer, type BuiltPacket, type DatagramSink } from '../src/datagram/packetizer.ts';
import { MemoryBodySource } from '../src/media/body-source.ts';

class Numbers {
  next = 0;
  allocatePacketNumber(): number {
    return this.next++;
  }
  get nextPacketNumberBound(): number {
    return this.next;
  }
}

/** Takes the first `accept` datagrams of each batch, as QUIC does when its buffer fills. */
class Sink implements DatagramSink {
  datagrams: Uint8Array[] = [];
  constructor(public accept = Infinity) {}
  sendDatagramBatch(payloads: Uint8Array, lengths: Uint32Array, count: number): number {
    const n = Math.min(count, this.accept);
    let at = 0;
    for (let i = 0; i < n; i++) {
      this.datagrams.push(payloads.slice(at, at + lengths[i]!));
      at += lengths[i]!;
    }
    return n;
  }
}

function request(id: number, fileBytes: number, bodyOffset: number, bodyLength: number): { req: OutgoingRequest; file: Uint8Array } {
  const file = new Uint8Array(fileBytes).map((_, i) => (i * 31 + id) & 0xff);
  return { req: new OutgoingRequest(id, new MemoryBodySource(file), bodyOffset, bodyLength, 0), file };
}

test('a body becomes full-size datagrams and a shorter last one, offsets relative to the body start', () => {
  const p = new Packetizer(1200);
  // Request 7, packet numbers < 64, offsets < 16384: a 1 + 1 + 1 + 2 = 5-byte header, 1195 B of payload.
  const { req, file } = request(7, 10_000, 1000, 5000); // a range request: body = file bytes 1000..5999
  const numbers = new Numbers();
  const sink = new Sink();
  p.startBatch();
  const built: BuiltPacket[] = [];
  for (let b = p.addNext(req, numbers); b; b = p.addNext(req, numbers)) built.push(b);
  assert.equal(p.count, 5);
  assert.deepEqual(built.map((b) => b.packet.bytes), [1200, 1200, 1200, 1200, 5 + 5000 - 4 * 1195]);
  assert.equal(p.send(sink), 5);
  const decoded = sink.datagrams.map((d) => {
    const r = decodeDataDatagram(d);
    assert.ok(r.ok);
    return r.value;
  });
  assert.deepEqual(decoded.map((d) => d.offset), [0, 1195, 2390, 3585, 4780]);
  assert.deepEqual(decoded.map((d) => d.packetNumber), [0, 1, 2, 3, 4]);
  assert.ok(decoded.every((d) => d.requestId === 7));
  const last = decoded[4]!;
  assert.equal(last.payload.byteLength, 220, 'the last fragment carries the rest');
  for (const d of decoded) assert.deepEqual(d.payload, file.subarray(1000 + d.offset, 1000 + d.offset + d.payload.byteLength));
  assert.equal(p.addNext(req, numbers), null);
  assert.equal(numbers.next, 5, 'no number taken when there is nothing to send');
});

test('the datagram size is the path limit capped at the protocol limit; too small is an error', () => {
  assert.equal(new Packetizer(65_000).maxDatagramBytes, MAX_DATAGRAM_BYTES);
  assert.equal(new Packetizer(1000).maxDatagramBytes, 1000);
  assert.throws(() => new Packetizer(DATA_MAX_HEADER_BYTES), /too small/);
});

test('a batch holds at most MAX_BATCH_PACKETS datagrams', () => {
  const p = new Packetizer(1200);
  const { req } = request(1, 1_000_000, 0, 1_000_000);
  const numbers = new Numbers();
  p.startBatch();
  while (!p.full) assert.ok(p.addNext(req, numbers));
  assert.equal(p.count, MAX_BATCH_PACKETS);
  p.startBatch();
  assert.equal(p.count, 0);
});

test('datagrams QUIC refused come back first, byte for byte under their numbers; a cancelled request drops its own', () => {
  const p = new Packetizer(1200);
  const { req: a, file: fileA } = request(1, 20_000, 0, 20_000); // offsets ≥ 16384: a 7-byte header, 1193 B of payload
  const b = request(2, 20_000, 0, 20_000).req;
  const numbers = new Numbers();
  const sink = new Sink(2);
  p.startBatch();
  for (let i = 0; i < 6; i++) p.addNext(i % 2 === 0 ? a : b, numbers);
  const sent: number[] = [];
  const refused: number[] = [];
  p.settle(p.send(sink), (x) => sent.push(x.packet.packetNumber), (x) => refused.push(x.packet.packetNumber));
  assert.deepEqual(sent, [0, 1]);
  assert.deepEqual(refused, [2, 3, 4, 5]);
  assert.equal(p.hasBacklog, true);

  // Other sessions use the same scratch area meanwhile.
  const other = new Packetizer(1200);
  other.startBatch();
  other.addNext(request(9, 5000, 0, 5000).req, new Numbers());

  p.dropRequest(b); // request 2 cancelled: its refused datagrams (3, 5) never go out
  sink.accept = Infinity;
  p.startBatch();
  while (p.addFromBacklog());
  p.addNext(a, numbers);
  p.settle(p.send(sink), () => undefined, () => assert.fail('nothing refused'));
  const resent = sink.datagrams.slice(2).map((d) => {
    const r = decodeDataDatagram(d);
    assert.ok(r.ok);
    return r.value;
  });
  assert.deepEqual(resent.map((d) => [d.requestId, d.packetNumber, d.offset]), [[1, 2, 1193], [1, 4, 2386], [1, 6, 3579]]);
  for (const d of resent) assert.deepEqual(d.payload, fileA.subarray(d.offset, d.offset + d.payload.byteLength));
  assert.equal(p.hasBacklog, false);
});

test('headers grow with the packet number and the body size, and every full datagram stays exactly the path size', () => {
  const p = new Packetizer(1421);
  const numbers = new Numbers();
  numbers.next = 16_380; // packet numbers cross 16 383: their varint grows from 2 to 4 bytes
  const { req } = request(3, 200_000, 0, 200_000); // offsets need 4 bytes
  const sink = new Sink();
  p.startBatch();
  const built: BuiltPacket[] = [];
  for (let i = 0; i < 8; i++) built.push(p.addNext(req, numbers)!);
  p.send(sink);
  assert.ok(built.every((b) => b.packet.bytes === 1421), 'full size whatever the header');
  const decoded = sink.datagrams.map((d) => {
    const r = decodeDataDatagram(d);
    assert.ok(r.ok);
    return r.value;
  });
  // Header 1 + 1 + 2 + 4 = 8 B while packet numbers fit 2 bytes, then 1 + 1 + 4 + 4 = 10 B.
  assert.deepEqual(decoded.map((d) => d.payload.byteLength), [1413, 1413, 1413, 1413, 1411, 1411, 1411, 1411]);
  assert.deepEqual(decoded.map((d) => d.packetNumber), [16_380, 16_381, 16_382, 16_383, 16_384, 16_385, 16_386, 16_387]);
  let offset = 0;
  for (const d of decoded) {
    assert.equal(d.offset, offset);
    offset += d.payload.byteLength;
  }
});
