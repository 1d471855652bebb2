// Media on demand in the browser: a VBR set generated for its scenario plays over vivace datagrams, and a user's
// own ffmpeg DASH content (SegmentTimeline, manifest not named manifest.mpd) is linked into the media root and
// plays over kernel TCP, both in Debian's Chromium behind linkem. Needs root (network namespaces).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { byoSetName } from '@pcc-stream/player/media-byo';
import { repoRoot } from '../harness/repo-root.ts';
import { plan, runPlan } from '../harness/runner.ts';
import { parseScenario } from '../harness/scenario.ts';

const playerDir = join(repoRoot, 'player', 'dist');

test('a generated VBR set and bring-your-own content play in Chromium without reaching their end', { timeout: 400_000 }, async () => {
  assert.ok(existsSync(join(playerDir, 'index.html')), 'player not built');
  const work = mkdtempSync(join(tmpdir(), 'pcc-bench-media-chromium-'));
  try {
    const film = join(work, 'film');
    mkdirSync(film);
    const encoded = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=640x360:r=30:d=24',
      '-f', 'lavfi', '-i', 'sine=d=24', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0',
      '-b:v', '1500k', '-c:a', 'aac', '-b:a', '96k', '-f', 'dash', '-seg_duration', '2', '-use_timeline', '1',
      '-adaptation_sets', 'id=0,streams=v id=1,streams=a', 'stream.mpd'], { cwd: film, encoding: 'utf8' });
    assert.equal(encoded.status, 0, encoded.stderr);
    const link = { down: { rate_mbps: 10 }, up: { rate_mbps: 10 }, queue: { type: 'droptail', bytes: 300000 } };
    const scenarios = [
      parseScenario({ name: 'media-vbr', duration_s: 12, link, delay: { one_way_ms: 10 }, media: { bitrate_mbps: 3.3, vbr: true }, schemes: ['vivace'] }, work),
      parseScenario({ name: 'media-byo', duration_s: 12, link, delay: { one_way_ms: 10 }, media: { mpd: 'film/stream.mpd' }, schemes: ['tcp-cubic'] }, work),
    ];
    const mediaDir = join(work, 'media');
    mkdirSync(mediaDir);
    const performed = await runPlan(plan(scenarios), { outDir: join(work, 'out'), mediaDir, playerDir, shouldStop: () => false });
    assert.deepEqual(performed.map((r) => r.media?.set), ['vbr-3300k-22s-2s', byoSetName(join(film, 'stream.mpd'))]);
    for (const run of performed) {
      assert.equal(run.status, 'ok', `${run.run_id} failed: ${run.error ?? ''}`);
      const player = run.players[0]!;
      assert.ok(player.playing_time_s > 6, `${run.run_id}: played only ${player.playing_time_s} s`);
      assert.ok(player.bytes_received > 1e6, `${run.run_id}: received ${player.bytes_received} bytes`);
      // The content outlasts the run: playback stopped at the run's end, short of the media's.
      assert.ok(player.playing_time_s + player.startup_delay_s < run.media!.duration_s, `${run.run_id}: played to the end`);
    }
    // dash.js reports the rendition's @bandwidth: for VBR the DASH-true rate, at least the measured mean (near nominal).
    const vbr = performed[0]!;
    assert.ok(vbr.avg_bitrate_mbps !== null && Math.abs(vbr.avg_bitrate_mbps - 3.3) < 0.35, `VBR bitrate ${vbr.avg_bitrate_mbps}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
