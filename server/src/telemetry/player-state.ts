// The player's latest CMCD (PROTOCOL.md §2.6) as flat fields, one naming for the per-MI telemetry lines and /status.
import type { AppState } from '@pcc-stream/controller';
import type { CmcdState } from '@pcc-stream/protocol';

/** The controller's video fields (cc_app_state) from CMCD: `bl` ms, `br` kbit/s → bit/s, `dl` ms → µs. */
export function videoStateFromCmcd(state: CmcdState): Omit<AppState, 'appLimited'> {
  return {
    ...(state.bufferLengthMs !== undefined ? { bufferMs: state.bufferLengthMs } : {}),
    ...(state.encodedBitrateKbps !== undefined ? { bitrateBps: state.encodedBitrateKbps * 1000 } : {}),
    ...(state.deadlineMs !== undefined ? { deadlineUs: state.deadlineMs * 1000 } : {}),
  };
}

export type PlayerStateFields = Record<string, number | string>;

/** `cmcd_bl_ms`, `cmcd_br_kbps`, … for the keys the player sent; booleans as 0/1; `cmcd_age_ms` since it arrived. */
export function playerStateFields(state: CmcdState, receivedUs: number, nowUs: number): PlayerStateFields {
  const f: PlayerStateFields = { cmcd_age_ms: Math.max(0, Math.round((nowUs - receivedUs) / 1000)) };
  if (state.bufferLengthMs !== undefined) f.cmcd_bl_ms = state.bufferLengthMs;
  if (state.encodedBitrateKbps !== undefined) f.cmcd_br_kbps = state.encodedBitrateKbps;
  if (state.objectDurationMs !== undefined) f.cmcd_d_ms = state.objectDurationMs;
  if (state.deadlineMs !== undefined) f.cmcd_dl_ms = state.deadlineMs;
  if (state.measuredThroughputKbps !== undefined) f.cmcd_mtp_kbps = state.measuredThroughputKbps;
  if (state.requestedMaxThroughputKbps !== undefined) f.cmcd_rtp_kbps = state.requestedMaxThroughputKbps;
  if (state.topBitrateKbps !== undefined) f.cmcd_tb_kbps = state.topBitrateKbps;
  if (state.nextObjectPath !== undefined) f.cmcd_nor = state.nextObjectPath;
  if (state.objectType !== undefined) f.cmcd_ot = state.objectType;
  f.cmcd_su = state.startup ? 1 : 0;
  f.cmcd_bs = state.bufferStarvation ? 1 : 0;
  return f;
}

/** The latest CMCD one session (or HTTPS connection) sent, with the time it arrived. */
export class PlayerStateRecord {
  private latest: { state: CmcdState; receivedUs: number } | null = null;
  updates = 0;

  set(state: CmcdState, nowUs: number): void {
    this.latest = { state, receivedUs: nowUs };
    this.updates++;
  }

  get state(): CmcdState | null {
    return this.latest?.state ?? null;
  }

  fields(nowUs: number): PlayerStateFields {
    if (!this.latest) return {};
    return { ...playerStateFields(this.latest.state, this.latest.receivedUs, nowUs), cmcd_updates: this.updates };
  }
}
