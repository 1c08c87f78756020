// Streamable HTTP endpoints and start commands that go wrong, run through the source modules
// against raw node:http servers (test/fixtures/servers/raw-http.mjs): a start command's server is
// the one listed, and gone before the next starts; nothing secret reaches a message; a broken
// stream, a redirect or an oversized answer fails at once, saying why.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditError, describeError } from '../../src/errors.js';
import {
  DEFAULT_LIMITS,
  listTools,
  type ListLimits,
  type ServerTarget,
} from '../../src/server/listing.js';
import { serverEnvironment, type SpawnSpec } from '../../src/server/process.js';
import { freePort, SERVERS } from '../support/cli.js';
import { expectNoneLeft, killReported, watched } from '../support/pids.js';
import { killAllFixtures, spawnFixture } from '../support/spawn-fixture.js';

const LIMITS: ListLimits = { ...DEFAULT_LIMITS, startTimeoutMs: 10_000, listTimeoutMs: 20_000 };
const posix = process.platform !== 'win32';

afterAll(async () => {
  killReported();
  await killAllFixtures();
});

/** Starts raw-http.mjs with these flags (as the test's own process) and resolves with its URL. */
async function rawServer(args: string[]): Promise<string> {
  const fixture = spawnFixture('raw-http.mjs', args);
  const [, url] = await fixture.waitForStderr(/listening on (http:\/\/\S+)/);
  return url as string;
}

function spec([command, ...args]: string[]): SpawnSpec {
  return { command: command ?? '', args, env: serverEnvironment({}) };
}

function http(
  url: string,
  options: { start?: string[]; headers?: Record<string, string> } = {},
): ServerTarget {
  return {
    kind: 'http',
    url,
    headers: options.headers ?? {},
    ...(options.start ? { start: spec(options.start) } : {}),
  };
}

async function toolNames(target: ServerTarget, limits = LIMITS): Promise<string[]> {
  const listing = await listTools(target, 'legacy', limits);
  return listing.rawTools.map((tool) => (tool as { name: string }).name);
}

/** The listing's failure as the CLI prints it; fails the test if it listed or failed otherwise. */
async function failure(target: ServerTarget, limits = LIMITS): Promise<string> {
  const error = await listTools(target, 'legacy', limits).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the listing succeeded').toBeInstanceOf(AuditError);
  return describeError(error);
}

async function stillAnswers(url: string): Promise<boolean> {
  try {
    await (await fetch(url, { signal: AbortSignal.timeout(2_000) })).body?.cancel();
    return true;
  } catch {
    return false;
  }
}

describe('a start command and its URL', () => {
  it('two servers on one URL, one after the other: each lists its own tools', async () => {
    const port = String(await freePort());
    const url = `http://127.0.0.1:${port}/mcp`;
    // Each keeps answering for a second after SIGTERM, as a graceful shutdown does.
    const first = await watched('raw-http.mjs', [
      '--port',
      port,
      '--tool',
      'first_tool',
      '--linger',
      '1000',
    ]);
    const second = await watched('raw-http.mjs', [
      '--port',
      port,
      '--tool',
      'second_tool',
      '--linger',
      '1000',
    ]);
    const listed = [
      await toolNames(http(url, { start: first.command })),
      await toolNames(http(url, { start: second.command })),
    ];
    expect(listed).toEqual([['first_tool'], ['second_tool']]);
    await expectNoneLeft(first.pidFile);
    await expectNoneLeft(second.pidFile);
  });

  it('something already answering on the URL: refused, and the start command never runs', async () => {
    const url = await rawServer(['--tool', 'someone_else']);
    const port = new URL(url).port;
    const start = await watched('raw-http.mjs', ['--port', port, '--tool', 'ours']);
    const text = await failure(http(url, { start: start.command }));
    expect(text).toMatch(
      /^Something already answers at http:\/\/127\.0\.0\.1:\d+\/\*\*\* before the start command has run, so the audit would list its tools instead of those of the server the start command starts\. Stop what serves that URL .*or drop start \(--start\) to audit the server that is running there\./,
    );
    expect(existsSync(start.pidFile)).toBe(false);
  });

  it('a start command that fails while something still answers: the listing fails, naming the exit', async () => {
    const port = String(await freePort());
    const url = `http://127.0.0.1:${port}/mcp`;
    const start = ['node', join(SERVERS, 'exits-while-served.mjs'), '--port', port];
    const text = await failure(http(url, { start }));
    expect(text).toMatch(
      /^The start command exited with code 1 while listing tools, after 0 pages and 0 tools; the audit does not list the tools of whatever still answers at http:\/\/127\.0\.0\.1:\d+\/\*\*\*\. Run the start command by hand/,
    );
    expect(text).toContain('fatal: lost the backend');
    // What it left behind was in its process group, and is gone with it.
    expect(await stillAnswers(url)).toBe(false);
  });
});

