// npm start's processes form a chain: npm -> sh -> node scripts/start.mjs -> node scripts/demo/main.ts. A SIGKILL of
// npm leaves the rest running with nobody to stop them, so the demo watches the chain up to npm and stops itself
// (links, origins, page server) when any link of it is gone.
import { readFileSync } from 'node:fs';

/** How often the chain is checked: the longest a killed npm start's ports and namespaces outlive it. */
const WATCH_INTERVAL_MS = 500;

interface Ancestor {
  pid: number;
  ppid: number;
}

/** pid, parent pid and state of a live process; null when it is gone or a zombie (killed, not yet reaped). */
function stat(pid: number): { ppid: number; state: string; command: string } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
  const close = text.lastIndexOf(')');
  const [state, ppid] = text.slice(close + 2).split(' ');
  if (state === undefined || state === 'Z' || state === 'X') return null;
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch { /* gone meanwhile */ }
  return { ppid: Number(ppid), state, command };
}

/** This process's ancestors up to and including the nearest npm (or just the parent when npm did not start it). */
export function launchChain(): Ancestor[] {
  const chain: Ancestor[] = [];
  let pid = process.ppid;
  while (pid > 1 && chain.length < 8) {
    const s = stat(pid);
    if (!s) break;
    chain.push({ pid, ppid: s.ppid });
    if (/(^|\/)npm(-cli\.js)?( |$)|npm-cli\.js/.test(s.command)) return chain;
    pid = s.ppid;
  }
  return chain.slice(0, 1);
}

/** Calls `onGone` once when a process of the chain has died or been re-parented (its parent died). */
export function watchLaunchChain(chain: readonly Ancestor[], onGone: (pid: number) => void): () => void {
  const timer = setInterval(() => {
    for (const a of chain) {
      const s = stat(a.pid);
      if (!s || s.ppid !== a.ppid) {
        clearInterval(timer);
        onGone(a.pid);
        return;
      }
    }
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
