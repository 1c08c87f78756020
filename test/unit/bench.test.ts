// The benchmark's own logic, without running it: its command line, and a report section built
// from rounds handed to it (the sections are functions of the suites' returned values).
import { describe, expect, it } from 'vitest';
import { parseBenchArgs, UsageError } from '../../bench/lib/args.mjs';
import { fourAtOnce, type Result } from '../../bench/report/four.mjs';

describe('bench command line', () => {
  it('takes every flag it documents', () => {
    const opts = parseBenchArgs([
      '--only',
      'example, many-1000',
      '--runs',
      '5',
      '--warmups',
      '1',
      '--budget',
      '30',
      '--skip-inspector',
      '--baseline',
      '/tmp/base',
      '--dist',
      '/tmp/build',
      '--profile',
    ]);
    expect(opts).toMatchObject({
      runs: 5,
      warmups: 1,
      budgetMs: 30_000,
      skipInspector: true,
      baseline: '/tmp/base',
      dist: '/tmp/build',
      profile: true,
      help: false,
    });
    expect([...(opts.only ?? [])]).toEqual(['example', 'many-1000']);
  });

  it.each([
    [['--runs', '0'], '--runs must be a whole number of at least 1, not "0".'],
    [['--budget', 'soon'], '--budget must be a whole number of at least 1, not "soon".'],
    [['--nope'], "Unknown option '--nope'"],
  ])('%j is refused with a usage error', (args, message) => {
    expect(() => parseBenchArgs(args)).toThrow(UsageError);
    expect(() => parseBenchArgs(args)).toThrow(message);
  });
});

describe('bench report: four servers at once', () => {
  const result = (id: string, times: number[]): Result => ({
    id,
    times,
    rss: [],
    cpu: [],
    codes: new Set([0]),
    warmupMs: [],
  });
  const round = (ours: number, alone: number[]) =>
    new Map([['ours', ours], ...alone.map((t, i): [string, number] => [`alone-s${i + 1}`, t])]);

  it('judges ours against the slowest server alone, per round', () => {
    // Round 1: 1300 / 1000; round 2: 1500 / 1000; round 3: 1800 / 1200. Median 1.5.
    const rounds = [
      round(1300, [1000, 900, 950, 980]),
      round(1500, [1000, 990, 900, 700]),
      round(1800, [1200, 1000, 900, 1100]),
    ];
    const results = new Map([['ours', result('ours', [1300, 1500, 1800])]]);
    const section = fourAtOnce({
      bench: { results, rounds, runs: 3, warmups: 1 },
      defaultConcurrency: 4,
    });
    expect(section.targets).toEqual([
      ['four 1-second servers: ours / the slowest alone', '≤ 1.4', '1.500', 'FAIL'],
    ]);
    expect(section.text).toContain('default (concurrency 4) ms');
  });

  it('says why when the servers could not be set up', () => {
    const section = fourAtOnce({ setupError: 'update failed (exit 2)', defaultConcurrency: 2 });
    expect(section.text).toBe('Not measured: update failed (exit 2)\n');
    expect(section.targets).toBeUndefined();
  });
});
