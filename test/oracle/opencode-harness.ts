// The real opencode, run offline against a local Chat Completions stand-in
// (test/support/chat-api.ts) through its bundled @ai-sdk/openai-compatible provider: one project
// and one HOME (XDG_* inside it) per case, the servers in the user's config, the case's files
// committed in the project. `opencode run` calls the tools, and what it did with each (ran, was
// refused an "ask", did not offer it) is read from its --format json events. Readiness: each
// server runs behind test/oracle/listed.mjs, which writes a marker once it has answered
// tools/list; a run in which a marker was missing when the first model request came in is retried
// a bounded number of times, then fails as a harness failure, never read as a decision.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientDecision } from '../../src/clients/client.js';
import { opencodeName } from '../../src/clients/opencode/model.js';
import { startChatApi } from '../support/chat-api.js';
import { EXAMPLE, tempDir } from '../support/cli.js';
import type { ToolCall } from '../support/model-api.js';
import { INPUT, TOOLS } from './harness.js';

/** How many times a run in which a server had not been listed is tried before giving up. */
const ATTEMPTS = 3;
const LISTED = fileURLToPath(new URL('listed.mjs', import.meta.url));
const REJECTED = 'The user rejected permission';

/** The native binary from the platform package (no install script needed to place it). */
export function opencodeBinary(): string {
  const require = createRequire(join(dirname(LISTED), 'package.json'));
  const platform = `${process.platform}-${process.arch}`;
  for (const pkg of [`opencode-${platform}`, `opencode-${platform}-baseline`])
    try {
      return join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', 'opencode');
    } catch {
      // The next variant.
    }
  throw new Error(`No opencode binary for ${platform}: run npm run oracles:install.`);
}

export interface OpencodeCase {
  /** The committed files by repository path (opencode.json, opencode.jsonc, ...), as text. */
  files: Record<string, string>;
  /** The servers in the user's config, by key (default: the notes server as `notes`). */
  servers?: string[];
  /** The tools to call, by full name (default: the notes tools of the first server). */
  calls?: ToolCall[];
}

/** The notes tools' calls, as opencode names them under server key `key`. */
export function notesCalls(key = 'notes'): ToolCall[] {
  return TOOLS.map((t) => ({ name: opencodeName(key, t), input: INPUT[t] ?? {} }));
}

interface Part {
  tool?: string;
  state?: { status?: string; input?: { tool?: string }; error?: string };
}
interface Event {
  type?: string;
  part?: Part & { reason?: string };
}

/** What opencode did with a call, from its events; undefined while it has not said. */
function verdictOf(
  call: ToolCall,
  events: Event[],
  offered: Set<string>,
): ClientDecision | undefined {
  const parts = events.filter((e) => e.type === 'tool_use').map((e) => e.part ?? {});
  const own = parts.find((p) => p.tool === call.name);
  const invalid = parts.find((p) => p.tool === 'invalid' && p.state?.input?.tool === call.name);
  const check = (d: ClientDecision, ok: boolean) => {
    if (!ok) throw new Error(`harness: ${call.name} ${d} but offered=${offered.has(call.name)}`);
    return d;
  };
  if (own?.state?.status === 'completed') return check('allow', offered.has(call.name));
  if (own?.state?.status === 'error' && own.state.error?.includes(REJECTED))
    return check('ask', offered.has(call.name));
  if (own?.state?.status === 'error')
    throw new Error(`harness: ${call.name} failed: ${own.state.error}`);
  // Denied: opencode takes the tool off the model's list, and a call of it is "unavailable".
  if (invalid || (!offered.has(call.name) && events.some((e) => e.part?.reason === 'stop')))
    return check('deny', !offered.has(call.name));
  return undefined;
}

/** Runs `opencode run` in the project; stops its process group once every call is decided. */
function runOpencode(
  dir: string,
  home: string,
  done: (events: Event[]) => boolean,
): Promise<{ code: number | null; events: Event[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const xdg = (name: string) => join(home, name);
    const child = spawn(opencodeBinary(), ['run', '--format', 'json', 'Use the notes tools.'], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_CONFIG_HOME: xdg('.config'),
        XDG_DATA_HOME: xdg('.local/share'),
        XDG_CACHE_HOME: xdg('.cache'),
        XDG_STATE_HOME: xdg('.local/state'),
        // Offline: no update check, no model list or plugin to fetch (each waits on the network).
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER: '1',
      },
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
      if (stdout.endsWith('\n') && done(events())) kill();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A hang guard only: a run ends in seconds.
    const timer = setTimeout(kill, 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      kill();
      resolve({ code, events: events(), stderr });
    });
  });
}

/** The user's config: the stand-in as the model's provider, and the servers behind the probe. */
function userConfig(apiUrl: string, servers: string[], markers: string[]): string {
  const mcp = Object.fromEntries(
    servers.map((key, i) => [
      key,
      { type: 'local', command: [process.execPath, LISTED, markers[i], EXAMPLE], timeout: 120_000 },
    ]),
  );
  return JSON.stringify({
    provider: {
      standin: {
        npm: '@ai-sdk/openai-compatible',
        name: 'standin',
        options: { baseURL: apiUrl, apiKey: 'dummy' },
        models: { m: { name: 'm' } },
      },
    },
    model: 'standin/m',
    mcp,
  });
}

/** One run; undefined when a server had not been listed at the first model request. */
async function attempt(c: OpencodeCase): Promise<Record<string, ClientDecision> | undefined> {
  const api = await startChatApi();
  try {
    const dir = await tempDir();
    const home = await tempDir();
    const servers = c.servers ?? ['notes'];
    const markers = servers.map((_, i) => join(home, `listed-${i}`));
    await mkdir(join(home, '.config/opencode'), { recursive: true });
    await writeFile(
      join(home, '.config/opencode/opencode.json'),
      userConfig(api.url, servers, markers),
    );
    for (const [path, text] of Object.entries(c.files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    const calls = c.calls ?? notesCalls(servers[0]);
    api.expect(calls, () => markers.every((m) => existsSync(m)));
    const run = await runOpencode(dir, home, (events) =>
      calls.every((call) => verdictOf(call, events, new Set(api.offered())) !== undefined),
    );
    const ready = api.readyAtFirst();
    // opencode that refused its config never asks the model: the case's failure, not a race.
    if (ready === undefined)
      throw new Error(
        `opencode exited ${run.code} before its first request: ${run.stderr.slice(-800)}`,
      );
    if (!ready) return undefined;
    const offered = new Set(api.offered());
    return Object.fromEntries(
      calls.map((call) => {
        const seen = verdictOf(call, run.events, offered);
        if (!seen)
          throw new Error(`harness: no known answer for ${call.name}: ${run.stderr.slice(-800)}`);
        return [call.name, seen];
      }),
    );
  } finally {
    await api.close();
  }
}

/** What opencode did with each call (by full name), retrying a run in which it was not ready. */
export async function observeOpencode(c: OpencodeCase): Promise<Record<string, ClientDecision>> {
  for (let n = 0; n < ATTEMPTS; n++) {
    const got = await attempt(c);
    if (got) return got;
  }
  throw new Error(
    `harness failure: opencode had not listed the servers' tools at its first request in ${ATTEMPTS} runs; this is not a decision`,
  );
}
