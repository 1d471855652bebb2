// The handshake flood as its own process: `node --import tsx bench/harness/faults/flood-main.ts '<FloodOptions JSON>'`
// prints one JSON summary line on stdout. Bounded by flood-client.ts; exits by itself.
import { runFlood, type FloodOptions } from './flood-client.ts';
import { generatorMain } from './generator-main.ts';

await generatorMain<FloodOptions, unknown>({
  script: 'flood-main.ts', component: 'flood',
  example: '{"host":"127.0.0.1","port":4433,"certSha256Hex":"…","ratePerS":200,"durationS":30}',
}, (options) => runFlood(options));
