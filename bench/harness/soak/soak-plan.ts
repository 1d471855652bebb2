// The soak benchmark's session mix (issue 20 item 2): 50 Node-client sessions at mixed bitrates and controllers.
// Controller sessions play "video": a segment of bitrate × SEGMENT_S every SEGMENT_S (app-limited, as a player);
// `fixed` sessions stream one long object at a constant rate equal to their bitrate, never app-limited, so the rate
// they were sent at against the rate they were paced at is the pacing error.

export const SOAK_SESSIONS = 50;
export const SOAK_CONTROLLERS = ['vivace', 'allegro', 'bbr', 'cubic', 'fixed'] as const;
/** Mean 1.17 Mbit/s: 50 sessions ask ~58 Mbit/s of the 100 Mbit/s link, leaving room for every controller. */
export const SOAK_BITRATES_MBPS = [0.5, 1, 2] as const;
export const SEGMENT_S = 2;
/** How often the soak samples the origin and the clients (issue: every 10 s). */
export const SAMPLE_INTERVAL_S = 10;
/** Samples before this are warm-up: growth is judged from here on. */
export const WARM_UP_S = 60;

export interface SoakSession {
  index: number;
  cc: (typeof SOAK_CONTROLLERS)[number];
  bitrateMbps: number;
}

export function soakPlan(sessions = SOAK_SESSIONS): SoakSession[] {
  return Array.from({ length: sessions }, (_, index) => ({
    index,
    cc: SOAK_CONTROLLERS[index % SOAK_CONTROLLERS.length]!,
    // The k-th session of each controller gets the k-th bitrate (cycling), so every controller runs every bitrate.
    bitrateMbps: SOAK_BITRATES_MBPS[Math.floor(index / SOAK_CONTROLLERS.length) % SOAK_BITRATES_MBPS.length]!,
  }));
}
