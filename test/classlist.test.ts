import { describe, expect, it } from 'vitest';
import {
  parseClassList,
  serializeClassList,
  toolLines,
  type ToolRecord,
} from '../src/classlist.js';

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
