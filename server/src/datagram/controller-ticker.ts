// What the rate controller hears besides packets: the passing of time (its MI and timeout timers run on
// ticks) and the moment the sender runs out of data (app-limited), once per idle spell.
import type { AppState, Controller } from '@pcc-stream/controller';
import type { CmcdState } from '@pcc-stream/protocol';
import { BindingPlayerState } from './binding-player-state.ts';

/** The player's side of the application state (from CMCD). */
export type PlayerVideoState = Omit<AppState, 'appLimited'>;

/** Ticks at most this often: the controllers' timers need no finer grain, and a tick per turn costs CPU at Gbit/s. */
export const TICK_MIN_INTERVAL_US = 1000;
/** While packets are in flight or data waits, the sender runs at least this often, so timers are not missed. */
export const BUSY_SERVICE_INTERVAL_US = 5000;

export class ControllerTicker {
  private lastTickUs = 0;
  private appLimitedSignalled = true;
  /** What the controller hears of the player: the binding state over the media types it fetches. */
  private readonly player = new BindingPlayerState();

  constructor(private readonly controller: Pick<Controller, 'tick' | 'appState'>) {}

  tick(nowUs: number): void {
    if (nowUs - this.lastTickUs < TICK_MIN_INTERVAL_US) return;
    this.controller.tick(nowUs);
    this.lastTickUs = nowUs;
  }

  /** The player reported its state (CMCD with a request): one app-state event with no app-limited news. Later events
   *  carry the binding state as of their own time (every event replaces the whole state). */
  playerState(cmcd: CmcdState, nowUs: number): void {
    this.player.report(cmcd, nowUs);
    this.controller.appState({ appLimited: false, ...this.player.at(nowUs) }, nowUs);
  }

  /** After a send turn: tells the controller when the sender has just run out of data. */
  afterTurn(hasData: boolean, nowUs: number): void {
    if (!hasData && !this.appLimitedSignalled) {
      this.controller.appState({ appLimited: true, ...this.player.at(nowUs) }, nowUs);
      this.appLimitedSignalled = true;
    } else if (hasData) {
      this.appLimitedSignalled = false;
    }
  }
}
