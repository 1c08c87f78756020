import * as z from 'zod/v4';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { AuditError, getErrorMessage } from '../errors.js';
import { linesSafe } from '../escape.js';
import { lazily } from '../lazy.js';
import { noJsonSchemaValidation } from './sdk-shims.js';
import { MAX_SCHEMA_DEPTH } from '../core/tools.js';
import { plural } from '../core/text.js';
import { claimPrestarted, ServerProcess, stopInBackground, type SpawnSpec } from './process.js';
import { redactText, redactUrl, secretsOf } from '../redact.js';
import { VERSION } from '../version.js';

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
 * The most a whole listing may send, every page together: what the audit keeps of it must fit in
 * memory and in one report.
 */
export const MAX_LISTING = 2 * MAX_LINE;

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
  /** Characters read from stdout so far: the whole listing is bounded (MAX_LISTING). */
  received = 0;
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(private readonly server: ServerProcess) {
    server.child.stdout.setEncoding('utf8');
    server.child.stdout.on('data', (chunk: string) => this.read(chunk));
    void server.exited.then(() => this.onclose?.());
  }

  private read(chunk: string): void {
    this.received += chunk.length;
    // The chunks of an unfinished line are kept apart and joined once its newline comes: searching
    // a string grown chunk by chunk copies it whole each time, quadratic in a long line.
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf('\n', start)) >= 0) {
      this.pending.push(chunk.slice(start, newline));
      const line = this.pending.join('').replace(/\r$/, '');
      this.pending = [];
      this.pendingLength = 0;
      start = newline + 1;
      if (line.trim()) this.deliver(line);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.slice(start));
      this.pendingLength += chunk.length - start;
    }
    if (this.pendingLength > MAX_LINE && !this.fatal) {
      this.pending = [];
      this.pendingLength = 0;
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

/**
 * A refusal of fetch's that no retry can change (a port it never uses, a certificate it rejects,
 * a scheme it does not speak), from the errors that say so.
 */
function permanentRefusal(chain: Record<string, unknown>[]): string | undefined {
  const tls = chain
    .map((e) => (typeof e.code === 'string' ? e.code : undefined))
    .find((code) => code !== undefined && /CERT|SSL|TLS|SELF_SIGNED|VERIFY/.test(code));
  if (tls) return `the TLS certificate was refused (${tls})`;
  const inner = chain.at(-1);
  const message = typeof inner?.message === 'string' ? inner.message : '';
  if (message === 'bad port') return 'fetch refuses to use that port ("bad port"); pick another';
  if (inner?.code === undefined && /scheme|not implemented/i.test(message))
    return `fetch cannot use that URL (${message})`;
  return undefined;
}

/**
 * Why fetch refuses a request in a way no retry can change, or undefined for a failure that can
 * pass: nothing listens yet, a reset, a timeout.
 */
function fetchRefusal(error: unknown): string | undefined {
  const chain = errorChain(error);
  if (chain.some((e) => e.name === 'TimeoutError' || e.name === 'AbortError')) return undefined;
  // fetch rejects what it cannot even send (a URL, a header) before any connection.
  if (chain[0]?.message !== 'fetch failed') {
    const message = chain.at(-1)?.message;
    return typeof message === 'string' && message ? message : 'fetch refused the request';
  }
  return permanentRefusal(chain);
}

/**
 * Whether `url` answers HTTP at all; any status counts: the server is up. A refusal that no
 * retry can change fails at once.
 */
async function answers(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return true;
  } catch (error) {
    const refusal = fetchRefusal(error);
    if (refusal === undefined) return false;
    throw new AuditError(
      `Cannot reach ${redactUrl(url)}: ${redactUrl(refusal)}.`,
      'Waiting cannot fix this: check the URL (its scheme, host and port).',
    );
  }
}

/**
 * Polls `url` until it answers, the start command fails, or `timeoutMs` passes. A start command
 * that exits with code 0 may have daemonised its server, so polling goes on.
 */
