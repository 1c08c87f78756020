// A server key that normalising changes (`my.notes`, recorded as my_notes): the clients that keep
// a key as written (Gemini CLI, Qwen Code) are judged by it, as their binaries match it
// (test/oracle/gemini.test.ts and qwen.test.ts, "server key my.notes"); the others by the
// normalised name, as theirs do.
import { describe, expect, it } from 'vitest';
import { EXAMPLE } from '../support/cli.js';
import { clientRepository, type CheckReport } from '../support/client-check.js';
import { runCliInMemory } from '../support/in-memory.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** `check --format json` of the notes server under `name`, in `dir`. */
async function checkAs(dir: string, name: string): Promise<CheckReport> {
  const run = await runCliInMemory(
    ['check', '--format', 'json', '--server-name', name, '--', 'node', EXAMPLE],
    { cwd: dir },
  );
  return JSON.parse(run.stdout) as CheckReport;
}

const decisionOf = (report: CheckReport, client: string, tool: string) =>
  report.tools.find((t) => t.name === tool)?.clients?.[client]?.decision;

describe('a server key with a dot', () => {
  it('Gemini CLI: mcp.allowed names the key as written, so its tools are offered', async () => {
    const dir = await clientRepository({
      '.gemini/settings.json': json({ mcp: { allowed: ['my.notes'] } }),
    });
    const dotted = await checkAs(dir, 'my.notes');
    expect(decisionOf(dotted, 'gemini', 'list_notes')).not.toBe('hidden');
    // The same list does not name a server keyed otherwise: its tools stay hidden.
    const other = await checkAs(dir, 'my_notes');
    expect(decisionOf(other, 'gemini', 'list_notes')).toBe('hidden');
  });

  it('Qwen Code: a deny rule with the dotted key refuses the tool', async () => {
    const dir = await clientRepository({
      '.qwen/settings.json': json({ permissions: { deny: ['mcp__my.notes__delete_note'] } }),
    });
    const report = await checkAs(dir, 'my.notes');
    expect(decisionOf(report, 'qwen', 'delete_note')).toBe('deny');
  });

  it('Codex CLI still names the server by the normalised key (mcp__my_notes)', async () => {
    const dir = await clientRepository({
      '.codex/config.toml':
        '[mcp_servers.my_notes]\ncommand = "node"\n\n[mcp_servers.my_notes.tools.delete_note]\napproval_mode = "approve"\n',
    });
    const report = await checkAs(dir, 'my.notes');
    expect(decisionOf(report, 'codex', 'delete_note')).toBe('allow');
  });
});
