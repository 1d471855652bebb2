import assert from 'node:assert/strict';
import { test } from 'node:test';

import { QuicClient, QuicServer, type InboundDatagramLimits, type Session } from '../index.js';
import { receiveDatagrams, sleep, testCert } from './loopback.ts';

const ACK = 0x02;
const LIMITS: InboundDatagramLimits = { base: 8, perSent: 1, perSecond: 0, allowedTypes: [ACK], closeCode: 1 };

function closedWithin(session: Session, ms: number) {
  return Promise.race([session.closed(), sleep(ms).then(() => null)]);
}

test('a session over its inbound datagram budget, or sending a type not allowed, is closed with the reason; the others on the server are untouched', async () => {
  const cert = testCert();
  const server = await QuicServer.bind({ host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem });
  const connect = async (path: string) => {
    const accepted = server.accept();
    const client = await QuicClient.connect(`https://127.0.0.1:${server.port}${path}`, { certSha256Hex: cert.certSha256Hex });
    const session = await accepted;
    assert.ok(session);
    session.limitInboundDatagrams(LIMITS);
    return { client, session };
  };
  const flooder = await connect('/flood');
  const junk = await connect('/junk');
  const honest = await connect('/honest');
  try {
    // The honest peer: 4 datagrams sent to it earn it 4 more than the base of 8, and it sends 12.
    for (let i = 0; i < 4; i++) assert.ok(honest.session.sendDatagram(Uint8Array.of(0x01, i)));
    assert.equal((await receiveDatagrams(honest.client, 4)).length, 4);
    for (let i = 0; i < 12; i++) honest.client.sendDatagram(Uint8Array.of(ACK, i));
    assert.equal((await receiveDatagrams(honest.session, 12)).length, 12);

    // The flooder sends 50 well-typed datagrams having been sent none: the 9th closes its session.
    for (let i = 0; i < 50; i++) {
      try {
        flooder.client.sendDatagram(Uint8Array.of(ACK, i));
      } catch {
        break;
      }
    }
    const flooded = await closedWithin(flooder.client, 5000);
    assert.ok(flooded);
    assert.equal(flooded.code, 1);
    assert.match(flooded.reason, /^datagram flood: 9 datagrams for 0 sent in \d+\.\d s \(at most 8 \+ 1 per datagram sent \+ 0\/s\)$/);
    assert.deepEqual(flooder.session.localClose, flooded);
    const reachedJs = await receiveDatagrams(flooder.session, 50, 500);
    assert.ok(reachedJs.length <= 8, `${reachedJs.length} datagrams reached JavaScript; the budget was 8`);

    // A datagram whose first byte is no accepted type closes its session at once, and never reaches JavaScript.
    junk.client.sendDatagram(Uint8Array.of(0xc2, 1, 2, 3));
    const junked = await closedWithin(junk.client, 5000);
    assert.deepEqual(junked, { code: 1, reason: 'datagram of type 0xc2 (types accepted: 0x02)' });
    assert.deepEqual(await junk.session.recvDatagrams(16), []);

    // The honest session goes on as before; a session without limits (a client's) counts nothing.
    assert.equal(honest.session.localClose, null);
    assert.ok(honest.session.sendDatagram(Uint8Array.of(0x01, 9)));
    assert.equal((await receiveDatagrams(honest.client, 1)).length, 1);
    honest.client.sendDatagram(Uint8Array.of(ACK, 99));
    assert.deepEqual([...(await receiveDatagrams(honest.session, 1))[0]!], [ACK, 99]);
    for (let i = 0; i < 20; i++) honest.session.sendDatagram(Uint8Array.of(0xee, i));
    assert.equal((await receiveDatagrams(honest.client, 20)).length, 20);
    assert.equal(await closedWithin(honest.session, 100), null);
  } finally {
    for (const { client } of [flooder, junk, honest]) client.close(0, 'test done');
    server.close();
  }
});

test('inbound limits refuse a type that is not a byte', async () => {
  const cert = testCert();
  const server = await QuicServer.bind({ host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem });
  try {
    const accepted = server.accept();
    const client = await QuicClient.connect(`https://127.0.0.1:${server.port}/`, { certSha256Hex: cert.certSha256Hex });
    const session = await accepted;
    assert.ok(session);
    assert.throws(() => session.limitInboundDatagrams({ ...LIMITS, allowedTypes: [256] }), /allowedTypes: 256 is not a byte/);
    client.close(0, '');
  } finally {
    server.close();
  }
});
