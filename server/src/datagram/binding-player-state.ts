// The player state a session's controller hears (cc_app_state's video fields) when the player fetches several media
// types at once. dash.js sends CMCD with each type's own requests (`ot`: audio, video), each `bl` that type's buffer,
// so the latest report alone alternates between the audio and the video buffer. Playback stalls when ANY buffer runs
// dry, so the binding buffer is the smallest of the types the player is still fetching (PROTOCOL.md §2.6).
import type { CmcdState } from '@pcc-stream/protocol';
import type { PlayerVideoState } from './controller-ticker.ts';
import { videoStateFromCmcd } from '../telemetry/player-state.ts';

/**
 * A type whose latest report is older than this, and than STALE_AFTER_OBJECTS of its objects, no longer binds: the
 * player has stopped fetching it (its content ended, or it was switched off). Below the buffer target dash.js asks
 * for the next object about once per object duration (2 s segments here), so two missed requests mark a type stale.
 */
export const PLAYER_STATE_STALE_MIN_US = 4_000_000;
export const STALE_AFTER_OBJECTS = 2;

interface TypeReport {
  state: PlayerVideoState;
  atUs: number;
  staleAfterUs: number;
}

export class BindingPlayerState {
  private readonly byType = new Map<string, TypeReport>();

  /** One valid CMCD report, filed under its object type (`ot`; none: one shared slot). */
  report(cmcd: CmcdState, nowUs: number): void {
    const objectUs = (cmcd.objectDurationMs ?? 0) * 1000;
    this.byType.set(cmcd.objectType ?? '', {
      state: videoStateFromCmcd(cmcd), atUs: nowUs, staleAfterUs: Math.max(PLAYER_STATE_STALE_MIN_US, STALE_AFTER_OBJECTS * objectUs),
    });
  }

  /**
   * The binding state at nowUs over the fresh types (all stale: the most recent report alone): the smallest buffer and
   * the nearest deadline, each counted down from its report (the buffer drains in real time while nothing arrives,
   * so this is a lower bound, as the controller itself assumes), and the sum of the bitrates, since the session
   * carries every type's media. A field no fresh type reported stays unknown.
   */
  at(nowUs: number): PlayerVideoState {
    let reports = [...this.byType.values()].filter((r) => nowUs - r.atUs <= r.staleAfterUs);
    if (reports.length === 0) {
      let latest: TypeReport | null = null;
      for (const r of this.byType.values()) if (!latest || r.atUs > latest.atUs) latest = r;
      if (!latest) return {};
      reports = [latest];
    }
    let bufferMs: number | undefined;
    let deadlineUs: number | undefined;
    let bitrateBps: number | undefined;
    for (const { state, atUs } of reports) {
      const ageUs = Math.max(0, nowUs - atUs);
      if (state.bufferMs !== undefined) bufferMs = Math.min(bufferMs ?? Infinity, Math.max(0, state.bufferMs - ageUs / 1000));
      if (state.deadlineUs !== undefined) deadlineUs = Math.min(deadlineUs ?? Infinity, Math.max(0, state.deadlineUs - ageUs));
      if (state.bitrateBps !== undefined) bitrateBps = (bitrateBps ?? 0) + state.bitrateBps;
    }
    return {
      ...(bufferMs !== undefined ? { bufferMs } : {}),
      ...(bitrateBps !== undefined ? { bitrateBps } : {}),
      ...(deadlineUs !== undefined ? { deadlineUs } : {}),
    };
  }
}
