import { describe, expect, it } from 'vitest';
import { canonicalJson, classifyTool, hashSchema, titleOf } from '../../src/core/classify.js';
import { parseTool, parseWithZod, type ListedTool } from '../../src/core/tools.js';
import { variants } from '../support/variants.js';
import { seeded } from '../support/seeded.js';

const tool = (
  annotations?: ListedTool['annotations'],
  extra: Partial<ListedTool> = {},
): ListedTool => ({
  name: 't',
  ...(annotations ? { annotations } : {}),
  ...extra,
});

describe('classifyTool: the class table', () => {
  it.each([
    [{ readOnlyHint: true }, 'read'],
    [{ readOnlyHint: true, destructiveHint: true }, 'read'],
    [{ readOnlyHint: true, destructiveHint: false }, 'read'],
    [{ readOnlyHint: false, destructiveHint: false }, 'edit'],
    [{ destructiveHint: false }, 'edit'],
    [{ readOnlyHint: false, destructiveHint: true }, 'delete'],
    [{ readOnlyHint: false }, 'delete'],
    [{ destructiveHint: true }, 'delete'],
    [{ idempotentHint: true, openWorldHint: false }, 'delete'],
    [{}, 'delete'],
    [undefined, 'delete'],
  ] as const)('%j is %s', (annotations, expected) => {
    expect(classifyTool(tool(annotations)).class).toBe(expected);
  });

  it('records open reach by default and closed only when openWorldHint is declared false', () => {
    expect(classifyTool(tool()).reach).toBe('open');
    expect(classifyTool(tool({ openWorldHint: true })).reach).toBe('open');
    expect(classifyTool(tool({ openWorldHint: false })).reach).toBe('closed');
  });
});

describe('classifyTool: declared false versus absent', () => {
  it.each([
    ['readOnlyHint', false],
    ['destructiveHint', true],
    ['idempotentHint', false],
    ['openWorldHint', true],
  ] as const)('%s absent takes the default %s and is not declared', (hint, fallback) => {
    const absent = classifyTool(tool({})).hints[hint];
    expect(absent).toEqual({ declared: false, effective: fallback });
    const declaredFalse = classifyTool(tool({ [hint]: false })).hints[hint];
    expect(declaredFalse).toEqual({ declared: true, value: false, effective: false });
    const declaredTrue = classifyTool(tool({ [hint]: true })).hints[hint];
    expect(declaredTrue).toEqual({ declared: true, value: true, effective: true });
  });

  it('a declared destructiveHint: true and an absent one give the same class but different records', () => {
    const declared = classifyTool(tool({ readOnlyHint: false, destructiveHint: true }));
    const absent = classifyTool(tool({ readOnlyHint: false }));
    expect(declared.class).toBe(absent.class);
    expect(declared.hints.destructiveHint.declared).toBe(true);
    expect(absent.hints.destructiveHint.declared).toBe(false);
  });
});

describe('title precedence', () => {
  it('Tool.title wins over annotations.title, which wins over the name', () => {
    expect(titleOf(tool({ title: 'B' }, { title: 'A' }))).toEqual({
      title: 'A',
      titleSource: 'tool',
    });
    expect(titleOf(tool({ title: 'B' }))).toEqual({ title: 'B', titleSource: 'annotations' });
    expect(titleOf(tool({}))).toEqual({ title: 't', titleSource: 'none' });
  });

  it('an empty title counts as none', () => {
    expect(titleOf(tool({ title: '' }, { title: '' }))).toEqual({
      title: 't',
      titleSource: 'none',
    });
  });
});

