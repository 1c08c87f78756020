// OpenAI's hint justifications in a PR, through the action in this process (servers in memory,
// the GitHub API faked): the file as the PR has it against the live server and the base's file.
import { mkdir, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOKEN } from '../support/action.js';
import { ACTION_CONFIG, prWorkspace, quote, reportOf, runIn } from '../support/action-in-memory.js';
import { notesSpec, tempDir, withAnnotations } from '../support/cli.js';
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

  it('the PR deletes the file the base has: justification-removed, an error', async () => {
    const pr = await flipped(undefined);
    await unlink(join(pr.dir, JUSTIFICATIONS)).catch(() => undefined);
    const run = await runIn(api, pr.dir, { command: quote(pr.head) });
    expect(run.code).toBe(1);
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain('`justification-removed`');
    expect(body).toContain('is at the base commit');
    expect(body).not.toContain('`justification-missing`');
  });

  it("the PR drops the flipped tool's entry: justification-removed, an error", async () => {
    const rest = Object.fromEntries(
      Object.entries(NOTES_HINTS).filter(([t]) => t !== 'list_notes'),
    );
    const pr = await flipped(justificationsText(rest));
    const run = await runIn(api, pr.dir, { command: quote(pr.head) });
    expect(run.code).toBe(1);
    const report = await reportOf(run.outputs.report);
    expect(report.findings.filter((f) => f.rule.startsWith('justification-'))).toMatchObject([
      { rule: 'justification-removed', tool: 'list_notes', severity: 'error' },
    ]);
  });

  it('a tool renamed, its entry left under the old name: justification-removed', async () => {
    const spec = await notesSpec();
    const head = {
      ...spec,
      tools: spec.tools.map((t) =>
        t.name === 'list_notes' ? { ...t, name: 'list_all_notes' } : t,
      ),
    };
    const pr = await prWorkspace(api, {
      base: spec,
      head,
      files: { [JUSTIFICATIONS]: justificationsText() },
    });
    api.setFile(DEFAULT_BASE_SHA, JUSTIFICATIONS, justificationsText());
    const run = await runIn(api, pr.dir, { command: quote(pr.head) });
    expect(run.code).toBe(1);
    const report = await reportOf(run.outputs.report);
    expect(
      report.findings
        .filter((f) => f.rule.startsWith('justification-'))
        .map((f) => `${f.rule} ${f.tool}`)
        .sort(),
    ).toEqual(['justification-orphaned list_notes', 'justification-removed list_all_notes']);
  });

  it("the PR's config names another path, where the file has no entries: removed, and config-relaxed", async () => {
    const pr = await flipped(undefined);
    await unlink(join(pr.dir, JUSTIFICATIONS)).catch(() => undefined);
    await mkdir(join(pr.dir, '.github'), { recursive: true });
    await writeFile(join(pr.dir, ACTION_CONFIG), JSON.stringify({ justifications: 'other.json' }));
    await writeFile(join(pr.dir, 'other.json'), '{"schema_version": 1, "tools": {}}');
    api.setFile(DEFAULT_BASE_SHA, ACTION_CONFIG, JSON.stringify({}));
    const run = await runIn(api, pr.dir, { command: quote(pr.head) });
    expect(run.code).toBe(1);
    const rules = (await reportOf(run.outputs.report)).findings.map((f) => f.rule);
    expect(rules.filter((r) => r === 'justification-removed')).toHaveLength(3);
    expect(rules).toContain('config-relaxed');
  });

  it('the file made a link out of the repository, or text that does not parse: the run fails', async () => {
    const outside = await tempDir();
    await writeFile(join(outside, 'j.json'), justificationsText());
    const linked = await flipped(undefined);
    await unlink(join(linked.dir, JUSTIFICATIONS)).catch(() => undefined);
    await symlink(join(outside, 'j.json'), join(linked.dir, JUSTIFICATIONS));
    const viaLink = await runIn(api, linked.dir, { command: quote(linked.head) });
    expect(viaLink.code).toBe(1);
    expect(viaLink.outputs.result).not.toBe('passed');
    expect(viaLink.stdout).toContain('Refusing to read the hint justifications file');
    const broken = await flipped('{"tools": {');
    const unparsed = await runIn(api, broken.dir, { command: quote(broken.head) });
    expect(unparsed.code).toBe(1);
    expect(unparsed.outputs.result).not.toBe('passed');
    expect(unparsed.stdout).toContain('is not valid JSON');
  });
});
