// `check` on a repository whose .qwen/settings.json allows the whole notes server: Qwen Code runs
// its delete tool unasked, so the check fails naming Qwen Code, the file and the rule's line; the
// rules that `rules --client qwen --write` puts in clear it (deny beats allow in Qwen Code).
import { describe, expect, it } from 'vitest';
import { qwen } from '../../src/clients/qwen/index.js';
import { checkNotes, clientRepository, ruleFindings } from '../support/client-check.js';
import { notesTools } from '../support/client-tools.js';

const FILE = '.qwen/settings.json';
const CONFIG = '{\n  "permissions": {\n    "allow": ["mcp__notes"]\n  }\n}\n';

describe('check with a committed .qwen/settings.json', () => {
  it('fails on an allow of the whole server, naming Qwen Code, the file and line', async () => {
    const { code, report } = await checkNotes(await clientRepository({ [FILE]: CONFIG }));
    expect(code).toBe(1);
    const found = report.findings.find((f) => f.rule === 'rule-allows-delete');
    expect(found).toMatchObject({
      tool: 'delete_note',
      location: { file: FILE, line: 3 },
    });
    expect(found?.message).toContain('in Qwen Code, "mcp__notes" in .qwen/settings.json line 3');
    expect(report.tools.find((t) => t.name === 'delete_note')?.clients?.qwen).toEqual({
      decision: 'allow',
      rule: 'mcp__notes',
      file: FILE,
      line: 3,
    });
  });

  it('passes once rules --client qwen --write has put the class list’s rules in', async () => {
    const mapping = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
    const text = qwen.writeRules(CONFIG, notesTools(), mapping);
    const { code, report } = await checkNotes(await clientRepository({ [FILE]: text }));
    expect(ruleFindings(report)).toEqual([]);
    expect(code).toBe(0);
  });
});
