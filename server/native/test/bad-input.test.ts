// Wrong types and hostile values from JS must become exceptions, never aborts.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  BiStream, MAX_BUFFER_BYTES, MAX_CONNECTION_ID_BYTES, MIN_DATAGRAM_BUFFER_BYTES, QuicClient, QuicServer, Session, generateSelfSignedCert,
  setTcpCongestion,
} from '../index.js';
import { openPair } from './loopback.ts';

// Deliberately untyped handles for calling with wrong argument types.
const untyped = (value: unknown) => value as Record<string, (...args: unknown[]) => unknown>;

test('wrong argument types throw TypeErrors or Errors', async () => {
  const pair = await openPair();
  try {
    const session = untyped(pair.serverSession);
    assert.throws(() => session.sendDatagram!.call(pair.serverSession, 'text'));
    assert.throws(() => session.sendDatagram!.call(pair.serverSession));
    assert.throws(() => session.sendDatagramBatch!.call(pair.serverSession, Buffer.alloc(10), new Uint8Array([10]), 1), /Expected/);
    assert.throws(() => session.sendDatagramBatch!.call(pair.serverSession, Buffer.alloc(10), new Uint32Array([10]), -1));
    assert.throws(() => session.setCongestion!.call(pair.serverSession, 42));
    assert.throws(() => session.close!.call(pair.serverSession, 'x', 5));
    await assert.rejects(async () => session.recvDatagrams!.call(pair.serverSession, 0) as Promise<unknown>, /max must be between/);
    // The session is still healthy afterwards.
    assert.equal(pair.serverSession.sendDatagram(Buffer.from('ok')), true);
  } finally {
    pair.close();
  }
});

test('options objects with missing or mistyped fields are refused', async () => {
  const cert = generateSelfSignedCert(['localhost'], 1);
  await assert.rejects(async () => QuicServer.bind({} as never));
  await assert.rejects(async () => QuicServer.bind({ host: '127.0.0.1', port: '443', certPem: cert.certPem, keyPem: cert.keyPem } as never));
  await assert.rejects(async () => QuicClient.connect(42 as never, { certSha256Hex: cert.certSha256Hex }));
  assert.throws(() => untyped({ f: setTcpCongestion }).f!('3', 'cubic'));
  assert.throws(() => untyped({ f: generateSelfSignedCert }).f!('localhost', 3));
});

test('the exported bounds are the ones the addon enforces', async () => {
  const cert = generateSelfSignedCert(['localhost'], 1);
  const bind = (datagramSendBufferBytes: number) =>
    QuicServer.bind({ host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem, datagramSendBufferBytes });
  const outside = new RegExp(`datagramSendBufferBytes must be between ${MIN_DATAGRAM_BUFFER_BYTES} and ${MAX_BUFFER_BYTES}, got`);
  await assert.rejects(bind(MIN_DATAGRAM_BUFFER_BYTES - 1), outside);
  await assert.rejects(bind(MAX_BUFFER_BYTES + 1), outside);
  for (const inside of [MIN_DATAGRAM_BUFFER_BYTES, MAX_BUFFER_BYTES]) (await bind(inside)).close();
  await assert.rejects(QuicClient.connect('https://127.0.0.1:9/x', { certSha256Hex: '00'.repeat(32), connectionIdBytes: MAX_CONNECTION_ID_BYTES + 1 }),
    new RegExp(`connectionIdBytes must be between 0 and ${MAX_CONNECTION_ID_BYTES}, got`));
});

test('native classes cannot be constructed from JS', () => {
  for (const Class of [Session, BiStream, QuicServer]) {
    assert.throws(() => new (Class as unknown as new () => unknown)());
  }
});
