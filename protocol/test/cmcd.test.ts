import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_CMCD_CHARS, cmcdFromRequestPath, cmcdQueryArgument, parseCmcd, resolveNextObjectPath } from '../src/index.ts';

// What dash.js 5 (CTA-5004 v1, query mode) puts on a video segment request, URL-decoded once.
const DASHJS_V1 = 'bl=21300,br=3200,bs,cid="faec5fc2-ac30-11ea-bb37-0242ac130002",d=4004,dl=18500,mtp=48100,'
  + 'nor="..%2F300kbps%2Fseg-2.m4s",nrr="12323-48763",ot=v,pr=1.08,rtp=12000,sf=d,sid="6e2fb550-c457-11e9-bb97-0800200c9a66",st=v,su,tb=6000';

test('CMCD: dash.js v1 payload parses into the state the origin uses', () => {
  const r = parseCmcd(DASHJS_V1, '/abr/800kbps/seg-1.m4s');
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  assert.deepEqual(r.value, {
    startup: true, bufferStarvation: true, ignoredKeys: [], bufferLengthMs: 21300, encodedBitrateKbps: 3200,
    contentId: 'faec5fc2-ac30-11ea-bb37-0242ac130002', objectDurationMs: 4004, deadlineMs: 18500, measuredThroughputKbps: 48100,
    nextObjectPath: '/abr/300kbps/seg-2.m4s', nextRange: '12323-48763', objectType: 'v', playbackRate: 1.08,
    requestedMaxThroughputKbps: 12000, streamingFormat: 'd', sessionId: '6e2fb550-c457-11e9-bb97-0800200c9a66', streamType: 'v',
    topBitrateKbps: 6000,
  });
});

test('CMCD: from a request path query, booleans ?0/?1, unknown keys ignored, absent = null', () => {
  const path = `/abr/seg-video-3.m4s?cc=cubic&${cmcdQueryArgument({ bl: 8000, br: 800, d: 2000, su: false, bs: true, nor: 'seg-video-4.m4s' })}`;
  const r = cmcdFromRequestPath(path);
  assert.ok(r.ok && r.value);
  assert.equal(r.value.bufferLengthMs, 8000);
  assert.equal(r.value.bufferStarvation, true);
  assert.equal(r.value.startup, false);
  assert.equal(r.value.nextObjectPath, '/abr/seg-video-4.m4s');
  const bools = parseCmcd('su=?0,bs=?1,com.example-x="y",x-custom=5', '/a');
  assert.ok(bools.ok);
  assert.equal(bools.value.startup, false);
  assert.equal(bools.value.bufferStarvation, true);
  assert.deepEqual(bools.value.ignoredKeys, ['com.example-x', 'x-custom']);
  const none = cmcdFromRequestPath('/abr/manifest.mpd?cc=bbr');
  assert.ok(none.ok && none.value === null);
  assert.ok(cmcdFromRequestPath('/abr/manifest.mpd').ok);
});

