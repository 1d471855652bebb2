// What the rate controller hears besides packets: the passing of time (its MI and timeout timers run on
// ticks) and the moment the sender runs out of data (app-limited), once per idle spell.
import type { AppState, Controller } from '@pcc-stream/controller';

/** The player's side of the application state (from CMCD), as of `atUs`. */
export type PlayerVideoState = Omit<AppState, 'appLimited'>;

/** Ticks at most this often: the controllers' timers need no finer grain, and a tick per turn costs CPU at Gbit/s. */
export const TICK_MIN_INTERVAL_US = 1000;
/** While packets are in flight or data waits, the sender runs at least this often, so timers are not missed. */
export const BUSY_SERVICE_INTERVAL_US = 5000;

export class ControllerTicker {
  private lastTickUs = 0;
  private appLimitedSignalled = true;
  private video: { state: PlayerVideoState; atUs: number } | null = null;

  constructor(private readonly controller: Pick<Controller, 'tick' | 'appState'>) {}

  tick(nowUs: number): void {
    if (nowUs - this.lastTickUs < TICK_MIN_INTERVAL_US) return;
    this.controller.tick(nowUs);
    this.lastTickUs = nowUs;
  }

  /** The player reported its state (CMCD with a request): one app-state event with no app-limited news. */
  playerState(state: PlayerVideoState, nowUs: number): void {
    this.video = { state, atUs: nowUs };
    this.controller.appState({ appLimited: false, ...state }, nowUs);
  }

  /** The latest player state for an event at nowUs: every event replaces the whole state, so each one carries it;
   *  the deadline counts down from when the player sent it. */
  private videoAt(nowUs: number): PlayerVideoState {
    if (!this.video) return {};
    const { state, atUs } = this.video;
    return state.deadlineUs === undefined ? state : { ...state, deadlineUs: Math.max(0, state.deadlineUs - (nowUs - atUs)) };
  }

  /** After a send turn: tells the controller when the sender has just run out of data. */
  afterTurn(hasData: boolean, nowUs: number): void {
    if (!hasData && !this.appLimitedSignalled) {
      this.controller.appState({ appLimited: true, ...this.videoAt(nowUs) }, nowUs);
      this.appLimitedSignalled = true;
    } else if (hasData) {
      this.appLimitedSignalled = false;
    }
  }
}
