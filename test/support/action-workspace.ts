// The checkout a PR's action run audits: class lists recorded by the real `update` at the base
// commit (served by the fake GitHub API) and at HEAD, and the files the PR commits.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { runAction, TOKEN, type ActionRun, type ActionRunOptions } from './action.js';
import {
  notesSpec,
  runCli,
  SERVERS,
  specServer,
  tempDir,
  withAnnotations,
  type Run,
  type SpecTool,
} from './cli.js';
import {
  DEFAULT_BASE_SHA,
  startGitHubApi,
  type FakeGitHub,
  type FakeGitHubOptions,
} from './github-api.js';

type Spec = { name: string; tools: SpecTool[] };
type NotesSpec = Awaited<ReturnType<typeof notesSpec>>;

const CLASS_LIST = 'mcp-tool-classes.json';

/**
 * A fake GitHub API (the run's token, `options` besides) for each test of the enclosing
 * describe, handed to `use` with the example's spec before the test; after it, the API is closed
 * and must have answered every request as GitHub does. `restart` swaps in one with other options
 * (handed to `use` too) for a test that needs them.
 */
export function fakeGitHubEach(
  use: (api: FakeGitHub, spec: NotesSpec) => void,
  options: FakeGitHubOptions = {},
): { restart(others: FakeGitHubOptions): Promise<FakeGitHub> } {
  let api: FakeGitHub | undefined;
  let spec: NotesSpec | undefined;
  async function start(others: FakeGitHubOptions): Promise<FakeGitHub> {
    await api?.close();
    api = await startGitHubApi({ token: TOKEN, ...others });
    spec ??= await notesSpec();
    use(api, spec);
    return api;
  }
  beforeEach(async () => {
    spec = undefined;
    await start(options);
  });
  afterEach(async () => {
    const started = api;
    api = undefined;
    if (!started) return;
    try {
      expect(started.responseViolations).toEqual([]);
    } finally {
      await started.close();
    }
  });
  return { restart: start };
}

/** The PR's change most runs audit: add_note claims to be read-only (class-relaxed). */
export function relaxAddNote<T extends Spec>(spec: T): T {
  return withAnnotations(spec, 'add_note', { readOnlyHint: true });
}

/** The PR's change that must fail: delete_note drops its destructiveHint (hint-dropped). */
export function dropDestructive<T extends Spec>(spec: T): T {
  return withAnnotations(spec, 'delete_note', { destructiveHint: undefined });
}

/** The config file the action reads by default. */
export const ACTION_CONFIG = '.github/mcp-annotation-auditor.yml';

/** The server entry that serves `spec.json` of the folder the server runs in. */
export const SERVED = { command: 'node', args: [join(SERVERS, 'configurable.mjs'), 'spec.json'] };

/** Only the diff with the base catches it: delete_note loses idempotentHint. */
export function dropIdempotent<T extends Spec>(spec: T): T {
  return withAnnotations(spec, 'delete_note', { idempotentHint: undefined });
}

/** The parts of the JSON report the base tests read. */
export interface ReportSummary {
  result: string;
  findings: { rule: string; tool?: string; approved?: boolean }[];
}

/** The JSON report a run's `report` output names. */
export async function reportOf(path: string | undefined): Promise<ReportSummary> {
  return JSON.parse(await readFile(path ?? '', 'utf8')) as ReportSummary;
}

/** The command input as a workflow writes it: each word in single quotes. */
export function quote(words: string[]): string {
  return words.map((w) => `'${w}'`).join(' ');
}

export interface PrWorkspace {
  dir: string;
  /** The base's server command line. */
  base: string[];
  /** The PR's server command line: `base` when the PR changes no tool. */
  head: string[];
}

/** What runs the CLI's update and the action: the built ones (e2e), or in this process (unit). */
export interface Runners {
  cli(args: string[], options: { cwd: string }): Promise<Run>;
  action(options: ActionRunOptions): Promise<ActionRun>;
}

/** What a run may set besides the workspace, the API and the inputs. */
export type RunExtras = Omit<ActionRunOptions, 'workspace' | 'apiUrl' | 'inputs'>;

