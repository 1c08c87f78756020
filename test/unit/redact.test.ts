import { describe, expect, it } from 'vitest';
import {
  encodedForms,
  isSafeWord,
  redactArgs,
  redactText,
  redactUrl,
  secretsOf,
  secretsOfEnv,
  secretsOfValue,
} from '../../src/redact.js';
import { TailBuffer } from '../../src/server/process.js';

const ROOT = '/work/repo';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('the display allow-list: a word of a command line is shown only in a safe shape', () => {
  // [word, shown?] — one row per shape, and the look-alikes that must not pass.
  const table: [string, boolean][] = [
    // Flag names.
    ['--port', true],
    ['-y', true],
    ['--no-auth', true],
    ['-', true],
    ['--Xk9fJ2pQ', false],
    // Plain words.
    ['node', true],
    ['stdio', true],
    ['server.js', true],
    ['mcp-server_v2', true],
    ['LOG_LEVEL', true],
    ['Notes', true],
    ['python3', true],
    ['3000', true],
    // Shape, not meaning: a password that is a plain word shows (give secrets through env).
    ['correcthorse', true],
    ['hunter2x', false],
    ['sk_live_0123456789abcdef', false],
    ['ghp_0123456789abcdefABCDEFabcdef012345', false],
    ['0123456789abcdefABCDEF0123', false],
    ['aBcDeFgHiJ', false],
    ['a1b2c3d4', false],
    ['1234567890', false],
    [JWT, false],
    ['Authorization: Bearer abc', false],
    // Versions and packages.
    ['1.2.3', true],
    ['v2.0', true],
    ['^1.4', true],
    ['1.0.0-beta.1', true],
    ['pkg@1.2.3', true],
    ['@modelcontextprotocol/server-filesystem', true],
    ['@scope/pkg@latest', true],
    ['1.0.0-Xk9fJ2pQ7', false],
    ['pkg@Xk9fJ2pQ7zz', false],
    // Paths inside the repository.
    ['dist/index.js', true],
    ['./server.mjs', true],
    ['.github/mcp.yml', true],
    ['node_modules/@scope/pkg/dist/cli.js', true],
    [`${ROOT}/dist/server.js`, true],
    ['../other/server.js', false],
    ['dist/../../etc/passwd', false],
    ['/usr/bin/node', false],
    ['/tmp', false],
    [`${ROOT}-evil/dist/server.js`, false],
    ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', false],
    ['abc/DEF123+xyz==', false],
    ['C:\\Users\\me\\server.js', false],
  ];
  it.each(table)('%s: shown %s', (word, shown) => {
    expect(isSafeWord(word, ROOT)).toBe(shown);
    expect(redactArgs([word], ROOT).shown).toEqual([shown ? word : '***']);
  });
});

