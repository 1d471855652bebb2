// The summary card shown in a pane when its playback ends or the viewer stops the run: the bench's columns for this
// pane. Each value's element carries the unrounded number (data-value) so tests and scripts read what was computed.
import type { RunSummary } from '../metrics/run-summary.ts';

type Key = 'bufferingRatio' | 'stallCount' | 'stallTimeS' | 'startupDelayS' | 'playedBitrateMbps' | 'downloadedBitrateMbps' | 'queueDelayP95Ms' | 'linkUtilization';

const rows: Array<{ key: Key; label: string; format: (v: number) => string; absent: string }> = [
  { key: 'bufferingRatio', label: 'buffering ratio', format: (v) => `${(v * 100).toFixed(2)} %`, absent: '–' },
  { key: 'stallCount', label: 'stalls', format: (v) => v.toFixed(0), absent: '–' },
  { key: 'stallTimeS', label: 'stall time', format: (v) => `${v.toFixed(2)} s`, absent: '–' },
  { key: 'startupDelayS', label: 'startup delay', format: (v) => `${v.toFixed(2)} s`, absent: 'never started' },
  { key: 'playedBitrateMbps', label: 'average bitrate (on screen)', format: (v) => `${v.toFixed(2)} Mbit/s`, absent: '–' },
  { key: 'downloadedBitrateMbps', label: 'mean bitrate of downloaded segments', format: (v) => `${v.toFixed(2)} Mbit/s`, absent: '–' },
  { key: 'queueDelayP95Ms', label: 'p95 queueing delay', format: (v) => `${v.toFixed(1)} ms`, absent: 'no emulated link' },
  { key: 'linkUtilization', label: 'link utilization', format: (v) => `${(v * 100).toFixed(1)} %`, absent: 'no emulated link' },
];

export function renderSummaryCard(container: HTMLElement, summary: RunSummary, reason: 'ended' | 'stopped'): HTMLElement {
  container.querySelector('.summary-card')?.remove();
  const card = document.createElement('section');
  card.className = 'summary-card';
  card.setAttribute('aria-label', 'run summary');
  const head = document.createElement('h3');
  head.textContent = `Summary (${reason === 'ended' ? 'playback ended' : 'stopped'} at ${summary.toS.toFixed(1)} s${summary.linkId ? `, ${summary.linkId}` : ''})`;
  const list = document.createElement('dl');
  for (const row of rows) {
    const value = summary[row.key];
    const term = document.createElement('dt');
    term.textContent = row.label;
    const detail = document.createElement('dd');
    detail.dataset.qoe = row.key;
    if (value === null) {
      detail.textContent = row.absent;
    } else {
      detail.dataset.value = String(value);
      detail.textContent = row.format(value);
    }
    const pair = document.createElement('div');
    pair.append(term, detail);
    list.append(pair);
  }
  const note = document.createElement('p');
  note.className = 'summary-note';
  note.textContent = 'Same definitions as npm run bench: buffering ratio excludes startup; average bitrate is the mean of the segments fetched; queueing delay and utilization are over the link the pane\'s media crossed.';
  card.append(head, list, note);
  container.prepend(card);
  return card;
}
