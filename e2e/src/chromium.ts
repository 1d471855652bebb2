// Debian's Chromium driven by playwright-core: never a downloaded browser (FIELD-NOTES "Chromium and Playwright").
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // No --disable-quic: it would disable WebTransport. Playwright gives each launch a fresh temporary profile.
    args: [
      ...(isRoot ? ['--no-sandbox'] : []),
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}
