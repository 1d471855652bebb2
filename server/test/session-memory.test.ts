// How one session's memory bound is divided (session-memory.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_SESSION_MEMORY_BYTES, MIN_SESSION_MEMORY_BYTES, TRACKED_PACKET_BYTES, sessionMemoryBudget,
} from '../src/session/session-memory.ts';

test('the parts of a session\'s memory bound add up to no more than it, each within what quinn accepts', () => {
  for (const bytes of [MIN_SESSION_MEMORY_BYTES, DEFAULT_SESSION_MEMORY_BYTES, 256 * 1024 * 1024]) {
    const b = sessionMemoryBudget(bytes);
    const total = b.receiveWindowBytes + b.datagramReceiveBufferBytes + b.maxTrackedPackets * TRACKED_PACKET_BYTES;
    assert.ok(total <= bytes, `${total} > ${bytes}`);
    assert.ok(total > bytes - TRACKED_PACKET_BYTES, 'nothing of the bound is left unused');
    assert.ok(b.receiveWindowBytes >= 16 * 1024 && b.datagramReceiveBufferBytes >= 4096, 'the addon\'s minimums');
    assert.ok(b.maxTrackedPackets * 1200 >= 4 * 1024 * 1024 || bytes === MIN_SESSION_MEMORY_BYTES, 'an honest session\'s flight fits');
  }
  assert.throws(() => sessionMemoryBudget(MIN_SESSION_MEMORY_BYTES - 1), /at least/);
  assert.throws(() => sessionMemoryBudget(Number.NaN), /at least/);
});
