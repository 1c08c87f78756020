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
});
