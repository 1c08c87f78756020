// Runs a fresh build of the CLI (test/support/build.ts) as a user would: a real process, real servers.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The fresh build of src/ made for this test run (test/support/build.ts), else dist/. */
export const DIST = process.env.AUDITOR_DIST ?? join(ROOT, 'dist');
export const CLI = join(DIST, 'cli.js');
/** The fixture servers: bundled for this test run (test/support/build.ts), else their sources. */
export const SERVERS = process.env.AUDITOR_SERVERS ?? join(ROOT, 'test/fixtures/servers');
export const EXAMPLE = join(ROOT, 'examples/notes/server.mjs');
/**
 * The example's tools and answers from a raw JSON-RPC responder (no SDK: about 0.03 s of CPU a
 * start where the example's SDK and zod take about 0.2): the server the oracles' real clients
 * start, one or two a case. test/e2e/fixtures-servers.test.ts holds it to the example.
 */
export const NOTES_SERVER = join(SERVERS, 'raw-notes.mjs');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node script as its own process, collecting its output. */
export function runNode(
  script: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function runCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return runNode(CLI, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env });
}

/** `check --format json` of the example server as "notes", run in `dir`; `flags` go before `--`. */
export function checkNotesIn(dir: string, flags: string[] = []): Promise<Run> {
  const server = ['--server-name', 'notes', '--', process.execPath, EXAMPLE];
  return runCli(['check', '--format', 'json', ...flags, ...server], { cwd: dir });
}

/** `check --format json` of the example server against a class list not written yet. */
export async function checkWithoutClassList(flags: string[] = []): Promise<Run> {
  const missing = join(await tempDir(), 'none.json');
  return runCli([
    'check',
    '--format',
    'json',
    '--class-list',
    missing,
    ...flags,
    '--',
    'node',
    EXAMPLE,
  ]);
}

/** The JSON report of a run. */
export function json(run: Run): {
  result: string;
  tools: {
    name: string;
    class: string;
    reach: string;
    openWorld: boolean;
    title: string;
    titleSource: string;
    hints: Record<string, { declared: boolean; value?: boolean; effective: boolean }>;
  }[];
  findings: {
    rule: string;
    severity: string;
    tool?: string;
    message: string;
    fix?: string;
    waived?: { reason: string };
  }[];
  changes: {
    kind: string;
    tool: string;
    renamedFrom?: string;
    before: { class: string } | null;
    after: { class: string } | null;
    hints: { hint: string }[];
  }[];
  counts: Record<string, number>;
} {
  try {
    return JSON.parse(run.stdout) as ReturnType<typeof json>;
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}

const tempDirs: string[] = [];

/** A fresh folder under the system's temp folder; removed after the test file (see cleanup.ts). */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'auditor-test-'));
  tempDirs.push(dir);
  return dir;
}

/**
 * A temporary folder holding the example's class list and, if `text` is given, the file at
 * `file` (a path relative to it, such as .claude/settings.json) with that text.
 */
export async function exampleRepo(file?: string, text?: string): Promise<string> {
  const dir = await tempDir();
  await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
  if (file !== undefined && text !== undefined) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(
    tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 })),
  );
}

export interface SpecTool {
  name: string;
  title?: string;
  description?: string;
  annotations?: Record<string, unknown>;
  inputSchema?: Record<string, unknown>;
}

/** The example server's tools as data, for variants. */
export async function notesSpec(): Promise<{ name: string; tools: SpecTool[] }> {
  return JSON.parse(await readFile(join(SERVERS, 'notes-spec.json'), 'utf8')) as {
    name: string;
    tools: SpecTool[];
  };
}

/** The spec with some annotations of one tool changed (undefined removes a hint). */
export function withAnnotations<S extends { tools: SpecTool[] }>(
  spec: S,
  tool: string,
  annotations: Record<string, unknown>,
): S {
  return {
    ...spec,
    tools: spec.tools.map((t) =>
      t.name === tool ? { ...t, annotations: { ...t.annotations, ...annotations } } : t,
    ),
  };
}

