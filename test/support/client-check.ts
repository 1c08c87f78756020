// `check` of the example notes server in a repository holding some client's committed files:
// the set-up each client's check test shares (test/unit/*-check.test.ts).
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EXAMPLE, ROOT, tempDir } from './cli.js';
import { runCliInMemory } from './in-memory.js';

export interface CheckFinding {
  rule: string;
  severity: string;
  tool?: string;
  message: string;
  location?: { file: string; line: number };
}

export interface CheckReport {
  findings: CheckFinding[];
  tools: { name: string; clients?: Record<string, Record<string, unknown>> }[];
}

/** A repository with the example's class list and `files` (repository-relative path → text). */
export async function clientRepository(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

/** `check --format json` of the notes server in `dir`: the exit code and the report. */
export async function checkNotes(
  dir: string,
): Promise<{ code: number | null; report: CheckReport }> {
  const run = await runCliInMemory(
    ['check', '--format', 'json', '--server-name', 'notes', '--', 'node', EXAMPLE],
    { cwd: dir },
  );
  return { code: run.code, report: JSON.parse(run.stdout) as CheckReport };
}

/** The findings of the client rules (rule-*). */
export const ruleFindings = (report: CheckReport): CheckFinding[] =>
  report.findings.filter((f) => f.rule.startsWith('rule-'));
