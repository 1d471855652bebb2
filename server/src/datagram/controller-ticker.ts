// What the rate controller hears besides packets: the passing of time (its MI and timeout timers run on
// ticks) and the moment the sender runs out of data (app-limited), once per idle spell.
import type { Controller } from '@pcc-stream/controller';

/** Ticks at most this often: the controllers' timers need no finer grain, and a tick per turn costs CPU at Gbit/s. */
export const TICK_MIN_INTERVAL_US = 1000;
/** While packets are in flight or data waits, the sender runs at least this often, so timers are not missed. */
export const BUSY_SERVICE_INTERVAL_US = 5000;

export class ControllerTicker {
  private lastTickUs = 0;
  private appLimitedSignalled = true;

  constructor(private readonly controller: Pick<Controller, 'tick' | 'appState'>) {}

  tick(nowUs: number): void {
    if (nowUs - this.lastTickUs < TICK_MIN_INTERVAL_US) return;
    this.controller.tick(nowUs);
    this.lastTickUs = nowUs;
  }

  /** After a send turn: tells the controller when the sender has just run out of data. */
  afterTurn(hasData: boolean, nowUs: number): void {
    if (!hasData && !this.appLimitedSignalled) {
      // The sender knows only that it ran out of data; the player's state (CMCD) is not known here.
      this.controller.appState({ appLimited: true }, nowUs);
      this.appLimitedSignalled = true;
    } else if (hasData) {
      this.appLimitedSignalled = false;
    }
  }
}
