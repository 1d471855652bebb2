// Debian's Chromium driven by playwright-core: never a downloaded browser (FIELD-NOTES "Chromium and Playwright").
// The one place the project's headless-Chromium flags live; the benchmark harness launches through it too.
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface ChromiumLaunchOptions {
  /** The binary to run, e.g. a wrapper that enters a network namespace first; default chromiumPath. */
  executablePath?: string;
  /** Flags appended after the common ones (none of the project's runs needs one: no certificate or secure-origin flags). */
  extraArgs?: string[];
  /** How long the launch may take; playwright's default when absent. */
  launchTimeoutMs?: number;
}

/** Flags every headless run needs: no sandbox as root, no background traffic, autoplay without a gesture. */
export function chromiumArgs(extraArgs: string[] = []): string[] {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  // No --disable-quic: it would disable WebTransport. Playwright gives each launch a fresh temporary profile.
  return [
    ...(isRoot ? ['--no-sandbox'] : []),
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
    '--autoplay-policy=no-user-gesture-required',
    ...extraArgs,
  ];
}

export async function launchChromium(options: ChromiumLaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: options.executablePath ?? chromiumPath, headless: true, args: chromiumArgs(options.extraArgs),
    ...(options.launchTimeoutMs === undefined ? {} : { timeout: options.launchTimeoutMs }),
  });
}
