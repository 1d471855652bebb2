// Splitting one benchmark command across machines (--shard i/N, Playwright's convention: 1-based). Every shard
// computes the same plan from the same command and keeps its own deterministic, disjoint share, so any engine that
// starts N copies with i = 1..N (a CI matrix, a Kubernetes Indexed Job) runs the whole plan exactly once.
import type { RunPlanItem } from './runner.ts';

export interface ShardSpec {
  /** 1-based. */
  index: number;
  total: number;
}

export class ShardSpecError extends Error {}

/** Time a run costs beyond its duration (namespace, origin, browser start and teardown), to balance shards. */
const RUN_OVERHEAD_S = 15;

export function parseShard(spec: string): ShardSpec {
  const m = /^(\d+)\/(\d+)$/.exec(spec.trim());
  if (!m) throw new ShardSpecError(`--shard ${spec}: expected i/N with whole numbers, 1 ≤ i ≤ N (e.g. --shard 2/3)`);
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1) throw new ShardSpecError(`--shard ${spec}: N must be at least 1`);
  if (index < 1 || index > total) throw new ShardSpecError(`--shard ${spec}: i must be in 1..${total} (shards are numbered from 1)`);
  return { index, total };
}

/**
 * This shard's runs, in plan order. The unit of the split is a (scenario, repetition) group, all its schemes
 * together: a shard holds whole pairs, so each shard's own summary can already compare schemes, and a repetition's
 * runs stay interleaved on one machine as the plan intends. Groups go, in plan order, to the shard with the least
 * estimated time so far (lowest index on ties): round-robin when groups are alike, balanced when scenarios differ in
 * duration or scheme count. The split depends only on the plan, never on the machine.
 */
export function shardPlan(items: readonly RunPlanItem[], shard: ShardSpec): RunPlanItem[] {
  const groups = new Map<string, RunPlanItem[]>();
  for (const item of items) {
    const key = `${item.scenario.name}\u0000${item.repetition}`;
    const group = groups.get(key) ?? [];
    group.push(item);
    groups.set(key, group);
  }
  const loadS = new Array<number>(shard.total).fill(0);
  const mine = new Set<RunPlanItem>();
  for (const group of groups.values()) {
    let target = 0;
    for (let i = 1; i < shard.total; i += 1) if ((loadS[i] as number) < (loadS[target] as number)) target = i;
    loadS[target] = (loadS[target] as number) + group.reduce((s, item) => s + item.scenario.durationS + RUN_OVERHEAD_S, 0);
    if (target === shard.index - 1) for (const item of group) mine.add(item);
  }
  return items.filter((item) => mine.has(item));
}
