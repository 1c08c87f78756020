// The real opencode, run offline against a local Chat Completions stand-in
// (test/support/chat-api.ts) through its bundled @ai-sdk/openai-compatible provider, over ACP
// (`opencode acp`, acp.ts): one process for the cases that configure the same servers, a session
// a case in the case's repository (its committed files), the servers and the provider in the
// user's config of a HOME (XDG_* inside it) made for the process. The model calls the tools, and
// what opencode did with each (ran, asked: a permission request, refused: not offered, a call of
// it "invalid") is read from the session's updates. Readiness: each server runs behind
// test/oracle/listed.mjs, which writes a marker for its session's folder once it has answered
// tools/list; a case in which the marker was missing when its first model request came in is run
// again a bounded number of times, then fails as a harness failure, never read as a decision.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientDecision } from '../../src/clients/client.js';
import { startChatApi } from '../support/chat-api.js';
import { NOTES_SERVER, tempDir } from '../support/cli.js';
import { runAcp, type AcpResult } from './acp.js';
import { INPUT, TOOLS, installed, retriedCases, type Call } from './harness.js';

const LISTED = fileURLToPath(new URL('listed.mjs', import.meta.url));

/** The native binary from the platform package (no install script needed to place it). */
export function opencodeBinary(): string {
  const platform = `${process.platform}-${process.arch}`;
  return installed(
    'opencode binary',
    [`opencode-${platform}`, `opencode-${platform}-baseline`],
    'bin/opencode',
  );
}

export interface OpencodeCase {
  /** The committed files by repository path (opencode.json, opencode.jsonc, ...), as text. */
  files: Record<string, string>;
  /** The servers in the user's config, by key (default: the notes server as `notes`). */
  servers?: string[];
  /** The tools to call (default: the notes tools of the first server). */
  calls?: Call[];
}

/** The notes tools' calls, as opencode names them under server key `key` (other characters → _). */
export function notesCalls(key = 'notes'): Call[] {
  const server = key.replace(/[^a-zA-Z0-9_-]/g, '_');
  return TOOLS.map((t) => ({ name: `${server}_${t}`, tool: t, input: INPUT[t] ?? {} }));
}

interface Update {
  sessionUpdate?: string;
  toolCallId?: string;
  title?: string;
  status?: string;
  rawInput?: { tool?: string };
}

/** What opencode did with a call in one session, from its updates and permission requests. */
function verdictOf(call: Call, session: AcpResult, offered: Set<string>): ClientDecision {
  const updates = session.updates.map((u) => (u.update ?? {}) as Update);
  const id = updates.find((u) => u.title === call.name)?.toolCallId;
  const own = updates.filter((u) => u.toolCallId !== undefined && u.toolCallId === id);
  const invalid = own.some((u) => u.title === 'invalid' && u.rawInput?.tool === call.name);
  const status = own.findLast((u) => u.status === 'completed' || u.status === 'failed')?.status;
  const asked = session.permissions.some(
    (p) => (p.toolCall as Update | undefined)?.toolCallId === id,
  );
  const check = (d: ClientDecision, ok: boolean) => {
    if (!ok) throw new Error(`harness: ${call.name} ${d} but offered=${offered.has(call.name)}`);
    return d;
  };
  // Denied: opencode takes the tool off the model's list, and a call of it is "invalid".
  if (invalid || (id === undefined && !offered.has(call.name)))
    return check('deny', !offered.has(call.name));
  if (status === 'completed') return check('allow', offered.has(call.name));
  if (status === 'failed' && asked) return check('ask', offered.has(call.name));
  throw new Error(`harness: no known answer for ${call.name}: ${JSON.stringify(own)}`);
}

/** The user's config: the stand-in as the model's provider, and the servers behind listed.mjs. */
function userConfig(apiUrl: string, servers: string[], markers: string[]): string {
  const mcp = Object.fromEntries(
    servers.map((key, i) => [
      key,
      {
        type: 'local',
        command: [process.execPath, LISTED, markers[i], NOTES_SERVER],
        timeout: 120_000,
      },
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
    // The stand-in alone: opencode sets up each provider it knows for every session's folder.
    enabled_providers: ['standin'],
    mcp,
  });
}

/**
 * opencode installs its plugin package (@opencode-ai/plugin) with npm into every config folder it
 * reads, in the background, unless the folder has a node_modules and a package-lock.json that
 * already lists it: some 5 s of CPU, and the registry, for each process in a fresh home. No case
 * loads a plugin, so the folder says it has it.
 */
async function skipPluginInstall(dir: string): Promise<void> {
  await mkdir(join(dir, 'node_modules'), { recursive: true });
  const lock = { packages: { '': { dependencies: { '@opencode-ai/plugin': '*' } } } };
  await writeFile(join(dir, 'package-lock.json'), JSON.stringify(lock));
}

let nextId = 0;

/** One opencode process for cases with the same servers; undefined for a case not ready. */
async function runGroup(servers: string[], cases: { dir: string; c: OpencodeCase }[]) {
  const api = await startChatApi();
  try {
    const home = await tempDir();
    const markers = servers.map((_, i) => `${join(home, `listed-${i}`)}/`);
    for (const m of markers) await mkdir(m, { recursive: true });
    await mkdir(join(home, '.config/opencode'), { recursive: true });
    await skipPluginInstall(join(home, '.config/opencode'));
    await writeFile(
      join(home, '.config/opencode/opencode.json'),
      userConfig(api.url, servers, markers),
    );
    const ids = cases.map(() => ++nextId);
    cases.forEach(({ dir, c }, i) =>
      api.expectCase(ids[i] as number, c.calls ?? notesCalls(servers[0]), () =>
        markers.every((m) => existsSync(`${m}${encodeURIComponent(dir)}`)),
      ),
    );
    const xdg = (name: string) => join(home, name);
    const sessions = await runAcp(
      opencodeBinary(),
      ['acp'],
      cases.map(({ dir }, i) => ({
        cwd: dir,
        prompt: `Use the notes tools. oracle case ${ids[i]}`,
      })),
      {
        cwd: home,
        permission: 'reject',
        env: {
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
      },
    );
    return cases.map(({ c }, i) => {
      const record = api.record(ids[i] as number);
      if (record.readyAtFirst === undefined)
        throw new Error(`opencode sent no model request for case ${ids[i]}`);
      if (!record.readyAtFirst) return undefined;
      const offered = new Set(record.offered);
      const session = sessions[i] as AcpResult;
      const calls = c.calls ?? notesCalls(servers[0]);
      return Object.fromEntries(
        calls.map((call) => [call.tool, verdictOf(call, session, offered)]),
      );
    });
  } finally {
    await api.close();
  }
}

/**
 * What opencode did with each call (by tool name) of each case, in its repository `dir`: one
 * process a set of servers, a case not ready run again.
 */
export function observeOpencode(
  cases: { dir: string; c: OpencodeCase }[],
): Promise<Record<string, ClientDecision>[]> {
  return retriedCases('opencode', cases, async (todo) => {
    const out: (Record<string, ClientDecision> | undefined)[] = todo.map(() => undefined);
    const groups = new Map<string, number[]>();
    todo.forEach(({ c }, i) => {
      const key = JSON.stringify(c.servers ?? ['notes']);
      groups.set(key, [...(groups.get(key) ?? []), i]);
    });
    await Promise.all(
      [...groups].map(async ([key, members]) => {
        const got = await runGroup(
          JSON.parse(key) as string[],
          members.map((i) => todo[i] as (typeof todo)[number]),
        );
        members.forEach((i, n) => (out[i] = got[n]));
      }),
    );
    return out;
  });
}