describe('redactArgs: a command line as shown, with what it hides as secrets', () => {
  it('shows the flag of --flag=value and judges the value; a credential-named flag hides any value', () => {
    const { shown, secrets } = redactArgs(
      [
        'npx',
        '-y',
        '@modelcontextprotocol/server-filesystem',
        '--port=3000',
        '--mode=Xk9fJ2pQ7zz',
        '--api-key=plainword',
        'API_TOKEN=alsoplain',
        '--token',
        'hunter22',
        '--key-file',
        'keys/dev.pem',
        '--no-auth',
        'serve.mjs',
      ],
      ROOT,
    );
    expect(shown).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '--port=3000',
      '--mode=***',
      '--api-key=***',
      'API_TOKEN=***',
      '--token',
      '***',
      '--key-file',
      'keys/dev.pem',
      '--no-auth',
      'serve.mjs',
    ]);
    expect(secrets).toEqual(expect.arrayContaining(['Xk9fJ2pQ7zz', 'plainword', 'alsoplain']));
    expect(secrets).toContain('hunter22');
    expect(secrets).not.toContain('serve.mjs');
  });

  // 22.7: each of these reached the report and the comment as it was.
  it('hides an mcp-remote --header, a key in a URL path, a token holding /, a JWT after a plain flag', () => {
    const args = [
      'mcp-remote',
      'https://mcp.example.com/sse',
      '--header',
      'Authorization: Bearer tok_live_Zq81mXp',
      'https://api.example.com/v1/k3yInPath9Zq/mcp',
      '--root',
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      '--config',
      JWT,
    ];
    const { shown, secrets } = redactArgs(args, ROOT);
    expect(shown).toEqual([
      'mcp-remote',
      'https://mcp.example.com/***',
      '--header',
      '***',
      'https://api.example.com/***',
      '--root',
      '***',
      '--config',
      '***',
    ]);
    for (const secret of [
      'Authorization: Bearer tok_live_Zq81mXp',
      'Bearer tok_live_Zq81mXp',
      'tok_live_Zq81mXp',
      'k3yInPath9Zq',
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      JWT,
    ])
      expect(secrets).toContain(secret);
    // A plain word of a hidden value is no secret alone: it would mask the tool named after it.
    expect(secrets).not.toContain('Authorization');
    expect(secrets).not.toContain('mcp');
  });

  it('shows a URL in an argument by its origin when the host is plain, and hides the rest', () => {
    const { shown, secrets } = redactArgs(
      [
        'postgresql://app:s3cr3t-pw@db.internal:5432/notes?sslkey=KEYFILE1',
        'DATABASE_URL=postgres://u:p4ss-w0rd@db/x',
        'https://Xk9fJ2pQ7zz.tunnel.example/mcp',
      ],
      ROOT,
    );
    expect(shown).toEqual([
      'postgresql://***@db.internal:5432/***',
      'DATABASE_URL=postgres://***@db/***',
      'https://***/***',
    ]);
    expect(secrets).toEqual(
      expect.arrayContaining(['s3cr3t-pw', 'KEYFILE1', 'p4ss-w0rd', 'Xk9fJ2pQ7zz.tunnel.example']),
    );
  });

  it('judges the command word too: an absolute program outside the repository is hidden', () => {
    expect(redactArgs(['/opt/Xk9/bin/server', '--port', '8080'], ROOT).shown).toEqual([
      '***',
      '--port',
      '8080',
    ]);
  });
});

