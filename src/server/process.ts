import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { AuditError, getErrorMessage } from '../errors.js';
import { onlyZombiesIn, ProcessTree, readStat } from './tree.js';

/** Variables a server needs to run at all; everything else must be named to reach it. */
export const BASE_ENV = [
  'PATH',
  'HOME',
  'LOGNAME',
  'USER',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
  // Windows needs these to start most programs.
  'SystemRoot',
  'ComSpec',
  'PATHEXT',
  'TEMP',
  'TMP',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
];

/**
 * Set in every server's environment to an id of its own, which its descendants inherit: the one
 * tie left to a child that detached and lost its parent before the audit saw it. Not a secret.
 */
export const MARKER_VARIABLE = 'MCP_ANNOTATION_AUDITOR_SERVER_ID';

/**
 * The server's environment: the minimal base, plus what the user named. `KEY=VALUE` sets a value;
 * a bare `KEY` passes the auditor's own value through. Secrets such as GITHUB_TOKEN, ACTIONS_* and
 * INPUT_* never reach the server unless named here.
 */
export function serverEnvironment(
  named: Record<string, string | null>,
  from: NodeJS.ProcessEnv = process.env,
  withBase = true,
): Record<string, string> {
  const env: Record<string, string> = {};
  if (withBase)
    for (const key of BASE_ENV) {
      const value = from[key];
      if (value !== undefined) env[key] = value;
    }
  for (const [key, value] of Object.entries(named)) {
    if (value !== null) env[key] = value;
    else if (from[key] !== undefined) env[key] = from[key];
  }
  return env;
}

/** `KEY=VALUE` sets; a bare `KEY` passes the auditor's own value through. */
export function parseEnvEntries(entries: string[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    if (eq === 0)
      // The entry is not quoted: its value may be a secret.
      throw new AuditError(
        'Bad environment entry "=…": the name is empty.',
        'Use KEY=VALUE or KEY.',
      );
    const name = eq < 0 ? entry : entry.slice(0, eq);
    if (/\s/.test(name))
      throw new AuditError(
        `Bad environment entry: the name "${name}" holds a space.`,
        'Use KEY=VALUE with no spaces around =, or a bare KEY.',
      );
    if (eq < 0) out[entry] = null;
    else out[name] = entry.slice(eq + 1);
  }
  return out;
}

export interface SpawnSpec {
  command: string;
  args: string[];
  cwd?: string;
  env: Record<string, string>;
}

/** Keeps the last `limit` characters of a stream: a flooding server must not fill our memory. */
export class TailBuffer {
  private text = '';
  private dropped = 0;
  constructor(private readonly limit = 16_384) {}
  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.limit * 2) {
      this.dropped += this.text.length - this.limit;
      this.text = this.text.slice(-this.limit);
    }
  }
  toString(): string {
    const text = this.text.length > this.limit ? this.text.slice(-this.limit) : this.text;
    const dropped = this.dropped + (this.text.length - text.length);
    if (dropped === 0) return text;
    // The first line kept is the end of one: it may be the end of a secret, which no longer
    // matches to be redacted. It goes too, when a whole line follows.
    const newline = text.indexOf('\n');
    const whole = newline < 0 ? text : text.slice(newline + 1);
    return `[${dropped + text.length - whole.length} earlier characters not shown]\n${whole}`;
  }
}

const live = new Set<ServerProcess>();
let exitHookInstalled = false;

/**
 * Last resort: whatever still runs when we exit is killed with its whole process group and every
 * descendant seen.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const server of live) server.killAll();
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const server of live) server.killAll();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}

/** What must be done before the process ends, while it is under way (holdExit). */
let exitHeld: Promise<void> | undefined;

/**
 * Holds every exit (exitOnceWritten) until `until` has settled: the last word on an uncaught
 * error (last-resort.ts), which a run that carried on must not end before it is written.
 */
export function holdExit(until: Promise<unknown>): void {
  const held: Promise<void> = until.then(
    () => undefined,
    () => undefined,
  );
  exitHeld = held;
  void held.then(() => {
    if (exitHeld === held) exitHeld = undefined;
  });
}

/**
 * Ends this process once what it wrote to stdout and stderr has been handed on (Node writes pipes
 * asynchronously on POSIX, and terminals on Windows), and nothing holds the exit (holdExit: once
 * it is released, what it wrote is waited for too). Left to end on its own, Node first tears down
 * the heap that zod and the MCP SDK built, a few milliseconds at every run. Call it only when all
 * work is done: every server we started gone, every file written.
 */
