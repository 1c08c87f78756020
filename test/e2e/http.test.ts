// Streamable HTTP: --url with headers, both protocol eras, the ways an endpoint goes wrong, and a
// start command from the config file that is launched, waited on, and stopped at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, json, runCli, tempDir, writeConfig } from '../support/cli.js';
import { expectCouldNotAudit, expectNoneLeft, killReported, watched } from '../support/pids.js';
import {
  killAllFixtures,
  MODERN_META,
  MODERN_PROTOCOL_VERSION,
  spawnFixture,
} from '../support/spawn-fixture.js';

const TOKEN = 'Bearer s3cret-for-tests';

/** Starts http-server.mjs with these flags and resolves with its URL. */
async function httpServer(args: string[]): Promise<string> {
  const fixture = spawnFixture('http-server.mjs', args);
  const [, url] = await fixture.waitForStderr(/listening on (http:\/\/\S+)/);
  return url as string;
}

const urls: Record<string, string> = {};

beforeAll(async () => {
  const [ok, auth, e401, e500, html] = await Promise.all([
    httpServer([]),
    httpServer(['--require-header', `Authorization: ${TOKEN}`]),
    httpServer(['--mode', '401']),
    httpServer(['--mode', '500']),
    httpServer(['--mode', 'html']),
  ]);
  Object.assign(urls, { ok, auth, e401, e500, html });
});

afterAll(async () => {
  killReported();
  await killAllFixtures();
});

describe('--url', () => {
  it('lists the tools of a Streamable HTTP endpoint', async () => {
    const run = await runCli(['list', '--format', 'json', '--url', urls.ok as string]);
    expect(run.code, run.stderr).toBe(0);
    const report = json(run) as ReturnType<typeof json> & {
      servers: { server: string; target: string; era: string }[];
    };
    // Only the scheme, host and port: a hosted server's path may hold its key.
    expect(report.servers).toMatchObject([
      { server: 'notes', target: `${new URL(urls.ok as string).origin}/***`, era: 'legacy' },
    ]);
    expect(report.tools.map((t) => `${t.name}:${t.class}`)).toEqual([
      'list_notes:read',
      'add_note:edit',
      'delete_note:delete',
    ]);
  });

  it('sends --header on every request', async () => {
    const without = await runCli(['list', '--url', urls.auth as string]);
    expectCouldNotAudit(without, /answered HTTP 401 \(Unauthorized\)/);
    const run = await runCli([
      'list',
      '--url',
      urls.auth as string,
      '--header',
      `Authorization: ${TOKEN}`,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/LISTED: 3 tools/);
  });

  it('--protocol-era modern speaks 2026-07-28 over HTTP (the endpoint checks its headers)', async () => {
    // The endpoint refuses a modern request that lacks the MCP-Protocol-Version and Mcp-Method
    // headers, so a modern listing that succeeds shows the client sent them.
    const bare = await fetch(urls.ok as string, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: MODERN_META },
      }),
    });
    expect(await bare.text()).toMatch(/MCP-Protocol-Version header is absent/);

    const run = await runCli([
      'list',
      '--format',
      'json',
      '--protocol-era',
      'modern',
      '--url',
      urls.ok as string,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run).tools).toHaveLength(3);
    const both = await runCli(['list', '--protocol-era', 'both', '--url', urls.ok as string]);
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).not.toMatch(/era-mismatch/);
    expect(both.stdout).toContain(`, both era)`);
    expect(MODERN_PROTOCOL_VERSION).toBe('2026-07-28');
  });

  it.each([
    [
      'HTTP 401',
      'e401',
      /The MCP endpoint http:\S+ answered HTTP 401 \(Unauthorized\) during the handshake \(initialize\)\. The server wants credentials: pass them with --header "Authorization: Bearer \.\.\."/,
    ],
    [
      'HTTP 500',
      'e500',
      /The MCP endpoint http:\S+ answered HTTP 500 \(Internal Server Error\) during the handshake \(initialize\)\. Check the URL and that the server is healthy\.\nResponse body \(start\):\nInternal Server Error/,
    ],
    [
      'an HTML page',
      'html',
      /The MCP endpoint http:\S+ answered during the handshake \(initialize\) with text\/html instead of MCP \(JSON or an event stream\)\. Check that the URL is the MCP endpoint itself/,
    ],
  ])('an endpoint answering %s: exit 2 with a clear message', async (_, key, message) => {
    const url = urls[key] as string;
    expectCouldNotAudit(await runCli(['check', '--url', url]), message);
    // The modern era's version probe fails the same way, and says so as plainly.
    const modern = await runCli(['check', '--protocol-era', 'modern', '--url', url]);
    expectCouldNotAudit(modern, /during the handshake \(server\/discover, 2026-07-28\)/);
    expect(modern.stderr.replace(/server\/discover, 2026-07-28/, 'initialize')).toMatch(message);
  });

  it('a wrong path: exit 2, HTTP 404 and a hint about /mcp', async () => {
    const url = (urls.ok as string).replace(/\/mcp$/, '/api');
    expectCouldNotAudit(
      await runCli(['list', '--url', url]),
      /answered HTTP 404 \(Not Found\) during the handshake \(initialize\)\. Check the URL path: Streamable HTTP endpoints are often at \/mcp\./,
    );
  });

  it('nothing listening: exit 2, connection refused', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    expectCouldNotAudit(
      await runCli(['list', '--url', url]),
      /Could not reach the MCP endpoint http:\S+ during the handshake \(initialize\): connection refused: nothing listens there \(ECONNREFUSED\)\./,
    );
  });
});

