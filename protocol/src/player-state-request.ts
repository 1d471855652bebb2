// The player's state for a request the origin never sees (PROTOCOL.md §2.9). In continuous-stream mode (§2.8) dash.js's
// segment requests are served from the stream already arriving, so their CMCD (§2.6) would stop at the player and a
// video-aware controller would never hear the buffer level. The player sends each such request's path, CMCD included,
// under a reserved prefix instead; the origin reads the CMCD exactly as it would the object's own request's (one parser,
// one app-state event) and answers 204 with no body. A REQUEST frame like any other: no wire change.
import { fail, ok, type Result } from './errors.ts';
import { cmcdFromRequestPath, type CmcdState } from './cmcd.ts';

/** Reserved path prefix: `/.pcc/state` + the object's request path (`/abr/seg-1-00004.m4s?CMCD=…`). */
export const PLAYER_STATE_PREFIX = '/.pcc/state';
/** The status of a player-state request the origin accepted: nothing to send back. */
export const PLAYER_STATE_STATUS = 204;

/**
 * The player-state request for an object request path (the whole path, query included, so `nor` still resolves
 * against the object's folder); null when the request carries no CMCD and there is nothing to tell.
 */
export function playerStateRequestPath(requestPath: string): string | null {
  if (!requestPath.startsWith('/')) return null;
  const cmcd = cmcdFromRequestPath(requestPath);
  // A malformed CMCD is forwarded too: the origin refuses it with the reason, as it would the object's request.
  if (cmcd.ok && cmcd.value === null) return null;
  return `${PLAYER_STATE_PREFIX}${requestPath}`;
}

/** What a request tells the origin about the player, and whether that is all it asks (a player-state request). */
export interface RequestPlayerState {
  /** The request's valid CMCD, or null when it sent none. */
  state: CmcdState | null;
  /** A player-state request (§2.9): answer PLAYER_STATE_STATUS, serve nothing. */
  stateOnly: boolean;
}

/**
 * The CMCD of any request the origin receives: an object's request, or a player-state request for one (read as the
 * object's request's). A malformed CMCD, or a player-state request without one, is an error naming what is wrong.
 */
export function requestPlayerState(path: string): Result<RequestPlayerState> {
  const stateOnly = path.startsWith(`${PLAYER_STATE_PREFIX}/`);
  const objectPath = stateOnly ? path.slice(PLAYER_STATE_PREFIX.length) : path;
  const cmcd = cmcdFromRequestPath(objectPath);
  if (!cmcd.ok) return cmcd;
  if (stateOnly && cmcd.value === null) return fail('invalid-field', `${PLAYER_STATE_PREFIX}: a player-state request carries no CMCD query argument`);
  return ok({ state: cmcd.value, stateOnly });
}
