// Writes a session's telemetry lines to a subscriber's stream (PROTOCOL.md §2.5), bounded: a reader that
// does not keep up loses the oldest unwritten lines instead of growing memory.
import { DELIVERY_STREAM, U48_MAX, type RequestFrame } from '@pcc-stream/protocol';
import type { MiTelemetry } from '../telemetry/mi-telemetry.ts';
import type { RequestStream } from './request-stream.ts';

const MAX_QUEUED_LINES = 1000;

export async function serveTelemetryFeed(telemetry: MiTelemetry, request: RequestFrame, stream: RequestStream): Promise<void> {
  const ok = await stream.write({
    type: 'response', requestId: request.requestId, status: 200, delivery: DELIVERY_STREAM, totalSize: U48_MAX,
    bodyOffset: 0, bodyLength: U48_MAX, contentType: 'application/x-ndjson', reason: '',
  });
  if (!ok) return;
  const encoder = new TextEncoder();
  const queue: string[] = [];
  let writing = false;
  let open = true;
  const pump = async (): Promise<void> => {
    if (writing) return;
    writing = true;
    while (open && queue.length > 0) {
      const batch = queue.splice(0, queue.length).join('');
      if (!(await stream.writeRaw(encoder.encode(batch)))) open = false;
    }
    writing = false;
  };
  const unsubscribe = telemetry.subscribe((line) => {
    queue.push(line);
    if (queue.length > MAX_QUEUED_LINES) queue.splice(0, queue.length - MAX_QUEUED_LINES);
    void pump();
  });
  await stream.untilCancelled();
  open = false;
  unsubscribe();
  await stream.finish();
}
