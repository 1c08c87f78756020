// The real Claude Code, run offline against a local model stand-in (test/support/model-api.ts):
// one project per case, with the notes server in .mcp.json under a given key and the case's
// settings files; it tries list_notes, add_note and delete_note, and what it did with each (ran,
// asked, refused) is read from what came back. A run in which Claude Code never connected the
// server is retried a bounded number of times, then fails as a harness failure, never as "deny".
import { execFile } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { NOTES_SERVER, ROOT, tempDir, type Run } from '../support/cli.js';
import { startModelApi } from '../support/model-api.js';
import {
  INPUT,
  TOOLS,
  decisions,
  installed,
  jsonLines,
  predict,
  retried,
  runClient,
  type Observed,
} from './harness.js';

/** The native binary from the platform package (no install script needed to place it). */
export function claudeBinary(): string {
  const platform = `${process.platform}-${process.arch}`;
  return installed(
    '@anthropic-ai/claude-code binary',
    [`@anthropic-ai/claude-code-${platform}`, `@anthropic-ai/claude-code-${platform}-musl`],
    process.platform === 'win32' ? 'claude.exe' : 'claude',
  );
}

/** A settings file: a value written as JSON, or text written as it is. */
export type FileContent = unknown;

export interface Case {
  /** The server's key in .mcp.json (default "notes"). */
  key?: string;
  user?: FileContent;
  project?: FileContent;
  local?: FileContent;
  /** The project is a git repository with .claude/settings.local.json tracked. */
  trackLocal?: boolean;
  env?: Record<string, string>;
  /** Other files of the project (repository-relative path to text): commands, skills. */
  files?: Record<string, string>;
  /** The prompt (default: use the notes tools); a slash command's name runs that command. */
  prompt?: string;
}

export interface Project {
  dir: string;
  home: string;
  key: string;
  /** The settings files written, as paths for check --settings. */
  settings: string[];
  prompt: string;
}

