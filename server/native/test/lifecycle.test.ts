import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'node:test';

import { QuicClient, QuicServer, SESSION_CLOSED_CODE, generateSelfSignedCert, isSessionClosedError } from '../index.js';
import { openPair, sleep, testCert } from './loopback.ts';
import { startUdpRelay } from './udp-relay.ts';

test('closing a session resolves closed() on both sides and settles pending calls cleanly', async () => {
  const pair = await openPair();
  try {
    const server = pair.serverSession;
    const client = pair.clientSession;
    const stream = await client.openBi();
    await stream.write(Buffer.from('x'));
    const serverStream = await server.acceptBi();
    assert.ok(serverStream);
    assert.equal((await serverStream.read(10))?.toString(), 'x');

    const pendingRecv = server.recvDatagrams(16);
    const pendingAccept = server.acceptBi();
    // Attach the expectation now: the read rejects as soon as the session closes.
    // …with the code callers check (RequestStream tells a request its session's end cut off by it), not only the message.
    const pendingRead = assert.rejects(serverStream.read(1024), { code: SESSION_CLOSED_CODE, message: /^stream read failed: session closed: / });
    const pendingClientRecv = client.recvDatagrams(16);

    server.close(4242, 'going away');
    assert.deepEqual(await server.closed(), { code: 4242, reason: 'going away' });
    assert.deepEqual(await client.closed(), { code: 4242, reason: 'going away' });

    assert.deepEqual(await pendingRecv, []);
    assert.equal(await pendingAccept, null);
    await pendingRead;
    assert.deepEqual(await pendingClientRecv, []);

    // The ended session's calls throw with a code callers check (the origin's send loop tells a peer's close from a
    // failure by it), and the message for people.
    const closedError = { code: SESSION_CLOSED_CODE, message: /^session closed: / };
    assert.throws(() => server.sendDatagram(Buffer.from('late')), closedError);
    assert.throws(() => client.sendDatagram(Buffer.from('late')), closedError);
    assert.throws(() => client.sendDatagramBatch(Buffer.alloc(10), new Uint32Array([10]), 1), closedError);
    assert.throws(() => server.setCongestion('bbr'), closedError);
    // A bad argument is not a closed session, even on a closed one.
    assert.throws(() => server.sendDatagramBatch(Buffer.alloc(10), new Uint32Array([10]), 2), (err: unknown) =>
      !isSessionClosedError(err) && /count 2 exceeds/.test((err as Error).message));
    await assert.rejects(server.openBi(), /session closed/);
    await assert.rejects(stream.write(Buffer.from('late')), { code: SESSION_CLOSED_CODE, message: /^stream write failed: session closed: / });
    assert.deepEqual(await server.recvDatagrams(1), []);
    assert.equal(await client.acceptBi(), null);
    // stats stay readable after close
    assert.equal(typeof server.stats().rttUs, 'number');
    server.close(1, 'twice'); // closing again is harmless
  } finally {
    pair.close();
  }
});

test('a close whose capsule the peer does not answer closes the QUIC connection with the reason, before web-transport-quinn would without one', async () => {
  // web-transport-quinn alone waits for the peer to answer the capsule and after max(3 RTT, 100 ms) closes the QUIC
  // connection with an empty reason: a peer too busy to read the capsule first saw the code without the reason
  // (issue 20's flood refusals). The addon closes it with the reason after half that wait. Here the client hears
  // nothing and says nothing for 300 ms, then hears everything at once.
  const cert = testCert();
  const server = await QuicServer.bind({ host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem });
  const relay = await startUdpRelay(server.port);
  try {
    const accepted = server.accept();
    const client = await QuicClient.connect(`https://127.0.0.1:${relay.port}/refused`, { certSha256Hex: cert.certSha256Hex });
    const session = await accepted;
    assert.ok(session);
    relay.hold();
    session.close(3, 'server is at its limit of 64 sessions');
    // The addon sends both after ~50 ms; a loaded machine may run this process's relay late, so wait for them (the
    // client hears nothing meanwhile). Waiting longer cannot hide the defect: without the early close quinn's own
    // (after 100 ms, no reason) is held instead and reaches the client first, and the reason check below fails.
    const heldBy = Date.now() + 10_000;
    while (relay.heldCount() < 2 && Date.now() < heldBy) await sleep(10);
    assert.ok(relay.heldCount() >= 2, `the capsule and the connection close while the peer is silent (held ${relay.heldCount()} in 10 s)`);
    await sleep(50);
    relay.release();
    const info = await Promise.race([client.closed(), sleep(5000).then(() => null)]);
    assert.deepEqual(info, { code: 3, reason: 'server is at its limit of 64 sessions' });
  } finally {
    relay.close();
    server.close();
  }
});

test('close reason longer than 1024 bytes is refused', async () => {
  const pair = await openPair();
  try {
    assert.throws(() => pair.serverSession.close(1, 'x'.repeat(1025)), /at most 1024/);
  } finally {
    pair.close();
  }
});

test('server.close() ends accept() with null and closes its sessions', async () => {
  const pair = await openPair();
  const pendingAccept = pair.server.accept();
  pair.server.close();
  assert.equal(await pendingAccept, null);
  assert.equal(await pair.server.accept(), null);
  const info = await pair.clientSession.closed();
  assert.equal(typeof info.code, 'number');
});

test('connecting with a wrong certificate hash fails with a clear error', async () => {
  const cert = testCert();
  const server = await QuicServer.bind({ host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem });
  try {
    const wrong = generateSelfSignedCert(['localhost'], 1).certSha256Hex;
    await assert.rejects(
      QuicClient.connect(`https://127.0.0.1:${server.port}/`, { certSha256Hex: wrong }),
      /connecting to https:\/\/127\.0\.0\.1:\d+\/ failed: .*SHA-256 does not match certSha256Hex/,
    );
    // The server survives and still accepts a correct client.
    const accepted = server.accept();
    const good = await QuicClient.connect(`https://127.0.0.1:${server.port}/ok`, { certSha256Hex: cert.certSha256Hex });
    assert.equal((await accepted)?.url, '/ok');
    good.close(0, '');
  } finally {
    server.close();
  }
});

