// Checks that linkem can work here, with errors that say what to do.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export class PreflightError extends Error {}

const CAP_NET_ADMIN_BIT = 12n;

export const FORWARDER_PATH = fileURLToPath(new URL('../../build/linkem-fwd', import.meta.url));
export const PROBE_PATH = fileURLToPath(new URL('../../build/linkem-probe', import.meta.url));

function hasNetAdmin(): boolean {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const m = /^CapEff:\s*([0-9a-f]+)$/m.exec(status);
    return m !== null && ((BigInt(`0x${m[1]}`) >> CAP_NET_ADMIN_BIT) & 1n) === 1n;
  } catch {
    return false;
  }
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin')
    .split(':')
    .some((dir) => dir !== '' && existsSync(`${dir}/${command}`));
}

export function preflight(): void {
  if (!hasNetAdmin()) {
    throw new PreflightError('linkem needs root (CAP_NET_ADMIN) to create network namespaces and TUN devices: run it with sudo');
  }
  if (!existsSync('/dev/net/tun')) {
    throw new PreflightError('/dev/net/tun is missing: load the tun module (modprobe tun) or run where TUN devices are available');
  }
  try {
    accessSync('/dev/net/tun', constants.R_OK | constants.W_OK);
  } catch {
    throw new PreflightError('/dev/net/tun is not readable and writable by this user');
  }
  if (!onPath('ip')) throw new PreflightError('the ip command (Debian package iproute2) is missing: apt-get install -y iproute2');
  if (!existsSync(FORWARDER_PATH)) {
    throw new PreflightError(`forwarder ${FORWARDER_PATH} is not built: run npm run build -w bench`);
  }
}
