// Types for test/unit/bench.test.ts, which gives this module profiles it makes up.

export const PHASES: [string, RegExp][];
export const OTHER: string;
export function PHASES_IN_ORDER(): string[];
export function phasesOf(file: string): Map<string, number>;
