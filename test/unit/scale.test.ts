import { Session } from 'node:inspector/promises';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A server with many tools must cost the audit work and memory in proportion to its tools: no
// step may compare every tool with every other. That is proved at two sizes four times apart, by
// what the audit does, never by how long it takes: the JavaScript it runs is counted (V8's precise
// coverage counts every block each time it runs, the same on any machine at any load), and the
// heap it keeps is weighed. A linear audit does 4 times the work at 4N (a sort, 4.8 times); a
// quadratic step, 16 times (a loop in JavaScript, or a callback a built-in calls for each pair;
// the loop inside a built-in such as includes is one count per call). N is small: the ratio
// tells linear from quadratic at a few thousand tools as surely as at 100,000, which took
// minutes on a busy machine (200,000 raw tools each validated, classified, checked by every
// policy, and the heap collected around all of it).
const N = 1_000;
const VERBS = ['get', 'update', 'delete', 'run'];

// Collected before each reading, so what is measured is what the audit keeps, not its garbage.
// Twice: a collection that finishes an incremental marking already under way keeps what was
// allocated while it marked (on a busy machine, most of the audit: 10 KiB a tool where 2 are
// kept); the second, a whole cycle of its own, frees it. Only the spaces objects live in are
// weighed: the code V8 compiles (or drops) meanwhile is not something the audit keeps.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const OBJECT_SPACES = new Set(['new_space', 'old_space', 'large_object_space']);
const heap = (): number => {
  gc();
  gc();
  let used = 0;
  for (const space of getHeapSpaceStatistics())
    if (OBJECT_SPACES.has(space.space_name)) used += space.space_used_size;
  return used;
};

/** The synthetic server's tools: every class, some with no annotations at all. */
function rawTool(i: number, prefix = 'record'): Record<string, unknown> {
  const verb = VERBS[i % VERBS.length] ?? 'get';
  const tool: Record<string, unknown> = {
    name: `${verb}_${prefix}_${i}`,
    description: `${verb} a record (tool ${i}).`,
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  };
  if (verb !== 'run') tool.annotations = { title: `${verb} ${i}`, readOnlyHint: verb === 'get' };
  return tool;
}

/** The legacy and modern listings of `count` tools; the modern era renames every tenth. */
function listings(count: number) {
  return [
    { era: 'legacy' as const, rawTools: Array.from({ length: count }, (_, i) => rawTool(i)) },
    {
      era: 'modern' as const,
      rawTools: Array.from({ length: count }, (_, i) => rawTool(i, i % 10 ? 'record' : 'row')),
    },
  ];
}

// Loaded once counting has started: V8 counts blocks only in functions compiled after that.
let engine: {
  diff: typeof import('../../src/core/diff.js');
  listings: typeof import('../../src/core/listings.js');
  policies: typeof import('../../src/core/policy-names.js');
};
const session = new Session();

beforeAll(async () => {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  engine = {
    diff: await import('../../src/core/diff.js'),
    listings: await import('../../src/core/listings.js'),
    policies: await import('../../src/core/policy-names.js'),
  };
});

afterAll(async () => {
  await session.post('Profiler.stopPreciseCoverage');
  await session.post('Profiler.disable');
  session.disconnect();
});

/** Everything the audit does with a server's listings: validate, classify, check, compare. */
function audit(raw: ReturnType<typeof listings>) {
  const { diffRecords } = engine.diff;
  const { auditListings, liveRecords } = engine.listings;
  const result = auditListings(raw, engine.policies.POLICIES);
  const changes = diffRecords(
    liveRecords(
      's',
      result.tools.filter((t) => !t.name.includes('_row_')),
    ),
    liveRecords('s', result.tools),
    { schema: true },
  );
  return { result, changes };
}

