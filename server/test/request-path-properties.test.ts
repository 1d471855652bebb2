// Property-based fuzzing (fast-check) of the origin's request-path handling (src/media/safe-path.ts): no path makes
// it throw; an accepted path is a list of plain file names (no dot segments, separators or NULs, however encoded);
// names percent-encoded as a URL path decode back to themselves; and MediaRoot.resolve never returns a file
// outside the media root, even through a symlink that points out of it. Pure: a temporary folder, no origin.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { MediaRoot, decodeRequestPath } from '../src/media/safe-path.ts';

const RUNS = 2000;

/** Path text from the alphabet of traversal attempts, and anything else. */
const hostilePath = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.array(fc.constantFrom('/', '..', '.', '%2e', '%2E%2e', '%2f', '%5c', '%00', '\\', 'v', 'seg-1.m4s', 'outside', 'link', '%', '%zz',
    '?', '#', '//', '%252e', 'é', '%C3%A9', '\u0000'), { maxLength: 16 }).map((parts) => parts.join('')),
);

test('request paths: none makes the decoder throw; accepted ones are plain names', () => {
  fc.assert(fc.property(hostilePath, (path) => {
    const r = decodeRequestPath(path);
    if (!r.ok) {
      assert.ok(r.reason.length > 0);
      return;
    }
    assert.ok(r.segments.length > 0);
    for (const s of r.segments) {
      assert.ok(s !== '' && s !== '.' && s !== '..', `segment ${JSON.stringify(s)} from ${JSON.stringify(path)}`);
      assert.ok(!s.includes('/') && !s.includes('\\') && !s.includes('\0'), `segment ${JSON.stringify(s)} from ${JSON.stringify(path)}`);
    }
  }), { numRuns: RUNS });
});

test('request paths: file names percent-encoded as a URL path decode back to themselves, query and fragment ignored', () => {
  const name = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s !== '.' && s !== '..' && !/[/\\\0]/.test(s));
  fc.assert(fc.property(fc.array(name, { minLength: 1, maxLength: 6 }), fc.string({ maxLength: 20 }), (names, query) => {
    const path = '/' + names.map(encodeURIComponent).join('/');
    assert.deepEqual(decodeRequestPath(path), { ok: true, segments: names });
    assert.deepEqual(decodeRequestPath(`${path}?${query}`), { ok: true, segments: names });
    assert.deepEqual(decodeRequestPath(`${path}#${query}`), { ok: true, segments: names });
  }), { numRuns: RUNS });
});

// A media root with a file, a folder, and symlinks out of it (to a file and to a folder beside the root).
const scratch = mkdtempSync(join(tmpdir(), 'pcc-path-properties-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const rootDir = join(scratch, 'media');
mkdirSync(join(rootDir, 'v'), { recursive: true });
writeFileSync(join(rootDir, 'v', 'seg-1.m4s'), 'segment');
writeFileSync(join(scratch, 'outside'), 'secret');
symlinkSync(join(scratch, 'outside'), join(rootDir, 'link'));
symlinkSync(scratch, join(rootDir, 'v', 'up'));

test('MediaRoot.resolve: no request path reaches a file outside the media root', () => {
  const root = new MediaRoot(rootDir);
  const nearRoot = fc.array(fc.constantFrom('v', 'up', 'link', 'seg-1.m4s', 'outside', 'media', '..', '%2e%2e', '.', ''), { minLength: 1, maxLength: 6 })
    .map((parts) => '/' + parts.join('/'));
  fc.assert(fc.property(fc.oneof(nearRoot, hostilePath), (path) => {
    const r = root.resolve(path);
    if (r.ok) assert.ok(r.realPath.startsWith(root.realRoot + sep), `${path} resolved to ${r.realPath}`);
  }), { numRuns: RUNS });
  assert.equal(root.resolve('/v/seg-1.m4s').ok, true);
  assert.deepEqual(root.resolve('/link'), { ok: false, reason: 'path leaves the media root' });
  assert.deepEqual(root.resolve('/v/up/outside'), { ok: false, reason: 'path leaves the media root' });
});
