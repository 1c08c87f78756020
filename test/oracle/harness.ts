// What every oracle shares: the notes tools it calls, how a real client is started and stopped
// (its process group, by its pid, once the result is out), the bounded retry of a run in which the
// client never offered the server's tools (a harness failure, never a decision), and what `check`
// predicts: its JSON report on the same committed config in the same temporary repository, per
// tool per client (`tools[].clients.<client>`, `claudeCode` for Claude Code). The prediction is
// the CLI's commands run in this process (the engine from src/, with the real git), the audited
// servers served in memory by their twins (test/support/in-memory.ts): the same report as the
// built CLI's, without a CLI and a server process a case.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { ClientDecision, ClientVerdict } from '../../src/clients/client.js';
import { processGit } from '../../src/git.js';
import { NOTES_SERVER, ROOT, runCli, tempDir, type Run } from '../support/cli.js';
import { runCliInMemory } from '../support/in-memory.js';
import type { ToolCall } from '../support/model-api.js';

export type Observed = ClientDecision;
export const TOOLS = ['list_notes', 'add_note', 'delete_note'] as const;
export const INPUT: Record<string, Record<string, unknown>> = {
  list_notes: {},
  add_note: { title: 'groceries', body: 'milk' },
  delete_note: { note_id: 1 },
};
/** A call the stand-in model makes: the name the client offers, and the tool's own name. */
export interface Call extends ToolCall {
  tool: string;
}
/** How many times a run in which the client never offered the server's tools is tried. */
export const ATTEMPTS = 3;
/** A hang guard only: a run ends in seconds, and a test waits for events, never for this. */
const HANG_GUARD_MS = 240_000;

/** Resolves a package of the oracles' own install (test/oracle/package.json). */
export const oracleRequire = createRequire(new URL('package.json', import.meta.url));

/** The first of `packages` installed, as `path` inside it (a platform package's native binary). */
export function installed(label: string, packages: string[], path: string): string {
  for (const pkg of packages)
    try {
      return join(dirname(oracleRequire.resolve(`${pkg}/package.json`)), path);
    } catch {
      // The next variant.
    }
  throw new Error(
    `No ${label} for ${process.platform}-${process.arch}: run npm run oracles:install.`,
  );
}

/** The JSON lines of a client's output (other lines are its own logging). */
export const jsonLines = <T>(text: string): T[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as T);

/** Ends a client's whole process group (it, and the MCP servers it started), by its pid. */
export function stop(child: ChildProcess): void {
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // Already gone.
  }
}

export interface ClientProcess {
  child: ChildProcess;
  /** Everything it wrote to stderr so far. */
  stderr: () => string;
  /** Settles when it has exited (after stop() too), with its exit code. */
  closed: Promise<number | null>;
}

/** Starts a client in its own process group, with only the environment given (and PATH). */
export function startClient(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; stdin?: boolean },
): ClientProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    detached: true,
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH as string, ...options.env },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const guard = setTimeout(() => stop(child), HANG_GUARD_MS);
  const closed = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      stop(child); // an MCP server it started, should it linger
      resolve(code);
    });
  });
  return { child, stderr: () => stderr, closed };
}

/**
 * Runs a client to the end of its answer: `done(stdout)` says when the result is out, and the
 * client is stopped then (Gemini lingers about 95 s after answering; nothing after it decides).
 */
export async function runClient(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; done?: (stdout: string) => boolean },
): Promise<Run> {
  const client = startClient(command, args, options);
  let stdout = '';
  client.child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    if (options.done && stdout.endsWith('\n') && options.done(stdout)) stop(client.child);
  });
  const code = await client.closed;
  return { code, stdout, stderr: client.stderr() };
}

/**
 * Cases tried until the client offered the servers' tools in each: `run` gives, for the cases it
 * is handed, a result each, undefined for a case in which the client never did; such cases are
 * run again, and after ATTEMPTS runs the harness fails, never reading a decision from them.
 */
export async function retriedCases<C, R>(
  client: string,
  cases: C[],
  run: (todo: C[]) => Promise<(R | undefined)[]>,
): Promise<R[]> {
  const out: (R | undefined)[] = cases.map(() => undefined);
  for (let n = 0; n < ATTEMPTS && out.includes(undefined); n++) {
    const todo = cases.flatMap((_, i) => (out[i] === undefined ? [i] : []));
    const got = await run(todo.map((i) => cases[i] as C));
    todo.forEach((i, k) => (out[i] = got[k]));
  }
  const missing = cases.flatMap((_, i) => (out[i] === undefined ? [i] : []));
  if (missing.length)
    throw new Error(
      `harness failure: ${client} never offered the MCP servers' tools in ${ATTEMPTS} runs (cases ${missing.join(', ')} of ${cases.length}); this is not a decision`,
    );
  return out as R[];
}

