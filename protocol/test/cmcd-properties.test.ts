// Property-based fuzzing (fast-check) of the CMCD parser (cmcd.ts, PROTOCOL.md §2.6): no input makes it throw, a
// refusal is always the documented 'invalid-field' with a message; what the client's encoder writes parses back to
// the same values; what §2.6 refuses is refused; a `nor` never resolves outside the media root.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { MAX_CMCD_CHARS, cmcdFromRequestPath, cmcdQueryArgument, parseCmcd, resolveNextObjectPath, type Result } from '../src/index.ts';

const RUNS = 2000;

function assertDocumentedFailure(r: Result<unknown>): void {
  if (r.ok) return;
  assert.equal(r.error.code, 'invalid-field');
  assert.match(r.error.message, /^CMCD ./);
}

/** Payload text from CMCD's own alphabet (keys, separators, quotes, escapes, percent signs) and anything else. */
const cmcdish = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.array(fc.constantFrom('bl', 'br', 'd', 'dl', 'mtp', 'nor', 'nrr', 'ot', 'pr', 'sf', 'sid', 'st', 'su', 'bs', 'v', 'x-a',
    '=', ',', ' ', '"', '\\', '?0', '?1', '-', '.', '1', '12.5', '3600001', '%2F', '..', '/', 'v', 'seg.m4s', '\u0001', 'é'),
  { maxLength: 40 }).map((parts) => parts.join('')),
);
const requestPath = fc.oneof(fc.constant('/abr/seg-video-4.m4s'), fc.string({ maxLength: 40 }).map((s) => '/' + s));

test('CMCD: no payload or request path makes the parser throw; refusals are invalid-field with a reason', () => {
  fc.assert(fc.property(cmcdish, requestPath, (payload, path) => {
    assertDocumentedFailure(parseCmcd(payload, path));
    assertDocumentedFailure(cmcdFromRequestPath(`${path}?CMCD=${encodeURIComponent(payload)}`));
    assertDocumentedFailure(cmcdFromRequestPath(`${path}?${payload}`));
  }), { numRuns: RUNS });
});

const durationMs = fc.integer({ min: 0, max: 3_600_000 });
const rateKbps = fc.integer({ min: 0, max: 100_000_000 });
const idText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 64 });
const fileName = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,30}$/).filter((s) => s !== '.' && s !== '..');

test('CMCD: what the client encodes parses back to the same values', () => {
  const members = fc.record({
    bl: durationMs, br: rateKbps, d: durationMs, dl: durationMs, mtp: rateKbps, rtp: rateKbps, tb: rateKbps,
    su: fc.boolean(), bs: fc.boolean(), nor: fileName, ot: fc.constantFrom('m', 'a', 'v', 'av', 'i', 'c', 'tt', 'k', 'o'),
    sf: fc.constantFrom('d', 'h', 's', 'o'), st: fc.constantFrom('v', 'l'), sid: idText, cid: idText,
  }, { requiredKeys: [] });
  fc.assert(fc.property(members, (m) => {
    const r = cmcdFromRequestPath(`/abr/seg-video-4.m4s?${cmcdQueryArgument(m)}`);
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    const s = r.value;
    assert.ok(s !== null || Object.values(m).every((v) => v === false) || Object.keys(m).length === 0);
    if (s === null) return;
    assert.deepEqual(
      [s.bufferLengthMs, s.encodedBitrateKbps, s.objectDurationMs, s.deadlineMs, s.measuredThroughputKbps, s.requestedMaxThroughputKbps, s.topBitrateKbps],
      [m.bl, m.br, m.d, m.dl, m.mtp, m.rtp, m.tb]);
    assert.equal(s.startup, m.su ?? false);
    assert.equal(s.bufferStarvation, m.bs ?? false);
    assert.equal(s.nextObjectPath, m.nor === undefined ? undefined : `/abr/${m.nor}`);
    assert.deepEqual([s.objectType, s.streamingFormat, s.streamType, s.sessionId, s.contentId], [m.ot, m.sf, m.st, m.sid, m.cid]);
  }), { numRuns: RUNS, examples: [[{ st: 'v' }], [{ ot: 'av', sf: 'd' }]] }); // tokens were once written quoted
});

test('CMCD: what PROTOCOL.md §2.6 refuses is refused', () => {
  const integerKey = fc.constantFrom(['bl', 3_600_000], ['d', 3_600_000], ['dl', 3_600_000], ['br', 100_000_000], ['mtp', 100_000_000], ['rtp', 100_000_000], ['tb', 100_000_000]);
  const cases = fc.oneof(
    // out of range or negative numbers, decimals where integers belong
    fc.tuple(integerKey, fc.integer({ min: 1, max: 10 ** 9 })).map(([[k, max], extra]) => `${k}=${Number(max) + extra}`),
    fc.tuple(integerKey, fc.integer({ min: 1, max: 10 ** 9 })).map(([[k], n]) => `${k}=-${n}`),
    fc.tuple(integerKey, fc.integer({ min: 0, max: 999 })).map(([[k], n]) => `${k}=${n}.5`),
    // a key twice, a boolean written as a number, an oversized payload
    fc.tuple(integerKey, fc.nat(1000)).map(([[k], n]) => `${k}=${n},${k}=${n}`),
    fc.constantFrom('su=1', 'bs=0', 'v=2', 'pr=0', 'pr=101', 'ot=x', 'sid="é"'),
    fc.string({ minLength: MAX_CMCD_CHARS + 1, maxLength: MAX_CMCD_CHARS + 50 }).map((s) => `sid="${s}"`),
    // a nor that climbs out of the root or names another origin
    fc.constantFrom('nor="..%2F..%2Fetc%2Fpasswd"', 'nor="%2F..%2Fx"', 'nor="https%3A%2F%2Fexample.org%2Fx"', 'nor="%2F%2Fhost%2Fx"'),
  );
  fc.assert(fc.property(cases, (payload) => {
    const r = parseCmcd(payload, '/abr/seg-1.m4s');
    assert.ok(!r.ok, `accepted ${payload.slice(0, 80)}`);
    assertDocumentedFailure(r);
  }), { numRuns: RUNS });
});

test('CMCD nor: any accepted next-object path is a clean path from the media root', () => {
  const nor = fc.array(fc.constantFrom('..', '.', '', 'a', 'seg.m4s', '%2E%2E', '%2F', '/', '%00', '\\', '?x', '#y', 'é', '%'), { maxLength: 10 })
    .map((parts) => parts.join('/'));
  fc.assert(fc.property(fc.oneof(nor, fc.string({ maxLength: 60 })), requestPath, (value, path) => {
    const r = resolveNextObjectPath(value, path);
    assertDocumentedFailure(r);
    if (!r.ok) return;
    assert.ok(r.value.startsWith('/'));
    for (const segment of r.value.slice(1).split('/')) {
      assert.ok(segment !== '' && segment !== '.' && segment !== '..', `segment ${JSON.stringify(segment)} in ${r.value}`);
      assert.doesNotMatch(segment, /[\u0000-\u001f\u007f\\]/);
    }
  }), { numRuns: RUNS, examples: [[' ', '//'], [' ', '/\\/'], ['x', '/../seg.m4s']] }); // found by this property
  // The request's folder counts as the origin counts it: empty segments are not folders.
  assert.deepEqual(resolveNextObjectPath('../x.m4s', '/a//seg.m4s'), { ok: true, value: '/x.m4s' });
});
