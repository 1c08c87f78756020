import { describe, expect, it } from 'vitest';
import { classifyTool } from '../../src/core/classify.js';
import { checkPolicies } from '../../src/core/policies.js';
import type { ListedTool } from '../../src/core/tools.js';

const full = {
  title: 'List notes',
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

function rules(tools: ListedTool[], policies: ('claude' | 'openai' | 'explicit')[]): string[] {
  return checkPolicies(tools.map(classifyTool), [], policies).map((f) => `${f.rule}:${f.tool}`);
}

describe('claude profile', () => {
  it('passes a tool with annotations.title and one deciding hint', () => {
    expect(
      rules([{ name: 'a', annotations: { title: 'A', destructiveHint: true } }], ['claude']),
    ).toEqual([]);
  });
  it('fails without a title', () => {
    expect(rules([{ name: 'a', annotations: { readOnlyHint: true } }], ['claude'])).toEqual([
      'policy-claude:a',
    ]);
  });
  it('fails without readOnlyHint or destructiveHint', () => {
    expect(
      rules([{ name: 'a', annotations: { title: 'A', openWorldHint: false } }], ['claude']),
    ).toEqual(['policy-claude:a']);
  });
  it('fails a name over 64 characters', () => {
    const name = 'n'.repeat(65);
    expect(rules([{ name, annotations: { title: 'A', readOnlyHint: true } }], ['claude'])).toEqual([
      `policy-claude:${name}`,
    ]);
  });
  it('gives a name that is too long its own fix, not "declare the missing annotations"', () => {
    const fixes = (tool: ListedTool) =>
      checkPolicies([classifyTool(tool)], [], ['claude']).map((f) => f.fix);
    const name = 'n'.repeat(65);
    expect(fixes({ name, annotations: { title: 'A', readOnlyHint: true } })).toEqual([
      'Shorten the tool name to at most 64 characters.',
    ]);
    expect(fixes({ name, annotations: {} })).toEqual([
      'Declare the missing annotations on the tool, and shorten its name to at most 64 characters.',
    ]);
    expect(fixes({ name: 'a', annotations: {} })).toEqual([
      'Declare the missing annotations on the tool.',
    ]);
  });
  it('warns title-location when the title is only in Tool.title', () => {
    expect(
      rules([{ name: 'a', title: 'A', annotations: { readOnlyHint: true } }], ['claude']),
    ).toEqual(['title-location:a']);
    expect(
      rules(
        [{ name: 'a', title: 'A', annotations: { title: 'A', readOnlyHint: true } }],
        ['claude'],
      ),
    ).toEqual([]);
  });
});

describe('blank titles', () => {
  const hints = { readOnlyHint: true };
  it.each(['', '   ', '\t'])(
    'an annotations.title of %j next to a real Tool.title still gets title-location',
    (blank) => {
      const found = checkPolicies(
        [classifyTool({ name: 'a', title: 'A', annotations: { title: blank, ...hints } })],
        [],
        ['claude'],
      );
      expect(found.map((f) => `${f.rule}:${f.tool}`)).toEqual(['title-location:a']);
      expect(found[0]?.message).toContain('(annotations.title is blank)');
    },
  );
  it.each(['', '   '])(
    'an annotations.title of %j and no Tool.title is no title, for claude and explicit',
    (blank) => {
      const tool = { name: 'a', annotations: { ...full, title: blank } };
      expect(rules([tool], ['claude', 'explicit'])).toEqual([
        'policy-claude:a',
        'policy-explicit:a',
      ]);
      expect(checkPolicies([classifyTool(tool)], [], ['claude'])[0]?.message).toContain(
        'a title (annotations.title)',
      );
    },
  );
  it('a blank Tool.title is no title either, and no title-location', () => {
    expect(rules([{ name: 'a', title: '  ', annotations: hints }], ['claude'])).toEqual([
      'policy-claude:a',
    ]);
    expect(
      rules([{ name: 'a', title: '  ', annotations: { title: 'A', ...hints } }], ['claude']),
    ).toEqual([]);
  });
});

describe('openai profile', () => {
  it('passes with the three hints declared, default values included', () => {
    expect(
      rules(
        [
          {
            name: 'a',
            annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
          },
        ],
        ['openai'],
      ),
    ).toEqual([]);
  });
  it('fails a read tool without destructiveHint', () => {
    const f = checkPolicies(
      [classifyTool({ name: 'a', annotations: { readOnlyHint: true, openWorldHint: false } })],
      [],
      ['openai'],
    );
    expect(f).toMatchObject([
      { rule: 'policy-openai', tool: 'a', severity: 'error', hints: ['destructiveHint'] },
    ]);
  });
});

describe('explicit profile', () => {
  it('passes a title and all four hints', () => {
    expect(rules([{ name: 'a', annotations: full }], ['explicit'])).toEqual([]);
  });
  it('fails when idempotentHint is absent even though false is the default', () => {
    const rest: Partial<typeof full> = { ...full };
    delete rest.idempotentHint;
    expect(rules([{ name: 'a', annotations: rest }], ['explicit'])).toEqual(['policy-explicit:a']);
  });
});

describe('always-on rules', () => {
  it('tool-name: allowed characters and length', () => {
    expect(rules([{ name: 'ok.name-1_x', annotations: full }], [])).toEqual([]);
    expect(rules([{ name: 'has space', annotations: full }], [])).toEqual(['tool-name:has space']);
    expect(rules([{ name: 'x'.repeat(129), annotations: full }], [])).toEqual([
      `tool-name:${'x'.repeat(129)}`,
    ]);
    expect(rules([{ name: 'x'.repeat(128), annotations: full }], [])).toEqual([]);
  });
  it('duplicate-tool: two tools with one name', () => {
    expect(
      rules(
        [
          { name: 'a', annotations: full },
          { name: 'a', annotations: full },
        ],
        [],
      ),
    ).toEqual(['duplicate-tool:a']);
  });
  it('hint-contradiction: readOnlyHint true with destructiveHint declared true, class stays read', () => {
    const t = { name: 'a', annotations: { readOnlyHint: true, destructiveHint: true } };
    expect(rules([t], [])).toEqual(['hint-contradiction:a']);
    expect(classifyTool(t).class).toBe('read');
  });
  it('never flags destructiveHint false or idempotentHint true on a read tool', () => {
    expect(
      rules(
        [
          {
            name: 'a',
            annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
          },
        ],
        [],
      ),
    ).toEqual([]);
  });
  it('malformed-tool: one finding per bad tool', () => {
    const f = checkPolicies(
      [],
      [{ label: 'bad', problems: ['annotations.readOnlyHint: expected boolean'] }],
      [],
    );
    expect(f).toMatchObject([{ rule: 'malformed-tool', tool: 'bad', severity: 'error' }]);
  });
});
