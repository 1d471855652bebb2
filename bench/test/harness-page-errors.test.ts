// A page error keeps its stack: the run directory gets every uncaught error's whole stack, and the failed run's one
// line names the innermost frame, so a CI log alone says where a player broke (run-browser.ts recordPageError).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGE_ERRORS_FILE, recordPageError } from '../harness/run-browser.ts';

function pageError(message: string, frames: string[]): Error {
  const error = new TypeError(message);
  error.stack = [`TypeError: ${message}`, ...frames.map((f) => `    at ${f}`)].join('\n');
  return error;
}

test('page errors: the whole stack goes to the run directory, the one-line form names the innermost frame', () => {
  const runDir = mkdtempSync(join(tmpdir(), 'pcc-page-errors-'));
  try {
    const message = "Cannot read properties of undefined (reading 'video')";
    const first = recordPageError(runDir, 0, pageError(message, ['http://127.0.0.1:8080/assets/main-x.js:3:1024', 'setTimeout (native)']));
    assert.equal(first, `player 0: ${message} (at http://127.0.0.1:8080/assets/main-x.js:3:1024; stack in ${PAGE_ERRORS_FILE})`);
    const noStack = new Error('thrown without a stack');
    noStack.stack = undefined;
    assert.equal(recordPageError(runDir, 1, noStack), 'player 1: thrown without a stack');
    const file = readFileSync(join(runDir, PAGE_ERRORS_FILE), 'utf8');
    assert.match(file, /player 0\nTypeError: Cannot read properties of undefined \(reading 'video'\)\n {4}at http:\/\/127\.0\.0\.1:8080\/assets\/main-x\.js:3:1024\n {4}at setTimeout \(native\)\n/);
    assert.match(file, /player 1\nError: thrown without a stack\n/);
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
});