export function exitOnceWritten(): void {
  if (exitHeld) {
    void exitHeld.then(exitOnceWritten);
    return;
  }
  let streams = 2;
  const written = (): void => {
    streams -= 1;
    if (streams > 0) return;
    if (exitHeld) void exitHeld.then(exitOnceWritten);
    else process.exit();
  };
  for (const stream of [process.stdout, process.stderr]) {
    // An empty write calls back once everything before it is written; with nothing pending, no
    // write at all (a zero-byte write reads as the end of the output to some readers).
    if (stream.writableLength > 0) stream.write('', written);
    else written();
  }
}

let started = 0;

/**
 * A marker value no other server of any audit running now carries: our pid (unique among live
 * processes), the time and a count (unique within this process), and a random part. It need not
 * be secret: the server sees its own, and a process that copies it only gets itself killed. Not
 * from node:crypto, which would cost the early start about 2 ms of loading before the spawn.
 */
function markerId(): string {
  started += 1;
  return [process.pid, Date.now(), started, Math.random().toString(36).slice(2)].join('.');
}

/**
 * A server process we started, in a process group of its own so that `stop()` also ends what it
 * started (npx wrappers, shells, grandchildren); on Linux its descendants are also tracked by
 * parentage, for those that leave the group.
 */
export class ServerProcess {
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly stderr = new TailBuffer();
  /** Its stdout, when that is not the protocol's stream (an HTTP start command): see readStdout. */
  stdoutTail: TailBuffer | undefined;
  readonly descendants = new ProcessTree();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly stderrEnded: Promise<unknown>;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private spawnError: Error | undefined;
  private stopping: Promise<void> | undefined;

