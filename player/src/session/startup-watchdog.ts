// What a session that has not started playing when its startup watchdog fires should do. Fail it when the media
// stopped coming or something already went wrong; keep waiting while bytes still arrive. A pane starved on a shared
// bottleneck (the compare view's competing mode: latency-aware vivace yielding to CUBIC's standing queue, thesis
// ch. 4) receives its media, only too slowly for a first segment; failing it would end its flow and hand the link to
// the other pane, so the demo would report a broken origin where the controller is only yielding.

export type StartupVerdict = 'wait' | 'fail';

export function startupVerdict(s: { errors: number; bytesNow: number; bytesAtLastCheck: number }): StartupVerdict {
  if (s.errors > 0) return 'fail';
  return s.bytesNow > s.bytesAtLastCheck ? 'wait' : 'fail';
}
