// Runs a load or hostile generator (hostile-main.ts, flood-main.ts...) as its own Node process, so its work does not
// share the bench's event loop (player sampling, event timing). The generator prints one JSON summary line on stdout
// and exits by itself; the case's cleanup kills it if the run ends first.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FaultContext } from './fault-case.ts';

const here = dirname(fileURLToPath(import.meta.url));

export interface GeneratorRun<T> {
  /** Resolves with the generator's summary (rejects when it exits without one). */
  done: Promise<T>;
  pid: number;
}

/** `nice`: run the generator at this nice value (all its threads; `nice` execs node, so the pid is the generator's). */
export function startGenerator<T>(ctx: Pick<FaultContext, 'onCleanup' | 'log'>, script: string, options: unknown, nice?: number): GeneratorRun<T> {
  const command = [process.execPath, '--import', 'tsx', join(here, script), JSON.stringify(options)];
  const [file, ...args] = nice === undefined ? command : ['nice', '-n', String(nice), ...command];
  const child = spawn(file!, args, {
    cwd: join(here, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderrTail = '';
  child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
  child.stderr.on('data', (c: Buffer) => {
    stderrTail = (stderrTail + c.toString()).slice(-4000);
  });
  ctx.onCleanup(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const done = new Promise<T>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      try {
        if (code !== 0) throw new Error(`exit ${code ?? signal}`);
        resolve(JSON.parse(line) as T);
      } catch (err) {
        reject(new Error(`${script} failed (${err instanceof Error ? err.message : String(err)}): ${stderrTail.slice(-1500)}`));
      }
    });
  });
  ctx.log('generator-started', { script, pid: child.pid });
  return { done, pid: child.pid ?? -1 };
}
