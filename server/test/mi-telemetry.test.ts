import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { MiTelemetry } from '../src/telemetry/mi-telemetry.ts';

test('close() resolves once every line is in the file: a process that exits then loses none', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcc-mi-telemetry-'));
  try {
    const telemetry = new MiTelemetry(7, 'vivace', dir, 0);
    const lines = 400;
    for (let i = 0; i < lines; i++) telemetry.emit({ t_us: i, mi: i, pad: 'x'.repeat(200) }, i);
    // No event-loop turn between the writes and this read but the close's own: without the wait the file is
    // not even open yet.
    await telemetry.close();
    const files = readdirSync(dir);
    assert.equal(files.length, 1);
    const text = readFileSync(join(dir, files[0]!), 'utf8');
    assert.ok(text.endsWith('\n'), 'the last line is whole');
    const written = text.trimEnd().split('\n');
    assert.equal(written.length, lines);
    assert.equal(JSON.parse(written.at(-1)!).mi, lines - 1);
    assert.equal(telemetry.close(), telemetry.close(), 'closing again returns the same end');
    await telemetry.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a session that wrote no line has no file, and its close resolves at once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcc-mi-telemetry-'));
  try {
    const closed = new MiTelemetry(8, 'vivace', dir, 0);
    await closed.close();
    closed.emit({ t_us: 1, mi: 1 }, 1);
    assert.deepEqual(readdirSync(dir), [], 'a line after the close opens no file');
    await new MiTelemetry(9, 'vivace', null, 0).close();
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
