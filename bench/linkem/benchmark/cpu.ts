// CPU time of a process from /proc/PID/stat (utime + stime), in seconds.
import { readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_S = 100; // USER_HZ on Linux

export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // fields after the parenthesised command name; utime and stime are fields 14 and 15
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
}
