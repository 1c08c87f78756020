// A stdio server: a process we spawn ourselves (or the one prestarted for this very spec), so it
// boots while the SDK loads, and newline-delimited JSON-RPC read from its stdout.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { AuditError } from '../errors.js';
import {
  MAX_LINE,
  type Connection,
  type ListLimits,
  type Listing,
  type Progress,
  type ProtocolEra,
  type Sdk,
  type StdioTarget,
} from './connection.js';
import { explainFailure, ServerExited } from './failure.js';
import { stopInBackground, type ServerProcess } from './process.js';
import { redactText } from '../redact.js';
import { redactError, redactListing, secretsOfTarget } from './secrets.js';
import { serverFor } from './early.js';

/** The most of a non-JSON-RPC stdout line kept, to show. */
const NOISE_CHARS = 200;

/** Newline-delimited JSON-RPC over the server's pipes; non-JSON lines are counted, not fatal. */
class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly noise: string[] = [];
  /** Set when the stream itself is unusable; the server is killed and this is the error. */
  fatal: AuditError | undefined;
  /** Characters read from stdout so far: the whole listing is bounded (MAX_LISTING). */
  received = 0;
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(
    private readonly server: ServerProcess,
    private readonly redact: (text: string) => string,
    private readonly longestSecret: number,
  ) {
    server.child.stdout.setEncoding('utf8');
    server.child.stdout.on('data', (chunk: string) => this.read(chunk));
    void server.exited.then(() => this.onclose?.());
  }

  private read(chunk: string): void {
    this.received += chunk.length;
    // The chunks of an unfinished line are kept apart and joined once its newline comes: searching
    // a string grown chunk by chunk copies it whole each time, quadratic in a long line.
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf('\n', start)) >= 0) {
      this.pending.push(chunk.slice(start, newline));
      const line = this.pending.join('').replace(/\r$/, '');
      this.pending = [];
      this.pendingLength = 0;
      start = newline + 1;
      if (line.trim()) this.deliver(line);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.slice(start));
      this.pendingLength += chunk.length - start;
    }
    if (this.pendingLength > MAX_LINE && !this.fatal) {
      this.pending = [];
      this.pendingLength = 0;
      this.fatal = new AuditError(
        `The server wrote more than ${MAX_LINE / 1024 / 1024} MiB to stdout without a line break.`,
        'A stdio server writes one JSON-RPC message per line; check what it prints.',
      );
      // Its exit ends the listing; the message above says why we ended it.
      this.server.killGroup('SIGKILL');
    }
  }

  /**
   * A line kept to show, redacted before it is cut (a secret cut in two would match no more);
   * only as much of it as a secret that starts within what is kept can reach.
   */
  private keepNoise(line: string): void {
    if (this.noise.length >= 20) return;
    const head = line.slice(0, NOISE_CHARS + this.longestSecret);
    this.noise.push(this.redact(head).slice(0, NOISE_CHARS));
  }

  private deliver(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.keepNoise(line);
      return;
    }
    if (
      message &&
      typeof message === 'object' &&
      (message as { jsonrpc?: unknown }).jsonrpc === '2.0'
    )
      this.onmessage?.(message as JSONRPCMessage);
    else this.keepNoise(line);
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.server.hasExited) {
        reject(new Error(this.server.describeExit() ?? 'the server has exited'));
        return;
      }
      this.server.child.stdin.write(`${JSON.stringify(message)}\n`, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A server over stdio; its exit ends the listing at once. */
export class StdioConnection implements Connection {
  readonly progress: Progress = { phase: 'start', pages: 0, tools: 0 };
  private readonly server: ServerProcess;
  private readonly exited: Promise<never>;
  private pipe: ProcessTransport | undefined;
  /** What the user gave to start it (hidden arguments, env values), kept out of what it shows. */
  private readonly secrets: string[];

  /** Starts the server at once: the SDK (about 100 ms of schema building) loads while it boots. */
  constructor(
    private readonly target: StdioTarget,
    readonly era: ProtocolEra,
  ) {
    this.secrets = secretsOfTarget(target);
    this.server = serverFor(target.spawn);
    this.exited = this.server.exited.then(() => {
      throw new ServerExited();
    });
    // Keep a rejection nobody awaits (a listing that already finished) from going unhandled.
    this.exited.catch(() => undefined);
  }

  get received(): number {
    return this.pipe?.received ?? 0;
  }

  get noise(): string[] {
    return this.pipe?.noise ?? [];
  }

  prepare(): Promise<Sdk> {
    return import('./sdk.js');
  }

  transport(): Promise<Transport> {
    if (this.server.failure) throw this.server.failure;
    this.pipe = new ProcessTransport(this.server, this.redact, this.secrets[0]?.length ?? 0);
    return Promise.resolve(this.pipe);
  }

  race<T>(promise: Promise<T>): Promise<T> {
    return Promise.race([promise, this.exited]);
  }

  /** `text` with every secret of the server's command line and environment replaced. */
  private readonly redact = (text: string): string => redactText(text, this.secrets);

  /** What the server sent, its secrets replaced: a server may echo its key into a description. */
  finish(listing: Listing): Promise<Listing> {
    return Promise.resolve(redactListing(listing, this.secrets));
  }

  /** Why the listing failed; what the server echoed (stderr, stdout) redacted before it is cut. */
  async failure(error: unknown, limits: ListLimits): Promise<AuditError> {
    if (this.pipe?.fatal) return this.pipe.fatal;
    const failure = await explainFailure(error, {
      target: this.target,
      era: this.era,
      progress: this.progress,
      limits,
      server: this.server,
      noise: this.noise,
      redact: this.redact,
    });
    // Also what was made before the redaction reached it: a spawn failure names the command.
    return redactError(failure, this.redact);
  }

  /** The server shuts down while the audit goes on with the listing; see stopAll(). */
  close(): Promise<void> {
    stopInBackground(this.server);
    return Promise.resolve();
  }
}
