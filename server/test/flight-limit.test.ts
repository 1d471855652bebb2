// How many bytes may be in flight: cwnd, the receiver's window, and the cap for a silent peer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FlightLimit, IDLE_SILENCE_CREDIT_US, SILENT_PEER_MAX_PACKETS, SILENT_PEER_US } from '../src/datagram/flight-limit.ts';

const PACKET = 1200;

test('the limit is min(cwnd, receiver window); the window of the newest ACK counts, not a reordered older one', () => {
  const f = new FlightLimit(50_000, 0);
  assert.equal(f.allowedBytes(0, 1e9, 0, PACKET), 50_000);
  assert.equal(f.allowedBytes(0, 20_000, 0, PACKET), 20_000);
  f.onRequestWindow(80_000);
  assert.equal(f.peerWindowBytes, 80_000, 'a REQUEST carries the window too');
  f.onAck(10, 40, 30_000);
  assert.equal(f.peerWindowBytes, 30_000);
  f.onAck(20, 35, 90_000); // an older ACK arriving late
  assert.equal(f.peerWindowBytes, 30_000);
  f.onAck(30, 40, 60_000); // same largest: the later one wins
  assert.equal(f.peerWindowBytes, 60_000);
});

test('a peer silent for 1 s with packets in flight gets two packets, whatever cwnd says; an ACK lifts the cap', () => {
  const f = new FlightLimit(1e9, 0);
  assert.equal(f.allowedBytes(SILENT_PEER_US, 1e9, 10, PACKET), 1e9, 'exactly 1 s is not yet silent');
  assert.equal(f.allowedBytes(SILENT_PEER_US + 1, 1e9, 10, PACKET), SILENT_PEER_MAX_PACKETS * PACKET);
  assert.equal(f.allowedBytes(SILENT_PEER_US + 1, 1e9, 0, PACKET), 1e9, 'nothing in flight: nothing unanswered');
  f.onAck(SILENT_PEER_US + 2, 3, 1e9);
  assert.equal(f.allowedBytes(SILENT_PEER_US + 3, 1e9, 10, PACKET), 1e9);
});

test('after an idle spell new data gets half a second before a silent peer is capped', () => {
  const f = new FlightLimit(1e9, 0);
  const start = 60_000_000; // a minute after the last ACK, with nothing in flight
  f.onTurn(start, 0);
  assert.equal(f.silent(start + SILENT_PEER_US - IDLE_SILENCE_CREDIT_US, 10), false);
  assert.equal(f.silent(start + SILENT_PEER_US - IDLE_SILENCE_CREDIT_US + 1, 10), true);
  f.onTurn(start + 100, 5); // packets in flight: the credit is not renewed
  assert.equal(f.silent(start + SILENT_PEER_US - IDLE_SILENCE_CREDIT_US + 1, 10), true);
});

test('the session memory caps packets in flight whatever cwnd and the advertised window allow', () => {
  const f = new FlightLimit(4e9, 0, 100);
  assert.equal(f.allowedBytes(0, 1e12, 0, PACKET), 100 * PACKET);
  assert.equal(f.binding(0, 1e12, 0, PACKET), 'session-memory');
  assert.equal(f.allowedBytes(0, 50 * PACKET, 0, PACKET), 50 * PACKET, 'a smaller cwnd still binds');
  assert.equal(f.binding(0, 50 * PACKET, 0, PACKET), 'cwnd');
});
