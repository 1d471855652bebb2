// The shared trace test vectors (netpath/test-vectors/traces/manifest.tsv) read by the TypeScript trace reader;
// the C reader is held to the same manifest by netpath/test/test_trace_vectors.c (controller-wasm's ctest).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { loadTrace, TraceError } from '../linkem/src/driver/index.ts';

const VECTORS = join(import.meta.dirname, '..', '..', 'netpath', 'test-vectors', 'traces');

type Row = { file: string; outcome: string; detail: string; lastMs: string | undefined };

const rows: Row[] = readFileSync(join(VECTORS, 'manifest.tsv'), 'utf8')
  .split('\n')
  .filter((line) => line !== '' && !line.startsWith('#'))
  .map((line) => {
    const [file = '', outcome = '', detail = '', lastMs] = line.split('\t');
    return { file, outcome, detail, lastMs };
  });

test('the manifest lists every vector, and enough of them', () => {
  const files = readdirSync(VECTORS).filter((f) => f.endsWith('.trace')).sort();
  assert.deepEqual(rows.map((r) => r.file).sort(), files);
  assert.ok(rows.length >= 20, `${rows.length} rows`);
});

for (const row of rows) {
  test(`trace vector ${row.file}: ${row.outcome} ${row.detail}`, () => {
    const path = join(VECTORS, row.file);
    if (row.outcome === 'accept') {
      const timesMs = loadTrace(path);
      assert.equal(timesMs.length, Number(row.detail));
      assert.equal(timesMs[timesMs.length - 1], Number(row.lastMs));
    } else {
      assert.equal(row.outcome, 'reject');
      assert.throws(
        () => loadTrace(path),
        (e: Error) => e instanceof TraceError && e.message.startsWith(path) && e.message.includes(row.detail),
      );
    }
  });
}
