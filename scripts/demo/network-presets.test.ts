// The competing panes' link (network-presets.ts competingScenario): a rate the preset defines per player is scaled to
// the players that compete on it; a trace, or a link already made for that many players, is left as defined.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { competingNote, competingScenario, resolveNetwork } from './network-presets.ts';
import { COMPETING_LINK_ID, viewerLinkSpecs } from './viewer-links.ts';

const preset = (name: string) => {
  const scenario = resolveNetwork(name, (p) => p).scenario;
  assert.ok(scenario, `${name} has a scenario`);
  return scenario;
};

test('changing-rtt: the link 10% above one 8 Mbit/s stream becomes 10% above two (17.6) or three (26.4) streams', () => {
  const rtt = preset('changing-rtt');
  assert.deepEqual(rtt.link.down, { rateMbps: 8.8 });
  const two = competingScenario(rtt, 2);
  assert.ok(two);
  assert.deepEqual([two.link.down, two.link.up, two.players], [{ rateMbps: 17.6 }, { rateMbps: 17.6 }, 2]);
  assert.deepEqual(two.link.queue, rtt.link.queue, 'the 300 KB buffer is defined in bytes, not per stream');
  assert.deepEqual([two.delay, two.loss, two.media], [rtt.delay, rtt.loss, rtt.media]);
  assert.deepEqual(competingScenario(rtt, 3)?.link.down, { rateMbps: 26.4 });
  assert.match(competingNote(rtt, 2), /sized for 2 players: 17\.6 Mbit\/s \(2 × 8\.8 Mbit\/s/);
});

test('a trace (lte) and a link made for three players (shared) are not resized for two', () => {
  assert.equal(competingScenario(preset('lte'), 2), null);
  assert.match(competingNote(preset('lte'), 2), /as defined \(a recorded trace\)/);
  const shared = preset('shared');
  assert.equal(competingScenario(shared, 2), null);
  assert.equal(competingScenario(shared, 3), null);
  assert.deepEqual(competingScenario(shared, 4)?.link.down, { rateMbps: 40 }, '30 Mbit/s for 3 players is 10 per player');
});

test('npm start adds the competing link beside the copies only when it differs from them', () => {
  const rtt = preset('changing-rtt');
  const specs = viewerLinkSpecs(rtt, 'changing-rtt', 3, competingScenario(rtt, 2));
  assert.deepEqual(specs.map((s) => s.id), ['link-0', 'link-1', 'link-2', COMPETING_LINK_ID]);
  assert.deepEqual(specs.map((s) => s.scenario.link.down), [{ rateMbps: 8.8 }, { rateMbps: 8.8 }, { rateMbps: 8.8 }, { rateMbps: 17.6 }]);
  assert.deepEqual(viewerLinkSpecs(preset('lte'), 'lte', 3, null).map((s) => s.id), ['link-0', 'link-1', 'link-2']);
});
