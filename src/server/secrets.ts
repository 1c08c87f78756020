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
  const scrub = (value: unknown): unknown => scrubbed(value, (text) => redactText(text, secrets));
  listing.rawTools = listing.rawTools.map(scrub);
  if (listing.serverInfo) listing.serverInfo = scrub(listing.serverInfo) as Listing['serverInfo'];
  listing.stdoutNoise = listing.stdoutNoise.map((line) => redactText(line, secrets));
  return listing;
}

/**
 * `value` with `redact` applied to every string in it, keys too. A value nothing changes in is
 * returned as it is, not copied: at 10,000 tools a copy of each was most of redaction's cost,
 * though a server rarely echoes a secret. Past the depth a tool may have, a value is left as
 * it is: that tool is malformed, never shown.
 */
function scrubbed(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth > MAX_SCHEMA_DEPTH + 2 || !value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = scrubbed(item, redact, depth + 1);
      if (next !== item) (copy ??= [...(value as unknown[])])[i] = next;
    }
    return copy ?? value;
  }
  // The entries are copied only from the first one that changes: most objects keep every one,
  // and are read key by key (no list of entries is made for them).
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let next: [string, unknown][] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = record[key];
    const k = redact(key);
    const v = scrubbed(item, redact, depth + 1);
    if (next === undefined && (k !== key || v !== item))
      next = keys.slice(0, i).map((kept) => [kept, record[kept]]);
    next?.push([k, v]);
  }
  return next ? Object.fromEntries(next) : value;
}

/** The error with `redact` applied to its message, hint and details. */
export function redactError(error: AuditError, redact: (text: string) => string): AuditError {
  return new AuditError(
    redact(error.message),
    error.hint === undefined ? undefined : redact(error.hint),
    error.details === undefined ? undefined : redact(error.details),
  );
}
