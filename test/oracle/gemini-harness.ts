// The real Gemini CLI, run offline against a local Gemini API stand-in (test/support/gemini-api.ts):
// one project folder per case, with the case's committed files; the notes server is configured
// in the user's settings under the case's key, beside a "probe" server (the same server,
// read-only, trust: true) whose tool is offered whenever MCP servers were connected at all. It
// calls list_notes, add_note and delete_note, and what came back says what Gemini did (ran,
// asked, refused). Interactive runs go through ACP (`gemini --acp`, acp.ts: the same policy
// engine and confirmation as the terminal UI, with a permission request for each tool that
// asks), many cases a process, one session each; headless runs are `gemini -p`, stopped by pid
// once the result line is out (Gemini lingers about 95 s after answering). A case whose run never
// offered an MCP tool though it should have is run again a bounded number of times, then fails
// as a harness failure, never as "deny".
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NOTES_SERVER, tempDir } from '../support/cli.js';
import { startGeminiApi, type GeminiApi } from '../support/gemini-api.js';
import { runAcp } from './acp.js';
import {
  INPUT,
  TOOLS,
  installed,
  jsonLines,
  retriedCases,
  runClient,
  repository,
  type AuditedServer,
  type Observed,
} from './harness.js';

export const PROBE: AuditedServer = { key: 'probe', args: [NOTES_SERVER, '--read-only'] };

/** The CLI's entry script, run with this Node. */
export function geminiScript(): string {
  return installed('@google/gemini-cli', ['@google/gemini-cli'], 'bundle/gemini.js');
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
  const given = {
    '.gemini/settings.json': c.workspace,
    '.gemini/policies/team.toml': c.workspacePolicy,
    '.gemini/mcp-tool-classes.policy.toml': policy,
  };
  const files = Object.entries(given).flatMap(([path, value]) =>
    value === undefined ? [] : [{ path, text: text(value) }],
  );
  const dir = await repository(Object.fromEntries(files.map((f) => [f.path, f.text])));
  return { dir, files };
}

/** A home whose settings configure every case's key and the probe, trusting the cases' folders. */
async function home(run: GeminiRun, dirs: string[]): Promise<string> {
  const dir = await tempDir();
  const server = (...args: string[]) => ({
    command: process.execPath,
    args: [NOTES_SERVER, ...args],
  });
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
        [PROBE.key]: { ...server(...PROBE.args.slice(1)), trust: true },
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

/** The environment of a Gemini CLI run: the case's home, the stand-in. */
const environment = (homeDir: string, api: GeminiApi) => ({
  HOME: homeDir,
  // Without it, each run loads the CLI and then starts it again as a child with a larger heap.
  GEMINI_CLI_NO_RELAUNCH: 'true',
  GEMINI_API_KEY: 'dummy-for-a-local-stand-in',
  GOOGLE_GEMINI_BASE_URL: api.url,
});

const prompt = (id: number) => `Use the notes tools. oracle case ${id}`;

/** One ACP process: a session a case, six at once; resolves when every prompt has returned. */
async function runInteractive(
  ids: number[],
  dirs: string[],
  args: string[],
  homeDir: string,
  api: GeminiApi,
): Promise<void> {
  await runAcp(
    process.execPath,
    [geminiScript(), '--acp', ...args],
    ids.map((id, i) => ({ cwd: dirs[i] as string, prompt: prompt(id) })),
    { cwd: await tempDir(), env: environment(homeDir, api), permission: 'cancel' },
  );
}

/** One headless run of one case: stopped by its pid once its result line is out. */
async function runHeadless(
  id: number,
  dir: string,
  args: string[],
  homeDir: string,
  api: GeminiApi,
): Promise<void> {
  const argv = ['-p', prompt(id), '--output-format', 'stream-json', ...args];
  const run = await runClient(process.execPath, [geminiScript(), ...argv], {
    cwd: dir,
    env: environment(homeDir, api),
    done: (stdout) => stdout.includes('"type":"result"'),
  });
  if (!jsonLines<{ type?: string }>(run.stdout).some((e) => e.type === 'result'))
    throw new Error(`gemini -p exited ${run.code} with no result: ${run.stderr.slice(0, 800)}`);
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
 * It is asked once a run is over, so what it waits on (check) runs beside the client.
 */
export async function observeGemini(
  run: GeminiRun,
  folders: CaseFiles[],
  expectsMcp: (i: number) => Promise<boolean>,
): Promise<Observation[]> {
  const args = run.policy
    ? ['--policy', join(folders[0]?.dir as string, '.gemini/mcp-tool-classes.policy.toml')]
    : [];
  const homeDir = await home(
    run,
    folders.map((f) => f.dir),
  );
  return retriedCases(
    'Gemini CLI',
    run.cases.map((c, i) => ({ c, i })),
    async (todo) => {
      const api = await startGeminiApi();
      try {
        const ids = todo.map(() => ++nextId);
        todo.forEach(({ c }, n) => {
          const key = c.key ?? 'notes';
          api.expect(
            ids[n] as number,
            TOOLS.map((t) => ({ name: `mcp_${key}_${t}`, args: INPUT[t] ?? {} })),
          );
        });
        const dirs = todo.map(({ i }) => folders[i]?.dir as string);
        if (run.mode === 'acp') await runInteractive(ids, dirs, args, homeDir, api);
        else
          await Promise.all(
            ids.map((id, n) => runHeadless(id, dirs[n] as string, args, homeDir, api)),
          );
        const expected = await Promise.all(todo.map(({ i }) => expectsMcp(i)));
        return todo.map(({ c }, n) => {
          const record = api.record(ids[n] as number);
          const offered = record.offered ?? [];
          if (!offered.length && expected[n]) return undefined;
          const key = c.key ?? 'notes';
          const observed: Record<string, Observed> = {};
          for (const t of TOOLS) {
            const got = record.results.get(`mcp_${key}_${t}`);
            const seen = verdict(got);
            if (!seen) throw new Error(`harness: no known answer for ${t}: ${JSON.stringify(got)}`);
            observed[t] = seen;
          }
          return { observed, offered, results: record.results };
        });
      } finally {
        await api.close();
      }
    },
  );
}
