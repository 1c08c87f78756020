// The action on PRs that relax the check without dropping a hint: client rules changed in the
// PR's config, a delete tool recorded as edit, the audited command changed so the delete tool is
// no longer listed. The base commit's files are served by the fake GitHub API.
import { describe, expect, it } from 'vitest';

import { fakeGitHubEach, prWorkspace, quote, runIn } from '../support/action-workspace.js';
import { notesSpec } from '../support/cli.js';
import { DEFAULT_BASE_SHA, type FakeGitHub } from '../support/github-api.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;
const CONFIG = '.github/mcp-annotation-auditor.yml';

describe('the action on a PR that relaxes the check in other ways than a dropped hint', () => {
  let api: FakeGitHub;
  let spec: Spec;
  fakeGitHubEach((started, notes) => {
    api = started;
    spec = notes;
  });

  it('22.9: clientRules delete: allow in the PR config is config-relaxed, so the allow rule fails', async () => {
    const { dir, head: server } = await prWorkspace(api, {
      base: spec,
      files: {
        '.claude/settings.json': JSON.stringify({ permissions: { allow: ['mcp__notes'] } }),
        [CONFIG]: 'clientRules:\n  delete: allow\n  edit: allow\n',
      },
    });
    api.setFile(DEFAULT_BASE_SHA, CONFIG, 'policies: [claude]\n');
    const run = await runIn(api, dir, { command: quote(server), policies: 'claude' });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.outputs.result).toBe('failed');
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain('`config-relaxed`');
    expect(body).toContain('clientRules.delete is &quot;allow&quot; (was unset)');
    expect(body).not.toContain('`rule-allows-delete`');
  });
});
