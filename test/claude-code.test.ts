// The real Claude Code, run offline against a local model stand-in, is the oracle for the rule
// matcher: for each settings layout it tries list_notes, add_note and delete_note of the example
// server, and what it did (ran, asked, denied) must be what check --settings says it decides.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkNotesIn,
  EXAMPLE,
  ROOT,
  json,
  removeTempDirs,
  runCli,
  tempDir,
} from './support/cli.js';
import { startModelApi, type ModelApi } from './support/model-api.js';

type Observed = 'allow' | 'ask' | 'deny';

/** The native binary from the platform package (no install script needed to place it). */
function claudeBinary(): string {
  const require = createRequire(import.meta.url);
  const platform = `${process.platform}-${process.arch}`;
  for (const pkg of [
    `@anthropic-ai/claude-code-${platform}`,
    `@anthropic-ai/claude-code-${platform}-musl`,
  ])
    try {
      return join(
        dirname(require.resolve(`${pkg}/package.json`)),
        process.platform === 'win32' ? 'claude.exe' : 'claude',
      );
    } catch {
      // Not this variant.
    }
  throw new Error(`No @anthropic-ai/claude-code binary for ${platform}: run npm ci.`);
}

const CALLS = [
  { name: 'mcp__notes__list_notes', input: {} },
  { name: 'mcp__notes__add_note', input: { title: 'groceries', body: 'milk' } },
  { name: 'mcp__notes__delete_note', input: { note_id: 1 } },
];

interface Layout {
  project?: unknown;
  local?: unknown;
  user?: unknown;
}

let api: ModelApi;
beforeAll(async () => {
  api = await startModelApi();
});
afterAll(async () => {
  await api.close();
  await removeTempDirs();
});

/** A project with the example server in .mcp.json, the class list, and the layout's files. */
async function project(layout: Layout): Promise<{ dir: string; home: string; settings: string[] }> {
  const dir = await tempDir();
  const home = await tempDir();
  await mkdir(join(dir, '.claude'), { recursive: true });
  await mkdir(join(home, '.claude'), { recursive: true });
  await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
  await writeFile(
    join(dir, '.mcp.json'),
    JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: [EXAMPLE] } } }),
  );
  await writeFile(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      projects: { [dir]: { hasTrustDialogAccepted: true, enabledMcpjsonServers: ['notes'] } },
    }),
  );
  // The order Claude Code gives them no meaning (every file's rules merge); check reads them all.
  const settings: string[] = [];
  const put = async (path: string, value: unknown) => {
    if (value === undefined) return;
    await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
    settings.push(path);
  };
  await put(join(home, '.claude/settings.json'), layout.user);
  await put(join(dir, '.claude/settings.json'), layout.project);
  await put(join(dir, '.claude/settings.local.json'), layout.local);
  return { dir, home, settings };
}

/** Runs `claude -p` in the project; kills its whole process group if it outlives the bound. */
function runClaude(
  dir: string,
  home: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(claudeBinary(), ['-p', 'Use the notes tools.', '--output-format', 'json'], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ANTHROPIC_BASE_URL: api.url,
        ANTHROPIC_API_KEY: 'sk-ant-dummy-for-a-local-stand-in',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const kill = () => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(kill, 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      kill(); // the MCP server it started, should it linger
      resolve({ code, stdout, stderr });
    });
  });
}

/** What Claude Code did with each tool: ran it, asked (refused in -p mode), or denied it. */
async function observe(layout: Layout) {
  const p = await project(layout);
  api.expect(CALLS);
  const run = await runClaude(p.dir, p.home);
  expect(run.code, run.stderr).toBe(0);
  const result = JSON.parse(run.stdout) as { permission_denials: { tool_name: string }[] };
  const asked = new Set(result.permission_denials.map((d) => d.tool_name));
  const offered = new Set(api.offered());
  const results = api.results();
  const observed: Record<string, Observed> = {};
  for (const { name } of CALLS) {
    const got = results.get(name);
    const tool = name.split('__')[2] as string;
    if (!offered.has(name)) {
      expect(got?.text).toContain('No such tool available');
      observed[tool] = 'deny';
    } else if (asked.has(name)) {
      expect(got?.text).toContain("haven't granted it yet");
      observed[tool] = 'ask';
    } else {
      expect(got?.isError, got?.text).toBe(false);
      observed[tool] = 'allow';
    }
  }
  return { ...p, observed, results };
}

