// The real Codex CLI, run offline against a local Responses API stand-in
// (test/support/responses-api.ts): one repository and one CODEX_HOME per case, the user's config
// trusting the repository, the case's .codex/config.toml committed in it. It calls the tools, and
// what it did with each (ran, asked, hid) is read from `codex exec --json` and the stand-in.
// Readiness: a second server (the canary, the notes server --read-only, approve) is in every
// user config; a run whose first request did not offer it is retried a bounded number of times,
// then fails as a harness failure, never read as a decision.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClientDecision } from '../../src/clients/client.js';
import { codex } from '../../src/clients/codex/index.js';
import { tomlString } from '../../src/clients/codex/toml.js';
import { NOTES_SERVER, tempDir } from '../support/cli.js';
import { startResponsesApi } from '../support/responses-api.js';
import { INPUT, TOOLS, installed, jsonLines, retried, runClient, type Call } from './harness.js';

const CANARY: Call = { name: 'mcp__canary__list_notes', tool: 'list_notes', input: {} };
const TARGETS: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/** The native binary from the platform package (no install script needed to place it). */
export function codexBinary(): string {
  const platform = `${process.platform}-${process.arch}`;
  const target = TARGETS[platform] ?? '';
  return installed(
    '@openai/codex binary',
    [`@openai/codex-${platform}`],
    `vendor/${target}/bin/codex`,
  );
}

/** A server table for the config: the notes server (or `args` given) under `key`, required. */
export function serverTable(key: string, args: string[] = [NOTES_SERVER]): string {
  const quoted = /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
  return `[mcp_servers.${quoted}]\ncommand = ${tomlString(process.execPath)}\nargs = [${args.map(tomlString).join(', ')}]\n# Codex waits for a required server before the first request.\nrequired = true\n`;
}

export interface CodexCase {
  /** The committed .codex/config.toml, as text. */
  project?: string;
  /** Tables added to the user's ~/.codex/config.toml (a server the project file only tunes). */
  user?: string;
  /** The tools to call (default: the notes tools under mcp__notes). */
  calls?: Call[];
}

/** The notes tools' calls under a namespace (mcp__<normalised key>). */
export function notesCalls(namespace = 'mcp__notes'): Call[] {
  return TOOLS.map((t) => ({ name: `${namespace}__${t}`, tool: t, input: INPUT[t] ?? {} }));
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

/** The user config: the stand-in as model provider, the repository trusted, the canary. */
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

${serverTable('canary', [NOTES_SERVER, '--read-only'])}default_tools_approval_mode = "approve"

${extra}`;
}

/** What Codex did with one call, from its events and what the stand-in got back. */
function verdict(
  call: Call,
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
async function attempt(
  dir: string,
  c: CodexCase,
): Promise<Record<string, ClientDecision> | undefined> {
  const api = await startResponsesApi();
  try {
    const home = await tempDir();
    await writeFile(join(home, 'config.toml'), userConfig(api.url, dir, c.user));
    const calls = c.calls ?? notesCalls();
    api.expect([...calls, CANARY]);
    const run = await runClient(
      codexBinary(),
      ['exec', '--skip-git-repo-check', '--json', 'Use the notes tools.'],
      {
        cwd: dir,
        env: { HOME: home, CODEX_HOME: home, STANDIN_API_KEY: 'dummy' },
        // The result is out at the turn's end: nothing after it decides anything.
        done: (stdout) => /"type":"turn\.(completed|failed)"/.test(stdout),
      },
    );
    const events = jsonLines<Event>(run.stdout);
    const offered = new Set(api.offered());
    // Codex that refused its config never asks the model: that is the case's failure, not a race.
    if (!offered.has(CANARY.name) && !events.some((e) => e.type === 'turn.started'))
      throw new Error(`codex exited ${run.code} before its first turn: ${run.stderr.slice(-800)}`);
    if (!offered.has(CANARY.name)) return undefined;
    if (!events.some((e) => e.type === 'turn.completed'))
      throw new Error(`codex exited ${run.code} with no finished turn: ${run.stderr.slice(-800)}`);
    const outputs = api.outputs();
    if (verdict(CANARY, events, offered, outputs.get(CANARY.name)) !== 'allow')
      throw new Error('harness: the canary did not run');
    return Object.fromEntries(
      calls.map((call) => [call.tool, verdict(call, events, offered, outputs.get(call.name))]),
    );
  } finally {
    await api.close();
  }
}

/** What Codex did with each call (by tool name) in the repository, retried while not ready. */
export function observeCodex(dir: string, c: CodexCase): Promise<Record<string, ClientDecision>> {
  return retried('Codex', () => attempt(dir, c));
}
