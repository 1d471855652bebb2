// A session that has not started playing: what to do when its startup watchdog fires, and what to say when dash.js
// gives up on it first. The watchdog fails it when the media stopped coming or something already went wrong, and
// keeps waiting while bytes still arrive. A pane starved on a shared bottleneck (the compare view's competing mode:
// latency-aware vivace yielding to CUBIC's standing queue, thesis ch. 4) receives its media, only too slowly for a
// first segment; failing it would end its flow and hand the link to the other pane, so the demo would report a broken
// origin where the controller is only yielding.

export type StartupVerdict = 'wait' | 'fail';

export function startupVerdict(s: { errors: number; bytesNow: number; bytesAtLastCheck: number }): StartupVerdict {
  if (s.errors > 0) return 'fail';
  return s.bytesNow > s.bytesAtLastCheck ? 'wait' : 'fail';
}

/** Bytes that arrived at most this long ago mean the transport is still delivering (the page samples every second). */
export const DELIVERING_WINDOW_S = 5;

/** A session dash.js gave up on before its first frame, as the page knows it then. */
export interface StartFailure {
  /** "dash.js error 27: … is not available". */
  dashError: string;
  content: string;
  /** The session's transport ('datagram', 'quic-stream', 'tcp'). */
  transport: string;
  bytesReceived: number;
  elapsedS: number;
  /** Requests of this session that timed out (transport-loader.ts onTimeout). */
  requestTimeouts: number;
  /** Seconds since media bytes last arrived; null when none ever did. */
  sinceLastBytesS: number | null;
  /** The pane shares its link with other panes (a competing compare view). */
  sharedLink: boolean;
}

/** What the pane says. dash.js's own text for a segment it could not load ("… is not available") reads as a missing
 *  origin; when the requests timed out while the transport kept delivering, the pane was starved (its flow got too
 *  little of the link for a segment within dash.js's request timeout), and the message says so with the figures. */
export function startFailureMessage(f: StartFailure): string {
  const delivering = f.bytesReceived > 0 && f.sinceLastBytesS !== null && f.sinceLastBytesS <= DELIVERING_WINDOW_S;
  if (f.requestTimeouts === 0 || !delivering) {
    return `Playback could not start. ${f.dashError}. Is the origin running and serving ${f.content}?`;
  }
  const kbps = f.elapsedS > 0 ? Math.round((8 * f.bytesReceived) / 1000 / f.elapsedS) : 0;
  return `Starved: ${Math.round(f.bytesReceived / 1000)} kB in ${f.elapsedS.toFixed(0)} s (${kbps} kbit/s)${f.sharedLink ? ' on a shared link' : ''}. `
    + `${f.requestTimeouts} request${f.requestTimeouts === 1 ? '' : 's'} timed out while its transport (${f.transport}) kept delivering, too slowly for the `
    + `first segment, and dash.js gave up (${f.dashError}). The origin is up; this flow got too little of the link.`;
}
