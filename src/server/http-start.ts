// Before an HTTP listing: a target fetch would refuse is refused with our own words, and a start
// command is launched only on a free URL and waited on until that URL answers.
import { AuditError } from '../errors.js';
import { redactUrl } from '../redact.js';
import type { HttpTarget, ServerTarget } from './connection.js';
import { fetchRefusal } from './failure.js';
import { inert, stderrDetails } from './output.js';
import type { ServerProcess } from './process.js';

const ENDPOINT_EXAMPLE = 'Give the Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp.';

/**
 * Refuses, before anything is sent, an HTTP target fetch would refuse anyway: with the URL (and
 * a credential) in fetch's own words, which the audit must not print.
 */
export function checkHttpTarget(target: HttpTarget): void {
  const shown = redactUrl(target.url);
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw new AuditError(`${shown} is not a valid URL.`, ENDPOINT_EXAMPLE);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AuditError(`${shown} is not an http:// or https:// URL.`, ENDPOINT_EXAMPLE);
  if (url.username || url.password)
    throw new AuditError(
      `The URL ${shown} holds credentials (user:password@), which fetch refuses to send.`,
      'Take them out of the URL and pass them as a header instead: --header "Authorization: Basic <base64 of user:password>" (headers: in the config file, where ${NAME} reads an environment variable).',
    );
  for (const [name, value] of Object.entries(target.headers)) checkHeader(name, value);
}

function checkHeader(name: string, value: string): void {
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
 * Refuses to start a server on a URL that something already serves: the audit would list that
 * instead, and the start command would fail on a busy port.
 */
export async function refuseIfServed(url: string): Promise<void> {
  if (await answers(url, 1_000))
    throw new AuditError(
      `Something already answers at ${redactUrl(url)} before the start command has run, so the audit would list its tools instead of those of the server the start command starts.`,
      'Stop what serves that URL (a server left running, another server of the config file on the same port), or drop start (--start) to audit the server that is running there.',
    );
}

/**
 * Polls `url` until it answers, the start command fails, or `timeoutMs` passes. A start command
 * that exits with code 0 may have daemonised its server, so polling goes on.
 */
export async function waitForUrl(
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

/** Names this machine reaches itself by: a server listening on one port answers on all of them. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1?\]|0\.0\.0\.0)$/i;

/**
 * The host and port an HTTP target's start command would listen on (loopback names as one host),
 * or undefined when the audit starts nothing for it. Two targets with the same key must not be
 * started at once: the second would find the first one's server answering, or its port busy.
 */
export function startPortKey(target: ServerTarget): string | undefined {
  if (target.kind !== 'http' || !target.start) return undefined;
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    // Refused with its own message once its turn comes.
    return undefined;
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = LOOPBACK.test(url.hostname) ? 'loopback' : url.hostname.toLowerCase();
  return `${host}:${port}`;
}
