// Media on demand (issue 15 item 3) with real ffmpeg and short content: scenarios at any bitrate get their set
// generated and cached by its parameters, VBR sets vary like content, bring-your-own manifests are validated before
// anything runs, and the default duration outlasts the run. No network namespace or browser: no root needed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifest } from '@pcc-stream/player/media-mpd';
import { contentFor, generatedSetFor, mediaRecord, PLAYBACK_MARGIN_S, prepareMedia, requiredMediaDurationS } from '../harness/media.ts';
import { parseScenario, ScenarioError, type Scenario } from '../harness/scenario.ts';

const work = mkdtempSync(join(tmpdir(), 'pcc-bench-media-'));
const mediaDir = join(work, 'media');
mkdirSync(mediaDir);
after(() => rmSync(work, { recursive: true, force: true }));

function scenario(media: unknown, durationS: number, extra: Record<string, unknown> = {}, baseDir = work): Scenario {
  return parseScenario({ name: 'media-test', duration_s: durationS, link: { down: { rate_mbps: 10 }, up: { rate_mbps: 10 } }, media, ...extra }, baseDir);
}

function videoSegmentBytes(setDir: string): number[] {
  return readdirSync(setDir).filter((f) => /^seg-0-\d+\.m4s$/.test(f)).sort().map((f) => statSync(join(setDir, f)).size);
}

// Content length is the run's duration plus PLAYBACK_MARGIN_S: 2 s of run keeps these encodes at 12-14 s.
for (const bitrateMbps of [5, 3.3]) {
  test(`a ${bitrateMbps} Mbit/s scenario gets its CBR set generated at the nominal bitrate, long enough, then cached`, { timeout: 180_000 }, async () => {
    const s = scenario({ abr: false, bitrate_mbps: bitrateMbps }, 2);
    const kbps = Math.round(bitrateMbps * 1000);
    const set = generatedSetFor(s)!;
    assert.equal(set.name, `cbr-${kbps}k-${2 + PLAYBACK_MARGIN_S}s-2s`);
    assert.deepEqual(contentFor(s), { content: set.name, abr: 'off', bitrateKbps: kbps });
    await prepareMedia([s], mediaDir);
    const dir = join(mediaDir, set.name);
    const sizes = videoSegmentBytes(dir);
    assert.equal(sizes.length, set.durationS / 2);
    const measuredKbps = (sizes.reduce((a, b) => a + b, 0) * 8) / set.durationS / 1000;
    assert.ok(Math.abs(measuredKbps - kbps) / kbps < 0.05, `measured ${measuredKbps.toFixed(0)} kbit/s, nominal ${kbps}`);
    // The manifest the player reads covers what the run needs: it never plays past the end.
    const manifest = parseManifest(readFileSync(join(dir, 'manifest.mpd'), 'utf8'));
    assert.ok(manifest.durationS >= requiredMediaDurationS(s).seconds, `content ${manifest.durationS} s`);
    assert.deepEqual(mediaRecord(s), { set: set.name, kind: 'cbr', abr: false, bitrate_kbps: kbps, duration_s: set.durationS, segment_s: 2 });
    // Second call: the marker matches, nothing is encoded again.
    const started = Date.now();
    const markerBefore = statSync(join(dir, 'complete.json')).mtimeMs;
    await prepareMedia([s], mediaDir);
    assert.ok(Date.now() - started < 2000, 'a cached set is not encoded again');
    assert.equal(statSync(join(dir, 'complete.json')).mtimeMs, markerBefore);
  });
}

