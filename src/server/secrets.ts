// The secrets of a server to audit (what the user gave to start or reach it), and what the
// connections redact with them: what the server sent, echoed or failed with.
import { MAX_SCHEMA_DEPTH } from '../core/tools.js';
import { AuditError } from '../errors.js';
import { mergeSecrets, redactArgs, redactText, secretsOf, secretsOfEnv } from '../redact.js';
import type { Listing, ServerTarget } from './connection.js';
import { BASE_ENV, type SpawnSpec } from './process.js';

/**
 * The secrets of a process the audit starts: each word of its command line that is not shown,
 * the working directory when it is not shown either, and every value of its environment the
 * user gave. The base variables (PATH, HOME...) with the auditor's own values are not the user's.
 */
export function secretsOfSpawn(spec: SpawnSpec, from: NodeJS.ProcessEnv = process.env): string[] {
  const base = new Set(BASE_ENV);
  const cwd = spec.cwd !== undefined ? redactArgs([spec.cwd]).secrets : [];
  return mergeSecrets(
    redactArgs([spec.command, ...spec.args]).secrets,
    cwd,
    secretsOfEnv(spec.env, (name, value) => base.has(name) && from[name] === value),
  );
}

/**
 * The secrets of a server's target: for stdio, its process's; for HTTP, its URL's hidden parts
 * and its header values, and its start command's.
 */
export function secretsOfTarget(target: ServerTarget): string[] {
  if (target.kind === 'stdio') return secretsOfSpawn(target.spawn);
  return mergeSecrets(
    secretsOf(target.url, target.headers),
    target.start ? secretsOfSpawn(target.start) : [],
  );
}

/**
 * What the server sent, with its secrets replaced wherever they appear: a server that echoes
 * its Authorization header or its API key into a title would put it in reports and PR comments.
 */
export function redactListing(listing: Listing, secrets: readonly string[]): Listing {
  if (!secrets.length) return listing;
  // Past the depth a tool may have, a value is left as it is: that tool is malformed, never shown.
  const scrub = (value: unknown, depth = 0): unknown => {
    if (typeof value === 'string') return redactText(value, secrets);
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
  listing.stdoutNoise = listing.stdoutNoise.map((line) => redactText(line, secrets));
  return listing;
}

/** The error with `redact` applied to its message, hint and details. */
export function redactError(error: AuditError, redact: (text: string) => string): AuditError {
  return new AuditError(
    redact(error.message),
    error.hint === undefined ? undefined : redact(error.hint),
    error.details === undefined ? undefined : redact(error.details),
  );
}
