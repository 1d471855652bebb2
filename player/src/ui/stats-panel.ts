// The numeric stats grid under each video: current values plus the session's playback quality so far.

export interface StatsView {
  bitrateKbps: number;
  bufferS: number;
  goodputMbps: number | null;
  sendRateMbps: number | null;
  rttMs: number | null;
  lossPercent: number | null;
  startupDelayS: number | null;
  stallCount: number;
  totalStallS: number;
  bufferingRatio: number;
  switchCount: number;
  bytesReceived: number;
  datagramsReceived: number | null;
  datagramsDropped: number | null;
  positionS: number;
}

const fields: { key: keyof StatsView; label: string; format: (v: number) => string }[] = [
  { key: 'bitrateKbps', label: 'bitrate', format: (v) => (v >= 1000 ? `${(v / 1000).toFixed(1)} Mbit/s` : `${v.toFixed(0)} kbit/s`) },
  { key: 'bufferS', label: 'buffer', format: (v) => `${v.toFixed(1)} s` },
  { key: 'goodputMbps', label: 'goodput', format: (v) => `${v.toFixed(1)} Mbit/s` },
  { key: 'sendRateMbps', label: 'sending rate', format: (v) => `${v.toFixed(1)} Mbit/s` },
  { key: 'rttMs', label: 'RTT', format: (v) => `${v.toFixed(v < 10 ? 2 : 0)} ms` },
  { key: 'lossPercent', label: 'loss', format: (v) => `${v.toFixed(2)} %` },
  { key: 'startupDelayS', label: 'startup', format: (v) => `${v.toFixed(2)} s` },
  { key: 'stallCount', label: 'stalls', format: (v) => v.toFixed(0) },
  { key: 'totalStallS', label: 'stall time', format: (v) => `${v.toFixed(2)} s` },
  { key: 'bufferingRatio', label: 'buffering ratio', format: (v) => `${(v * 100).toFixed(2)} %` },
  { key: 'switchCount', label: 'switches', format: (v) => v.toFixed(0) },
  { key: 'bytesReceived', label: 'received', format: (v) => `${(v / 1e6).toFixed(1)} MB` },
  { key: 'datagramsReceived', label: 'datagrams', format: (v) => v.toLocaleString('en-US') },
  { key: 'datagramsDropped', label: 'dropped', format: (v) => v.toLocaleString('en-US') },
  { key: 'positionS', label: 'position', format: (v) => `${v.toFixed(1)} s` },
];

export class StatsPanel {
  private readonly cells = new Map<keyof StatsView, HTMLElement>();

  constructor(container: HTMLElement) {
    container.classList.add('stats');
    for (const field of fields) {
      const cell = document.createElement('div');
      cell.className = 'stat';
      cell.dataset.stat = field.key;
      const label = document.createElement('span');
      label.className = 'stat-label';
      label.textContent = field.label;
      const value = document.createElement('span');
      value.className = 'stat-value';
      value.textContent = '–';
      cell.append(label, value);
      container.append(cell);
      this.cells.set(field.key, value);
    }
  }

  update(view: StatsView): void {
    for (const field of fields) {
      const value = view[field.key];
      const cell = this.cells.get(field.key);
      if (cell) cell.textContent = value === null || !Number.isFinite(value) ? '–' : field.format(value);
    }
  }
}
