// Pure checks of the media helpers: the XML reader, the manifest model (template, timeline, list, BaseURL,
// inheritance), segment spread and DASH @bandwidth arithmetic, set names, and the media CLI's arguments.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setsFromArgs } from '../media/generate.ts';
import { ladderSet, shapeProblem, singleRateSet, vbrResolution, wholeSegmentsAtLeast } from '../media/ladder.ts';
import { ManifestError, parseIsoDurationS, parseManifest } from '../media/mpd.ts';
import { dashBandwidthBps, segmentSpread } from '../media/segment-stats.ts';
import { parseXml } from '../media/xml.ts';

test('xml: elements, attributes, entities, CDATA; malformed input fails with its line', () => {
  const doc = parseXml('<?xml version="1.0"?>\n<!-- c --><a:R xmlns:a="u" x="1 &amp; 2"><b y=\'&#65;\'/><c><![CDATA[<raw>]]> t &lt;</c></a:R>');
  assert.equal(doc.name, 'R');
  assert.deepEqual(doc.attributes, { x: '1 & 2' });
  assert.deepEqual(doc.children.map((c) => [c.name, c.attributes, c.text]), [['b', { y: 'A' }, ''], ['c', {}, '<raw> t <']]);
  for (const [bad, message] of [
    ['<a><b></a>', /line 1: closing tag <\/a> does not match <b>/],
    ['<a>\n<b>', /line 2: <b> is never closed/],
    ['<a x=1/>', /not quoted/],
    ['<a/><b/>', /second root/],
    ['<!DOCTYPE a [<!ENTITY x "y">]><a/>', /document type declarations/],
    ['', /no root element/],
    ['<a>&nbsp;</a>', /unknown entity/],
  ] as const) assert.throws(() => parseXml(bad), message, bad);
});

test('ISO 8601 durations as manifests write them', () => {
  assert.equal(parseIsoDurationS('PT1M0.0S'), 60);
  assert.equal(parseIsoDurationS('P0Y0M0DT0H2M3.5S'), 123.5);
  assert.equal(parseIsoDurationS('P1DT1H'), 90000);
  assert.throws(() => parseIsoDurationS('P1M'), /years or months/);
  assert.throws(() => parseIsoDurationS('60s'), /not an ISO 8601 duration/);
});

const mpd = (period: string, attrs = 'type="static" mediaPresentationDuration="PT7S" minBufferTime="PT2S"'): string =>
  `<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" ${attrs}><Period>${period}</Period></MPD>`;

test('manifest: SegmentTemplate with @duration, inherited from the AdaptationSet, under BaseURLs', () => {
  const m = parseManifest(mpd(`<BaseURL>media/</BaseURL><AdaptationSet mimeType="video/mp4" codecs="avc1.64001e">
    <SegmentTemplate timescale="1000" duration="2000" startNumber="0" initialization="$RepresentationID$/init.mp4" media="$RepresentationID$/$Number%03d$-$Bandwidth$.m4s"/>
    <Representation id="hi" bandwidth="5000000"><BaseURL>v/</BaseURL></Representation></AdaptationSet>`));
  assert.equal(m.durationS, 7);
  assert.equal(m.minBufferTimeS, 2);
  const rep = m.representations[0]!;
  assert.equal(rep.contentType, 'video');
  assert.equal(rep.initialization?.path, 'media/v/hi/init.mp4');
  assert.deepEqual(rep.segments!.map((s) => [s.path, s.number, s.startS, s.durationS]), [
    ['media/v/hi/000-5000000.m4s', 0, 0, 2], ['media/v/hi/001-5000000.m4s', 1, 2, 2],
    ['media/v/hi/002-5000000.m4s', 2, 4, 2], ['media/v/hi/003-5000000.m4s', 3, 6, 2],
  ]);
});

test('manifest: SegmentTimeline with $Time$ and repeats (r=-1 to the end), SegmentList with byte ranges', () => {
  const m = parseManifest(mpd(`<AdaptationSet contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2">
    <SegmentTemplate timescale="10" media="a/$Time$.m4s" initialization="a/init.m4s"><SegmentTimeline><S t="0" d="20" r="1"/><S d="15" r="-1"/></SegmentTimeline></SegmentTemplate>
    <Representation id="a" bandwidth="64000"/></AdaptationSet>
    <AdaptationSet mimeType="video/mp4" codecs="avc1.4d401f"><Representation id="v" bandwidth="1000"><BaseURL>all.mp4</BaseURL>
    <SegmentList timescale="1" duration="4"><Initialization range="0-99"/><SegmentURL mediaRange="100-199"/><SegmentURL mediaRange="200-299"/></SegmentList>
    </Representation></AdaptationSet>`));
  const [audio, video] = m.representations;
  assert.deepEqual(audio!.segments!.map((s) => [s.path, s.startS, s.durationS]), [['a/0.m4s', 0, 2], ['a/20.m4s', 2, 2], ['a/40.m4s', 4, 1.5], ['a/55.m4s', 5.5, 1.5]]);
  assert.deepEqual(video!.initialization, { path: 'all.mp4', range: { first: 0, last: 99 } });
  assert.deepEqual(video!.segments!.map((s) => [s.path, s.range, s.startS]), [['all.mp4', { first: 100, last: 199 }, 0], ['all.mp4', { first: 200, last: 299 }, 4]]);
});

