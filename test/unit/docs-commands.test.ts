// Every command of ours in the README and docs/ runs as shown, in this process with the example
// server in memory: each console block prints what it shows, each sh block runs in order as a
// reader runs it, each command quoted in the text is a valid command line. The built CLI's run of
// the quick start, and the action's sample comment, are test/e2e/docs.test.ts's.
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NPX_COMMAND } from '../../src/version.js';
import { ROOT, tempDir } from '../support/cli.js';
import { allDocs, blocks, inlineCommands, printedArgs } from '../support/docs.js';
import { runDocsCommand } from '../support/docs-in-memory.js';
import { MemoryGit } from '../support/memory-git.js';

/** A new repository (no commit yet) with the example server at examples/notes, as a reader's. */
async function workspace(): Promise<{ dir: string; git: MemoryGit }> {
  const dir = await tempDir();
  await mkdir(join(dir, 'examples'));
  await symlink(join(ROOT, 'examples/notes'), join(dir, 'examples/notes'));
  return { dir, git: new MemoryGit(dir) };
}

type Workspace = Awaited<ReturnType<typeof workspace>>;

/** One of our commands as a person pastes it, run in the workspace. */
function runPrinted(command: string, { dir, git }: Workspace) {
  return runDocsCommand(printedArgs(command), { cwd: dir, git });
}

/** The example recorded as "notes", as a reader who followed the quick start has it. */
async function recorded(): Promise<Workspace> {
  const ws = await workspace();
  const update = await runPrinted(
    `${NPX_COMMAND} update --server-name notes -- node examples/notes/server.mjs`,
    ws,
  );
  expect(update.code, update.stderr).toBe(0);
  return ws;
}

/** A git line of the docs, done to the in-memory clone: the ones the docs have, and no other. */
async function runGit(line: string, { dir, git }: Workspace): Promise<void> {
  const commit = /^git add (\S+) && git commit -m "[^"]*"$/.exec(line);
  if (!commit) throw new Error(`a git line the test does not know: ${line}`);
  const path = commit[1] as string;
  git.commitFiles({ [path]: await readFile(join(dir, path), 'utf8') });
}

describe('the commands in the docs', () => {
  it('every console block prints what it shows, run in order in a repository with the example', async () => {
    let ran = 0;
    for (const [path, text] of await allDocs()) {
      const consoles = blocks(text).filter((b) => b.lang === 'console');
      if (consoles.length === 0) continue;
      const ws = await recorded();
      for (const { body } of consoles) {
        const [first, ...rest] = body.split('\n');
        expect(first, path).toMatch(/^\$ npx mcp-annotation-auditor/);
        const printed = await runPrinted((first as string).slice(2), ws);
        expect(printed.code, `${path}: ${first}\n${printed.stderr}`).toBe(0);
        expect(printed.stdout, `${path}: ${first}`).toBe(rest.join('\n'));
        ran++;
      }
    }
    expect(ran).toBeGreaterThan(0);
  });

  it('every command of ours in the docs runs (a placeholder server runs as the example)', async () => {
    let ran = 0;
    for (const [path, text] of await allDocs()) {
      const ws = await workspace();
      // The sh blocks in order, as a reader runs them; the install itself is the adoption test's.
      for (const { body } of blocks(text).filter((b) => b.lang === 'sh'))
        for (const line of body.split('\n').filter(Boolean)) {
          if (line.startsWith('npm ') || line.startsWith('npx @github/')) continue;
          if (line.startsWith('git ')) {
            await runGit(line, ws);
            continue;
          }
          const printed = await runPrinted(line, ws);
          expect(printed.code, `${path}: ${line}\n${printed.stderr}`).toBe(0);
          ran++;
        }
      // Commands quoted in the text: each a valid command line (1 is findings, 2 a refusal).
      const inline = inlineCommands(text);
      if (inline.length === 0) continue;
      const quoted = await recorded();
      for (const command of inline) {
        const printed = await runPrinted(command, quoted);
        expect([0, 1], `${path}: ${command}\n${printed.stderr}`).toContain(printed.code);
        ran++;
      }
    }
    expect(ran).toBeGreaterThan(0);
  });
});
