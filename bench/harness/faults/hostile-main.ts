// The hostile client as its own process, so its work does not share an event loop with the bench's player sampling:
// `node --import tsx bench/harness/faults/hostile-main.ts '<HostileOptions JSON>'` prints one JSON summary line on
// stdout and progress as JSON lines on stderr. Bounded by hostile-client.ts; exits by itself.
import { generatorMain } from './generator-main.ts';
import { runHostileClient, type HostileOptions } from './hostile-client.ts';

await generatorMain<HostileOptions, unknown>({
  script: 'hostile-main.ts', component: 'hostile-client',
  example: '{"host":"127.0.0.1","port":4433,"certSha256Hex":"…","ratePerS":20000,"durationS":30,"sessions":8,"fetchPath":"/…"}',
}, (options, log) => runHostileClient({ ...options, log }));
