// The action in this process (test/support/action-in-memory.ts) against a fake GitHub API that is
// slow, fails, or forbids: retries, fallbacks and what the step still writes. A slow answer is one
// the fake holds back until the test has seen what should happen first, not a pause.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pullRequestEvent } from '../support/action.js';
import {
  dropDestructive,
  fakeGitHubEach,
  prWorkspace,
  quote,
  recordAtHead,
  relaxAddNote,
  runActionInMemory,
  runIn,
} from '../support/action-in-memory.js';
import { inMemory } from '../support/in-memory.js';
import type { Connect } from '../../src/server/listing.js';
import { notesSpec, SERVERS, specServer } from '../support/cli.js';
import { type FakeGitHub } from '../support/github-api.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

describe('the action when the GitHub API is slow or fails', () => {
  let api: FakeGitHub;
  let spec: Spec;
  fakeGitHubEach((started, notes) => {
    api = started;
    spec = notes;
  });

  it('waits for a slow base read: the change against the base still shows', async () => {
    const { dir, head: relaxed } = await prWorkspace(api, { base: spec, head: relaxAddNote(spec) });
    // The listing is done before the base class list comes (its request may come before or after).
    const held = api.hold(/\/contents\//);
    let listed = () => {};
    const closed = new Promise<void>((resolve) => (listed = resolve));
    const connect: Connect = (target, era) => {
      const connection = inMemory(target, era);
      const close = connection.close.bind(connection);
      connection.close = () => close().finally(listed);
      return connection;
    };
    const running = runActionInMemory({
      workspace: dir,
      apiUrl: api.url,
      inputs: { command: quote(relaxed), policies: 'claude' },
      connect,
    });
    await Promise.all([closed, api.requested({ path: /\/contents\// })]);
    expect(held.waiting).toBeGreaterThan(0);
    held.release();
    const run = await running;
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs['changed-count']).toBe('1');
    expect(api.commentsOn(1)[0]?.body).toContain('edit → **read**');
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

  it('a PR that pr-number names and that cannot be read fails the audit, with no token too', async () => {
    const { dir, head: dropped } = await prWorkspace(api, {
      base: spec,
      head: dropDestructive(spec),
    });
    // A job of another event (workflow_dispatch) told the PR by number; the API does not know #9.
    const options = { eventName: 'workflow_dispatch', event: {} };
    const inputs = { command: quote(dropped), policies: 'claude', 'pr-number': '9' };
    const unknown = await runIn(api, dir, inputs, options);
    expect(unknown.code, unknown.stdout).toBe(1);
    expect(unknown.outputs.result).toBe('error');
    expect(unknown.stdout).toMatch(
      /::error::Input "pr-number" names PR #9, which could not be read \(.*\): without its base commit/,
    );
    const tokenless = await runIn(api, dir, inputs, {
      ...options,
      env: { 'INPUT_GITHUB-TOKEN': '' },
    });
    expect(tokenless.code, tokenless.stdout).toBe(1);
    expect(tokenless.outputs.result).toBe('error');
    expect(tokenless.stdout).toContain(
      '::error::Input "pr-number" names PR #9, but there is no github-token to read it with',
    );
    // The PR the API knows: its base is read, and the dropped hint is caught.
    const known = await runIn(api, dir, { ...inputs, 'pr-number': '1' }, options);
    expect(known.code, known.stdout).toBe(1);
    expect(known.summary).toContain('hint-dropped');
  });

  it('a base read still on its way when the audit fails says nothing about comparing', async () => {
    const { dir } = await prWorkspace(api, { base: spec });
    const held = api.hold(/\/contents\//);
    api.failNext({ path: /\/contents\//, status: 502, times: 3 });
    const running = runIn(api, dir, {
      command: quote(['node', join(SERVERS, 'exit-at-once.mjs')]),
    });
    // The failed run reads the PR's comments to mark its own, the base read not answered yet.
    await Promise.all([
      api.requested({ path: /\/contents\// }),
      api.requested({ method: 'GET', path: /\/issues\/1\/comments$/ }),
    ]);
    expect(held.waiting).toBeGreaterThan(0);
    held.release();
    const failed = await running;
    expect(failed.code).toBe(1);
    expect(failed.outputs.result).toBe('error');
    expect(failed.stdout).not.toContain('Comparing with the class list at HEAD only');
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

  it('a 502 from the API while commenting keeps the summary and outputs, and the exit follows the findings', async () => {
    const { dir, head: relaxed } = await prWorkspace(api, { base: spec, head: relaxAddNote(spec) });
    api.failNext({ method: 'POST', path: /\/comments$/, status: 502, message: 'Server Error' });
    const run = await runIn(api, dir, { command: quote(relaxed), policies: 'claude' });
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({ result: 'passed', 'changed-count': '1', 'comment-id': '' });
    expect(run.stdout).toMatch(/::warning::Could not comment on PR #1: POST .* 502/);
    expect(run.summary).toContain('edit → **read**');
  });
});
