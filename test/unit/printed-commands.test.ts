// Every command of ours the tool prints for pasting (the CLI's text and markdown, the action's
// job summary and comment, an error's summary) runs as printed, in this process with the servers
// in memory. test/e2e/newcomer.test.ts pastes printed commands into a shell, through npx and the
// packed package.
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NPX_COMMAND, VERSION } from '../../src/version.js';
import { fakeGitHubEach, quote, runIn } from '../support/action-in-memory.js';
import { notesSpec, SERVERS, tempDir, withAnnotations } from '../support/cli.js';
import { DEFAULT_BASE_SHA, type FakeGitHub } from '../support/github-api.js';
import { runCliInMemory } from '../support/in-memory.js';
import { printedCommands } from '../support/printed-commands.js';

/** A command line as sh splits it: plain words and '…' or "…" quoted ones, nothing else. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const [, single, double, plain] of line.matchAll(
    /'([^']*)'|"([^"$`\\]*)"|([^\s'"$`\\]+)|\s+/g,
  ))
    if (single !== undefined || double !== undefined || plain !== undefined)
      words.push(single ?? double ?? (plain as string));
  expect(words.join(''), line).toBe(line.replace(/['"\s]/g, ''));
  return words;
}

describe('every command the tool prints runs when pasted', () => {
  let api: FakeGitHub;
  fakeGitHubEach((started) => {
    api = started;
  });

  it('text, markdown, job summary and comment: each printed command runs, byte for byte', async () => {
    const repo = await tempDir();
    // The fixture servers inside the repository: a path outside it would print as `***`.
    await symlink(SERVERS, join(repo, 'fixtures'));
    const spec = await notesSpec();
    await writeFile(join(repo, 'notes.json'), JSON.stringify(spec));
    const server = ['node', 'fixtures/configurable.mjs', 'notes.json'];
    const cli = (args: string[]) => runCliInMemory(args, { cwd: repo });
    const pasted = (command: string) => {
      const words = shellWords(command);
      expect(words.slice(0, 2).join(' '), command).toBe(NPX_COMMAND);
      return cli(words.slice(2));
    };
    const outputs: Record<string, string> = {};
    // The first run: no class list yet.
    outputs.firstText = (await cli(['check', '--', ...server])).stdout;
    outputs.firstMarkdown = (await cli(['check', '--format', 'markdown', '--', ...server])).stdout;
    const [record] = printedCommands(outputs.firstText);
    expect((await pasted(record as string)).code).toBe(0);
    const baseText = await readFile(join(repo, 'mcp-tool-classes.json'), 'utf8');
    api.setFile(DEFAULT_BASE_SHA, 'mcp-tool-classes.json', baseText);
    // A change: add_note becomes read-only, and delete_note drops a hint no policy requires.
    let changed = withAnnotations(spec, 'add_note', { readOnlyHint: true });
    changed = withAnnotations(changed, 'delete_note', { idempotentHint: undefined });
    await writeFile(join(repo, 'notes.json'), JSON.stringify(changed));
    outputs.text = (await cli(['check', '--', ...server])).stdout;
    outputs.markdown = (await cli(['check', '--format', 'markdown', '--', ...server])).stdout;
    const action = await runIn(api, repo, { command: quote(server) });
    outputs.summary = action.summary;
    outputs.comment = api.commentsOn(1)[0]?.body ?? '';
    // A settings file named and missing: the error says how to create it.
    const missing = await runIn(api, repo, {
      command: quote(server),
      'claude-settings': 'team.json',
    });
    expect(missing.outputs.result).toBe('error');
    outputs.errorSummary = missing.summary;

    const all = new Set<string>();
    for (const [name, output] of Object.entries(outputs)) {
      const commands = printedCommands(output);
      expect(commands.length, `${name} prints a command`).toBeGreaterThan(0);
      for (const command of commands) all.add(command);
    }
    expect([...all].some((c) => c.includes(' rules --write team.json'))).toBe(true);
    for (const command of all) {
      // Nothing invisible: what shows is what runs.
      expect(command).toMatch(/^[\x20-\x7e]+$/);
      expect(command.startsWith(`npx mcp-annotation-auditor@${VERSION} `)).toBe(true);
      const ran = await pasted(command);
      expect(ran.code, `${command}\n${ran.stderr}`).toBe(0);
    }
  });
});
