// Proves each fixture server under test/fixtures/servers does what the auditor's tests rely
// on, by driving it with hand-written JSON-RPC (and fetch for HTTP) rather than an MCP client.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FixtureProcess,
  type JsonRpcResponse,
  LEGACY_INITIALIZE,
  MODERN_META,
  MODERN_PROTOCOL_VERSION,
  SERVERS_DIR,
  isAlive,
  killAllFixtures,
  spawnFixture,
  trackPid,
  waitUntilGone,
} from '../support/spawn-fixture.js';

interface Tool {
  name?: unknown;
  title?: unknown;
  description?: unknown;
  inputSchema?: Record<string, unknown>;
  annotations?: unknown;
}

const NOTES_SPEC = join(SERVERS_DIR, 'notes-spec.json');

const NOTES_ANNOTATIONS = {
  list_notes: {
    title: 'List notes',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  add_note: {
    title: 'Add note',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  delete_note: {
    title: 'Delete note',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
};

function resultOf(response: JsonRpcResponse): Record<string, unknown> {
  if (response.result === undefined) {
    throw new Error(`expected a result, got ${JSON.stringify(response.error)}`);
  }
  return response.result;
}

function toolsOf(response: JsonRpcResponse): Tool[] {
  const { tools } = resultOf(response);
  if (!Array.isArray(tools)) throw new Error('result has no tools array');
  return tools as Tool[];
}

function byName(tools: Tool[]): Record<string, Tool> {
  return Object.fromEntries(tools.map((tool) => [String(tool.name), tool]));
}

async function listTools(
  server: FixtureProcess,
  params: Record<string, unknown> = {},
): Promise<Tool[]> {
  return toolsOf(await server.request('tools/list', params));
}

/** Follows nextCursor to the end; gives up after maxPages so a loop cannot hang a test. */
async function listAllPages(
  server: FixtureProcess,
  extraParams: Record<string, unknown> = {},
  maxPages = 1000,
): Promise<{ tools: Tool[]; pages: number }> {
  const tools: Tool[] = [];
  let cursor: unknown;
  for (let pages = 1; pages <= maxPages; pages += 1) {
    const response = await server.request('tools/list', {
      ...extraParams,
      ...(cursor !== undefined && { cursor }),
    });
    tools.push(...toolsOf(response));
    cursor = resultOf(response).nextCursor;
    if (cursor === undefined) return { tools, pages };
  }
  throw new Error(`still paginating after ${maxPages} pages`);
}

/** Starts `fixture` and reads its first page: the three notes tools, and a cursor to page-2. */
async function firstNotesPage(fixture: string) {
  const server = spawnFixture(fixture);
  await server.initialize();
  const first = resultOf(await server.request('tools/list', {}));
  expect((first.tools as Tool[]).map((t) => t.name)).toEqual([
    'list_notes',
    'add_note',
    'delete_note',
  ]);
  expect(first.nextCursor).toBe('page-2');
  return { server, first };
}

afterEach(killAllFixtures);

describe('raw-notes.mjs', () => {
  // The oracles' clients start it in place of the example (the benchmark lists it too): it must
  // list and answer what the example does, with and without --read-only.
  it.each([[[]], [['--read-only']]])(
    'with %j lists and answers what the example does',
    async (args) => {
      const example = spawnFixture('../../../examples/notes/server.mjs', args);
      const raw = spawnFixture('raw-notes.mjs', args);
      const [exampleInit, rawInit] = await Promise.all([example.initialize(), raw.initialize()]);
      expect(rawInit.serverInfo).toStrictEqual(exampleInit.serverInfo);
      const [expected, actual] = await Promise.all([listTools(example), listTools(raw)]);
      expect(actual).toStrictEqual(expected);
      const calls: [string, Record<string, unknown>][] = [
        ['list_notes', {}],
        ['add_note', { title: 'groceries', body: 'milk' }],
        ['list_notes', {}],
        ['delete_note', { note_id: 1 }],
        ['delete_note', { note_id: 1 }],
      ];
      for (const [name, args] of calls) {
        const [want, got] = await Promise.all(
          [example, raw].map((s) => s.request('tools/call', { name, arguments: args })),
        );
        expect(got?.result).toStrictEqual(want?.result);
        expect(got?.error?.code).toBe(want?.error?.code);
      }
    },
  );
});

describe('configurable.mjs', () => {
  it('with notes-spec.json lists exactly what the example notes server lists', async () => {
    const example = spawnFixture('../../../examples/notes/server.mjs');
    const configurable = spawnFixture('configurable.mjs', [NOTES_SPEC]);
    await Promise.all([example.initialize(), configurable.initialize()]);
    const [expected, actual] = await Promise.all([listTools(example), listTools(configurable)]);
    expect(actual).toStrictEqual(expected);
    expect(Object.keys(byName(actual))).toEqual(['list_notes', 'add_note', 'delete_note']);
    for (const [name, annotations] of Object.entries(NOTES_ANNOTATIONS)) {
      expect(byName(actual)[name]?.annotations).toStrictEqual(annotations);
    }
  });

  it('passes annotations through exactly, leaving absent hints absent', async () => {
    const spec = {
      name: 'notes-variant',
      tools: [
        { name: 'list_notes', annotations: { readOnlyHint: true } },
        {
          name: 'write_note',
          title: 'Write note',
          description: 'Renamed add_note, declared read-only.',
          annotations: { readOnlyHint: true, destructiveHint: false },
          inputSchema: {
            properties: {
              title: { type: 'string' },
              pinned: { type: 'boolean' },
              weight: { type: 'number' },
            },
            required: ['title'],
          },
        },
        {
          name: 'delete_note',
          annotations: { title: 'Delete note', readOnlyHint: false, idempotentHint: true },
          inputSchema: { properties: { note_id: { type: 'integer' } }, required: ['note_id'] },
        },
        { name: 'bare_tool' },
      ],
    };
    const server = spawnFixture('configurable.mjs', [JSON.stringify(spec)]);
    const init = await server.initialize();
    expect(init.serverInfo).toEqual({ name: 'notes-variant', version: '1.0.0' });
    const tools = byName(await listTools(server));
    expect(Object.keys(tools)).toEqual(['list_notes', 'write_note', 'delete_note', 'bare_tool']);
    expect(tools.list_notes?.annotations).toStrictEqual({ readOnlyHint: true });
    expect(tools.delete_note?.annotations).toStrictEqual({
      title: 'Delete note',
      readOnlyHint: false,
      idempotentHint: true,
    });
    expect(tools.bare_tool).not.toHaveProperty('annotations');
    expect(tools.bare_tool).not.toHaveProperty('title');
    expect(tools.bare_tool?.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(tools.write_note?.title).toBe('Write note');
    expect(tools.write_note?.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        title: { type: 'string' },
        pinned: { type: 'boolean' },
        weight: { type: 'number' },
      },
      required: ['title'],
    });
    expect(tools.delete_note?.inputSchema).toMatchObject({
      properties: { note_id: { type: 'integer' } },
      required: ['note_id'],
    });
  });

  it('paginates with pageSize in both protocol eras and rejects a foreign cursor', async () => {
    const spec = { ...JSON.parse(readFileSync(NOTES_SPEC, 'utf8')), pageSize: 2 } as object;
    const legacy = spawnFixture('configurable.mjs', [JSON.stringify(spec)]);
    const modern = spawnFixture('configurable.mjs', [JSON.stringify(spec)]);
    await legacy.initialize();
    const legacyPages = await listAllPages(legacy);
    const modernPages = await listAllPages(modern, { _meta: MODERN_META });
    for (const { tools, pages } of [legacyPages, modernPages]) {
      expect(pages).toBe(2);
      expect(tools.map((t) => t.name)).toEqual(['list_notes', 'add_note', 'delete_note']);
    }
    const bad = await legacy.request('tools/list', { cursor: 'not-a-cursor' });
    expect(bad.error?.code).toBe(-32602);
  });

  it('serves an empty tool list, and exits 2 on a bad spec', async () => {
    const empty = spawnFixture('configurable.mjs', ['{"tools": []}']);
    await empty.initialize();
    expect(await listTools(empty)).toEqual([]);

    const bad = spawnFixture('configurable.mjs', [
      JSON.stringify({
        tools: [{ name: 'x', inputSchema: { properties: { q: { type: 'array' } } } }],
      }),
    ]);
    expect(await bad.exited).toEqual({ code: 2, signal: null });
    expect(bad.stderrTail).toBe(
      'configurable: bad spec: tool x: property q has unsupported type array\n',
    );
    const missing = spawnFixture('configurable.mjs');
    expect((await missing.exited).code).toBe(2);
  });
});

describe('raw-stdio.mjs (through malformed-tool.mjs)', () => {
  it('echoes the protocol version, answers ping, rejects unknown methods and bad JSON, exits 0 at EOF', async () => {
    const server = spawnFixture('malformed-tool.mjs');
    const init = await server.initialize('2025-03-26');
    expect(init).toEqual({
      protocolVersion: '2025-03-26',
      capabilities: { tools: {} },
      serverInfo: { name: 'malformed-tool', version: '1.0.0' },
    });
    expect(resultOf(await server.request('ping'))).toEqual({});
    const discover = await server.request('server/discover', { _meta: MODERN_META });
    expect(discover.error?.code).toBe(-32601);
    server.child.stdin?.write('this is not json\n');
    const unknown = await server.request('resources/list');
    expect(unknown.error?.code).toBe(-32601);
    expect(server.messages).toContainEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
    // Four requests and one unparsable line were answered; the initialized notification was not.
    expect(server.messages).toHaveLength(5);
    server.closeStdin();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

describe('malformed-tool.mjs', () => {
  it('lists the three notes tools among three malformed ones', async () => {
    const server = spawnFixture('malformed-tool.mjs');
    await server.initialize();
    const tools = await listTools(server);
    expect(tools).toHaveLength(6);
    expect(tools.map((t) => t.name)).toEqual([
      'list_notes',
      'string_hint',
      'add_note',
      undefined,
      'delete_note',
      'array_annotations',
    ]);
    const named = byName(tools);
    for (const [name, annotations] of Object.entries(NOTES_ANNOTATIONS)) {
      expect(named[name]?.annotations).toStrictEqual(annotations);
    }
    expect(named.string_hint?.annotations).toEqual({ title: 'String hint', readOnlyHint: 'yes' });
    expect(tools[3]).not.toHaveProperty('name');
    expect(named.array_annotations?.annotations).toEqual(['readOnlyHint']);
  });
});

describe('many-tools.mjs', () => {
  it('serves 10,000 tools in 100 pages of 100 by default', async () => {
    const server = spawnFixture('many-tools.mjs');
    await server.initialize();
    const { tools, pages } = await listAllPages(server);
    expect(pages).toBe(100);
    expect(tools).toHaveLength(10_000);
    expect(new Set(tools.map((t) => t.name)).size).toBe(10_000);
    expect(tools[0]).toEqual({
      name: 'get_record_0000',
      description: 'get a record (tool 0 of 10000).',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', description: 'Record id' } },
        required: ['id'],
      },
      annotations: {
        title: 'get record 0',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    });
    const readOnly = tools.filter(
      (t) => (t.annotations as { readOnlyHint?: unknown })?.readOnlyHint === true,
    );
    const destructive = tools.filter(
      (t) => (t.annotations as { destructiveHint?: unknown })?.destructiveHint === true,
    );
    const bare = tools.filter((t) => t.annotations === undefined);
    expect([readOnly.length, destructive.length, bare.length]).toEqual([2500, 2500, 1250]);
  });

  it('takes count and pageSize arguments and rejects an unknown cursor', async () => {
    const server = spawnFixture('many-tools.mjs', ['5', '2']);
    await server.initialize();
    const { tools, pages } = await listAllPages(server);
    expect(pages).toBe(3);
    expect(tools.map((t) => t.name)).toEqual([
      'get_record_0',
      'peek_record_1',
      'update_record_2',
      'append_record_3',
      'delete_record_4',
    ]);
    const bad = await server.request('tools/list', { cursor: 'bogus' });
    expect(bad.error).toEqual({ code: -32602, message: 'Invalid cursor: bogus' });
  });
});

describe('repeating-cursor.mjs', () => {
  it('returns the same nextCursor on every page, with new tools each time', async () => {
    const { server, first } = await firstNotesPage('repeating-cursor.mjs');
    for (const n of [2, 3, 4]) {
      const page = resultOf(await server.request('tools/list', { cursor: first.nextCursor }));
      expect(page.nextCursor).toBe('page-2');
      expect((page.tools as Tool[]).map((t) => t.name)).toEqual([`extra_tool_${n}`]);
    }
  });
});

describe('exit-at-once.mjs', () => {
  it('prints one fatal line to stderr and exits 3 without output', async () => {
    const server = spawnFixture('exit-at-once.mjs');
    expect(await server.exited).toEqual({ code: 3, signal: null });
    expect(server.stderrTail).toBe('fatal: missing config\n');
    expect(server.messages).toEqual([]);
    expect(server.noise).toEqual([]);
  });
});

describe('exit-mid-pagination.mjs', () => {
  it('serves page 1, then exits 1 with a stderr line when asked for page 2', async () => {
    const { server } = await firstNotesPage('exit-mid-pagination.mjs');
    await expect(server.request('tools/list', { cursor: 'page-2' })).rejects.toThrow(/exited/);
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.stderrTail).toBe('fatal: lost the tool registry while serving cursor page-2\n');
  });
});

describe('never-answers.mjs', () => {
  it('stays silent and alive, even after stdin ends', async () => {
    const server = spawnFixture('never-answers.mjs');
    const answer = server.request('initialize', {});
    server.closeStdin();
    // It has read the request and the end of stdin, and is still there, having said nothing.
    await server.waitForStderr(/^stdin ended; staying alive\n$/);
    expect(isAlive(server.pid)).toBe(true);
    expect(server.exit).toBeUndefined();
    process.kill(server.pid, 'SIGKILL');
    await expect(answer).rejects.toThrow(/fixture exited \(code null, signal SIGKILL\)/);
    expect(server.messages).toEqual([]);
    expect(server.noise).toEqual([]);
  });
});

describe('noisy-stdout.mjs', () => {
  it('writes non-JSON lines before and between correct responses', async () => {
    const server = spawnFixture('noisy-stdout.mjs');
    await server.initialize();
    const tools = await listTools(server);
    expect(tools.map((t) => t.name)).toEqual(['list_notes', 'add_note', 'delete_note']);
    expect(server.noise).toEqual([
      'Server starting...',
      '=== notes server v1.0.0 ===',
      '* ready on stdio *',
      '[debug] answering request 1',
      '[debug] answering request 2',
    ]);
  });
});

describe('stderr-flood.mjs', () => {
  it('writes 20 MiB to stderr, then serves the notes tools', async () => {
    const server = spawnFixture('stderr-flood.mjs');
    await server.initialize();
    expect(await listTools(server)).toHaveLength(3);
    // stdout and stderr are separate pipes: the last of the flood may arrive after the answers.
    const total = 20 * 1024 * 1024;
    await server.waitForStderr(new RegExp(`flood done: ${total} bytes\n$`));
    expect(server.stderrBytes).toBe(total + `flood done: ${total} bytes\n`.length);
  });
});

describe('ignores-sigterm.mjs', () => {
  it('serves, then survives SIGTERM and the end of stdin', async () => {
    const server = spawnFixture('ignores-sigterm.mjs');
    await server.initialize();
    expect(await listTools(server)).toHaveLength(3);
    server.child.kill('SIGTERM');
    await server.waitForStderr(/received SIGTERM, ignoring it\n/);
    server.closeStdin();
    await server.waitForStderr(/stdin ended; staying alive\n$/);
    expect(isAlive(server.pid)).toBe(true);
    expect(server.exit).toBeUndefined();
  });
});

describe('env-dump.mjs', () => {
  it('writes its environment to the outfile and serves one read tool', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'env-dump-'));
    try {
      const outfile = join(dir, 'env.json');
      const server = spawnFixture('env-dump.mjs', [outfile], {
        env: { PATH: process.env.PATH, FIXTURE_MARKER: 'marker-value' },
      });
      await server.initialize();
      const tools = await listTools(server);
      expect(tools.map((t) => t.name)).toEqual(['list_notes']);
      expect(tools[0]?.annotations).toStrictEqual(NOTES_ANNOTATIONS.list_notes);
      const env = JSON.parse(readFileSync(outfile, 'utf8')) as Record<string, string>;
      expect(env.FIXTURE_MARKER).toBe('marker-value');
      expect(env.HOME).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 without an outfile', async () => {
    const server = spawnFixture('env-dump.mjs');
    expect((await server.exited).code).toBe(2);
    expect(server.stderrTail).toBe('usage: env-dump.mjs <outfile>\n');
  });
});

describe('spawns-grandchild.mjs', () => {
  it('reports a grandchild that outlives it and dies with its process group', async () => {
    const server = spawnFixture('spawns-grandchild.mjs');
    const [, pidText] = await server.waitForStderr(/grandchild-pid=(\d+)\n/);
    const grandchild = Number(pidText);
    trackPid(grandchild);
    await server.initialize();
    expect(await listTools(server)).toHaveLength(3);
    server.closeStdin();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(isAlive(grandchild)).toBe(true);
    // The orphan keeps the fixture's process group, so killing the group still reaches it.
    process.kill(-server.pid, 'SIGKILL');
    await waitUntilGone(grandchild);
  });
});

describe('era-split.mjs and modern-only.mjs', () => {
  const syncHints = {
    title: 'Sync notes',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
  };

  it('era-split declares openWorldHint on sync_notes only to 2025-era clients', async () => {
    const legacy = spawnFixture('era-split.mjs');
    const modern = spawnFixture('era-split.mjs');
    await legacy.initialize();
    const discover = resultOf(await modern.request('server/discover', { _meta: MODERN_META }));
    expect(discover.supportedVersions).toEqual([MODERN_PROTOCOL_VERSION]);
    const [legacyTools, modernTools] = await Promise.all([
      listTools(legacy),
      listTools(modern, { _meta: MODERN_META }),
    ]);
    expect(byName(legacyTools).sync_notes?.annotations).toStrictEqual({
      ...syncHints,
      openWorldHint: false,
    });
    expect(byName(modernTools).sync_notes?.annotations).toStrictEqual(syncHints);
    expect(legacyTools.slice(0, 3)).toStrictEqual(modernTools.slice(0, 3));
  });

  it('modern-only refuses initialize but lists tools to a 2026-07-28 request', async () => {
    const server = spawnFixture('modern-only.mjs');
    const init = await server.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'fixture-test', version: '0.0.0' },
    });
    expect(init.error).toMatchObject({
      code: -32022,
      data: { supported: [MODERN_PROTOCOL_VERSION], requested: '2025-06-18' },
    });
    const tools = await listTools(server, { _meta: MODERN_META });
    expect(tools.map((t) => t.name)).toEqual(['list_notes', 'add_note', 'delete_note']);
  });
});

