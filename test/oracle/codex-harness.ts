// The real Codex CLI, run offline against a local Responses API stand-in
// (test/support/responses-api.ts): one project and one CODEX_HOME per case, the user's config
// trusting the project, the case's .codex/config.toml committed in it. It calls the tools, and
// what it did with each (ran, asked, hid) is read from `codex exec --json` and the stand-in.
// Readiness: a second server (the canary, the notes server --read-only, approve) is in every
// user config; a run whose first request did not offer it is retried a bounded number of times,
// then fails as a harness failure, never read as a decision.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ClientDecision } from '../../src/clients/client.js';
import { codex } from '../../src/clients/codex/index.js';
import { tomlString } from '../../src/clients/codex/toml.js';
import { EXAMPLE, tempDir } from '../support/cli.js';
import type { ToolCall } from '../support/model-api.js';
import { startResponsesApi } from '../support/responses-api.js';
import { INPUT, TOOLS } from './harness.js';

/** How many times a run in which the canary was never offered is tried before giving up. */
const ATTEMPTS = 3;
const CANARY = 'mcp__canary__list_notes';
const TARGETS: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/** The native binary from the platform package (no install script needed to place it). */
export function codexBinary(): string {
  const require = createRequire(join(dirname(new URL(import.meta.url).pathname), 'package.json'));
  const platform = `${process.platform}-${process.arch}`;
  const target = TARGETS[platform];
  try {
    const dir = dirname(require.resolve(`@openai/codex-${platform}/package.json`));
    return join(dir, 'vendor', target ?? '', 'bin', 'codex');
  } catch {
    throw new Error(`No @openai/codex binary for ${platform}: run npm run oracles:install.`);
  }
}

/** A server table for the config: the example server (or `args` given) under `key`, required. */
export function serverTable(key: string, args: string[] = [EXAMPLE]): string {
  const quoted = /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
  return `[mcp_servers.${quoted}]\ncommand = ${tomlString(process.execPath)}\nargs = [${args.map(tomlString).join(', ')}]\n# Codex waits for a required server before the first request.\nrequired = true\n`;
}

export interface CodexCase {
  /** The committed .codex/config.toml, as text. */
  project?: string;
  /** Tables added to the user's ~/.codex/config.toml (a server the project file only tunes). */
  user?: string;
  /** The tools to call, by full name (default: the notes tools under mcp__notes). */
  calls?: ToolCall[];
}

/** The notes tools' calls under a namespace (mcp__<normalised key>). */
export function notesCalls(namespace = 'mcp__notes'): ToolCall[] {
  return TOOLS.map((t) => ({ name: `${namespace}__${t}`, input: INPUT[t] ?? {} }));
}

interface Event {
  type?: string;
  item?: {
    type?: string;
    server?: string;
    tool?: string;
    status?: string;
    error?: { message?: string };
  };
}

/** The user config: the stand-in as model provider, the project trusted, the canary. */
function userConfig(apiUrl: string, dir: string, extra = ''): string {
  return `model = "stand-in"
model_provider = "standin"

[model_providers.standin]
name = "standin"
base_url = ${tomlString(apiUrl)}
wire_api = "responses"
env_key = "STANDIN_API_KEY"

[projects.${tomlString(dir)}]
trust_level = "trusted"

${serverTable('canary', [EXAMPLE, '--read-only'])}default_tools_approval_mode = "approve"

${extra}`;
}

/** Runs `codex exec --json` in the project; stops its process group once the turn is over. */
function runCodex(
  dir: string,
  home: string,
): Promise<{ code: number | null; events: Event[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const args = ['exec', '--skip-git-repo-check', '--json', 'Use the notes tools.'];
    const child = spawn(codexBinary(), args, {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home, STANDIN_API_KEY: 'dummy' },
    });
    let stdout = '';
    let stderr = '';
    const kill = () => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      // The result is out: nothing after the turn's end decides anything.
      if (/"type":"turn\.(completed|failed)"/.test(stdout)) kill();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A hang guard only: a run ends in seconds.
    const timer = setTimeout(kill, 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      kill();
      const events = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Event);
      resolve({ code, events, stderr });
    });
  });
}

/** What Codex did with one call, from its events and what the stand-in got back. */
function verdict(
  call: ToolCall,
  events: Event[],
  offered: Set<string>,
  output: string | undefined,
): ClientDecision {
  // Events name the server by its key and the tool by its own name: matched as Codex names them.
  const done = events.find(
    (e) =>
      e.type === 'item.completed' &&
      e.item?.type === 'mcp_tool_call' &&
      codex.fullName(e.item.server ?? '', e.item.tool ?? '') === call.name,
  )?.item;
  const seen = (d: ClientDecision, ok: boolean) => {
    if (!ok)
      throw new Error(
        `harness: ${call.name} ${d} but offered=${offered.has(call.name)}: ${output}`,
      );
    return d;
  };
  if (done?.status === 'completed') return seen('allow', offered.has(call.name));
  if (done?.status === 'failed' && done.error?.message?.includes('requires approval'))
    return seen('ask', offered.has(call.name));
  if (!done && output?.startsWith('unsupported call'))
    return seen('hidden', !offered.has(call.name));
  throw new Error(`harness: no known answer for ${call.name}: ${JSON.stringify(done)} ${output}`);
}

/** One run; undefined when the canary was never offered (Codex was not ready). */
async function attempt(c: CodexCase): Promise<Record<string, ClientDecision> | undefined> {
  const api = await startResponsesApi();
  try {
    const dir = await tempDir();
    const home = await tempDir();
    await writeFile(join(home, 'config.toml'), userConfig(api.url, dir, c.user));
    if (c.project !== undefined) {
      await mkdir(join(dir, '.codex'));
      await writeFile(join(dir, '.codex/config.toml'), c.project);
    }
    const calls = c.calls ?? notesCalls();
    api.expect([...calls, { name: CANARY, input: {} }]);
    const run = await runCodex(dir, home);
    const offered = new Set(api.offered());
    // Codex that refused its config never asks the model: that is the case's failure, not a race.
    if (!offered.has(CANARY) && !run.events.some((e) => e.type === 'turn.started'))
      throw new Error(`codex exited ${run.code} before its first turn: ${run.stderr.slice(-800)}`);
    if (!offered.has(CANARY)) return undefined;
    if (!run.events.some((e) => e.type === 'turn.completed'))
      throw new Error(`codex exited ${run.code} with no finished turn: ${run.stderr.slice(-800)}`);
    const outputs = api.outputs();
    if (verdict({ name: CANARY, input: {} }, run.events, offered, outputs.get(CANARY)) !== 'allow')
      throw new Error('harness: the canary did not run');
    return Object.fromEntries(
      calls.map((call) => [call.name, verdict(call, run.events, offered, outputs.get(call.name))]),
    );
  } finally {
    await api.close();
  }
}

/** What Codex did with each call (by full name), retrying a run in which it was not ready. */
export async function observeCodex(c: CodexCase): Promise<Record<string, ClientDecision>> {
  for (let n = 0; n < ATTEMPTS; n++) {
    const got = await attempt(c);
    if (got) return got;
  }
  throw new Error(
    `harness failure: Codex never offered the canary server's tools in ${ATTEMPTS} runs; this is not a decision`,
  );
}
