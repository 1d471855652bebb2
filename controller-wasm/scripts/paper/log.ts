// The paper scripts' structured log: one JSON line per event on stderr, stamped, so stdout stays the tables.
export function logEvent(event: Record<string, unknown>): void {
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), ...event }) + '\n');
}
