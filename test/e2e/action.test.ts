import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TOKEN, workflowRunEvent } from '../support/action.js';
import {
  dropDestructive,
  fakeGitHubEach,
  prWorkspace,
  quote,
  recordAtHead,
  recordedClassList,
  relaxAddNote,
  runIn,
} from '../support/action-workspace.js';
import {
  counted,
  EXAMPLE,
  notesSpec,
  SERVERS,
  specServer,
  startsIn,
  tempDir,
  withStarts,
} from '../support/cli.js';
import { COMMENT_BODY_LIMIT, DEFAULT_BASE_SHA, type FakeGitHub } from '../support/github-api.js';

/** The marker of a run with policies: claude, as most runs here are (not the default policies). */
const CLAUDE_MARKER = '<!-- mcp-annotation-auditor:notes policies=claude -->';
const exec = promisify(execFile);
type Spec = Awaited<ReturnType<typeof notesSpec>>;

describe('the action, run as GitHub runs it', () => {
  let api: FakeGitHub;
  let spec: Spec;
  fakeGitHubEach((started, notes) => {
    api = started;
    spec = notes;
  });

  it('creates one comment, updates it in place, and turns it green when clean', async () => {
    // The PR relaxes add_note and records it in the class list at HEAD.
    const pr = await prWorkspace(api, { base: spec, head: relaxAddNote(spec) });
    const { dir, base, head: relaxed } = pr;

    const first = await runIn(api, dir, { command: quote(relaxed), policies: 'claude' });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(api.commentsOn(1)).toHaveLength(1);
    const comment = api.commentsOn(1)[0];
    expect(first.outputs['comment-id']).toBe(String(comment?.id));
    expect(comment?.body.startsWith(CLAUDE_MARKER)).toBe(true);
    expect(comment?.body).toContain(
      '| add\\_note | changed | edit → **read** | closed | readOnlyHint: `false` → `true` |',
    );
    expect(comment?.body).toContain('`class-relaxed`');
    expect(first.outputs).toMatchObject({
      result: 'passed',
      'changed-count': '1',
      'error-count': '0',
      'warning-count': '1',
    });

    const second = await runIn(api, dir, { command: quote(relaxed), policies: 'claude' });
    expect(second.code).toBe(0);
    expect(api.commentsOn(1)).toHaveLength(1);
    expect(second.outputs['comment-id']).toBe(String(comment?.id));
    expect(api.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);

    // The PR is reverted: server and class list match the base again.
    await recordAtHead(dir, base);
    const clean = await runIn(api, dir, { command: quote(base), policies: 'claude' });
    expect(clean.code).toBe(0);
    expect(api.commentsOn(1)).toHaveLength(1);
    const green = api.commentsOn(1)[0]?.body ?? '';
    expect(green).toContain('✅ MCP tool annotations for `notes`: passed');
    expect(green).toContain('No class changes and no findings');
  });

  it('a dropped hint fails the step, with an annotation on the class-list line', async () => {
    const { dir } = await prWorkspace(api, { base: spec });
    const dropped = await specServer(dir, 'dropped.json', dropDestructive(spec));
    const run = await runIn(api, dir, { command: quote(dropped), policies: 'claude' });
    expect(run.code).toBe(1);
    expect(run.outputs.result).toBe('failed');
    const text = await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8');
    const line = text.split('\n').findIndex((l) => l.includes('"mcp__notes__delete_note"')) + 1;
    expect(run.stdout).toContain(
      `::error title=mcp-annotation-auditor%3A hint-dropped,file=mcp-tool-classes.json,line=${line}::delete_note: destructiveHint`,
    );
    // Most severe first.
    const levels = [
      ...run.stdout.matchAll(/^::(error|warning|notice) title=mcp-annotation-auditor/gm),
    ].map((m) => m[1]);
    expect(levels).toEqual(
      [...levels].sort(
        (a, b) =>
          ['error', 'warning', 'notice'].indexOf(a ?? '') -
          ['error', 'warning', 'notice'].indexOf(b ?? ''),
      ),
    );
    expect(api.commentsOn(1)[0]?.body).toContain('❌ MCP tool annotations for `notes`: failed');
  });

  it('keeps a 400-tool change list under the comment size limit', async () => {
    const dir = await tempDir();
    const run = await runIn(api, dir, {
      command: quote(['node', join(SERVERS, 'many-tools.mjs'), '400', '100']),
      'server-name': 'notes',
    });
    expect(run.code).toBe(1);
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body.length).toBeGreaterThan(10_000);
    expect(body.length).toBeLessThan(COMMENT_BODY_LIMIT);
    expect(body).toMatch(
      /more (changes|findings|tools): see \[the job summary\]\(https:\/\/github\.com\/octo-org\/octo-repo\/actions\/runs\/1658821493\)/,
    );
    expect(run.summary.length).toBeGreaterThan(body.length);
  });

  it("keeps the job summary within GitHub's 1 MiB at 5,000 tools; the JSON report has them all", async () => {
    const dir = await tempDir();
    const run = await runIn(api, dir, {
      command: quote(['node', join(SERVERS, 'many-tools.mjs'), '5000', '100']),
      comment: 'never',
    });
    expect(run.code).toBe(1);
    const bytes = Buffer.byteLength(run.summary, 'utf8');
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(bytes).toBeGreaterThan(512 * 1024);
    expect(run.summary).toMatch(/^### MCP tool annotations: FAILED: /);
    // Identical findings are one row each, so every tool may fit; if not, the cut says so.
    const toolRows = run.summary
      .split('\n')
      .filter((l) => /_record\\_\d+ \|/.test(l) && l.split('|').length === 10).length;
    if (toolRows < 5000)
      expect(run.summary).toMatch(
        /_…and \d+ more tools, left out to keep the job summary within GitHub's size limit: the JSON report \(the `report` output\) has them all\._/,
      );
    // Every table left whole: rows end with a pipe, the cut comes between rows.
    for (const line of run.summary.split('\n').filter((l) => l.startsWith('|')))
      expect(line.endsWith('|'), line).toBe(true);
    const report = JSON.parse(await readFile(run.outputs.report ?? '', 'utf8')) as {
      tools: unknown[];
    };
    expect(report.tools).toHaveLength(5000);
  });

  it('writes every output and the JSON report', async () => {
    const { dir, base } = await prWorkspace(api, { base: spec });
    const run = await runIn(api, dir, { command: quote(base) });
    expect(Object.keys(run.outputs).sort()).toEqual(
      [
        'changed-count',
        'comment-id',
        'error-count',
        'notice-count',
        'report',
        'result',
        'rules',
        'tool-count',
        'warning-count',
      ].sort(),
    );
    const report = JSON.parse(await readFile(run.outputs.report ?? '', 'utf8')) as {
      tools: unknown[];
      result: string;
    };
    expect(report.tools).toHaveLength(3);
    expect(report.result).toBe(run.outputs.result);
  });

  it.runIf(process.platform === 'linux')(
    'a server that outlives its audit cannot replace the JSON report or the rules file: both are written once it is gone',
    async () => {
      const { dir } = await prWorkspace(api, { base: spec });
      const server = ['node', join(SERVERS, 'lingers-and-overwrites.mjs')];
      const run = await runIn(api, dir, { command: quote(server), comment: 'never' });
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(await readFile(run.outputs.report ?? '', 'utf8')) as {
        tools: unknown[];
        result: string;
      };
      expect(report.tools).toHaveLength(3);
      expect(report.result).toBe('passed');
      const rules = JSON.parse(await readFile(run.outputs.rules ?? '', 'utf8')) as {
        permissions: { deny: string[] };
      };
      expect(rules.permissions.deny).toEqual(['mcp__notes__delete_note']);
    },
  );

  it('an output file the runner did not create fails the step in one line, not a stack trace', async () => {
    const { dir, base } = await prWorkspace(api, { base: spec });
    const missing = join(await tempDir(), 'no-such-dir', 'output');
    const run = await runIn(
      api,
      dir,
      { command: quote(base) },
      { env: { GITHUB_OUTPUT: missing } },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `mcp-annotation-auditor: the action could not write its results: Missing file at path: ${missing}`,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('never hands the token to the server', async () => {
    const dir = await tempDir();
    const dump = join(dir, 'env.json');
    const run = await runIn(
      api,
      dir,
      { command: quote(['node', join(SERVERS, 'env-dump.mjs'), dump]), comment: 'never' },
      { env: { GITHUB_TOKEN: TOKEN, ACTIONS_RUNTIME_TOKEN: 'runtime-secret' } },
    );
    expect(run.code).not.toBeNull();
    const seen = await readFile(dump, 'utf8');
    expect(seen).not.toContain(TOKEN);
    expect(seen).not.toContain('runtime-secret');
    expect(
      Object.keys(JSON.parse(seen) as object).filter(
        (k) => k.startsWith('INPUT_') || k.startsWith('GITHUB_'),
      ),
    ).toEqual([]);
  });

  it('never hands the token to git either: code of the PR may have written .git', async () => {
    const dir = await tempDir();
    const bin = join(dir, 'bin');
    await mkdir(bin);
    const dump = join(dir, 'git-env.txt');
    // A git that records its environment: hooks or config planted in .git would see the same.
    await writeFile(join(bin, 'git'), '#!/bin/sh\nenv >> "$GIT_ENV_DUMP"\nexit 1\n', {
      mode: 0o755,
    });
    api.failNext({ path: /\/contents\//, status: 502, times: 3 });
    const run = await runIn(
      api,
      dir,
      { command: `node ${EXAMPLE}`, comment: 'never' },
      {
        env: {
          PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
          GIT_ENV_DUMP: dump,
          GITHUB_TOKEN: TOKEN,
          ACTIONS_RUNTIME_TOKEN: 'runtime-secret',
          NPM_TOKEN: 'npm-secret',
        },
      },
    );
    expect(run.stdout).toContain('Could not read mcp-tool-classes.json at the base commit');
    const seen = await readFile(dump, 'utf8');
    expect(seen).toContain('GIT_NO_REPLACE_OBJECTS=1');
    expect(seen).not.toContain(TOKEN);
    expect(seen).not.toContain('runtime-secret');
    expect(seen).not.toContain('npm-secret');
    expect(seen).not.toMatch(/^INPUT_/m);
  });

  it('a bad input fails the step with a message naming it', async () => {
    const dir = await tempDir();
    const run = await runIn(api, dir, { command: `node ${EXAMPLE}`, 'fail-on': 'sometimes' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '::error::Input "fail-on" has the value "sometimes", but it must be one of error, warning, notice, never.',
    );
    expect(run.outputs.result).toBe('error');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  describe('odd inputs', () => {
    it('refuses a command line that holds the token, and starts nothing', async () => {
      const { dir, starts } = await withStarts();
      const run = await runIn(api, dir, {
        command: quote(counted(starts, ['node', EXAMPLE, TOKEN])),
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        '::error::The command line or URL of the server holds the github-token: it would reach the server under audit, and the report.',
      );
      expect(await startsIn(starts)).toEqual([]);
      expect(run.summary).not.toContain(TOKEN.slice(4));
      // The same from the config file, where ${GITHUB_TOKEN} expands to it.
      await mkdir(join(dir, '.github'));
      await writeFile(
        join(dir, '.github/mcp-annotation-auditor.yml'),
        `servers:\n  notes:\n    command: node\n    args: [${JSON.stringify(join(SERVERS, 'count-starts.mjs'))}, ${JSON.stringify(starts)}, ${JSON.stringify(EXAMPLE)}, "--token=\${GITHUB_TOKEN}"]\n`,
      );
      const configured = await runIn(api, dir, {}, { env: { GITHUB_TOKEN: TOKEN } });
      expect(configured.code).toBe(1);
      expect(configured.stdout).toContain(
        '::error::The command line or URL of server "notes" holds the github-token',
      );
      expect(await startsIn(starts)).toEqual([]);
    });

    it('an explicit config file that cannot be read: a clear error, and no server started', async () => {
      const { dir, starts } = await withStarts();
      const run = await runIn(api, dir, {
        command: quote(counted(starts, ['node', EXAMPLE])),
        config: 'missing.yml',
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('::error::Could not read the config file missing.yml');
      expect(await startsIn(starts)).toEqual([]);
    });
  });

  it('update mode writes the class list in the workspace', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'placeholder'), '');
    const run = await runIn(api, dir, { command: `node ${EXAMPLE}`, mode: 'update' });
    expect(run.code).toBe(0);
    expect(run.outputs.result).toBe('updated');
    expect(await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8')).toContain(
      '"mcp__notes__delete_note"',
    );
  });

  it.runIf(process.platform === 'linux')(
    'a config file that fails before the audit: the server started early is gone before the failed report is written',
    async () => {
      const dir = await tempDir();
      await mkdir(join(dir, '.github'), { recursive: true });
      await writeFile(join(dir, '.github', 'mcp-annotation-auditor.yml'), 'failOn: sometimes\n');
      const server = ['node', join(SERVERS, 'lingers-and-overwrites.mjs')];
      const run = await runIn(api, dir, { command: quote(server), comment: 'never' });
      expect(run.code).toBe(1);
      expect(run.outputs.result).toBe('error');
      const report = JSON.parse(await readFile(run.outputs.report ?? '', 'utf8')) as {
        result: string;
      };
      expect(report.result).toBe('error');
    },
  );

  it.runIf(process.platform === 'linux')(
    'update mode writes the class list once the server is gone: one that lingers to overwrite it cannot',
    async () => {
      const dir = await tempDir();
      const classList = join(dir, 'mcp-tool-classes.json');
      const server = ['node', join(SERVERS, 'lingers-and-overwrites.mjs'), classList];
      const run = await runIn(api, dir, { command: quote(server), mode: 'update' });
      expect(run.code, run.stderr).toBe(0);
      expect(run.outputs.result).toBe('updated');
      const written = JSON.parse(await readFile(classList, 'utf8')) as { tools: object };
      expect(Object.keys(written.tools)).toContain('mcp__notes__delete_note');
    },
  );

  it('when the audit cannot run, the summary says why and an existing comment stops showing green', async () => {
    const { dir, head: relaxed } = await prWorkspace(api, { base: spec, head: relaxAddNote(spec) });
    const first = await runIn(api, dir, {
      command: quote(relaxed),
      'server-name': 'notes',
      policies: 'claude',
    });
    expect(first.code).toBe(0);
    const broken = await runIn(api, dir, {
      command: quote(['node', join(SERVERS, 'exit-at-once.mjs')]),
      'server-name': 'notes',
      policies: 'claude',
    });
    expect(broken.code).toBe(1);
    expect(broken.outputs.result).toBe('error');
    expect(broken.summary).toContain('the audit could not run');
    expect(broken.summary).toContain('fatal: missing config');
    // The annotation keeps the server's lines as lines (%0A), not escaped as \u000a.
    expect(broken.stdout).toMatch(
      /::error::The server exited with code 3 .*%0AServer stderr:%0Afatal: missing config/,
    );
    // In the summary and the comment, the server's stderr is a code block, line by line.
    expect(broken.summary).toMatch(/\n```\nServer stderr:\nfatal: missing config\n[^]*```\n/);
    expect(broken.stdout).not.toContain('\\u000a');
    expect(api.commentsOn(1)).toHaveLength(1);
    expect(api.commentsOn(1)[0]?.body).toContain(
      '❌ MCP tool annotations for `notes`: the audit could not run',
    );
    expect(api.commentsOn(1)[0]?.body).toContain('```\nServer stderr:\nfatal: missing config');
  });

  it('a variable named for the server that holds the token is withheld, with a warning', async () => {
    const dir = await tempDir();
    const dump = join(dir, 'env.json');
    const run = await runIn(
      api,
      dir,
      {
        command: quote(['node', join(SERVERS, 'env-dump.mjs'), dump]),
        env: 'GITHUB_TOKEN\nOTHER=1',
        comment: 'never',
      },
      { env: { GITHUB_TOKEN: TOKEN } },
    );
    expect(run.stdout).toContain(
      '::warning::GITHUB_TOKEN holds the github-token; it was not passed to the server under audit.',
    );
    const seen = JSON.parse(await readFile(dump, 'utf8')) as Record<string, string>;
    expect(seen.GITHUB_TOKEN).toBeUndefined();
    expect(seen.OTHER).toBe('1');
  });

  it("the runner's credentials (ACTIONS_*) a PR's config names are withheld from the server too", async () => {
    const dir = await tempDir();
    const dump = join(dir, 'env.json');
    const runtime = 'eyJ0eXAiOiJKV1Qi.runtime-token-value';
    const oidc = 'oidc-request-token-value-0123456789';
    await mkdir(join(dir, '.github'), { recursive: true });
    await writeFile(
      join(dir, '.github/mcp-annotation-auditor.yml'),
      JSON.stringify({
        servers: {
          dump: {
            command: 'node',
            args: [join(SERVERS, 'env-dump.mjs'), dump],
            env: {
              ACTIONS_RUNTIME_TOKEN: null,
              ACTIONS_STEP_DEBUG: null,
              REQUEST: 'bearer ${ACTIONS_ID_TOKEN_REQUEST_TOKEN}',
              OTHER: '1',
            },
          },
        },
      }),
    );
    const run = await runIn(
      api,
      dir,
      { comment: 'never' },
      {
        env: {
          ACTIONS_RUNTIME_TOKEN: runtime,
          ACTIONS_ID_TOKEN_REQUEST_TOKEN: oidc,
          ACTIONS_STEP_DEBUG: 'true',
        },
      },
    );
    for (const [name, what] of [
      ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RUNTIME_TOKEN'],
      ['REQUEST', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN'],
    ])
      expect(run.stdout).toContain(
        `::warning::${name} holds ${what}; it was not passed to the server under audit.`,
      );
    const seen = JSON.parse(await readFile(dump, 'utf8')) as Record<string, string>;
    expect(JSON.stringify(seen)).not.toContain(runtime);
    expect(JSON.stringify(seen)).not.toContain(oidc);
    expect(seen.OTHER).toBe('1');
    // A short flag is no credential: passed as named.
    expect(seen.ACTIONS_STEP_DEBUG).toBe('true');
    // The workflow's env input passes one on by choice; a runner path inside PATH takes nothing.
    const path = process.env.PATH ?? '';
    const given = await runIn(
      api,
      dir,
      { comment: 'never', env: 'ACTIONS_ID_TOKEN_REQUEST_TOKEN' },
      {
        env: {
          ACTIONS_RUNTIME_TOKEN: runtime,
          ACTIONS_ID_TOKEN_REQUEST_TOKEN: oidc,
          ACTIONS_RUNNER_TOOL_CACHE: path.slice(0, Math.max(16, path.indexOf(':'))),
        },
      },
    );
    expect(given.stdout).not.toContain('::warning::PATH holds');
    const passed = JSON.parse(await readFile(dump, 'utf8')) as Record<string, string>;
    expect(passed.ACTIONS_ID_TOKEN_REQUEST_TOKEN).toBe(oidc);
    expect(passed.REQUEST).toBe(`bearer ${oidc}`);
    expect(JSON.stringify(passed)).not.toContain(runtime);
    // A command line that holds one is refused, naming it.
    const refused = await runIn(
      api,
      dir,
      { command: quote(['node', join(SERVERS, 'env-dump.mjs'), runtime]), comment: 'never' },
      { env: { ACTIONS_RUNTIME_TOKEN: runtime } },
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('holds ACTIONS_RUNTIME_TOKEN: it would reach the server');
  });

  it('report-file: a trusted workflow_run job comments from the uploaded report without running a server', async () => {
    const { dir, head: relaxed } = await prWorkspace(api, { base: spec, head: relaxAddNote(spec) });
    const audit = await runIn(api, dir, {
      command: quote(relaxed),
      policies: 'claude',
      comment: 'never',
    });
    expect(api.commentsOn(1)).toHaveLength(0);
    const trusted = await tempDir();
    const run = await runIn(
      api,
      trusted,
      { 'report-file': audit.outputs.report ?? '', 'pr-number': '1' },
      { eventName: 'workflow_run', event: workflowRunEvent() },
    );
    expect(run.code, run.stdout).toBe(0);
    expect(api.commentsOn(1)).toHaveLength(1);
    expect(api.commentsOn(1)[0]?.body).toContain(
      '| add\\_note | changed | edit → **read** | closed | readOnlyHint: `false` → `true` |',
    );
    const forged = join(trusted, 'forged.json');
    await writeFile(forged, JSON.stringify({ schemaVersion: 1, result: 'passed', tools: 'x' }));
    const bad = await runIn(api, trusted, { 'report-file': forged, 'pr-number': '1' });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(
      /::error::The report .*forged\.json is not a report of mcp-annotation-auditor/,
    );
  });

  describe('the early start', () => {
    it('starts the server once: the audit claims the process it started first', async () => {
      const { dir, base } = await prWorkspace(api, { base: spec });
      const starts = join(dir, 'starts');
      await mkdir(join(dir, 'sub'));
      await copyFile(join(dir, 'mcp-tool-classes.json'), join(dir, 'sub/mcp-tool-classes.json'));
      // A workspace reached through a symbolic link, as on some self-hosted runners.
      const linked = join(await tempDir(), 'workspace');
      await symlink(dir, linked);
      const runs: { workspace: string; inputs: Record<string, string> }[] = [
        { workspace: dir, inputs: { command: quote(counted(starts, base)) } },
        {
          workspace: linked,
          inputs: {
            command: quote(counted(starts, base)),
            env: 'A=1\nHOME',
            'working-directory': 'sub',
            comment: 'always',
          },
        },
      ];
      for (const { workspace: at, inputs } of runs) {
        await writeFile(starts, '');
        const run = await runIn(api, at, inputs);
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(run.outputs.result).toBe('passed');
        expect(await startsIn(starts), JSON.stringify(inputs)).toHaveLength(1);
      }
    });

    it('reads the event and the config file before the server starts: what it writes to them changes nothing', async () => {
      const { dir } = await prWorkspace(api, { base: spec });
      const dropped = await specServer(dir, 'dropped.json', dropDestructive(spec));
      const config = join(dir, '.github/mcp-annotation-auditor.yml');
      await mkdir(join(dir, '.github'));
      await writeFile(config, 'failOn: error\napproveLabel: approved\n');
      const run = await runIn(api, dir, {
        command: quote(['node', join(SERVERS, 'tamper.mjs'), config, ...dropped.slice(1)]),
        env: 'GITHUB_EVENT_PATH',
        policies: 'claude',
      });
      // The server did rewrite both files...
      expect(await readFile(config, 'utf8')).toBe('failOn: never\n');
      // ...but the run went by what they said before it started: not approved, failing, on PR #1.
      expect(run.code, run.stdout).toBe(1);
      expect(run.outputs.result).toBe('failed');
      expect(api.commentsOn(2)).toHaveLength(0);
      expect(api.commentsOn(1)[0]?.body).toContain('`hint-dropped`');
      expect(api.commentsOn(1)[0]?.body).not.toContain('(approved)');
    });

    it('a server started early is stopped when the audit cannot run (a broken config file)', async () => {
      // Only a server started before the config file was parsed can have started here.
      const { dir, starts } = await withStarts();
      await mkdir(join(dir, '.github'));
      await writeFile(join(dir, '.github/mcp-annotation-auditor.yml'), 'policies: [claude\n');
      const run = await runIn(api, dir, { command: quote(counted(starts, ['node', EXAMPLE])) });
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/::error::The config file .* is not valid YAML at line \d/);
      const started = await startsIn(starts);
      expect(started).toHaveLength(1);
      for (const pid of started) expect(() => process.kill(pid, 0)).toThrow();
    });

    it('starts nothing in a report-file run, even with a command input', async () => {
      const { dir, starts } = await withStarts();
      const report = join(dir, 'report.json');
      await writeFile(report, '{}');
      const run = await runIn(api, dir, {
        command: quote(counted(starts, ['node', EXAMPLE])),
        'report-file': report,
        'pr-number': '1',
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/::error::The report .*report\.json is not a report/);
      expect(await startsIn(starts)).toEqual([]);
    });
  });

  it('sarif-file: findings as SARIF 2.1.0 on the class-list lines', async () => {
    const { dir } = await prWorkspace(api, { base: spec });
    const dropped = await specServer(dir, 'dropped.json', dropDestructive(spec));
    const run = await runIn(api, dir, {
      command: quote(dropped),
      policies: 'claude',
      'sarif-file': 'out.sarif',
      comment: 'never',
    });
    expect(run.code).toBe(1);
    const sarif = JSON.parse(await readFile(join(dir, 'out.sarif'), 'utf8')) as {
      version: string;
      runs: {
        tool: { driver: { rules: { id: string }[] } };
        results: {
          ruleId: string;
          level: string;
          locations: {
            physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
          }[];
        }[];
      }[];
    };
    expect(sarif.version).toBe('2.1.0');
    const text = await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8');
    const line = text.split('\n').findIndex((l) => l.includes('"mcp__notes__delete_note"')) + 1;
    expect(sarif.runs[0]?.results).toContainEqual(
      expect.objectContaining({
        ruleId: 'hint-dropped',
        level: 'error',
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'mcp-tool-classes.json' },
              region: { startLine: line },
            },
          },
        ],
      }),
    );
    expect(sarif.runs[0]?.tool.driver.rules.map((r) => r.id)).toContain('hint-dropped');
  });

  describe('report-file: the workflow_run comment job trusts the event, never the artifact', () => {
    /** The PR's own run, which comments nothing: the path of the report it wrote. */
    async function prRun(server: Spec, record: boolean, inputs: Record<string, string> = {}) {
      const { dir } = await prWorkspace(api, { base: spec });
      const command = await specServer(dir, 'pr.json', server);
      if (record) await recordAtHead(dir, command);
      const run = await runIn(api, dir, {
        command: quote(command),
        policies: 'claude',
        comment: 'never',
        ...inputs,
      });
      expect(run.outputs.report, run.stdout).toBeTruthy();
      return { run, dir, report: run.outputs.report ?? '' };
    }
    /** The trusted job: no checkout, the report downloaded, the event GitHub gives it. */
    async function commentJob(
      report: string,
      event: Record<string, unknown> = workflowRunEvent(),
      inputs: Record<string, string> = {},
    ) {
      return runIn(
        api,
        await tempDir(),
        { 'report-file': report, ...inputs },
        { eventName: 'workflow_run', event },
      );
    }

    it('an audit that could not run still writes its report; the comment job marks the comment failed from it, and passes', async () => {
      const { dir, report } = await prRun(relaxAddNote(spec), true, { 'server-name': 'notes' });
      expect((await commentJob(report)).code).toBe(0);
      expect(api.commentsOn(1)[0]?.body).toContain('✅ MCP tool annotations for `notes`: passed');
      const broken = await runIn(api, dir, {
        command: quote(['node', join(SERVERS, 'exit-at-once.mjs')]),
        'server-name': 'notes',
        policies: 'claude',
        comment: 'never',
      });
      expect(broken.code).toBe(1);
      expect(broken.outputs.result).toBe('error');
      const written = JSON.parse(await readFile(broken.outputs.report ?? '', 'utf8')) as {
        error: string;
      };
      expect(written).toMatchObject({
        schemaVersion: 1,
        mode: 'check',
        result: 'error',
        policies: ['claude'],
        servers: [{ server: 'notes', era: 'legacy' }],
        tools: [],
        findings: [],
      });
      expect(written.error).toContain('fatal: missing config');
      const marked = await commentJob(broken.outputs.report ?? '');
      expect(marked.code, marked.stdout).toBe(0);
      expect(marked.outputs.result).toBe('error');
      expect(marked.summary).toContain("### MCP tool annotations: the PR's audit could not run");
      expect(api.commentsOn(1)).toHaveLength(1);
      const body = api.commentsOn(1)[0]?.body ?? '';
      expect(body.startsWith(CLAUDE_MARKER)).toBe(true);
      expect(body).toContain('❌ MCP tool annotations for `notes`: the audit could not run');
      expect(body).toContain('fatal: missing config');
    });
  });

  describe('found by a fault-injection pass', () => {
    it('a repository checked out into a subfolder reads its base class list from the repository root', async () => {
      const workspaceDir = await tempDir();
      const repo = join(workspaceDir, 'sub');
      await mkdir(repo);
      await exec('git', ['init', '-q'], { cwd: repo });
      const text = await recordedClassList(spec);
      await writeFile(join(repo, 'mcp-tool-classes.json'), text);
      api.setFile(DEFAULT_BASE_SHA, 'mcp-tool-classes.json', text);
      const relaxed = await specServer(repo, 'relaxed.json', relaxAddNote(spec));
      await recordAtHead(repo, relaxed);
      const run = await runIn(api, workspaceDir, {
        command: quote(relaxed),
        'working-directory': 'sub',
        policies: 'claude',
      });
      expect(run.code, run.stdout).toBe(0);
      expect(api.requests.map((r) => r.path)).toContain(
        '/repos/octo-org/octo-repo/contents/mcp-tool-classes.json',
      );
      expect(api.commentsOn(1)[0]?.body).toContain('edit → **read**');
    });
  });
});
