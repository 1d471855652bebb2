// Uniform [0, 1) from the OS CSPRNG, pooled: packet-number skips must not be predictable (RFC 9000 §21.4).
import { randomFillSync } from 'node:crypto';

const pool = new Uint32Array(1024);
let next = pool.length;

export function cryptoRandom(): number {
  if (next >= pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]! / 4294967296;
}