  constructor(readonly spec: SpawnSpec) {
    installExitHook();
    if (!spec.command)
      throw new AuditError(
        'The server command is empty.',
        'Give the program to run first, e.g. node server.js.',
      );
    // Added here, not to the spec: a prestarted server is claimed by its spec.
    const id = markerId();
    try {
      this.child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: { ...spec.env, [MARKER_VARIABLE]: id },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      // Arguments spawn refuses outright (a NUL byte, say): nothing started.
      throw spawnFailure(spec, error instanceof Error ? error : new Error(getErrorMessage(error)));
    }
    live.add(this);
    // Its stat stays readable until Node reaps it, which cannot happen before this returns.
    if (this.child.pid !== undefined)
      this.descendants.mark(`${MARKER_VARIABLE}=${id}`, readStat(this.child.pid)?.startTime);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => this.stderr.push(chunk));
    this.stderrEnded = new Promise((resolve) => {
      this.child.stderr.once('close', resolve);
      this.child.stderr.once('error', resolve);
    });
    // A server that closes stdin early must not crash us with EPIPE.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.spawnError = error;
        this.exitInfo ??= { code: null, signal: null };
        resolve(this.exitInfo);
      });
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /**
   * Keeps the tail of stdout, for a process whose stdout no one else reads (an HTTP start
   * command): read so that a chatty one never blocks on the full pipe.
   */
  readStdout(): void {
    const tail = (this.stdoutTail = new TailBuffer());
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => tail.push(chunk));
  }

  /** Whether the process ended with an error: a code other than 0, or a signal. */
  get failedExit(): boolean {
    return (
      this.exitInfo !== undefined && (this.exitInfo.code !== 0 || this.exitInfo.signal !== null)
    );
  }

  /** How the process ended, as a verb phrase ("exited with code 3"), or undefined while it runs. */
  describeExit(): string | undefined {
    if (this.spawnError) return `could not start (${this.spawnError.message})`;
    if (!this.exitInfo) return undefined;
    const { code, signal } = this.exitInfo;
    return signal ? `was killed by ${signal}` : `exited with code ${code}`;
  }

  /** The spawn failure as an AuditError, if spawning failed. */
  get failure(): AuditError | undefined {
    return this.spawnError ? spawnFailure(this.spec, this.spawnError) : undefined;
  }

  /**
   * Resolves once what the process wrote to stderr has all been read (its exit can be reported
   * before the pipe is drained), or after `ms`: a grandchild may hold the pipe open.
   */
  async stderrRead(ms: number): Promise<void> {
    await settlesWithin(this.stderrEnded, ms);
  }

  /** Resolves true once the process has exited, false after `ms`. */
  waitForExit(ms: number): Promise<boolean> {
    return settlesWithin(this.exited, ms);
  }

  killGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === 'win32') this.child.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  }

  /** Reads the server's descendants again; from its own pid only until it is reaped and free. */
  private collectDescendants(): void {
    this.descendants.collect(this.hasExited ? undefined : this.child.pid);
  }

  /** Kills the process group and every descendant seen, at once. */
  killAll(): void {
    this.descendants.kill(this.hasExited ? undefined : this.child.pid);
    this.killGroup('SIGKILL');
  }

  /** Resolves once no process of the server's group runs any more, or after `ms`. */
  private async groupGone(ms: number): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined || process.platform === 'win32') return;
    const deadline = Date.now() + ms;
    for (;;) {
      try {
        process.kill(-pid, 0);
      } catch {
        return;
      }
      // Killed members stay in the group as zombies until their new parent reaps them.
      if (onlyZombiesIn(pid)) return;
      if (Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * End of input for the server, at once: `end()` closes the pipe only once this process next
   * waits, and the audit goes on with the listing first, so the server would wait for it.
   * Nothing is left to send once a listing is done; what is still queued (a server that stopped
   * reading) is written first, by `end()`.
   */
  private endStdin(): void {
    const { stdin } = this.child;
    if (stdin.writableLength === 0) stdin.destroy();
    else stdin.end();
  }

  /**
   * Ends the server: close stdin (the stdio binding's polite request), then SIGTERM, then SIGKILL,
   * each bounded; finally the rest of its process group and its descendants. Resolves once the
   * process is gone. A second call gets the first one's stop, so any number of callers can ask.
   */
  stop(graceMs = 2_000): Promise<void> {
    this.stopping ??= this.end(graceMs);
    return this.stopping;
  }

  private async end(graceMs: number): Promise<void> {
    if (this.child.pid !== undefined) {
      // Read while the server runs: once it exits, its children are reparented out of reach.
      this.collectDescendants();
      this.endStdin();
      if (!this.hasExited && !(await settlesWithin(this.exited, 100))) {
        this.collectDescendants();
        this.killGroup('SIGTERM');
        if (!(await settlesWithin(this.exited, graceMs))) {
          this.collectDescendants();
          this.killGroup('SIGKILL');
          await settlesWithin(this.exited, graceMs);
        }
      }
      // Grandchildren may outlive the leader, in its group or out of it. Wait (bounded) until
      // the kernel has taken them too, so that nothing we started outlives us.
      this.killAll();
      await Promise.all([this.groupGone(1_000), this.descendants.gone(1_000)]);
    }
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    live.delete(this);
  }
}

function spawnFailure(spec: SpawnSpec, error: Error): AuditError {
  const code = (error as NodeJS.ErrnoException).code;
  // spawn reports a missing working directory as a missing command.
  if (code === 'ENOENT' && spec.cwd !== undefined && !isDirectory(spec.cwd))
    return new AuditError(
      `Could not start the server: its working directory ${spec.cwd} does not exist.`,
      'Check the path given with --cwd (or cwd in the config file); a relative path is taken from where the audit runs.',
    );
  if (code === 'ENOENT' && /\s/.test(spec.command.trim()))
    return new AuditError(
      `Could not start the server: the command "${spec.command}" was not found; it is run as one program name, spaces and all, never through a shell.`,
      `Split off the arguments: command: ${spec.command.trim().split(/\s+/)[0]}, args: [${spec.command.trim().split(/\s+/).slice(1).join(', ')}] in a config file.`,
    );
  if (code === 'ENOENT')
    return new AuditError(
      `Could not start the server: the command "${spec.command}" was not found${spec.cwd ? ` (working directory ${spec.cwd})` : ''}.`,
      'Check the command for typos, install it, or give its full path (it is looked up on PATH).',
    );
  if (code === 'EACCES')
    return new AuditError(
      `Could not start the server: "${spec.command}" is not executable.`,
      'Make it executable (chmod +x) or run it through its interpreter, e.g. node server.js.',
    );
  return new AuditError(
    `Could not start the server "${spec.command}": ${error.message}.`,
    'Check the command and its arguments.',
  );
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ends a server while the audit goes on with what it listed; `stopAll()` waits for its stop, so
 * nothing we started outlives the audit.
 */
export function stopInBackground(server: ServerProcess): void {
  server.stop().catch(() => undefined);
}

/**
 * Stops every server we started that is not gone yet, whoever holds it (a listing under way, an
 * early start nobody claimed, a stop in the background), and resolves once each one is gone: what
 * every entry awaits before it ends, an error or not.
 */
export async function stopAll(): Promise<void> {
  // Again while one started meanwhile is left (a listing that was still starting one), a few
  // times at most: the exit hook still kills whatever remains.
  for (let pass = 0; pass < 3 && live.size > 0; pass += 1)
    await Promise.all([...live].map((server) => server.stop().catch(() => undefined)));
}