describe('http-server.mjs', () => {
  async function start(args: string[] = []): Promise<{ server: FixtureProcess; url: string }> {
    const server = spawnFixture('http-server.mjs', ['--port', '0', ...args]);
    const [, url] = await server.waitForStderr(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/);
    return { server, url: url ?? '' };
  }

  /** POSTs one JSON-RPC message; returns the response and the messages in its body. */
  async function post(
    url: string,
    message: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ response: Response; text: string; messages: unknown[] }> {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(message),
    });
    const text = await response.text();
    let messages: unknown[] = [];
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      messages = text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line): unknown => JSON.parse(line.slice('data:'.length)));
    } else if (response.headers.get('content-type')?.startsWith('application/json')) {
      messages = [JSON.parse(text)];
    }
    return { response, text, messages };
  }

  function modernHeaders(method: string): Record<string, string> {
    return { 'mcp-protocol-version': MODERN_PROTOCOL_VERSION, 'mcp-method': method };
  }

  it('serves the notes tools at /mcp to both eras', async () => {
    const { url } = await start();
    const init = await post(url, LEGACY_INITIALIZE);
    expect(init.response.status).toBe(200);
    expect(init.messages[0]).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18' } });

    const legacyList = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const legacyTools = toolsOf(legacyList.messages[0] as JsonRpcResponse);
    expect(legacyTools.map((t) => t.name)).toEqual(['list_notes', 'add_note', 'delete_note']);

    const modernList = await post(
      url,
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: MODERN_META } },
      modernHeaders('tools/list'),
    );
    expect(modernList.response.status).toBe(200);
    expect(toolsOf(modernList.messages[0] as JsonRpcResponse)).toStrictEqual(legacyTools);

    expect((await fetch(url.replace('/mcp', '/other'))).status).toBe(404);
  });

  it('--require-header answers 401 without the header and serves with it', async () => {
    const { url } = await start(['--require-header', 'Authorization: Bearer abc']);
    const missing = await post(url, LEGACY_INITIALIZE);
    expect(missing.response.status).toBe(401);
    expect(missing.response.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const wrong = await post(url, LEGACY_INITIALIZE, { authorization: 'Bearer nope' });
    expect(wrong.response.status).toBe(401);
    const right = await post(url, LEGACY_INITIALIZE, { authorization: 'Bearer abc' });
    expect(right.response.status).toBe(200);
    expect(right.messages[0]).toMatchObject({ id: 1, result: { serverInfo: { name: 'notes' } } });
  });

  it('--mode 401, 500 and html answer every request that way', async () => {
    const [unauthorized, failing, html] = await Promise.all([
      start(['--mode', '401']),
      start(['--mode', '500']),
      start(['--mode', 'html']),
    ]);
    const a = await post(unauthorized.url, LEGACY_INITIALIZE);
    expect(a.response.status).toBe(401);
    expect(a.response.headers.get('www-authenticate')).toBe(
      'Bearer realm="mcp", error="invalid_token"',
    );
    const b = await post(failing.url, LEGACY_INITIALIZE);
    expect(b.response.status).toBe(500);
    expect(b.text).toBe('Internal Server Error');
    const c = await post(html.url, LEGACY_INITIALIZE);
    expect(c.response.status).toBe(200);
    expect(c.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(c.text).toMatch(/^<html>.*<\/html>$/);
  });

  it('--mode slow-start says it is not listening yet, listens later, then serves', async () => {
    const { server, url } = await start(['--mode', 'slow-start']);
    expect(server.stderrTail).toMatch(/^slow-start: not listening for 1\.5 s\nlistening on /);
    const init = await post(url, LEGACY_INITIALIZE);
    expect(init.response.status).toBe(200);
  });

  it('exits 2 on an unknown mode', async () => {
    const server = spawnFixture('http-server.mjs', ['--mode', 'sideways']);
    expect((await server.exited).code).toBe(2);
    expect(server.stderrTail).toMatch(/^http-server: bad --mode sideways/);
  });
});
