// A newcomer's first day: the README's workflow copied as it is, and the action run with exactly
// its inputs in a repository that has only a server and its class list.
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TOKEN } from './support/action.js';
import { recordedClassList, runIn } from './support/action-workspace.js';
import { notesSpec, ROOT, SERVERS, tempDir } from './support/cli.js';
import { DEFAULT_BASE_SHA, startGitHubApi, type FakeGitHub } from './support/github-api.js';

interface Step {
  uses?: string;
  with?: Record<string, string>;
}

/** The README's complete workflow: the first YAML block with a job that uses the action on PRs. */
export async function readmeWorkflow(): Promise<{ on: unknown; steps: Step[] }> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  for (const [, text] of readme.matchAll(/```yaml\n([\s\S]*?)```/g)) {
    const doc = parse(text as string) as {
      on?: unknown;
      jobs?: Record<string, { steps?: Step[] }>;
    } | null;
    const steps = Object.values(doc?.jobs ?? {})[0]?.steps ?? [];
    if (doc?.on && steps.some((s) => s.uses?.startsWith('mcp-annotation-auditor/')))
      return { on: doc.on, steps };
  }
  throw new Error('README.md has no complete workflow');
}

/**
 * A repository as the README's workflow expects it: the server at dist/server.js and its class
 * list committed, and nothing else (no .claude/settings.json, no config file).
 */
async function plainRepository(api: FakeGitHub): Promise<string> {
  const dir = await tempDir();
  const spec = await notesSpec();
  await writeFile(join(dir, 'package.json'), '{"name":"scratch","private":true,"type":"module"}\n');
  await writeFile(join(dir, 'notes.json'), JSON.stringify(spec));
  await mkdir(join(dir, 'dist'));
  // The server a build step would leave in dist/: the notes server of the tests' fixtures.
  const server = pathToFileURL(join(SERVERS, 'configurable.mjs')).href;
  await writeFile(
    join(dir, 'dist/server.js'),
    `process.argv.splice(2, 0, ${JSON.stringify(join(dir, 'notes.json'))});\nawait import(${JSON.stringify(server)});\n`,
  );
  const text = await recordedClassList(spec);
  await writeFile(join(dir, 'mcp-tool-classes.json'), text);
  api.setFile(DEFAULT_BASE_SHA, 'mcp-tool-classes.json', text);
  return dir;
}

describe("the README's workflow, as written", () => {
  let api: FakeGitHub;
  beforeEach(async () => {
    api = await startGitHubApi({ token: TOKEN });
  });
  afterEach(async () => {
    await api.close();
  });

  it('goes green in a repository without .claude/settings.json', async () => {
    const { steps } = await readmeWorkflow();
    const step = steps.find((s) => s.uses?.startsWith('mcp-annotation-auditor/'));
    expect(step?.uses).toBe('mcp-annotation-auditor/mcp-annotation-auditor@v0');
    const inputs = step?.with ?? {};
    const dir = await plainRepository(api);
    const run = await runIn(api, dir, inputs);
    expect(run.code, run.summary + run.stderr).toBe(0);
    expect(run.outputs.result).toBe('passed');
    expect(run.summary).toContain('PASSED');
  });
});
