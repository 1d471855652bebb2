// Progress for long benchmark runs: a bar with ETA on a terminal, JSON lines otherwise (CI logs).
export class Progress {
  private done = 0;
  private failed = 0;
  private readonly startedMs = Date.now();
  private readonly isTty = Boolean(process.stderr.isTTY);

  constructor(private readonly total: number, private readonly alreadyDone: number) {}

  /** Called when a run starts, so the line shows what is running now. */
  start(runId: string): void {
    this.render(runId);
  }

  finish(runId: string, ok: boolean): void {
    this.done += 1;
    if (!ok) this.failed += 1;
    this.render(runId, true);
  }

  private etaSeconds(): number | null {
    if (this.done === 0) return null;
    const perRunMs = (Date.now() - this.startedMs) / this.done;
    return Math.round((perRunMs * (this.total - this.alreadyDone - this.done)) / 1000);
  }

  private render(runId: string, finished = false): void {
    const completed = this.alreadyDone + this.done;
    const eta = this.etaSeconds();
    if (!this.isTty) {
      console.error(JSON.stringify({ t: new Date().toISOString(), component: 'bench', event: finished ? 'run-finished' : 'run-started', run: runId, completed, total: this.total, failed: this.failed, eta_s: eta }));
      return;
    }
    const width = 30;
    const filled = Math.round((completed / Math.max(1, this.total)) * width);
    const bar = `${'='.repeat(Math.max(0, filled - 1))}${filled > 0 ? '>' : ''}${' '.repeat(width - filled)}`;
    const etaText = eta === null ? '--' : `${Math.floor(eta / 60)}m${String(eta % 60).padStart(2, '0')}s`;
    process.stderr.write(`\r[${bar}] ${completed}/${this.total} runs, ${this.failed} failed, ETA ${etaText}  ${runId.padEnd(40).slice(0, 40)}`);
    if (completed === this.total && finished) process.stderr.write('\n');
  }
}
