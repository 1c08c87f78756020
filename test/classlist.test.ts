import { describe, expect, it } from 'vitest';
import {
  classListSchemas,
  parseClassList,
  serializeClassList,
  toolLines,
  type ToolRecord,
  wellFormed,
} from '../src/classlist.js';
import { variants } from './support/variants.js';

const record = (tool: string): ToolRecord => ({
  server: 's',
  tool,
  class: 'read',
  reach: 'closed',
  hints: {
    readOnlyHint: true,
    destructiveHint: 'absent',
    idempotentHint: 'absent',
    openWorldHint: false,
  },
  title: tool,
  titleSource: 'none',
  schema: '0',
});

describe('toolLines', () => {
  it('finds the line of every key in one pass, escaped names included', () => {
    const names = ['a', 'b"quote', 'c\\back'];
    const text = serializeClassList({
      tools: new Map(names.map((n) => [`mcp__s__${n}`, record(n)])),
    });
    const lines = toolLines(text);
    for (const n of names) {
      const line = lines.get(`mcp__s__${n}`);
      expect(text.split('\n')[(line ?? 0) - 1]).toContain(JSON.stringify(`mcp__s__${n}`));
    }
  });

  it('a list of 10,000 tools round-trips', () => {
    const tools = new Map(
      Array.from({ length: 10_000 }, (_, i) => [`mcp__s__t${i}`, record(`t${i}`)] as const),
    );
    const text = serializeClassList({ tools });
    expect(parseClassList(text, 'x.json').tools.size).toBe(10_000);
    expect(toolLines(text).size).toBe(10_000);
  });
});

describe('parseClassList: the fast checks agree with the schemas', () => {
  it('accepts an entry only where zod does, and outputs what zod outputs', () => {
    const base = { ...record('t'), reason: 'why' };
    const reversed = Object.fromEntries(Object.entries(base.hints).reverse());
    const { reason, ...fields } = base;
    // The hints, and reason, in another order than the schema's.
    const entries = [...variants(base), { reason, ...fields, hints: reversed }];
    let accepted = 0;
    for (const raw of entries) {
      const viaZod = classListSchemas().record.safeParse(raw);
      const fast = wellFormed.record(raw);
      expect(fast, JSON.stringify(raw)).toBe(viaZod.success);
      if (!fast) continue;
      accepted++;
      // Field and hint order included: the JSON report shows these records.
      expect(JSON.stringify(wellFormed.copyRecord(raw))).toBe(JSON.stringify(viaZod.data));
    }
    expect(entries.length).toBeGreaterThan(100);
    expect(accepted).toBeGreaterThan(5);
  });

  it('accepts a file only where zod does; zod decides the rest', () => {
    let refused = 0;
    for (const raw of variants({ $schema: 'x', version: 1, tools: {} })) {
      const viaZod = classListSchemas().file.safeParse(raw).success;
      if (wellFormed.file(raw)) expect(viaZod, JSON.stringify(raw)).toBe(true);
      else if (!viaZod) refused++;
    }
    expect(refused).toBeGreaterThan(10);
  });

  it('drops a "__proto__" key among the tools, as the schema does', () => {
    const text = `{"version":1,"tools":{"__proto__":{"note":"x"},"mcp__s__t":${JSON.stringify(record('t'))}}}`;
    const list = parseClassList(text, 'classes.json');
    expect([...list.tools.keys()]).toEqual(['mcp__s__t']);
  });
});
