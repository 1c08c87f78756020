import { describe, expect, it } from 'vitest';
import { inputSecrets, readInputs } from '../../src/config/inputs.js';
import { splitCommand } from '../../src/config/command-line.js';

describe('splitCommand', () => {
  it('splits words and honours quotes and backslashes, without a shell', () => {
    expect(splitCommand('node dist/server.js --root "/tmp/a b" \'$HOME\' c\\ d')).toEqual([
      'node',
      'dist/server.js',
      '--root',
      '/tmp/a b',
      '$HOME',
      'c d',
    ]);
    expect(splitCommand('  ')).toEqual([]);
    expect(() => splitCommand('node "x')).toThrow(/unclosed " quote/);
  });
});

describe('readInputs', () => {
  it('names the input and the expected format', () => {
    expect(() => readInputs({ INPUT_MODE: 'fix' })).toThrow(
      'Input "mode" has the value "fix", but it must be one of check, update.',
    );
    expect(() => readInputs({ 'INPUT_PR-NUMBER': 'abc' })).toThrow(
      /Input "pr-number".*a pull request number/,
    );
    expect(() => readInputs({ INPUT_POLICIES: 'claude,apple' })).toThrow(/Input "policies"/);
    expect(() => readInputs({ INPUT_URL: 'ftp://x' })).toThrow(/Input "url"/);
  });
  it('treats the default config path as optional and another path as required', () => {
    expect(readInputs({ INPUT_CONFIG: '.github/mcp-annotation-auditor.yml' }).configRequired).toBe(
      false,
    );
    expect(readInputs({ INPUT_CONFIG: 'audit.yml' }).configRequired).toBe(true);
  });
  it('reads multi-line env and headers, skipping blanks and comments', () => {
    const inputs = readInputs({
      INPUT_URL: 'http://127.0.0.1:1/mcp',
      INPUT_HEADERS: 'A: 1\n\n# no\nB: 2',
      INPUT_ENV: 'X=1\nY',
    });
    expect(inputs.overrides.headers).toEqual(['A: 1', 'B: 2']);
    expect(inputs.overrides.env).toEqual(['X=1', 'Y']);
  });
});

describe('inputSecrets', () => {
  it("takes every header value and the URL's secret parts, even from inputs that are refused", () => {
    const secrets = inputSecrets({
      INPUT_URL: 'https://alice:pw123456@h/mcp?api_key=SK_LIVE_SECRET',
      INPUT_HEADERS:
        'Authorization: Bearer tok_123456\n# comment\nX-Api-Key: key_abcdef\nno colon here',
      INPUT_MODE: 'fix',
    });
    expect(secrets).toEqual(
      expect.arrayContaining([
        'SK_LIVE_SECRET',
        'pw123456',
        'Bearer tok_123456',
        'tok_123456',
        'key_abcdef',
        // A line without a colon may be a bare credential: all of it.
        'no colon here',
      ]),
    );
    expect(inputSecrets({ INPUT_COMMAND: 'node server.js' })).toEqual([]);
  });
  it('a url input that is refused is not echoed with its secrets', () => {
    expect(() => readInputs({ INPUT_URL: 'ftp://alice:pw123456@h/x?k=SK_LIVE_SECRET' })).toThrow(
      'Input "url" has the value "ftp://***@h/***"',
    );
  });
});
