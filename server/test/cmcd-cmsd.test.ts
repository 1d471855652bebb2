// CMCD in, CMSD out at the origin (PROTOCOL.md §2.6, §2.7): a hostile CMCD refuses that one request with a clear
// error and leaves the session and a concurrent one untouched; valid CMCD shows in /status and the telemetry;
// every response carries CMSD (etp/rtt from the controller or quinn, mb when configured), over HTTPS as headers.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { PLAYER_STATE_PREFIX, cmcdQueryArgument, decodeCmsdDynamic } from '@pcc-stream/protocol';
import { PccClient } from '../src/client/pcc-client.ts';
import { makeMedia, sha256, startOrigin, type MediaFixture, type RunningOrigin } from './helpers.ts';

const MB_KBPS = 6000;
let media: MediaFixture;
let origin: RunningOrigin;
/** Every datagram session's controller inputs (pcc-replay scripts): what the controller itself was told. */
let recordDir: string;

before(async () => {
  media = makeMedia({ 'v/seg-1.m4s': 3_000_000, 'v/seg-2.m4s': 200_000 });
  recordDir = mkdtempSync(join(tmpdir(), 'pcc-cmcd-record-'));
  origin = await startOrigin(media.dir, ['--cc', 'fixed', '--cmsd-max-bitrate-kbps', String(MB_KBPS), '--record-dir', recordDir]);
});

after(async () => {
  await origin?.stop();
  media?.cleanup();
  if (recordDir) rmSync(recordDir, { recursive: true, force: true });
});

const hostile: Array<[string, RegExp]> = [
  ['/v/seg-2.m4s?CMCD=bl%3D-5', /CMCD bl=-5 is negative/],
  ['/v/seg-2.m4s?CMCD=bl%3D1%2Cbl%3D2', /CMCD key bl appears twice/],
  ['/v/seg-2.m4s?CMCD=nor%3D%22..%252F..%252F..%252Fetc%252Fpasswd%22', /CMCD nor .* leaves the media root/],
  ['/v/seg-2.m4s?CMCD=mtp%3D1e9', /CMCD mtp/],
  [`/v/seg-2.m4s?CMCD=sid%3D%22${'x'.repeat(200)}%22`, /CMCD sid is longer than 64/],
  // Player-state requests (PROTOCOL.md §2.9) go through the same parser, and one without CMCD says so.
  [`${PLAYER_STATE_PREFIX}/v/seg-2.m4s?CMCD=bl%3D99999999`, /CMCD bl=99999999 exceeds 3600000/],
  [`${PLAYER_STATE_PREFIX}/v/seg-2.m4s?cc=cubic`, /player-state request carries no CMCD/],
];

test('a hostile CMCD gets status 400 naming the problem; the same and another session keep working', async () => {
  const victim = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: 50e6 } });
  const attacker = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: 50e6 } });
  try {
    const big = victim.fetch('/v/seg-1.m4s');
    for (const [path, message] of hostile) {
      const r = await attacker.fetch(path);
      assert.equal(r.status, 400, path);
      assert.match(r.reason, message);
      assert.equal(r.bytes, 0);
    }
    const after = await attacker.fetch(`/v/seg-2.m4s?${cmcdQueryArgument({ bl: 4000, br: 800 })}`);
    assert.equal(after.status, 200, 'the attacker\'s own session still serves a valid request');
    assert.equal((await attacker.fetch(`${PLAYER_STATE_PREFIX}/v/seg-2.m4s?${cmcdQueryArgument({ bl: 4000, br: 800 })}`)).status, 204,
      'and a valid player-state request');
    const got = await big;
    assert.equal(got.status, 200);
    assert.equal(got.bytes, 3_000_000, 'the concurrent session\'s transfer completed intact');
    if (got.body) assert.equal(sha256(got.body), media.files.get('v/seg-1.m4s')!.sha256);
    const status = await origin.status();
    const rows = status.session_list;
    const attackerRow = rows.find((s) => s.cmcd_rejected === hostile.length);
    assert.ok(attackerRow, `a session counts ${hostile.length} CMCD refusals: ${JSON.stringify(rows)}`);
    assert.equal(attackerRow.cmcd_bl_ms, 4000, 'the refusals left the last valid state in place');
    assert.equal(rows.filter((s) => s.cmcd_rejected !== 0).length, 1, 'only the attacker has refusals');
    assert.match(origin.output(), /"cmcd.rejected"/);
  } finally {
    victim.close();
    attacker.close();
  }
});

