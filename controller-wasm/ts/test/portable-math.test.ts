// Native (glibc) and WASM (musl) libm round transcendental functions differently in the last bit, which
// is enough to make the two builds diverge. Library and simulator code must use src/portable_math.h.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIBRARY_DIRS = ['src', 'src/algorithms', 'sim'];
// Correctly rounded everywhere (IEEE 754 requires it) or exact: these are fine to call.
const PLATFORM_DEPENDENT = [
  'exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'pow', 'cbrt', 'hypot', 'erf', 'erfc', 'lgamma', 'tgamma',
  'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh',
];
const CALL = new RegExp(`(?<![\\w.>])(${PLATFORM_DEPENDENT.join('|')})f?l?\\s*\\(`, 'g');

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/.*$/gm, ' ').replace(/"(?:[^"\\]|\\.)*"/g, '""');
}

test('library and simulator code call no platform-dependent libm function', () => {
  const offenders: string[] = [];
  for (const dir of LIBRARY_DIRS) {
    for (const file of readdirSync(join(PACKAGE_ROOT, dir)).filter((f) => f.endsWith('.c') || f.endsWith('.h'))) {
      if (dir === 'src' && file.startsWith('portable_math.')) continue;
      const lines = stripComments(readFileSync(join(PACKAGE_ROOT, dir, file), 'utf8')).split('\n');
      lines.forEach((line, i) => {
        for (const m of line.matchAll(CALL)) offenders.push(`${dir}/${file}:${i + 1}: ${m[1]}()`);
      });
    }
  }
  assert.deepEqual(offenders, [], `use pcc_log/pcc_exp/pcc_pow/pcc_cbrt/pcc_erfc from src/portable_math.h instead:\n${offenders.join('\n')}`);
});
