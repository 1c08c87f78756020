import { z } from 'zod';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { AuditError, getErrorMessage } from './errors.js';
import { ServerProcess, type SpawnSpec } from './process.js';
import { VERSION } from './version.js';

export type ProtocolEra = 'legacy' | 'modern';
/** The modern era's revision: stateless, `server/discover` instead of `initialize`. */
export const MODERN_REVISION = '2026-07-28';

export type ServerTarget =
  | { kind: 'stdio'; spawn: SpawnSpec }
  | { kind: 'http'; url: string; headers: Record<string, string>; start?: SpawnSpec };

export interface ListLimits {
  /** Time for the server to start and answer the handshake. */
  startTimeoutMs: number;
  /** Time for all of `tools/list`, every page. */
  listTimeoutMs: number;
  maxPages: number;
  maxTools: number;
}

export const DEFAULT_LIMITS: ListLimits = {
  startTimeoutMs: 30_000,
  listTimeoutMs: 60_000,
  maxPages: 1_000,
  maxTools: 100_000,
};

export interface Listing {
  era: ProtocolEra;
  serverInfo?: { name: string; version?: string };
  /** Tools as sent, unvalidated: each is validated on its own later. */
  rawTools: unknown[];
  pages: number;
  /** Lines on stdout that were not JSON-RPC; a stdio server must not write them. */
  stdoutNoise: string[];
}

/** Only the shape we page through; tools stay raw here so one bad tool cannot hide the others. */
const pageSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/**
 * Newline-delimited JSON-RPC over a server process we spawned ourselves, so the process starts
 * before the SDK has loaded, and so non-JSON lines are counted instead of fatal.
 */
class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly noise: string[] = [];
  private buffer = '';

  constructor(private readonly server: ServerProcess) {
    server.child.stdout.setEncoding('utf8');
    server.child.stdout.on('data', (chunk: string) => this.read(chunk));
    void server.exited.then(() => this.onclose?.());
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      if (line.trim()) this.deliver(line);
    }
  }

  private deliver(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      if (this.noise.length < 20) this.noise.push(line.slice(0, 200));
      return;
    }
    if (
      message &&
      typeof message === 'object' &&
      (message as { jsonrpc?: unknown }).jsonrpc === '2.0'
    )
      this.onmessage?.(message as JSONRPCMessage);
    else if (this.noise.length < 20) this.noise.push(line.slice(0, 200));
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.server.hasExited) {
        reject(new Error(this.server.describeExit() ?? 'the server has exited'));
        return;
      }
      this.server.child.stdin.write(`${JSON.stringify(message)}\n`, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Whether `url` answers HTTP at all; any status counts: the server is up. */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1_000) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

