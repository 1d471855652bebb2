import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

/** A fresh directory under the system's temp dir, removed when the test ends, passed or failed. */
export function scratchDir(t: TestContext, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