test('valid CMCD is the session\'s player state; CMSD carries etp, rtt and the configured mb', async () => {
  const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: 40e6 } });
  try {
    const first = await client.fetch(`/v/seg-2.m4s?${cmcdQueryArgument({ bl: 1200, br: 800, d: 2000, dl: 1100, mtp: 25000, rtp: 12000, su: true, nor: 'seg-1.m4s' })}`);
    assert.equal(first.status, 200);
    assert.equal(first.cmsdStatic, 'sf=d');
    const second = await client.fetch(`/v/seg-1.m4s?${cmcdQueryArgument({ bl: 3400, br: 800, bs: true })}`);
    assert.equal(second.status, 200);
    const cmsd = decodeCmsdDynamic(second.cmsdDynamic ?? '');
    assert.ok(cmsd.ok, second.cmsdDynamic);
    // cc=fixed paces at rate_bps: the controller's rate is the etp (kbit/s).
    assert.equal(cmsd.value.etpKbps, 40_000);
    assert.ok(cmsd.value.rttMs !== undefined && cmsd.value.rttMs >= 0 && cmsd.value.rttMs < 1000, `rtt ${cmsd.value.rttMs}`);
    assert.equal(cmsd.value.mbKbps, MB_KBPS);
    const row = (await origin.status()).session_list.find((s) => s.cmcd_bl_ms === 3400);
    assert.ok(row, 'the latest CMCD is in /status');
    assert.equal(row.cmcd_bs, 1);
    assert.equal(row.cmcd_su, 0);
    assert.equal(row.cmcd_updates, 2);
  } finally {
    client.close();
  }
});

test('a player-state request is read as the object\'s CMCD: the session\'s player state and controller get it; nothing is served', async () => {
  const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'vivace-video' });
  try {
    const served = await client.fetch(`/v/seg-2.m4s?${cmcdQueryArgument({ bl: 900, br: 800, ot: 'v' })}`);
    assert.equal(served.status, 200);
    for (const bl of [2600, 5200]) {
      // A segment the continuous stream already delivered: its CMCD alone, under the reserved prefix.
      const r = await client.fetch(`${PLAYER_STATE_PREFIX}/v/seg-1.m4s?${cmcdQueryArgument({ bl, br: 800, d: 2000, ot: 'v', nor: 'seg-2.m4s' })}`);
      assert.equal(r.status, 204);
      assert.equal(r.bytes, 0, 'no body: the segment is not sent again');
    }
    const rows = (await origin.status()).session_list;
    const row = rows.find((s) => s.player_state_requests === 2);
    assert.ok(row, `the session counts 2 player-state requests: ${JSON.stringify(rows)}`);
    assert.equal(row.cmcd_bl_ms, 5200, 'the latest buffer level is the player state the controller was told');
    assert.equal(row.cmcd_nor, '/v/seg-2.m4s', 'nor resolved against the object\'s folder');
    assert.equal(row.cmcd_updates, 3);
    assert.equal(row.cmcd_rejected, 0);
    client.close();
    // The controller's own inputs: one app-state event per CMCD (buffer ms, bitrate bit/s), the player-state ones too.
    const appStates = await recordedAppStates(`session-${row.id}-vivace-video-`);
    assert.deepEqual(appStates, ['0 900 800000', '0 2600 800000', '0 5200 800000']);
  } finally {
    client.close();
  }
});