async function waitForUrl(
  url: string,
  server: ServerProcess,
  timeoutMs: number,
  redact: (text: string) => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let leftCleanly = false;
  // Short pauses first, so that a server which boots in 50 ms is not left waiting for 100.
  let pause = 10;
  for (;;) {
    if (server.failure) throw server.failure;
    if (server.hasExited && !leftCleanly) {
      if (server.failedExit) {
        await server.stderrRead(500);
        throw new AuditError(
          `The start command ${server.describeExit()} before ${redactUrl(url)} answered.`,
          'Run the start command by hand to see why it stops.',
          stderrDetails(server, [], redact),
        );
      }
      leftCleanly = true;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0)
      throw new AuditError(
        `${redactUrl(url)} did not answer within ${timeoutMs / 1000} s of starting the server${leftCleanly ? ' (the start command exited with code 0 meanwhile)' : ''}.`,
        'Check that the start command listens on that URL, or raise the start timeout (--start-timeout, or startTimeout in the config file).',
        stderrDetails(server, [], redact),
      );
    if (await answers(url, Math.min(1_000, remaining))) return;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(pause, Math.max(0, deadline - Date.now()))),
    );
    pause = Math.min(100, pause * 2);
  }
}

/** Server-written text for a terminal: control and invisible characters made visible, lines kept. */
function inert(text: string): string {
  return linesSafe(text, Infinity);
}

/** The last lines of `text`, each cut short, made inert. */
function lastLines(text: string, count: number): string {
  return text
    .split('\n')
    .slice(-count)
    .map((line) => inert(line.length > 300 ? `${line.slice(0, 300)}…` : line))
    .join('\n');
}

/** A stderr line that reads like the cause of a failure rather than usage text or progress. */
const CAUSE =
  /^\s*(?:\w*(?:Error|Exception)\b|error\b|fatal\b|panic\b|Traceback\b|Caused by\b|E\d{4}\b|\[?(?:ERROR|FATAL|CRITICAL)\]?\b)|\b(?:error|fatal|panic|exception|cannot|could not|failed|not found|no such file|permission denied|ENOENT|EADDRINUSE|ECONNREFUSED)\b/i;
/** The cause-like lines shown, at most, and the last lines always shown. */
const CAUSE_LINES = 5;
const TAIL_LINES = 12;

/**
 * A failed server's stderr for people: the first few lines that look like the cause (a CLI
 * framework prints its error and then the whole usage text), then the last lines, with a marker
 * wherever lines were left out.
 */
export function causeAndTail(text: string): string {
  const lines = text.split('\n');
  const cut = (line: string) => inert(line.length > 300 ? `${line.slice(0, 300)}…` : line);
  if (lines.length <= CAUSE_LINES + TAIL_LINES) return lines.map(cut).join('\n');
  const tailFrom = lines.length - TAIL_LINES;
  const causes: number[] = [];
  for (let i = 0; i < tailFrom && causes.length < CAUSE_LINES; i++)
    if (CAUSE.test(lines[i] as string)) causes.push(i);
  const out: string[] = [];
  let next = 0;
  for (const i of [...causes, ...Array.from({ length: TAIL_LINES }, (_, k) => tailFrom + k)]) {
    if (i > next) out.push(`[… ${plural(i - next, 'line')} left out …]`);
    out.push(cut(lines[i] as string));
    next = i + 1;
  }
  return out.join('\n');
}

