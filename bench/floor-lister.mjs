#!/usr/bin/env node
// The benchmark's floor: the least work one audit of a stdio MCP server can do.
//   node bench/floor-lister.mjs <server command> [args...]
// Spawns the server, sends initialize, waits for its answer, sends notifications/initialized
// and then every tools/list page (one request at a time, following nextCursor), counts the
// tools, closes the server's stdin and waits for the server to exit, then prints the count
// and exits. No SDK, no validation, no classification: only the protocol's round trips and
// the same end-of-life work the auditor does (end stdin; SIGTERM the group after 100 ms). The
// server gets the auditor's minimal environment.
//
// With FLOOR_LOAD set (module paths, separated like PATH), it also imports those modules right
// after sending initialize, while the server boots, and before reading any answer: the floor
// plus the auditor's module loading, to measure what that loading costs the server's boot.
//
// With FLOOR_BURN set (milliseconds), it also keeps its main thread busy that long at the same
// point, doing nothing else: what any CPU work on the other core costs the server's boot here.
import { spawn } from 'node:child_process';
import { delimiter } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node bench/floor-lister.mjs <server command> [args...]\n');
  process.exit(2);
}

// The server gets the same small environment the auditor gives it (and the Inspector's SDK
// nearly the same): what the environment costs the server must not differ between candidates.
const BASE_ENV = [
  'PATH',
  'HOME',
  'LOGNAME',
  'USER',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
];
/** @type {Record<string, string>} */
const env = {};
for (const key of BASE_ENV) {
  const value = process.env[key];
  if (value !== undefined) env[key] = value;
}

const server = spawn(command, args, {
  env,
  stdio: ['pipe', 'pipe', 'ignore'],
  detached: process.platform !== 'win32',
});
server.stdin.on('error', () => undefined);
const exited = new Promise((resolve) => server.once('exit', resolve));
server.once('error', (error) => fail(`could not start the server: ${error.message}`));

let nextId = 1;
let tools = 0;
let pages = 0;
/** @type {Map<number, (message: any) => void>} */
const pending = new Map();

/** @param {string} message */
function fail(message) {
  process.stderr.write(`floor-lister: ${message}\n`);
  try {
    process.kill(-(server.pid ?? 0), 'SIGKILL');
  } catch {
    // Already gone.
  }
  process.exit(2);
}

/**
 * @param {string} method
 * @param {unknown} params
 * @returns {Promise<any>}
 */
function request(method, params) {
  const id = nextId++;
  server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  return new Promise((resolve) => pending.set(id, resolve));
}

// Newline-delimited JSON: split on '\n' over the raw bytes, parse only complete lines.
/** @type {Buffer[]} */
let parts = [];
server.stdout.on('data', (/** @type {Buffer} */ chunk) => {
  let start = 0;
  let newline;
  while ((newline = chunk.indexOf(10, start)) >= 0) {
    parts.push(chunk.subarray(start, newline));
    const line = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    parts = [];
    start = newline + 1;
    let message;
    try {
      message = JSON.parse(line.toString('utf8'));
    } catch {
      continue; // not JSON-RPC (a banner on stdout): skip it
    }
    const resolve = message && pending.get(message.id);
    if (resolve) {
      pending.delete(message.id);
      resolve(message);
    }
  }
  if (start < chunk.length) parts.push(chunk.subarray(start));
});
server.stdout.once('end', () => {
  if (pending.size) fail('the server closed stdout before answering');
});

const initialized = request('initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'floor-lister', version: '1.0.0' },
});
for (const path of (process.env.FLOOR_LOAD ?? '').split(delimiter).filter(Boolean))
  await import(pathToFileURL(path).href);
const burnUntil = performance.now() + Number(process.env.FLOOR_BURN ?? 0);
while (performance.now() < burnUntil);
const init = await initialized;
if (init.error) fail(`initialize failed: ${JSON.stringify(init.error)}`);
server.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');

/** @type {string | undefined} */
let cursor;
do {
  const page = await request('tools/list', cursor === undefined ? {} : { cursor });
  if (page.error) fail(`tools/list failed: ${JSON.stringify(page.error)}`);
  pages += 1;
  tools += page.result.tools.length;
  cursor = page.result.nextCursor;
} while (cursor !== undefined);

// End of life, as the auditor does it: end stdin, give the server 100 ms, then SIGTERM the group.
server.stdin.end();
const timer = setTimeout(() => {
  try {
    process.kill(-(server.pid ?? 0), 'SIGTERM');
  } catch {
    // Already gone.
  }
}, 100);
await exited;
clearTimeout(timer);
process.stdout.write(`${tools} tools in ${pages} pages\n`);
