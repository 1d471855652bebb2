// mahimahi traces from files: the format's rules live in trace-format.ts (no Node imports, shared with the browser).
import { readFileSync } from 'node:fs';
import { parseTrace, TraceError } from './trace-format.ts';

export * from './trace-format.ts';

export function loadTrace(path: string): number[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new TraceError(`${path}: cannot open trace: ${(e as Error).message}`);
  }
  return parseTrace(text, path);
}