/**
 * The spec with delete_note renamed remove_note, a new schema and its destructiveHint dropped:
 * a probable rename, which must still count as a dropped hint.
 */
export function withDeleteNoteRenamed<S extends { tools: SpecTool[] }>(spec: S): S {
  return {
    ...spec,
    tools: spec.tools.map((t): SpecTool => {
      if (t.name !== 'delete_note') return t;
      const annotations = { ...t.annotations };
      delete annotations.destructiveHint;
      return {
        ...t,
        name: 'remove_note',
        inputSchema: { properties: { id: { type: 'string' } }, required: ['id'] },
        annotations,
      };
    }),
  };
}

/** Writes a spec and returns the command line of a server that serves it. */
export async function specServer(
  dir: string,
  file: string,
  spec: { name: string; tools: SpecTool[] },
): Promise<string[]> {
  const path = join(dir, file);
  await writeFile(path, JSON.stringify(spec));
  return ['node', join(SERVERS, 'configurable.mjs'), path];
}

/** A new folder with an empty `starts` file, for {@link counted} servers. */
export async function withStarts(): Promise<{ dir: string; starts: string }> {
  const dir = await tempDir();
  const starts = join(dir, 'starts');
  await writeFile(starts, '');
  return { dir, starts };
}

/** Wraps a `node ...` server command so that each start appends its pid to `starts`. */
export function counted(starts: string, server: string[]): string[] {
  return ['node', join(SERVERS, 'count-starts.mjs'), starts, ...server.slice(1)];
}

/** The pid of each start. */
export async function startsIn(file: string): Promise<number[]> {
  return (await readFile(file, 'utf8')).split('\n').filter(Boolean).map(Number);
}

/** Writes a config file (JSON is YAML too) into `dir` and returns its path. */
export async function writeConfig(
  dir: string,
  data: unknown,
  name = 'auditor.yml',
): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(data, null, 2));
  return path;
}

/** Resolves whether `port` on 127.0.0.1 could be bound just now (and leaves it free). */
function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.on('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first port of the kernel's ephemeral range, the ports it hands out on its own. */
function ephemeralFloor(): number {
  try {
    const text = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
    const floor = Number(/^\s*(\d+)/.exec(text)?.[1]);
    if (floor > PORT_BASE + PORTS_PER_WORKER) return floor;
  } catch {
    // Not Linux: the IANA range starts at 49152, Linux's default at 32768; take the lower.
  }
  return 32_768;
}

const PORT_BASE = 12_000;
const PORTS_PER_WORKER = 1_000;
let portsTaken = 0;

/**
 * A port for a server the auditor starts on a URL written in advance (so it cannot bind port 0
 * and report the port it got), or for a URL nothing answers. It comes from below the kernel's
 * ephemeral range: a port from inside that range, free a moment ago, can be handed to any
 * outgoing connection or port-0 listener (this suite's own included) before the server binds
 * it. Each vitest worker draws from its own slice, one port after the other from an offset of
 * its own, so two tests of a run never get the same port; one something else holds is skipped.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const slices = Math.floor((ephemeralFloor() - PORT_BASE) / PORTS_PER_WORKER);
  const first = PORT_BASE + ((worker - 1) % slices) * PORTS_PER_WORKER;
  const offset = process.pid % PORTS_PER_WORKER;
  for (let tries = 0; tries < PORTS_PER_WORKER; tries++) {
    const port = first + ((offset + portsTaken++) % PORTS_PER_WORKER);
    if (await canBind(port)) return port;
  }
  throw new Error(`no free port in ${first}-${first + PORTS_PER_WORKER - 1}`);
}

/**
 * The notes server in `dir` as recorded (`original`) and as a PR that drops delete_note's
 * destructiveHint would serve it (`dropped`): the change a base comparison must catch.
 */
export async function droppedHintServers(
  dir: string,
): Promise<{ original: string[]; dropped: string[] }> {
  const spec = await notesSpec();
  return {
    original: await specServer(dir, 'v1.json', spec),
    dropped: await specServer(
      dir,
      'v2.json',
      withAnnotations(spec, 'delete_note', { destructiveHint: undefined }),
    ),
  };
}