/** A project with the notes server in .mcp.json, the class list, and the case's files. */
export async function project(c: Case): Promise<Project> {
  const dir = await tempDir();
  const home = await tempDir();
  const key = c.key ?? 'notes';
  await mkdir(join(dir, '.claude'), { recursive: true });
  await mkdir(join(home, '.claude'), { recursive: true });
  await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
  await writeFile(
    join(dir, '.mcp.json'),
    JSON.stringify({ mcpServers: { [key]: { command: process.execPath, args: [NOTES_SERVER] } } }),
  );
  await writeFile(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      projects: { [dir]: { hasTrustDialogAccepted: true, enabledMcpjsonServers: [key] } },
    }),
  );
  const settings: string[] = [];
  const put = async (path: string, value: FileContent) => {
    if (value === undefined) return;
    await writeFile(
      path,
      typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`,
    );
    settings.push(path);
  };
  await put(join(home, '.claude/settings.json'), c.user);
  await put(join(dir, '.claude/settings.json'), c.project);
  await put(join(dir, '.claude/settings.local.json'), c.local);
  for (const [path, text] of Object.entries(c.files ?? {})) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  if (c.trackLocal) {
    const git = promisify(execFile);
    await git('git', ['init', '-q', dir]);
    await git('git', ['-C', dir, 'add', '-f', '.claude/settings.local.json']);
  }
  return { dir, home, key, settings, prompt: c.prompt ?? 'Use the notes tools.' };
}

interface Event {
  type?: string;
  subtype?: string;
  mcp_servers?: { name: string; status: string }[];
}

/** Runs `claude -p` in the project, stopped once its result event is out. */
function runClaude(p: Project, apiUrl: string, env: Record<string, string>) {
  // No transcript of a run that is thrown away (the result comes from stdout and the stand-in).
  const args = [
    '-p',
    p.prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--no-session-persistence',
  ];
  return runClient(claudeBinary(), args, {
    cwd: p.dir,
    env: {
      HOME: p.home,
      ANTHROPIC_BASE_URL: apiUrl,
      ANTHROPIC_API_KEY: 'sk-ant-dummy-for-a-local-stand-in',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      // Start-up work that plays no part in a permission decision (error reports, bundled skills,
      // CLAUDE.md memory, file checkpoints, prompt history, the background-task, cron and
      // workflow tools, the install check): most of a run's CPU is Claude Code's own start-up.
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_BUNDLED_SKILLS: '1',
      CLAUDE_CODE_DISABLE_CLAUDE_MDS: '1',
      CLAUDE_CODE_DISABLE_FILE_CHECKPOINTING: '1',
      CLAUDE_CODE_SKIP_PROMPT_HISTORY: '1',
      CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: '1',
      CLAUDE_CODE_DISABLE_CRON: '1',
      CLAUDE_CODE_DISABLE_WORKFLOWS: '1',
      DISABLE_INSTALLATION_CHECKS: '1',
      // Connect the MCP servers before the first request (on a busy machine the non-blocking
      // default can send it before the server is up); a run that still misses it is retried.
      MCP_CONNECTION_NONBLOCKING: 'false',
      MCP_CONNECT_TIMEOUT_MS: '60000',
      ...env,
    },
    done: (stdout) => jsonLines<Event>(stdout).some((e) => e.type === 'result'),
  });
}

/** What one result text says Claude Code did; undefined for a text the harness does not know. */
function verdict(result: { text: string; isError: boolean }): Observed | undefined {
  if (!result.isError) return 'allow';
  const { text } = result;
  if (text.includes("haven't granted it yet")) return 'ask';
  // Plan mode with no rule for a read-only tool: refused in -p mode as a prompt would be.
  if (text.includes('Auto mode is unavailable')) return 'ask';
  if (
    text.includes('No such tool available') ||
    text.includes("running in don't ask mode") ||
    text.includes('while in plan mode')
  )
    return 'deny';
  return undefined;
}

export interface ClaudeObservation {
  observed: Record<string, Observed>;
  results: Map<string, { text: string; isError: boolean }>;
}

/** One run of Claude Code on the project; undefined when it never connected the server. */
async function attempt(
  p: Project,
  env: Record<string, string>,
): Promise<ClaudeObservation | undefined> {
  const api = await startModelApi();
  try {
    const names = TOOLS.map((t) => `mcp__${p.key}__${t}`);
    api.expect(names.map((name, i) => ({ name, input: INPUT[TOOLS[i] as string] ?? {} })));
    const run = await runClaude(p, api.url, env);
    const events = jsonLines<Event>(run.stdout);
    if (!events.some((e) => e.type === 'result'))
      throw new Error(`claude exited ${run.code} with no result: ${run.stderr.slice(0, 500)}`);
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init');
    const status = init?.mcp_servers?.find((s) => s.name === p.key)?.status;
    // Not listed at all: Claude Code kept the server off (disabledMcpjsonServers), no tool runs.
    if (init?.mcp_servers && status === undefined)
      return {
        observed: Object.fromEntries(TOOLS.map((t) => [t, 'deny' as const])),
        results: api.results(),
      };
    if (status !== 'connected') return undefined;
    const offered = new Set(api.offered());
    const results = api.results();
    const observed: Record<string, Observed> = {};
    names.forEach((name, i) => {
      const got = results.get(name);
      const seen = got && verdict(got);
      if (!seen) throw new Error(`harness: no known answer for ${name}: ${JSON.stringify(got)}`);
      // A tool refused as unavailable must not have been offered: else the server was not ready.
      if (got.text.includes('No such tool available') && offered.has(name))
        throw new Error(`harness: ${name} was offered, then called unavailable`);
      observed[TOOLS[i] as string] = seen;
    });
    return { observed, results };
  } finally {
    await api.close();
  }
}

/** What Claude Code did with each tool, retrying a run in which the server never connected. */
export function observe(p: Project, env: Record<string, string> = {}): Promise<ClaudeObservation> {
  return retried('Claude Code', () => attempt(p, env));
}

/** What check --settings predicts Claude Code does with each tool (unset: Claude Code asks). */
export async function checked(
  p: Project,
): Promise<{ run: Run; decisions: Record<string, Observed> }> {
  const { run, servers } = await predict(p.dir, [{ key: p.key, args: [NOTES_SERVER] }], p.settings);
  const predicted = decisions(servers[0], 'claude-code') ?? {};
  return {
    run,
    decisions: Object.fromEntries(
      Object.entries(predicted).map(([tool, d]) => [tool, d === 'unset' ? 'ask' : d]),
    ) as Record<string, Observed>,
  };
}
