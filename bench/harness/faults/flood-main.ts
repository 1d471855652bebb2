// The handshake flood as its own process: `node --import tsx bench/harness/faults/flood-main.ts '<FloodOptions JSON>'`
// prints one JSON summary line on stdout. Bounded by flood-client.ts; exits by itself.
import { runFlood, type FloodOptions } from './flood-client.ts';

const raw = process.argv[2];
if (!raw) {
  console.error('usage: flood-main.ts \'{"host":"127.0.0.1","port":4433,"certSha256Hex":"…","ratePerS":200,"durationS":30}\'');
  process.exit(2);
}
console.log(JSON.stringify(await runFlood(JSON.parse(raw) as FloodOptions)));
process.exit(0);
