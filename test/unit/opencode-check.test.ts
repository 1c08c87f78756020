// `check` on a repository whose opencode.json runs the notes server with no permission key:
// opencode's default runs every tool unasked, so the delete tool fails the check, naming
// opencode, the file and the server's line; the written rules clear it.
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { opencode } from '../../src/clients/opencode/index.js';
import { EXAMPLE, ROOT, tempDir } from '../support/cli.js';
import { notesTools } from '../support/client-tools.js';
import { runCliInMemory } from '../support/in-memory.js';

const CONFIG =
  '{\n  "mcp": {\n    "notes": { "type": "local", "command": ["node", "server.mjs"] }\n  }\n}\n';

async function repository(text: string): Promise<string> {
  const dir = await tempDir();
  await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
  await writeFile(join(dir, 'opencode.json'), text);
  return dir;
}

const check = (dir: string) =>
  runCliInMemory(['check', '--format', 'json', '--server-name', 'notes', '--', 'node', EXAMPLE], {
    cwd: dir,
  });

interface Finding {
  rule: string;
  tool?: string;
  message: string;
  location?: { file: string; line: number };
}

describe('check with a committed opencode.json', () => {
  it('fails on opencode’s default allow for a delete tool, naming opencode, the file and line', async () => {
    const run = await check(await repository(CONFIG));
    expect(run.code).toBe(1);
    const findings = (JSON.parse(run.stdout) as { findings: Finding[] }).findings;
    const found = findings.find((f) => f.rule === 'rule-allows-delete');
    expect(found).toMatchObject({
      tool: 'delete_note',
      location: { file: 'opencode.json', line: 3 },
    });
    expect(found?.message).toContain(
      'in opencode, opencode’s default: no permission rule, runs unasked',
    );
  });

  it('passes once rules --client opencode --write has put the class list’s keys in', async () => {
    const mapping = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
    const run = await check(await repository(opencode.writeRules(CONFIG, notesTools(), mapping)));
    const findings = (JSON.parse(run.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.rule.startsWith('rule-'))).toEqual([]);
    expect(run.code).toBe(0);
  });
});
