import { afterEach, describe, expect, it } from 'vitest';
import {
  ACTIONS_BOT,
  COMMENT_BODY_LIMIT,
  DEFAULT_BASE_SHA,
  findOperation,
  loadOpenApiSubset,
  operationParameters,
  rawRequest,
  requestBodySchema,
  responseSchema,
  startGitHubApi,
} from '../support/github-api.js';
import type { FakeGitHub, FakeGitHubOptions, OpenApiOperation } from '../support/github-api.js';
import { validate } from '../support/json-schema.js';
import type { JsonSchema } from '../support/json-schema.js';

const TOKEN = 'ghs_fixturetoken';
const COMMENTS = '/repos/octo-org/octo-repo/issues/1/comments';
const doc = loadOpenApiSubset();

function operation(method: string, template: string): OpenApiOperation {
  const found = findOperation(doc, method, template);
  if (!found) throw new Error(`fixture lacks ${method} ${template}`);
  return found;
}

const LIST = operation('get', '/repos/{owner}/{repo}/issues/{issue_number}/comments');
const CREATE = operation('post', '/repos/{owner}/{repo}/issues/{issue_number}/comments');
const UPDATE = operation('patch', '/repos/{owner}/{repo}/issues/comments/{comment_id}');
const CONTENTS = operation('get', '/repos/{owner}/{repo}/contents/{path}');

function param(op: OpenApiOperation, name: string) {
  const found = operationParameters(doc, op).find((p) => p.name === name);
  if (!found) throw new Error(`${op.operationId} has no parameter ${name}`);
  return found;
}

function schemaObject(schema: JsonSchema | undefined): Record<string, unknown> {
  if (typeof schema !== 'object') throw new Error('expected a schema object');
  return schema;
}

function expectMatchesResponse(op: OpenApiOperation, status: number, body: unknown): void {
  const schema = responseSchema(doc, op, status);
  expect(schema, `${op.operationId} documents a ${status} response`).toBeDefined();
  expect(validate(schema ?? false, body, { root: doc })).toEqual([]);
}

let running: FakeGitHub[] = [];

async function start(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const fake = await startGitHubApi({ token: TOKEN, ...options });
  running.push(fake);
  return fake;
}

afterEach(async () => {
  const fakes = running;
  running = [];
  await Promise.all(fakes.map((fake) => fake.close()));
  // A fake that answered with a shape its own description rejects is a broken fake.
  for (const fake of fakes) expect(fake.responseViolations).toEqual([]);
});

interface CallOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

interface UserJson {
  login: string;
  type: string;
}

interface CommentJson {
  id: number;
  body: string;
  user: UserJson;
  html_url: string;
}

interface ErrorJson {
  message: string;
  documentation_url: string;
  status: string;
  errors?: unknown[];
}

interface ContentJson {
  type: string;
  name: string;
  path: string;
  encoding: string;
  content: string;
  size: number;
  sha: string;
}

// The fake's responses are checked against the description by the fake itself (and again
// here where it matters), so tests may read them through these narrow views.
async function call<T = ErrorJson>(
  fake: FakeGitHub,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<{ status: number; headers: Headers; json: T }> {
  const init: RequestInit = {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/vnd.github+json',
      'user-agent': 'mcp-annotation-auditor-tests',
      'x-github-api-version': '2022-11-28',
      ...(options.body !== undefined || options.rawBody !== undefined
        ? { 'content-type': 'application/json' }
        : {}),
      ...options.headers,
    },
  };
  if (options.rawBody !== undefined) init.body = options.rawBody;
  else if (options.body !== undefined) init.body = JSON.stringify(options.body);
  const res = await fetch(`${fake.url}${path}`, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, json: json as T };
}

function parseLink(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part);
    if (match?.[1] && match[2]) links[match[2]] = match[1];
  }
  return links;
}

describe('the extracted OpenAPI subset', () => {
  it('records its source and holds exactly the operations the action uses', () => {
    expect(doc.info.version).toBe('23.0.2');
    expect(doc.info['x-source-package']).toBe('@octokit/openapi@23.0.2');
    const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(ops.sort()).toEqual([
      'GET /repos/{owner}/{repo}/contents/{path}',
      'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
      'GET /repos/{owner}/{repo}/pulls/{pull_number}',
      'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
      'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
    ]);
  });

  it('resolves every $ref inside the fixture', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const pointer = ref.slice('"$ref":"#/'.length, -1).split('/');
      let node: unknown = doc;
      for (const part of pointer) node = (node as Record<string, unknown>)[part];
      expect(node, ref).toBeDefined();
    }
  });
});

