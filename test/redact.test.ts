import { describe, expect, it } from 'vitest';
import { redactArgs, redactText, redactUrl, secretsOf } from '../src/redact.js';

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
    expect(redactUrl('http://bob:secret@[::1')).toBe('http://***@[::1');
    expect(redactUrl('notaurl')).toBe('notaurl');
  });
});

describe('secretsOf and redactText', () => {
  it('take header values, with and without their scheme, and the secret parts of the URL', () => {
    const secrets = secretsOf('http://alice:pa%24sword@h/mcp?api_key=SK_LIVE_1', {
      Authorization: 'Bearer tok_123456',
      'X-Short': 'ab',
    });
    expect(secrets).toEqual(
      expect.arrayContaining([
        'Bearer tok_123456',
        'tok_123456',
        'pa%24sword',
        'pa$sword',
        'SK_LIVE_1',
      ]),
    );
    expect(secrets).not.toContain('ab');
    // A user name beside a password is no secret, unless it looks like a token.
    expect(secrets).not.toContain('alice');
    expect(secretsOf('https://ghp_0123456789abcdefABCD@h/mcp')).toEqual([
      'https://ghp_0123456789abcdefABCD@h/mcp',
      'ghp_0123456789abcdefABCD',
    ]);
    const echoed =
      '{"authorization":"Bearer tok_123456","raw":"tok_123456","user":"alice","key":"SK_LIVE_1"}';
    expect(redactText(echoed, secrets)).toBe(
      '{"authorization":"***","raw":"***","user":"alice","key":"***"}',
    );
  });
  it('take every header value whatever its name, the URL whole, and only key-like parts of it', () => {
    const url = 'http://h/servers/notes/mcp?v=2026&lang=english&state=0123456789abcdef01';
    const secrets = secretsOf(url, {
      Accept: 'application/json',
      'X-Api-Key': 'k123',
      'X-Tenant': 'tenant-0123456789abcdef',
      'X-Custom-Routing': 'acme-prod-7',
    });
    expect(secrets.sort()).toEqual(
      [
        url,
        '0123456789abcdef01',
        'application/json',
        'k123',
        'tenant-0123456789abcdef',
        'acme-prod-7',
      ].sort(),
    );
  });
  it('take a key in the URL path, so the log masks it wherever it is printed', () => {
    const url = 'https://mcp.example.com/v1/sk_live_0123456789abcdef/mcp';
    const secrets = secretsOf(url);
    expect(secrets).toEqual([url, 'sk_live_0123456789abcdef']);
    expect(redactText(`GET /v1/sk_live_0123456789abcdef/mcp failed`, secrets)).toBe(
      'GET /v1/***/mcp failed',
    );
  });
  it('hides the user information of any URL in the text', () => {
    expect(redactText('see https://bob:pw@h/x and ftp://tok@h2', [])).toBe(
      'see https://***@h/x and ftp://***@h2',
    );
  });
  it('leaves text without secrets alone', () => {
    expect(redactText('nothing here', secretsOf('http://h/mcp', {}))).toBe('nothing here');
  });
});

describe('a URL that does not parse', () => {
  it('is redacted all the same, its secrets masked', () => {
    const url = 'http://127.0.0.1:99999/mcp?token=SECRETVALUE1234&x=ab=SECRETSECRET#f';
    expect(redactUrl(url)).toBe('http://127.0.0.1:99999/***');
    expect(secretsOf(url)).toEqual([url, 'SECRETVALUE1234']);
    expect(secretsOf('http://h/mcp?token=ab=SECRETSECRET')).toEqual([
      'http://h/mcp?token=ab=SECRETSECRET',
      'ab=SECRETSECRET',
    ]);
    expect(redactUrl('http://u:pw@bad host/mcp?api_key=SK1')).toBe('http://***@bad host/***');
  });
});

describe('redactArgs: a stdio command line fit to show', () => {
  it('hides URL credentials and query values, credential flags and token-like arguments', () => {
    const { shown, secrets } = redactArgs([
      'server.js',
      'postgresql://app:s3cr3t-pw@db.internal:5432/notes?sslkey=KEYFILE1',
      '--api-key=sk_live_0123456789',
      '--token',
      'tok-abcdef',
      'GITHUB_TOKEN=ghp_abc123',
      '0123456789abcdefABCDEF0123',
      '--no-auth',
      'serve.mjs',
      '--port',
      '3000',
      '@modelcontextprotocol/server-filesystem',
      'mcp-server-everything-else',
    ]);
    expect(shown).toEqual([
      'server.js',
      'postgresql://***@db.internal:5432/notes?sslkey=***',
      '--api-key=***',
      '--token',
      '***',
      'GITHUB_TOKEN=***',
      '***',
      '--no-auth',
      'serve.mjs',
      '--port',
      '3000',
      '@modelcontextprotocol/server-filesystem',
      'mcp-server-everything-else',
    ]);
    expect(secrets.sort()).toEqual(
      [
        's3cr3t-pw',
        'KEYFILE1',
        'sk_live_0123456789',
        'tok-abcdef',
        'ghp_abc123',
        '0123456789abcdefABCDEF0123',
      ].sort(),
    );
  });
});