test('a CBR scenario with a cheaper picture: its own set, encoded at that size and frame rate, still at the nominal bitrate', { timeout: 180_000 }, async () => {
  const s = scenario({ abr: false, bitrate_mbps: 3, picture: { width: 320, height: 180, frame_rate: 10 } }, 2);
  const set = generatedSetFor(s)!;
  assert.equal(set.name, `cbr-3000k-${2 + PLAYBACK_MARGIN_S}s-2s-320x180-10fps`);
  await prepareMedia([s], mediaDir);
  const dir = join(mediaDir, set.name);
  const sizes = videoSegmentBytes(dir);
  const measuredKbps = (sizes.reduce((a, b) => a + b, 0) * 8) / set.durationS / 1000;
  assert.ok(Math.abs(measuredKbps - 3000) / 3000 < 0.05, `measured ${measuredKbps.toFixed(0)} kbit/s, nominal 3000`);
  const first = join(work, 'picture-first-segment.mp4');
  writeFileSync(first, Buffer.concat([readFileSync(join(dir, 'init-0.m4s')), readFileSync(join(dir, 'seg-0-00001.m4s'))]));
  const probe = spawnSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=width,height,r_frame_rate,nb_read_frames', '-of', 'json', first], { encoding: 'utf8' });
  assert.equal(probe.status, 0, probe.stderr);
  const stream = (JSON.parse(probe.stdout) as { streams: Array<Record<string, unknown>> }).streams[0];
  assert.deepEqual(stream, { width: 320, height: 180, r_frame_rate: '10/1', nb_read_frames: '20' }); // one 2 s segment
  // The default picture is another set; pictures that cannot be encoded, or that a set picks itself, are refused.
  assert.notEqual(generatedSetFor(scenario({ abr: false, bitrate_mbps: 3 }, 2))!.name, set.name);
  assert.throws(() => scenario({ abr: true, picture: { width: 320, height: 180, frame_rate: 10 } }, 60), /media\.picture: an ABR ladder has its own pictures/);
  assert.throws(() => generatedSetFor(scenario({ abr: false, bitrate_mbps: 3, vbr: true, picture: { width: 320, height: 180, frame_rate: 10 } }, 60)), /for CBR sets only/);
  assert.throws(() => generatedSetFor(scenario({ abr: false, bitrate_mbps: 3, picture: { width: 321, height: 180, frame_rate: 10 } }, 60)), (e: Error) => e instanceof ScenarioError && /picture width 321 is not an even whole number/.test(e.message));
  assert.throws(() => generatedSetFor(scenario({ abr: false, bitrate_mbps: 3, segment_s: 0.5, picture: { width: 320, height: 180, frame_rate: 3 } }, 60)), /not a whole number of frames at 3 fps/);
  assert.throws(() => scenario({ abr: false, bitrate_mbps: 3, picture: { width: 320, height: 180 } }, 60), /media\.picture\.frame_rate/);
});

test('a VBR scenario: segment sizes spread like content, the mean near nominal, @bandwidth DASH-true and not below the mean', { timeout: 300_000 }, async (t) => {
  const s = scenario({ abr: false, bitrate_mbps: 3.3, vbr: true, duration_s: 30 }, 10);
  const set = generatedSetFor(s)!;
  assert.equal(set.name, 'vbr-3300k-30s-2s');
  await prepareMedia([s], mediaDir);
  const dir = join(mediaDir, set.name);
  const record = JSON.parse(readFileSync(join(dir, 'complete.json'), 'utf8'));
  const spread = record.measured.renditions[0].segments;
  t.diagnostic(`vbr-3300k: ${JSON.stringify(spread)}, bandwidth ${record.measured.renditions[0].bandwidthBps}, encode ${record.measured.encodeSeconds} s`);
  const sizes = videoSegmentBytes(dir);
  const meanKbps = (sizes.reduce((a, b) => a + b, 0) * 8) / set.durationS / 1000;
  assert.ok(Math.abs(meanKbps - 3300) / 3300 < 0.08, `VBR mean ${meanKbps.toFixed(0)} kbit/s, nominal 3300`);
  assert.equal(spread.count, sizes.length);
  assert.ok(spread.cv > 0.15, `coefficient of variation ${spread.cv}: not content-like`);
  assert.ok(spread.maxBytes > 1.5 * spread.minBytes, `max ${spread.maxBytes} vs min ${spread.minBytes}`);
  // @bandwidth is DASH-true: a channel of that rate, after minBufferTime, delivers every segment before it plays,
  // and 2% less would not (ISO/IEC 23009-1 §5.3.5.2), whatever the encoder's target was.
  const mpd = readFileSync(join(dir, 'manifest.mpd'), 'utf8');
  const bandwidth = Number(/<Representation id="0"[^>]*? bandwidth="(\d+)"/.exec(mpd)?.[1]);
  const minBufferS = Number(/minBufferTime="PT([\d.]+)S"/.exec(mpd)?.[1]);
  assert.equal(bandwidth, record.measured.renditions[0].bandwidthBps);
  const inTime = (rateBps: number): boolean => {
    let bits = 0;
    return sizes.every((bytes, k) => (bits += bytes * 8) <= rateBps * (k * 2 + minBufferS));
  };
  assert.ok(inTime(bandwidth), `bandwidth ${bandwidth} does not deliver the segments in time`);
  assert.ok(bandwidth >= meanKbps * 1000 - 1, `bandwidth ${bandwidth} below the mean ${meanKbps} kbit/s`);
  // Tight: the smallest rate that is both in time and not below the mean.
  assert.ok(!inTime(bandwidth * 0.98) || bandwidth * 0.98 < meanKbps * 1000, `bandwidth ${bandwidth} is higher than it needs to be`);
});