describe('fake GitHub API: the happy path', () => {
  it('creates, lists and updates a comment with real-shaped responses', async () => {
    const fake = await start();
    const created = await call<CommentJson>(fake, 'POST', COMMENTS, { body: { body: 'first' } });
    expect(created.status).toBe(201);
    expectMatchesResponse(CREATE, 201, created.json);
    expect(created.json.body).toBe('first');
    expect(created.json.user.login).toBe('github-actions[bot]');
    expect(created.json.user.type).toBe('Bot');
    expect(created.json.html_url).toBe(
      `https://github.com/octo-org/octo-repo/pull/1#issuecomment-${created.json.id}`,
    );
    expect(created.headers.get('location')).toBe(
      `${fake.url}/repos/octo-org/octo-repo/issues/comments/${created.json.id}`,
    );

    const listed = await call<CommentJson[]>(fake, 'GET', COMMENTS);
    expect(listed.status).toBe(200);
    expectMatchesResponse(LIST, 200, listed.json);
    expect(listed.json.map((c) => c.id)).toEqual([created.json.id]);
    expect(listed.headers.get('link')).toBeNull();

    const updated = await call<CommentJson>(
      fake,
      'PATCH',
      `/repos/octo-org/octo-repo/issues/comments/${created.json.id}`,
      { body: { body: 'second' } },
    );
    expect(updated.status).toBe(200);
    expectMatchesResponse(UPDATE, 200, updated.json);
    expect(updated.json.body).toBe('second');

    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]).toMatchObject({ body: 'second', issueNumber: 1, user: ACTIONS_BOT });
    expect(fake.requests.map((r) => `${r.method} ${r.status} ${r.operationId}`)).toEqual([
      'POST 201 issues/create-comment',
      'GET 200 issues/list-comments',
      'PATCH 200 issues/update-comment',
    ]);
    expect(fake.requests[0]?.body).toEqual({ body: 'first' });
    expect(fake.requests[0]?.headers['authorization']).toBe(`Bearer ${TOKEN}`);
  });

  it('paginates with Link headers, 30 per page by default', async () => {
    const fake = await start();
    for (let i = 0; i < 65; i++) fake.seedComment({ body: `comment ${i}` });
    expect(schemaObject(param(LIST, 'per_page').schema)['default']).toBe(30);

    const first = await call(fake, 'GET', COMMENTS);
    expect(first.json).toHaveLength(30);
    const firstLinks = parseLink(first.headers.get('link'));
    expect(Object.keys(firstLinks)).toEqual(['next', 'last']);
    expect(new URL(firstLinks['next'] ?? '').searchParams.get('page')).toBe('2');
    expect(new URL(firstLinks['last'] ?? '').searchParams.get('page')).toBe('3');

    const last = await call(fake, 'GET', `${COMMENTS}?page=3`);
    expect(last.json).toHaveLength(5);
    expect(Object.keys(parseLink(last.headers.get('link')))).toEqual(['prev', 'first']);

    // Following rel="next" the way a client would visits every comment exactly once.
    const seen: string[] = [];
    let next: string | undefined = `${fake.url}${COMMENTS}?per_page=20`;
    while (next) {
      const res: Response = await fetch(next, {
        headers: { authorization: `Bearer ${TOKEN}`, 'user-agent': 'tests' },
      });
      const page = (await res.json()) as { body: string }[];
      seen.push(...page.map((c) => c.body));
      next = parseLink(res.headers.get('link'))['next'];
    }
    expect(seen).toEqual(fake.commentsOn(1).map((c) => c.body));
    expect(seen).toHaveLength(65);
  });

  it('clamps per_page to the 100 the description states, as GitHub does', async () => {
    expect(param(LIST, 'per_page').description).toContain('(max 100)');
    const fake = await start();
    for (let i = 0; i < 150; i++) fake.seedComment({ body: `c${i}` });
    const res = await call(fake, 'GET', `${COMMENTS}?per_page=500`);
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(100);
    expect(new URL(parseLink(res.headers.get('link'))['last'] ?? '').searchParams.get('page')).toBe(
      '2',
    );
  });
});

