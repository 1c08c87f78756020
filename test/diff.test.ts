import { describe, expect, it } from 'vitest';
import { classifyTool } from '../src/classify.js';
import { toRecord, type ToolRecord } from '../src/classlist.js';
import { changeFindings, diffRecords } from '../src/diff.js';
import type { ListedTool } from '../src/tools.js';

function records(...tools: ListedTool[]): Map<string, ToolRecord> {
  return new Map(tools.map((t) => [`mcp__s__${t.name}`, toRecord('s', classifyTool(t))]));
}

const schema = (field: string) => ({ type: 'object', properties: { [field]: { type: 'string' } } });

describe('diffRecords and changeFindings', () => {
  it('nothing changed, nothing reported', () => {
    const a = records({ name: 'x', annotations: { readOnlyHint: true } });
    expect(diffRecords(a, a)).toEqual([]);
  });

  it('a hint going from declared to absent is dropped even when the default equals it', () => {
    const before = records({
      name: 'x',
      annotations: { readOnlyHint: false, destructiveHint: true },
    });
    const after = records({ name: 'x', annotations: { readOnlyHint: false } });
    const rules = changeFindings(diffRecords(before, after)).map((f) => f.rule);
    expect(rules).toEqual(['hint-dropped']);
  });

  it('relaxed, escalated and reach-opened', () => {
    const before = records(
      { name: 'a', annotations: { destructiveHint: true } },
      { name: 'b', annotations: { readOnlyHint: true, openWorldHint: false } },
    );
    const after = records(
      { name: 'a', annotations: { destructiveHint: false } },
      {
        name: 'b',
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      },
    );
    expect(changeFindings(diffRecords(before, after)).map((f) => `${f.rule}:${f.tool}`)).toEqual([
      'class-relaxed:a',
      'class-escalated:b',
      'reach-opened:b',
    ]);
  });

  it('a removed and an added tool with one schema are a rename; two candidates are not', () => {
    const before = records(
      { name: 'old', inputSchema: schema('id') },
      { name: 'gone', inputSchema: schema('q') },
    );
    const after = records(
      { name: 'new', inputSchema: schema('id') },
      { name: 'fresh', inputSchema: schema('z') },
    );
    expect(diffRecords(before, after).map((c) => `${c.kind}:${c.tool}`)).toEqual([
      'added:fresh',
      'removed:gone',
      'renamed:new',
    ]);
    const twins = records(
      { name: 'n1', inputSchema: schema('id') },
      { name: 'n2', inputSchema: schema('id') },
    );
    expect(
      diffRecords(records({ name: 'old', inputSchema: schema('id') }), twins).map((c) => c.kind),
    ).toEqual(['added', 'added', 'removed']);
  });
});
