import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';

import type { BiStream } from '../index.js';
import { openPair } from './loopback.ts';

async function readAll(stream: BiStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (;;) {
    const chunk = await stream.read(64 * 1024);
    if (chunk === null) return Buffer.concat(chunks);
    chunks.push(chunk);
  }
}

test('a bidirectional stream echoes 4 MiB and finishes cleanly', async () => {
  const pair = await openPair();
  try {
    // Server: echo every stream back and finish it.
    const echo = (async () => {
      const stream = await pair.serverSession.acceptBi();
      assert.ok(stream);
      for (;;) {
        const chunk = await stream.read(256 * 1024);
        if (chunk === null) break;
        await stream.write(chunk);
      }
      await stream.finish();
    })();

    const payload = randomBytes(4 * 1024 * 1024);
    const stream = await pair.clientSession.openBi();
    const reading = readAll(stream);
    for (let offset = 0; offset < payload.length; offset += 100_000) {
      await stream.write(payload.subarray(offset, offset + 100_000));
    }
    await stream.finish();
    const echoed = await reading;
    await echo;
    assert.equal(echoed.length, payload.length);
    assert.equal(createHash('sha256').update(echoed).digest('hex'), createHash('sha256').update(payload).digest('hex'));
    await assert.rejects(stream.write(Buffer.from('late')), /already finished or reset/);
  } finally {
    pair.close();
  }
});

test('reset aborts the sender and the peer read fails with the code', async () => {
  const pair = await openPair();
  try {
    const stream = await pair.clientSession.openBi();
    await stream.write(Buffer.from('partial'));
    const peer = await pair.serverSession.acceptBi();
    assert.ok(peer);
    stream.reset(42);
    await assert.rejects(
      (async () => {
        for (;;) if ((await peer.read(1024)) === null) return;
      })(),
      /reset the stream \(code 42\)/,
    );
    await assert.rejects(stream.write(Buffer.from('more')), /reset locally \(code 42\)/);
  } finally {
    pair.close();
  }
});

test('stop asks the peer to stop sending and fails a pending local read', async () => {
  const pair = await openPair();
  try {
    const stream = await pair.clientSession.openBi();
    await stream.write(Buffer.from('hello'));
    const peer = await pair.serverSession.acceptBi();
    assert.ok(peer);
    assert.equal((await peer.read(1024))?.toString(), 'hello');
    const pendingRead = peer.read(1024);
    peer.stop(7);
    await assert.rejects(pendingRead, /stopped locally \(code 7\)/);
    // The client's writes eventually fail with STOP_SENDING.
    await assert.rejects(
      (async () => {
        for (let i = 0; i < 1000; i++) {
          await stream.write(Buffer.alloc(1000));
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      })(),
      /stopped reading \(code 7\)/,
    );
  } finally {
    pair.close();
  }
});

test('bad read sizes are clear errors', async () => {
  const pair = await openPair();
  try {
    const stream = await pair.clientSession.openBi();
    await assert.rejects(stream.read(0), /maxBytes must be between/);
  } finally {
    pair.close();
  }
});
