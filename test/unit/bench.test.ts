// The benchmark's own logic, without running it: its command line, and a report section built
// from rounds handed to it (the sections are functions of the suites' returned values).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs, UsageError } from '../../bench/lib/args.mjs';
import { fourAtOnce, type Result } from '../../bench/report/four.mjs';
import { serverTargets } from '../../bench/report/servers.mjs';
import { phasesOf } from '../../bench/suites/phases.mjs';
import { tempDir } from '../support/cli.js';

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

describe('bench report: where our own cost shows', () => {
  const result = (id: string, times: number[], rss: number[] = []): Result => ({
    id,
    times,
    rss,
    cpu: [],
    codes: new Set([0]),
    warmupMs: [],
  });
  /** A server's runs: per round, floor, ours and action in ms; peak RSS of each in KiB. */
  const run = (id: string, rounds: [number, number, number][], rss: [number, number] = [0, 0]) => {
    const maps = rounds.map(
      ([floor, ours, action]) => new Map(Object.entries({ floor, ours, action })),
    );
    const results = new Map([
      [
        'floor',
        result(
          'floor',
          rounds.map((r) => r[0]),
          [rss[0]],
        ),
      ],
      [
        'ours',
        result(
          'ours',
          rounds.map((r) => r[1]),
          [rss[1]],
        ),
      ],
      [
        'action',
        result(
          'action',
          rounds.map((r) => r[2]),
        ),
      ],
    ]);
    const bench = { results, rounds: maps, runs: rounds.length, warmups: 1 };
    return { server: { id, label: id, cmd: [] }, bench, notes: [] };
  };
  const targets = (runs: ReturnType<typeof run>[]) =>
    serverTargets({ inspector: { skipped: 'offline' } }, runs).filter(
      ([label]) => !label?.includes('Inspector'),
    );

  it('judges ours/floor per size, the action over ours, and memory at 10,000 tools', () => {
    const rows = targets([
      // Ratios per round 1.05, 1.2, 1.08: median 1.08. The action: 1.0, 1.25, 1.204: median 1.204.
      run('raw-notes', [
        [100, 105, 105],
        [100, 120, 150],
        [100, 108, 130],
      ]),
      // 1,000 tools: ours/floor 1.6 and 1.4, median 1.5 (at the limit, a pass).
      run('many-1000', [
        [100, 160, 160],
        [100, 140, 140],
      ]),
      // 10,000 tools: peak RSS 40 MiB and 110 MiB, 70 over.
      run('many-10000', [[100, 150, 150]], [40 * 1024, 110 * 1024]),
    ]);
    expect(rows).toEqual([
      ['10,000 tools: ours − floor', '< 2000 ms', '50 ms', 'PASS'],
      ['ours/floor wall time, raw-notes', '≤ 1.1', '1.080', 'PASS'],
      ['ours/floor wall time, many-1000', '≤ 1.5', '1.500', 'PASS'],
      ['ours/floor wall time, many-10000', '≤ 2', '1.500', 'PASS'],
      ['action/ours wall time, raw-notes', '≤ 1.1', '1.204', 'FAIL'],
      ['action/ours wall time, many-1000', '≤ 1.1', '1.000', 'PASS'],
      ['action/ours wall time, many-10000', '≤ 1.1', '1.000', 'PASS'],
      ['10,000 tools: peak RSS, ours − floor', '≤ 60 MiB', '70.0 MiB', 'FAIL'],
    ]);
  });
});

describe('bench profile: CPU per phase', () => {
  it("gives each sample to its innermost phase's frame, and to module loading under the loader", async () => {
    const dir = await tempDir();
    const src = (file: string) => pathToFileURL(join(dir, 'src', file)).href;
    const frame = (functionName: string, url = '') => ({
      functionName,
      url,
      lineNumber: 0,
      columnNumber: 0,
    });
    // (root) > render (report) > terminalSafe (escape); (root) > module job > top-level code of
    // escape.ts; (root) > parseTool (validation) > a dependency's function; (idle).
    const nodes = [
      { id: 1, callFrame: frame('(root)'), children: [2, 4, 6, 8] },
      { id: 2, callFrame: frame('render', src('report/text.ts')), children: [3] },
      { id: 3, callFrame: frame('terminalSafe', src('escape.ts')) },
      { id: 4, callFrame: frame('run', 'node:internal/modules/esm/module_job'), children: [5] },
      { id: 5, callFrame: frame('', src('escape.ts')) },
      { id: 6, callFrame: frame('parseTool', src('core/tools.ts')), children: [7] },
      { id: 7, callFrame: frame('parse', pathToFileURL(join(dir, 'node_modules/zod/x.js')).href) },
      { id: 8, callFrame: frame('(idle)') },
    ];
    const file = join(dir, 'check.cpuprofile');
    await writeFile(
      file,
      JSON.stringify({
        nodes,
        samples: [3, 5, 7, 8, 3],
        timeDeltas: [1000, 2000, 3000, 4000, 1000],
      }),
    );
    expect(Object.fromEntries(phasesOf(file))).toEqual({
      'escaping (src/escape)': 2,
      'module loading (resolve, read, compile, top-level code)': 2,
      'validation (core/tools fast path and zod, core/schemas)': 3,
      'idle (waiting for the server)': 4,
    });
  });
});
