// A local stand-in for the GitHub REST API, for the action's end-to-end tests.
//
// Its job is to fail where GitHub fails: a test that passes against it should not then break
// on the real API because of a request the fake was too lenient about. So routes, path and
// query parameters and request bodies are all checked against the operations extracted from
// GitHub's published OpenAPI description (test/fixtures/github/openapi-subset.json, written by
// scripts/extract-openapi.mjs), and the refusals GitHub makes outside any schema (no
// User-Agent, bad credentials, fork-PR tokens, the comment size limit, unknown refs) are
// reproduced with GitHub's own status codes and messages. Every successful JSON response is in
// turn checked against the description's response schema, so the fake cannot drift into
// answering with shapes the real API never produces.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, STATUS_CODES } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { deref, inspectValue, validate } from './json-schema.js';
import type { JsonSchema, SchemaError } from './json-schema.js';

export const OPENAPI_SUBSET_PATH = fileURLToPath(
  new URL('../fixtures/github/openapi-subset.json', import.meta.url),
);

// ---------------------------------------------------------------------------------------------
// The OpenAPI subset

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
  'x-multi-segment'?: boolean;
}

export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  externalDocs?: { description?: string; url: string };
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; [key: string]: unknown };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: Record<string, Record<string, unknown>>;
}

let cachedDocument: OpenApiDocument | undefined;

export function loadOpenApiSubset(): OpenApiDocument {
  cachedDocument ??= JSON.parse(readFileSync(OPENAPI_SUBSET_PATH, 'utf8')) as OpenApiDocument;
  return cachedDocument;
}

/** The operation at `pathTemplate` (as written in the description) for `method`, if any. */
export function findOperation(
  doc: OpenApiDocument,
  method: string,
  pathTemplate: string,
): OpenApiOperation | undefined {
  return doc.paths[pathTemplate]?.[method.toLowerCase()];
}

/** The operation's parameters with every `$ref` resolved. */
export function operationParameters(
  doc: OpenApiDocument,
  operation: OpenApiOperation,
): OpenApiParameter[] {
  return (operation.parameters ?? []).map((p) => deref<OpenApiParameter>(doc, p));
}

/** The JSON schema of the operation's application/json request body, if it takes one. */
export function requestBodySchema(
  doc: OpenApiDocument,
  operation: OpenApiOperation,
): { required: boolean; schema: JsonSchema } | undefined {
  if (operation.requestBody === undefined) return undefined;
  const body = deref<{ required?: boolean; content?: Record<string, { schema?: JsonSchema }> }>(
    doc,
    operation.requestBody,
  );
  const schema = body.content?.['application/json']?.schema;
  if (schema === undefined) return undefined;
  return { required: body.required === true, schema };
}

/** The JSON schema the description gives for an application/json response with `status`. */
export function responseSchema(
  doc: OpenApiDocument,
  operation: OpenApiOperation,
  status: number,
): JsonSchema | undefined {
  const response = operation.responses[String(status)];
  if (response === undefined) return undefined;
  const resolved = deref<{ content?: Record<string, { schema?: JsonSchema }> }>(doc, response);
  return resolved.content?.['application/json']?.schema;
}

// ---------------------------------------------------------------------------------------------
// Public shapes

export type UserType = 'User' | 'Bot' | 'Organization';

export interface FakeUser {
  login: string;
  id: number;
  type: UserType;
}

/** The account GITHUB_TOKEN acts as; comments the action creates are authored by it. */
export const ACTIONS_BOT: FakeUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };

export type AuthorAssociation =
  | 'COLLABORATOR'
  | 'CONTRIBUTOR'
  | 'FIRST_TIMER'
  | 'FIRST_TIME_CONTRIBUTOR'
  | 'MANNEQUIN'
  | 'MEMBER'
  | 'NONE'
  | 'OWNER';

export interface StoredComment {
  id: number;
  nodeId: string;
  issueNumber: number;
  body: string;
  user: FakeUser;
  authorAssociation: AuthorAssociation;
  /** ISO 8601 without milliseconds, as GitHub prints them. */
  createdAt: string;
  updatedAt: string;
  htmlUrl: string;
}

export interface CommentSeed {
  body: string;
  /** Defaults to the lowest-numbered pull request. */
  issueNumber?: number;
  /** A login (a User) or a full user; defaults to {@link ACTIONS_BOT}. */
  user?: string | FakeUser;
  authorAssociation?: AuthorAssociation;
  createdAt?: string | Date;
  updatedAt?: string | Date;
}

export interface PullSeed {
  baseSha: string;
  headSha: string;
  labels?: string[];
  baseRef?: string;
  headRef?: string;
  /** `owner/name` of the head repository when the pull request comes from a fork. */
  headRepository?: string;
  title?: string;
  body?: string | null;
  state?: 'open' | 'closed';
  draft?: boolean;
  /** Login of the author. */
  author?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string, still percent-encoded as sent. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** Parsed JSON when the body parsed, the raw text when it did not, undefined when empty. */
  body: unknown;
  status: number;
  /** operationId of the matched operation, if the route was known. */
  operationId?: string;
}

export interface InjectedFailure {
  method?: string;
  /** Matched against the request path (without query); a string must match exactly. */
  path?: string | RegExp;
  status: number;
  message?: string;
  /** How many matching requests fail before the fake behaves normally again. Default 1. */
  times?: number;
}

/** Answers the fake holds back (FakeGitHub.hold). */
export interface HeldAnswers {
  /** How many answers are waiting now. */
  readonly waiting: number;
  /** Sends every answer held, and holds none from now on. */
  release(): void;
}

