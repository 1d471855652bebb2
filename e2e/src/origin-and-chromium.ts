// One origin serving the built player, and a plain Chromium: no certificate flags. WebTransport trusts the origin's
// self-signed certificate through the hash the page fetches (serverCertificateHashes); the kernel-TCP baseline is plain
// HTTP/1.1, which needs no certificate at all.
import type { Browser } from 'playwright-core';
import { startOriginProcess, type OriginProcess } from '@pcc-stream/server/process';
import { launchChromium } from './chromium.ts';
import { mediaDir, playerDist, preparePlayerAndMedia } from './player-fixture.ts';

export async function startOriginAndChromium(cc = 'vivace'): Promise<{ origin: OriginProcess; browser: Browser }> {
  preparePlayerAndMedia();
  const origin = await startOriginProcess({ mediaDir, staticDir: playerDist, cc });
  try {
    return { origin, browser: await launchChromium() };
  } catch (error) {
    await origin.stop();
    throw error;
  }
}

/** The page's query parameters that point it at this origin's ports (WebTransport and the TCP baseline). */
export function originPortsQuery(origin: OriginProcess): string {
  return `port=${origin.webTransportPort}&tcpPort=${origin.tcpPort}`;
}