describe("a start command's output", () => {
  it('a start command that writes a lot to stdout before listening still starts', async () => {
    const port = String(await freePort());
    const start = await watched('raw-http.mjs', [
      '--port',
      port,
      '--stdout-flood',
      String(4 << 20),
    ]);
    const url = `http://127.0.0.1:${port}/mcp`;
    expect(await toolNames(http(url, { start: start.command }))).toEqual(['raw_tool']);
    await expectNoneLeft(start.pidFile);
  });

  it.runIf(posix)('what it wrote to stdout is shown when it fails', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const start = ['sh', '-c', 'echo "config: /etc/app.yml"; echo "fatal: no config" >&2; exit 3'];
    const text = await failure(http(url, { start }));
    expect(text).toMatch(/^The start command exited with code 3 before http:\S+ answered\./);
    expect(text).toContain('Server stderr:\nfatal: no config');
    expect(text).toContain('Start command stdout (last lines):\nconfig: /etc/app.yml');
  });
});

describe('secrets never reach a message', () => {
  it('a 500 whose body echoes the Authorization header: the body is quoted redacted', async () => {
    const url = await rawServer(['--mode', 'echo-500']);
    const text = await failure(
      http(url, { headers: { Authorization: 'Bearer tok_live_9f8e7d6c' } }),
    );
    expect(text).toMatch(/answered HTTP 500 \(Internal Server Error\) during the handshake/);
    expect(text).toMatch(/Response body \(start\):\n.*"authorization":"\*\*\*"/);
    expect(text).not.toContain('tok_live_9f8e7d6c');
  });

  it('a server that echoes the Authorization header into its tools: the listing is redacted', async () => {
    const url = await rawServer(['--mode', 'echo-title']);
    const listing = await listTools(
      http(url, { headers: { Authorization: 'Bearer tok_echo_1a2b3c4d' } }),
      'legacy',
      LIMITS,
    );
    const text = JSON.stringify(listing);
    expect(text).not.toContain('tok_echo_1a2b3c4d');
    expect(listing.rawTools).toMatchObject([{ title: 'T ***', description: 'sent ***' }]);
    expect(listing.serverInfo?.name).toBe('raw ***');
  });

  it('a URL with user:password@ is refused up front, without the password', async () => {
    const url = `http://alice:hunter2-pw@127.0.0.1:${await freePort()}/mcp`;
    const start = await watched('never-answers.mjs');
    const text = await failure(http(url, { start: start.command }));
    expect(text).toMatch(
      /^The URL http:\/\/\*\*\*@127\.0\.0\.1:\d+\/\*\*\* holds credentials \(user:password@\), which fetch refuses to send\. Take them out of the URL and pass them as a header instead: --header "Authorization: Basic/,
    );
    expect(text).not.toMatch(/hunter2|alice/);
    expect(existsSync(start.pidFile)).toBe(false);
  });

  it('query values of the URL are redacted in what the audit says', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp?api_key=sk_query_5e4d3c2b`;
    const text = await failure(http(url));
    expect(text).toMatch(
      /^Could not reach the MCP endpoint http:\/\/127\.0\.0\.1:\d+\/\*\*\* during the handshake \(initialize\): connection refused/,
    );
    expect(text).not.toContain('sk_query_5e4d3c2b');
  });

  it('a header value fetch cannot send is named by its header, not quoted', async () => {
    const url = await rawServer([]);
    const text = await failure(
      http(url, { headers: { Authorization: 'Bearer tok_nul_1a2b3c4d\u0000x' } }),
    );
    expect(text).toMatch(
      /^The value of the header Authorization cannot be sent: it holds a line break or another control character\./,
    );
    expect(text).not.toContain('tok_nul_1a2b3c4d');
  });
});

describe('waiting for the URL', () => {
  it('a port fetch never uses fails at once, not at the start timeout', async () => {
    const start = await watched('never-answers.mjs');
    const text = await failure(http('http://127.0.0.1:6000/mcp', { start: start.command }), {
      ...LIMITS,
      startTimeoutMs: 8_000,
    });
    expect(text).toMatch(
      /^Cannot reach http:\/\/127\.0\.0\.1:6000\/\*\*\*: fetch refuses to use that port \("bad port"\); pick another\./,
    );
    expect(existsSync(start.pidFile)).toBe(false);
  });

  it('a URL that does not parse fails at once, not at the start timeout', async () => {
    const start = await watched('never-answers.mjs');
    const text = await failure(http('http://[::1/mcp', { start: start.command }), {
      ...LIMITS,
      startTimeoutMs: 8_000,
    });
    // A host that is not plain labels or an IPv6 literal is not shown either.
    expect(text).toMatch(
      /^http:\/\/\*\*\*\/\*\*\* is not a valid URL\. Give the Streamable HTTP endpoint/,
    );
    expect(existsSync(start.pidFile)).toBe(false);
  });
});

describe.runIf(posix)('a start command that exits with code 0', () => {
  it('a wrapper that leaves its server booting in the background: polled until it answers', async () => {
    const port = String(await freePort());
    const server = await watched('raw-http.mjs', ['--port', port]);
    const words = server.command.map((word) => `'${word}'`).join(' ');
    const start = ['sh', '-c', `(sleep 1; exec ${words}) & exit 0`];
    const url = `http://127.0.0.1:${port}/mcp`;
    expect(await toolNames(http(url, { start }))).toEqual(['raw_tool']);
    await expectNoneLeft(server.pidFile);
  });

  it('and nothing ever answers: the start timeout, saying it exited with 0', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const text = await failure(http(url, { start: ['sh', '-c', 'exit 0'] }), {
      ...LIMITS,
      startTimeoutMs: 1_500,
    });
    expect(text).toMatch(
      /^http:\S+ did not answer within 1\.5 s of starting the server \(the start command exited with code 0 meanwhile\)\./,
    );
  });
});

