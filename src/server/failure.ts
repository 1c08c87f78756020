// Why a listing failed: what the SDK, fetch or the process threw is classified once into a
// Failure, and each kind of Failure is described from one table.
import { AuditError, getErrorMessage } from '../errors.js';
import { redactUrl } from '../redact.js';
import {
  duringText,
  handshakeOf,
  MODERN_REVISION,
  sofarText,
  type HttpTarget,
  type ListLimits,
  type Progress,
  type ProtocolEra,
  type Sdk,
  type ServerTarget,
} from './connection.js';
import { inert, stderrDetails } from './output.js';
import type { ServerProcess } from './process.js';

/** What a stdio listing is failed with when the server exits: its exit is the news. */
export class ServerExited extends Error {
  constructor() {
    super('server exited');
  }
}

/** Older SDKs' JSON-RPC code for a request timeout, which servers built on them still send. */
const LEGACY_REQUEST_TIMEOUT = -32001;
/** Node's codes for a write to a pipe the server has closed. */
const CLOSED_PIPE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

export type Failure =
  | { kind: 'exited' }
  | { kind: 'timeout' }
  | { kind: 'redirect'; status: number; statusText: string; advice: string }
  | { kind: 'status'; status: number; statusText: string; body: string | undefined }
  | { kind: 'not-mcp'; contentType: string | undefined }
  | { kind: 'unreachable'; target: HttpTarget; reason: string }
  | { kind: 'unsupported-version'; supported: string[]; requested: string }
  | { kind: 'no-modern-era' }
  | { kind: 'other'; message: string };

/** What a failure is described with. */
export interface FailureContext {
  target: ServerTarget;
  era: ProtocolEra;
  progress: Progress;
  limits: ListLimits;
  server: ServerProcess | undefined;
  noise: string[];
  redact: (text: string) => string;
}

type SdkCodes = Pick<Sdk, 'SdkErrorCode' | 'ProtocolErrorCode'>;
type Chain = Record<string, unknown>[];

