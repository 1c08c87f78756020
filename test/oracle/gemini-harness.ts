// The real Gemini CLI, run offline against a local Gemini API stand-in (test/support/gemini-api.ts):
// one project folder per case, with the case's committed files; the example server is configured
// in the user's settings under the case's key, beside a "probe" server (the same server,
// read-only, trust: true) whose tool is offered whenever MCP servers were connected at all. It
// calls list_notes, add_note and delete_note, and what came back says what Gemini did (ran,
// asked, refused). Interactive runs go through ACP (`gemini --acp`, the mode editors drive: the
// same policy engine and confirmation as the terminal UI, with a permission request for each
// tool that asks), many cases a process, one session each; headless runs are `gemini -p`. A case
// whose run never offered an MCP tool though it should have is run again a bounded number of
// times, then fails as a harness failure, never as "deny".
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { EXAMPLE, tempDir } from '../support/cli.js';
import { startGeminiApi, type GeminiApi } from '../support/gemini-api.js';
import { TOOLS, pooled, type Observed } from './harness.js';

/** How many times a case whose MCP servers never showed is tried before the harness gives up. */
const ATTEMPTS = 3;
const INPUT: Record<string, Record<string, unknown>> = {
  list_notes: {},
  add_note: { title: 'groceries', body: 'milk' },
  delete_note: { note_id: 1 },
};
export const PROBE = 'probe';

/** The CLI's entry script, run with this Node. */
export function geminiScript(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@google/gemini-cli/package.json')), 'bundle/gemini.js');
}

export interface GeminiCase {
  /** The server's key in the user's settings (default "notes"). */
  key?: string;
  /** .gemini/settings.json: a value written as JSON, or text as it is. */
  workspace?: unknown;
  /** A committed .gemini/policies/team.toml (Gemini should ignore it). */
  workspacePolicy?: string;
  /** The folder is not in trustedFolders.json. */
  untrusted?: boolean;
}

export interface GeminiRun {
  mode: 'acp' | 'headless';
  /** .gemini/mcp-tool-classes.policy.toml, committed and passed with --policy. */
  policy?: string;
  cases: GeminiCase[];
}

/** A case's folder: its committed files, as paths relative to it and their text. */
export interface CaseFiles {
  dir: string;
  files: { path: string; text: string }[];
}

export interface Observation {
  observed: Record<string, Observed>;
  offered: string[];
  results: Map<string, { output?: string; error?: string }>;
}

