import { describe, expect, it } from 'vitest';
import { readInputs, splitCommand } from '../src/inputs.js';

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
