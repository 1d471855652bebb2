// The churn generator as its own process: `node --import tsx bench/harness/faults/churn-main.ts '<ChurnOptions JSON>'`
// prints one JSON summary line on stdout, a progress line per wave (with ETA) on stderr. Bounded; exits by itself.
import { runChurn, type ChurnOptions } from './churn-client.ts';
import { generatorMain } from './generator-main.ts';

await generatorMain<ChurnOptions, unknown>({
  script: 'churn-main.ts', component: 'churn',
  example: '{"host":"127.0.0.1","port":4433,"httpBase":"http://127.0.0.1:8080","certSha256Hex":"…","sessions":10000,"waves":20,"concurrency":50,"fetchPath":"/…"}',
}, (options, log) => runChurn({ ...options, log }));
