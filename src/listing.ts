import * as z from 'zod/v4';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { AuditError, getErrorMessage } from './errors.js';
import { lazily } from './lazy.js';
import { noJsonSchemaValidation } from './sdk-shims.js';
import { claimPrestarted, ServerProcess, stopInBackground, type SpawnSpec } from './process.js';
import { VERSION } from './version.js';

export type ProtocolEra = 'legacy' | 'modern';
/** The modern era's revision: stateless, `server/discover` instead of `initialize`. */
export const MODERN_REVISION = '2026-07-28';

export type ServerTarget = (
  | { kind: 'stdio'; spawn: SpawnSpec }
  | {
      kind: 'http';
      url: string;
      headers: Record<string, string>;
      /** Launched first, waited on until the URL answers, stopped at the end. */
      start?: SpawnSpec;
    }
) & {
  /** The server's name in the config file, to say which server an error is about. */
  label?: string;
};

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
const pageSchema = lazily(() =>
  z.looseObject({
    tools: z.array(z.unknown()),
    nextCursor: z.string().optional(),
  }),
);

/** The longest stdout line we hold; one page of tools is far smaller. */
const MAX_LINE = 64 * 1024 * 1024;

/**
 * Newline-delimited JSON-RPC over a server process we spawned ourselves, so the process starts
 * before the SDK has loaded, and so non-JSON lines are counted instead of fatal.
 */
class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly noise: string[] = [];
  /** Set when the stream itself is unusable; the server is killed and this is the error. */
  fatal: AuditError | undefined;
  private buffer = '';

  constructor(private readonly server: ServerProcess) {
    server.child.stdout.setEncoding('utf8');
    server.child.stdout.on('data', (chunk: string) => this.read(chunk));
    void server.exited.then(() => this.onclose?.());
  }

  private read(chunk: string): void {
    // Only the new chunk can hold the next newline: a long line is not rescanned per chunk.
    let from = this.buffer.length;
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n', from)) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      from = 0;
      if (line.trim()) this.deliver(line);
    }
    if (this.buffer.length > MAX_LINE && !this.fatal) {
      this.buffer = '';
      this.fatal = new AuditError(
        `The server wrote more than ${MAX_LINE / 1024 / 1024} MiB to stdout without a line break.`,
        'A stdio server writes one JSON-RPC message per line; check what it prints.',
      );
      // Its exit ends the listing; the message above says why we ended it.
      this.server.killGroup('SIGKILL');
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
async function answers(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** Polls `url` until it answers, the start command exits, or `timeoutMs` passes. */
async function waitForUrl(url: string, server: ServerProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.failure) throw server.failure;
    if (server.hasExited) {
      await server.stderrRead(500);
      throw new AuditError(
        `The start command ${server.describeExit()} before ${url} answered.`,
        'Run the start command by hand to see why it stops.',
        stderrDetails(server),
      );
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0)
      throw new AuditError(
        `${url} did not answer within ${timeoutMs / 1000} s of starting the server.`,
        'Check that the start command listens on that URL, or raise the start timeout (--start-timeout, or startTimeout in the config file).',
        stderrDetails(server),
      );
    if (await answers(url, Math.min(1_000, remaining))) return;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(100, Math.max(0, deadline - Date.now()))),
    );
  }
}

