import { readFile, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCommandLine } from './cli/args.js';
import { directSpawn } from './config/command-line.js';
import { DEFAULT_SETTINGS, LOCAL_SETTINGS } from './config/defaults.js';
import { readInputs } from './config/inputs.js';
import { ServerProcess, type SpawnSpec } from './server/process.js';

/*
 * The early start, the whole of it. When argv (the CLI) or the inputs (the action) name a stdio
 * server, its spawn spec follows from them alone: the entry starts the server before the rest of
 * the auditor (zod, yaml, the MCP SDK) loads, so the server boots while we do. The audit claims
 * it (serverFor) only when its own settings yield the very same spec; otherwise it is stopped
 * unused (stopUnclaimed). The server under audit is PR code, so the files the action trusts (the
 * event, the config file) are read before it starts (readTrusted), and what the server does to
 * them afterwards cannot change this run.
 */

/** What the entry did before loading the rest. */
const early = {
  servers: [] as ServerProcess[],
  /** Absolute path -> what reading it gave. */
  files: new Map<string, { text: string } | { error: Error }>(),
  /** The working-directory input is already the current directory. */
  enteredWorkingDirectory: false,
};

/** Same command, arguments, environment and directory (a relative or absent cwd is resolved now). */
function sameSpec(a: SpawnSpec, b: SpawnSpec): boolean {
  const keys = (env: Record<string, string>) => Object.keys(env).sort().join('\0');
  return (
    a.command === b.command &&
    resolve(a.cwd ?? '.') === resolve(b.cwd ?? '.') &&
    a.args.length === b.args.length &&
    a.args.every((arg, i) => arg === b.args[i]) &&
    keys(a.env) === keys(b.env) &&
    Object.entries(a.env).every(([k, v]) => b.env[k] === v)
  );
}

/**
 * For `list|check|update [options] -- <server...>`: the server after `--`, with --env and --cwd,
 * from the very parse the command then checks. A command line that does not parse starts
 * nothing: the command reports what is wrong with it.
 */
export function prestartForCli(argv: string[]): void {
  try {
    const line = parseCommandLine(argv);
    if (line.mode === 'rules' || line.values.help || line.values.url !== undefined) return;
    if (!line.server.length) return;
    early.servers.push(new ServerProcess(directSpawn(line.server, line.values)));
    loadSdkMeanwhile();
  } catch {
    // The command reports what is wrong with these arguments.
  }
}

/**
 * Starts loading the MCP SDK (and zod) as soon as a server is up: the listing imports it again
 * and gets the same module, but by then it is read and compiled, in the gaps while the entry
 * loads the rest of the auditor and reads its files. A failure is the listing's to report.
 */
function loadSdkMeanwhile(): void {
  import('./server/sdk.js').catch(() => undefined);
}

/** Reads `paths` now, keeping each text or error for later. */
function readNow(paths: string[]): void {
  for (const path of paths) {
    const key = resolve(path);
    try {
      early.files.set(key, { text: readFileSync(key, 'utf8') });
    } catch (error) {
      early.files.set(key, { error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
}

/**
 * For the action's stdio `command` input: the working directory is entered and the event and the
 * config file are read first, then the server starts and boots while the rest of the action
 * loads, reads the config file and the event, and asks for the base class list (often a GitHub
 * API request).
 */
export function prestartForAction(env: NodeJS.ProcessEnv): void {
  try {
    const inputs = readInputs(env);
    const command = inputs.overrides.command;
    // A report-file run only comments on an earlier audit: nothing of the PR may run there.
    if (!command?.length || inputs.reportFile !== undefined) return;
    const spec = directSpawn(command, inputs.overrides);
    // The audit withholds the token from the server (or refuses a command line that holds it) and
    // says so; it starts that server itself.
    const token = inputs.token;
    if (
      token !== undefined &&
      [...Object.values(spec.env), spec.command, ...spec.args].some((v) => v.includes(token))
    )
      return;
    if (inputs.workingDirectory !== undefined) {
      process.chdir(resolve(env.GITHUB_WORKSPACE ?? process.cwd(), inputs.workingDirectory));
      early.enteredWorkingDirectory = true;
    }
    // The Claude Code settings files the check judges, too (files only the config file names
    // are read once it is parsed).
    readNow(
      [
        env.GITHUB_EVENT_PATH,
        inputs.config,
        ...(inputs.claudeSettings ?? [DEFAULT_SETTINGS, LOCAL_SETTINGS]),
      ].filter((p): p is string => Boolean(p)),
    );
    // A config file the audit will refuse (unreadable, or named but missing): start nothing.
    const config = early.files.get(resolve(inputs.config));
    if (config && 'error' in config) {
      const missing = (config.error as NodeJS.ErrnoException).code === 'ENOENT';
      if (!missing || inputs.configRequired) return;
    }
    early.servers.push(new ServerProcess(spec));
    loadSdkMeanwhile();
  } catch {
    // The audit reports what is wrong with the inputs or the working directory.
  }
}

/** Whether the early start already entered the working-directory input. */
export function enteredWorkingDirectory(): boolean {
  return early.enteredWorkingDirectory;
}

/** A file's text as the early start read it, before the server under audit ran; else as it is now. */
export function readTrusted(path: string): Promise<string> {
  const got = early.files.get(resolve(path));
  // node:fs's callback form: the early start loads nothing it does not need (fs/promises).
  if (!got)
    return new Promise((done, fail) =>
      readFile(path, 'utf8', (error, text) => (error ? fail(error) : done(text))),
    );
  return 'text' in got ? Promise.resolve(got.text) : Promise.reject(got.error);
}

/** The server for this spec: the one started early if its spec is the same and unclaimed, else a new one. */
export function serverFor(spec: SpawnSpec): ServerProcess {
  const index = early.servers.findIndex((server) => sameSpec(server.spec, spec));
  return (index < 0 ? undefined : early.servers.splice(index, 1)[0]) ?? new ServerProcess(spec);
}

/** Stops servers started early that the audit did not use (a bad config, --help, another spec). */
export async function stopUnclaimed(): Promise<void> {
  await Promise.all(early.servers.splice(0).map((server) => server.stop()));
}
