// The faults suite's part of summary.md and report.html: per case, every run's figures and its checks against the
// issue's targets (failed runs listed with their error).
import type { RunResult } from '../results.ts';
import type { FigureValue } from './fault-case.ts';

function formatFigure(value: FigureValue | undefined): string {
  if (value === undefined || value === null) return 'n/a';
  if (typeof value === 'number') return Number.isFinite(value) ? String(Number(value.toFixed(3))) : 'n/a';
  return String(value);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function faultsMarkdown(results: readonly RunResult[]): string {
  const faultRuns = results.filter((r) => r.fault !== undefined || r.resolved_scenario?.fault !== undefined);
  if (faultRuns.length === 0) return '';
  const out: string[] = [];
  const cases = [...new Set(faultRuns.map((r) => r.fault?.case ?? r.resolved_scenario?.fault ?? r.scenario))];
  for (const name of cases) {
    const runs = faultRuns.filter((r) => (r.fault?.case ?? r.resolved_scenario?.fault ?? r.scenario) === name);
    const keys = [...new Set(runs.flatMap((r) => Object.keys(r.fault?.figures ?? {})))];
    out.push(`### faults: ${name}`, '');
    out.push(`| run | status | checks | ${keys.join(' | ')} |`, `| --- | --- | --- | ${keys.map(() => '---').join(' | ')} |`);
    for (const r of runs) {
      const checks = r.fault ? `${r.fault.checks.filter((c) => c.pass).length}/${r.fault.checks.length} pass` : '';
      out.push(`| ${r.scheme}/${r.repetition} | ${r.status} | ${checks} | ${keys.map((k) => cell(formatFigure(r.fault?.figures[k]))).join(' | ')} |`);
    }
    out.push('', '| run | check | target | measured | pass |', '| --- | --- | --- | --- | --- |');
    for (const r of runs) {
      if (!r.fault) {
        out.push(`| ${r.scheme}/${r.repetition} | run failed | | ${cell(r.error ?? 'unknown error').slice(0, 300)} | no |`);
        continue;
      }
      for (const c of r.fault.checks) out.push(`| ${r.scheme}/${r.repetition} | ${cell(c.name)} | ${cell(c.target)} | ${cell(c.measured)} | ${c.pass ? 'yes' : 'NO'} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
