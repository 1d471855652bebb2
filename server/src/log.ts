// Structured logs: one JSON object per line on stderr.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold: number = order[(process.env.PCC_LOG_LEVEL as LogLevel | undefined) ?? 'info'] ?? order.info;

export function setLogLevel(level: LogLevel): void {
  threshold = order[level];
}

export function log(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
  if (order[level] < threshold) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields }, (_k, v) =>
    v instanceof Error ? v.message : typeof v === 'bigint' ? Number(v) : v,
  );
  process.stderr.write(line + '\n');
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
