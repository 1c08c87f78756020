// The generic check of a client's committed config (clients/judge.ts), through the seam alone:
// a small test-only client stands for the real ones.
import { describe, expect, it } from 'vitest';
import { judgeClient, type RecordedClientTool } from '../../src/clients/judge.js';
import { NPX_COMMAND } from '../../src/version.js';
import { fakeClient } from '../support/fake-client.js';

const MAPPING = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
const tool = (
  name: string,
  cls: 'read' | 'edit' | 'delete',
  declared = {},
): RecordedClientTool => ({
  key: `mcp__notes__${name}`,
  server: 'notes',
  tool: name,
  class: cls,
  declared,
});
const TOOLS = [
  tool('list_notes', 'read', { readOnlyHint: true }),
  tool('add_note', 'edit', { destructiveHint: false }),
  tool('delete_note', 'delete', { destructiveHint: true }),
];
const client = fakeClient();
const judged = (value: unknown) => ({
  client,
  state: client.read([{ path: '.fake/rules.json', text: JSON.stringify(value, null, 2) }]),
});

describe('judging a client generically', () => {
  it('a rule that lets a delete tool run is rule-allows-delete, naming the client, file and line', () => {
    const check = judgeClient(
      judged({ allow: ['notes.delete_note', 'notes.list_notes'], deny: [] }),
      TOOLS,
      MAPPING,
    );
    const found = check.toolFindings.map((f) => f.finding);
    expect(found.find((f) => f.rule === 'rule-allows-delete')).toEqual({
      rule: 'rule-allows-delete',
      severity: 'error',
      tool: 'delete_note',
      message:
        'delete tool notes.delete_note: in Fake CLI, "notes.delete_note" in .fake/rules.json line 3 lets it run without asking; the class list maps it to deny.',
      fix: `Run ${NPX_COMMAND} rules --client fake --write .fake/rules.json, or fix the rule by hand.`,
      location: { file: '.fake/rules.json', line: 3 },
    });
    expect(check.toolFindings.every((f) => f.server === 'notes')).toBe(true);
  });

  it('what the client does on its own from the annotations is rule-allows-edit, with what made it', () => {
    const check = judgeClient(judged({ auto: true }), TOOLS, MAPPING);
    const edit = check.toolFindings.find((f) => f.finding.rule === 'rule-allows-edit')?.finding;
    expect(edit?.message).toBe(
      'edit tool notes.add_note: in Fake CLI, auto runs it from its annotations (destructiveHint false) in .fake/rules.json line 2 lets it run without asking; the class list maps it to ask.',
    );
    expect(edit?.location).toEqual({ file: '.fake/rules.json', line: 2 });
  });

  it("a tool no rule decides is rule-unset; a rule that names nothing is the client's problem, located", () => {
    const check = judgeClient(judged({ deny: ['notes.gone'] }), TOOLS, MAPPING);
    expect(check.toolFindings.map((f) => [f.finding.rule, f.finding.tool])).toEqual([
      ['rule-unset', 'list_notes'],
      ['rule-unset', 'add_note'],
      ['rule-unset', 'delete_note'],
    ]);
    expect(check.toolFindings[2]?.finding.message).toBe(
      'No rule of Fake CLI decides delete tool notes.delete_note: it asks each time (it asks by default); the class list maps it to deny.',
    );
    expect(check.ruleFindings).toEqual([
      expect.objectContaining({
        rule: 'rule-stale',
        severity: 'notice',
        message: 'Fake CLI: rule "notes.gone" in .fake/rules.json line 3 names no recorded tool.',
        location: { file: '.fake/rules.json', line: 3 },
      }),
    ]);
  });

  it('a per-tool mapping is what the tool is judged by', () => {
    const check = judgeClient(
      judged({ allow: ['notes.delete_note'] }),
      [{ ...(TOOLS[2] as RecordedClientTool), decision: 'allow' }],
      MAPPING,
    );
    expect(check.toolFindings).toEqual([]);
  });
});
