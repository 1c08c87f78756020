// A Streamable HTTP server, reached at its URL (after its start command, if it has one). The
// connection owns what it watches besides the SDK's own promises: the start command's exit, the
// size of each response, and event streams that end without the answer, which the SDK reports
// only through `onerror` (or not at all) while the request waits out its timeout. Each fails the
// request awaited at the time, at once. What it says is redacted.
import type { Transport } from '@modelcontextprotocol/client';
import { AuditError, getErrorMessage } from '../errors.js';
import { redactText, redactUrl } from '../redact.js';
import {
  duringText,
  MAX_LINE,
  sofarText,
  type Connection,
  type HttpTarget,
  type ListLimits,
  type Listing,
  type Progress,
  type ProtocolEra,
  type Sdk,
} from './connection.js';
import { explainFailure, isNetworkFailure } from './failure.js';
import { checkHttpTarget, refuseIfServed, waitForUrl } from './http-start.js';
import { inert, stderrDetails } from './output.js';
import { ServerProcess } from './process.js';
import { redactError, redactListing, secretsOfTarget } from './secrets.js';

/** The most one HTTP response may hold: the same bound as a stdio line. */
const MAX_RESPONSE = MAX_LINE;

/** How long the SDK gets to hand on what an event stream held, once the stream has ended. */
const STREAM_SETTLE_MS = 100;

/** URLs inside a message (the SDK's, fetch's), each shown through redactUrl. */
// Sentence punctuation after a URL ("at http://h/mcp.") is left to the sentence.
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>`]*[^\s"'<>`.,;:)]/gi;

/** A request the listing awaits; settled once the SDK has resolved or rejected it. */
interface Awaited {
  settled: boolean;
}

export class HttpConnection implements Connection {
  readonly progress: Progress = { phase: 'start', pages: 0, tools: 0 };
  readonly noise: string[] = [];
  /** Bytes of response bodies read so far: the whole listing is bounded (MAX_LISTING). */
  received = 0;
  /** The start command, once launched. */
  private server: ServerProcess | undefined;
  /** Set once the listing is over: the stop of the start command that follows is no failure. */
  private done = false;
  private failed: AuditError | undefined;
  /** The start command exited with an error code or a signal after its URL answered. */
  private startFailed = false;
  /** The start command's URL has answered: from now on its exit is watched. */
  private watchingExit = false;
  private readonly what: string;
  private readonly secrets: string[];
  private readonly failing: Promise<never>;
  private reject: (error: AuditError) => void = () => undefined;
  private awaited: Awaited | undefined;
  private reconnections = 0;
  /** POSTs sent so far: one sent after a stream's own means the SDK has moved on from it. */
  private posts = 0;
  private sdkErrors = 0;
  private lastSdkError: unknown;

  constructor(
    private readonly target: HttpTarget,
    readonly era: ProtocolEra,
  ) {
    // The URL's and headers' secrets, and those of the start command (its arguments, its env).
    this.secrets = secretsOfTarget(target);
    this.what = `The MCP endpoint ${redactUrl(target.url)}`;
    this.failing = new Promise<never>((_, reject) => {
      this.reject = reject;
    });
    // Nobody may be racing it when it fails (between two requests, after the listing).
    this.failing.catch(() => undefined);
  }

  /** Launched only once nothing else answers there, so that what answers next is its server. */
  async prepare(): Promise<Sdk> {
    checkHttpTarget(this.target);
    const loading = import('./sdk.js');
    loading.catch(() => undefined);
    if (this.target.start) {
      await refuseIfServed(this.target.url);
      this.server = new ServerProcess(this.target.start);
      this.server.readStdout();
    }
    return await loading;
  }

