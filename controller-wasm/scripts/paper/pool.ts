// A bounded pool of async jobs; no Node modules, so the figures (figures.ts) can use it in the browser too.
/** Runs jobs with at most `limit` in flight, keeping results in input order. */
export async function runPool<T>(jobs: Array<() => Promise<T>>, limit: number, onDone?: (done: number) => void): Promise<T[]> {
  const results: T[] = new Array<T>(jobs.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const index = next++;
      const job = jobs[index];
      if (!job) return;
      results[index] = await job();
      done++;
      onDone?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, jobs.length)) }, worker));
  return results;
}