export interface FakeGitHubOptions {
  /** `owner/name` of the only repository that exists. Default `octo-org/octo-repo`. */
  repository?: string;
  /** When set, any other token is answered with 401 Bad credentials. */
  token?: string;
  /** Default: pull request #1 with {@link DEFAULT_BASE_SHA} / {@link DEFAULT_HEAD_SHA}. */
  pulls?: Record<number, PullSeed>;
  /** Numbers of plain issues: they take comments, but are no pull request (pulls/get: 404). */
  issues?: number[];
  /** ref -> path -> content. A ref that is absent does not exist at all. */
  files?: Record<string, Record<string, string>>;
  comments?: CommentSeed[];
  forbidCommentWrites?: boolean;
  /** Branch the contents endpoint reads when no `ref` is given. Default `main`. */
  defaultBranch?: string;
  /** Used for html_url fields (GITHUB_SERVER_URL). Default `https://github.com`. */
  serverUrl?: string;
  /** X-GitHub-Api-Version values GitHub accepts. */
  apiVersions?: string[];
  /** Clock for created_at/updated_at. */
  now?: () => Date;
  /** Check successful responses against the description (500 on a mismatch). Default true. */
  validateResponses?: boolean;
}

export interface FakeGitHub {
  /** Base URL without a trailing slash; use it as GITHUB_API_URL. */
  readonly url: string;
  readonly repository: string;
  readonly openapi: OpenApiDocument;
  readonly requests: RecordedRequest[];
  /** Every comment in the repository, in id (= creation) order. */
  readonly comments: StoredComment[];
  /** ref -> path -> content. */
  readonly files: Map<string, Map<string, string>>;
  readonly pulls: Map<number, PullSeed>;
  readonly issues: Set<number>;
  /** Answer comment POST/PATCH with 403 "Resource not accessible by integration". */
  forbidCommentWrites: boolean;
  /** Responses of the fake that did not match the description (each also answered with 500). */
  readonly responseViolations: { operationId: string; status: number; errors: SchemaError[] }[];
  seedComment(seed: CommentSeed): StoredComment;
  setFile(ref: string, path: string, content: string): void;
  /**
   * A symlink at `path` to `target` in the commit `ref`. As GitHub's contents API does, a path
   * through it is not found (the API does not follow a symlinked folder); the link itself is
   * answered as a symlink, and its folder lists it as one.
   */
  setSymlink(ref: string, path: string, target: string): void;
  failNext(failure: InjectedFailure): void;
  /**
   * A slow network, as slow as the test decides: the answers to requests whose path matches wait
   * until the returned hold is released (they are recorded, and fail as injected, on arrival).
   */
  hold(path: RegExp): HeldAnswers;
  /** Answers requests whose path matches this late, by `ms` (a slow network); undefined: at once. */
  latency: { path: RegExp; ms: number } | undefined;
  /** Resolves with the first request that matches, once it has arrived (at once if it has). */
  requested(match: { method?: string; path: RegExp }): Promise<RecordedRequest>;
  /** Comments on one issue or pull request, in the order the API lists them. */
  commentsOn(issueNumber: number): StoredComment[];
  close(): Promise<void>;
}

export const DEFAULT_REPOSITORY = 'octo-org/octo-repo';
export const DEFAULT_BASE_SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e';
export const DEFAULT_HEAD_SHA = 'e5bd3914e2e596debea16f433f57875b5b90bcd6';
export const COMMENT_BODY_LIMIT = 65536;

// ---------------------------------------------------------------------------------------------
// GitHub's refusals, as GitHub words them

const GENERIC_DOCS = 'https://docs.github.com/rest';

// Sent by GitHub's edge as text/html before any API code runs.
const USER_AGENT_REQUIRED =
  'Request forbidden by administrative rules. Please make sure your request has a User-Agent ' +
  'header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). ' +
  'Check https://developer.github.com for other possible causes.\n';

interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Serialized as JSON unless it is a string (sent as is). */
  body?: unknown;
}

function errorReply(
  status: number,
  message: string,
  documentationUrl = GENERIC_DOCS,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Reply {
  return {
    status,
    headers,
    body: { message, ...extra, documentation_url: documentationUrl, status: String(status) },
  };
}

// ---------------------------------------------------------------------------------------------
// Routing from the description

interface Route {
  method: string;
  template: string;
  regex: RegExp;
  params: OpenApiParameter[];
  pathParams: OpenApiParameter[];
  operation: OpenApiOperation;
}

/** Sets `path` (slashes trimmed) to `value` in the commit `ref`'s map, made when missing. */
function setAt(
  commits: Map<string, Map<string, string>>,
  ref: string,
  path: string,
  value: string,
) {
  let entries = commits.get(ref);
  if (!entries) {
    entries = new Map();
    commits.set(ref, entries);
  }
  entries.set(path.replace(/^\/+|\/+$/g, ''), value);
}

function compileRoutes(doc: OpenApiDocument): Route[] {
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const params = operationParameters(doc, operation);
      const pathParams: OpenApiParameter[] = [];
      const source = template
        .split('/')
        .map((segment) => {
          const match = /^\{(.+)\}$/.exec(segment);
          if (!match) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          const param = params.find((p) => p.in === 'path' && p.name === match[1]);
          if (!param) throw new Error(`${template}: no parameter for ${segment}`);
          pathParams.push(param);
          // GitHub lets a file path span segments, or be empty (`contents/` lists the root);
          // every other parameter is one segment.
          return param['x-multi-segment'] === true ? '(.*)' : '([^/]+)';
        })
        .join('/');
      routes.push({
        method: method.toUpperCase(),
        template,
        // An empty file path at the end may drop its slash too (`contents` lists the root).
        regex: new RegExp(`^${source.replace(/\/\(\.\*\)$/, '(?:/(.*))?')}$`),
        params,
        pathParams,
        operation,
      });
    }
  }
  return routes;
}

function docsUrl(operation: OpenApiOperation | undefined): string {
  return operation?.externalDocs?.url ?? GENERIC_DOCS;
}

/** Converts a path or query string to what the parameter's schema expects, or undefined. */
function coerceParameter(param: OpenApiParameter, raw: string): unknown {
  const schema = param.schema;
  const type = typeof schema === 'object' ? schema['type'] : undefined;
  // Ids in paths are matched by digit-only route constraints; a sign never gets through.
  if (type === 'integer') {
    return (param.in === 'path' ? /^\d+$/ : /^-?\d+$/).test(raw) ? Number(raw) : undefined;
  }
  if (type === 'number')
    return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : undefined;
  return raw;
}

