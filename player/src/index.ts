// What other workspaces may import from the player without a browser: the media layout, URL parameters and the
// shape of window.pccPlayer.metrics().
export { abrLadder, allSets, fixedSetName, fixedSets, type MediaSet, type Rendition } from '../media/ladder.ts';
export { parsePageParams, ParamError, type PageParams, type SessionParams } from './config/session-params.ts';
export type { MetricsSnapshot, SecondSample } from './metrics/playback-metrics.ts';
export type { CmsdReport, SessionReport, StartupTimeline } from './session/playback-session.ts';
export type { PccPlayerApi } from './pcc-player-api.ts';
