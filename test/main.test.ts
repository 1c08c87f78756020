// Parts of the action that run without the bundle, against the fake GitHub API.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commentMarker } from '../src/comment.js';
import { GitHubClient } from '../src/github.js';
import { markCommentsFailed } from '../src/main.js';
import { secretsOf } from '../src/redact.js';
import { DEFAULT_REPOSITORY, startGitHubApi, type FakeGitHub } from './support/github-api.js';

const TOKEN = 'ghs_test0123456789abcdefTOKEN';

describe('markCommentsFailed', () => {
  let api: FakeGitHub;
  beforeEach(async () => {
    api = await startGitHubApi({
      token: TOKEN,
      comments: [{ body: `${commentMarker('notes')}\n### ✅ passed` }],
    });
  });
  afterEach(async () => {
    expect(api.responseViolations).toEqual([]);
    await api.close();
  });

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
    for (const part of ['LIVE', 'pw123456', 'tok_', 'alice']) expect(body).not.toContain(part);
    expect(body).toContain('bad token \\*\\*\\*');
  });
});
