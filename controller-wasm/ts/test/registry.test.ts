// The scheme registry (@pcc-stream/protocol's SCHEMES) lists the WASM controllers without loading the module; this
// checks that list against what the module's C registry (src/registry.c) actually registers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_SCHEME, WASM_CONTROLLERS, schemeInfo } from '@pcc-stream/protocol';
import { loadControllerModule } from '../index.ts';
import { assertBuildsFresh, LIBRARY_SOURCES } from './support/build-freshness.ts';

test('the WASM module registers exactly the datagram controllers of the scheme registry', async () => {
  assertBuildsFresh(['wasm-dist/pcc_cc.wasm'], LIBRARY_SOURCES);
  const mod = await loadControllerModule();
  assert.deepEqual([...mod.algorithms()].sort(), [...WASM_CONTROLLERS].sort());
});

test('the module\'s default controller (registry.c\'s first entry) is the registry\'s default scheme', async () => {
  const mod = await loadControllerModule();
  const defaultScheme = schemeInfo(DEFAULT_SCHEME);
  assert.equal(defaultScheme.transport, 'datagram');
  assert.equal(mod.algorithms()[0], defaultScheme.cc);
});
