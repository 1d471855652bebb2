// Commands a test starts in their own process group (detached, so one kill reaches the command's whole tree), made
// to die with the test process however it ends: on exit and on SIGTERM/SIGINT/SIGHUP this process signals every
// group it still owns; for SIGKILL or a crash, where no handler runs, each group has a watcher (a shell in its own
// session, outside the terminal's signals) holding a pipe from this process: when the pipe closes without a
// "done", it sends the group SIGTERM and, GRACE_S later, SIGKILL (a bench run gets the time to remove its
// namespaces; a process that ignores SIGTERM still goes).
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import type { Writable } from 'node:stream';

const GRACE_S = 5;
const WATCHER = `read told; [ -n "$told" ] && exit 0; kill -TERM "-$1" 2>/dev/null; sleep ${GRACE_S}; kill -KILL "-$1" 2>/dev/null; exit 0`;

const owned = new Map<number, Writable>();
let handlersInstalled = false;

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch { /* the group is gone */ }
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    for (const pgid of owned.keys()) signalGroup(pgid, 'SIGTERM');
  });
  const exitCodes: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
  for (const [signal, code] of Object.entries(exitCodes) as [NodeJS.Signals, number][]) {
    // A handler replaces the default (die): exit as the signal would have, through the 'exit' handler above.
    process.once(signal, () => process.exit(code));
  }
}

/** spawn(command, args, options) with the child leading a new process group that cannot outlive this process. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  installHandlers();
  const child = spawn(command, args, { ...options, detached: true });
  const pgid = child.pid;
  if (pgid === undefined) return child; // spawn failed: 'error' follows
  const watcher = spawn('sh', ['-c', WATCHER, 'group-watcher', String(pgid)], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  watcher.unref();
  const pipe = watcher.stdin!;
  (pipe as Writable & { unref?: () => void }).unref?.(); // the pipe alone must not keep this process running
  pipe.on('error', () => { /* the watcher died first: the exit handler still covers the group */ });
  owned.set(pgid, pipe);
  child.once('close', () => releaseGroup(pgid));
  return child;
}

/** The group's leader has exited and closed its output: stragglers (members that closed theirs) go with it. */
function releaseGroup(pgid: number): void {
  const pipe = owned.get(pgid);
  if (pipe === undefined) return;
  owned.delete(pgid);
  signalGroup(pgid, 'SIGKILL');
  pipe.end('done\n');
}

/** The process groups started by spawnGroup whose leader has not exited yet. */
export function ownedGroups(): number[] {
  return [...owned.keys()];
}
