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
  it('accepts an entry or a file only where zod does', () => {
    const entries = variants({ ...record('t'), reason: 'why' });
    const files = variants({ $schema: 'x', version: 1, tools: {} });
    let accepted = 0;
    for (const raw of entries) {
      const schema = classListSchemas().record.safeParse(raw).success;
      expect(wellFormed.record(raw), JSON.stringify(raw)).toBe(schema);
      if (schema) accepted++;
    }
    for (const raw of files)
      expect(wellFormed.file(raw), JSON.stringify(raw)).toBe(
        classListSchemas().file.safeParse(raw).success,
      );
    expect(entries.length).toBeGreaterThan(100);
    expect(accepted).toBeGreaterThan(5);
  });
});