const text = (value: unknown) =>
  typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`;

/** Writes a case's committed files into a new folder. */
export async function caseFiles(c: GeminiCase, policy?: string): Promise<CaseFiles> {
  const dir = await tempDir();
  const files: CaseFiles['files'] = [];
  const put = async (path: string, value: unknown) => {
    if (value === undefined) return;
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text(value));
    files.push({ path, text: text(value) });
  };
  await put('.gemini/settings.json', c.workspace);
  await put('.gemini/policies/team.toml', c.workspacePolicy);
  await put('.gemini/mcp-tool-classes.policy.toml', policy);
  return { dir, files };
}

/** A home whose settings configure every case's key and the probe, trusting the cases' folders. */
async function home(run: GeminiRun, dirs: string[]): Promise<string> {
  const dir = await tempDir();
  const server = (...args: string[]) => ({ command: process.execPath, args: [EXAMPLE, ...args] });
  const keys = new Set(run.cases.map((c) => c.key ?? 'notes'));
  await mkdir(join(dir, '.gemini'), { recursive: true });
  await writeFile(
    join(dir, '.gemini/settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      // Less work a run, nothing that decides a tool: one model (no routing request), no usage
      // statistics sent.
      model: { name: 'gemini-2.5-flash' },
      privacy: { usageStatisticsEnabled: false },
      mcpServers: {
        ...Object.fromEntries([...keys].map((k) => [k, server()])),
        [PROBE]: { ...server('--read-only'), trust: true },
      },
    }),
  );
  const trusted = run.cases.flatMap((c, i) => (c.untrusted ? [] : [dirs[i] as string]));
  await writeFile(
    join(dir, '.gemini/trustedFolders.json'),
    JSON.stringify(Object.fromEntries(trusted.map((d) => [d, 'TRUST_FOLDER']))),
  );
  return dir;
}

function start(args: string[], cwd: string, homeDir: string, api: GeminiApi): ChildProcess {
  return spawn(process.execPath, [geminiScript(), ...args], {
    cwd,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: homeDir,
      GEMINI_API_KEY: 'dummy-for-a-local-stand-in',
      GOOGLE_GEMINI_BASE_URL: api.url,
    },
  });
}

/**
 * Ends the process group once the answer is out: ACP never exits on its own, and Gemini was
 * reported to linger about 95 s after answering (telemetry flush; here -p exited within a second).
 */
function stop(child: ChildProcess): void {
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // Already gone.
  }
}

const prompt = (id: number) => `Use the notes tools. oracle case ${id}`;

/** One ACP process: a session a case, six at once; resolves when every prompt has returned. */
async function runAcp(
  ids: number[],
  dirs: string[],
  args: string[],
  homeDir: string,
  api: GeminiApi,
) {
  const child = start(['--acp', ...args], await tempDir(), homeDir, api);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const pending = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  let next = 0;
  const send = (m: unknown) => child.stdin?.write(`${JSON.stringify(m)}\n`);
  const call = (method: string, params: unknown) =>
    new Promise<{ result?: unknown; error?: unknown }>((resolve) => {
      pending.set(++next, resolve);
      send({ jsonrpc: '2.0', id: next, method, params });
    });
  const exited = new Promise<never>((_, reject) =>
    child.on('close', (code) =>
      reject(new Error(`gemini --acp exited ${code}: ${stderr.slice(0, 800)}`)),
    ),
  );
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const m = JSON.parse(line) as {
      id?: number;
      method?: string;
      result?: unknown;
      error?: unknown;
    };
    if (m.method === 'session/request_permission')
      send({ jsonrpc: '2.0', id: m.id, result: { outcome: { outcome: 'cancelled' } } });
    else if (m.id !== undefined && !m.method) pending.get(m.id)?.(m);
  });
  // A hang guard only: a run ends in seconds.
  const timer = setTimeout(() => stop(child), 150_000);
  try {
    const rpc = async (method: string, params: unknown) => {
      const m = await Promise.race([call(method, params), exited]);
      if (m.error) throw new Error(`${method}: ${JSON.stringify(m.error)}`);
      return m.result as Record<string, unknown>;
    };
    await rpc('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const slot = pooled(6);
    await Promise.all(
      ids.map((id, i) =>
        slot(async () => {
          const session = await rpc('session/new', { cwd: dirs[i], mcpServers: [] });
          const prompted = {
            sessionId: session.sessionId,
            prompt: [{ type: 'text', text: prompt(id) }],
          };
          await rpc('session/prompt', prompted);
        }),
      ),
    );
  } finally {
    clearTimeout(timer);
    stop(child);
  }
}

/** One headless run of one case: stopped once its result line is out. */
function runHeadless(id: number, dir: string, args: string[], homeDir: string, api: GeminiApi) {
  return new Promise<void>((resolve, reject) => {
    const child = start(
      ['-p', prompt(id), '--output-format', 'stream-json', ...args],
      dir,
      homeDir,
      api,
    );
    let stderr = '';
    let done = false;
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (!line.includes('"type":"result"')) return;
      done = true;
      stop(child);
    });
    const timer = setTimeout(() => stop(child), 150_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (done) resolve();
      else reject(new Error(`gemini -p exited ${code} with no result: ${stderr.slice(0, 800)}`));
    });
  });
}

/** What one result says Gemini did; undefined for an answer the harness does not know. */
function verdict(got: { output?: string; error?: string } | undefined): Observed | undefined {
  if (got?.output !== undefined) return 'allow';
  const error = got?.error ?? '';
  if (error.includes('was canceled by the user') || error.includes('requires user confirmation'))
    return 'ask';
  if (error.includes('not found') || error.includes('denied by policy')) return 'deny';
  return undefined;
}

let nextId = 0;

/**
 * What Gemini did with each case's tools. `expectsMcp(i)` says whether case i should see any
 * MCP tool at all (the probe's, else a notes tool): a case that should and did not is run again.
 */
export async function observeGemini(
  run: GeminiRun,
  folders: CaseFiles[],
  expectsMcp: (i: number) => boolean,
): Promise<Observation[]> {
  const out: (Observation | undefined)[] = run.cases.map(() => undefined);
  const args = run.policy
    ? ['--policy', join(folders[0]?.dir as string, '.gemini/mcp-tool-classes.policy.toml')]
    : [];
  const homeDir = await home(
    run,
    folders.map((f) => f.dir),
  );
  for (let attempt = 0; attempt < ATTEMPTS && out.includes(undefined); attempt++) {
    const todo = run.cases.flatMap((_, i) => (out[i] ? [] : [i]));
    const api = await startGeminiApi();
    try {
      const ids = todo.map(() => ++nextId);
      todo.forEach((i, n) => {
        const key = run.cases[i]?.key ?? 'notes';
        api.expect(
          ids[n] as number,
          TOOLS.map((t) => ({ name: `mcp_${key}_${t}`, args: INPUT[t] ?? {} })),
        );
      });
      const dirs = todo.map((i) => folders[i]?.dir as string);
      if (run.mode === 'acp') await runAcp(ids, dirs, args, homeDir, api);
      else
        await Promise.all(
          ids.map((id, n) => runHeadless(id, dirs[n] as string, args, homeDir, api)),
        );
      todo.forEach((i, n) => {
        const record = api.record(ids[n] as number);
        const offered = record.offered ?? [];
        if (!offered.length && expectsMcp(i)) return;
        const key = run.cases[i]?.key ?? 'notes';
        const observed: Record<string, Observed> = {};
        for (const t of TOOLS) {
          const got = record.results.get(`mcp_${key}_${t}`);
          const seen = verdict(got);
          if (!seen) throw new Error(`harness: no known answer for ${t}: ${JSON.stringify(got)}`);
          observed[t] = seen;
        }
        out[i] = { observed, offered, results: record.results };
      });
    } finally {
      await api.close();
    }
  }
  const missing = run.cases.flatMap((_, i) => (out[i] ? [] : [i]));
  if (missing.length)
    throw new Error(
      `harness failure: Gemini offered no MCP tool in ${ATTEMPTS} runs for cases ${missing.join(', ')} though they should see the probe server; this is not a decision`,
    );
  return out as Observation[];
}