async function waitForUrl(url: string, server: ServerProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.failure) throw server.failure;
    if (server.hasExited)
      throw new AuditError(
        `The start command exited before ${url} answered: ${server.describeExit()}.`,
        'Run the start command by hand to see why it stops.',
        stderrDetails(server),
      );
    if (await answers(url)) return;
    if (Date.now() > deadline)
      throw new AuditError(
        `${url} did not answer within ${timeoutMs / 1000} s of starting the server.`,
        'Check that the start command listens on that URL, or raise the start timeout.',
        stderrDetails(server),
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stderrDetails(server: ServerProcess | undefined): string | undefined {
  const text = server?.stderr.toString().trim();
  return text
    ? `Server stderr (last lines):\n${text.split('\n').slice(-20).join('\n')}`
    : undefined;
}

/** Turns what the SDK or the process threw into one error a person can act on. */
async function explain(
  error: unknown,
  phase: 'start' | 'list',
  target: ServerTarget,
  server: ServerProcess | undefined,
  limits: ListLimits,
): Promise<AuditError> {
  if (error instanceof AuditError) return error;
  // A broken pipe or a closed connection usually means the process is exiting: let it finish,
  // so the message can say how it ended.
  if (server && !server.hasExited) await server.waitForExit(1_000);
  if (server?.failure) return server.failure;
  const details = stderrDetails(server);
  const what = phase === 'start' ? 'while starting (the handshake)' : 'while listing tools';
  if (server?.hasExited)
    return new AuditError(
      `The server stopped ${what}: ${server.describeExit()}.`,
      'Run the server command by hand to see why it exits; its stderr is below.',
      details,
    );
  const message = getErrorMessage(error);
  if (/timed? ?out/i.test(message)) {
    const seconds = (phase === 'start' ? limits.startTimeoutMs : limits.listTimeoutMs) / 1000;
    return new AuditError(
      `The server did not answer ${what} within ${seconds} s.`,
      phase === 'start'
        ? 'Check that it speaks MCP on stdout (not a banner or logs), or raise --start-timeout.'
        : 'Raise --list-timeout if it is just slow.',
      details,
    );
  }
  if (target.kind === 'http') {
    const status = /\b(401|403|404|405|500|502|503)\b/.exec(message)?.[1];
    const hint =
      status === '401' || status === '403'
        ? 'The server wants credentials: pass them with --header "Authorization: Bearer ..." (or headers in the config file).'
        : status
          ? 'Check the URL and that the server is healthy.'
          : 'Check that the URL is an MCP Streamable HTTP endpoint (not a web page) and that it is reachable.';
    return new AuditError(
      `The MCP endpoint ${target.url} failed ${what}${status ? ` with HTTP ${status}` : ''}: ${message}`,
      hint,
      details,
    );
  }
  return new AuditError(`The server failed ${what}: ${message}`, undefined, details);
}

/**
 * Starts (or reaches) the server, lists every page of its tools, and stops what it started.
 * Only `tools/list` is ever called: the auditor never calls a tool.
 */
export async function listTools(
  target: ServerTarget,
  era: ProtocolEra,
  limits: ListLimits = DEFAULT_LIMITS,
): Promise<Listing> {
  // The process starts first; the SDK (about 100 ms of schema building) loads while it boots.
  const spec = target.kind === 'stdio' ? target.spawn : target.start;
  const server = spec ? new ServerProcess(spec) : undefined;
  let phase: 'start' | 'list' = 'start';
  try {
    const sdk = await import('@modelcontextprotocol/client');
    if (server?.failure) throw server.failure;
    let transport: Transport;
    let processTransport: ProcessTransport | undefined;
    if (target.kind === 'stdio') {
      processTransport = new ProcessTransport(server as ServerProcess);
      transport = processTransport;
    } else {
      if (server) await waitForUrl(target.url, server, limits.startTimeoutMs);
      transport = new sdk.StreamableHTTPClientTransport(new URL(target.url), {
        requestInit: { headers: target.headers },
      });
    }
    const client = new sdk.Client(
      { name: 'mcp-annotation-auditor', version: VERSION },
      {
        capabilities: {},
        versionNegotiation:
          era === 'modern' ? { mode: { pin: MODERN_REVISION } } : { mode: 'legacy' },
      },
    );
    const exited = server?.exited.then(() => {
      throw new Error('server exited');
    });
    const race = <T>(promise: Promise<T>): Promise<T> =>
      exited ? Promise.race([promise, exited]) : promise;
    await race(client.connect(transport, { timeout: limits.startTimeoutMs }));
    phase = 'list';
    const info = client.getServerVersion();
    const listing: Listing = {
      era,
      rawTools: [],
      pages: 0,
      stdoutNoise: processTransport?.noise ?? [],
    };
    if (info) listing.serverInfo = { name: info.name, version: info.version };
    const deadline = Date.now() + limits.listTimeoutMs;
    const cursors = new Set<string>();
    let cursor: string | undefined;
    do {
      if (listing.pages >= limits.maxPages)
        throw new AuditError(
          `The server has more than ${limits.maxPages} pages of tools; the listing was stopped there.`,
          'Raise --max-pages if the server really has that many.',
        );
      const remaining = Math.max(1, deadline - Date.now());
      const page = await race(
        client.request(
          { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
          pageSchema,
          { timeout: remaining, maxTotalTimeout: remaining },
        ),
      );
      listing.pages += 1;
      listing.rawTools.push(...page.tools);
      if (listing.rawTools.length > limits.maxTools)
        throw new AuditError(
          `The server listed more than ${limits.maxTools} tools; the listing was stopped there.`,
          'Raise --max-tools if the server really has that many.',
        );
      cursor = page.nextCursor;
      if (cursor !== undefined) {
        if (cursors.has(cursor))
          throw new AuditError(
            `The server's pagination loops: page ${listing.pages + 1} would repeat cursor ${JSON.stringify(cursor.slice(0, 80))}. The listing was stopped after ${listing.pages} pages and ${listing.rawTools.length} tools.`,
            'Fix the server so each nextCursor leads to a new page, and the last page has none.',
          );
        cursors.add(cursor);
      }
    } while (cursor !== undefined);
    // Closing the SDK client can wait on a stubborn server; we end the process ourselves below.
    if (target.kind === 'http') void client.close().catch(() => undefined);
    return listing;
  } catch (error) {
    throw await explain(error, phase, target, server, limits);
  } finally {
    await server?.stop();
  }
}
