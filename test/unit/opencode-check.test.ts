// `check` on a repository whose opencode.json runs the notes server with no permission key:
// opencode's default runs every tool unasked, so the delete tool fails the check, naming
// opencode, the file and the server's line; the written rules clear it.
import { describe, expect, it } from 'vitest';
import { opencode } from '../../src/clients/opencode/index.js';
import { checkNotes, clientRepository, ruleFindings } from '../support/client-check.js';
import { notesTools } from '../support/client-tools.js';

const FILE = 'opencode.json';
const CONFIG =
  '{\n  "mcp": {\n    "notes": { "type": "local", "command": ["node", "server.mjs"] }\n  }\n}\n';

describe('check with a committed opencode.json', () => {
  it('fails on opencode’s default allow for a delete tool, naming opencode, the file and line', async () => {
    const { code, report } = await checkNotes(await clientRepository({ [FILE]: CONFIG }));
    expect(code).toBe(1);
    const found = report.findings.find((f) => f.rule === 'rule-allows-delete');
    expect(found).toMatchObject({
      tool: 'delete_note',
      location: { file: FILE, line: 3 },
    });
    expect(found?.message).toContain(
      'in opencode, opencode’s default: no permission rule, runs unasked',
    );
  });

  it('passes once rules --client opencode --write has put the class list’s keys in', async () => {
    const mapping = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
    const text = opencode.writeRules(CONFIG, notesTools(), mapping);
    const { code, report } = await checkNotes(await clientRepository({ [FILE]: text }));
    expect(ruleFindings(report)).toEqual([]);
    expect(code).toBe(0);
  });

  it('fails on an agent’s own permission, in opencode.json or a markdown agent: the check does not judge it', async () => {
    const mapping = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
    const json = JSON.parse(opencode.writeRules(CONFIG, notesTools(), mapping)) as object;
    const { code, report } = await checkNotes(
      await clientRepository({
        [FILE]: `${JSON.stringify({ ...json, agent: { build: { permission: { 'notes_*': 'allow' } } } }, null, 2)}\n`,
        '.opencode/agent/janitor.md':
          '---\ndescription: janitor\ntools:\n  notes_delete_note: true\n---\nClean up.\n',
        '.opencode/agents/quiet.md': '---\ndescription: no rules of its own\n---\nx\n',
      }),
    );
    expect(code).toBe(1);
    expect(
      report.findings.filter((f) => f.rule === 'rule-unjudged').map((f) => f.location),
    ).toEqual([
      { file: FILE, line: expect.any(Number) as number },
      { file: '.opencode/agent/janitor.md', line: 3 },
    ]);
  });

  it('reads mode (the older agent), quoted keys and nested agent folders as unjudged too', async () => {
    const mapping = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
    const json = JSON.parse(opencode.writeRules(CONFIG, notesTools(), mapping)) as object;
    const { code, report } = await checkNotes(
      await clientRepository({
        [FILE]: `${JSON.stringify({ ...json, mode: { build: { tools: { notes_delete_note: true } } } }, null, 2)}\n`,
        '.opencode/agents/team/quoted.md':
          '---\n"permission":\n  notes_delete_note: allow\n---\nx\n',
      }),
    );
    expect(code).toBe(1);
    expect(
      report.findings.filter((f) => f.rule === 'rule-unjudged').map((f) => f.location?.file),
    ).toEqual([FILE, '.opencode/agents/team/quoted.md']);
  });
});
