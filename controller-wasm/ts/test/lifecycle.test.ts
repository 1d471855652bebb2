// destroy() frees everything create() allocated: 10k cycles leave the WASM heap where it was.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadControllerModule, type AlgorithmName } from '../index.ts';

test('10k create/destroy cycles do not grow the WASM heap', async () => {
  const mod = await loadControllerModule();
  const algorithms = mod.algorithms() as AlgorithmName[];
  const cycle = (i: number): void => {
    const c = mod.create(algorithms[i % algorithms.length]!, { nowUs: 0, seed: i });
    for (let pn = 0; pn < 20; pn++) c.packetSent(pn, 1200, pn * 100);
    for (let pn = 0; pn < 10; pn++) c.ack(pn, 25_000, 0, 25_000 + pn * 100);
    c.loss(12, 40_000);
    c.telemetry();
    if (i % 3 === 0) {
      try {
        c.setUtility(() => 1);
      } catch {
        // algorithms without a utility refuse it; that path must not leak either
      }
    }
    c.destroy();
  };
  for (let i = 0; i < 200; i++) cycle(i); // warm up the allocator's free lists
  const heapBefore = mod.heapBytesInUse();
  for (let i = 0; i < 10_000; i++) cycle(i);
  const heapAfter = mod.heapBytesInUse();
  assert.equal(heapAfter, heapBefore, `heap in use ${heapBefore} -> ${heapAfter} bytes`);
});

test('liveControllers counts creates minus destroys; the linear memory covers the heap and does not shrink', async () => {
  const mod = await loadControllerModule();
  const live = mod.liveControllers();
  const controllers = Array.from({ length: 50 }, (_, i) => mod.create('vivace', { nowUs: 0, seed: i }));
  assert.equal(mod.liveControllers(), live + 50);
  const memoryAtPeak = mod.memoryBytes();
  assert.ok(memoryAtPeak >= mod.heapBytesInUse(), `memory ${memoryAtPeak} bytes < heap in use ${mod.heapBytesInUse()}`);
  for (const c of controllers) c.destroy();
  controllers[0]!.destroy(); // a second destroy() is allowed and must not count twice
  assert.equal(mod.liveControllers(), live);
  assert.equal(mod.memoryBytes(), memoryAtPeak);
  assert.throws(() => mod.create('vivace', { nowUs: 0, params: { no_such_param: 1 } }));
  assert.equal(mod.liveControllers(), live, 'a create() refused for a bad parameter leaves no live controller');
});

test('a live controller holds heap that destroy() returns', async () => {
  const mod = await loadControllerModule();
  const before = mod.heapBytesInUse();
  const c = mod.create('vivace', { nowUs: 0 });
  assert.ok(mod.heapBytesInUse() > before, 'create allocates');
  c.destroy();
  assert.equal(mod.heapBytesInUse(), before);
});

test('queued events survive WASM memory growth (the wrapper re-reads the detached heap view)', async () => {
  const { loadRuntime } = await import('../load.ts');
  const mod = await loadControllerModule();
  const raw = (await loadRuntime()).mod;
  const queued = mod.create('cubic', { nowUs: 0, seed: 8 });
  const reference = mod.create('cubic', { nowUs: 0, seed: 8 });
  const events = (c: typeof queued, from: number, to: number): void => {
    for (let pn = from; pn < to; pn++) {
      c.packetSent(pn, 1200, pn * 200);
      if (pn >= 50) c.ack(pn - 50, 10_000, 0, pn * 200);
    }
  };
  events(queued, 0, 100); // stays queued in WASM memory (batch capacity 256)
  events(reference, 0, 100);
  reference.flush();
  const bytesBefore = raw.HEAPU8.byteLength;
  const block = raw._malloc(bytesBefore * 2); // forces memory.grow: every JS view of the old buffer detaches
  assert.notEqual(block, 0);
  assert.ok(raw.HEAPU8.byteLength > bytesBefore, 'memory grew');
  events(queued, 100, 400); // pushes through a detached view unless the wrapper notices
  events(reference, 100, 400);
  raw._free(block);
  assert.deepEqual(queued.telemetry(), reference.telemetry());
  assert.equal(queued.telemetry().packetsAcked, 350);
  queued.destroy();
  reference.destroy();
});