/** The `app_state` events (app-limited, buffer ms, bitrate bit/s) of the session's recording, once it is on disk. */
async function recordedAppStates(filePrefix: string): Promise<string[]> {
  for (let waitedMs = 0; ; waitedMs += 50) {
    const name = readdirSync(recordDir).find((f) => f.startsWith(filePrefix));
    const text = name ? readFileSync(join(recordDir, name), 'utf8') : '';
    // Written out in one piece when the session closes (controller-recording.ts); its `create` line comes first.
    if (/^create /m.test(text) && text.endsWith('\n')) {
      return text.split('\n').filter((l) => l.startsWith('app_state 0 ')).map((l) => l.split(' ').slice(1, 4).join(' '));
    }
    if (waitedMs > 5000) assert.fail(`no recording ${filePrefix}* in ${recordDir}: ${readdirSync(recordDir).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('HTTP baseline: a player-state request is read and answered 204; one without CMCD is refused', async () => {
  const good = await fetch(`http://127.0.0.1:${origin.tcpPort}${PLAYER_STATE_PREFIX}/v/seg-1.m4s?${cmcdQueryArgument({ bl: 7300, ot: 'v' })}`);
  assert.equal(good.status, 204);
  assert.equal((await good.arrayBuffer()).byteLength, 0);
  const status = await origin.status() as unknown as { tcp_connections: Array<Record<string, number | string>> };
  assert.ok(status.tcp_connections.some((c) => c.cmcd_bl_ms === 7300), JSON.stringify(status.tcp_connections));
  const bad = await fetch(`http://127.0.0.1:${origin.tcpPort}${PLAYER_STATE_PREFIX}/v/seg-1.m4s`);
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /player-state request carries no CMCD/);
});

function httpsGet(path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    // The origin's self-signed certificate: this Node request checks nothing else about it (loopback only).
    const req = httpsRequest({ host: '127.0.0.1', port: origin.httpsPort, path, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { if (body.length < 4096) body += c.toString('latin1'); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('HTTPS baseline: CMCD in the query is read or refused the same way; CMSD headers are sent and exposed', async () => {
  const good = await httpsGet(`/v/seg-2.m4s?cc=cubic&${cmcdQueryArgument({ bl: 5100, br: 800 })}`);
  assert.equal(good.status, 200);
  assert.equal(good.headers['cmsd-static'], 'sf=d');
  // etp and rtt from the connection's TCP_INFO (tcp-info.ts): the kernel sender's rate (> 0 once it has an RTT from
  // the handshake) and its smoothed RTT (loopback: under 50 ms), beside the configured mb.
  const dynamic = /^"pcc-origin";etp=(\d+);rtt=(\d+);mb=(\d+)$/.exec(String(good.headers['cmsd-dynamic']));
  assert.ok(dynamic, `CMSD-Dynamic ${String(good.headers['cmsd-dynamic'])}`);
  assert.ok(Number(dynamic[1]) > 0 && Number(dynamic[2]) < 50 && Number(dynamic[3]) === MB_KBPS, String(good.headers['cmsd-dynamic']));
  assert.match(String(good.headers['access-control-expose-headers']), /CMSD-Static, CMSD-Dynamic/);
  const bad = await httpsGet('/v/seg-2.m4s?CMCD=bl%3D%22x%22');
  assert.equal(bad.status, 400);
  assert.match(bad.body, /CMCD bl must be an integer, got a string/);
  const status = await origin.status() as unknown as { https_connections: Array<Record<string, number | string>> };
  assert.ok(Array.isArray(status.https_connections));
});

test('plain-HTTP baseline (the default TCP baseline): the same media, ?cc= per connection, CMCD read, CMSD exposed', async () => {
  const good = await fetch(`http://127.0.0.1:${origin.tcpPort}/v/seg-2.m4s?cc=cubic&${cmcdQueryArgument({ bl: 4200, br: 800 })}`);
  assert.equal(good.status, 200);
  assert.equal(good.headers.get('x-tcp-congestion'), 'cubic', 'the connection runs the kernel controller the request named');
  assert.equal(good.headers.get('cmsd-static'), 'sf=d');
  assert.match(String(good.headers.get('cmsd-dynamic')), /^"pcc-origin";etp=\d+;rtt=\d+;mb=\d+$/);
  assert.equal(Buffer.from(await good.arrayBuffer()).length, Number(good.headers.get('content-length')));
  const bad = await fetch(`http://127.0.0.1:${origin.tcpPort}/v/seg-2.m4s?CMCD=bl%3D%22x%22`);
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /CMCD bl must be an integer, got a string/);
  const status = await origin.status() as unknown as { tcp_connections: Array<Record<string, number | string>> };
  assert.ok(status.tcp_connections.some((c) => c.cmcd_bl_ms === 4200), `the plain-HTTP connection's CMCD in /status: ${JSON.stringify(status.tcp_connections)}`);
});
