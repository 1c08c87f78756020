// Spawns the fixture servers under test/fixtures/servers and talks plain newline-delimited
// JSON-RPC to them, without any MCP client library, so a fixture's wire behaviour is checked
// independently of the code that will consume it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SERVERS } from './cli.js';

/** The fixture servers (SERVERS: bundled for a test run), with a trailing slash. */
export const SERVERS_DIR = `${SERVERS}/`;
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
export const LEGACY_PROTOCOL_VERSION = '2025-06-18';

/** The per-request envelope a 2026-07-28 request carries instead of an initialize handshake. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'fixture-test', version: '0.0.0' },
};

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: JsonRpcError;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Keeps only the end of stderr so a flooding fixture cannot fill the test's memory. */
const STDERR_TAIL_BYTES = 64 * 1024;

/**
 * Every pid a test started (fixtures and any grandchildren they report), for cleanup, with a
 * way to tell that a fixture we reaped is gone: its pid may already belong to someone else.
 */
const trackedPids = new Map<number, () => boolean>();

export function trackPid(pid: number, reaped: () => boolean = () => false): void {
  trackedPids.set(pid, reaped);
}

export class FixtureProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Non-JSON lines seen on stdout, in order. */
  readonly noise: string[] = [];
  /** Every JSON value seen on stdout, in order. */
  readonly messages: unknown[] = [];
  readonly exited: Promise<Exit>;
  stderrTail = '';
  stderrBytes = 0;
  exit: Exit | undefined;

  private nextId = 1;
  private stdoutBuffer = '';
  private readonly pending = new Map<
    string | number,
    { resolve: (r: JsonRpcResponse) => void; reject: (e: Error) => void }
  >();
  private readonly stderrWaiters = new Set<() => void>();

  constructor(child: ChildProcess) {
    if (child.pid === undefined) throw new Error('fixture did not start');
    this.child = child;
    this.pid = child.pid;
    trackPid(child.pid, () => this.exit !== undefined);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => this.onStdout(chunk));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderrBytes += Buffer.byteLength(chunk);
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
      for (const waiter of this.stderrWaiters) waiter();
    });
    // A fixture that exits before reading stdin makes our writes fail with EPIPE; the exit
    // itself is what the tests look at.
    child.stdin?.on('error', () => {});
    this.exited = new Promise((resolve) => {
      child.on('close', (code, signal) => {
        this.exit = { code, signal };
        const error = new Error(
          `fixture exited (code ${code}, signal ${signal}); stderr: ${this.stderrTail.slice(-500)}`,
        );
        for (const { reject } of this.pending.values()) reject(error);
        this.pending.clear();
        for (const waiter of this.stderrWaiters) waiter();
        resolve(this.exit);
      });
    });
  }

  private onStdout(chunk: string): void {
    this.stdoutBuffer += chunk;
    let newline: number;
    while ((newline = this.stdoutBuffer.indexOf('\n')) >= 0) {
      const line = this.stdoutBuffer.slice(0, newline).replace(/\r$/, '');
      this.stdoutBuffer = this.stdoutBuffer.slice(newline + 1);
      if (line === '') continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        this.noise.push(line);
        continue;
      }
      this.messages.push(message);
      const id = (message as { id?: unknown }).id;
      if ((typeof id === 'string' || typeof id === 'number') && this.pending.has(id)) {
        this.pending.get(id)?.resolve(message as JsonRpcResponse);
        this.pending.delete(id);
      }
    }
  }

  send(message: unknown): void {
    this.child.stdin?.write(JSON.stringify(message) + '\n');
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.send({ jsonrpc: '2.0', method, ...(params && { params }) });
  }

  /**
   * Sends a request and resolves with its response, whether a result or an error; rejects if the
   * fixture exits first. No timer of its own: the test's timeout is the only limit, so a loaded
   * machine makes a run slower, never red.
   */
  request(method: string, params?: Record<string, unknown>): Promise<JsonRpcResponse> {
    const id = this.nextId++;
    return new Promise<JsonRpcResponse>((resolve, reject) => {
      if (this.exit !== undefined) {
        reject(new Error(`fixture already exited (code ${this.exit.code})`));
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.send({ jsonrpc: '2.0', id, method, ...(params && { params }) });
    });
  }

  /** The 2025-era handshake; resolves with the initialize result. */
  async initialize(protocolVersion = LEGACY_PROTOCOL_VERSION): Promise<Record<string, unknown>> {
    const response = await this.request('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'fixture-test', version: '0.0.0' },
    });
    if (response.result === undefined) {
      throw new Error(`initialize failed: ${JSON.stringify(response.error)}`);
    }
    this.notify('notifications/initialized');
    return response.result;
  }

  /** Resolves once stderr (its retained tail) matches, or rejects when the fixture exits first. */
  waitForStderr(pattern: RegExp): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const match = this.stderrTail.match(pattern);
        if (match) {
          this.stderrWaiters.delete(check);
          resolve(match);
        } else if (this.exit !== undefined) {
          this.stderrWaiters.delete(check);
          reject(new Error(`fixture exited before stderr matched ${pattern}: ${this.stderrTail}`));
        }
      };
      this.stderrWaiters.add(check);
      check();
    });
  }

  closeStdin(): void {
    this.child.stdin?.end();
  }
}

export function fixturePath(file: string): string {
  return SERVERS_DIR + file;
}

/**
 * Starts `node <fixture> ...args` in its own process group, so cleanup can take down anything
 * the fixture spawned as well.
 */
export function spawnFixture(
  file: string,
  args: string[] = [],
  options: { env?: NodeJS.ProcessEnv } = {},
): FixtureProcess {
  const child = spawn(process.execPath, [fixturePath(file), ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    env: options.env ?? process.env,
  });
  return new FixtureProcess(child);
}

/** Alive and not a zombie: an unreaped orphan still answers kill(pid, 0) but runs nothing. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state letter follows the parenthesised command name, which may itself contain ')'.
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Resolves once `pid` is gone. It polls (a process's end is not an event another process can
 * await) but sets no deadline: the test's own timeout is the limit.
 */
export async function waitUntilGone(pid: number): Promise<void> {
  while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * SIGKILLs every tracked process group and pid, then waits until each is gone. Fixtures are group leaders (detached), so killing -pid reaches the
 * grandchildren they left behind, even after the leader itself has exited.
 */
export async function killAllFixtures(): Promise<void> {
  const tracked = [...trackedPids];
  trackedPids.clear();
  for (const [pid, reaped] of tracked) {
    // A process group id is not reused while the group has members, so -pid is safe even
    // after the leader was reaped; the bare pid is not.
    for (const target of reaped() ? [-pid] : [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Already gone, or not a group leader.
      }
    }
  }
  for (const [pid, reaped] of tracked) if (!reaped()) await waitUntilGone(pid);
}

/** A legacy-era `initialize` request, as a test client sends it to a fixture by hand. */
export const LEGACY_INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'fixture-test', version: '0.0.0' },
  },
};
