// The LTE traces the playground offers: the repository's own copies (bench/traces/PROVENANCE.md), emitted by the
// build as static assets next to the page and parsed by the linkem driver's reader, the rules every reader shares.
import { parseTrace } from '../../../bench/linkem/src/driver/trace-format.ts';
import tmobileShortDown from '../../../bench/traces/TMobile-LTE-short.down?url';
import tmobileShortUp from '../../../bench/traces/TMobile-LTE-short.up?url';
import verizonShortDown from '../../../bench/traces/Verizon-LTE-short.down?url';
import verizonShortUp from '../../../bench/traces/Verizon-LTE-short.up?url';
import attDriving2016Down from '../../../bench/traces/ATT-LTE-driving-2016.down?url';
import attDriving2016Up from '../../../bench/traces/ATT-LTE-driving-2016.up?url';

/** Trace name (as in bench/traces) -> the built asset's URL. */
export const PLAYGROUND_TRACES: Readonly<Record<string, string>> = {
  'TMobile-LTE-short.down': tmobileShortDown,
  'TMobile-LTE-short.up': tmobileShortUp,
  'Verizon-LTE-short.down': verizonShortDown,
  'Verizon-LTE-short.up': verizonShortUp,
  'ATT-LTE-driving-2016.down': attDriving2016Down,
  'ATT-LTE-driving-2016.up': attDriving2016Up,
};

const cache = new Map<string, Promise<number[]>>();

/** The trace's delivery opportunities (ms timestamps), fetched once per page. */
export function loadTrace(name: string): Promise<number[]> {
  const url = PLAYGROUND_TRACES[name];
  if (url === undefined) return Promise.reject(new Error(`unknown trace ${name}; the playground offers ${Object.keys(PLAYGROUND_TRACES).join(', ')}`));
  let loading = cache.get(name);
  if (loading === undefined) {
    loading = fetch(url).then(async (res) => {
      if (!res.ok) throw new Error(`trace ${name}: HTTP ${res.status}`);
      return parseTrace(await res.text(), name);
    });
    loading.catch(() => cache.delete(name));
    cache.set(name, loading);
  }
  return loading;
}