test('manifest: what is not supported gets a ManifestError saying so', () => {
  const rep = '<AdaptationSet mimeType="video/mp4" codecs="avc1"><Representation id="v" bandwidth="1"><SegmentTemplate media="$Number$.m4s" duration="2"/></Representation></AdaptationSet>';
  for (const [text, message] of [
    ['not xml at all', /not well-formed XML/],
    ['<html/>', /root element is <html>/],
    [mpd(rep, 'type="dynamic" mediaPresentationDuration="PT7S"'), /live \(dynamic\)/],
    [mpd(rep, 'type="static"'), /no mediaPresentationDuration/],
    [mpd(rep).replace('</Period>', '</Period><Period/>'), /2 Periods/],
    [mpd(rep.replace('$Number$', '$SubNumber$')), /\$SubNumber\$ is not supported/],
    [mpd(rep.replace('$Number$', '../../$Number$')), /outside the manifest's folder/],
    [mpd(rep.replace(' duration="2"', '')), /SegmentTemplate@duration \(or a SegmentTimeline\) is missing/],
    [mpd('<AdaptationSet><Representation id="v" bandwidth="1"/></AdaptationSet>'), /no SegmentTemplate, SegmentList or SegmentBase/],
  ] as const) assert.throws(() => parseManifest(text), (e: Error) => e instanceof ManifestError && message.test(e.message), text.slice(0, 80));
});

test('segment spread and the DASH-true @bandwidth', () => {
  const spread = segmentSpread([100, 300, 200, 400], 2);
  assert.deepEqual({ ...spread }, { count: 4, minBytes: 100, p50Bytes: 200, p95Bytes: 400, maxBytes: 400, cv: 0.4472, meanKbps: 1 });
  // 2 s segments, 1 s buffer: segment 0 needs 800 bits by t=1 s, segments 0-1 need 2400 bits by 3 s (800/s).
  assert.equal(dashBandwidthBps([100, 200, 100], 2, 1), 800);
  assert.equal(dashBandwidthBps([250, 250], 2, 2), 1000);
});

test('set names carry their parameters; shapes that cannot be encoded are refused', () => {
  assert.equal(singleRateSet(5000, { durationS: 300, segmentDurationS: 2, vbr: false }).name, 'cbr-5000k-300s-2s');
  assert.equal(singleRateSet(3300, { durationS: 61.5, segmentDurationS: 1.5, vbr: true }).name, 'vbr-3300k-61.5s-1.5s');
  assert.equal(ladderSet({ durationS: 70, segmentDurationS: 2, vbr: true }).name, 'abr-vbr-70s-2s');
  assert.deepEqual(vbrResolution(3300), { width: 640, height: 360 });
  assert.deepEqual(vbrResolution(8000), { width: 960, height: 540 });
  assert.deepEqual(vbrResolution(30000), { width: 1280, height: 720 });
  assert.equal(wholeSegmentsAtLeast(70, 4), 72);
  assert.equal(wholeSegmentsAtLeast(70, 2), 70);
  assert.match(shapeProblem({ durationS: 61, segmentDurationS: 2, vbr: false }) ?? '', /use 60 or 62/);
  assert.match(shapeProblem({ durationS: 60, segmentDurationS: 0.1, vbr: false }) ?? '', /outside/);
  assert.equal(shapeProblem({ durationS: 60, segmentDurationS: 2, vbr: false }), null);
  // Another picture (CBR only) is another set, encoded at its own size and frame rate.
  const light = singleRateSet(8000, { durationS: 44, segmentDurationS: 2, vbr: false, picture: { width: 320, height: 180, framesPerSecond: 10 } });
  assert.equal(light.name, 'cbr-8000k-44s-2s-320x180-10fps');
  assert.deepEqual(light.renditions, [{ videoKbps: 8000, width: 320, height: 180 }]);
  assert.equal(light.framesPerSecond, 10);
  assert.equal(singleRateSet(8000, { durationS: 44, segmentDurationS: 2, vbr: false }).framesPerSecond, undefined);
  assert.match(shapeProblem({ durationS: 60, segmentDurationS: 2, vbr: true, picture: { width: 320, height: 180, framesPerSecond: 10 } }) ?? '', /CBR sets only/);
  assert.match(shapeProblem({ durationS: 60, segmentDurationS: 2, vbr: false, picture: { width: 320, height: 180, framesPerSecond: 0.5 } }) ?? '', /frame rate 0.5/);
  assert.throws(() => ladderSet({ durationS: 60, segmentDurationS: 2, vbr: false, picture: { width: 320, height: 180, framesPerSecond: 10 } }), /single-rate CBR sets only/);
});

test('media CLI: parameters name one set; the sample sets stay selectable; bad combinations are refused', () => {
  const one = setsFromArgs(['--bitrate-mbps', '5', '--duration-s', '300', '--segment-s', '2', '--vbr', '--out', '/tmp/m']);
  assert.ok(one !== 'help');
  assert.deepEqual(one.sets.map((s) => s.name), ['vbr-5000k-300s-2s']);
  assert.equal(one.mediaRoot, '/tmp/m');
  const ladder = setsFromArgs(['--ladder', '--duration-s', '90']);
  assert.ok(ladder !== 'help');
  assert.deepEqual(ladder.sets.map((s) => s.name), ['abr-cbr-90s-2s']);
  const samples = setsFromArgs(['--sets', 'abr,fixed-30000k']);
  assert.ok(samples !== 'help');
  assert.deepEqual(samples.sets.map((s) => s.name), ['abr', 'fixed-30000k']);
  assert.equal(setsFromArgs(['--help']), 'help');
  assert.throws(() => setsFromArgs(['--sets', 'abr', '--bitrate-mbps', '5']), /either --sets or/);
  assert.throws(() => setsFromArgs(['--vbr']), /shape a set named by --bitrate-mbps or --ladder/);
  assert.throws(() => setsFromArgs(['--bitrate-mbps', 'fast']), /--bitrate-mbps needs a positive number/);
  assert.throws(() => setsFromArgs(['--bitrate-mbps', '5', '--duration-s', '61']), /not a whole number of 2 s segments/);
});