/** The server's output for a message; `redact` runs before lines are cut, so no secret is split. */
function stderrDetails(
  server: ServerProcess | undefined,
  noise: string[] = [],
  redact: (text: string) => string = (text) => text,
): string | undefined {
  const parts: string[] = [];
  const text = server && redact(server.stderr.toString()).trim();
  if (text) parts.push(`Server stderr:\n${causeAndTail(text)}`);
  const stdout = server && redact(server.stdoutTail?.toString() ?? '').trim();
  if (stdout) parts.push(`Start command stdout (last lines):\n${lastLines(stdout, 10)}`);
  if (noise.length)
    parts.push(
      `Lines the server wrote to stdout that are not JSON-RPC messages (stdio servers must log to stderr):\n${noise
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
  }
  const refusal = permanentRefusal(chain);
  if (refusal) return refusal;
  if (chain.some((e) => e.message === 'fetch failed')) {
    const message = chain.at(-1)?.message;
    return typeof message === 'string' && message !== 'fetch failed'
      ? message
      : 'the request failed';
  }
  return undefined;
}

const STATUS_TEXT: Record<number, string> = {
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
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

type HttpTarget = Extract<ServerTarget, { kind: 'http' }>;

function handshakeOf(era: ProtocolEra): string {
  return era === 'modern' ? `server/discover, ${MODERN_REVISION}` : 'initialize';
}

/** "during the handshake (initialize)", "while listing tools": where a failure happened. */
function duringText(phase: 'start' | 'list', era: ProtocolEra): string {
  return phase === 'start'
    ? `during the handshake (${handshakeOf(era)})`
    : `while listing tools${era === 'modern' ? ` (${MODERN_REVISION} era)` : ''}`;
}

function sofarText(phase: 'start' | 'list', progress: Progress): string {
  return phase === 'start'
    ? 'before listing any tools'
    : `after ${plural(progress.pages, 'page')} and ${plural(progress.tools, 'tool')}`;
}

/** The most one HTTP response may hold: the same bound as a stdio line. */
const MAX_RESPONSE = MAX_LINE;

/** How long the SDK gets to hand on what an event stream held, once the stream has ended. */
const STREAM_SETTLE_MS = 100;

/** URLs inside a message (the SDK's, fetch's), each shown through redactUrl. */
// Sentence punctuation after a URL ("at http://h/mcp.") is left to the sentence.
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>`]*[^\s"'<>`.,;:)]/gi;

/**
 * Refuses, before anything is sent, an HTTP target fetch would refuse anyway: with the URL (and
 * a credential) in fetch's own words, which the audit must not print.
 */
function checkHttpTarget(target: HttpTarget): void {
  const shown = redactUrl(target.url);
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw new AuditError(
      `${shown} is not a valid URL.`,
      'Give the Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp.',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AuditError(
      `${shown} is not an http:// or https:// URL.`,
      'Give the Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp.',
    );
  if (url.username || url.password)
    throw new AuditError(
      `The URL ${shown} holds credentials (user:password@), which fetch refuses to send.`,
      'Take them out of the URL and pass them as a header instead: --header "Authorization: Basic <base64 of user:password>" (headers: in the config file, where ${NAME} reads an environment variable).',
    );
  for (const [name, value] of Object.entries(target.headers)) {
    try {
      new Headers([[name, 'x']]);
    } catch {
      throw new AuditError(
        `The header name ${JSON.stringify(inert(name))} is not a valid HTTP header name.`,
        'Use a name of letters, digits and dashes, e.g. Authorization.',
      );
    }
    try {
      new Headers([[name, value]]);
    } catch {
      throw new AuditError(
        `The value of the header ${name} cannot be sent: it holds a line break or another control character.`,
        'Check where the value comes from (a ${NAME} whose variable ends in a line break, a pasted token).',
      );
    }
  }
}

/** A request the listing awaits; settled once the SDK has resolved or rejected it. */
interface Awaited {
  settled: boolean;
}

/**
 * What an HTTP listing watches besides the SDK's own promises: the start command's exit, the
 * size of each response, and event streams that end without the answer, which the SDK reports
 * only through `onerror` (or not at all) while the request waits out its timeout. Each fails the
 * request awaited at the time, at once. What it says is redacted.
 */
class HttpWatch {
  phase: 'start' | 'list' = 'start';
  /** Set once the listing is over: the stop of the start command that follows is no failure. */
  done = false;
  failure: AuditError | undefined;
  /** The start command exited with an error code or a signal after its URL answered. */
  startFailed = false;
  /** The start command's URL has answered: from now on its exit is watched. */
  watchingExit = false;
  /** Bytes of response bodies read so far: the whole listing is bounded (MAX_LISTING). */
  received = 0;
  readonly what: string;
  private readonly secrets: string[];
  private readonly failed: Promise<never>;
  private reject: (error: AuditError) => void = () => undefined;
  private awaited: Awaited | undefined;
  private reconnections = 0;
  /** POSTs sent so far: one sent after a stream's own means the SDK has moved on from it. */
  private posts = 0;
  private sdkErrors = 0;
  private lastSdkError: unknown;

  constructor(
    private readonly target: HttpTarget,
    private readonly era: ProtocolEra,
    private readonly progress: Progress,
  ) {
    this.secrets = secretsOf(target.url, target.headers);
    this.what = `The MCP endpoint ${redactUrl(target.url)}`;
    this.failed = new Promise<never>((_, reject) => {
      this.reject = reject;
    });
    // Nobody may be racing it when it fails (between two requests, after the listing).
    this.failed.catch(() => undefined);
  }

  /** `text` with URLs shown through redactUrl and every secret of the target replaced. */
  readonly redact = (text: string): string =>
    redactText(
      text.replace(URL_IN_TEXT, (url) => redactUrl(url)),
      this.secrets,
    );

  /**
   * What the server sent, with the target's secrets replaced wherever they appear (a server that
   * echoes its Authorization header into a title would put it in reports and PR comments).
   */
  redactListing(listing: Listing): void {
    if (!this.secrets.length) return;
    // Past the depth a tool may have, a value is left as it is: that tool is malformed, never shown.
    const scrub = (value: unknown, depth = 0): unknown => {
      if (typeof value === 'string') return redactText(value, this.secrets);
      if (depth > MAX_SCHEMA_DEPTH + 2) return value;
      if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
      if (value && typeof value === 'object')
        return Object.fromEntries(
          Object.entries(value).map(([k, v]) => [scrub(k), scrub(v, depth + 1)]),
        );
      return value;
    };
    listing.rawTools = listing.rawTools.map((tool) => scrub(tool));
    if (listing.serverInfo) listing.serverInfo = scrub(listing.serverInfo) as Listing['serverInfo'];
  }

  redacted(error: AuditError): AuditError {
    return new AuditError(
      this.redact(error.message),
      error.hint === undefined ? undefined : this.redact(error.hint),
      error.details === undefined ? undefined : this.redact(error.details),
    );
  }

  private get during(): string {
    return duringText(this.phase, this.era);
  }

  private get sofar(): string {
    return sofarText(this.phase, this.progress);
  }

  private fail(error: AuditError): void {
    if (this.done || this.failure) return;
    this.failure = this.redacted(error);
    this.reject(this.failure);
  }

  /** `promise`, failed early by whatever this watch sees first. */
  readonly race = <T>(promise: Promise<T>): Promise<T> => {
    const awaited: Awaited = { settled: false };
    this.awaited = awaited;
    const settle = (): void => {
      awaited.settled = true;
    };
    promise.then(settle, settle);
    return Promise.race([promise, this.failed]);
  };

  /** The transport's `onerror`: the SDK's word on a stream it could not read. */
  readonly onerror = (error: unknown): void => {
    this.sdkErrors += 1;
    this.lastSdkError = error;
  };

  /** As the SDK's default, counted: a stream it will resume is not a stream that ended. */
  readonly reconnectionScheduler = (reconnect: () => void, delay: number): (() => void) => {
    this.reconnections += 1;
    const timer = setTimeout(reconnect, delay);
    return () => clearTimeout(timer);
  };

  /**
   * fetch for the SDK's transport: each response body is counted as it streams and cut off past
   * MAX_RESPONSE, and the end of the event stream a request was answered on is watched.
   */
  readonly fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const awaited = this.awaited;
    const sdkErrors = this.sdkErrors;
    const post = init?.method === 'POST' ? ++this.posts : undefined;
    const response = await fetch(url, init);
    if (Number(response.headers.get('content-length') ?? 0) > MAX_RESPONSE) {
      void response.body?.cancel().catch(() => undefined);
      throw this.tooLarge();
    }
    // fetch gives no body for a status that may not have one (204, 304): nothing to count.
    if (!response.body) return response;
    const events =
      post !== undefined &&
      /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const ended = (): void => {
      if (events) this.streamEnded(awaited, post, sdkErrors);
    };
    const reader = response.body.getReader();
    let bytes = 0;
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        let chunk;
        try {
          chunk = await reader.read();
        } catch (error) {
          ended();
          controller.error(error);
          return;
        }
        if (chunk.done) {
          ended();
          controller.close();
          return;
        }
        const bytesRead = chunk.value as Uint8Array;
        bytes += bytesRead.byteLength;
        this.received += bytesRead.byteLength;
        if (bytes > MAX_RESPONSE) {
          const error = this.tooLarge();
          reader.cancel(error).catch(() => undefined);
          controller.error(error);
          return;
        }
        controller.enqueue(bytesRead);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  private tooLarge(): AuditError {
    const error = new AuditError(
      `${this.what} sent a response of more than ${MAX_RESPONSE / 1024 / 1024} MiB ${this.during}, ${this.sofar}; the audit stopped reading it.`,
      'A page of tools is far smaller than that: check what the endpoint sends (a server with that many tools should page them with nextCursor).',
    );
    this.fail(error);
    return this.failure ?? error;
  }

  /**
   * The event stream a request was sent on (POST number `post`) has ended or broken. Once the
   * SDK has had time to hand on what it held, a request still unanswered, with no reconnection
   * under way and nothing sent since (the handshake's next step), never will be.
   */
  private streamEnded(awaited: Awaited | undefined, post: number, sdkErrorsBefore: number): void {
    if (!awaited || this.done) return;
    const reconnections = this.reconnections;
    setTimeout(() => {
      if (awaited.settled || this.reconnections !== reconnections || this.posts !== post) return;
      const said =
        this.sdkErrors > sdkErrorsBefore
          ? inert(this.redact(getErrorMessage(this.lastSdkError)))
          : undefined;
      this.fail(
        new AuditError(
          `${this.what} ended its event stream ${this.during} without sending the answer (${this.sofar})${said ? `; the MCP SDK reported: ${said.length > 300 ? `${said.slice(0, 300)}…` : said}` : ''}${said && /[.!?]$/.test(said) ? '' : '.'}`,
          'Each event must carry one JSON-RPC message as JSON in its data: lines, and the stream must carry the answer before it ends; check the server and its logs.',
        ),
      );
    }, STREAM_SETTLE_MS).unref();
  }

  /** Fails the listing if the start command exits with an error, even while something answers. */
  watchExit(server: ServerProcess): void {
    this.watchingExit = true;
    void server.exited.then(async () => {
      // A wrapper that daemonised its server leaves with 0.
      if (!server.failedExit || this.done) return;
      this.startFailed = true;
      await server.stderrRead(500);
      this.fail(this.exitFailure(server));
    });
  }

  exitFailure(server: ServerProcess): AuditError {
    return this.redacted(
      new AuditError(
        `The start command ${server.describeExit()} ${this.during}, ${this.sofar}; the audit does not list the tools of whatever still answers at ${redactUrl(this.target.url)}.`,
        'Run the start command by hand to see why it stops.',
        stderrDetails(server, [], this.redact),
      ),
    );
  }
}

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
  redact: (text: string) => string = (text) => text,
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
  const details = stderrDetails(server, noise, redact);
  const handshake = handshakeOf(era);
  const during = duringText(phase, era);
  const sofar = sofarText(phase, progress);
  const what = target.kind === 'http' ? `The MCP endpoint ${redactUrl(target.url)}` : 'The server';
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
      // The SDK's own advice on a redirect it did not follow names where to point the audit.
      const redirect = chain
        .map((e) =>
          typeof e.message === 'string'
            ? /Redirect\b[^\n]*\bnot followed\b[^\n]*/.exec(e.message)?.[0]
            : undefined,
        )
        .find((text) => text !== undefined);
      if (redirect)
        return new AuditError(
          `${what} answered HTTP ${status}${statusText ? ` (${statusText})` : ''} ${during}: ${inert(redact(redirect.replace(/\s*\(redirectPolicy:[^)]*\)/, ''))).replace(/\.?$/, '.')}`,
          'The audit follows a redirect only within the same origin (scheme, host and port); give the URL it points to with --url (url: in the config file) if that is the server to audit.',
          details,
        );
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
            ? `Response body (start):\n${inert(redact(body.trim()).slice(0, 500))}`
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
        `${what} answered ${during} with ${contentType ? inert(redact(contentType.split(';')[0] ?? contentType)) : 'something'} instead of MCP (JSON or an event stream).`,
        'Check that the URL is the MCP endpoint itself (often ending in /mcp), not a web page or a login page.',
        details,
      );
    const network = networkFailure(chain);
    if (network)
      return new AuditError(
        `Could not reach the MCP endpoint ${redactUrl(target.url)} ${during}: ${redact(network)}.`,
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
    `${what} failed ${during}: ${inert(redact(message)).replace(/\.$/, '')}.`,
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
 * Refuses to start a server on a URL that something already serves: the audit would list that
 * instead, and the start command would fail on a busy port.
 */
async function refuseIfServed(url: string): Promise<void> {
  if (await answers(url, 1_000))
    throw new AuditError(
      `Something already answers at ${redactUrl(url)} before the start command has run, so the audit would list its tools instead of those of the server the start command starts.`,
      'Stop what serves that URL (a server left running, another server of the config file on the same port), or drop start (--start) to audit the server that is running there.',
    );
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
  let server =
    target.kind === 'stdio'
      ? (claimPrestarted(target.spawn) ?? new ServerProcess(target.spawn))
      : undefined;
  let phase: 'start' | 'list' = 'start';
  const progress: Progress = { pages: 0, tools: 0 };
  let processTransport: ProcessTransport | undefined;
  let watch: HttpWatch | undefined;
  let client: import('@modelcontextprotocol/client').Client | undefined;
  try {
    let sdk: typeof import('./sdk.js');
    if (target.kind === 'stdio') sdk = await import('./sdk.js');
    else {
      watch = new HttpWatch(target, era, progress);
      checkHttpTarget(target);
      const loading = import('./sdk.js');
      loading.catch(() => undefined);
      // Launched only once nothing else answers there, so that what answers next is its server.
      if (target.start) {
        await refuseIfServed(target.url);
        server = new ServerProcess(target.start);
        server.readStdout();
      }
      sdk = await loading;
    }
    if (server?.failure) throw server.failure;
    let transport: Transport;
    if (target.kind === 'stdio') {
      processTransport = new ProcessTransport(server as ServerProcess);
      transport = processTransport;
    } else {
      const http = watch as HttpWatch;
      if (server) await waitForUrl(target.url, server, limits.startTimeoutMs, http.redact);
      transport = new sdk.StreamableHTTPClientTransport(new URL(target.url), {
        requestInit: { headers: target.headers },
        fetch: http.fetch,
        reconnectionScheduler: http.reconnectionScheduler,
      });
      // Set before connecting: the SDK keeps it, and its version probe reports through it only.
      transport.onerror = http.onerror;
      if (server) http.watchExit(server);
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
    // A stdio server that exits ends the listing at once. An HTTP start command may exit with 0
    // once the server it launched is up (a daemonising wrapper); any other exit is watched.
    const exited =
      target.kind === 'stdio'
        ? server?.exited.then(() => {
            throw new Error('server exited');
          })
        : undefined;
    // Keep a rejection nobody awaits (a listing that already finished) from going unhandled.
    exited?.catch(() => undefined);
    const race =
      watch?.race ??
      (<T>(promise: Promise<T>): Promise<T> =>
        exited ? Promise.race([promise, exited]) : promise);
    await race(client.connect(transport, { timeout: limits.startTimeoutMs }));
    phase = 'list';
    if (watch) watch.phase = phase;
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
      // Counted before they are kept, one by one: a spread of a page of 130,000 tools overflows
      // the stack.
      const total = listing.rawTools.length + page.tools.length;
      progress.pages = listing.pages;
      progress.tools = total;
      if (total > limits.maxTools)
        throw new AuditError(
          `The server listed more than ${limits.maxTools} tools: the listing was stopped after ${plural(listing.pages, 'page')} and ${plural(total, 'tool')}.`,
          'Raise --max-tools (maxTools in the config file) if the server really has that many.',
        );
      for (const tool of page.tools) listing.rawTools.push(tool);
      const received = processTransport?.received ?? watch?.received ?? 0;
      if (received > MAX_LISTING)
        throw new AuditError(
          `The server sent more than ${MAX_LISTING / 1024 / 1024} MiB of tool listings: the listing was stopped after ${plural(listing.pages, 'page')} and ${plural(total, 'tool')}.`,
          'Check what the server puts in its tools (a description is a few sentences; the audit keeps the first 4,000 characters of one).',
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
    // The start command's failure may have come just before the last answer.
    if (watch?.startFailed && server) {
      await server.stderrRead(500);
      throw watch.exitFailure(server);
    }
    watch?.redactListing(listing);
    // Closing the SDK client can wait on a stubborn server; we end the process ourselves below.
    return listing;
  } catch (error) {
    if (processTransport?.fatal) throw labelled(processTransport.fatal, target);
    if (!watch)
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
    // A start command that died takes the endpoint with it: its exit is the news, not the
    // refused connection that comes first.
    if (server && watch.watchingExit && !watch.failure && !(error instanceof AuditError)) {
      if (!server.hasExited && networkFailure(errorChain(error))) await server.waitForExit(500);
      if (server.failedExit) {
        await server.stderrRead(500);
        throw labelled(watch.exitFailure(server), target);
      }
    }
    const failure =
      watch.failure ??
      (await explain(error, phase, target, era, server, limits, progress, [], watch.redact));
    throw labelled(watch.redacted(failure), target);
  } finally {
    // Closing the SDK client clears its timers; it can wait on a stubborn server, so it is not
    // awaited: we end the process ourselves.
    void client?.close().catch(() => undefined);
    if (watch) watch.done = true;
    // A stdio server shuts down while the audit goes on with the listing; see stopsSettled().
    // An HTTP start command is gone before this returns: the next may serve the same URL.
    if (server) {
      if (target.kind === 'stdio') stopInBackground(server);
      else await server.stop();
    }
  }
}
