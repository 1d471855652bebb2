// Real ffmpeg, short content: the CBR padding must make segment sizes match the nominal bitrate, and a second run
// must skip the complete set.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { generateSet, isSetComplete, selectSets } from '../media/generate.ts';
import type { MediaSet } from '../media/ladder.ts';

const root = mkdtempSync(join(tmpdir(), 'pcc-media-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('an encoded set is CBR-exact, DASH-complete, and skipped the second time', { timeout: 120_000 }, async () => {
  const durationS = 6;
  const set: MediaSet = { name: 'tiny', renditions: [{ videoKbps: 300, width: 256, height: 144 }, { videoKbps: 2000, width: 512, height: 288 }], durationS, segmentDurationS: 2, vbr: false };
  assert.equal((await generateSet(root, set)).outcome, 'generated');
  const dir = join(root, set.name);
  const mpd = readFileSync(join(dir, 'manifest.mpd'), 'utf8');
  assert.match(mpd, /bandwidth="300000"/);
  assert.match(mpd, /bandwidth="2000000"/);
  assert.match(mpd, /duration="2000000"/); // 2 s segments (timescale 1e6)
  for (const [id, kbps] of [[0, 300], [1, 2000]] as const) {
    const segments = readdirSync(dir).filter((f) => f.startsWith(`seg-${id}-`));
    assert.equal(segments.length, durationS / 2);
    const bits = segments.reduce((sum, f) => sum + statSync(join(dir, f)).size * 8, 0);
    const measuredKbps = bits / durationS / 1000;
    assert.ok(Math.abs(measuredKbps - kbps) / kbps < 0.05, `rendition ${id}: ${measuredKbps.toFixed(0)} kbit/s, nominal ${kbps}`);
  }
  assert.equal(isSetComplete(root, set), true);
  assert.equal(isSetComplete(root, { ...set, durationS: 8 }), false, 'other parameters are another set');
  assert.equal((await generateSet(root, set)).outcome, 'skipped');
  assert.equal(readdirSync(root).filter((f) => f.includes('partial')).length, 0);
});

test('set selection rejects unknown names', () => {
  assert.deepEqual(selectSets('abr').map((s) => s.name), ['abr']);
  assert.deepEqual(selectSets('fixed').map((s) => s.name), ['fixed-4000k', 'fixed-8000k', 'fixed-15000k', 'fixed-30000k']);
  assert.throws(() => selectSets('abr,../x'), /unknown media set/);
});

test('a VBR ladder: each rung lands near its nominal mean from one two-pass encode, sizes vary, no pass logs left', { timeout: 180_000 }, async () => {
  const set: MediaSet = { name: 'tiny-vbr', renditions: [{ videoKbps: 300, width: 256, height: 144 }, { videoKbps: 2000, width: 512, height: 288 }], durationS: 10, segmentDurationS: 2, vbr: true };
  const { outcome, record } = await generateSet(root, set);
  assert.equal(outcome, 'generated');
  const dir = join(root, set.name);
  for (const [id, kbps] of [[0, 300], [1, 2000]] as const) {
    const sizes = readdirSync(dir).filter((f) => f.startsWith(`seg-${id}-`)).map((f) => statSync(join(dir, f)).size);
    assert.equal(sizes.length, 5);
    const measuredKbps = (sizes.reduce((a, b) => a + b, 0) * 8) / set.durationS / 1000;
    assert.ok(Math.abs(measuredKbps - kbps) / kbps < 0.1, `rung ${id}: ${measuredKbps.toFixed(0)} kbit/s, nominal ${kbps}`);
    const report = record.measured.renditions[id]!;
    assert.equal(report.segments.maxBytes, Math.max(...sizes));
    assert.ok(report.segments.cv > 0.05, `rung ${id}: CV ${report.segments.cv}`);
  }
  assert.deepEqual(readdirSync(dir).filter((f) => f.includes('2pass')), []);
});
