// The hostile client as its own process, so its work does not share an event loop with the bench's player sampling:
// `node --import tsx bench/harness/faults/hostile-main.ts '<HostileOptions JSON>'` prints one JSON summary line on
// stdout and progress as JSON lines on stderr. Bounded by hostile-client.ts; exits by itself.
import { runHostileClient, type HostileOptions } from './hostile-client.ts';

const raw = process.argv[2];
if (!raw) {
  console.error('usage: hostile-main.ts \'{"host":"127.0.0.1","port":4433,"certSha256Hex":"…","ratePerS":20000,"durationS":30,"sessions":8,"fetchPath":"/…"}\'');
  process.exit(2);
}
const options = JSON.parse(raw) as HostileOptions;
const summary = await runHostileClient({
  ...options, log: (event, detail) => console.error(JSON.stringify({ t: new Date().toISOString(), component: 'hostile-client', event, ...detail })),
});
console.log(JSON.stringify(summary));
process.exit(0);
