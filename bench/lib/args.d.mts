// Types for test/unit/bench.test.ts, which imports the benchmark's pure modules from TypeScript.

export const HELP: string;
export class UsageError extends Error {}
export interface Options {
  runs: number;
  warmups: number;
  budgetMs: number;
  only: Set<string> | undefined;
  dist: string | undefined;
  baseline: string | undefined;
  skipInspector: boolean;
  profile: boolean;
  help: boolean;
}
export function parseBenchArgs(args: string[]): Options;
export function selected(opts: Options, id: string): boolean;
