// npm run -s screenshots (the README's images) into a temporary folder, never over the committed docs/images/: the
// playground shot only (the compare-on-lte shot needs npm start behind linkem for half a minute; demo-network.test.ts
// covers that path).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../src/repo-root.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

test('npm run -s screenshots -- --out DIR --only playground writes the playground image there and leaves docs/images alone', () => {
  const out = mkdtempSync(join(tmpdir(), 'pcc-screenshots-'));
  const committed = join(repoRoot, 'docs', 'images', 'playground.png');
  const before = existsSync(committed) ? statSync(committed).mtimeMs : null;
  try {
    const run = spawnSync('npm', ['run', '-s', 'screenshots', '--', '--out', out, '--only', 'playground'], { cwd: repoRoot, encoding: 'utf8', timeout: 300_000 });
    assert.equal(run.status, 0, `screenshots failed: ${run.stderr}`);
    const file = join(out, 'playground.png');
    assert.equal(run.stdout.trim(), file);
    const png = readFileSync(file);
    assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE);
    // IHDR: width and height, big-endian at bytes 16 and 20: the 1400 px wide viewport, the full page's height.
    assert.equal(png.readUInt32BE(16), 1400);
    assert.ok(png.readUInt32BE(20) >= 600, `height ${png.readUInt32BE(20)}`);
    assert.ok(png.length > 50_000, `a page with charts, not a blank one: ${png.length} B`);
    const done = run.stderr.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { event: string; flows?: Array<{ throughput_mbps: number }> }).find((e) => e.event === 'shot_done');
    assert.ok(done?.flows?.every((f) => f.throughput_mbps > 0), `both flows moved data: ${JSON.stringify(done)}`);
    assert.equal(existsSync(committed) ? statSync(committed).mtimeMs : null, before, 'docs/images/playground.png untouched');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
