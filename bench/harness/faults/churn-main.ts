// The churn generator as its own process: `node --import tsx bench/harness/faults/churn-main.ts '<ChurnOptions JSON>'`
// prints one JSON summary line on stdout, a progress line per wave (with ETA) on stderr. Bounded; exits by itself.
import { runChurn, type ChurnOptions } from './churn-client.ts';

const raw = process.argv[2];
if (!raw) {
  console.error('usage: churn-main.ts \'{"host":"127.0.0.1","port":4433,"httpBase":"http://127.0.0.1:8080","certSha256Hex":"…","sessions":10000,"waves":20,"concurrency":50,"fetchPath":"/…"}\'');
  process.exit(2);
}
const summary = await runChurn({
  ...(JSON.parse(raw) as ChurnOptions),
  log: (event, detail) => console.error(JSON.stringify({ t: new Date().toISOString(), component: 'churn', event, ...detail })),
});
console.log(JSON.stringify(summary));
process.exit(0);