test('the default duration outlasts every run: whole segments, run + margin, more players more margin', () => {
  for (const durationS of [1, 20, 40, 59, 60, 61, 90, 300]) {
    for (const segmentS of [0.5, 1, 2, 3.2, 4, 6]) {
      for (const players of [1, 3]) {
        const s = scenario({ abr: true, segment_s: segmentS }, durationS, { players });
        const set = generatedSetFor(s)!;
        const segments = set.durationS / segmentS;
        assert.ok(Math.abs(segments - Math.round(segments)) < 1e-9, `${set.name}: not whole segments`);
        assert.ok(set.durationS >= durationS + PLAYBACK_MARGIN_S, `${set.name} for a ${durationS} s run`);
        assert.ok(set.durationS >= requiredMediaDurationS(s).seconds);
        assert.ok(set.durationS < requiredMediaDurationS(s).seconds + segmentS, `${set.name}: more than one segment of slack`);
      }
    }
  }
  assert.equal(generatedSetFor(scenario({ abr: true }, 60))!.name, 'abr-cbr-70s-2s');
  assert.equal(generatedSetFor(scenario({ abr: true, vbr: true, segment_s: 4 }, 60))!.name, 'abr-vbr-72s-4s');
  assert.equal(generatedSetFor(scenario({ bitrate_mbps: 5 }, 300))!.name, 'cbr-5000k-310s-2s');
  // An explicit duration that would run out, or that is not whole segments, is refused before anything runs.
  assert.throws(() => generatedSetFor(scenario({ abr: false, bitrate_mbps: 5, duration_s: 60 }, 60)), (e: Error) => e instanceof ScenarioError && /60 s of content is shorter than the 70 s the run needs/.test(e.message));
  assert.throws(() => generatedSetFor(scenario({ abr: false, bitrate_mbps: 5, duration_s: 81 }, 60)), /not a whole number of 2 s segments \(use 80 or 82\)/);
  assert.throws(() => generatedSetFor(scenario({ abr: true, segment_s: 0.55 }, 60)), /not a whole number of frames/);
  assert.throws(() => scenario({ abr: true, bitrate_mbps: 5 }, 60), /media\.bitrate_mbps/);
  assert.throws(() => scenario({ mpd: 'x.mpd', vbr: true }, 60), /media\.vbr: bring-your-own/);
});

const byoSeconds = 14;