describe('secrets and their encoded forms', () => {
  it('a value echoed URL-encoded, JSON-escaped, with \\u escapes or in base64 is caught', () => {
    const value = 'pä"ss wörd/1';
    const secrets = secretsOfValue(value);
    const echoes = [
      value,
      encodeURIComponent(value),
      JSON.stringify(value).slice(1, -1),
      'p\\u00e4\\"ss w\\u00f6rd/1',
      Buffer.from(value).toString('base64'),
    ];
    for (const echo of echoes) expect(redactText(`got [${echo}]`, secrets)).not.toContain(echo);
  });

  // The forms the review found leaking: each is how some encoder writes the value.
  const SLASHED = 'Ab/cd+ef/ZZ99yy';
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const b64url = (text: string) => Buffer.from(text).toString('base64url');
  const hex = (text: string) => Buffer.from(text).toString('hex');
  const echoes: [string, string, string][] = [
    [
      'Basic credential (the key at byte offset 4)',
      'Zq8LmN4pRt7sWx2y',
      b64('bob:Zq8LmN4pRt7sWx2y'),
    ],
    ['base64 at offset 1', SLASHED, b64(`x${SLASHED}`)],
    ['base64 at offset 2', SLASHED, b64(`xy${SLASHED}`)],
    ['base64 followed by more bytes', 'b/cd+ef/ZZ99yy', b64('b/cd+ef/ZZ99yyü')],
    ['URL-safe base64 at offset 1', SLASHED, b64url(`u:${SLASHED}?`)],
    ['URL-safe base64 at offset 2', 'k?k>k?k>k?k>', b64url(`ab${'k?k>k?k>k?k>'}`)],
    ['hex', 'Zq8LmN4pRt7sWx2y', hex('Zq8LmN4pRt7sWx2y')],
    ['HEX', SLASHED, hex(SLASHED).toUpperCase()],
    ['upper case', SLASHED, SLASHED.toUpperCase()],
    ['lower case', SLASHED, SLASHED.toLowerCase()],
    ['percent-encoded, lower-case hex', SLASHED, 'Ab%2fcd%2bef%2fZZ99yy'],
    ['percent-encoded, strict (RFC 3986)', "it's(a)*key!", 'it%27s%28a%29%2Akey%21'],
    ['form-encoded, lower-case hex', 'pa ss/wörd', 'pa+ss%2fw%c3%b6rd'],
    ['JSON with escaped slashes', SLASHED, 'Ab\\/cd+ef\\/ZZ99yy'],
    ['JSON with escaped slashes and \\u', 'wö/rd-1234', 'w\\u00f6\\/rd-1234'],
    ['HTML, named', 'a&b<c>"d\'e', 'a&amp;b&lt;c&gt;&quot;d&#39;e'],
    ['HTML, Go html/template', SLASHED, 'Ab/cd&#43;ef/ZZ99yy'],
    ['HTML, mustache', "x'y/z=w`v", 'x&#39;y&#x2F;z&#x3D;w&#x60;v'],
    ['HTML, Python', "a&b'c/d", 'a&amp;b&#x27;c/d'],
    ['HTML, PHP', `a"b'c/d`, 'a&quot;b&#039;c/d'],
    ['HTML, Go html.EscapeString', `a"b'c+d`, 'a&#34;b&#39;c+d'],
    ['HTML, decimal', SLASHED, 'Ab&#47;cd&#43;ef&#47;ZZ99yy'],
    ['HTML, hex', SLASHED, 'Ab&#x2F;cd&#x2B;ef&#x2F;ZZ99yy'],
  ];

  it.each(echoes)('a value echoed as %s is caught whole', (what, value, echo) => {
    const redacted = redactText(
      `got [${echo}]`,
      secretsOfEnv({ API_KEY: value }, () => false),
    );
    // A base64 echo keeps what encodes its neighbours (and the one or two characters they share
    // with the value); any other form is replaced whole.
    if (what.includes('base64') || what.includes('Basic'))
      expect(redacted).toMatch(/^got \[[\w+/-]{0,6}\*\*\*[\w+/-]{0,4}=*\]$/);
    else expect(redacted).toBe('got [***]');
  });

  it('redacts of a base64 echo only what encodes the secret: the user part stays, 2 characters at most after', () => {
    const secrets = secretsOfValue('Zq8LmN4pRt7sWx2y');
    const redacted = redactText(`Basic ${b64('bob:Zq8LmN4pRt7sWx2y')}`, secrets);
    expect(redacted).toMatch(/^Basic Ym9iOl\*\*\*[A-Za-z0-9+/]{0,2}=*$/);
  });

  it('keeps the forms bounded: at most 31 for a value, one more per line', () => {
    const worst = 'a&b<c>\'d(e)*!f g/h+i=j`kö"';
    expect(new Set(encodedForms(worst)).size).toBeLessThanOrEqual(31);
    expect(new Set(encodedForms('plain-looking-value')).size).toBeLessThanOrEqual(12);
    expect(encodedForms('one-line\ntwo-line')).toEqual(
      expect.arrayContaining(['one-line', 'two-line']),
    );
  });

  it('a Basic credential is caught decoded too: its user and password alone', () => {
    const header = `Basic ${Buffer.from('svc-user:pw-0xQ9z').toString('base64')}`;
    expect(secretsOf(undefined, { Authorization: header })).toEqual(
      expect.arrayContaining(['svc-user:pw-0xQ9z', 'svc-user', 'pw-0xQ9z']),
    );
  });

  it('keeps a floor: values under 4 characters, and plain settings, are not masked', () => {
    expect(secretsOfValue('abc')).toEqual([]);
    for (const setting of ['true', 'false', 'on', '3000', '8', 'test', 'production', 'debug'])
      expect(secretsOfValue(setting)).toEqual([]);
    expect(secretsOfValue('prod-eu-7')).toContain('prod-eu-7');
  });

  it('every env value the user gave is a secret; inherited base values are not', () => {
    const secrets = secretsOfEnv(
      { PATH: '/usr/bin', REGION: 'europe', API_KEY: 'plain-looking', PORT: '3000' },
      (name) => name === 'PATH',
    );
    expect(secrets).toEqual(expect.arrayContaining(['europe', 'plain-looking']));
    expect(secrets).not.toContain('/usr/bin');
    expect(secrets).not.toContain('3000');
  });

  it('each line of a multi-line value is masked on its own, as the log masks line by line', () => {
    expect(secretsOfValue('first-line-secret\nsecond-line-secret')).toEqual(
      expect.arrayContaining(['first-line-secret', 'second-line-secret']),
    );
  });
});