/** What the audit of `count` tools keeps on the heap, its result checked. */
function kept(count: number): number {
  const raw = listings(count);
  const start = heap();
  const { result, changes } = audit(raw);
  const bytes = heap() - start;
  expect(result.tools).toHaveLength(count + count / 10);
  expect(result.malformedNames).toEqual([]);
  // Both eras' tools are the union: the renamed ones are added, none removed.
  expect(changes.map((c) => c.kind)).toEqual(Array(count / 10).fill('added'));
  return bytes;
}

/** The blocks of src/ run by `work`, each counted every time it runs (V8's precise coverage). */
async function blocksRun(work: () => void): Promise<number> {
  await session.post('Profiler.takePreciseCoverage'); // resets the counters
  work();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  let total = 0;
  for (const script of result)
    if (/\/src\//.test(script.url) && !script.url.includes('node_modules'))
      for (const fn of script.functions) for (const range of fn.ranges) total += range.count;
  return total;
}

describe('the audit of a server with many tools', () => {
  it('keeps memory in proportion to the tools, a few KiB each', () => {
    kept(N / 4); // loads and warms what the first reading would otherwise count
    // The least of two readings at each size: now and then one reading is well above the rest
    // (up to twice as much: what V8 kept besides, on a busy machine more often), and the least
    // of two is steady. Four times the tools is about four times the heap; a step that keeps
    // something for each pair of tools, sixteen.
    const small = Math.min(kept(N / 2), kept(N / 2));
    const large = Math.min(kept(2 * N), kept(2 * N));
    expect(large / (2 * N)).toBeLessThan(8 * 1024);
    expect(large / small).toBeLessThan(8);
  });

  it('renames at scale (a schema pair each, and delete tools gone beside read ones come): no step compares each with every other', async () => {
    const { diffRecords } = engine.diff;
    const { auditListings, liveRecords } = engine.listings;
    const records = (tools: Record<string, unknown>[]) =>
      liveRecords('s', auditListings([{ era: 'legacy', rawTools: tools }], []).tools);
    const tool = (name: string, field: string, annotations: Record<string, unknown>) => ({
      name,
      inputSchema: { type: 'object', properties: { [field]: { type: 'string' } } },
      annotations,
    });
    const read = { readOnlyHint: true };
    const sides = (n: number) => {
      const ids = Array.from({ length: n }, (_, i) => i);
      return {
        before: records([
          ...ids.map((i) => tool(`list_${i}`, `q${i}`, read)),
          ...ids.map((i) => tool(`delete_${i}`, `id${i}`, { destructiveHint: true })),
        ]),
        after: records([
          ...ids.map((i) => tool(`find_${i}`, `q${i}`, read)),
          ...ids.map((i) => tool(`purge_${i}`, `key${i}`, read)),
        ]),
      };
    };
    // Above LIKENESS_MAX (256) candidates each, as a quadratic step would not be.
    const [small, large] = [sides(N), sides(4 * N)];
    diffRecords(sides(N / 4).before, sides(N / 4).after);
    let changes: ReturnType<typeof diffRecords> = [];
    const ofSmall = await blocksRun(() => diffRecords(small.before, small.after));
    const ofLarge = await blocksRun(() => (changes = diffRecords(large.before, large.after)));
    // Every list_i renamed by its schema; every delete_i judged as renamed into a read tool.
    expect(changes.filter((c) => c.kind === 'renamed' && !c.probable)).toHaveLength(4 * N);
    expect(changes.filter((c) => c.probable && c.after?.class === 'read')).toHaveLength(4 * N);
    expect(ofLarge / ofSmall).toBeLessThan(6);
  });

  it('grows in proportion to the tools: no step compares each tool with every other', async () => {
    const [small, large] = [listings(N), listings(4 * N)];
    audit(listings(N / 4)); // compiles what runs, so both counts are of the audit alone
    const ofSmall = await blocksRun(() => audit(small));
    const ofLarge = await blocksRun(() => audit(large));
    // The counter sees the audit: hundreds of blocks a tool.
    expect(ofSmall).toBeGreaterThan(200 * N);
    expect(ofLarge / ofSmall).toBeLessThan(6);
  });
});