// ---------------------------------------------------------------------------------------------
// Response bodies shaped like GitHub's

function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function toIso(value: string | Date | undefined, fallback: () => Date): string {
  if (value === undefined) return isoSeconds(fallback());
  return isoSeconds(typeof value === 'string' ? new Date(value) : value);
}

function stableId(text: string): number {
  return createHash('sha1').update(text).digest().readUInt32BE(0) & 0x3fffffff;
}

function nodeId(prefix: string, id: number): string {
  return `${prefix}_kwDO${Buffer.from(`fake:${id}`).toString('base64url')}`;
}

function gitBlobSha(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

// GitHub wraps the base64 of file contents at 60 characters and ends it with a newline.
function githubBase64(content: Buffer): string {
  const flat = content.toString('base64');
  const lines = flat.match(/.{1,60}/g) ?? [];
  return lines.map((line) => `${line}\n`).join('');
}

function userFromSeed(user: string | FakeUser | undefined): FakeUser {
  if (user === undefined) return ACTIONS_BOT;
  if (typeof user !== 'string') return user;
  if (user === ACTIONS_BOT.login) return ACTIONS_BOT;
  return {
    login: user,
    id: stableId(`user:${user}`),
    type: user.endsWith('[bot]') ? 'Bot' : 'User',
  };
}

// ---------------------------------------------------------------------------------------------
// The server

class FakeGitHubServer implements FakeGitHub {
  url = '';
  readonly repository: string;
  readonly openapi: OpenApiDocument;
  readonly requests: RecordedRequest[] = [];
  readonly comments: StoredComment[] = [];
  readonly files = new Map<string, Map<string, string>>();
  readonly symlinks = new Map<string, Map<string, string>>();
  readonly pulls = new Map<number, PullSeed>();
  readonly issues = new Set<number>();
  readonly responseViolations: FakeGitHub['responseViolations'] = [];
  forbidCommentWrites: boolean;

  private readonly server: Server;
  private readonly routes: Route[];
  private readonly owner: string;
  private readonly repoName: string;
  private readonly repoId: number;
  private readonly token: string | undefined;
  private readonly defaultBranch: string;
  private readonly serverUrl: string;
  private readonly apiVersions: string[];
  private readonly now: () => Date;
  private readonly validateResponses: boolean;
  private readonly failures: (InjectedFailure & { remaining: number })[] = [];
  // GitHub's comment ids are large and increasing; starting high catches int32 assumptions.
  private nextCommentId = 2_000_000_001;
  private rateRemaining = 5000;

  constructor(options: FakeGitHubOptions) {
    this.openapi = loadOpenApiSubset();
    this.routes = compileRoutes(this.openapi);
    this.repository = options.repository ?? DEFAULT_REPOSITORY;
    const [owner, name, ...rest] = this.repository.split('/');
    if (!owner || !name || rest.length > 0) {
      throw new Error(`repository must be owner/name: ${this.repository}`);
    }
    this.owner = owner;
    this.repoName = name;
    this.repoId = stableId(`repo:${this.repository}`);
    this.token = options.token;
    this.forbidCommentWrites = options.forbidCommentWrites ?? false;
    this.defaultBranch = options.defaultBranch ?? 'main';
    this.serverUrl = (options.serverUrl ?? 'https://github.com').replace(/\/$/, '');
    this.apiVersions = options.apiVersions ?? ['2022-11-28', '2026-03-10'];
    this.now = options.now ?? (() => new Date());
    this.validateResponses = options.validateResponses ?? true;

    const pulls = options.pulls ?? {
      1: { baseSha: DEFAULT_BASE_SHA, headSha: DEFAULT_HEAD_SHA, labels: [] },
    };
    for (const [number, pull] of Object.entries(pulls)) this.pulls.set(Number(number), pull);
    for (const number of options.issues ?? []) this.issues.add(number);
    for (const [ref, entries] of Object.entries(options.files ?? {})) {
      for (const [path, content] of Object.entries(entries)) this.setFile(ref, path, content);
    }
    for (const seed of options.comments ?? []) this.seedComment(seed);

    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        // A bug in the fake must surface as a failing request, not a hung test.
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`fake GitHub crashed: ${error instanceof Error ? error.stack : String(error)}`);
      });
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    // fetch keeps connections alive; without this close() waits for them to time out.
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => {
      this.server.close((error) => (error ? reject(error) : resolve()));
    });
  }

  seedComment(seed: CommentSeed): StoredComment {
    const issueNumber = seed.issueNumber ?? Math.min(...this.pulls.keys());
    if (!Number.isFinite(issueNumber))
      throw new Error('seedComment: no pull request to comment on');
    const createdAt = toIso(seed.createdAt, this.now);
    return this.storeComment({
      issueNumber,
      body: seed.body,
      user: userFromSeed(seed.user),
      authorAssociation: seed.authorAssociation ?? (seed.user === undefined ? 'NONE' : 'MEMBER'),
      createdAt,
      updatedAt: seed.updatedAt === undefined ? createdAt : toIso(seed.updatedAt, this.now),
    });
  }

  setFile(ref: string, path: string, content: string): void {
    setAt(this.files, ref, path, content);
  }

  setSymlink(ref: string, path: string, target: string): void {
    setAt(this.symlinks, ref, path, target);
    if (!this.files.has(ref)) this.files.set(ref, new Map());
  }

  failNext(failure: InjectedFailure): void {
    this.failures.push({ ...failure, remaining: failure.times ?? 1 });
  }

  private readonly holds: {
    path: RegExp;
    released: Promise<void>;
    open: boolean;
    waiting: number;
  }[] = [];
  /** Each checks the requests so far; true once its request came (and it is done). */
  private readonly awaited: (() => boolean)[] = [];

  hold(path: RegExp): HeldAnswers {
    let open = () => {};
    const released = new Promise<void>((resolve) => (open = resolve));
    const hold = { path, released, open: false, waiting: 0 };
    this.holds.push(hold);
    return {
      get waiting() {
        return hold.waiting;
      },
      release: () => {
        hold.open = true;
        open();
      },
    };
  }

  requested(match: { method?: string; path: RegExp }): Promise<RecordedRequest> {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.requests.find(
          (r) =>
            (match.method === undefined || r.method === match.method) && match.path.test(r.path),
        );
        if (found) resolve(found);
        return found !== undefined;
      };
      if (!check()) this.awaited.push(check);
    });
  }

  commentsOn(issueNumber: number): StoredComment[] {
    return this.comments.filter((c) => c.issueNumber === issueNumber);
  }

  private storeComment(fields: Omit<StoredComment, 'id' | 'nodeId' | 'htmlUrl'>): StoredComment {
    const id = this.nextCommentId++;
    const kind = this.pulls.has(fields.issueNumber) ? 'pull' : 'issues';
    const comment: StoredComment = {
      id,
      nodeId: nodeId('IC', id),
      htmlUrl: `${this.serverUrl}/${this.repository}/${kind}/${fields.issueNumber}#issuecomment-${id}`,
      ...fields,
    };
    this.comments.push(comment);
    return comment;
  }

  // -------------------------------------------------------------------------------------------

  latency: { path: RegExp; ms: number } | undefined;

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const target = new URL(req.url ?? '/', 'http://fake.invalid');
    const method = (req.method ?? 'GET').toUpperCase();
    const headers = flattenHeaders(req.headers);

    let parsedBody: unknown = rawBody === '' ? undefined : rawBody;
    try {
      if (rawBody !== '') parsedBody = JSON.parse(rawBody);
    } catch {
      // Kept as text; whether that is an error depends on the operation.
    }

    const context: RequestContext = {
      method,
      path: target.pathname,
      searchParams: target.searchParams,
      headers,
      rawBody,
    };
    const outcome = this.dispatch(context);
    let reply = outcome.reply;
    if (this.validateResponses && outcome.route && reply.status < 300) {
      reply = this.checkResponse(outcome.route, reply);
    }

    this.requests.push({
      method,
      path: target.pathname,
      query: Object.fromEntries(target.searchParams),
      headers,
      body: parsedBody,
      status: reply.status,
      ...(outcome.route ? { operationId: outcome.route.operation.operationId } : {}),
    });
    for (const check of [...this.awaited])
      if (check()) this.awaited.splice(this.awaited.indexOf(check), 1);
    if (this.latency?.path.test(target.pathname))
      await new Promise((resolve) => setTimeout(resolve, this.latency?.ms));
    for (const hold of this.holds)
      if (!hold.open && hold.path.test(target.pathname)) {
        hold.waiting++;
        await hold.released;
        hold.waiting--;
      }

    this.rateRemaining = Math.max(0, this.rateRemaining - 1);
    const common: Record<string, string> = {
      'x-github-api-version-selected': headers['x-github-api-version'] ?? '2022-11-28',
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': String(this.rateRemaining),
      'x-ratelimit-used': String(5000 - this.rateRemaining),
      'x-ratelimit-resource': 'core',
      'x-ratelimit-reset': String(Math.floor(this.now().getTime() / 1000) + 3600),
      'x-github-request-id': `FAKE:${this.requests.length}`,
    };
    let payload = '';
    if (typeof reply.body === 'string') {
      payload = reply.body;
    } else if (reply.body !== undefined) {
      payload = JSON.stringify(reply.body);
      common['content-type'] = 'application/json; charset=utf-8';
      common['x-github-media-type'] = 'github.v3; format=json';
    }
    res.writeHead(reply.status, { ...common, ...reply.headers });
    res.end(method === 'HEAD' ? undefined : payload);
  }

  private checkResponse(route: Route, reply: Reply): Reply {
    const contentType = reply.headers?.['content-type'];
    if (typeof reply.body === 'string' || (contentType && !contentType.includes('json'))) {
      return reply;
    }
    const schema = responseSchema(this.openapi, route.operation, reply.status);
    const errors =
      schema === undefined
        ? [
            {
              instancePath: '',
              schemaPath: '',
              keyword: 'responses',
              message: `the description has no ${reply.status} response`,
              value: reply.status,
            },
          ]
        : validate(schema, reply.body, { root: this.openapi });
    if (errors.length === 0) return reply;
    this.responseViolations.push({
      operationId: route.operation.operationId,
      status: reply.status,
      errors,
    });
    return errorReply(
      500,
      `fake GitHub answered ${route.operation.operationId} with a body its OpenAPI description ` +
        `rejects: ${errors.map((e) => `${e.instancePath || '/'}: ${e.message}`).join('; ')}`,
    );
  }

  private dispatch(ctx: RequestContext): { reply: Reply; route?: Route } {
    // The checks run in the order GitHub's layers apply them: the edge (User-Agent), then
    // authentication, then routing, then the repository, permissions, and the payload.
    const userAgent = ctx.headers['user-agent'];
    if (userAgent === undefined || userAgent.trim() === '') {
      return {
        reply: { status: 403, headers: { 'content-type': 'text/html' }, body: USER_AGENT_REQUIRED },
      };
    }

    const version = ctx.headers['x-github-api-version'];
    if (version !== undefined && !this.apiVersions.includes(version)) {
      const supported = [...this.apiVersions]
        .sort()
        .reverse()
        .map((v, i) => `"${v}"${i === 0 ? ' (most recent)' : ''}`)
        .join(', ');
      return {
        reply: errorReply(
          400,
          `The version you specified in the "X-GitHub-Api-Version" request header, "${version}", ` +
            `is not a supported version. The following versions are currently supported: ${supported}.`,
        ),
      };
    }

    const match = this.matchRoute(ctx.method, ctx.path);

    const authorization = ctx.headers['authorization'];
    if (authorization === undefined) {
      return { reply: errorReply(401, 'Requires authentication', docsUrl(match?.route.operation)) };
    }
    const credentials = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(authorization);
    if (!credentials || (this.token !== undefined && credentials[1] !== this.token)) {
      return { reply: errorReply(401, 'Bad credentials') };
    }

    const injected = this.takeFailure(ctx);
    if (injected) {
      return {
        reply: errorReply(
          injected.status,
          injected.message ?? STATUS_CODES[injected.status] ?? 'Error',
          docsUrl(match?.route.operation),
        ),
        ...(match ? { route: match.route } : {}),
      };
    }

    if (!match) return { reply: errorReply(404, 'Not Found') };
    const { route, values } = match;
    const docs = docsUrl(route.operation);

    // Rails routes constrain numeric ids, so "abc" as an issue number is an unknown route.
    const pathValues: Record<string, unknown> = {};
    for (const [index, param] of route.pathParams.entries()) {
      let raw: string;
      try {
        raw = param['x-multi-segment']
          ? (values[index] ?? '').split('/').map(decodeURIComponent).join('/')
          : decodeURIComponent(values[index] ?? '');
      } catch {
        return { reply: errorReply(404, 'Not Found'), route };
      }
      const value = coerceParameter(param, raw);
      // An empty file path is the root folder (`contents/`); no other parameter may be empty.
      const empty = raw === '' && param['x-multi-segment'] !== true;
      if (value === undefined || empty || validate(param.schema ?? true, value).length > 0) {
        return { reply: errorReply(404, 'Not Found'), route };
      }
      pathValues[param.name] = value;
    }

    // Owner and repository names are case-insensitive on GitHub.
    if (
      String(pathValues['owner']).toLowerCase() !== this.owner.toLowerCase() ||
      String(pathValues['repo']).toLowerCase() !== this.repoName.toLowerCase()
    ) {
      return { reply: errorReply(404, 'Not Found', docs), route };
    }

    const query: Record<string, unknown> = {};
    for (const param of route.params.filter((p) => p.in === 'query')) {
      const raw = ctx.searchParams.get(param.name);
      if (raw === null) {
        const fallback = typeof param.schema === 'object' ? param.schema['default'] : undefined;
        if (fallback !== undefined) query[param.name] = fallback;
        else if (param.required) {
          return { reply: invalidRequest([`"${param.name}" wasn't supplied.`], docs), route };
        }
        continue;
      }
      const value = coerceParameter(param, raw);
      const errors =
        value === undefined
          ? [`For '${param.name}', ${inspectValue(raw)} is not ${describeType(param.schema)}.`]
          : validate(param.schema ?? true, value, { rootLabel: param.name }).map((e) => e.message);
      if (errors.length > 0) return { reply: invalidRequest(errors, docs), route };
      query[param.name] = value;
    }

    const writes = ['issues/create-comment', 'issues/update-comment'];
    if (writes.includes(route.operation.operationId) && this.forbidCommentWrites) {
      // What a pull_request run from a fork gets: its GITHUB_TOKEN is read-only.
      return {
        reply: errorReply(
          403,
          'Resource not accessible by integration',
          docs,
          {},
          {
            'x-accepted-github-permissions': 'issues=write; pull_requests=write',
          },
        ),
        route,
      };
    }

    let body: unknown;
    const bodySpec = requestBodySchema(this.openapi, route.operation);
    if (bodySpec) {
      if (ctx.rawBody.trim() !== '') {
        try {
          body = JSON.parse(ctx.rawBody);
        } catch {
          return { reply: errorReply(400, 'Problems parsing JSON', docs), route };
        }
      }
      // GitHub reports a missing or non-object payload against the root of its link schema.
      const errors = validate(bodySpec.schema, body ?? null, {
        root: this.openapi,
        rootLabel: 'links/0/schema',
      });
      if (errors.length > 0) {
        return {
          reply: invalidRequest(
            errors.map((e) => e.message),
            docs,
          ),
          route,
        };
      }
    }

    const request: OperationRequest = { ctx, params: pathValues, query, body, docs, route };
    return { reply: this.operate(request), route };
  }

  private matchRoute(method: string, path: string): { route: Route; values: string[] } | undefined {
    for (const route of this.routes) {
      if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) continue;
      const found = route.regex.exec(path);
      if (found) return { route, values: found.slice(1) };
    }
    return undefined;
  }

  private takeFailure(ctx: RequestContext): InjectedFailure | undefined {
    const index = this.failures.findIndex(
      (f) =>
        (f.method === undefined || f.method.toUpperCase() === ctx.method) &&
        (f.path === undefined ||
          (typeof f.path === 'string' ? f.path === ctx.path : f.path.test(ctx.path))),
    );
    const failure = this.failures[index];
    if (!failure) return undefined;
    if (--failure.remaining <= 0) this.failures.splice(index, 1);
    return failure;
  }

  private operate(request: OperationRequest): Reply {
    switch (request.route.operation.operationId) {
      case 'issues/list-comments':
        return this.listComments(request);
      case 'issues/create-comment':
        return this.createComment(request);
      case 'issues/update-comment':
        return this.updateComment(request);
      case 'repos/get-content':
        return this.getContent(request);
      case 'pulls/get':
        return this.getPull(request);
      default:
        return errorReply(404, 'Not Found');
    }
  }

  // -------------------------------------------------------------------------------------------
  // Operations

  private listComments({ params, query, docs, ctx, route }: OperationRequest): Reply {
    const issueNumber = Number(params['issue_number']);
    if (!this.hasIssue(issueNumber)) return errorReply(404, 'Not Found', docs);
    const perPage = this.clampedPerPage(route, Number(query['per_page']));
    const page = Number(query['page']);
    if (perPage < 1 || page < 1) {
      const which = perPage < 1 ? 'per_page' : 'page';
      return invalidRequest([`For '${which}', ${String(query[which])} must be at least 1.`], docs);
    }
    const since = typeof query['since'] === 'string' ? Date.parse(query['since']) : undefined;
    const all = this.commentsOn(issueNumber).filter(
      (c) => since === undefined || Date.parse(c.updatedAt) >= since,
    );
    const lastPage = Math.max(1, Math.ceil(all.length / perPage));
    const items = all.slice((page - 1) * perPage, page * perPage);

    const headers: Record<string, string> = {};
    if (lastPage > 1) {
      const link = (n: number): string => {
        const params = new URLSearchParams(ctx.searchParams);
        params.set('page', String(n));
        return `${this.url}${ctx.path}?${params.toString()}`;
      };
      // GitHub lists the relations in this order and leaves out the ones that do not apply.
      const parts: string[] = [];
      if (page > 1) parts.push(`<${link(Math.min(page - 1, lastPage))}>; rel="prev"`);
      if (page < lastPage) parts.push(`<${link(page + 1)}>; rel="next"`);
      if (page < lastPage) parts.push(`<${link(lastPage)}>; rel="last"`);
      if (page > 1) parts.push(`<${link(1)}>; rel="first"`);
      headers['link'] = parts.join(', ');
    }
    return { status: 200, headers, body: items.map((c) => this.commentJson(c)) };
  }

  // per_page has no `maximum` in the schema; its only stated bound is the "(max 100)" in the
  // parameter's description, and GitHub clamps to it rather than refusing.
  private clampedPerPage(route: Route, requested: number): number {
    const param = route.params.find((p) => p.name === 'per_page');
    const max = /\(max (\d+)\)/.exec(param?.description ?? '')?.[1];
    return max === undefined ? requested : Math.min(requested, Number(max));
  }

  private createComment({ params, body, docs }: OperationRequest): Reply {
    const issueNumber = Number(params['issue_number']);
    if (!this.hasIssue(issueNumber)) return errorReply(404, 'Not Found', docs);
    const text = (body as { body: string }).body;
    const invalid = commentBodyProblem(text, docs);
    if (invalid) return invalid;
    const timestamp = isoSeconds(this.now());
    const comment = this.storeComment({
      issueNumber,
      body: text,
      user: ACTIONS_BOT,
      authorAssociation: 'NONE',
      createdAt: timestamp,
      updatedAt: timestamp,
    });
    return {
      status: 201,
      headers: { location: this.commentApiUrl(comment.id) },
      body: this.commentJson(comment),
    };
  }

  private updateComment({ params, body, docs }: OperationRequest): Reply {
    const comment = this.comments.find((c) => c.id === params['comment_id']);
    if (!comment) return errorReply(404, 'Not Found', docs);
    const text = (body as { body: string }).body;
    const invalid = commentBodyProblem(text, docs);
    if (invalid) return invalid;
    comment.body = text;
    comment.updatedAt = isoSeconds(this.now());
    return { status: 200, body: this.commentJson(comment) };
  }

  private getContent({ params, query, docs, ctx }: OperationRequest): Reply {
    const ref = typeof query['ref'] === 'string' ? query['ref'] : this.defaultBranch;
    // A commit a pull request names exists, if no file was set in it: its tree is empty.
    const named = [...this.pulls.values()].some((p) => p.baseSha === ref || p.headSha === ref);
    const tree = this.files.get(ref) ?? (named ? new Map<string, string>() : undefined);
    if (!tree) return errorReply(404, `No commit found for the ref ${ref}`, docs);
    const path = String(params['path']).replace(/^\/+|\/+$/g, '');
    const links = this.symlinks.get(ref) ?? new Map<string, string>();
    const target = links.get(path);
    if (target !== undefined) {
      const bytes = Buffer.from(target, 'utf8');
      return {
        status: 200,
        body: {
          ...this.contentEntry('symlink', path, ref, gitBlobSha(bytes), bytes.length),
          target,
        },
      };
    }
    if ([...links.keys()].some((link) => path.startsWith(`${link}/`)))
      return errorReply(404, 'Not Found', docs);
    const content = tree.get(path);
    const raw = /application\/vnd\.github(\.v3)?\.raw/.test(ctx.headers['accept'] ?? '');

    if (content !== undefined) {
      if (raw) {
        return {
          status: 200,
          headers: {
            'content-type': 'text/plain; charset=utf-8',
            'x-github-media-type': 'github.v3; param=raw',
          },
          body: content,
        };
      }
      const bytes = Buffer.from(content, 'utf8');
      return {
        status: 200,
        body: {
          ...this.contentEntry('file', path, ref, gitBlobSha(bytes), bytes.length),
          content: githubBase64(bytes),
          encoding: 'base64',
        },
      };
    }

    // A directory exists implicitly when some file lies below it; the root always does.
    const prefix = path === '' ? '' : `${path}/`;
    const children = new Map<string, 'file' | 'dir' | 'symlink'>();
    for (const file of tree.keys()) {
      if (!file.startsWith(prefix)) continue;
      const [head, ...rest] = file.slice(prefix.length).split('/');
      if (head) children.set(head, rest.length > 0 ? 'dir' : 'file');
    }
    for (const link of links.keys()) {
      if (!link.startsWith(prefix)) continue;
      const [head, ...rest] = link.slice(prefix.length).split('/');
      if (head && rest.length === 0) children.set(head, 'symlink');
    }
    if (children.size === 0 && path !== '') return errorReply(404, 'Not Found', docs);
    // GitHub lists at most 1,000 entries of a folder, the first by name.
    const entries = [...children.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, 1_000)
      .map(([name, type]) => {
        const childPath = `${prefix}${name}`;
        const childContent = tree.get(childPath);
        const sha =
          childContent === undefined
            ? createHash('sha1').update(`tree:${ref}:${childPath}`).digest('hex')
            : gitBlobSha(Buffer.from(childContent, 'utf8'));
        const size = childContent === undefined ? 0 : Buffer.byteLength(childContent);
        return this.contentEntry(type, childPath, ref, sha, size);
      });
    return { status: 200, body: entries };
  }

  private contentEntry(
    type: 'file' | 'dir' | 'symlink',
    path: string,
    ref: string,
    sha: string,
    size: number,
  ): Record<string, unknown> {
    const encodedPath = path.split('/').map(encodeURIComponent).join('/');
    const url = `${this.repoApiUrl()}/contents/${encodedPath}?ref=${encodeURIComponent(ref)}`;
    const gitUrl = `${this.repoApiUrl()}/git/${type === 'dir' ? 'trees' : 'blobs'}/${sha}`;
    const htmlUrl = `${this.serverUrl}/${this.repository}/${type === 'dir' ? 'tree' : 'blob'}/${ref}/${encodedPath}`;
    return {
      name: path.split('/').pop() ?? path,
      path,
      sha,
      size,
      url,
      html_url: htmlUrl,
      git_url: gitUrl,
      download_url:
        type === 'dir'
          ? null
          : `https://raw.githubusercontent.com/${this.repository}/${ref}/${encodedPath}`,
      type,
      _links: { self: url, git: gitUrl, html: htmlUrl },
    };
  }

  /** Issues and pull requests share numbers and comments; only pull requests are pulls. */
  private hasIssue(number: number): boolean {
    return this.pulls.has(number) || this.issues.has(number);
  }

  private getPull({ params, docs }: OperationRequest): Reply {
    const number = Number(params['pull_number']);
    const pull = this.pulls.get(number);
    if (!pull) return errorReply(404, 'Not Found', docs);
    return { status: 200, body: this.pullJson(number, pull) };
  }

  // -------------------------------------------------------------------------------------------
  // JSON builders

  private repoApiUrl(repository = this.repository): string {
    return `${this.url}/repos/${repository}`;
  }

  private commentApiUrl(id: number): string {
    return `${this.repoApiUrl()}/issues/comments/${id}`;
  }

  private commentJson(comment: StoredComment): Record<string, unknown> {
    const url = this.commentApiUrl(comment.id);
    return {
      url,
      html_url: comment.htmlUrl,
      issue_url: `${this.repoApiUrl()}/issues/${comment.issueNumber}`,
      id: comment.id,
      node_id: comment.nodeId,
      user: this.userJson(comment.user),
      created_at: comment.createdAt,
      updated_at: comment.updatedAt,
      body: comment.body,
      author_association: comment.authorAssociation,
      reactions: {
        url: `${url}/reactions`,
        total_count: 0,
        '+1': 0,
        '-1': 0,
        laugh: 0,
        hooray: 0,
        confused: 0,
        heart: 0,
        rocket: 0,
        eyes: 0,
      },
      performed_via_github_app: null,
    };
  }

  private userJson(user: FakeUser): Record<string, unknown> {
    const api = `${this.url}/users/${encodeURIComponent(user.login)}`;
    const isActionsBot = user.login === ACTIONS_BOT.login;
    return {
      login: user.login,
      id: user.id,
      node_id: nodeId(user.type === 'Bot' ? 'BOT' : 'U', user.id),
      avatar_url: isActionsBot
        ? 'https://avatars.githubusercontent.com/in/15368?v=4'
        : `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
      gravatar_id: '',
      url: api,
      html_url: isActionsBot
        ? `${this.serverUrl}/apps/github-actions`
        : `${this.serverUrl}/${user.login}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type: user.type,
      user_view_type: 'public',
      site_admin: false,
    };
  }

  private repositoryJson(fullName: string, fork: boolean): Record<string, unknown> {
    const [ownerLogin = this.owner, name = this.repoName] = fullName.split('/');
    const id = fullName === this.repository ? this.repoId : stableId(`repo:${fullName}`);
    const api = this.repoApiUrl(fullName);
    const html = `${this.serverUrl}/${fullName}`;
    const host = new URL(this.serverUrl).host;
    const created = '2024-01-02T03:04:05Z';
    return {
      id,
      node_id: nodeId('R', id),
      name,
      full_name: fullName,
      private: false,
      owner: this.userJson(userFromSeed(ownerLogin)),
      html_url: html,
      description: null,
      fork,
      url: api,
      forks_url: `${api}/forks`,
      keys_url: `${api}/keys{/key_id}`,
      collaborators_url: `${api}/collaborators{/collaborator}`,
      teams_url: `${api}/teams`,
      hooks_url: `${api}/hooks`,
      issue_events_url: `${api}/issues/events{/number}`,
      events_url: `${api}/events`,
      assignees_url: `${api}/assignees{/user}`,
      branches_url: `${api}/branches{/branch}`,
      tags_url: `${api}/tags`,
      blobs_url: `${api}/git/blobs{/sha}`,
      git_tags_url: `${api}/git/tags{/sha}`,
      git_refs_url: `${api}/git/refs{/sha}`,
      trees_url: `${api}/git/trees{/sha}`,
      statuses_url: `${api}/statuses/{sha}`,
      languages_url: `${api}/languages`,
      stargazers_url: `${api}/stargazers`,
      contributors_url: `${api}/contributors`,
      subscribers_url: `${api}/subscribers`,
      subscription_url: `${api}/subscription`,
      commits_url: `${api}/commits{/sha}`,
      git_commits_url: `${api}/git/commits{/sha}`,
      comments_url: `${api}/comments{/number}`,
      issue_comment_url: `${api}/issues/comments{/number}`,
      contents_url: `${api}/contents/{+path}`,
      compare_url: `${api}/compare/{base}...{head}`,
      merges_url: `${api}/merges`,
      archive_url: `${api}/{archive_format}{/ref}`,
      downloads_url: `${api}/downloads`,
      issues_url: `${api}/issues{/number}`,
      pulls_url: `${api}/pulls{/number}`,
      milestones_url: `${api}/milestones{/number}`,
      notifications_url: `${api}/notifications{?since,all,participating}`,
      labels_url: `${api}/labels{/name}`,
      releases_url: `${api}/releases{/id}`,
      deployments_url: `${api}/deployments`,
      created_at: created,
      updated_at: created,
      pushed_at: created,
      git_url: `git://${host}/${fullName}.git`,
      ssh_url: `git@${host}:${fullName}.git`,
      clone_url: `${html}.git`,
      svn_url: html,
      homepage: null,
      size: 1,
      stargazers_count: 0,
      watchers_count: 0,
      language: 'TypeScript',
      has_issues: true,
      has_projects: true,
      has_downloads: true,
      has_wiki: true,
      has_pages: false,
      has_discussions: false,
      forks_count: 0,
      mirror_url: null,
      archived: false,
      disabled: false,
      open_issues_count: this.pulls.size,
      license: null,
      allow_forking: true,
      is_template: false,
      web_commit_signoff_required: false,
      topics: [],
      visibility: 'public',
      forks: 0,
      open_issues: this.pulls.size,
      watchers: 0,
      default_branch: this.defaultBranch,
    };
  }

  private pullJson(number: number, pull: PullSeed): Record<string, unknown> {
    const api = this.repoApiUrl();
    const url = `${api}/pulls/${number}`;
    const html = `${this.serverUrl}/${this.repository}/pull/${number}`;
    const issueUrl = `${api}/issues/${number}`;
    const author = userFromSeed(pull.author ?? 'octocat');
    const headRepository = pull.headRepository ?? this.repository;
    const headOwner = headRepository.split('/')[0] ?? this.owner;
    const headRef = pull.headRef ?? `feature-${number}`;
    const baseRef = pull.baseRef ?? this.defaultBranch;
    const created = '2024-02-03T04:05:06Z';
    const state = pull.state ?? 'open';
    return {
      url,
      id: stableId(`pull:${this.repository}#${number}`),
      node_id: nodeId('PR', number),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issueUrl,
      number,
      state,
      locked: false,
      title: pull.title ?? `Pull request #${number}`,
      user: this.userJson(author),
      body: pull.body ?? null,
      labels: (pull.labels ?? []).map((label) => {
        const id = stableId(`label:${label}`);
        return {
          id,
          node_id: nodeId('LA', id),
          url: `${api}/labels/${encodeURIComponent(label)}`,
          name: label,
          color: 'ededed',
          default: false,
          description: null,
        };
      }),
      milestone: null,
      active_lock_reason: null,
      created_at: created,
      updated_at: created,
      closed_at: state === 'closed' ? created : null,
      merged_at: null,
      merge_commit_sha: null,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      draft: pull.draft ?? false,
      commits_url: `${url}/commits`,
      review_comments_url: `${url}/comments`,
      review_comment_url: `${api}/pulls/comments{/number}`,
      comments_url: `${issueUrl}/comments`,
      statuses_url: `${api}/statuses/${pull.headSha}`,
      head: {
        label: `${headOwner}:${headRef}`,
        ref: headRef,
        sha: pull.headSha,
        user: this.userJson(userFromSeed(headOwner)),
        repo: this.repositoryJson(headRepository, headRepository !== this.repository),
      },
      base: {
        label: `${this.owner}:${baseRef}`,
        ref: baseRef,
        sha: pull.baseSha,
        user: this.userJson(userFromSeed(this.owner)),
        repo: this.repositoryJson(this.repository, false),
      },
      _links: {
        self: { href: url },
        html: { href: html },
        issue: { href: issueUrl },
        comments: { href: `${issueUrl}/comments` },
        review_comments: { href: `${url}/comments` },
        review_comment: { href: `${api}/pulls/comments{/number}` },
        commits: { href: `${url}/commits` },
        statuses: { href: `${api}/statuses/${pull.headSha}` },
      },
      author_association: 'CONTRIBUTOR',
      auto_merge: null,
      merged: false,
      mergeable: null,
      rebaseable: null,
      mergeable_state: 'unknown',
      merged_by: null,
      comments: this.commentsOn(number).length,
      review_comments: 0,
      maintainer_can_modify: false,
      commits: 1,
      additions: 0,
      deletions: 0,
      changed_files: 0,
    };
  }
}