/** A small DASH stream written by ffmpeg's dash muxer (14 s, 2 s segments) in `dir`, as `stream.mpd`. */
function ffmpegDash(dir: string, extra: string[]): string {
  mkdirSync(dir, { recursive: true });
  const result = spawnSync('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=320x180:r=30:d=${byoSeconds}`, '-f', 'lavfi', '-i', `sine=d=${byoSeconds}`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0', '-b:v', '300k',
    '-c:a', 'aac', '-b:a', '64k', '-f', 'dash', '-seg_duration', '2', '-adaptation_sets', 'id=0,streams=v id=1,streams=a', ...extra, 'stream.mpd',
  ], { cwd: dir, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return join(dir, 'stream.mpd');
}

const runS = byoSeconds - PLAYBACK_MARGIN_S; // the longest run 14 s of content can serve

test('bring your own: ffmpeg DASH (template, timeline, list) validates and is hard-linked into the media root', { timeout: 120_000 }, async () => {
  const layouts: Array<[string, string[]]> = [
    ['template', ['-use_template', '1', '-use_timeline', '0']],
    ['timeline', ['-use_template', '1', '-use_timeline', '1']],
    ['list', ['-use_template', '0', '-use_timeline', '0']],
  ];
  for (const [name, extra] of layouts) {
    const mpd = ffmpegDash(join(work, 'byo', name), extra);
    // The path is relative to the scenario file's folder, as trace paths are.
    const s = scenario({ mpd: `byo/${name}/stream.mpd` }, runS - 2); // needs 12 s of the 14
    assert.deepEqual(s.media, { mpdPath: mpd });
    const { content, abr } = contentFor(s);
    assert.match(content, new RegExp(`^byo-${name}-[0-9a-f]{10}$`));
    assert.equal(abr, 'on');
    await prepareMedia([s], mediaDir);
    const linked = join(mediaDir, content);
    assert.equal(readFileSync(join(linked, 'manifest.mpd'), 'utf8'), readFileSync(mpd, 'utf8'));
    const segment = readdirSync(join(work, 'byo', name)).find((f) => f.startsWith('chunk-stream0-'))!;
    assert.equal(statSync(join(linked, segment)).ino, statSync(join(work, 'byo', name, segment)).ino, `${name}: ${segment} is a hard link, not a copy`);
    assert.deepEqual(mediaRecord(s), { set: content, kind: 'byo', abr: true, duration_s: byoSeconds, mpd }); // the content's own length
  }
});

/** Byte range of the top-level box of `type` in an ISO BMFF file. */
function boxRange(file: string, type: string): { first: number; last: number } {
  const bytes = readFileSync(file);
  for (let at = 0; at + 8 <= bytes.length;) {
    const size = bytes.readUInt32BE(at);
    if (bytes.toString('latin1', at + 4, at + 8) === type) return { first: at, last: at + size - 1 };
    if (size < 8) break;
    at += size;
  }
  throw new Error(`${file} has no ${type} box`);
}

test('bring your own: SegmentBase (one fragmented MP4 indexed by its sidx) validates; a truncated file does not', { timeout: 60_000 }, async () => {
  const dir = join(work, 'byo', 'segmentbase');
  mkdirSync(dir, { recursive: true });
  const encoded = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=320x180:r=30:d=${byoSeconds}`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0', '-b:v', '300k',
    '-movflags', 'frag_keyframe+empty_moov+default_base_moof+global_sidx', '-f', 'mp4', 'video.mp4'], { cwd: dir, encoding: 'utf8' });
  assert.equal(encoded.status, 0, encoded.stderr);
  const init = boxRange(join(dir, 'video.mp4'), 'moov');
  const sidx = boxRange(join(dir, 'video.mp4'), 'sidx');
  writeFileSync(join(dir, 'film.mpd'), `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT${byoSeconds}S" minBufferTime="PT2S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
  <Period><AdaptationSet mimeType="video/mp4" codecs="avc1.64000d"><Representation id="v" bandwidth="400000"><BaseURL>video.mp4</BaseURL>
    <SegmentBase indexRange="${sidx.first}-${sidx.last}"><Initialization range="0-${init.last}"/></SegmentBase>
  </Representation></AdaptationSet></Period>
</MPD>
`);
  await prepareMedia([scenario({ mpd: 'byo/segmentbase/film.mpd' }, runS)], mediaDir);
  const truncated = join(work, 'byo', 'segmentbase-cut');
  mkdirSync(truncated);
  writeFileSync(join(truncated, 'film.mpd'), readFileSync(join(dir, 'film.mpd')));
  const whole = readFileSync(join(dir, 'video.mp4'));
  writeFileSync(join(truncated, 'video.mp4'), whole.subarray(0, whole.length - 5000));
  await assert.rejects(prepareMedia([scenario({ mpd: 'byo/segmentbase-cut/film.mpd' }, runS)], mediaDir),
    /Representation id="v": video\.mp4 is \d+ bytes but its index describes \d+ \(truncated file\)/);
  // Too short by its own index, whatever the manifest claims.
  await assert.rejects(prepareMedia([scenario({ mpd: 'byo/segmentbase/film.mpd' }, runS + 1)], mediaDir), /the content is 14\.0 s long/);
});

test('bring your own: broken manifests get an error naming the problem, and no run starts', { timeout: 120_000 }, async () => {
  const good = ffmpegDash(join(work, 'byo-src'), ['-use_template', '1', '-use_timeline', '0']);
  const variant = (name: string, edit: (dir: string) => void): string => {
    const dir = join(work, 'broken', name);
    mkdirSync(dir, { recursive: true });
    for (const f of readdirSync(join(work, 'byo-src'))) writeFileSync(join(dir, f), readFileSync(join(work, 'byo-src', f)));
    edit(dir);
    return `broken/${name}/stream.mpd`;
  };
  const rewrite = (dir: string, from: RegExp, to: string): void => {
    const text = readFileSync(join(dir, 'stream.mpd'), 'utf8');
    assert.match(text, from);
    writeFileSync(join(dir, 'stream.mpd'), text.replace(from, to));
  };
  void good;
  const cases: Array<[string, string, RegExp, number?]> = [
    ['missing segment', variant('missing', (d) => rmSync(join(d, 'chunk-stream0-00003.m4s'))),
      /1 of \d+ files the manifest names are missing: chunk-stream0-00003\.m4s \(Representation id="0" segment 3 \(4\.0-6\.0 s\)\)/],
    ['HEVC', variant('hevc', (d) => rewrite(d, /codecs="avc1[^"]*"/, 'codecs="hvc1.1.6.L93.B0"')), /codec "hvc1\.1\.6\.L93\.B0" is HEVC, which Chromium here cannot play/],
    ['unsupported codec', variant('ac3', (d) => rewrite(d, /codecs="mp4a[^"]*"/, 'codecs="ac-3"')), /codec "ac-3" is not one Chromium's MSE plays here/],
    ['too short', variant('short', () => undefined), /the content is 14\.0 s long, shorter than the 40\.0 s the run needs \(duration_s 30 \+ 10 s start-up margin\)/, 30],
    ['not XML', variant('garbage', (d) => writeFileSync(join(d, 'stream.mpd'), 'this is not a manifest\n')), /not well-formed XML \(line 1: text outside the root element/],
    ['truncated XML', variant('truncated', (d) => writeFileSync(join(d, 'stream.mpd'), readFileSync(good, 'utf8').slice(0, 900))), /not well-formed XML/],
    ['remote segments', variant('remote', (d) => rewrite(d, /<Period([^>]*)>/, '<Period$1><BaseURL>https://cdn.example/v/</BaseURL>')), /is an absolute URL/],
    ['live manifest', variant('live', (d) => rewrite(d, /type="static"/, 'type="dynamic"')), /live \(dynamic\) manifests are not supported/],
    ['no manifest', 'broken/none/stream.mpd', /cannot read the manifest \(ENOENT\)/],
  ];
  const { plan, runPlan } = await import('../harness/runner.ts');
  for (const [label, path, expected, durationS] of cases) {
    const s = scenario({ mpd: path }, durationS ?? runS);
    await assert.rejects(prepareMedia([s], mediaDir), (e: Error) => {
      assert.ok(e instanceof ScenarioError, `${label}: ${e.message}`);
      assert.match(e.message, /^scenario media-test media\.mpd: \//, label);
      assert.match(e.message, expected, label);
      return true;
    });
  }
  // Through the runner: the plan stops before its first run, so results.jsonl is never written.
  const outDir = join(work, 'out');
  const broken = scenario({ mpd: 'broken/missing/stream.mpd' }, runS, { schemes: ['vivace'] });
  await assert.rejects(runPlan(plan([broken]), { outDir, mediaDir, playerDir: '', shouldStop: () => false }), /files the manifest names are missing/);
  assert.deepEqual(readdirSync(outDir), []);
});
