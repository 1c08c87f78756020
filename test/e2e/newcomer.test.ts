// A newcomer's first day: the README's workflow copied as it is, and the action run with exactly
// its inputs in a repository that has only a server and its class list; a command the CLI prints
// and one the action prints, pasted into a shell as they are (every printed command runs in
// memory in test/unit/printed-commands.test.ts); one story for what clears a dropped hint.
import { readFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { beforeAll } from 'vitest';
import { NPX_COMMAND, VERSION } from '../../src/version.js';
import { pullRequestEvent, TOKEN } from '../support/action.js';
import { prWorkspace, quote, recordedClassList, runIn } from '../support/action-workspace.js';
import {
  notesSpec,
  ROOT,
  runCli,
  SERVERS,
  specServer,
  tempDir,
  withAnnotations,
} from '../support/cli.js';
import { npmEnv, packPackage, repoWithPackage, sh, type Packed } from '../support/package.js';
import { printedCommands } from '../support/printed-commands.js';
import { DEFAULT_BASE_SHA, startGitHubApi, type FakeGitHub } from '../support/github-api.js';

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

/**
 * The fixture servers as a folder of the repository (`fixtures/`, a link): a command line shows
 * only paths inside the repository, so a server outside it would print as `***`.
 */
async function fixturesIn(dir: string): Promise<void> {
  await symlink(SERVERS, join(dir, 'fixtures'));
}

describe('every command the tool prints runs when pasted', () => {
  let packed: Packed;
  beforeAll(async () => {
    packed = await packPackage();
  }, 120_000);
  let api: FakeGitHub;
  beforeEach(async () => {
    api = await startGitHubApi({ token: TOKEN });
  });
  afterEach(async () => {
    await api.close();
  });

  // Every printed command of every output runs in memory (test/unit/printed-commands.test.ts);
  // here one of the CLI's and one of the action's is pasted into a shell, through npx.
  it("the CLI's update command and the action's rules command run through npx as printed, byte for byte", async () => {
    const repo = await repoWithPackage(packed);
    const env = npmEnv(packed.cache);
    await fixturesIn(repo);
    const server = ['node', 'fixtures/configurable.mjs', 'notes.json'];
    const pasted = async (output: string, pattern: RegExp) => {
      const command = printedCommands(output).find((c) => pattern.test(c));
      expect(command, output).toBeDefined();
      // Nothing invisible: what shows is what runs.
      expect(command).toMatch(/^[\x20-\x7e]+$/);
      expect(command?.startsWith(`npx mcp-annotation-auditor@${VERSION} `)).toBe(true);
      const ran = await sh(command as string, repo, env);
      expect(ran.code, `${command}\n${ran.stderr}`).toBe(0);
    };
    // The first run: no class list yet; the command it prints records one.
    const first = await sh(`${NPX_COMMAND} check -- ${server.join(' ')}`, repo, env);
    await pasted(first.stdout, / update /);
    const baseText = await readFile(join(repo, 'mcp-tool-classes.json'), 'utf8');
    api.setFile(DEFAULT_BASE_SHA, 'mcp-tool-classes.json', baseText);
    // A settings file named and missing: the error says how to create it.
    const missing = await runIn(api, repo, {
      command: quote(server),
      'claude-settings': 'team.json',
    });
    expect(missing.outputs.result).toBe('error');
    await pasted(missing.summary, / rules --write team\.json$/);
    await expect(readFile(join(repo, 'team.json'), 'utf8')).resolves.toContain('mcp__notes__');
  }, 240_000);
});

describe('the update command names the server it records', () => {
  it('a server named from its serverInfo: the printed command pins that name', async () => {
    const dir = await tempDir();
    const spec = { ...(await notesSpec()), name: 'mcp-servers/everything' };
    await specServer(dir, 'spec.json', spec);
    await fixturesIn(dir);
    const server = ['node', 'fixtures/configurable.mjs', 'spec.json'];
    const first = await runCli(['check', '--', ...server], { cwd: dir });
    const printed = /Run this exact command:\n\s+(.+)\n/.exec(first.stdout)?.[1] as string;
    expect(printed).toBe(
      `${NPX_COMMAND} update --server-name mcp-servers_everything -- ${server.join(' ')}`,
    );
    // Run as printed (the words after the npx prefix), it records the name it shows.
    const words = printed.slice(NPX_COMMAND.length + 1).split(' ');
    expect((await runCli(words, { cwd: dir })).code).toBe(0);
    const list = JSON.parse(await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8')) as {
      tools: Record<string, unknown>;
    };
    expect(Object.keys(list.tools)).toContain('mcp__mcp-servers_everything__add_note');
    // A drift's fix says the same command.
    await writeFile(
      join(dir, 'spec.json'),
      JSON.stringify(withAnnotations(spec, 'add_note', { readOnlyHint: true })),
    );
    const drift = await runCli(['check', '--', ...server], { cwd: dir });
    expect(drift.stdout).toContain(`unrecorded-change: Run \`${printed}\``);
  });
});

describe('check --format sarif and --help', () => {
  it('check --format sarif: SARIF 2.1.0 on the class list line; list refuses it', async () => {
    const dir = await tempDir();
    const spec = await notesSpec();
    const server = await specServer(dir, 'spec.json', spec);
    expect(
      (await runCli(['update', '--server-name', 'notes', '--', ...server], { cwd: dir })).code,
    ).toBe(0);
    await writeFile(
      join(dir, 'spec.json'),
      JSON.stringify(withAnnotations(spec, 'add_note', { readOnlyHint: true })),
    );
    const run = await runCli(
      ['check', '--format', 'sarif', '--server-name', 'notes', '--', ...server],
      { cwd: dir },
    );
    expect(run.code).toBe(1);
    const sarif = JSON.parse(run.stdout) as {
      version: string;
      runs: {
        results: {
          ruleId: string;
          locations: {
            physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
          }[];
        }[];
      }[];
    };
    expect(sarif.version).toBe('2.1.0');
    const drift = sarif.runs[0]?.results.find((r) => r.ruleId === 'unrecorded-change');
    const lines = (await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8')).split('\n');
    const line = lines.findIndex((l) => l.includes('"mcp__notes__add_note"')) + 1;
    expect(drift?.locations[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'mcp-tool-classes.json' },
      region: { startLine: line },
    });
    const list = await runCli(['list', '--format', 'sarif', '--', ...server], { cwd: dir });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain(
      '--format must be text, json or markdown, not "sarif" (SARIF is for check',
    );
  });

  it('check --help lists --settings and the sarif format', async () => {
    const help = await runCli(['check', '--help']);
    expect(help.stdout).toMatch(/^ {2}--settings FILE {12}a Claude Code settings file/m);
    expect(help.stdout).toContain('--format text|json|markdown|sarif');
  });
});

describe('one story for a dropped hint a policy requires', () => {
  let api: FakeGitHub;
  beforeEach(async () => {
    api = await startGitHubApi({ token: TOKEN });
  });
  afterEach(async () => {
    await api.close();
  });

  it('the label clears hint-dropped, not the policy error: the comment and summary say to declare it instead', async () => {
    const spec = await notesSpec();
    const { dir, head } = await prWorkspace(api, {
      base: spec,
      head: withAnnotations(spec, 'add_note', { readOnlyHint: undefined }),
    });
    (api.pulls.get(1) as { labels?: string[] }).labels = ['annotations-approved'];
    const inputs = { command: quote(head), 'approve-label': 'annotations-approved' };
    const run = await runIn(api, dir, inputs, {
      event: pullRequestEvent(1, ['annotations-approved']),
    });
    expect(run.code).toBe(1);
    const comment = api.commentsOn(1)[0]?.body ?? '';
    expect(comment).toMatch(/notice \(approved\) \| `hint-dropped`/);
    expect(comment).toMatch(/error \| `policy-openai`/);
    for (const output of [comment, run.summary])
      expect(output).toContain(
        '- policy-openai: Declare readOnlyHint: false instead of removing it (this change dropped it). Neither update nor the approval label clears policy-openai.',
      );
    expect(comment).toContain(
      'The `annotations-approved` label approves an intended dropped hint (`hint-dropped`) or relaxed class (`class-relaxed`), never a policy error: where a policy requires the hint, declare it (`readOnlyHint: false`, say) instead of removing it.',
    );
    expect(run.summary).toContain(
      'Next: declare readOnlyHint: false on add\\_note again instead of removing it',
    );
  });

  it('with no comment (a fork PR, comment: never) the job summary shows the update command to copy', async () => {
    const spec = await notesSpec();
    const { dir, head } = await prWorkspace(api, {
      base: spec,
      head: withAnnotations(spec, 'add_note', { readOnlyHint: true }),
    });
    await fixturesIn(dir);
    const server = ['node', 'fixtures/configurable.mjs', head[2] as string];
    const run = await runIn(api, dir, { command: quote(server), comment: 'never' });
    expect(api.commentsOn(1)).toHaveLength(0);
    expect(run.summary).toContain(
      `**To accept an intended change**, run this exact command, review the diff of the class list and commit it:\n\n\`\`\`sh\n${NPX_COMMAND} update --server-name notes -- ${server.join(' ')}\n\`\`\``,
    );
  });
});
