// The soak's clients as one process (started inside the link's namespace by soak.ts): prints a JSON line per sample
// on stdout ({"sample": …}) and a last {"final": …} line, then exits. Bounded by durationS.
import { runSoakClients, type SoakClientOptions } from './soak-clients.ts';

const raw = process.argv[2];
if (!raw) {
  console.error('usage: soak-clients-main.ts \'{"origin":"https://HOST:PORT","certSha256Hex":"…","sessions":[…],"durationS":60}\'');
  process.exit(2);
}
const final = await runSoakClients(JSON.parse(raw) as SoakClientOptions, (sample) => console.log(JSON.stringify({ sample })));
console.log(JSON.stringify({ final }));
process.exit(0);