test('CMCD: each malformed kind is refused with a message naming the problem', () => {
  const cases: Array<[string, RegExp]> = [
    ['bl=12.5', /bl must be an integer/],
    ['bl="100"', /bl must be an integer, got a string/],
    ['bl=-1', /bl=-1 is negative/],
    ['br=-300', /negative/],
    ['bl=99999999999', /bl=99999999999 exceeds 3600000/],
    ['mtp=1000000000000', /mtp=.* exceeds/],
    ['d=1234567890123456', /not an integer, decimal/], // 16 digits: not an RFC 8941 integer
    ['dl=abc def', /not an integer, decimal, string, token or boolean/],
    ['bl=100,bl=200', /key bl appears twice/],
    ['su=1', /su must be a boolean/],
    ['bs="true"', /bs must be a boolean/],
    ['nor="seg', /unterminated string/],
    ['nor="a\\x"', /bad escape/],
    ['nor="a"b', /expected "," after nor/],
    ['nor=seg-2.m4s', /nor must be a string, got a token/],
    [`nor="${'a'.repeat(600)}"`, /longer than 512/],
    [`sid="${'s'.repeat(65)}"`, /sid is longer than 64/],
    ['nor="..%2F..%2F..%2Fetc%2Fpasswd"', /leaves the media root/],
    ['nor="%2E%2E%2F%2E%2E%2Fsecret"', /leaves the media root/],
    ['nor="https%3A%2F%2Fevil.example%2Fx"', /another origin/],
    ['nor="%2F%2Fevil.example%2Fx"', /another origin/],
    ['nor="a%5C..%5Cb"', /backslash/],
    ['nor="a%00b"', /control character/],
    ['nor="%E0%A4%A"', /percent-encoding/],
    ['nrr="abc"', /nrr must be a byte range/],
    ['ot=zz', /ot must be one of/],
    ['v=2', /only version 1/],
    ['pr=0', /pr must be a number/],
    ['BL=5', /not a valid key/],
    ['bl=5,', /ends with ","/],
    [',bl=5', /not a valid key/],
    ['bl==5', /not an integer/],
    ['cid="caf\u00e9"', /printable ASCII/],
    [Array.from({ length: 33 }, (_, i) => `k${i}=1`).join(','), /more than 32 keys/],
    ['x'.repeat(MAX_CMCD_CHARS + 1), /more than 1024/],
  ];
  for (const [payload, message] of cases) {
    const r = parseCmcd(payload, '/abr/seg-1.m4s');
    assert.ok(!r.ok, `accepted ${JSON.stringify(payload.slice(0, 50))}`);
    assert.equal(r.error.code, 'invalid-field');
    assert.match(r.error.message, /^CMCD /);
    assert.match(r.error.message, message, payload.slice(0, 50));
  }
  const twice = cmcdFromRequestPath('/a?CMCD=bl%3D1&CMCD=bl%3D2');
  assert.ok(!twice.ok && /more than once/.test(twice.error.message));
});

test('CMCD: hostile payloads never throw (random bytes, huge numbers, deep quoting)', () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const alphabet = 'bl=,"\\?01-.;%2Fnor/su ab\u0000\u00ff';
  for (let i = 0; i < 5000; i++) {
    let s = '';
    const n = Math.floor(next() * 40);
    for (let j = 0; j < n; j++) s += alphabet[Math.floor(next() * alphabet.length)];
    const r = parseCmcd(s, '/x/y.m4s');
    if (r.ok) for (const k of ['bufferLengthMs', 'deadlineMs'] as const) if (r.value[k] !== undefined) assert.ok(r.value[k]! >= 0);
    assert.doesNotThrow(() => cmcdFromRequestPath(`/x?CMCD=${s}`));
  }
});

test('CMCD nor: relative, root-relative and dot segments resolve inside the root', () => {
  const cases: Array<[string, string, string]> = [
    ['seg-2.m4s', '/abr/seg-1.m4s', '/abr/seg-2.m4s'],
    ['..%2Fother%2Fseg-2.m4s', '/abr/v/seg-1.m4s', '/abr/other/seg-2.m4s'],
    ['%2Fabr%2Fseg-9.m4s', '/fixed/seg-1.m4s', '/abr/seg-9.m4s'],
    ['.%2Fseg-3.m4s%3Fx%3D1', '/abr/seg-1.m4s', '/abr/seg-3.m4s'],
  ];
  for (const [nor, request, expected] of cases) {
    const r = resolveNextObjectPath(nor, request);
    assert.ok(r.ok, `${nor}: ${r.ok ? '' : r.error.message}`);
    assert.equal(r.value, expected);
  }
  assert.ok(!resolveNextObjectPath('..%2Fseg.m4s', '/seg-1.m4s').ok, 'one level above a file in the root leaves it');
});
