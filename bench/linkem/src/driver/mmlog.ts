// Reader for mm-link logs (the forwarder writes mahimahi's format; see src/fwd/mmlog.h).
export type MmLogEvent =
  | { tMs: number; kind: 'arrival'; bytes: number }
  | { tMs: number; kind: 'opportunity'; bytes: number }
  | { tMs: number; kind: 'departure'; bytes: number; delayMs: number }
  | { tMs: number; kind: 'drop'; packets: number; bytes: number };

export interface MmLog {
  header: Record<string, string>;
  events: MmLogEvent[];
}

/** One line of the log: its event, or null for a blank or header (`# `) line; throws on anything else. */
export function parseMmLogEvent(line: string): MmLogEvent | null {
  if (line === '' || line.startsWith('# ')) return null;
  const f = line.split(' ');
  const tMs = Number(f[0]);
  switch (f[1]) {
    case '+': return { tMs, kind: 'arrival', bytes: Number(f[2]) };
    case '#': return { tMs, kind: 'opportunity', bytes: Number(f[2]) };
    case '-': return { tMs, kind: 'departure', bytes: Number(f[2]), delayMs: Number(f[3]) };
    case 'd': return { tMs, kind: 'drop', packets: Number(f[2]), bytes: Number(f[3]) };
    default: throw new Error(`mm-link log: unreadable line ${JSON.stringify(line)}`);
  }
}

/** The log's lines one at a time, without splitting a log of millions of lines into one array first. */
export function* mmLogLines(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    yield text.slice(start, end);
    start = end + 1;
  }
}

/** The log's wall-clock origin (epoch ms) from its `# init timestamp:` header line, NaN without one. Event times are
 *  ms since then. `text` may be the log's first few KB. */
export function mmLogStartEpochMs(text: string): number {
  const header = /^# init timestamp: (\d+)$/m.exec(text);
  return header ? Number(header[1]) : Number.NaN;
}

export function parseMmLog(text: string): MmLog {
  const header: Record<string, string> = {};
  const events: MmLogEvent[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# ')) {
      const colon = line.indexOf(': ');
      if (colon > 0) header[line.slice(2, colon)] = line.slice(colon + 2);
      else header[line.slice(2)] = '';
      continue;
    }
    const event = parseMmLogEvent(line);
    if (event) events.push(event);
  }
  return { header, events };
}