describe('a start command from the config file', () => {
  async function startConfig(start: { fixture: string; args?: string[] }) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const server = await watched(
      start.fixture,
      (start.args ?? []).map((a) => a.replace('{port}', String(port))),
    );
    const [command, ...args] = server.command as [string, ...string[]];
    const file = await writeConfig(await tempDir(), {
      servers: { api: { url, start: { command, args } } },
    });
    return { url, file, pidFile: server.pidFile };
  }

  it('is launched, waited on until the URL answers, and stopped at the end', async () => {
    const { file, pidFile, url } = await startConfig({
      fixture: 'http-server.mjs',
      args: ['--port', '{port}', '--mode', 'slow-start'],
    });
    const run = await runCli(['list', '--format', 'json', '--config', file]);
    expect(run.code, run.stderr).toBe(0);
    const report = json(run) as ReturnType<typeof json> & {
      servers: { server: string; target: string }[];
    };
    expect(report.servers).toMatchObject([{ server: 'api', target: `${new URL(url).origin}/***` }]);
    expect(report.tools).toHaveLength(3);
    await expectNoneLeft(pidFile);
  });

  it('--start on the command line does the same', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const server = await watched('http-server.mjs', [
      '--port',
      String(port),
      '--mode',
      'slow-start',
    ]);
    const start = server.command.map((w) => `'${w}'`).join(' ');
    const run = await runCli(['list', '--format', 'json', '--url', url, '--start', start]);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run).tools).toHaveLength(3);
    await expectNoneLeft(server.pidFile);
  });

  it('is stopped when the endpoint fails too', async () => {
    const { file, pidFile } = await startConfig({
      fixture: 'http-server.mjs',
      args: ['--port', '{port}', '--mode', '401'],
    });
    expectCouldNotAudit(
      await runCli(['list', '--config', file]),
      /^mcp-annotation-auditor: Server "api": The MCP endpoint http:\S+ answered HTTP 401/,
    );
    await expectNoneLeft(pidFile);
  });

  it('that never serves the URL: stopped at the start timeout, then killed', async () => {
    const { file, pidFile } = await startConfig({ fixture: 'never-answers.mjs' });
    const run = await runCli(['list', '--start-timeout', '2', '--config', file]);
    expectCouldNotAudit(
      run,
      /Server "api": http:\/\/127\.0\.0\.1:\d+\/\*\*\* did not answer within 2 s of starting the server\. Check that the start command listens on that URL/,
    );
    await expectNoneLeft(pidFile);
  });

  it('that exits at once: exit 2, its exit code and stderr', async () => {
    const { file, pidFile } = await startConfig({ fixture: 'exit-at-once.mjs' });
    const run = await runCli(['list', '--config', file]);
    expectCouldNotAudit(
      run,
      /Server "api": The start command exited with code 3 before http:\S+ answered\. Run the start command by hand/,
    );
    expect(run.stderr).toContain('fatal: missing config');
    await expectNoneLeft(pidFile);
  });

  it('headers in the config file read ${NAME} from the environment; --header adds to them', async () => {
    const file = await writeConfig(await tempDir(), {
      servers: { api: { url: urls.auth, headers: { Authorization: 'Bearer ${MCP_TEST_TOKEN}' } } },
    });
    const env = { ...process.env, MCP_TEST_TOKEN: TOKEN.replace('Bearer ', '') };
    const run = await runCli(['list', '--config', file], { env });
    expect(run.code, run.stderr).toBe(0);
    const unset = { ...process.env };
    delete unset.MCP_TEST_TOKEN;
    expectCouldNotAudit(
      await runCli(['list', '--config', file], { env: unset }),
      /Server "api" header Authorization in \S+ uses \$\{MCP_TEST_TOKEN\}, which is not set\./,
    );
    const bare = await writeConfig(await tempDir(), { servers: { api: { url: urls.auth } } });
    const added = await runCli(['list', '--config', bare, '--header', `Authorization: ${TOKEN}`]);
    expect(added.code, added.stderr).toBe(0);
  });
});
