// Types for test/unit/bench.test.ts, which builds this section from rounds it makes up.

export interface Result {
  id: string;
  times: number[];
  rss: number[];
  cpu: number[];
  codes: Set<number | null>;
  warmupMs: number[];
  failed?: string;
  failedMs?: number;
}
export interface FourRun {
  bench?: {
    results: Map<string, Result>;
    rounds: Map<string, number>[];
    runs: number;
    warmups: number;
  };
  setupError?: string;
  defaultConcurrency: number;
}
export function fourAtOnce(four: FourRun): {
  text: string;
  targets?: string[][];
  notes?: string[];
};
