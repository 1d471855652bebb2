// Remove what killed linkem instances left behind (namespaces, TUNs, processes inside),
// without starting a new one: for cleanup after a crash or before a test run.
import { spawn } from 'node:child_process';

import { FORWARDER_PATH, preflight } from './preflight.ts';

/** Returns how many dead instances were cleaned up. Live instances are never touched. */
export function reclaimLinkem(): Promise<number> {
  preflight();
  return new Promise((resolve, reject) => {
    const child = spawn(FORWARDER_PATH, ['--reclaim'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`linkem reclaim failed: ${err.trim() || `exit ${code}`}`));
        return;
      }
      resolve((JSON.parse(out) as { instances: number }).instances);
    });
  });
}
