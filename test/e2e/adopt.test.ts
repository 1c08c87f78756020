// Adoption as a new user meets it: the package as npm would publish it, installed from its
// tarball into a scratch git repository, then the README's steps and the commands the tool prints.
// What package.json and action.yml must say for publishing is read in test/unit/package-manifest.test.ts.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { NPX_COMMAND, VERSION } from '../../src/version.js';
import { DIST, SERVERS, notesSpec, tempDir, withAnnotations } from '../support/cli.js';
import { npmEnv, packPackage, sh } from '../support/package.js';

const exec = promisify(execFile);

/** The files dist/cli.js loads, following its static and dynamic imports. */
async function cliClosure(dist: string): Promise<string[]> {
  const seen = new Set<string>();
  const next = ['cli.js'];
  while (next.length) {
    const file = next.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(join(dist, file), 'utf8');
    for (const m of text.matchAll(/(?:from|import\()\s*"(\.\/[^"]+)"/g))
      next.push(join(dirname(file), m[1] as string));
  }
  return [...seen].map((f) => `dist/${f}`);
}

let tarball: string;
let packed: string[];
let cache: string;

beforeAll(async () => {
  ({ tarball, files: packed, cache } = await packPackage());
}, 120_000);

describe('the npm package', () => {
  it('holds what the CLI needs and nothing else', async () => {
    // dist/package.json makes its .js files ES modules wherever the package is installed.
    const expected = [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/package.json',
      // What the README promises for editors: the class list's JSON schema.
      'schema/class-list.schema.json',
      ...(await cliClosure(DIST)),
    ];
    expect(packed).toEqual(expected.sort());
    expect(packed).not.toContain('dist/index.js');
    expect(packed).not.toContain('action.yml');
  });
});

describe('adopting it in a repository, from the tarball', () => {
  it('install, update, commit, check passes; a dropped hint fails; the printed commands fix it', async () => {
    const repo = await tempDir();
    const env = npmEnv(cache);
    const git = (...args: string[]) => exec('git', args, { cwd: repo, env });
    await git('init', '-q');
    await git('config', 'user.email', 'dev@example.com');
    await git('config', 'user.name', 'Dev');
    await writeFile(
      join(repo, 'package.json'),
      '{"name":"scratch","version":"1.0.0","private":true}\n',
    );
    const spec = await notesSpec();
    await writeFile(join(repo, 'notes.json'), JSON.stringify(spec));
    await writeFile(
      join(repo, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          notes: { command: 'node', args: [join(SERVERS, 'configurable.mjs'), 'notes.json'] },
        },
      }),
    );

    // 1. Install as a devDependency (offline: the tarball is all it needs).
    expect((await sh(`npm i -D ${tarball}`, repo, env)).code).toBe(0);

    // The first check teaches: one block first, with the exact command to run.
    const first = await sh(`${NPX_COMMAND} check`, repo, env);
    expect(first.code).toBe(1);
    expect(first.stdout.split('\n')[0]).toBe(
      'No class list yet: mcp-tool-classes.json does not exist. To start one:',
    );
    expect(first.stderr).toContain('servers from .mcp.json');
    const printed = /Run this exact command:\n\s+(.+)\n/.exec(first.stdout)?.[1] as string;
    expect(printed).toBe(`npx mcp-annotation-auditor@${VERSION} update`);

    // 2. Write the first class list with the command as printed; 3. commit it.
    const update = await sh(printed, repo, env);
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('UPDATED: mcp-tool-classes.json (3 tools)');
    const list = JSON.parse(await readFile(join(repo, 'mcp-tool-classes.json'), 'utf8')) as {
      tools: Record<string, unknown>;
    };
    expect(Object.keys(list.tools)).toContain('mcp__notes__delete_note');
    await git('add', '-A');
    await git('commit', '-qm', 'Record the MCP tool classes');

    const green = await sh(`${NPX_COMMAND} check`, repo, env);
    expect(green.code).toBe(0);
    expect(green.stdout).toContain('PASSED: 0 errors, 0 warnings, 0 notices');

    // A change drops a hint the directories require: every line the tool prints agrees on the
    // one thing that clears it (declare the hint instead of removing it); none says update.
    await writeFile(
      join(repo, 'notes.json'),
      JSON.stringify(withAnnotations(spec, 'delete_note', { destructiveHint: undefined })),
    );
    const red = await sh(`${NPX_COMMAND} check`, repo, env);
    expect(red.code).toBe(1);
    expect(red.stdout).toMatch(/hint-dropped\s+delete_note/);
    expect(red.stdout).toContain(
      'hint-dropped: Declare destructiveHint: true instead of removing it: policy-openai requires it, and declaring it clears both findings. The approval label clears hint-dropped, not policy-openai.',
    );
    const verdict = red.stdout.trimEnd().split('\n').at(-1) as string;
    expect(verdict).toBe(
      'FAILED: 3 errors, 0 warnings, 0 notices (fail-on: error). Next: declare destructiveHint: true on delete_note again instead of removing it: policy-openai requires it, and neither update nor the approval label clears a policy error.',
    );
    // Following it, and only it: the hint is declared as printed, and the check is green.
    const [, hint, value] = /Next: declare (\w+): (true|false) on delete_note/.exec(verdict) ?? [];
    await writeFile(
      join(repo, 'notes.json'),
      JSON.stringify(withAnnotations(spec, 'delete_note', { [hint as string]: value === 'true' })),
    );
    const declared = await sh(`${NPX_COMMAND} check`, repo, env);
    expect(declared.code, declared.stdout).toBe(0);
    expect(declared.stdout).toContain('PASSED: 0 errors, 0 warnings, 0 notices');

    // An intended class change (add_note becomes read-only): the printed command records it.
    await writeFile(
      join(repo, 'notes.json'),
      JSON.stringify(withAnnotations(spec, 'add_note', { readOnlyHint: true })),
    );
    const relaxed = await sh(`${NPX_COMMAND} check`, repo, env);
    expect(relaxed.code).toBe(1);
    const fix = /unrecorded-change: Run `([^`]+)`/.exec(relaxed.stdout)?.[1] as string;
    expect(fix).toBe(`npx mcp-annotation-auditor@${VERSION} update`);
    expect(relaxed.stdout.trimEnd().split('\n').at(-1)).toContain(`run \`${fix}\` and commit`);
    expect((await sh(fix, repo, env)).code).toBe(0);
    await git('commit', '-qam', 'add_note is read-only now');
    const after = await sh(`${NPX_COMMAND} check`, repo, env);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).toContain('PASSED: 0 errors, 0 warnings, 0 notices');
  }, 180_000);
});