/** One case tried as retriedCases tries many: `attempt` gives undefined for a run not ready. */
export async function retried<T>(
  client: string,
  attempt: () => Promise<T | undefined>,
): Promise<T> {
  const [got] = await retriedCases(client, [undefined], async () => [await attempt()]);
  return got as T;
}

/** Writes files (repository-relative path → text) into `dir`. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/** A case's temporary repository, with its committed files (path → text; undefined: absent). */
export async function repository(files: Record<string, string | undefined>): Promise<string> {
  const dir = await tempDir();
  const given = Object.entries(files).flatMap(([path, text]) =>
    text === undefined ? [] : [[path, text] as const],
  );
  await writeFiles(dir, Object.fromEntries(given));
  return dir;
}

/**
 * `rules --client <client> --write <file>` run by the built CLI in the case's repository `dir`, as
 * a user runs it there: the example's class list (list_notes, add_note, delete_note) committed
 * first, and the rules merged into whatever the case committed at `file`. The run must succeed;
 * gives the text it left at `file`, which the real client then runs on.
 */
export async function writtenRules(dir: string, client: string, file: string): Promise<string> {
  await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
  const run = await runCli(['rules', '--client', client, '--write', file], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  return readFile(join(dir, file), 'utf8');
}

/** A server `check` audits beside the client: its key (as the client's config names it) and args to Node. */
export interface AuditedServer {
  key: string;
  args: string[];
}

export const NOTES: AuditedServer = { key: 'notes', args: [NOTES_SERVER] };

/** One audited server's predictions: per client id, per tool name, the verdict check reports. */
export type Prediction = Record<string, Record<string, ClientVerdict>>;

interface ReportTool {
  server: string;
  name: string;
  clients?: Record<string, ClientVerdict>;
  claudeCode?: ClientVerdict | { decision: 'unset' };
}

/**
 * Checks one at a time, in the order asked: a run in this process changes its working directory
 * and takes over process-level state (see runCliInMemory), and the oracle files run their cases
 * concurrently.
 */
let checking: Promise<unknown> = Promise.resolve();
function serially<T>(job: () => Promise<T>): Promise<T> {
  const run = checking.then(job);
  checking = run.catch(() => undefined);
  return run;
}

/**
 * What `check` predicts for each tool of each server, per client, run in `dir` on the files
 * committed there (`settings`: Claude Code settings files, for --settings). One Prediction a
 * server, in order; a client check does not judge (no committed file configures it) is absent.
 */
export async function predict(
  dir: string,
  servers: AuditedServer[] = [NOTES],
  settings: string[] = [],
): Promise<{ run: Run; servers: Prediction[] }> {
  const flags = ['check', '--format', 'json', '--fail-on', 'never'];
  flags.push(...settings.flatMap((s) => ['--settings', s]));
  const [one] = servers;
  if (servers.length === 1 && one)
    flags.push('--server-name', one.key, '--', process.execPath, ...one.args);
  else {
    // Several servers: a config file outside the repository (so it is none of the case's files).
    const config = join(await tempDir(), 'servers.yml');
    const entries = servers.map((s): [string, unknown] => [
      s.key,
      { command: process.execPath, args: s.args },
    ]);
    await writeFile(config, JSON.stringify({ servers: Object.fromEntries(entries) }));
    flags.push('--config', config);
  }
  const run = await serially(() => runCliInMemory(flags, { cwd: dir, git: processGit }));
  if (run.code !== 0) throw new Error(`check exited ${run.code}: ${run.stderr.slice(0, 2000)}`);
  const report = JSON.parse(run.stdout) as { servers: { server: string }[]; tools: ReportTool[] };
  return {
    run,
    servers: report.servers.map(({ server }) => {
      const out: Prediction = {};
      for (const tool of report.tools.filter((t) => t.server === server)) {
        const verdicts = { ...tool.clients };
        if (tool.claudeCode) verdicts['claude-code'] = tool.claudeCode as ClientVerdict;
        for (const [client, verdict] of Object.entries(verdicts))
          (out[client] ??= {})[tool.name] = verdict;
      }
      return out;
    }),
  };
}

/** One client's predicted decision per tool, or undefined when check does not judge it. */
export function decisions(
  prediction: Prediction | undefined,
  client: string,
): Record<string, string> | undefined {
  const verdicts = prediction?.[client];
  if (!verdicts) return undefined;
  return Object.fromEntries(Object.entries(verdicts).map(([tool, v]) => [tool, v.decision]));
}

/** Runs `jobs` with at most `limit` at once (each case is a few processes on a busy machine). */
export function pooled(limit: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (running >= limit) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await job();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** That what the client did is what check predicted (`report`: check's output, for the message). */
export function expectPredicted(predicted: unknown, seen: unknown, report = ''): void {
  expect(predicted, report.slice(0, 4000)).toEqual(seen);
}