describe('fake GitHub API: contents', () => {
  const classList = '{"tools":{"read_file":"read"}}\n';

  it('serves a file at a ref base64-encoded, with its git blob sha', async () => {
    const fake = await start({
      files: { [DEFAULT_BASE_SHA]: { '.github/mcp-classes.json': classList } },
    });
    const res = await call<ContentJson>(
      fake,
      'GET',
      `/repos/octo-org/octo-repo/contents/.github/mcp-classes.json?ref=${DEFAULT_BASE_SHA}`,
    );
    expect(res.status).toBe(200);
    expectMatchesResponse(CONTENTS, 200, res.json);
    expect(res.json.type).toBe('file');
    expect(res.json.encoding).toBe('base64');
    expect(res.json.path).toBe('.github/mcp-classes.json');
    expect(Buffer.from(res.json.content, 'base64').toString('utf8')).toBe(classList);
    expect(res.json.size).toBe(Buffer.byteLength(classList));
    // `git hash-object` of the same bytes.
    fake.setFile('main', 'hello.txt', 'hello\n');
    const hello = await call<ContentJson>(
      fake,
      'GET',
      '/repos/octo-org/octo-repo/contents/hello.txt',
    );
    expect(hello.json.sha).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('answers 404 for a missing path and for an unknown ref', async () => {
    expect(param(CONTENTS, 'path')['x-multi-segment']).toBe(true);
    expect(param(CONTENTS, 'ref').in).toBe('query');
    const fake = await start({ files: { main: { 'a.txt': 'a' } } });
    const missing = await call(fake, 'GET', '/repos/octo-org/octo-repo/contents/b.txt');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({
      message: 'Not Found',
      documentation_url: CONTENTS.externalDocs?.url,
    });
    const noRef = await call(fake, 'GET', '/repos/octo-org/octo-repo/contents/a.txt?ref=deadbeef');
    expect(noRef.status).toBe(404);
    expect(noRef.json.message).toBe('No commit found for the ref deadbeef');
    expectMatchesResponse(CONTENTS, 404, noRef.json);
  });

  it('lists a folder, the root too (with or without its slash); a symlinked folder is a symlink, not followed', async () => {
    const fake = await start({ files: { main: { 'a.txt': 'a', 'real/list.json': '{}' } } });
    fake.setSymlink('main', 'cfg', 'real');
    for (const root of [
      '/repos/octo-org/octo-repo/contents',
      '/repos/octo-org/octo-repo/contents/',
    ]) {
      const listed = await call<{ name: string; type: string }[]>(fake, 'GET', root);
      expect(listed.status, root).toBe(200);
      expectMatchesResponse(CONTENTS, 200, listed.json);
      expect(listed.json.map(({ name, type }) => `${name}:${type}`)).toEqual([
        'a.txt:file',
        'cfg:symlink',
        'real:dir',
      ]);
    }
    const link = await call<{ type: string; target: string }>(
      fake,
      'GET',
      '/repos/octo-org/octo-repo/contents/cfg',
    );
    expect([link.status, link.json.type, link.json.target]).toEqual([200, 'symlink', 'real']);
    expectMatchesResponse(CONTENTS, 200, link.json);
    const through = await call(fake, 'GET', '/repos/octo-org/octo-repo/contents/cfg/list.json');
    expect(through.status).toBe(404);
  });
});

describe('fake GitHub API: refusals', () => {
  it('answers 401 without credentials, with a malformed header, or with the wrong token', async () => {
    const fake = await start();
    const none = await call(fake, 'GET', COMMENTS, { headers: { authorization: '' } });
    expect(none.status).toBe(401);

    const res = await rawRequest(`${fake.url}${COMMENTS}`, { headers: { 'user-agent': 't' } });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ message: 'Requires authentication' });

    for (const authorization of ['Basic Zm9vOmJhcg==', 'Bearer', TOKEN, `Bearer ${TOKEN}x`]) {
      const bad = await call(fake, 'GET', COMMENTS, { headers: { authorization } });
      expect(bad.status, authorization).toBe(401);
      expect(bad.json).toEqual({
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
        status: '401',
      });
    }
    expect(fake.requests.every((r) => r.status === 401)).toBe(true);
  });

  it('answers 403 as GitHub does when there is no User-Agent', async () => {
    const fake = await start();
    const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/vnd.github+json' };
    const res = await rawRequest(`${fake.url}${COMMENTS}`, { headers });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.text).toContain('Please make sure your request has a User-Agent header');
    const withAgent = await rawRequest(`${fake.url}${COMMENTS}`, {
      headers: { ...headers, 'user-agent': 'mcp-annotation-auditor' },
    });
    expect(withAgent.status).toBe(200);
  });

  it('answers 422 when `body` is missing, because the description requires it', async () => {
    for (const op of [CREATE, UPDATE]) {
      const spec = requestBodySchema(doc, op);
      expect(spec?.required).toBe(true);
      expect(schemaObject(spec?.schema)['required']).toEqual(['body']);
    }
    const fake = await start();
    const res = await call(fake, 'POST', COMMENTS, { body: { text: 'hi' } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      message: 'Invalid request.\n\n"body" wasn\'t supplied.',
      documentation_url: CREATE.externalDocs?.url,
      status: '422',
    });
    expectMatchesResponse(CREATE, 422, res.json);
    expect(fake.comments).toHaveLength(0);
  });

  it('answers 400 for a payload that is not JSON', async () => {
    const fake = await start();
    const res = await call(fake, 'POST', COMMENTS, { rawBody: '{"body": "unterminated' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      message: 'Problems parsing JSON',
      documentation_url: CREATE.externalDocs?.url,
      status: '400',
    });
    expect(fake.requests[0]?.body).toBe('{"body": "unterminated');
  });

  it('answers 422 for a comment over 65536 characters, on create and update', async () => {
    const fake = await start();
    const atLimit = await call<CommentJson>(fake, 'POST', COMMENTS, {
      body: { body: 'x'.repeat(COMMENT_BODY_LIMIT) },
    });
    expect(atLimit.status).toBe(201);
    const expected = {
      message: 'Validation Failed',
      errors: [
        {
          resource: 'IssueComment',
          code: 'unprocessable',
          field: 'data',
          message: 'Body is too long (maximum is 65536 characters)',
        },
      ],
      documentation_url: CREATE.externalDocs?.url,
      status: '422',
    };
    const over = await call(fake, 'POST', COMMENTS, {
      body: { body: 'x'.repeat(COMMENT_BODY_LIMIT + 1) },
    });
    expect(over.status).toBe(422);
    expect(over.json).toEqual(expected);
    expectMatchesResponse(CREATE, 422, over.json);

    // Characters, not UTF-16 units: 65536 emoji fit although their .length is 131072.
    const emoji = await call(fake, 'POST', COMMENTS, {
      body: { body: '😀'.repeat(COMMENT_BODY_LIMIT) },
    });
    expect(emoji.status).toBe(201);

    const patch = await call(
      fake,
      'PATCH',
      `/repos/octo-org/octo-repo/issues/comments/${atLimit.json.id}`,
      { body: { body: 'y'.repeat(COMMENT_BODY_LIMIT + 1) } },
    );
    expect(patch.status).toBe(422);
    expect(patch.json.errors).toEqual(expected.errors);
    expect(fake.comments[0]?.body).toBe('x'.repeat(COMMENT_BODY_LIMIT));
  });

  it('answers 404 for routes and methods outside the description', async () => {
    const fake = await start();
    const cases: [string, string][] = [
      ['GET', '/repos/octo-org/octo-repo/issues/1/comment'],
      ['DELETE', COMMENTS],
      ['GET', '/repos/octo-org/octo-repo/issues/comments/1'],
      ['PUT', '/repos/octo-org/octo-repo/contents/a.txt'],
      ['GET', '/user'],
    ];
    for (const [method, path] of cases) {
      const res = await call(fake, method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json).toEqual({
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest',
        status: '404',
      });
    }
  });

  it('answers 404 when a path parameter does not match its schema', async () => {
    expect(schemaObject(param(LIST, 'issue_number').schema)['type']).toBe('integer');
    expect(schemaObject(param(UPDATE, 'comment_id').schema)['type']).toBe('integer');
    const fake = await start();
    for (const path of [
      '/repos/octo-org/octo-repo/issues/abc/comments',
      '/repos/octo-org/octo-repo/issues/-1/comments',
      '/repos/octo-org/octo-repo/issues/1.5/comments',
    ]) {
      expect((await call(fake, 'GET', path)).status, path).toBe(404);
    }
    const patch = await call(fake, 'PATCH', '/repos/octo-org/octo-repo/issues/comments/x1', {
      body: { body: 'hi' },
    });
    expect(patch.status).toBe(404);
  });

  it('answers 422 when a query parameter does not match its schema', async () => {
    expect(schemaObject(param(LIST, 'page').schema)['type']).toBe('integer');
    const fake = await start();
    const res = await call(fake, 'GET', `${COMMENTS}?per_page=ten`);
    expect(res.status).toBe(422);
    expect(res.json.message).toBe('Invalid request.\n\nFor \'per_page\', "ten" is not an integer.');
    const since = await call(fake, 'GET', `${COMMENTS}?since=yesterday`);
    expect(since.status).toBe(422);
    const zero = await call(fake, 'GET', `${COMMENTS}?page=0`);
    expect(zero.status).toBe(422);
  });

  it('answers 404 for an unknown comment, issue or repository', async () => {
    const fake = await start();
    const patch = await call(fake, 'PATCH', '/repos/octo-org/octo-repo/issues/comments/42', {
      body: { body: 'hi' },
    });
    expect(patch.status).toBe(404);
    expect(patch.json.documentation_url).toBe(UPDATE.externalDocs?.url);
    const otherIssue = await call(fake, 'POST', '/repos/octo-org/octo-repo/issues/2/comments', {
      body: { body: 'hi' },
    });
    expect(otherIssue.status).toBe(404);
    const otherRepo = await call(fake, 'GET', '/repos/octo-org/other/issues/1/comments');
    expect(otherRepo.status).toBe(404);
  });

  it('answers comment writes with 403 when the token is read-only, as for fork PRs', async () => {
    const fake = await start({ comments: [{ body: 'old' }] });
    fake.forbidCommentWrites = true;
    const expected = {
      message: 'Resource not accessible by integration',
      documentation_url: CREATE.externalDocs?.url,
      status: '403',
    };
    const post = await call(fake, 'POST', COMMENTS, { body: { body: 'new' } });
    expect(post.status).toBe(403);
    expect(post.json).toEqual(expected);
    expectMatchesResponse(CREATE, 403, post.json);
    const id = fake.comments[0]?.id ?? 0;
    const patch = await call(fake, 'PATCH', `/repos/octo-org/octo-repo/issues/comments/${id}`, {
      body: { body: 'new' },
    });
    expect(patch.status).toBe(403);
    expect(patch.json.message).toBe(expected.message);
    expect(fake.comments.map((c) => c.body)).toEqual(['old']);
    // Reading is still allowed.
    expect((await call(fake, 'GET', COMMENTS)).status).toBe(200);
  });

  it('answers 400 for an API version GitHub does not serve', async () => {
    const fake = await start();
    const res = await call(fake, 'GET', COMMENTS, { headers: { 'x-github-api-version': 'v3' } });
    expect(res.status).toBe(400);
    expect(res.json.message).toContain('"v3", is not a supported version');
  });
});

