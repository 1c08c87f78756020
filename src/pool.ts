/*
 * Runs tasks a few at a time. The audit lists several servers at once (most of a server's
 * start-up is waiting), yet what it reports must not depend on which finished first: results
 * come back in the items' order, whatever order they settled in.
 */

export interface PoolOptions<T> {
  /** The most tasks running at once (at least 1). */
  limit: number;
  /**
   * Items with the same key never run at the same time (HTTP servers whose start commands
   * would listen on one port); undefined: no such constraint.
   */
  keyOf?: (item: T) => string | undefined;
  /**
   * Once this item's task has failed, items after it in order that have not started are not
   * started: the first failure in order is what the caller reports, and they cannot change it.
   */
  stopAfterFailure?: boolean;
}

export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown } | undefined;

/**
 * Each item's task, at most `limit` at once, started in order (an item whose key is busy waits
 * while later ones start). Resolves once every started task has settled, with each item's
 * outcome in the items' order (undefined: never started).
 */
export function runPooled<T, R>(
  items: readonly T[],
  task: (item: T) => Promise<R>,
  options: PoolOptions<T>,
): Promise<Outcome<R>[]> {
  const limit = Math.max(1, Math.floor(options.limit));
  const outcomes: Outcome<R>[] = items.map(() => undefined);
  const pending = items.map((_, index) => index);
  const busy = new Set<string>();
  let running = 0;
  let firstFailure = Infinity;
  return new Promise((resolve) => {
    const startable = (index: number): boolean => {
      const key = options.keyOf?.(items[index] as T);
      return key === undefined || !busy.has(key);
    };
    const next = (): void => {
      if (options.stopAfterFailure)
        for (let at = pending.length - 1; at >= 0; at--)
          if ((pending[at] as number) > firstFailure) pending.splice(at, 1);
      while (running < limit) {
        const at = pending.findIndex(startable);
        if (at < 0) break;
        const index = pending.splice(at, 1)[0] as number;
        const item = items[index] as T;
        const key = options.keyOf?.(item);
        if (key !== undefined) busy.add(key);
        running += 1;
        // A task that throws before its first await fails like one that rejects.
        void Promise.resolve()
          .then(() => task(item))
          .then(
            (value) => (outcomes[index] = { ok: true, value }),
            (error: unknown) => {
              outcomes[index] = { ok: false, error };
              firstFailure = Math.min(firstFailure, index);
            },
          )
          .finally(() => {
            running -= 1;
            if (key !== undefined) busy.delete(key);
            next();
          });
      }
      if (running === 0) resolve(outcomes);
    };
    next();
  });
}
