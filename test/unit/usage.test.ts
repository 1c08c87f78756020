// The CLI's refusals of bad command lines, the CLI in memory: exit 2 and one readable line, no
// stack. test/e2e/cli.test.ts has the real process answer an unknown command and a missing one.
import { describe, expect, it } from 'vitest';
import { EXAMPLE } from '../support/cli.js';
import { runCliInMemory } from '../support/in-memory.js';

describe('usage and exit codes', () => {
  it.each([
    [
      ['check', '--fail-on', 'sometimes', '--', 'node', EXAMPLE],
      /--fail-on must be error, warning, notice or never/,
    ],
    [['check', '--policy', 'anthropic', '--', 'node', EXAMPLE], /Unknown policy "anthropic"/],
    [['check', '--nope'], /Unknown option --nope\./],
    [
      ['check', '--config', 'missing.yml', '--', 'node', EXAMPLE],
      /Could not read the config file missing\.yml/,
    ],
  ])('%j exits 2 with a readable message', async (args, message) => {
    const run = await runCliInMemory(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mcp-annotation-auditor: /);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  });
});
