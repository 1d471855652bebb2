// What the rate controller hears besides packets: the passing of time (its MI and timeout timers run on
// ticks) and the moment the sender runs out of data (app-limited), once per idle spell.
import type { AppState, Controller } from '@pcc-stream/controller';

/** The player's side of the application state (from CMCD). */
export type PlayerVideoState = Omit<AppState, 'appLimited'>;

/** Where the player's state comes from: each app-state event carries it as of the event's time. */
export interface PlayerStateSource {
  at(nowUs: number): PlayerVideoState;
}

/** Ticks at most this often: the controllers' timers need no finer grain, and a tick per turn costs CPU at Gbit/s. */
export const TICK_MIN_INTERVAL_US = 1000;
/** While packets are in flight or data waits, the sender runs at least this often, so timers are not missed. */
export const BUSY_SERVICE_INTERVAL_US = 5000;

export class ControllerTicker {
  private lastTickUs = 0;
  private appLimitedSignalled = true;
  private player: PlayerStateSource | null = null;

  constructor(private readonly controller: Pick<Controller, 'tick' | 'appState'>) {}

  tick(nowUs: number): void {
    if (nowUs - this.lastTickUs < TICK_MIN_INTERVAL_US) return;
    this.controller.tick(nowUs);
    this.lastTickUs = nowUs;
  }

  /** The player reported its state (CMCD with a request): one app-state event with no app-limited news. Later events
   *  read the player's state from the same source, as of their own time (every event replaces the whole state). */
  playerState(player: PlayerStateSource, nowUs: number): void {
    this.player = player;
    this.controller.appState({ appLimited: false, ...player.at(nowUs) }, nowUs);
  }

  private videoAt(nowUs: number): PlayerVideoState {
    return this.player ? this.player.at(nowUs) : {};
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
