// OpenAI's hint justifications in a PR, through the action in this process (servers in memory,
// the GitHub API faked): the file as the PR has it against the live server and the base's file.
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOKEN } from '../support/action.js';
import { prWorkspace, quote, runIn } from '../support/action-in-memory.js';
import { notesSpec, withAnnotations } from '../support/cli.js';
import { DEFAULT_BASE_SHA, startGitHubApi, type FakeGitHub } from '../support/github-api.js';
import { JUSTIFICATIONS, NOTES_HINTS, justificationsText } from '../support/justifications-file.js';

describe('a PR beside a justifications file (action, in process)', () => {
  let api: FakeGitHub;
  beforeEach(async () => {
    api = await startGitHubApi({ token: TOKEN });
  });
  afterEach(async () => {
    expect(api.responseViolations).toEqual([]);
    await api.close();
  });

  /** A PR whose server flips list_notes' readOnlyHint, with `file` at HEAD and the notes file at the base. */
  async function flipped(file: string | undefined) {
    const spec = await notesSpec();
    const head = withAnnotations(spec, 'list_notes', { readOnlyHint: false });
    const files: Record<string, string> = file !== undefined ? { [JUSTIFICATIONS]: file } : {};
    const pr = await prWorkspace(api, { base: spec, head, files });
    api.setFile(DEFAULT_BASE_SHA, JUSTIFICATIONS, justificationsText());
    return pr;
  }

  it('a hint flipped, the file as it was: justification-stale, beside the class change', async () => {
    const pr = await flipped(justificationsText());
    const run = await runIn(api, pr.dir, { command: quote(pr.head), 'fail-on': 'error' });
    expect(run.code).toBe(1);
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain('`justification-stale`');
    const section = body.slice(body.indexOf('#### OpenAI hint justifications now false'));
    expect(section).toMatch(
      /^#### OpenAI hint justifications now false: rewrite them\n\n- \*\*`list_notes`\*\* \(class `read \(closed\)` → `edit \(closed\)`, readOnlyHint `true` → `false` in this change\): rewrite `read_only_justification`\./,
    );
    expect(body.indexOf('#### Class changes')).toBeLessThan(body.indexOf('#### OpenAI hint'));
  });

  it("the PR sets the file's hint to match but keeps the old justification: still stale", async () => {
    const pr = await flipped(
      justificationsText({ ...NOTES_HINTS, list_notes: [false, false, false] }),
    );
    const run = await runIn(api, pr.dir, { command: quote(pr.head) });
    expect(run.code).toBe(1);
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain('`justification-stale`');
    expect(body).toContain('written for true');
  });

  it('the PR sets the hint and rewrites its justification: no justification finding', async () => {
    const pr = await flipped(
      justificationsText({ ...NOTES_HINTS, list_notes: [false, false, false] }, (tool, key) =>
        tool === 'list_notes' && key === 'read_only_justification'
          ? 'It marks each note it lists as read.'
          : `${tool}: ${key} written by a person.`,
      ),
    );
    await runIn(api, pr.dir, { command: quote(pr.head) });
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).not.toContain('`justification-');
  });

  it('the PR deletes the file the base has: justification-missing says so', async () => {
    const pr = await flipped(undefined);
    await unlink(join(pr.dir, JUSTIFICATIONS)).catch(() => undefined);
    await runIn(api, pr.dir, { command: quote(pr.head) });
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain('`justification-missing`');
    expect(body).toContain('is at the base commit');
  });
});
