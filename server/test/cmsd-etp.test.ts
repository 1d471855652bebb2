// CMSD etp from the datagram origin's controller (datagram-transport.ts controllerEtpKbps, --etp-source): with
// `measured` none before the controller has heard a delivery or while it is in its start-up phase, its pacing rate
// after; with `pacing` (the rule before) the initial 1000 kbit/s goes out from the first ACK. A real vivace-video
// controller is driven by a closed-loop link model (the controller tests' generateScenario), and --etp-source is
// parsed by the origin's CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { loadControllerModule } from '@pcc-stream/controller';
import { generateScenario } from '../../controller-wasm/ts/test/support/closed-loop.ts';
import { applyLine } from '../../controller-wasm/ts/test/support/replay-script.ts';
import { START_UP_STATES, controllerEtpKbps } from '../src/session/datagram-transport.ts';

test('measured etp: none before the first ACK nor in slow start (where pacing sends the initial rate); the pacing rate after', async () => {
  const mod = await loadControllerModule();
  // 10 Mbit/s, 40 ms, a BDP of buffer: slow start ends when the queue's RTT growth lowers the utility.
  const script = generateScenario(mod, {
    algorithm: 'vivace-video', seed: 7, durationUs: 6_000_000, linkRateBps: 10e6, baseRttUs: 40_000,
    bufferBytes: 50_000, lossRate: 0, packetBytes: 1200, odd: false,
  });
  const create = script[0]!;
  assert.equal(create.kind, 'create');
  const controller = mod.create('vivace-video', { nowUs: 0, seed: create.seed });
  try {
    let acks = 0;
    let inSlowStartAfterAck = 0;
    let leftStartUpAt = -1;
    let firstPacingEtp: number | undefined;
    for (const [i, line] of script.slice(1).entries()) {
      applyLine(controller, line);
      if (line.kind === 'ack') acks++;
      const measured = controllerEtpKbps('measured', controller);
      const pacing = controllerEtpKbps('pacing', controller);
      const state = controller.telemetry().state;
      const rateKbps = (controller.pacingRateBytesPerSec() * 8) / 1000;
      assert.equal(pacing, rateKbps, 'pacing: the controller\'s rate, always');
      if (acks === 0) {
        assert.equal(measured, undefined, `line ${i}: etp before any delivery`);
      } else if (START_UP_STATES.has(state)) {
        assert.equal(measured, undefined, `line ${i}: etp ${measured} kbit/s in ${state}`);
        inSlowStartAfterAck++;
        firstPacingEtp ??= pacing;
      } else {
        if (leftStartUpAt < 0) leftStartUpAt = i;
        assert.equal(measured, rateKbps, `line ${i} (${state}): etp is the pacing rate once out of start-up`);
      }
    }
    assert.ok(inSlowStartAfterAck > 0, 'the scenario has ACKs heard in slow start (where the two rules differ)');
    assert.equal(firstPacingEtp, 1000, 'the rule before sent the initial 1000 kbit/s at the first ACK');
    assert.ok(leftStartUpAt > 0, 'the controller left slow start within the scenario');
  } finally {
    controller.destroy();
  }
});

test('every controller starts in a phase START_UP_STATES names, except fixed, whose set rate goes out from the first ACK', async () => {
  const mod = await loadControllerModule();
  for (const algorithm of mod.algorithms()) {
    const c = mod.create(algorithm as never, { nowUs: 0 });
    try {
      const state = c.telemetry().state;
      if (algorithm === 'fixed') {
        assert.ok(!START_UP_STATES.has(state), state);
        c.packetSent(0, 1200, 0);
        assert.equal(controllerEtpKbps('measured', c), undefined, 'fixed: no etp before an ACK');
        c.ack(0, 40_000, 0, 40_000);
        assert.equal(controllerEtpKbps('measured', c), (c.pacingRateBytesPerSec() * 8) / 1000);
      } else {
        assert.ok(START_UP_STATES.has(state), `${algorithm} starts in "${state}", which START_UP_STATES does not name`);
      }
    } finally {
      c.destroy();
    }
  }
});

test('origin CLI: --etp-source is listed in --help; a bad value is a usage error naming the choices', () => {
  const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');
  const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/origin-main.ts', ...args], { cwd: serverDir, encoding: 'utf8', timeout: 60_000 });
  const help = run(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--etp-source VALUE +datagram sessions' CMSD etp: .*measured\|pacing \(default pacing\)/);
  const bad = run(['--etp-source', 'kernel']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--etp-source must be one of measured, pacing, got "kernel"/);
});