describe('json-schema validator', () => {
  const root = {
    defs: {
      user: {
        type: 'object',
        required: ['login'],
        properties: { login: { type: 'string', maxLength: 3 } },
        additionalProperties: false,
      },
    },
  };

  it('handles nullable, type arrays, enum and numeric bounds', () => {
    expect(validate({ type: 'string', nullable: true }, null)).toEqual([]);
    expect(validate({ type: ['string', 'null'] }, null)).toEqual([]);
    expect(validate({ type: 'string' }, null)[0]?.message).toBe("For '', nil is not a string.");
    expect(validate({ enum: ['a', 'b'] }, 'c')).toHaveLength(1);
    expect(validate({ type: 'integer', minimum: 1, maximum: 100 }, 101)).toHaveLength(1);
    expect(validate({ type: 'integer' }, 1.5)).toHaveLength(1);
    expect(validate({ type: 'string', format: 'date-time' }, '2024-01-01T00:00:00Z')).toEqual([]);
    expect(validate({ type: 'string', format: 'date-time' }, 'soon')).toHaveLength(1);
  });

  it('follows $ref and checks required, additionalProperties, items and maxLength', () => {
    const schema = { type: 'array', items: { $ref: '#/defs/user' } };
    expect(validate(schema, [{ login: 'abc' }], { root })).toEqual([]);
    const errors = validate(schema, [{ login: 'abcd', extra: 1 }, {}], { root });
    expect(errors.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual([
      '/0/login maxLength',
      '/0 additionalProperties',
      '/1 required',
    ]);
  });

  it('requires exactly one oneOf branch and at least one anyOf branch', () => {
    const oneOf = { oneOf: [{ type: 'integer' }, { type: 'number' }] };
    expect(validate(oneOf, 1.5)).toEqual([]);
    expect(validate(oneOf, 1)[0]?.keyword).toBe('oneOf');
    const anyOf = { anyOf: [{ type: 'integer' }, { type: 'string' }] };
    expect(validate(anyOf, 'x')).toEqual([]);
    expect(validate(anyOf, true)[0]?.keyword).toBe('anyOf');
  });
});
