// Types for test/unit/bench.test.ts, which judges targets from rounds it makes up.
import type { Result } from './four.d.mts';

export interface ServerRun {
  server: { id: string; label: string; cmd: string[] };
  bench: {
    results: Map<string, Result>;
    rounds: Map<string, number>[];
    runs: number;
    warmups: number;
  };
  notes: string[];
}
/** The Targets table's rows of one server at a time. */
export function serverTargets(
  b: { inspector: { skipped: string } | object; node24?: unknown },
  runs: ServerRun[],
): string[][];