describe('parseTool', () => {
  it('keeps a valid tool and only the parts we read', () => {
    const parsed = parseTool(
      { name: 'x', annotations: { readOnlyHint: true, extra: 1 }, inputSchema: { type: 'object' } },
      0,
    );
    expect(parsed).toEqual({
      name: 'x',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object' },
    });
  });

  it('reports a string hint, a missing name and array annotations as problems', () => {
    expect(parseTool({ name: 'bad', annotations: { readOnlyHint: 'yes' } }, 3)).toMatchObject({
      label: 'bad',
      problems: [expect.stringContaining('annotations.readOnlyHint')],
    });
    expect(parseTool({ description: 'no name' }, 4)).toMatchObject({ label: '#4' });
    expect(parseTool({ name: 'arr', annotations: [] }, 5)).toMatchObject({ label: 'arr' });
    expect(parseTool('not an object', 6)).toMatchObject({ label: '#6' });
  });
});

describe('parseTool: the fast check agrees with the schema', () => {
  const base = {
    name: 'n',
    title: 'T',
    description: 'd',
    inputSchema: { type: 'object' },
    annotations: {
      title: 'A',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
  const all = variants(base);

  it('gives the same result as zod alone for every variant', () => {
    expect(all.length).toBeGreaterThan(100);
    let malformed = 0;
    for (const [i, raw] of all.entries()) {
      const viaZod = parseWithZod(raw, i);
      const parsed = parseTool(raw, i);
      expect(parsed, JSON.stringify(raw)).toEqual(viaZod);
      // The same keys in the same order, and so the same schema hash.
      expect(JSON.stringify(parsed), JSON.stringify(raw)).toBe(JSON.stringify(viaZod));
      if ('problems' in viaZod) malformed++;
    }
    // Both verdicts occur, so the comparison covers accepting and refusing.
    expect(malformed).toBeGreaterThan(20);
    expect(all.length - malformed).toBeGreaterThan(20);
  });
});

describe('hashSchema', () => {
  // Hashes recorded in committed class lists: the hash must never change for the same schema.
  it.each([
    [{}, '44136fa355b3678a'],
    [
      {
        type: 'object',
        properties: { b: { type: 'string' }, a: { type: 'number', enum: [3, 1, 2] } },
        required: ['b', 'a'],
      },
      '80b41b461f79723d',
    ],
    [
      { '10': 1, '2': 2, b: [{ z: null, y: true }], a: undefined, é: 'x', Z: '\u2028' },
      '01be010ae599d18f',
    ],
    [[1, 'two', [null, { d: 4, c: 3 }], false], '9c21709ce4b9224d'],
    [
      { nested: { deeper: { zz: [], aa: {} } }, $schema: 'x:y' },
      hashSchema({ $schema: 'x:y', nested: { deeper: { aa: {}, zz: [] } } }),
    ],
  ])('hashes %j stably, whatever the key order', (schema, expected) => {
    expect(hashSchema(schema)).toBe(expected);
  });

  it('orders keys as Array#sort does, for short and long key lists alike', () => {
    const reference = (value: unknown): string => {
      if (typeof value !== 'object' || value === null) return JSON.stringify(value);
      if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(record[k])}`).join(',')}}`;
    };
    const alphabet = ['a', 'B', 'é', '10', '9', '_', 'ü', '\u{1f600}', 'z', ' '];
    const next = seeded(11);
    for (const size of [2, 5, 31, 32, 33, 100]) {
      for (let n = 0; n < 50; n++) {
        const record: Record<string, unknown> = {};
        for (let i = 0; i < size; i++) {
          const key = Array.from({ length: 1 + (next() % 3) }, () => alphabet[next() % 10]).join(
            '',
          );
          record[key] = i % 4 ? i : { [key]: [i], a: 1 };
        }
        expect(canonicalJson(record)).toBe(reference(record));
      }
    }
  });

  it('writes keys in code-unit order, drops undefined members, keeps array order', () => {
    expect(canonicalJson({ b: 1, a: [2, 1], c: undefined, '10': 0, '9': 0 })).toBe(
      '{"10":0,"9":0,"a":[2,1],"b":1}',
    );
  });
});

describe('zod configuration', () => {
  it('parses without compiling parsers (src/zod.ts), for the SDK schemas too', async () => {
    await import('../../src/server/listing.js');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
  });
});
