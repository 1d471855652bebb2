// CPU each process of a run used, per second, from /proc/PID/stat (utime + stime): the origin, the Node client,
// linkem's forwarder, Chromium (all its processes) and the bench itself. On a 2-core machine this tells whether
// contention can explain a real-path result (100% = one core for the whole second).
import { readdirSync, readFileSync } from 'node:fs';

/** Process classes, by what their command line contains (first match wins). */
export const CPU_CLASSES: ReadonlyArray<readonly [string, RegExp]> = [
  // PCC-Uspace (run-uspace.ts): its host-side sender stands where the origin does, its receiver where the client does.
  ['origin', /origin-main\.ts|\/pccclient send /],
  ['client', /fetch-main\.ts|\/pccserver recv /],
  ['linkem', /linkem-fwd/],
  ['chromium', /chrom(e|ium)/],
  ['bench', /harness\/cli\.ts/],
];

/** Kernel clock ticks per second of /proc/PID/stat times (USER_HZ; 100 on every Linux architecture we run on). */
const USER_HZ = 100;
export const CPU_SAMPLE_INTERVAL_MS = 1000;

export interface CpuSample {
  /** Seconds since the sampler started. */
  t_s: number;
  /** Percent of one core per class over the second before t_s. */
  percent: Record<string, number>;
  /**
   * Time the class's threads were runnable but waited for a core (the scheduler's run-queue wait, /proc/PID/task/TID/
   * schedstat), summed over threads, percent of the second (above 100 when several wait at once): descheduling by CPU
   * contention, as opposed to a busy event loop, which runs.
   */
  waitPercent: Record<string, number>;
}

function classify(pid: string): string | null {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ');
  } catch {
    return null; // gone
  }
  for (const [name, pattern] of CPU_CLASSES) if (pattern.test(cmdline)) return name;
  return null;
}

/** utime + stime of /proc/PID/stat; PID may be "PID/task/TID" for one thread (the same format). */
export function cpuTicks(pid: string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
  } catch {
    return null;
  }
}

/** Nanoseconds the process's threads have waited on a run queue (schedstat's second field, summed over threads). */
function runqueueWaitNs(pid: string): number | null {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  let total = 0;
  for (const tid of tids) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1').split(' ')[1]) || 0;
    } catch {
      // a thread that ended meanwhile
    }
  }
  return total;
}

export class CpuSampler {
  readonly samples: CpuSample[] = [];
  readonly #classes = new Map<string, string | null>();
  readonly #lastTicks = new Map<string, number>();
  readonly #lastWaitNs = new Map<string, number>();
  #waitedNs = new Map<string, number>();
  readonly #startMs = Date.now();
  #lastMs = Date.now();
  readonly #timer: NodeJS.Timeout;

  constructor() {
    this.#read(); // baseline: CPU used before the run started is not counted
    this.#timer = setInterval(() => this.#sample(), CPU_SAMPLE_INTERVAL_MS);
    this.#timer.unref();
  }

  #read(): Map<string, number> {
    const used = new Map<string, number>();
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let cls = this.#classes.get(pid);
      if (cls === undefined) {
        cls = classify(pid);
        this.#classes.set(pid, cls);
      }
      if (cls === null) continue;
      const ticks = cpuTicks(pid);
      if (ticks === null) continue;
      const before = this.#lastTicks.get(pid) ?? 0; // a process born since the last sample counts from 0
      this.#lastTicks.set(pid, ticks);
      used.set(cls, (used.get(cls) ?? 0) + Math.max(0, ticks - before));
      const waitNs = runqueueWaitNs(pid);
      if (waitNs === null) continue;
      const waitBefore = this.#lastWaitNs.get(pid) ?? 0;
      this.#lastWaitNs.set(pid, waitNs);
      this.#waitedNs.set(cls, (this.#waitedNs.get(cls) ?? 0) + Math.max(0, waitNs - waitBefore));
    }
    return used;
  }

  #sample(): void {
    const nowMs = Date.now();
    this.#waitedNs = new Map();
    const used = this.#read();
    const seconds = (nowMs - this.#lastMs) / 1000;
    this.#lastMs = nowMs;
    const percent: Record<string, number> = {};
    const waitPercent: Record<string, number> = {};
    for (const [name] of CPU_CLASSES) {
      percent[name] = seconds > 0 ? (100 * (used.get(name) ?? 0)) / USER_HZ / seconds : 0;
      waitPercent[name] = seconds > 0 ? (100 * (this.#waitedNs.get(name) ?? 0)) / 1e9 / seconds : 0;
    }
    this.samples.push({ t_s: Math.round((nowMs - this.#startMs) / 100) / 10, percent, waitPercent });
  }

  stop(): CpuSample[] {
    clearInterval(this.#timer);
    this.#sample();
    return this.samples;
  }
}
