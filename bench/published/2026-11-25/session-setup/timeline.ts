// The page's start-up timeline (window.pccPlayer.metrics().startup, player/src/session/playback-session.ts
// StartupTimeline) through the bench's link, which the bench's results do not keep: per run, the page on the lte
// suite's emulated link as the bench opens it (link, origin, page relay: bench/harness), 8 s of play, then the
// timeline as one JSON line on stdout.
// usage (repository root, under the heavy lock):
//   node --import tsx bench/published/2026-11-25/session-setup/timeline.ts TRACE OUT_DIR SCHEME:ARM... > timeline.jsonl
// e.g. att-lte-driving-2016 /tmp/tl vivace-video:serial vivace-video:early tcp-bbr:early
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startOriginProcess } from '@pcc-stream/server/process';
import { startLink } from '../../../harness/link.ts';
import { openPlayers } from '../../../harness/run-browser.ts';
import { PORTS } from '../../../harness/runner.ts';
import { suiteScenarios } from '../../../harness/suites.ts';
import type { Scheme } from '../../../harness/scenario.ts';

const [trace, outDir, ...runs] = process.argv.slice(2);
const scenario = suiteScenarios('lte').find((s) => s.name === `lte-${trace}`);
if (!scenario || !outDir || runs.length === 0) throw new Error('usage: timeline.ts TRACE OUT_DIR SCHEME:ARM...');
for (const [i, run] of runs.entries()) {
  const [scheme, arm] = run.split(':') as [Scheme, string];
  const runDir = join(outDir, `${i + 1}-${scheme}-${arm}`);
  mkdirSync(runDir, { recursive: true });
  const shell = await startLink(scenario, 1, runDir);
  const ports = { host: shell.baseAddress, ...PORTS };
  const origin = await startOriginProcess({ ...ports, mediaDir: join(process.cwd(), '.cache', 'media'), staticDir: join(process.cwd(), 'player', 'dist') });
  try {
    const players = await openPlayers(shell, ports, scheme, { ...scenario, playerParams: { sessionStart: arm } }, runDir);
    try {
      await new Promise((resolve) => setTimeout(resolve, 8000));
      const report = await players.pages[0]!.evaluate(() => (window as unknown as { pccPlayer: { metrics(): { startup: unknown; startupDelayS: number | null } } }).pccPlayer.metrics());
      console.log(JSON.stringify({ trace, scheme, arm, order: i + 1, startup_delay_s: report.startupDelayS, startup: report.startup }));
    } finally {
      await players.close();
    }
  } finally {
    await origin.stop();
    await shell.stop();
  }
}