describe('redactUrl', () => {
  it('keeps only the scheme, host and port: the path, query and fragment may hold a key', () => {
    expect(redactUrl('https://alice:pa%24s@mcp.example.com:8443/mcp?api_key=SK1&v=2#top')).toBe(
      'https://***@mcp.example.com:8443/***',
    );
    expect(redactUrl('https://mcp.example.com/v1/sk_live_0123456789abcdef/mcp')).toBe(
      'https://mcp.example.com/***',
    );
    expect(redactUrl('http://127.0.0.1:3000/mcp')).toBe('http://127.0.0.1:3000/***');
    expect(redactUrl('http://127.0.0.1:3000/')).toBe('http://127.0.0.1:3000/');
    expect(redactUrl('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
  });
  it('still hides credentials in text that does not parse as a URL', () => {
    expect(redactUrl('http://bob:secret@[::1')).toBe('http://***@***');
    expect(redactUrl('http://[::1]:3000/mcp')).toBe('http://[::1]:3000/***');
    expect(redactUrl('https://k3y9xQ.tunnel.example/mcp')).toBe('https://***/***');
    expect(redactUrl('notaurl')).toBe('notaurl');
  });
});

describe('secretsOf (an HTTP server) and redactText', () => {
  it('takes every header value, with and without its scheme, and the URL hidden parts', () => {
    const secrets = secretsOf('http://alice:pa%24sword@h/mcp?api_key=SK_LIVE_1', {
      Authorization: 'Bearer tok_123456',
      Accept: 'application/json',
      'X-Short': 'ab',
    });
    expect(secrets).toEqual(
      expect.arrayContaining([
        'Bearer tok_123456',
        'tok_123456',
        'application/json',
        'pa%24sword',
        'pa$sword',
        'alice',
        'SK_LIVE_1',
      ]),
    );
    expect(secrets).not.toContain('ab');
    const echoed =
      '{"authorization":"Bearer tok_123456","raw":"tok_123456","user":"alice","key":"SK_LIVE_1"}';
    expect(redactText(echoed, secrets)).toBe(
      '{"authorization":"***","raw":"***","user":"***","key":"***"}',
    );
  });
  it('takes the key in a URL path, but not its plain words or plain query settings', () => {
    const url = 'https://mcp.example.com/servers/notes/sk_live_0123456789abcdef/mcp?lang=english';
    const secrets = secretsOf(url);
    expect(secrets).toEqual(expect.arrayContaining([url, 'sk_live_0123456789abcdef']));
    for (const word of ['servers', 'notes', 'english']) expect(secrets).not.toContain(word);
    expect(redactText('GET /servers/notes/sk_live_0123456789abcdef/mcp failed', secrets)).toBe(
      'GET /servers/notes/***/mcp failed',
    );
  });
  it('hides the user information of any URL in the text', () => {
    expect(redactText('see https://bob:pw@h/x and ftp://tok@h2', [])).toBe(
      'see https://***@h/x and ftp://***@h2',
    );
  });
  it('a URL that does not parse is redacted all the same', () => {
    const url = 'http://127.0.0.1:99999/mcp?token=SECRETVALUE1234&x=ab=SECRETSECRET#f';
    expect(redactUrl(url)).toBe('http://127.0.0.1:99999/***');
    expect(secretsOf(url)).toEqual(expect.arrayContaining([url, 'SECRETVALUE1234']));
    expect(redactUrl('http://u:pw@bad host/mcp?api_key=SK1')).toBe('http://***@***/***');
  });
});

describe('a server output kept from its tail', () => {
  it('drops its first, cut line: the end of a secret cut there would match no more', () => {
    const secret = 'tok_live_Zq81mXp4Lk9';
    const tail = new TailBuffer(100);
    // The cut falls 5 characters into the secret: its end alone would be left on the first line.
    tail.push(`${'x'.repeat(300)}\n${secret}`);
    tail.push(`\n${'y'.repeat(100 - secret.length + 5 - 2)}\n`);
    const text = tail.toString();
    expect(text).toMatch(/^\[\d+ earlier characters not shown\]\ny+\n$/);
    expect(text).not.toContain(secret.slice(5));
  });
});