/**
 * The helpers below over `runners`: the e2e layer's are the module's exports; the unit layer's
 * come from test/support/action-in-memory.ts, the same checkouts with nothing spawned.
 */
export function workspaceHelpers(runners: Runners) {
  /** Records `server`'s tools in the class list at HEAD of `dir` with `update`, as a PR's author would. */
  async function recordAtHead(dir: string, server: string[]): Promise<void> {
    const update = await runners.cli(['update', '--class-list', CLASS_LIST, '--', ...server], {
      cwd: dir,
    });
    expect(update.code, update.stderr).toBe(0);
  }

  /** The class list `update` writes for a spec: the same in every folder, so recorded once. */
  const recorded = new Map<string, Promise<string>>();
  function recordedClassList(spec: Spec): Promise<string> {
    const key = JSON.stringify(spec);
    let text = recorded.get(key);
    if (!text) {
      text = (async () => {
        const dir = await tempDir();
        await recordAtHead(dir, await specServer(dir, 'spec.json', spec));
        return readFile(join(dir, CLASS_LIST), 'utf8');
      })();
      recorded.set(key, text);
    }
    return text;
  }

  /**
   * A workspace whose class list at the base commit and at HEAD records `base`; with `head`, the
   * PR's server, recorded at HEAD over it; with `files` (path -> text), those files committed.
   */
  async function prWorkspace(
    api: FakeGitHub,
    specs: { base: Spec; head?: Spec; files?: Record<string, string> },
  ): Promise<PrWorkspace> {
    const dir = await tempDir();
    const base = await specServer(dir, 'base-spec.json', specs.base);
    const text = await recordedClassList(specs.base);
    await writeFile(join(dir, CLASS_LIST), text);
    api.setFile(DEFAULT_BASE_SHA, CLASS_LIST, text);
    let head = base;
    if (specs.head) {
      head = await specServer(dir, 'head-spec.json', specs.head);
      await recordAtHead(dir, head);
    }
    for (const [path, content] of Object.entries(specs.files ?? {})) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    return { dir, base, head };
  }

  /** The action run in `dir` against the fake API, as a PR's workflow runs it. */
  function runIn(
    api: FakeGitHub,
    dir: string,
    inputs: Record<string, string>,
    extras: RunExtras = {},
  ): Promise<ActionRun> {
    return runners.action({ workspace: dir, apiUrl: api.url, inputs, ...extras });
  }

  /**
   * In `dir` (the server's folder `at`, under the repository's root `dir`): the config, the base
   * spec and the class list update records, each served by the API at `sha` under `prefix`; then
   * the PR's spec, with the dropped hint recorded.
   */
  async function basedWorkspace(
    api: FakeGitHub,
    dir: string,
    config: Record<string, unknown>,
    options: { at?: string; sha?: string; classList?: string; beforePr?: () => Promise<void> } = {},
  ): Promise<void> {
    const { at = '', sha = DEFAULT_BASE_SHA, classList = 'mcp-tool-classes.json' } = options;
    const root = join(dir, at);
    const prefix = at ? `${at}/` : '';
    const spec = await notesSpec();
    await mkdir(join(root, '.github'), { recursive: true });
    await mkdir(join(root, classList, '..'), { recursive: true });
    const configText = JSON.stringify(config);
    await writeFile(join(root, ACTION_CONFIG), configText);
    await writeFile(join(root, 'spec.json'), JSON.stringify(spec));
    const update = async () => {
      const run = await runners.cli(['update'], { cwd: join(dir, at) });
      expect(run.code, run.stderr).toBe(0);
    };
    await update();
    api.setFile(sha, `${prefix}${ACTION_CONFIG}`, configText);
    api.setFile(sha, `${prefix}${classList}`, await readFile(join(root, classList), 'utf8'));
    await options.beforePr?.();
    await writeFile(join(dir, at, 'spec.json'), JSON.stringify(dropIdempotent(spec)));
    await update();
  }

  return { basedWorkspace, recordAtHead, recordedClassList, prWorkspace, runIn };
}

/** The built CLI and action, as the e2e layer runs them. */
export const { basedWorkspace, recordAtHead, recordedClassList, prWorkspace, runIn } =
  workspaceHelpers({
    cli: runCli,
    action: runAction,
  });