  async transport(sdk: Sdk, limits: ListLimits): Promise<Transport> {
    const { server, target } = this;
    if (server?.failure) throw server.failure;
    if (server) await waitForUrl(target.url, server, limits.startTimeoutMs, this.redact);
    const transport = new sdk.StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: { headers: target.headers },
      fetch: this.fetch,
      reconnectionScheduler: this.reconnectionScheduler,
    });
    // Set before connecting: the SDK keeps it, and its version probe reports through it only.
    transport.onerror = this.onerror;
    if (server) this.watchExit(server);
    return transport;
  }

  /** `text` with URLs shown through redactUrl and every secret of the target replaced. */
  readonly redact = (text: string): string =>
    redactText(
      text.replace(URL_IN_TEXT, (url) => redactUrl(url)),
      this.secrets,
    );

  /** The start command's failure may have come just before the last answer. */
  async finish(listing: Listing): Promise<Listing> {
    if (this.startFailed && this.server) {
      await this.server.stderrRead(500);
      throw this.exitFailure(this.server);
    }
    return redactListing(listing, this.secrets);
  }

  async failure(error: unknown, limits: ListLimits): Promise<AuditError> {
    const { server } = this;
    // A start command that died takes the endpoint with it: its exit is the news, not the
    // refused connection that comes first.
    if (server && this.watchingExit && !this.failed && !(error instanceof AuditError)) {
      if (!server.hasExited && isNetworkFailure(error)) await server.waitForExit(500);
      if (server.failedExit) {
        await server.stderrRead(500);
        return this.exitFailure(server);
      }
    }
    const failure =
      this.failed ??
      (await explainFailure(error, {
        target: this.target,
        era: this.era,
        progress: this.progress,
        limits,
        server,
        noise: [],
        redact: this.redact,
      }));
    return this.redacted(failure);
  }

  /** An HTTP start command is gone before this returns: the next may serve the same URL. */
  async close(): Promise<void> {
    this.done = true;
    await this.server?.stop();
  }

  private redacted(error: AuditError): AuditError {
    return redactError(error, this.redact);
  }

  private fail(error: AuditError): void {
    if (this.done || this.failed) return;
    this.failed = this.redacted(error);
    this.reject(this.failed);
  }

  /** `promise`, failed early by whatever this connection sees first. */
  race<T>(promise: Promise<T>): Promise<T> {
    const awaited: Awaited = { settled: false };
    this.awaited = awaited;
    const settle = (): void => {
      awaited.settled = true;
    };
    promise.then(settle, settle);
    return Promise.race([promise, this.failing]);
  }

  /** The transport's `onerror`: the SDK's word on a stream it could not read. */
  private readonly onerror = (error: unknown): void => {
    this.sdkErrors += 1;
    this.lastSdkError = error;
  };

  /** As the SDK's default, counted: a stream it will resume is not a stream that ended. */
  private readonly reconnectionScheduler = (reconnect: () => void, delay: number): (() => void) => {
    this.reconnections += 1;
    const timer = setTimeout(reconnect, delay);
    return () => clearTimeout(timer);
  };

  /**
   * fetch for the SDK's transport: each response body is counted as it streams and cut off past
   * MAX_RESPONSE, and the end of the event stream a request was answered on is watched.
   */
  private readonly fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const awaited = this.awaited;
    const sdkErrors = this.sdkErrors;
    const post = init?.method === 'POST' ? ++this.posts : undefined;
    const response = await fetch(url, init);
    if (Number(response.headers.get('content-length') ?? 0) > MAX_RESPONSE) {
      void response.body?.cancel().catch(() => undefined);
      throw this.tooLarge();
    }
    // fetch gives no body for a status that may not have one (204, 304): nothing to count.
    if (!response.body) return response;
    const events =
      post !== undefined &&
      /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const ended = (): void => {
      if (events) this.streamEnded(awaited, post, sdkErrors);
    };
    return new Response(this.counted(response.body, ended), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  /** The body, counted as it streams and cut off past MAX_RESPONSE; `ended` once it ends. */
  private counted(source: ReadableStream<Uint8Array>, ended: () => void): ReadableStream {
    const reader = source.getReader();
    let bytes = 0;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        let chunk;
        try {
          chunk = await reader.read();
        } catch (error) {
          ended();
          controller.error(error);
          return;
        }
        if (chunk.done) {
          ended();
          controller.close();
          return;
        }
        const bytesRead = chunk.value;
        bytes += bytesRead.byteLength;
        this.received += bytesRead.byteLength;
        if (bytes > MAX_RESPONSE) {
          const error = this.tooLarge();
          reader.cancel(error).catch(() => undefined);
          controller.error(error);
          return;
        }
        controller.enqueue(bytesRead);
      },
      cancel: (reason) => reader.cancel(reason),
    });
  }

  private tooLarge(): AuditError {
    const error = new AuditError(
      `${this.what} sent a response of more than ${MAX_RESPONSE / 1024 / 1024} MiB ${duringText(this.progress, this.era)}, ${sofarText(this.progress)}; the audit stopped reading it.`,
      'A page of tools is far smaller than that: check what the endpoint sends (a server with that many tools should page them with nextCursor).',
    );
    this.fail(error);
    return this.failed ?? error;
  }

  /**
   * The event stream a request was sent on (POST number `post`) has ended or broken. Once the
   * SDK has had time to hand on what it held, a request still unanswered, with no reconnection
   * under way and nothing sent since (the handshake's next step), never will be.
   */
  private streamEnded(awaited: Awaited | undefined, post: number, sdkErrorsBefore: number): void {
    if (!awaited || this.done) return;
    const reconnections = this.reconnections;
    setTimeout(() => {
      if (awaited.settled || this.reconnections !== reconnections || this.posts !== post) return;
      const said =
        this.sdkErrors > sdkErrorsBefore
          ? inert(this.redact(getErrorMessage(this.lastSdkError)))
          : undefined;
      this.fail(
        new AuditError(
          `${this.what} ended its event stream ${duringText(this.progress, this.era)} without sending the answer (${sofarText(this.progress)})${said ? `; the MCP SDK reported: ${said.length > 300 ? `${said.slice(0, 300)}…` : said}` : ''}${said && /[.!?]$/.test(said) ? '' : '.'}`,
          'Each event must carry one JSON-RPC message as JSON in its data: lines, and the stream must carry the answer before it ends; check the server and its logs.',
        ),
      );
    }, STREAM_SETTLE_MS).unref();
  }

  /** Fails the listing if the start command exits with an error, even while something answers. */
  private watchExit(server: ServerProcess): void {
    this.watchingExit = true;
    void server.exited.then(async () => {
      // A wrapper that daemonised its server leaves with 0.
      if (!server.failedExit || this.done) return;
      this.startFailed = true;
      await server.stderrRead(500);
      this.fail(this.exitFailure(server));
    });
  }

  private exitFailure(server: ServerProcess): AuditError {
    return this.redacted(
      new AuditError(
        `The start command ${server.describeExit()} ${duringText(this.progress, this.era)}, ${sofarText(this.progress)}; the audit does not list the tools of whatever still answers at ${redactUrl(this.target.url)}.`,
        'Run the start command by hand to see why it stops.',
        stderrDetails(server, [], this.redact),
      ),
    );
  }
}
