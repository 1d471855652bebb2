// Load and hostile generators send only to this machine: loopback, or an address of one of its own interfaces (the
// host side of a linkem namespace the run created). Anything else is refused before a packet leaves.
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

export function isLoopback(address: string): boolean {
  return address === '::1' || (isIP(address) === 4 && address.startsWith('127.'));
}

/** Throws unless `address` is loopback or assigned to an interface of this host. */
export function assertLocalTarget(address: string): void {
  if (isIP(address) === 0) throw new Error(`target ${JSON.stringify(address)} is not an IP address`);
  if (isLoopback(address)) return;
  const own = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  if (!own.includes(address)) {
    throw new Error(`target ${address} is neither loopback nor an address of this host: generators send nowhere else`);
  }
}

/** The i-th of many 127.x.y.z source addresses (127.0.0.0/8 minus .0 and .255 in the last octet), for clients that
 *  should look like many hosts. */
export function loopbackSource(i: number): string {
  const n = i % (254 * 256 * 16);
  const last = (n % 254) + 1;
  const third = Math.floor(n / 254) % 256;
  const second = 10 + Math.floor(n / (254 * 256));
  return `127.${second}.${third}.${last}`;
}
