// `check` on a repository whose .qwen/settings.json allows the whole notes server: Qwen Code runs
// its delete tool unasked, so the check fails naming Qwen Code, the file and the rule's line; the
// rules that `rules --client qwen --write` puts in clear it (deny beats allow in Qwen Code).
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qwen } from '../../src/clients/qwen/index.js';
import { EXAMPLE, ROOT, tempDir } from '../support/cli.js';
import { notesTools } from '../support/client-tools.js';
import { runCliInMemory } from '../support/in-memory.js';

const CONFIG = '{\n  "permissions": {\n    "allow": ["mcp__notes"]\n  }\n}\n';

async function repository(text: string): Promise<string> {
  const dir = await tempDir();
  await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
  await mkdir(join(dir, '.qwen'));
  await writeFile(join(dir, '.qwen/settings.json'), text);
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

describe('check with a committed .qwen/settings.json', () => {
  it('fails on an allow of the whole server, naming Qwen Code, the file and line', async () => {
    const run = await check(await repository(CONFIG));
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      findings: Finding[];
      tools: { name: string; clients?: Record<string, unknown> }[];
    };
    const found = report.findings.find((f) => f.rule === 'rule-allows-delete');
    expect(found).toMatchObject({
      tool: 'delete_note',
      location: { file: '.qwen/settings.json', line: 3 },
    });
    expect(found?.message).toContain('in Qwen Code, "mcp__notes" in .qwen/settings.json line 3');
    expect(report.tools.find((t) => t.name === 'delete_note')?.clients?.qwen).toEqual({
      decision: 'allow',
      rule: 'mcp__notes',
      file: '.qwen/settings.json',
      line: 3,
    });
  });

  it('passes once rules --client qwen --write has put the class list’s rules in', async () => {
    const mapping = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
    const run = await check(await repository(qwen.writeRules(CONFIG, notesTools(), mapping)));
    const findings = (JSON.parse(run.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.rule.startsWith('rule-'))).toEqual([]);
    expect(run.code).toBe(0);
  });
});
