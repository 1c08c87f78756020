import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { diffRecords } from '../../src/core/diff.js';
import { auditListings, liveRecords } from '../../src/core/listings.js';
import { POLICIES } from '../../src/core/policy-names.js';

// 100,000 tools take a while on a busy machine: the bound is on memory, never on time.
// Collected before each reading, so what is measured is what the audit keeps, not its garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

const COUNT = 100_000;
const VERBS = ['get', 'update', 'delete', 'run'];

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

describe('100,000 tools', () => {
  it('are validated, classified, checked against every policy and compared in bounded memory', () => {
    const legacy = Array.from({ length: COUNT }, (_, i) => rawTool(i));
    // The modern era renames every tenth tool: a diff with as many removals as additions.
    const modern = Array.from({ length: COUNT }, (_, i) => rawTool(i, i % 10 ? 'record' : 'row'));
    const start = heap();
    const result = auditListings(
      [
        { era: 'legacy', rawTools: legacy },
        { era: 'modern', rawTools: modern },
      ],
      POLICIES,
    );
    const changes = diffRecords(
      liveRecords(
        's',
        result.tools.filter((t) => !t.name.includes('_row_')),
      ),
      liveRecords('s', result.tools),
      { schema: true },
    );
    const kept = heap() - start;
    expect(result.tools).toHaveLength(COUNT + COUNT / 10);
    expect(result.malformedNames).toEqual([]);
    // Both eras' tools are the union: the renamed ones are added, none removed.
    expect(changes.map((c) => c.kind)).toEqual(Array(COUNT / 10).fill('added'));
    // What it keeps grows with the tools, a few KiB each, never with their square.
    expect(kept / COUNT).toBeLessThan(8 * 1024);
  }, 180_000);
});
