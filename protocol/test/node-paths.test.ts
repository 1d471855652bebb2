// The command lines' shared path rules: userPath (relative to where the user ran the command) and traceFile
// (compressed traces decompressed once into the cache).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { userCwd, userPath } from '../node/user-path.ts';
import { TRACE_CACHE_DIR, traceFile, TraceFileError } from '../node/trace-file.ts';

function withEnv(env: Record<string, string | undefined>, body: () => void): void {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  try {
    body();
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
}

test('userPath: PCC_USER_CWD, then INIT_CWD, then the process directory; absolute paths unchanged', () => {
  withEnv({ PCC_USER_CWD: undefined, INIT_CWD: undefined }, () => {
    assert.equal(userCwd(), process.cwd());
    assert.equal(userPath('a/b.json'), join(process.cwd(), 'a/b.json'));
  });
  withEnv({ PCC_USER_CWD: undefined, INIT_CWD: '/srv/typed-here' }, () => {
    assert.equal(userPath('results/x'), '/srv/typed-here/results/x');
    assert.equal(userPath('../up'), '/srv/up');
    assert.equal(userPath('/abs/file'), '/abs/file');
  });
  withEnv({ PCC_USER_CWD: '/home/u/sub', INIT_CWD: '/home/u/repo' }, () => {
    assert.equal(userPath('t.down'), '/home/u/sub/t.down');
  });
});

test('traceFile: plain files and missing paths pass through; NAME.gz and a missing NAME with NAME.gz are decompressed once', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trace-file-'));
  const text = `${Array.from({ length: 1000 }, (_, i) => String(i + 1)).join('\n')}\n# ${process.pid} ${Date.now()}\n`;
  writeFileSync(join(dir, 'plain.down'), '1\n2\n');
  writeFileSync(join(dir, 'big.down.gz'), gzipSync(text));
  const made: string[] = [];
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const p of made) rmSync(dirname(p), { recursive: true, force: true });
  });

  assert.equal(traceFile(join(dir, 'plain.down')), join(dir, 'plain.down'));
  assert.equal(traceFile(join(dir, 'nothing.down')), join(dir, 'nothing.down'));
  assert.equal(traceFile(join(dir, 'nothing.down.gz')), join(dir, 'nothing.down.gz'));

  const viaSibling = traceFile(join(dir, 'big.down'));
  made.push(viaSibling);
  assert.ok(viaSibling.startsWith(TRACE_CACHE_DIR + '/'), viaSibling);
  assert.equal(viaSibling.split('/').pop(), 'big.down');
  assert.equal(readFileSync(viaSibling, 'utf8'), text);
  const mtime = statSync(viaSibling).mtimeMs;
  // The same content by its .gz name: the same cached copy, not written again.
  assert.equal(traceFile(join(dir, 'big.down.gz')), viaSibling);
  assert.equal(statSync(viaSibling).mtimeMs, mtime);
  assert.deepEqual(readdirSync(dirname(viaSibling)), ['big.down'], 'no temporary file left behind');

  // New content under the same name: a new copy (cached by content, not by name).
  writeFileSync(join(dir, 'big.down.gz'), gzipSync(`${text}7\n`));
  const changed = traceFile(join(dir, 'big.down'));
  made.push(changed);
  assert.notEqual(changed, viaSibling);
  assert.equal(readFileSync(changed, 'utf8'), `${text}7\n`);
});

test('traceFile: a corrupt .gz is a clear error naming the file', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trace-file-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'bad.down.gz'), 'not gzip at all');
  assert.throws(() => traceFile(join(dir, 'bad.down')), (e: Error) => e instanceof TraceFileError && e.message.includes('bad.down.gz') && /gzip/.test(e.message));
});