test('connect failures are clear errors', async () => {
  const cert = testCert();
  await assert.rejects(QuicClient.connect('http://127.0.0.1:1/', { certSha256Hex: cert.certSha256Hex }), /must start with https/);
  await assert.rejects(QuicClient.connect('not a url', { certSha256Hex: cert.certSha256Hex }), /bad URL/);
  await assert.rejects(QuicClient.connect('https://127.0.0.1:1/', {}), /certSha256Hex is required/);
  await assert.rejects(QuicClient.connect('https://127.0.0.1:1/', { certSha256Hex: 'abc' }), /64 hex digits/);
  await assert.rejects(
    QuicClient.connect('https://127.0.0.1:1/', { certSha256Hex: cert.certSha256Hex, congestion: 'fast' as 'bbr' }),
    /unknown QUIC congestion control "fast"/,
  );
  // Nothing answers on this UDP port: the connect deadline applies.
  const silent = createSocket('udp4');
  silent.bind(0, '127.0.0.1');
  await once(silent, 'listening');
  try {
    const port = silent.address().port;
    const started = Date.now();
    await assert.rejects(
      QuicClient.connect(`https://127.0.0.1:${port}/`, { certSha256Hex: cert.certSha256Hex, connectTimeoutMs: 300 }),
      /timed out after 300 ms/,
    );
    // The message names the 300 ms deadline; without it the default (10 s) would apply.
    assert.ok(Date.now() - started < 8000);
  } finally {
    silent.close();
  }
});

test('bind failures and bad options are clear errors', async () => {
  const cert = testCert();
  const base = { host: '127.0.0.1', certPem: cert.certPem, keyPem: cert.keyPem };
  const first = await QuicServer.bind({ ...base, port: 0 });
  try {
    await assert.rejects(QuicServer.bind({ ...base, port: first.port }), /binding UDP 127\.0\.0\.1:\d+ failed: Address already in use/);
  } finally {
    first.close();
  }
  await assert.rejects(QuicServer.bind({ ...base, port: 70000 }), /port must be 0\.\.65535/);
  await assert.rejects(QuicServer.bind({ ...base, host: 'no-such-host.invalid', port: 0 }), /cannot resolve host/);
  await assert.rejects(QuicServer.bind({ ...base, port: 0, initialMtu: 1000 }), /initialMtu must be between 1200 and 1472/);
  await assert.rejects(QuicServer.bind({ ...base, port: 0, congestion: 'vegas' as 'bbr' }), /unknown QUIC congestion control/);
  await assert.rejects(
    QuicServer.bind({ ...base, port: 0, idleTimeoutMs: 1000, keepAliveMs: 1000 }),
    /keepAliveMs \(1000\) must be shorter than idleTimeoutMs/,
  );
});

test('an idle session times out and reports it', async () => {
  const pair = await openPair({ server: { idleTimeoutMs: 300, keepAliveMs: 0 }, client: { idleTimeoutMs: 300, keepAliveMs: 0 } });
  try {
    const started = Date.now();
    const [serverInfo, clientInfo] = await Promise.all(
      [pair.serverSession, pair.clientSession].map((session) => Promise.race([session.closed(), sleep(5000).then(() => null)])),
    );
    assert.ok(Date.now() - started < 2000, 'both ends notice within a few idle periods');
    for (const info of [serverInfo, clientInfo]) {
      assert.ok(info);
      assert.equal(info.code, 0);
      assert.match(info.reason, /idle timeout/);
    }
  } finally {
    pair.close();
  }
});

test('initialMtu sets the starting path MTU and the datagram size', async () => {
  const pair = await openPair({ server: { initialMtu: 1472 }, client: { initialMtu: 1472 } });
  const reference = await openPair();
  try {
    assert.equal(pair.serverSession.stats().mtu, 1472);
    assert.equal(reference.serverSession.stats().mtu, 1452);
    assert.equal(pair.serverSession.maxDatagramSize() - reference.serverSession.maxDatagramSize(), 1472 - 1452);
  } finally {
    pair.close();
    reference.close();
  }
});

test('a closed client session releases its UDP socket once unreachable', async () => {
  // The quinn connection owns the socket; the JS Session owns the connection until collected.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const cert = testCert();
  const server = await QuicServer.bind({ host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem });
  const openFds = () => readdirSync('/proc/self/fd').length;
  try {
    // Let earlier tests' garbage (their sockets) go first.
    gc();
    await sleep(100);
    const before = openFds();
    let sessions = [];
    for (let i = 0; i < 20; i++) {
      const accepted = server.accept();
      sessions.push(await QuicClient.connect(`https://127.0.0.1:${server.port}/fd`, { certSha256Hex: cert.certSha256Hex }));
      await accepted;
    }
    assert.ok(openFds() >= before + 20, 'each client session has its own socket');
    for (const session of sessions) session.close(0, 'done');
    await Promise.all(sessions.map((session) => session.closed()));
    sessions = [];
    // Sockets go once the connections finish draining (3 PTO on loopback: milliseconds) and the
    // sessions are collected.
    const deadline = Date.now() + 5000;
    while (openFds() > before + 2 && Date.now() < deadline) {
      gc();
      await sleep(50);
    }
    assert.ok(openFds() <= before + 2, `fds: ${before} before, ${openFds()} after closing`);
  } finally {
    server.close();
  }
});