describe('an event stream that ends without the answer', () => {
  it('a malformed event, then the end of the stream: fails at once, with what the SDK said', async () => {
    const url = await rawServer(['--mode', 'sse-malformed-end']);
    const text = await failure(http(url));
    expect(text).toMatch(
      /^The MCP endpoint http:\S+ ended its event stream while listing tools without sending the answer \(after 0 pages and 0 tools\); the MCP SDK reported: .*JSON/,
    );
    expect(text).not.toMatch(/did not finish listing/);
  });

  it('a stream cut in the middle of the answer: the same', async () => {
    const url = await rawServer(['--mode', 'sse-cut']);
    const text = await failure(http(url));
    expect(text).toMatch(
      /^The MCP endpoint http:\S+ ended its event stream while listing tools without sending the answer \(after 0 pages and 0 tools\); the MCP SDK reported: SSE stream disconnected/,
    );
  });

  it('a malformed event followed by the answer still lists', async () => {
    const url = await rawServer(['--mode', 'sse-malformed-then-valid']);
    expect(await toolNames(http(url))).toEqual(['raw_tool']);
  });

  it('a handshake answered on a stream that ends, with a slow next step, still lists', async () => {
    // The stream of initialize's answer ends long before the handshake (its notification) does.
    const url = await rawServer(['--events', '--ack-delay', '800']);
    expect(await toolNames(http(url))).toEqual(['raw_tool']);
  });
});

describe('a redirect to another origin', () => {
  it("keeps the SDK's advice: the URL to use instead", async () => {
    const target = await rawServer([]);
    const url = await rawServer(['--mode', 'redirect', '--redirect-to', target]);
    const text = await failure(http(url));
    expect(text).toContain(
      `answered HTTP 307 (Temporary Redirect) during the handshake (initialize): Redirect to ${new URL(target).origin}/*** not followed; use that URL as the endpoint if it is the intended server. The audit follows a redirect only within the same origin`,
    );
    expect(text).not.toMatch(/redirectPolicy/);
  });
});

describe('an answer too large to hold', () => {
  it.each([
    ['a JSON answer', 'huge-json'],
    ['an event stream', 'huge-sse'],
  ])('%s of more than 64 MiB is refused', async (_, mode) => {
    const url = await rawServer(['--mode', mode]);
    const text = await failure(http(url));
    expect(text).toMatch(
      /^The MCP endpoint http:\S+ sent a response of more than 64 MiB while listing tools, after 0 pages and 0 tools; the audit stopped reading it\./,
    );
  });
});