/** The error, its causes, and the causes the SDK tucks into `data.cause`. */
function errorChain(error: unknown): Chain {
  const chain: Chain = [];
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

/**
 * A refusal of fetch's that no retry can change (a port it never uses, a certificate it rejects,
 * a scheme it does not speak), from the errors that say so.
 */
function permanentRefusal(chain: Chain): string | undefined {
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
export function fetchRefusal(error: unknown): string | undefined {
  const chain = errorChain(error);
  if (chain.some((e) => e.name === 'TimeoutError' || e.name === 'AbortError')) return undefined;
  // fetch rejects what it cannot even send (a URL, a header) before any connection.
  if (chain[0]?.message !== 'fetch failed') {
    const message = chain.at(-1)?.message;
    return typeof message === 'string' && message ? message : 'fetch refused the request';
  }
  return permanentRefusal(chain);
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
function networkFailure(chain: Chain): string | undefined {
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

/** Whether the error is a connection that failed (refused, reset, unresolved). */
export function isNetworkFailure(error: unknown): boolean {
  return networkFailure(errorChain(error)) !== undefined;
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

/** The failures only an HTTP endpoint has: a status, a content type, an unreachable host. */
function classifyHttp(chain: Chain, message: string, target: HttpTarget): Failure | undefined {
  const withStatus = chain.find(
    (e) => typeof e.status === 'number' || typeof dataOf(e).status === 'number',
  );
  if (withStatus) {
    const data = dataOf(withStatus);
    const status = (withStatus.status ?? data.status) as number;
    const statusText = (data.statusText as string | undefined) || STATUS_TEXT[status] || '';
    // The SDK's own advice on a redirect it did not follow names where to point the audit.
    const advice = chain
      .map((e) =>
        typeof e.message === 'string'
          ? /Redirect\b[^\n]*\bnot followed\b[^\n]*/.exec(e.message)?.[0]
          : undefined,
      )
      .find((text) => text !== undefined);
    if (advice) return { kind: 'redirect', status, statusText, advice };
    const body = typeof data.text === 'string' ? data.text : undefined;
    return { kind: 'status', status, statusText, body };
  }
  const contentType = chain
    .map((e) => dataOf(e).contentType)
    .find((t): t is string => typeof t === 'string');
  if (contentType !== undefined || /Unexpected content type/i.test(message))
    return { kind: 'not-mcp', contentType };
  const reason = networkFailure(chain);
  return reason === undefined ? undefined : { kind: 'unreachable', target, reason };
}

/** What was thrown, as the one kind of failure it is. */
export function classifyFailure(error: unknown, context: FailureContext, codes: SdkCodes): Failure {
  const chain = errorChain(error);
  const { target, server } = context;
  if (target.kind === 'stdio' && server?.hasExited) return { kind: 'exited' };
  const timeouts: unknown[] = [codes.SdkErrorCode.RequestTimeout, LEGACY_REQUEST_TIMEOUT];
  if (chain.some((e) => timeouts.includes(e.code) || e.name === 'TimeoutError'))
    return { kind: 'timeout' };
  const http =
    target.kind === 'http' ? classifyHttp(chain, getErrorMessage(error), target) : undefined;
  if (http) return http;
  const unsupported = chain.find(
    (e) =>
      e.code === codes.ProtocolErrorCode.UnsupportedProtocolVersion &&
      Array.isArray(dataOf(e).supported),
  );
  if (unsupported) {
    const data = dataOf(unsupported);
    const supported = (data.supported as unknown[]).map(String);
    return { kind: 'unsupported-version', supported, requested: String(data.requested) };
  }
  if (
    context.era === 'modern' &&
    chain.some((e) => e.code === codes.SdkErrorCode.EraNegotiationFailed)
  )
    return { kind: 'no-modern-era' };
  return { kind: 'other', message: getErrorMessage(error) };
}

/** The words every description uses. */
interface Words extends FailureContext {
  what: string;
  during: string;
  sofar: string;
  details: string | undefined;
}

function statusLine(failure: { status: number; statusText: string }): string {
  return `HTTP ${failure.status}${failure.statusText ? ` (${failure.statusText})` : ''}`;
}

function statusHint(status: number): string {
  if (status === 401 || status === 403)
    return 'The server wants credentials: pass them with --header "Authorization: Bearer ..." (or headers in the config file, where ${NAME} reads an environment variable).';
  if (status === 404) return 'Check the URL path: Streamable HTTP endpoints are often at /mcp.';
  return 'Check the URL and that the server is healthy.';
}

function timeoutError(w: Words): AuditError {
  const start = w.progress.phase === 'start';
  const seconds = (start ? w.limits.startTimeoutMs : w.limits.listTimeoutMs) / 1000;
  const hint = !start
    ? 'Raise --list-timeout (listTimeout in the config file) if it is just slow.'
    : w.target.kind === 'stdio'
      ? 'Check that it speaks MCP over stdio (JSON-RPC lines on stdout, logs on stderr), or raise --start-timeout (startTimeout in the config file).'
      : 'Check that the URL is an MCP endpoint, or raise --start-timeout (startTimeout in the config file).';
  return new AuditError(
    start
      ? `${w.what} did not answer the handshake (${handshakeOf(w.era)}) within ${seconds} s.`
      : `${w.what} did not finish listing its tools within ${seconds} s (${w.sofar}).`,
    hint,
    w.details,
  );
}

function unsupportedError(
  f: Extract<Failure, { kind: 'unsupported-version' }>,
  w: Words,
): AuditError {
  const { supported } = f;
  const onlyModern = supported.length > 0 && supported.every((v) => v >= MODERN_REVISION);
  return new AuditError(
    onlyModern
      ? `${w.what} only speaks the ${MODERN_REVISION} protocol era${supported.length > 1 ? ` (it supports ${supported.join(', ')})` : ''} and refused the legacy handshake (initialize).`
      : `${w.what} refused protocol version ${f.requested} ${w.during}; it supports ${supported.join(', ') || 'no version we know'}.`,
    onlyModern
      ? 'Audit it with --protocol-era modern (the protocol-era input), or with protocolEra: modern on its entry in the config file when the run is given no era (an era given to the run is audited for every server).'
      : undefined,
    w.details,
  );
}

type Describers = {
  [K in Failure['kind']]: (failure: Extract<Failure, { kind: K }>, words: Words) => AuditError;
};

const DESCRIBE: Describers = {
  exited: (_, w) =>
    new AuditError(
      `The server ${w.server?.describeExit()} ${w.during}, ${w.sofar}.`,
      `Run the server command by hand to see why it exits${w.details ? '; what it printed is below' : ''}.`,
      w.details,
    ),
  timeout: (_, w) => timeoutError(w),
  redirect: (f, w) =>
    new AuditError(
      `${w.what} answered ${statusLine(f)} ${w.during}: ${inert(w.redact(f.advice.replace(/\s*\(redirectPolicy:[^)]*\)/, ''))).replace(/\.?$/, '.')}`,
      'The audit follows a redirect only within the same origin (scheme, host and port); give the URL it points to with --url (url: in the config file) if that is the server to audit.',
      w.details,
    ),
  status: (f, w) =>
    new AuditError(
      `${w.what} answered ${statusLine(f)} ${w.during}.`,
      statusHint(f.status),
      [
        f.body?.trim()
          ? `Response body (start):\n${inert(w.redact(f.body.trim()).slice(0, 500))}`
          : '',
        w.details ?? '',
      ]
        .filter(Boolean)
        .join('\n') || undefined,
    ),
  'not-mcp': (f, w) =>
    new AuditError(
      `${w.what} answered ${w.during} with ${f.contentType ? inert(w.redact(f.contentType.split(';')[0] ?? f.contentType)) : 'something'} instead of MCP (JSON or an event stream).`,
      'Check that the URL is the MCP endpoint itself (often ending in /mcp), not a web page or a login page.',
      w.details,
    ),
  unreachable: (f, w) =>
    new AuditError(
      `Could not reach the MCP endpoint ${redactUrl(f.target.url)} ${w.during}: ${w.redact(f.reason)}.`,
      f.target.start
        ? `Check that the start command serves that URL${w.server?.hasExited ? ` (it ${w.server.describeExit()})` : ''}.`
        : 'Check that the server is running and the URL is right; to have the audit start it first, give --start "<command line>" (start: in the config file).',
      w.details,
    ),
  'unsupported-version': unsupportedError,
  'no-modern-era': (_, w) =>
    new AuditError(
      `${w.what} does not speak the ${MODERN_REVISION} protocol era: it did not answer server/discover with that version.`,
      'Audit it with --protocol-era legacy (the default; the protocol-era input), or with protocolEra: legacy on its entry in the config file when the run is given no era (an era given to the run is audited for every server); or update its MCP SDK to one that supports 2026-07-28.',
      w.details,
    ),
  other: (f, w) =>
    new AuditError(
      `${w.what} failed ${w.during}: ${inert(w.redact(f.message)).replace(/\.$/, '')}.`,
      undefined,
      w.details,
    ),
};

/** The failure, described for a person: what happened, where, and what to do. */
export function describeFailure(failure: Failure, context: FailureContext): AuditError {
  const { target, server, noise, redact, progress, era } = context;
  const words: Words = {
    ...context,
    what: target.kind === 'http' ? `The MCP endpoint ${redactUrl(target.url)}` : 'The server',
    during: duringText(progress, era),
    sofar: sofarText(progress),
    details: stderrDetails(server, noise, redact),
  };
  const describe = DESCRIBE[failure.kind] as (failure: Failure, words: Words) => AuditError;
  return describe(failure, words);
}

/** Turns what the SDK or the process threw into one error a person can act on. */
export async function explainFailure(error: unknown, context: FailureContext): Promise<AuditError> {
  if (error instanceof AuditError) return error;
  // Loaded by now: the SDK is imported as soon as the server has been started.
  const codes = await import('./sdk.js');
  const { server } = context;
  // A broken pipe or a closed connection usually means the process is exiting: let it finish,
  // so the message can say how it ended.
  const closing = errorChain(error).some(
    (e) =>
      CLOSED_PIPE.has(e.code as string) ||
      e.code === codes.SdkErrorCode.ConnectionClosed ||
      e instanceof ServerExited,
  );
  if (context.target.kind === 'stdio' && server && !server.hasExited && closing)
    await server.waitForExit(1_000);
  if (server?.failure) return server.failure;
  if (server?.hasExited) await server.stderrRead(500);
  return describeFailure(classifyFailure(error, context, codes), context);
}