interface RequestContext {
  method: string;
  path: string;
  searchParams: URLSearchParams;
  headers: Record<string, string>;
  rawBody: string;
}

interface OperationRequest {
  ctx: RequestContext;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  docs: string;
  route: Route;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function describeType(schema: JsonSchema | undefined): string {
  const type = typeof schema === 'object' ? schema['type'] : undefined;
  if (typeof type !== 'string') return 'valid';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

// Schema violations get GitHub's "Invalid request." message with the validator's findings
// appended; GitHub sends no `errors` array for these.
function invalidRequest(messages: string[], docs: string): Reply {
  return errorReply(422, `Invalid request.\n\n${messages.join('\n')}`, docs);
}

// Model validations run after the schema passed, and GitHub reports them differently: as
// "Validation Failed" with an `errors` entry per problem.
function commentBodyProblem(text: string, docs: string): Reply | undefined {
  // Ruby counts characters (code points), not UTF-16 units as String#length does here.
  if ([...text].length > COMMENT_BODY_LIMIT) {
    return errorReply(422, 'Validation Failed', docs, {
      errors: [
        {
          resource: 'IssueComment',
          code: 'unprocessable',
          field: 'data',
          message: `Body is too long (maximum is ${COMMENT_BODY_LIMIT} characters)`,
        },
      ],
    });
  }
  if (text.trim() === '') {
    return errorReply(422, 'Validation Failed', docs, {
      errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }],
    });
  }
  return undefined;
}

export async function startGitHubApi(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const fake = new FakeGitHubServer(options);
  await fake.listen();
  return fake;
}

// ---------------------------------------------------------------------------------------------
// A client that sends only the headers it is given

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/**
 * fetch() always adds a User-Agent (and Accept), so requests GitHub refuses for lacking them
 * can only be made with node:http, which adds nothing but Host and Connection.
 */
export async function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
