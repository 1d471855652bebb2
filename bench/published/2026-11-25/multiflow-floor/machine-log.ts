// Logs the machine beside a hold, one JSON line a second to stdout until SIGTERM: the bench's per-class CPU and
// run-queue wait (bench/harness/cpu-sampler.ts), the kernel's CPU pressure (/proc/pressure/cpu "some": share of the
// second in which some runnable task waited for a core), the whole machine's busy share (/proc/stat, 200 = both cores)
// and Chromium's CPU by process type and thread name (which of decoding, drawing, scripts or networking takes it).
import { readdirSync, readFileSync } from 'node:fs';
import { cpuTicks, CpuSampler } from '../../../harness/cpu-sampler.ts';

/** Chromium's threads' ticks now, by "process type:thread name" (--type= of its command line; none: the browser). */
function chromiumThreadTicks(types: Map<string, string | null>): Map<string, number> {
  const byThread = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    if (!types.has(pid)) {
      let cmd = '';
      try { cmd = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' '); } catch { /* gone */ }
      types.set(pid, /chrom(e|ium)/.test(cmd) ? (/--type=(\S+)/.exec(cmd)?.[1] ?? 'browser') : null);
    }
    const type = types.get(pid);
    if (!type) continue;
    let tids: string[] = [];
    try { tids = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const tid of tids) {
      let comm = '?';
      try { comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'latin1').trim().replace(/\d+$/, ''); } catch { continue; }
      const ticks = cpuTicks(`${pid}/task/${tid}`);
      if (ticks !== null) byThread.set(`${pid}/${tid} ${type}:${comm}`, ticks);
    }
  }
  return byThread;
}

function psiSomeUs(): number {
  return Number(/some .*total=(\d+)/.exec(readFileSync('/proc/pressure/cpu', 'latin1'))?.[1] ?? Number.NaN);
}
/** Busy, idle (with iowait) and steal (the hypervisor's) ticks of the whole machine; guest time is inside user's. */
function busyIdleTicks(): [number, number, number] {
  const f = readFileSync('/proc/stat', 'latin1').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = f[3]! + f[4]!;
  return [f.reduce((a, b) => a + b, 0) - idle, idle, f[7] ?? 0];
}

const sampler = new CpuSampler();
const chromiumTypes = new Map<string, string | null>();
let threadsBefore = chromiumThreadTicks(chromiumTypes);
let printed = 0;
let [psiBefore, [busyBefore, idleBefore, stealBefore], msBefore] = [psiSomeUs(), busyIdleTicks(), Date.now()];
const timer = setInterval(() => {
  const [psi, [busy, idle, steal], ms] = [psiSomeUs(), busyIdleTicks(), Date.now()];
  const threads = chromiumThreadTicks(chromiumTypes);
  const chromium: Record<string, number> = {};
  for (const [key, ticks] of threads) {
    const name = key.slice(key.indexOf(' ') + 1);
    chromium[name] = (chromium[name] ?? 0) + ticks - (threadsBefore.get(key) ?? 0); // ticks of 10 ms: percent of a core per second
  }
  threadsBefore = threads;
  const s = sampler.samples.at(-1);
  if (s && sampler.samples.length > printed) {
    printed = sampler.samples.length;
    const round = (r: Record<string, number>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v)]));
    console.log(JSON.stringify({
      at: new Date(ms).toISOString(), cpu: round(s.percent), wait: round(s.waitPercent),
      psi_some_pct: Math.round((psi - psiBefore) / ((ms - msBefore) * 10)),
      busy_pct: Math.round((200 * (busy - busyBefore)) / Math.max(1, busy - busyBefore + idle - idleBefore)),
      steal_pct: Math.round((200 * (steal - stealBefore)) / Math.max(1, busy - busyBefore + idle - idleBefore)),
      chromium_threads: Object.fromEntries(Object.entries(chromium).filter(([, v]) => v >= 2).sort((a, b) => b[1] - a[1])),
      load1: Number(readFileSync('/proc/loadavg', 'latin1').split(' ')[0]),
    }));
  }
  [psiBefore, busyBefore, idleBefore, stealBefore, msBefore] = [psi, busy, idle, steal, ms];
}, 1000);
process.on('SIGTERM', () => { clearInterval(timer); sampler.stop(); process.exit(0); });
