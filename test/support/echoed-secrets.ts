// A server started with secrets in its arguments and environment that echoes them all back
// (test/fixtures/servers/echo-secrets.mjs), and what no sink may then hold.
import { join } from 'node:path';
import { SERVERS } from './cli.js';

export const ECHO_SECRETS = join(SERVERS, 'echo-secrets.mjs');

export const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

/** Arguments of the 22.7 shapes: each value in them is hidden, so each is a secret. */
export const SECRET_ARGS = [
  '--header',
  'Authorization: Bearer tok_live_Zq81mXp',
  'https://api.example.com/v1/k3yInPath9Zq/mcp',
  '--root',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  '--config',
  JWT,
];

/** Given as `API_KEY=…` (a plain-looking value: every env value is a secret, whatever its shape). */
export const GIVEN_VALUE = 'plain-looking-value';
/** Passed through by name from the auditor's environment; JSON and URL encodings differ from it. */
export const PASSED_VALUE = 'pa"ss wörd/42';
/** From a config file's `env:`. */
export const CONFIG_VALUE = 'svc_Zq81mXp4Lk';

/** The auditor's environment for these runs: the variable passed through by name. */
export function auditorEnv(): NodeJS.ProcessEnv {
  return { ...process.env, DB_PASSWORD: PASSED_VALUE };
}

/** Every secret, as given and as the server echoes it (JSON-escaped, URL-encoded). */
const FORBIDDEN = [
  ...[
    'Authorization: Bearer tok_live_Zq81mXp',
    'tok_live_Zq81mXp',
    'k3yInPath9Zq',
    'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    JWT,
    GIVEN_VALUE,
    PASSED_VALUE,
    CONFIG_VALUE,
  ].flatMap((v) => [v, JSON.stringify(v).slice(1, -1), encodeURIComponent(v)]),
];

/** The forms of a secret that `text` holds: none, or what leaked. */
export function leaks(text: string): string[] {
  return [...new Set(FORBIDDEN.filter((secret) => text.includes(secret)))];
}

/** The credential of a Basic header: a user too short to be masked, and a key. */
export const BASIC_USER = 'bob';
export const BASIC_KEY = 'Zq8LmN4pRt7sWx2y';
/** A key whose `/` and `+` every encoding writes differently (JSON `\/`, `%2f`, `&#43;`). */
export const SLASHED_KEY = 'Ab/cd+ef/ZZ99yy';

/**
 * What the fixture echoes of `value` in its other encodings (a Basic credential of `user` and
 * the value, hex, upper case, JSON with `\/`, `%2f`, Go's `&#43;`): the base64 less its first
 * and last characters, which encode the user and the padding too.
 */
export function encodedEchoes(value: string, user: string): string[] {
  const basic = Buffer.from(`${user}:${value}`).toString('base64');
  const lead = Math.ceil(((user.length + 1) * 8) / 6);
  const hex = Buffer.from(value).toString('hex');
  return [
    basic.slice(lead, -4),
    hex,
    hex.toUpperCase(),
    value.toUpperCase(),
    value.replace(/\//g, '\\/'),
    encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    value.replace(/\+/g, '&#43;'),
  ];
}
