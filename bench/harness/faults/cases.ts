// The `faults` suite's cases (issue 20), one file each. To add a case: write faults/NAME.ts exporting a FaultCase
// and add it to this table; the suite, --list/--run, resume and the report pick it up.
import type { FaultCase } from './fault-case.ts';
import { blackout } from './blackout.ts';
import { originDrain, originRestart } from './origin-restart.ts';
import { garbage } from './garbage.ts';
import { churn } from './churn.ts';
import { flood } from './flood.ts';

export const FAULT_CASES: readonly FaultCase[] = [
  blackout,
  originRestart,
  originDrain,
  garbage,
  churn,
  flood,
];

export function faultCase(name: string): FaultCase {
  const found = FAULT_CASES.find((c) => c.name === name);
  if (!found) throw new Error(`unknown fault case ${JSON.stringify(name)} (known: ${FAULT_CASES.map((c) => c.name).join(', ')})`);
  return found;
}