/** Server-written text for a terminal: control characters other than newlines made visible. */
function inert(text: string): string {
  return text.replace(/[\p{Cc}\u200b-\u200f\u2028-\u202e\u2066-\u2069]/gu, (c) =>
    c === '\n' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function stderrDetails(
  server: ServerProcess | undefined,
  noise: string[] = [],
): string | undefined {
  const parts: string[] = [];
  const text = server?.stderr.toString().trim();
  if (text)
    parts.push(
      `Server stderr (last lines):\n${text
        .split('\n')
        .slice(-20)
        .map((line) => inert(line.length > 300 ? `${line.slice(0, 300)}…` : line))
        .join('\n')}`,
    );
  if (noise.length)
    parts.push(
      `Non-JSON lines the server wrote to stdout (stdio servers must log to stderr):\n${noise
        .slice(0, 5)
        .map(inert)
        .join('\n')}`,
    );
  return parts.length ? parts.join('\n') : undefined;
}

/** How far the listing got, for messages. */
interface Progress {
  pages: number;
  tools: number;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The error, its causes, and the causes the SDK tucks into `data.cause`. */
function errorChain(error: unknown): Record<string, unknown>[] {
  const chain: Record<string, unknown>[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 6) {
    const record = current as Record<string, unknown>;
    chain.push(record);
    const data = record.data as Record<string, unknown> | undefined;
    current = record.cause ?? (data && typeof data === 'object' ? data.cause : undefined);
  }
  return chain;
}

function dataOf(e: Record<string, unknown>): Record<string, unknown> {
  return e.data && typeof e.data === 'object' ? (e.data as Record<string, unknown>) : {};
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens there',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
};

/** Why a connection failed, from the innermost error that says so. */
function networkFailure(chain: Record<string, unknown>[]): string | undefined {
  for (const e of [...chain].reverse()) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && NETWORK_ERRORS[code]) return `${NETWORK_ERRORS[code]} (${code})`;
    if (code && /CERT|SSL|TLS|SELF_SIGNED|VERIFY/.test(code))
      return `the TLS certificate was refused (${code})`;
  }
  if (chain.some((e) => e.message === 'fetch failed')) {
    const inner = chain.at(-1);
    const message = typeof inner?.message === 'string' ? inner.message : 'fetch failed';
    if (message === 'bad port') return 'fetch refuses to use that port ("bad port"); pick another';
    return message === 'fetch failed' ? 'the request failed' : message;
  }
  return undefined;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Turns what the SDK or the process threw into one error a person can act on. */
async function explain(
  error: unknown,
  phase: 'start' | 'list',
  target: ServerTarget,
  era: ProtocolEra,
  server: ServerProcess | undefined,
  limits: ListLimits,
  progress: Progress,
  noise: string[],
): Promise<AuditError> {
  if (error instanceof AuditError) return error;
  const chain = errorChain(error);
  const message = getErrorMessage(error);
  const timedOut = chain.some(
    (e) => e.code === 'REQUEST_TIMEOUT' || e.code === -32001 || e.name === 'TimeoutError',
  );
  // A broken pipe or a closed connection usually means the process is exiting: let it finish,
  // so the message can say how it ended.
  const closing = chain.some(
    (e) =>
      e.code === 'EPIPE' ||
      e.code === 'ERR_STREAM_DESTROYED' ||
      e.code === 'ERR_STREAM_WRITE_AFTER_END' ||
      e.code === 'CONNECTION_CLOSED' ||
      e.message === 'server exited',
  );
  if (target.kind === 'stdio' && server && !server.hasExited && closing)
    await server.waitForExit(1_000);
  if (server?.failure) return server.failure;
  if (server?.hasExited) await server.stderrRead(500);
  const details = stderrDetails(server, noise);
  const handshake = era === 'modern' ? `server/discover, ${MODERN_REVISION}` : 'initialize';
  const during =
    phase === 'start'
      ? `during the handshake (${handshake})`
      : `while listing tools${era === 'modern' ? ` (${MODERN_REVISION} era)` : ''}`;
  const sofar =
    phase === 'start'
      ? 'before listing any tools'
      : `after ${plural(progress.pages, 'page')} and ${plural(progress.tools, 'tool')}`;
  const what = target.kind === 'http' ? `The MCP endpoint ${target.url}` : 'The server';
  if (target.kind === 'stdio' && server?.hasExited)
    return new AuditError(
      `The server ${server.describeExit()} ${during}, ${sofar}.`,
      `Run the server command by hand to see why it exits${details ? '; what it printed is below' : ''}.`,
      details,
    );
  if (timedOut) {
    const seconds = (phase === 'start' ? limits.startTimeoutMs : limits.listTimeoutMs) / 1000;
    return new AuditError(
      phase === 'start'
        ? `${what} did not answer the handshake (${handshake}) within ${seconds} s.`
        : `${what} did not finish listing its tools within ${seconds} s (${sofar}).`,
      phase === 'start'
        ? target.kind === 'stdio'
          ? 'Check that it speaks MCP over stdio (JSON-RPC lines on stdout, logs on stderr), or raise --start-timeout (startTimeout in the config file).'
          : 'Check that the URL is an MCP endpoint, or raise --start-timeout (startTimeout in the config file).'
        : 'Raise --list-timeout (listTimeout in the config file) if it is just slow.',
      details,
    );
  }
  if (target.kind === 'http') {
    const withStatus = chain.find(
      (e) => typeof e.status === 'number' || typeof dataOf(e).status === 'number',
    );
    if (withStatus) {
      const status = (withStatus.status ?? dataOf(withStatus).status) as number;
      const statusText =
        (dataOf(withStatus).statusText as string | undefined) || STATUS_TEXT[status] || '';
      const body = dataOf(withStatus).text;
      const hint =
        status === 401 || status === 403
          ? 'The server wants credentials: pass them with --header "Authorization: Bearer ..." (or headers in the config file, where ${NAME} reads an environment variable).'
          : status === 404
            ? 'Check the URL path: Streamable HTTP endpoints are often at /mcp.'
            : 'Check the URL and that the server is healthy.';
      return new AuditError(
        `${what} answered HTTP ${status}${statusText ? ` (${statusText})` : ''} ${during}.`,
        hint,
        [
          typeof body === 'string' && body.trim()
            ? `Response body (start):\n${inert(body.trim().slice(0, 500))}`
            : '',
          details ?? '',
        ]
          .filter(Boolean)
          .join('\n') || undefined,
      );
    }
    const contentType = chain
      .map((e) => dataOf(e).contentType)
      .find((t): t is string => typeof t === 'string');
    if (contentType !== undefined || /Unexpected content type/i.test(message))
      return new AuditError(
        `${what} answered ${during} with ${contentType ? inert(contentType.split(';')[0] ?? contentType) : 'something'} instead of MCP (JSON or an event stream).`,
        'Check that the URL is the MCP endpoint itself (often ending in /mcp), not a web page or a login page.',
        details,
      );
    const network = networkFailure(chain);
    if (network)
      return new AuditError(
        `Could not reach the MCP endpoint ${target.url} ${during}: ${network}.`,
        target.start
          ? `Check that the start command serves that URL${server?.hasExited ? ` (it ${server.describeExit()})` : ''}.`
          : 'Check that the server is running and the URL is right; to have the audit start it first, give --start "<command line>" (start: in the config file).',
        details,
      );
  }
  const unsupported = chain.find((e) => e.code === -32022 && Array.isArray(dataOf(e).supported));
  if (unsupported) {
    const supported = (dataOf(unsupported).supported as unknown[]).map(String);
    const onlyModern = supported.length > 0 && supported.every((v) => v >= MODERN_REVISION);
    return new AuditError(
      onlyModern
        ? `${what} only speaks the ${MODERN_REVISION} protocol era${supported.length > 1 ? ` (it supports ${supported.join(', ')})` : ''} and refused the legacy handshake (initialize).`
        : `${what} refused protocol version ${String(dataOf(unsupported).requested)} ${during}; it supports ${supported.join(', ') || 'no version we know'}.`,
      onlyModern
        ? 'Audit it with --protocol-era modern (protocolEra: modern in the config file).'
        : undefined,
      details,
    );
  }
  if (chain.some((e) => e.code === 'ERA_NEGOTIATION_FAILED') && era === 'modern')
    return new AuditError(
      `${what} does not speak the ${MODERN_REVISION} protocol era: it did not answer server/discover with that version.`,
      'Audit it with --protocol-era legacy (the default), or update its MCP SDK to one that supports 2026-07-28.',
      details,
    );
  return new AuditError(
    `${what} failed ${during}: ${inert(message).replace(/\.$/, '')}.`,
    undefined,
    details,
  );
}

/** Names the configured server in a message, when the config file named it. */
function labelled(error: AuditError, target: ServerTarget): AuditError {
  if (target.label === undefined) return error;
  return new AuditError(`Server "${target.label}": ${error.message}`, error.hint, error.details);
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
  const server = spec ? (claimPrestarted(spec) ?? new ServerProcess(spec)) : undefined;
  let phase: 'start' | 'list' = 'start';
  const progress: Progress = { pages: 0, tools: 0 };
  let processTransport: ProcessTransport | undefined;
  let client: import('@modelcontextprotocol/client').Client | undefined;
  try {
    const sdk = await import('./sdk.js');
    if (server?.failure) throw server.failure;
    let transport: Transport;
    if (target.kind === 'stdio') {
      processTransport = new ProcessTransport(server as ServerProcess);
      transport = processTransport;
    } else {
      if (server) await waitForUrl(target.url, server, limits.startTimeoutMs);
      transport = new sdk.StreamableHTTPClientTransport(new URL(target.url), {
        requestInit: { headers: target.headers },
      });
    }
    client = new sdk.Client(
      { name: 'mcp-annotation-auditor', version: VERSION },
      {
        capabilities: {},
        jsonSchemaValidator: noJsonSchemaValidation,
        versionNegotiation:
          era === 'modern' ? { mode: { pin: MODERN_REVISION } } : { mode: 'legacy' },
      },
    );
    // A stdio server that exits ends the listing at once. An HTTP start command may exit once
    // the server it launched is up (a daemonising wrapper): a dead endpoint shows in the requests.
    const exited =
      target.kind === 'stdio'
        ? server?.exited.then(() => {
            throw new Error('server exited');
          })
        : undefined;
    // Keep a rejection nobody awaits (a listing that already finished) from going unhandled.
    exited?.catch(() => undefined);
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
          `The server has more than ${limits.maxPages} pages of tools: the listing was stopped after ${plural(listing.pages, 'page')} and ${plural(listing.rawTools.length, 'tool')}, with cursor ${JSON.stringify((cursor ?? '').slice(0, 80))} still to follow.`,
          'Raise --max-pages (maxPages in the config file) if the server really has that many.',
        );
      const remaining = Math.max(1, deadline - Date.now());
      const page = await race(
        client.request(
          { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
          pageSchema(),
          { timeout: remaining, maxTotalTimeout: remaining },
        ),
      );
      listing.pages += 1;
      listing.rawTools.push(...page.tools);
      progress.pages = listing.pages;
      progress.tools = listing.rawTools.length;
      if (listing.rawTools.length > limits.maxTools)
        throw new AuditError(
          `The server listed more than ${limits.maxTools} tools: the listing was stopped after ${plural(listing.pages, 'page')} and ${plural(listing.rawTools.length, 'tool')}.`,
          'Raise --max-tools (maxTools in the config file) if the server really has that many.',
        );
      cursor = page.nextCursor;
      if (cursor !== undefined) {
        if (cursors.has(cursor))
          throw new AuditError(
            `The server's pagination loops: page ${listing.pages + 1} would repeat cursor ${JSON.stringify(inert(cursor.slice(0, 80)))}. The listing was stopped after ${plural(listing.pages, 'page')} and ${plural(listing.rawTools.length, 'tool')}.`,
            'Fix the server so each nextCursor leads to a new page, and the last page has none.',
          );
        cursors.add(cursor);
      }
    } while (cursor !== undefined);
    // Closing the SDK client can wait on a stubborn server; we end the process ourselves below.
    return listing;
  } catch (error) {
    if (processTransport?.fatal) throw labelled(processTransport.fatal, target);
    throw labelled(
      await explain(
        error,
        phase,
        target,
        era,
        server,
        limits,
        progress,
        processTransport?.noise ?? [],
      ),
      target,
    );
  } finally {
    // Closing the SDK client clears its timers; it can wait on a stubborn server, so it is not
    // awaited: we end the process ourselves.
    void client?.close().catch(() => undefined);
    // The audit goes on with the listing while the server shuts down; see stopsSettled().
    if (server) stopInBackground(server);
  }
}
