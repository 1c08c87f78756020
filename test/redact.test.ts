import { describe, expect, it } from 'vitest';
import { redactText, redactUrl, secretsOf } from '../src/redact.js';

describe('redactUrl', () => {
  it('hides credentials and query values, keeping what says which server', () => {
    expect(redactUrl('https://alice:pa%24s@mcp.example.com:8443/mcp?api_key=SK1&v=2#top')).toBe(
      'https://***@mcp.example.com:8443/mcp?api_key=***&v=***#top',
    );
    expect(redactUrl('http://127.0.0.1:3000/mcp')).toBe('http://127.0.0.1:3000/mcp');
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
      'ghp_0123456789abcdefABCD',
    ]);
    const echoed =
      '{"authorization":"Bearer tok_123456","raw":"tok_123456","user":"alice","key":"SK_LIVE_1"}';
    expect(redactText(echoed, secrets)).toBe(
      '{"authorization":"***","raw":"***","user":"alice","key":"***"}',
    );
  });
  it('count only credential-like or long opaque values, so that masking does not garble logs', () => {
    const secrets = secretsOf('http://h/mcp?v=2026&lang=english&state=0123456789abcdef01', {
      Accept: 'application/json',
      'X-Api-Key': 'k123',
      'X-Tenant': 'tenant-0123456789abcdef',
    });
    expect(secrets.sort()).toEqual(['0123456789abcdef01', 'k123', 'tenant-0123456789abcdef']);
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
    expect(redactUrl(url)).toBe('http://127.0.0.1:99999/mcp?token=***&x=***#f');
    expect(secretsOf(url)).toEqual(['SECRETVALUE1234']);
    expect(secretsOf('http://h/mcp?token=ab=SECRETSECRET')).toEqual(['ab=SECRETSECRET']);
    expect(redactUrl('http://u:pw@bad host/mcp?api_key=SK1')).toBe(
      'http://***@bad host/mcp?api_key=***',
    );
  });
});
