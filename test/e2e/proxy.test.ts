// The action reaches the GitHub API through the proxy a self-hosted runner names in
// HTTPS_PROXY/HTTP_PROXY: the API's host is a name only that proxy can resolve.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAction, TOKEN } from '../support/action.js';
import { notesSpec, runCli, specServer, tempDir } from '../support/cli.js';
import { DEFAULT_BASE_SHA, startGitHubApi, type FakeGitHub } from '../support/github-api.js';
import { startProxy, type ForwardProxy } from '../support/proxy.js';

const quote = (words: string[]) => words.map((w) => `'${w}'`).join(' ');

describe('the action behind a proxy', () => {
  let api: FakeGitHub;
  let proxy: ForwardProxy;
  beforeEach(async () => {
    api = await startGitHubApi({ token: TOKEN });
    proxy = await startProxy({ 'api.github.test': Number(new URL(api.url).port) });
  });
  afterEach(async () => {
    expect(api.responseViolations).toEqual([]);
    await proxy.close();
    await api.close();
  });

  it('reads the base and comments through HTTP_PROXY/HTTPS_PROXY on a host only the proxy knows', async () => {
    const dir = await tempDir();
    const server = await specServer(dir, 'spec.json', await notesSpec());
    const update = await runCli(
      ['update', '--class-list', join(dir, 'mcp-tool-classes.json'), '--', ...server],
      { cwd: dir },
    );
    expect(update.code, update.stderr).toBe(0);
    api.setFile(
      DEFAULT_BASE_SHA,
      'mcp-tool-classes.json',
      await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8'),
    );
    const run = await runAction({
      workspace: dir,
      apiUrl: 'http://api.github.test',
      inputs: { command: quote(server), comment: 'always' },
      env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs.result).toBe('passed');
    // Compared with the base the API gave, and commented: both through the proxy.
    expect(run.stdout).not.toContain('Comparing with the class list at HEAD only');
    expect(api.commentsOn(1)).toHaveLength(1);
    expect(run.outputs['comment-id']).toBe(String(api.commentsOn(1)[0]?.id));
    expect(api.requests.map((r) => r.method)).toEqual(expect.arrayContaining(['GET', 'POST']));
    expect(proxy.requests.length).toBeGreaterThan(0);
    for (const asked of proxy.requests)
      expect(asked).toMatch(/^(CONNECT api\.github\.test:80|[A-Z]+ http:\/\/api\.github\.test\/)/);
  });
});
