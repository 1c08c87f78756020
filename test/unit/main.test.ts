// Parts of the action that run without the bundle, against the fake GitHub API.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/report.js';
import { commentMarker } from '../../src/report/comment.js';
import type { Waiver } from '../../src/config/settings.js';
import { waiverLines } from '../../src/config/file.js';
import { finding } from '../../src/core/findings.js';
import { GitHubClient } from '../../src/action/github.js';
import { markCommentsFailed } from '../../src/action/comments.js';
import { annotationsOf } from '../../src/action/publish.js';
import { secretsOf } from '../../src/redact.js';
import { DEFAULT_REPOSITORY, type FakeGitHub } from '../support/github-api.js';
import { TOKEN } from '../support/action.js';
import { fakeGitHubEach } from '../support/action-workspace.js';

describe('markCommentsFailed', () => {
  let api: FakeGitHub;
  fakeGitHubEach(
    (started) => {
      api = started;
    },
    { comments: [{ body: `${commentMarker('notes')}\n### ✅ passed` }] },
  );

  it("posts the error without the configured servers' secrets, whatever layer wrote them", async () => {
    const [owner, repo] = DEFAULT_REPOSITORY.split('/') as [string, string];
    const target = { client: new GitHubClient(TOKEN, api.url), repo: { owner, repo }, prNumber: 1 };
    const url = 'https://alice:pw123456@h/mcp?api_key=SK_LIVE_SECRET';
    const secrets = secretsOf(url, { Authorization: 'Bearer tok_123456' });
    await markCommentsFailed(
      target,
      ['notes'],
      `Could not list the tools of ${url}: HTTP 401 (the server said: "bad token tok_123456", user alice).`,
      secrets,
    );
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain('the audit could not run');
    // Redacted before escaping: an escaped secret (SK\_LIVE\_SECRET) would slip past both.
    // The user name is hidden as well as the password: the URL shows as https://***@h.
    for (const part of ['LIVE', 'pw123456', 'tok_', 'alice:']) expect(body).not.toContain(part);
    expect(body).toContain('bad token \\*\\*\\*');
  });
});

describe('annotationsOf', () => {
  it('puts a stale waiver on its line in the config file, and tool findings on the class list', async () => {
    const config =
      'failOn: warning\nwaivers:\n  - {rule: class-relaxed, tool: ghost, reason: old}\n  - rule: hint-dropped\n    tool: ghost\n    reason: gone\n  - {rule: hint-dropped, tool: gone_too, reason: gone}\n';
    const waivers: Waiver[] = [
      { rule: 'class-relaxed', tool: 'ghost', reason: 'old' },
      { rule: 'hint-dropped', tool: 'ghost', reason: 'gone' },
      { rule: 'hint-dropped', tool: 'gone_too', reason: 'gone' },
    ];
    const stale = (w: Waiver) =>
      finding('stale-waiver', w.tool, `The waiver of ${w.rule} for ${w.tool} matches no finding.`);
    const report: Report = {
      mode: 'check',
      result: 'failed',
      failOn: 'warning',
      classList: 'mcp-tool-classes.json',
      servers: [
        {
          server: 'notes',
          target: 'node server.js',
          era: 'legacy',
          tools: [],
          findings: [finding('hint-dropped', 'delete_note', 'destructiveHint dropped.')],
          changes: [],
          stdoutNoise: [],
        },
      ],
      // Only the second and third are stale.
      findings: [stale(waivers[1] as Waiver), stale(waivers[2] as Waiver)],
    };
    const classList =
      '{\n  "version": 1,\n  "tools": {\n    "mcp__notes__delete_note": {}\n  }\n}\n';
    const places = { file: '.github/auditor.yml', waivers, lines: await waiverLines(config) };
    const found = annotationsOf(report, classList, 'mcp-tool-classes.json', places).map((a) => [
      a.props.file,
      a.props.line,
      a.props.title,
    ]);
    expect(found).toEqual([
      ['mcp-tool-classes.json', 4, 'mcp-annotation-auditor: hint-dropped'],
      ['.github/auditor.yml', 4, 'mcp-annotation-auditor: stale-waiver'],
      ['.github/auditor.yml', 7, 'mcp-annotation-auditor: stale-waiver'],
    ]);
    // Without the config file's lines, still the config file: the class list has no line for it.
    expect(
      annotationsOf(report, classList, 'mcp-tool-classes.json', { ...places, lines: [] })[1]?.props,
    ).toMatchObject({ file: '.github/auditor.yml', line: 1 });
  });
});