/** What check --settings says Claude Code decides for each tool (unset: Claude Code asks). */
async function checked(dir: string, settings: string[]) {
  const run = await checkNotesIn(dir, [
    '--fail-on',
    'never',
    ...settings.flatMap((s) => ['--settings', s]),
  ]);
  expect(run.code, run.stderr).toBe(0);
  const report = json(run) as unknown as {
    tools: { name: string; claudeCode: { decision: string } }[];
  };
  return Object.fromEntries(
    report.tools.map((t) => [
      t.name,
      t.claudeCode.decision === 'unset' ? 'ask' : t.claudeCode.decision,
    ]),
  );
}

describe('the real Claude Code agrees with check --settings', () => {
  it('with the rules the class list maps to (rules --write): list_notes runs, add_note asks, delete_note is denied', async () => {
    const dir = await tempDir();
    await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
    const written = await runCli(['rules', '--write', '.claude/settings.json'], { cwd: dir });
    expect(written.code, written.stderr).toBe(0);
    const generated = JSON.parse(
      await readFile(join(dir, '.claude/settings.json'), 'utf8'),
    ) as unknown;
    const seen = await observe({ project: generated });
    expect(seen.observed).toEqual({ list_notes: 'allow', add_note: 'ask', delete_note: 'deny' });
    // list_notes ran: the server itself answered.
    expect(seen.results.get('mcp__notes__list_notes')?.text).toBe('No notes saved.');
    expect(await checked(seen.dir, seen.settings)).toEqual(seen.observed);
  });

  const layouts: [string, Layout, Record<string, Observed>][] = [
    [
      'a server-wide allow with a glob deny in the tool part',
      { project: { permissions: { allow: ['mcp__notes'], deny: ['mcp__notes__delete_*'] } } },
      { list_notes: 'allow', add_note: 'allow', delete_note: 'deny' },
    ],
    [
      'a glob in the tool part',
      { project: { permissions: { allow: ['mcp__notes__*_notes'] } } },
      { list_notes: 'allow', add_note: 'ask', delete_note: 'ask' },
    ],
    [
      'allow globs outside the tool part and a parenthesised rule, which approve nothing',
      {
        project: {
          permissions: {
            allow: ['mcp__*', 'mcp__no*', 'mcp__notes__list_notes(x)', 'mcp__notes__add_note'],
          },
        },
      },
      { list_notes: 'ask', add_note: 'allow', delete_note: 'ask' },
    ],
    [
      'a user-level deny against a project allow',
      {
        user: { permissions: { deny: ['mcp__notes__delete_note'] } },
        project: { permissions: { allow: ['mcp__notes__*'] } },
      },
      { list_notes: 'allow', add_note: 'allow', delete_note: 'deny' },
    ],
    [
      'a project ask beating a local allow',
      {
        project: { permissions: { ask: ['mcp__notes__add_note'] } },
        local: { permissions: { allow: ['mcp__notes'] } },
      },
      { list_notes: 'allow', add_note: 'ask', delete_note: 'allow' },
    ],
    [
      'an ask glob over every MCP tool beating an allow by name',
      { project: { permissions: { ask: ['mcp__*'], allow: ['mcp__notes__list_notes'] } } },
      { list_notes: 'ask', add_note: 'ask', delete_note: 'ask' },
    ],
    [
      'a deny glob in the server part',
      { project: { permissions: { deny: ['mcp__no*'], allow: ['mcp__notes'] } } },
      { list_notes: 'deny', add_note: 'deny', delete_note: 'deny' },
    ],
  ];
  it.each(layouts)('with %s', async (_name, layout, expected) => {
    const seen = await observe(layout);
    expect(seen.observed).toEqual(expected);
    expect(await checked(seen.dir, seen.settings)).toEqual(seen.observed);
  });
});
